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

// TestS29dDivMinInt: divisions (and JANI's modulus forms, a - k*(a/k)
// and -(-a - k*(-a/k))) whose operand reaches -2^63 while the values
// stay within int64 are decided, not refused as needing more than 64
// bits (divmod shifted the operand by a multiple of k to make it
// non-negative, which left int64), and count the start states exact
// big-integer evaluation counts. Random operands at the edges; every
// condition the interval analysis says fits in int64 must be encoded.
func TestS29dDivMinInt(t *testing.T) {
	ks := []int{2, 3, 7, 1 << 62, math.MaxInt64, math.MaxInt64 - 1, 1 << 32, 1<<62 + 1}
	offs := []int{math.MinInt64, math.MinInt64 + 1, math.MinInt64 + 5, math.MaxInt64 - 6, -(1 << 62), 0, -3}
	n := 3000
	if testing.Short() {
		n = 300
	}
	s29StartCampaign(t, n, 29, 2, func(r *rand.Rand) s29Case {
		x, y := symbolic.V(0), symbolic.V(1)
		lit := symbolic.Lit
		add := func(a, b *symbolic.Expr) *symbolic.Expr { return s29Bin(symbolic.OpAdd, a, b) }
		sub := func(a, b *symbolic.Expr) *symbolic.Expr { return s29Bin(symbolic.OpSub, a, b) }
		// an operand: x (near an edge) plus a small y, or min/max/if of such
		var operand func(d int) *symbolic.Expr
		operand = func(d int) *symbolic.Expr {
			switch r.IntN(6) {
			case 0:
				return add(x, y)
			case 1:
				return sub(x, y)
			case 2:
				if d > 0 {
					return &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{operand(d - 1), operand(d - 1)}}
				}
			case 3:
				if d > 0 {
					return &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{operand(d - 1), operand(d - 1)}}
				}
			case 4:
				if d > 0 {
					return &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Compare(y, symbolic.Gt, lit(1)), Args: []*symbolic.Expr{operand(d - 1), operand(d - 1)}}
				}
			}
			return x
		}
		a := operand(2)
		k := ks[r.IntN(len(ks))]
		var e *symbolic.Expr
		switch r.IntN(4) {
		case 0, 1:
			e = s29Div(a, k)
		case 2: // floor modulus
			e = sub(a, s29Mul(k, s29Div(a, k)))
		default: // Storm's % of a negative a, as the JANI import lowers it
			e = s29Neg(sub(s29Neg(a), s29Mul(k, s29Div(s29Neg(a), k))))
		}
		xlo := offs[r.IntN(len(offs))]
		if xlo > math.MaxInt64-6 {
			xlo = math.MaxInt64 - 6
		}
		if xlo == math.MinInt64 {
			xlo++ // a range lies strictly inside int64
		}
		op := symbolic.CmpOp(r.IntN(6))
		c := r.IntN(7) - 3
		if r.IntN(2) == 0 {
			v := e.EvalBig(symbolic.State{xlo + r.IntN(5), r.IntN(4)})
			if v.IsInt64() {
				c = int(v.Int64())
			}
		}
		return s29Case{vars: []symbolic.Var{{Name: "x", Lo: xlo, Hi: xlo + 4}, {Name: "y", Lo: 0, Hi: 3}},
			e: e, op: op, c: big.NewInt(int64(c)), where: fmt.Sprintf("x in %d..%d", xlo, xlo+4)}
	})
}

// TestS29dAssignFarFromRange: an assignment whose values reach -2^63
// while its variable's range lies above 0 (value - lo leaves int64) is
// decided, not refused as needing more than 64 bits: the values outside
// the range are range errors, the others successors. bfs and bdd agree
// on the verdict (the range error at x == 0, where y' = x*2^62 - 2^63 is
// -2^63; 6 at x == 1) and on the safe twin that never takes the step
// there.
func TestS29dAssignFarFromRange(t *testing.T) {
	ctx := context.Background()
	x := symbolic.V(0)
	for _, guardLo := range []int{0, 1} {
		val := &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{
			{Op: symbolic.OpMul, K: 1 << 62, Args: []*symbolic.Expr{x}}, symbolic.Lit(math.MinInt64)}}
		val = &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Compare(x, symbolic.Gt, symbolic.Lit(0)), Args: []*symbolic.Expr{symbolic.Lit(6), val}}
		m := &symbolic.Model{
			Name:   "far",
			Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 1, HasInit: true, Init: 1}, {Name: "y", Lo: 5, Hi: 7, HasInit: true, Init: 5}},
			Labels: []symbolic.Label{{Name: "down"}, {Name: "set"}},
			Commands: []symbolic.Command{
				{Label: 0, Guard: symbolic.Compare(x, symbolic.Gt, symbolic.Lit(0)), Outcomes: []symbolic.Outcome{{Prob: 1, Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(0)}}}}},
				{Label: 1, Guard: symbolic.Compare(x, symbolic.Ge, symbolic.Lit(guardLo)), Outcomes: []symbolic.Outcome{{Prob: 1, Assigns: []symbolic.Assign{{Var: 1, Value: val}}}}},
			},
			Properties: []*symbolic.Property{{Name: "p", Unsafe: symbolic.Compare(symbolic.V(1), symbolic.Eq, symbolic.Lit(7))}},
		}
		prop := m.Properties[0]
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := explicit.Search(ctx, g, explicit.Options{StopAtUnsafe: true})
		got, gerr := bdd.Verify(ctx, m, prop, nil, bdd.Options{})
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("guard x >= %d: bfs: %v, bdd: %v", guardLo, werr, gerr)
		}
		if werr != nil {
			if !strings.Contains(gerr.Error(), "range") || strings.Contains(gerr.Error(), "64 bits") {
				t.Errorf("guard x >= %d: bfs: %v; bdd: %v", guardLo, werr, gerr)
			}
			continue
		}
		if (want.Verdict == explicit.Safe) != (got.Verdict == bdd.Safe) {
			t.Errorf("guard x >= %d: bfs %v, bdd %v", guardLo, want.Verdict, got.Verdict)
		}
	}
}
