package bdd_test

// Figures for the session-16 section of bdd/FIGURES.md: BDD Prop-U on a
// chain (a counter over 0..N), where its range-error search and its
// rounds each take one step per state of the chain, against the baseline
// (symbolic search only; a progress sample every round) in the same run.
// Run with
//
//	VIGIL_BDD_FIGURES=1 go test ./bdd -run Figures16 -v -timeout 30m

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// chainSpec: walk and jump lead along the counter, stay is a self-loop;
// jump leaves the range at x = N-1, a range error every search from x=0
// meets at radius inf after N-1 steps. With the policy walk, radius 0
// makes every state unsafe (the policy is stuck at N), one round each.
const chainSpec = `model chain
const N = %d
var x : 0 .. N = 0
action walk when x < N -> x' = x + 1
action jump when x > 0 -> x' = x + 2
action stay -> skip
property p { start x == 0 unsafe x == 5 && x == 6 }
policy rules idle {
    otherwise -> stay
}
policy rules walker {
    otherwise -> walk
}
`

func TestFigures16(t *testing.T) {
	if os.Getenv("VIGIL_BDD_FIGURES") != "1" {
		t.Skip("set VIGIL_BDD_FIGURES=1 to measure the figures")
	}
	defer func(n int, d time.Duration) { *bdd.ExplicitRegionStates, *bdd.ProgressEvery = n, d }(*bdd.ExplicitRegionStates, *bdd.ProgressEvery)
	explicitPass, every := *bdd.ExplicitRegionStates, *bdd.ProgressEvery
	ctx := context.Background()
	decide := func(m *symbolic.Model, pd *symbolic.PolicyDecl, r safety.Radius) (string, time.Duration) {
		var s0 symbolic.State
		err := explicitStarts(m, func(s symbolic.State) { s0 = append(symbolic.State(nil), s...) })
		if err != nil {
			t.Fatal(err)
		}
		begin := time.Now()
		// A progress callback, as vigil safe installs one (even with
		// --quiet, for the status line's figures).
		res, err := bdd.PropU(ctx, m, m.Properties[0], pd, r, nil, bdd.Options{Progress: func(bdd.Progress) {}})
		if err != nil {
			t.Fatal(err)
		}
		ans, err := res.Decide([]symbolic.State{s0})
		d := time.Since(begin)
		if err != nil {
			return "range error", d
		}
		return ans[0].String(), d
	}
	sec := func(d time.Duration) string { return fmt.Sprintf("%.2f", d.Seconds()) }

	t.Log("Range-error search, r = inf, the start state x=0:")
	t.Log("| N | answer | s before (symbolic only) | s after (explicit pass) | ratio |")
	t.Log("|---:|---|---:|---:|---:|")
	for _, n := range []int{20000, 200000} {
		m := testutil.LoadSource(t, "chain.spec", fmt.Sprintf(chainSpec, n))
		*bdd.ExplicitRegionStates = 0
		ansB, dB := decide(m, nil, safety.Inf)
		*bdd.ExplicitRegionStates = explicitPass
		ansA, dA := decide(m, nil, safety.Inf)
		if ansA != ansB {
			t.Fatalf("N=%d: %s after, %s before", n, ansA, ansB)
		}
		t.Logf("| %d | %s | %s | %s | %.0f |", n, ansA, sec(dB), sec(dA), float64(dB)/float64(dA))
	}

	t.Log("Rounds at r = 0 (one per state of the chain; D+4 on tarjansafe.spec), the first start state:")
	t.Log("| instance | answer | s before (sample every round) | s after (every 50 ms) | ratio |")
	t.Log("|---|---|---:|---:|---:|")
	for _, n := range []int{5000, 20000, 50000} {
		m := testutil.LoadSource(t, "chain.spec", fmt.Sprintf(chainSpec, n))
		pd := m.Policy("walker")
		*bdd.ProgressEvery = 0
		ansB, dB := decide(m, pd, 0)
		*bdd.ProgressEvery = every
		ansA, dA := decide(m, pd, 0)
		if ansA != ansB {
			t.Fatalf("N=%d: %s after, %s before", n, ansA, ansB)
		}
		t.Logf("| chain N=%d | %s | %s | %s | %.1f |", n, ansA, sec(dB), sec(dA), float64(dB)/float64(dA))
	}
	for _, d := range []string{"3000", "10000"} {
		m := shipped(t, "tarjansafe.spec", map[string]string{"D": d})
		pd := m.Policy("hasty")
		*bdd.ProgressEvery = 0
		ansB, dB := decide(m, pd, 0)
		*bdd.ProgressEvery = every
		ansA, dA := decide(m, pd, 0)
		if ansA != ansB {
			t.Fatalf("D=%s: %s after, %s before", d, ansA, ansB)
		}
		t.Logf("| tarjansafe.spec D=%s, hasty | %s | %s | %s | %.1f |", d, ansA, sec(dB), sec(dA), float64(dB)/float64(dA))
	}
}

// explicitStarts calls f with the start states of m's property.
func explicitStarts(m *symbolic.Model, f func(symbolic.State)) error {
	g, err := explicit.New(m, m.Properties[0])
	if err != nil {
		return err
	}
	return g.Starts(func(s symbolic.State) bool { f(s); return false })
}
