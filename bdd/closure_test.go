package bdd_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// withSquaring runs f with the squaring settings given (no time limit;
// nodes < 0: no relation is narrow enough), restoring them.
func withSquaring(after, nodes int, f func()) {
	defer func(a, n, s, w int) {
		*bdd.SquareAfter, *bdd.ClosureNodes, *bdd.ClosureShare, *bdd.ClosureMaxNodes = a, n, s, w
	}(*bdd.SquareAfter, *bdd.ClosureNodes, *bdd.ClosureShare, *bdd.ClosureMaxNodes)
	*bdd.SquareAfter, *bdd.ClosureNodes, *bdd.ClosureShare = after, nodes, 0
	if nodes < 0 {
		*bdd.ClosureNodes, *bdd.ClosureMaxNodes = 1<<20, 0
	}
	f()
}

// verifyText describes everything Verify answers: the verdict, the
// counterexample, the states reached, the depth, or the error.
func verifyText(m *symbolic.Model, pd *symbolic.PolicyDecl, o bdd.Order) string {
	r, err := bdd.Verify(context.Background(), m, m.Properties[0], pd, bdd.Options{Order: o})
	if err != nil {
		return "error: " + err.Error()
	}
	s := fmt.Sprintf("%v %s states %v starts %v depth %d trace", r.Verdict, r.Reason, r.States, r.Starts, r.Depth)
	for _, st := range r.Trace {
		s += fmt.Sprintf(" %s/%d/%d/%d", m.FormatState(st.State), st.Label, st.Cmd, st.Outcome)
	}
	return s
}

// exploreText describes everything Explore answers.
func exploreText(m *symbolic.Model, pd *symbolic.PolicyDecl, o bdd.Order) string {
	e, err := bdd.Explore(context.Background(), m, m.Properties[0], pd, bdd.Options{Order: o})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%v %s states %v starts %v unsafe %v goal %v deadlocks %v stuck %v transitions %v depth %d",
		e.Complete, e.Reason, e.States, e.Starts, e.Unsafe, e.Goal, e.Deadlocks, e.Stuck, e.Transitions, e.Depth)
}

// propuText describes Prop-U's answer for every state.
func propuText(m *symbolic.Model, pd *symbolic.PolicyDecl, r safety.Radius, o bdd.Order) string {
	res, err := bdd.PropU(context.Background(), m, m.Properties[0], pd, r, nil, bdd.Options{Order: o})
	if err != nil {
		return "error: " + err.Error()
	}
	s := fmt.Sprintf("complete %v unsafe %v of %v:", res.Complete, res.Unsafe, res.Total)
	states := gen.States(m)
	ans, err := res.Decide(states)
	if err != nil {
		return s + " decide error: " + err.Error()
	}
	for i, x := range states {
		s += fmt.Sprintf(" %s=%v", m.FormatState(x), ans[i])
	}
	// Each state alone, with the range-error search symbolic only.
	defer func(n int) { *bdd.ExplicitRegionStates = n }(*bdd.ExplicitRegionStates)
	*bdd.ExplicitRegionStates = 0
	for _, x := range states {
		a, err := res.Decide([]symbolic.State{x})
		s += fmt.Sprintf(" %v/%v", a, err)
	}
	starts, unsafe, safe, err := res.StartCounts()
	return s + fmt.Sprintf(" starts %v %v %v %v", starts, unsafe, safe, err)
}

