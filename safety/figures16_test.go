package safety_test

// Figures for the session-16 sections of safety/FIGURES.md: TarjanSafe's
// look-ahead on an always-applicable self-loop, and VI's region at a
// finite radius, each against its baseline (the code before, kept behind
// a test-only switch) in the same run. Run with
//
//	VIGIL_SAFETY_FIGURES=1 go test ./safety -run Figures16 -v -timeout 30m

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
)

// selfLoopSpec is a counter over 0..N whose tested policy stays put (an
// always-applicable self-loop) while walk leads to the unsafe end N, and
// (with side) a second counter reachable only by deviating.
const selfLoopSpec = `model selfloop
const N = %d
var x : 0 .. N = 0
var y : 0 .. 3 = 0
action walk when x < N -> x' = x + 1
action stay -> skip
action side when y < 3 -> y' = y + 1
property p { start x == 0 && y == 0 unsafe x == N }
policy rules idle {
    otherwise -> stay
}
`

// run16 decides the model's start state x=0 y=0 with a fresh decider made
// by mk, and returns its answer, expansions and the time taken.
func run16(t *testing.T, m *symbolic.Model, r safety.Radius, mk func(*safety.Space, safety.Radius) safety.Decider) (bool, int, time.Duration) {
	t.Helper()
	g, dec, err := testutil.Explicit(m, m.Property(""), m.Policy("idle"))
	if err != nil {
		t.Fatal(err)
	}
	sp := safety.NewSpace(g, dec)
	d := mk(sp, r)
	id, err := sp.Intern(symbolic.State{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	ok, err := d.Decide(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return ok, d.Stats().Expanded, time.Since(begin)
}

func TestFigures16(t *testing.T) {
	if os.Getenv("VIGIL_SAFETY_FIGURES") != "1" {
		t.Skip("set VIGIL_SAFETY_FIGURES=1 to measure the figures")
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d.Nanoseconds())/1e6) }
	tarjan := func(sp *safety.Space, r safety.Radius) safety.Decider { return safety.NewTarjan(sp, r) }
	tarjanBase := func(sp *safety.Space, r safety.Radius) safety.Decider { return safety.NewTarjanNoLookahead(sp, r) }
	vi := func(sp *safety.Space, r safety.Radius) safety.Decider { return safety.NewVI(sp, r) }
	viBase := func(sp *safety.Space, r safety.Radius) safety.Decider { return safety.NewVIAllGroups(sp, r) }

	t.Log("TarjanSafe on the self-loop counter, r = inf:")
	t.Log("| N | answer | exp before | ms before | exp after | ms after | exp ratio | time ratio |")
	t.Log("|---:|---|---:|---:|---:|---:|---:|---:|")
	for _, n := range []int{1000, 10000, 100000, 1000000} {
		m := testutil.LoadSource(t, "selfloop.spec", fmt.Sprintf(selfLoopSpec, n))
		okB, eB, dB := run16(t, m, safety.Inf, tarjanBase)
		okA, eA, dA := run16(t, m, safety.Inf, tarjan)
		if okA != okB {
			t.Fatalf("N=%d: the look-ahead answers %v, the baseline %v", n, okA, okB)
		}
		t.Logf("| %d | %v | %d | %s | %d | %s | %.0f | %.0f |", n, okA, eB, ms(dB), eA, ms(dA), float64(eB)/float64(eA), float64(dB)/float64(max(dA, time.Microsecond)))
	}

	t.Log("TarjanSafe elsewhere (start states, one decider per run; time: best of five, alternating), before and after:")
	t.Log("| instance | r | answers | exp before | exp after | time ratio before/after |")
	t.Log("|---|---|---|---:|---:|---:|")
	for _, c := range []struct {
		file, pol string
		defs      []string
		r         safety.Radius
	}{
		{"tarjansafe.spec", "patient", []string{"D=1000"}, safety.Inf},
		{"tarjansafe.spec", "patient", []string{"D=1000"}, 1},
		{"flappy.spec", "steer", []string{"S=6", "W=48"}, safety.Inf},
		{"flappy.spec", "steer", []string{"S=6", "W=72"}, safety.Inf},
		{"flappy.spec", "steer", []string{"S=4", "W=40"}, 1},
	} {
		in := load(t, c.file, c.pol, c.defs...)
		var exp [2]int
		var dur [2]time.Duration
		var ans [2]string
		// Best of five runs each, alternating, so that neither side pays
		// alone for a cold heap.
		for rep := 0; rep < 10; rep++ {
			i := rep % 2
			mk := []func(*safety.Space, safety.Radius) safety.Decider{tarjanBase, tarjan}[i]
			sp := safety.NewSpace(in.g, in.dec)
			d := mk(sp, c.r)
			begin := time.Now()
			safe := 0
			for _, s := range in.starts {
				id, _ := sp.Intern(s)
				ok, err := d.Decide(context.Background(), id)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					safe++
				}
			}
			if dt := time.Since(begin); rep < 2 || dt < dur[i] {
				dur[i] = dt
			}
			exp[i] = d.Stats().Expanded
			ans[i] = fmt.Sprintf("%d/%d safe", safe, len(in.starts))
		}
		if ans[0] != ans[1] {
			t.Fatalf("%s %v r=%v: before %s, after %s", c.file, c.defs, c.r, ans[0], ans[1])
		}
		t.Logf("| %s %v | %v | %s | %d | %d | %.2f |", c.file, c.defs, c.r, ans[1], exp[0], exp[1], float64(dur[0])/float64(max(dur[1], time.Microsecond)))
	}

	t.Log("VI on the self-loop counter (the side counter is reachable only by deviating):")
	t.Log("| N | r | answer | exp before | ms before | exp after | ms after | exp ratio | time ratio |")
	t.Log("|---:|---|---|---:|---:|---:|---:|---:|---:|")
	for _, n := range []int{1000, 100000} {
		m := testutil.LoadSource(t, "selfloop.spec", fmt.Sprintf(selfLoopSpec, n))
		for _, r := range []safety.Radius{0, 1, 2} {
			okB, eB, dB := run16(t, m, r, viBase)
			okA, eA, dA := run16(t, m, r, vi)
			if okA != okB {
				t.Fatalf("N=%d r=%v: VI answers %v, the baseline %v", n, r, okA, okB)
			}
			t.Logf("| %d | %v | %v | %d | %s | %d | %s | %.0f | %.0f |", n, r, okA, eB, ms(dB), eA, ms(dA), float64(eB)/float64(eA), float64(dB)/float64(max(dA, time.Microsecond)))
		}
	}
}
