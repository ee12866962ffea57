package verify

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// s32aModel writes a small random model: three counters, a few guarded
// commands with one or two outcomes whose updates may leave a range (a
// range error, at whatever depth a run first meets one), an unsafe
// condition. Labels are chosen freely (no policy).
func s32aModel(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("model g\n")
	vars := []string{"x", "y", "z"}
	hi := make([]int, 3)
	for i, v := range vars {
		hi[i] = 2 + rng.IntN(6)
		fmt.Fprintf(&b, "var %s : 0 .. %d = %d\n", v, hi[i], rng.IntN(2))
	}
	atom := func() string {
		i := rng.IntN(3)
		op := []string{"<", "<=", "==", ">", ">=", "!="}[rng.IntN(6)]
		return fmt.Sprintf("%s %s %d", vars[i], op, rng.IntN(hi[i]+1))
	}
	update := func() string {
		i := rng.IntN(3)
		switch rng.IntN(4) {
		case 0:
			return fmt.Sprintf("%s' = %d", vars[i], rng.IntN(hi[i]+1))
		case 1:
			return fmt.Sprintf("%s' = %s - %d", vars[i], vars[i], 1+rng.IntN(2))
		case 2:
			j := rng.IntN(3)
			return fmt.Sprintf("%s' = %s + %s", vars[i], vars[i], vars[j])
		}
		return fmt.Sprintf("%s' = %s + %d", vars[i], vars[i], 1+rng.IntN(2))
	}
	outcome := func() string {
		u := update()
		if rng.IntN(3) == 0 {
			if v := update(); v[0] != u[0] {
				u += ", " + v
			}
		}
		return u
	}
	n := 2 + rng.IntN(4)
	for c := range n {
		g := atom()
		if rng.IntN(2) == 0 {
			g += " && " + atom()
		}
		fmt.Fprintf(&b, "action a%d when %s -> %s", c, g, outcome())
		if rng.IntN(3) == 0 {
			fmt.Fprintf(&b, " | %s", outcome())
		}
		b.WriteString("\n")
	}
	u := atom()
	if rng.IntN(2) == 0 {
		u += " && " + atom()
	}
	fmt.Fprintf(&b, "property p { unsafe %s }\n", u)
	return b.String()
}

// s32aDepths is the reference: breadth-first from the start, the depth
// of the first unsafe state and of the first state whose expansion has a
// range error (-1: none), states with a range error not expanded.
func s32aDepths(g *explicit.Generator) (u, r int) {
	m := g.M
	u, r = -1, -1
	init, err := m.InitialState()
	if err != nil {
		return
	}
	seen := map[string]bool{m.FormatState(init): true}
	layer := []symbolic.State{init}
	for d := 0; len(layer) > 0; d++ {
		var next []symbolic.State
		for _, s := range layer {
			switch g.Status(s) {
			case explicit.Unsafe:
				if u < 0 {
					u = d
				}
				continue
			case explicit.Goal:
				continue
			}
			if g.ErrorAt(s, nil) != nil {
				if r < 0 {
					r = d
				}
				continue
			}
			for c := range m.Commands {
				if !g.Guard(s, c) {
					continue
				}
				for o := range m.Commands[c].Outcomes {
					t, err := g.Apply(s, c, o)
					if err != nil {
						continue
					}
					if k := m.FormatState(t); !seen[k] {
						seen[k] = true
						next = append(next, t)
					}
				}
			}
		}
		if u >= 0 || r >= 0 {
			return
		}
		layer = next
	}
	return
}