// TestSquaringExact: with iterative squaring tried at once (after 0, 1 or
// 3 layered rounds) or abandoned (out of nodes, or a relation too wide), Verify gives exactly
// the layered rounds' answer (verdict, counterexample, states, depth,
// error message) and Prop-U (r = 0 and r = inf) the same answer for every
// state, and the same range error from its symbolic search, on generated
// models with and without range errors, policies and orders.
func TestSquaringExact(t *testing.T) {
	n := models(t) / 5
	compared, squared := 0, map[string]int{}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: seed%3 == 0, MaxVars: 3, MaxRange: 6})
		o := bdd.Order(seed % 3)
		for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			var want string
			text := func() string { return verifyText(m, pd, o) + "\n" + exploreText(m, pd, o) }
			withSquaring(-1, 1<<20, func() { want = text() })
			for _, c := range [][2]int{{0, 1 << 20}, {1, 1 << 20}, {3, 1 << 20}, {0, 1}, {0, -1}} {
				var got string
				withSquaring(c[0], c[1], func() { got = text() })
				if got != want {
					t.Errorf("seed %d, policy %v, squaring after %d rounds, allowance %d: Verify and Explore\n got %s\nwant %s", seed, pd != nil, c[0], c[1], got, want)
				}
				compared++
			}
		}
		pd := m.Policies[0]
		for _, r := range []safety.Radius{0, safety.Inf} {
			var want string
			withSquaring(-1, 1<<20, func() { want = propuText(m, pd, r, o) })
			for _, c := range [][2]int{{0, 1 << 20}, {2, 1 << 20}, {0, 1}, {0, -1}} {
				var got string
				withSquaring(c[0], c[1], func() { got = propuText(m, pd, r, o) })
				if got != want {
					t.Errorf("seed %d, squaring after %d rounds, allowance %d: Prop-U r=%v\n got %s\nwant %s", seed, c[0], c[1], r, got, want)
				}
				compared++
			}
		}
		withSquaring(0, 1<<20, func() {
			r, err := bdd.Verify(context.Background(), m, m.Properties[0], nil, bdd.Options{Order: o})
			switch {
			case err == nil && r.Stats.Squarings > 0:
				squared[r.Verdict.String()]++
			case err != nil && strings.Contains(err.Error(), "range error"):
				squared["range error"]++
			}
		})
	}
	t.Logf("%d answers compared; models squared (verify without policy): %v", compared, squared)
	for _, k := range []string{"safe", "unsafe", "range error"} {
		if squared[k] == 0 {
			t.Errorf("no squared verification ends %s: the test misses a case", k)
		}
	}
}

// TestSquaredCounterexample: when squaring finds an unsafe state first,
// Verify's counterexample (built from the slices of shortest runs, not
// from layered rounds) is the layered rounds' own, replays in the
// explicit semantics, and is as long as explicit BFS's; on generated
// models of short and long runs (ranges up to 60, one outcome a command).
func TestSquaredCounterexample(t *testing.T) {
	ctx := context.Background()
	n := models(t) / 5
	sliced, compared := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{MaxVars: 3, MaxRange: 6}
		if seed%2 == 0 {
			opt = gen.Options{MaxVars: 2, MaxRange: 60, MaxLabels: 2, MaxCommands: 3, MaxOutcomes: 1, InitialStart: seed%4 == 0}
		}
		m := gen.Model(seed+9000, opt)
		o := bdd.Order(seed % 3)
		for _, pd := range []*symbolic.PolicyDecl{nil, m.Policies[0]} {
			var want, got string
			withSquaring(-1, 1<<20, func() { want = verifyText(m, pd, o) })
			before := *bdd.SlicedTraces
			var r *bdd.Result
			withSquaring(0, 1<<20, func() {
				got = verifyText(m, pd, o)
				var err error
				if r, err = bdd.Verify(ctx, m, m.Properties[0], pd, bdd.Options{Order: o}); err != nil {
					r = nil
				}
			})
			if got != want {
				t.Errorf("seed %d, policy %v: Verify with squaring\n got %s\nwant %s", seed, pd != nil, got, want)
			}
			if *bdd.SlicedTraces == before || r == nil || r.Verdict != bdd.Unsafe {
				continue
			}
			sliced++
			g, dec, err := testutil.Explicit(m, m.Properties[0], pd)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.CheckCounterexample(dec, r.Trace); err != nil {
				t.Errorf("seed %d, policy %v: the squared counterexample does not replay: %v", seed, pd != nil, err)
			}
			wv, err := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Trace) != len(wv.Trace) || len(r.Trace) != r.Depth+1 {
				t.Errorf("seed %d, policy %v: squared counterexample of %d steps at depth %d, BFS's has %d", seed, pd != nil, len(r.Trace)-1, r.Depth, len(wv.Trace)-1)
			}
			compared++
		}
	}
	t.Logf("%d squared counterexamples replayed", compared)
	if sliced == 0 {
		t.Error("no counterexample came from squaring: the test misses its case")
	}
}
