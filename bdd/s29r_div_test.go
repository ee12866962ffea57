package bdd_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// s29rExpr builds random integer expressions over x (near -2^63), z
// (near 2^63-1) and y (0..3): an operand's interval can span nearly all of
// int64 (if/min/max of x and z), so a division's operand reaches -2^63
// while reaching 2^63-1 too, unlike TestS29dDivMinInt's (one variable, a
// few values wide). Divisions nest, and both modulus forms appear.
func s29rExpr(r *rand.Rand, d int) *symbolic.Expr {
	x, y, z := symbolic.V(0), symbolic.V(1), symbolic.V(2)
	ks := []int{1, 2, 3, 5, 1 << 62, math.MaxInt64, 1<<62 + 1, 1 << 31}
	k := ks[r.IntN(len(ks))]
	div := func(a *symbolic.Expr) *symbolic.Expr { return s29Div(a, k) }
	mul := func(a *symbolic.Expr) *symbolic.Expr { return s29Mul(k, a) }
	if d == 0 {
		switch r.IntN(5) {
		case 0:
			return s29Bin(symbolic.OpAdd, x, y)
		case 1:
			return s29Bin(symbolic.OpSub, z, y)
		case 2:
			return x
		case 3:
			return z
		}
		return y
	}
	a := s29rExpr(r, d-1)
	switch r.IntN(8) {
	case 0, 1:
		return div(a)
	case 2:
		return s29Bin(symbolic.OpSub, a, mul(div(a)))
	case 3:
		return s29Neg(s29Bin(symbolic.OpSub, s29Neg(a), mul(div(s29Neg(a)))))
	case 4:
		return &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{a, s29rExpr(r, d-1)}}
	case 5:
		return &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{a, s29rExpr(r, d-1)}}
	case 6:
		return &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Compare(y, symbolic.Gt, symbolic.Lit(r.IntN(4))), Args: []*symbolic.Expr{a, s29rExpr(r, d-1)}}
	}
	return s29Bin(symbolic.OpAdd, div(a), y)
}

// TestS29rDivWideOperand: start-state counts of conditions over random
// divisions whose operands span both int64 edges agree with exact
// big-integer evaluation, and bdd refuses only where the interval
// analysis says a value may leave int64.
func TestS29rDivWideOperand(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	xlos := []int{math.MinInt64 + 1, math.MinInt64 + 2, -(1 << 62) - 2}
	zlos := []int{math.MaxInt64 - 3, math.MaxInt64 - 5, 1<<62 - 1}
	s29StartCampaign(t, n, 0x29e, 3, func(r *rand.Rand) s29Case {
		e := s29rExpr(r, 1+r.IntN(3))
		xlo, zlo := xlos[r.IntN(len(xlos))], zlos[r.IntN(len(zlos))]
		vars := []symbolic.Var{{Name: "x", Lo: xlo, Hi: xlo + 2}, {Name: "y", Lo: 0, Hi: 3}, {Name: "z", Lo: zlo, Hi: zlo + 2}}
		op := symbolic.CmpOp(r.IntN(6))
		c := big.NewInt(int64(r.IntN(7) - 3))
		if r.IntN(2) == 0 {
			if v := e.EvalBig(symbolic.State{xlo + r.IntN(3), r.IntN(4), zlo + r.IntN(3)}); v.IsInt64() {
				c = v
			}
		}
		return s29Case{vars: vars, e: e, op: op, c: c, where: fmt.Sprintf("x in %d.., z in %d..", xlo, zlo)}
	})
}

