package bdd_test

import (
	"context"
	"math"
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS28bEdgeOfInt64: expressions whose values reach exactly -2^63, or
// subtract -2^63, stay in int64 and are decided, not refused as needing
// more than 64 bits (subOK refused any b = MinInt, mulOK any product of
// magnitude 2^63, though -2^63 is an int64). Found by TestVerifyLarge at
// VIGIL_CONFORMANCE_SHIFT=3000000 VIGIL_CONFORMANCE_SCALE=4.
func TestS28bEdgeOfInt64(t *testing.T) {
	ctx := context.Background()
	x := symbolic.V(0)
	add := func(as ...*symbolic.Expr) *symbolic.Expr { return &symbolic.Expr{Op: symbolic.OpAdd, Args: as} }
	sub := func(a, b *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{a, b}}
	}
	mul := func(k int, a *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{a}}
	}
	for _, tc := range []struct {
		name   string
		lo, hi int
		unsafe *symbolic.Cond
	}{
		// 2^62 * (x - 1) reaches -2^63 at x = -1
		{"product -2^63", -1, 1, symbolic.Compare(mul(1<<62, add(x, symbolic.Lit(-1))), symbolic.Le, symbolic.Lit(math.MinInt64))},
		// (x + -2^63) - -2^63 is x
		{"minus -2^63", 0, 2, symbolic.Compare(sub(add(x, symbolic.Lit(math.MinInt64)), symbolic.Lit(math.MinInt64)), symbolic.Eq, symbolic.Lit(0))},
	} {
		m := &symbolic.Model{
			Name:   "edge",
			Vars:   []symbolic.Var{{Name: "x", Lo: tc.lo, Hi: tc.hi, HasInit: true, Init: tc.hi}},
			Labels: []symbolic.Label{{Name: "down"}},
			Commands: []symbolic.Command{{Label: 0, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{Prob: 1,
				Assigns: []symbolic.Assign{{Var: 0, Value: &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{add(x, symbolic.Lit(-1)), symbolic.Lit(tc.lo)}}}}}}}},
			Properties: []*symbolic.Property{{Name: "p", Unsafe: tc.unsafe}},
		}
		prop := m.Properties[0]
		if !m.CondFits(tc.unsafe) {
			t.Fatalf("%s: the interval analysis says the condition leaves int64", tc.name)
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		want, err := explicit.Search(ctx, g, explicit.Options{StopAtUnsafe: true})
		if err != nil {
			t.Fatal(err)
		}
		got, err := bdd.Verify(ctx, m, prop, nil, bdd.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got.Verdict.Explicit() != want.Verdict || want.Verdict != explicit.UnsafeVerdict {
			t.Errorf("%s: BDD says %v, BFS %v (want unsafe)", tc.name, got.Verdict, want.Verdict)
		}
		if err := g.CheckCounterexample(nil, got.Trace); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