// s32aCompare runs n random models through the portfolio with bfsm, a
// bfs that never decides (so the hunter's counterexample is held and the
// range question, IC3 and the hunter decide) and checks each answer against
// the reference depths: unsafe only where no range error lies closer
// than the shallowest unsafe state, a range error only where none lies
// farther, safe only where neither is reachable. It returns how many
// ended unknown, and the counts of each answer.
func s32aCompare(t *testing.T, seed uint64, n int, bfsm autoMember, timeout time.Duration) (counts map[string]int) {
	counts = map[string]int{}
	rng := rand.New(rand.NewPCG(seed, 32))
	for i := range n {
		src := s32aModel(rng)
		m, diags := lang.LoadSource("g.spec", []byte(src), lang.Options{})
		if diags.HasErrors() {
			counts["invalid"]++
			continue
		}
		q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
		if err != nil {
			counts["invalid"]++
			continue
		}
		u, r := s32aDepths(q.Gen)
		// bfs itself must agree with the reference
		bv, berr := Decide(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "bfs"})
		var re *explicit.RangeError
		switch {
		case berr != nil && errors.As(berr, &re):
			if r < 0 || (u >= 0 && u < r) {
				t.Errorf("model %d: bfs answers a range error, reference u=%d r=%d\n%s", i, u, r, src)
			}
		case berr != nil:
			t.Errorf("model %d: bfs: %v\n%s", i, berr, src)
			continue
		case bv.Answer == explicit.UnsafeVerdict:
			if u < 0 || (r >= 0 && r < u) {
				t.Errorf("model %d: bfs answers unsafe, reference u=%d r=%d\n%s", i, u, r, src)
			}
		}
		ic3m := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) {
			own := *q
			own.IC3.NoWalks = true
			return decideIC3(ctx, &own, true)
		}}
		if ic3.IsLearned(q.Policy) {
			t.Fatal("no policy expected")
		}
		v, err := s32aRun(q, []autoMember{bfsm, ic3m, {"hunt", hunt}}, nil, timeout)
		what := ""
		switch {
		case err != nil && errors.As(err, &re):
			what = "range error"
			if r < 0 || (u >= 0 && u < r) {
				t.Errorf("model %d: auto answers a range error (%v), reference u=%d r=%d\n%s", i, err, u, r, src)
			}
		case err != nil && reachedRangeError(err):
			what = "range error (ic3's)"
			if r < 0 || (u >= 0 && u < r) {
				t.Errorf("model %d: auto answers ic3's range error (%v), reference u=%d r=%d\n%s", i, err, u, r, src)
			}
		case err != nil:
			t.Errorf("model %d: auto: %v\n%s", i, err, src)
			continue
		case v.Answer == explicit.UnsafeVerdict:
			what = "unsafe by " + v.Engine
			if u < 0 || (r >= 0 && r < u) {
				t.Errorf("model %d: auto answers unsafe (%s, %d steps), reference u=%d r=%d\n%s", i, v.Engine, len(v.Trace)-1, u, r, src)
			}
		case v.Answer == explicit.Safe:
			what = "safe"
			if u >= 0 || r >= 0 {
				t.Errorf("model %d: auto answers safe, reference u=%d r=%d\n%s", i, u, r, src)
			}
		default:
			what = "unknown"
			t.Logf("model %d: unknown (%s), reference u=%d r=%d\n%s", i, v.Reason, u, r, src)
		}
		counts[what]++
	}
	return counts
}

// TestS32aSweepAgainstBFS: a few dozen generated models with range
// errors at various depths; S32A_SWEEP=N runs N of them (the session's
// sweep, reported in verify/FIGURES.md).
func TestS32aSweepAgainstBFS(t *testing.T) {
	n := 30
	if s := os.Getenv("S32A_SWEEP"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	// bfs that gives way at layer 0 after 300 ms: the hunter, IC3 and
	// the range question decide
	gaveWay := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		select {
		case <-time.After(300 * time.Millisecond):
		case <-ctx.Done():
		}
		return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "state limit 1", BFS: &explicit.Result{}}, nil
	}}
	counts := s32aCompare(t, 1, n, gaveWay, 20*time.Second)
	t.Logf("%d models, bfs giving way: %v", n, counts)
	if os.Getenv("S32A_SWEEP") != "" {
		// bfs searching on until the timeout: slow where nothing but
		// bfs could decide (the portfolio waits for it)
		counts = s32aCompare(t, 2, n, s32aSearching, 5*time.Second)
		t.Logf("%d models, bfs searching: %v", n, counts)
	}
}