// TestS29rAssignFar: an assignment t' = e of random divisions over
// operands at both int64 edges to a variable t whose small range lies
// anywhere (at either edge, or at 0), where e - lo may leave int64: bdd
// and bfs agree on the verdict (a range error in both, or the same
// safe/unsafe answer), and bdd refuses only where a value may leave
// int64.
func TestS29rAssignFar(t *testing.T) {
	ctx := context.Background()
	n := 600
	if testing.Short() {
		n = 150
	}
	tlos := []int{math.MinInt64 + 1, -5, 0, 3, math.MaxInt64 - 4, 1 << 62}
	decided := 0
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 0x29f))
		e := s29rExpr(r, 1+r.IntN(3))
		xlo, zlo := math.MinInt64+1+r.IntN(2), math.MaxInt64-3-r.IntN(2)
		tlo := tlos[r.IntN(len(tlos))]
		if r.IntN(3) == 0 {
			// t's range around a value e takes
			if v := e.EvalBig(symbolic.State{xlo, r.IntN(4), zlo}); v.IsInt64() && v.Int64() > math.MinInt64+2 && v.Int64() < math.MaxInt64-4 {
				tlo = int(v.Int64()) - r.IntN(3)
			}
		}
		tv := symbolic.V(3)
		// the step is taken only where y > g: g = 3 never, so the model
		// is safe and has no range error whatever e's values
		g := r.IntN(4)
		m := &symbolic.Model{
			Name: "far",
			Vars: []symbolic.Var{{Name: "x", Lo: xlo, Hi: xlo + 1}, {Name: "y", Lo: 0, Hi: 3}, {Name: "z", Lo: zlo, Hi: zlo + 1},
				{Name: "t", Lo: tlo, Hi: tlo + 3, HasInit: true, Init: tlo}},
			Labels: []symbolic.Label{{Name: "set"}},
			Commands: []symbolic.Command{{Label: 0, Guard: symbolic.And(symbolic.Compare(symbolic.V(1), symbolic.Gt, symbolic.Lit(g)), symbolic.Compare(tv, symbolic.Eq, symbolic.Lit(tlo))),
				Outcomes: []symbolic.Outcome{{Prob: 1, Assigns: []symbolic.Assign{{Var: 3, Value: e}}}}}},
			Properties: []*symbolic.Property{{Name: "p", Start: symbolic.True(), Unsafe: symbolic.Compare(tv, symbolic.Eq, symbolic.Lit(tlo+1+r.IntN(3)))}},
		}
		prop := m.Properties[0]
		desc := fmt.Sprintf("seed %d: t in %d..%d, y > %d -> t' = %s", seed, tlo, tlo+3, g, m.ExprString(e))
		gen, err := explicit.New(m, prop)
		if err != nil {
			t.Fatalf("%s: %v", desc, err)
		}
		want, werr := explicit.Search(ctx, gen, explicit.Options{StopAtUnsafe: true})
		got, gerr := bdd.Verify(ctx, m, prop, nil, bdd.Options{})
		if gerr != nil && werr == nil && strings.Contains(gerr.Error(), "bits") {
			if m.Fits(e) {
				t.Errorf("%s: every value fits in int64, BDD refuses: %v", desc, gerr)
			}
			continue
		}
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%s: bfs: %v (%v), bdd: %v (%v)", desc, werr, want.Verdict, gerr, got.Verdict)
			continue
		}
		if werr != nil {
			if !strings.Contains(gerr.Error(), "range") {
				t.Errorf("%s: bfs: %v; bdd: %v", desc, werr, gerr)
			}
			decided++
			continue
		}
		decided++
		if (want.Verdict == explicit.Safe) != (got.Verdict == bdd.Safe) || want.Stats.States != int(got.States.Int64()) {
			t.Errorf("%s: bfs %v (%d states), bdd %v (%v states)", desc, want.Verdict, want.Stats.States, got.Verdict, got.States)
		}
	}
	t.Logf("%d of %d decided", decided, n)
	if decided < n/2 {
		t.Errorf("only %d of %d decided", decided, n)
	}
}

// TestS29rMulMinInt: a product by the constant -2^63 (NEG * x, as
// gen.EdgeSpec writes it) whose operand lies in 0 .. 1 is encoded, and
// conditions over it count the start states big-integer evaluation
// counts; one whose operand reaches -1 or 2 is refused (its values leave
// int64). bdd refused every product by -2^63 as needing more than 64
// bits, even where the only value is -2^63 or 0 (a model of 150 edge
// models in TestS29rPropUEdge).
func TestS29rMulMinInt(t *testing.T) {
	ctx := context.Background()
	y := symbolic.V(0)
	for lo := -2; lo <= 1; lo++ {
		for _, prod := range []bool{false, true} {
			for c := -3; c <= 3; c++ {
				for op := range 6 {
					// a = y - c in lo-c .. lo-c+1, times -2^63
					a := s29Bin(symbolic.OpSub, y, symbolic.Lit(c))
					e := s29Mul(math.MinInt64, a)
					if prod {
						e = s29Bin(symbolic.OpProd, a, symbolic.Lit(math.MinInt64))
					}
					// compared with -2^63 + 0 .. and 0
					for _, k := range []int{math.MinInt64, 0, -1} {
						start := symbolic.Compare(e, symbolic.CmpOp(op), symbolic.Lit(k))
						m := s29StartModel("mul", []symbolic.Var{{Name: "y", Lo: lo, Hi: lo + 1}}, start)
						want := s29BigCount(m, e, symbolic.CmpOp(op), big.NewInt(int64(k)))
						desc := fmt.Sprintf("y in %d..%d: %s", lo, lo+1, m.CondString(start))
						s29CheckStarts(t, ctx, m, want, desc, true)
					}
				}
			}
		}
	}
}
