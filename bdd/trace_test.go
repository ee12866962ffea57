package bdd_test

import (
	"context"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// withTraceStates runs f with the explicit trace steps bounded by n
// states (0: every step by BDD operations), restoring the bound.
func withTraceStates(n int, f func()) {
	defer func(old int) { *bdd.TraceStates = old }(*bdd.TraceStates)
	*bdd.TraceStates = n
	f()
}

// deepSpec has counterexamples about 150 steps deep: a chain (one state
// a step), and a grid where every step has several states on shortest
// runs, so that the slices hold several states and the explicit windows
// meet their bound; under merger, the runs from y = 30..35 meet in x = y =
// 0 after 5 steps, so the trace picks one of 6 predecessors (pick's
// least).
const deepSpec = `model deep
const N = 150
var x : 0 .. N = 0
var y : 0 .. 40 = 0
action walk when x < N -> x' = x + 1
action up when y < 40 -> y' = y + 1
action back when x > 0 -> x' = x - 1
action fall when y > 0 -> y' = max(y - 7, 0)
property chain { start x == 0 && y == 0 unsafe x == N - 3 }
property corner { start x == 0 && y == 0 unsafe x == N - 3 && y == 40 }
property spread { start x <= 2 && y <= 1 unsafe x == N - 3 }
property merge { start x == 0 && y >= 30 unsafe x == N - 3 }
policy rules walker {
    otherwise -> walk
}
policy rules merger {
    when y > 0 -> fall
    otherwise -> walk
}
policy rules zigzag {
    when y < 40 && x >= 7 * y -> up
    otherwise -> walk
}
`

// TestTraceStepsExact: the counterexamples from explicit trace steps and
// windows (bounded by 256 states, or by 1 or 2 so that most sets fall back
// to BDD operations) are exactly those of BDD operations alone, from the
// layers and from squaring's slices, on generated models and on deep
// chains and grids; and they replay in the explicit semantics.
func TestTraceStepsExact(t *testing.T) {
	ctx := context.Background()
	type model struct {
		name string
		m    *symbolic.Model
	}
	var ms []model
	n := models(t) / 20
	for seed := uint64(1); seed <= uint64(n); seed++ {
		opt := gen.Options{MaxVars: 3, MaxRange: 6}
		if seed%2 == 0 {
			opt = gen.Options{MaxVars: 2, MaxRange: 60, MaxLabels: 2, MaxCommands: 3, MaxOutcomes: 1 + int(seed%4/3), InitialStart: seed%4 == 0}
		}
		ms = append(ms, model{"generated", gen.Model(seed+9000, opt)})
	}
	m, d := lang.LoadSource("deep.spec", []byte(deepSpec), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	for i := range m.Properties {
		mi := *m
		mi.Properties = m.Properties[i : i+1]
		ms = append(ms, model{"deep." + m.Properties[i].Name, &mi})
	}
	compared, explicitSteps, windows := 0, 0, *bdd.ExplicitWindows
	for i, tc := range ms {
		o := bdd.Order(i % 3)
		pds := []*symbolic.PolicyDecl{nil}
		pds = append(pds, tc.m.Policies...)
		for _, pd := range pds {
			for _, after := range []int{-1, 0} {
				var want string
				withSquaring(after, 1<<20, func() { withTraceStates(0, func() { want = verifyText(tc.m, pd, o) }) })
				for _, bound := range []int{256, 2, 1} {
					var got string
					before := *bdd.ExplicitSteps
					withSquaring(after, 1<<20, func() { withTraceStates(bound, func() { got = verifyText(tc.m, pd, o) }) })
					explicitSteps += *bdd.ExplicitSteps - before
					if got != want {
						t.Errorf("%s %d, policy %v, squaring after %d, explicit steps up to %d states:\n got %s\nwant %s", tc.name, i, pd != nil, after, bound, got, want)
					}
					compared++
				}
				var r *bdd.Result
				withSquaring(after, 1<<20, func() {
					var err error
					if r, err = bdd.Verify(ctx, tc.m, tc.m.Properties[0], pd, bdd.Options{Order: o}); err != nil {
						r = nil
					}
				})
				if r == nil || r.Verdict != bdd.Unsafe {
					continue
				}
				g, dec, err := testutil.Explicit(tc.m, tc.m.Properties[0], pd)
				if err != nil {
					t.Fatal(err)
				}
				if err := g.CheckCounterexample(dec, r.Trace); err != nil {
					t.Errorf("%s %d, policy %v, squaring after %d: the counterexample does not replay: %v", tc.name, i, pd != nil, after, err)
				}
			}
		}
	}
	windows = *bdd.ExplicitWindows - windows
	t.Logf("%d counterexamples compared, %d explicit steps, %d explicit windows", compared, explicitSteps, windows)
	if explicitSteps == 0 || windows == 0 {
		t.Error("no trace step or no window was explicit: the test misses its case")
	}
}
