package prob_test

// Review of the bounded properties (s26r): a stop during the rounds of a
// small model, whose rounds each update fewer than 4096 states.

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

const s26rCoin = `model coin
var x : 0 .. 3 = 0
action go when x < 3 -> x' = x + 1 | x' = x
action stay when x < 3 -> skip
property p { unsafe x == 3 }
`

// TestBoundedStopsOnSmallModel: 10^10 rounds over 4 states stop within
// a second of the context's end, for ii and exact, step bounds and the
// reward of the first steps (the context was checked only at state 4095
// of a round: never on a small model, so --timeout and SIGTERM were
// ignored for hours).
func TestBoundedStopsOnSmallModel(t *testing.T) {
	m := testutil.LoadSource(t, "coin.spec", s26rCoin)
	g := testutil.Generator(t, m, m.Properties[0])
	pm, err := prob.Build(context.Background(), g, prob.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	huge := big.NewRat(10_000_000_000, 1)
	qs := []prob.Query{
		{Name: "steps", Target: explicit.Unsafe, Max: true, Bounds: &symbolic.PathBounds{Steps: true, Upper: huge}},
		{Name: "lower", Target: explicit.Unsafe, Max: true, Bounds: &symbolic.PathBounds{Steps: true, Lower: huge, Upper: huge}},
		{Name: "cumulative", Target: explicit.Goal, Max: true, Reward: &symbolic.Reward{Name: "cost", Steps: true, Edges: true},
			Bounds: &symbolic.PathBounds{Steps: true, Instant: true, Upper: huge}},
	}
	for _, q := range qs {
		for _, method := range []prob.Method{prob.II, prob.Exact} {
			ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
			t0 := time.Now()
			_, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: method, Epsilon: 1e-6})
			cancel()
			if took := time.Since(t0); took > 3*time.Second {
				t.Errorf("%s %s: stopped %v after the context's end", q.Name, method, took)
			}
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("%s %s: err %v, want the deadline", q.Name, method, err)
			}
		}
	}
}

// TestStrictLowerRewardBoundGoesThrough: a reward bound > 0 counts the
// accumulations from 1, like ≥ 1, so the goal states do not end a run
// (Options.Through); it was read as no lower bound (Lower.Sign() is 0),
// and P(F x ≤ 1 with reward > 0) from x = 0 was 0 where ≥ 1 gave 1.
func TestStrictLowerRewardBoundGoesThrough(t *testing.T) {
	one := &symbolic.Reward{Name: "one", Default: big.NewRat(1, 1), Exit: true}
	for _, b := range []*symbolic.PathBounds{
		{Reward: one, Lower: new(big.Rat), LowerStrict: true},
		{Reward: one, Lower: big.NewRat(1, 2)},
		{Reward: one, Lower: big.NewRat(1, 1)},
		{Steps: true, Lower: new(big.Rat), LowerStrict: true, Upper: big.NewRat(3, 1)},
	} {
		q := prob.Query{Name: "p", Target: explicit.Goal, Max: true, Bounds: b}
		if !q.NeedsThrough() {
			t.Errorf("lower bound %s (strict %v): the goal states would end the runs", b.Lower.RatString(), b.LowerStrict)
		}
	}
	for _, b := range []*symbolic.PathBounds{
		{Reward: one, Lower: new(big.Rat)},
		{Reward: one, Upper: big.NewRat(3, 1)},
		{Steps: true, Lower: new(big.Rat), Upper: big.NewRat(3, 1)},
	} {
		q := prob.Query{Name: "p", Target: explicit.Goal, Max: true, Bounds: b}
		if q.NeedsThrough() {
			t.Errorf("bounds %+v: no lower bound above 0, yet the goal states are expanded", b)
		}
	}
}

// TestBoundedSureIsOne: under ii a step-bounded probability that is
// exactly 1 has the bounds [1, 1] (a state whose choice surely gets there,
// every successor's lower bound being 1), as exact says, and no other
// value has the lower bound 1; before, the rounding widened every sum, and
// P>=1 [F<=3 φ] on a chain that surely gets there was unknown.
func TestBoundedSureIsOne(t *testing.T) {
	ctx := context.Background()
	ones := 0
	for i, m := range models(100) {
		prop := m.Properties[0]
		g := testutil.Generator(t, m, prop)
		pm, err := prob.Build(ctx, g, prob.Options{Exact: true, MaxStates: 60, Through: true})
		if err != nil {
			continue
		}
		left := symbolic.Not(prop.Unsafe)
		for _, max := range []bool{true, false} {
			for _, lu := range [][2]int64{{0, 3}, {0, 6}, {2, 5}} {
				q := prob.Query{Name: "p", Target: explicit.Goal, Max: max, Until: true,
					Bounds: &symbolic.PathBounds{Steps: true, Lower: big.NewRat(lu[0], 1), Upper: big.NewRat(lu[1], 1), Left: left}}
				ex, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: prob.Exact})
				if err != nil {
					t.Fatal(err)
				}
				ii, err := prob.Ask(ctx, pm, q, prob.SolveOptions{Method: prob.II, Epsilon: 1e-6})
				if err != nil {
					t.Fatal(err)
				}
				for s := range pm.NumStates() {
					one := ex.Result.Exact[s].Cmp(big.NewRat(1, 1)) == 0
					lo, hi := ii.Result.Lower[s], ii.Result.Upper[s]
					if one != (lo == 1) || one && hi != 1 {
						t.Errorf("model %d %s: state %s: exact %s, ii [%g, %g]", i, q, pm.G.M.FormatState(pm.StateOf(uint32(s))), ex.Result.Exact[s].RatString(), lo, hi)
					}
					if one {
						ones++
					}
				}
			}
		}
	}
	if ones < 100 {
		t.Fatalf("only %d states of value 1: the test lost its teeth", ones)
	}
	t.Logf("%d states of value 1", ones)
}
