package bdd_test

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/bdd"
	"vigil/symbolic"
)

// TestS28rEdgeRandom: random expressions over two small variables with
// constants at and around ±2^62 and ±2^63 (products, differences,
// negations, abs, division, products of variables), compared with a
// constant in the start condition; wherever the BDD engine encodes them,
// the number of start states must be the number of states where the exact
// (big-integer) value satisfies the comparison.
func TestS28rEdgeRandom(t *testing.T) {
	ctx := context.Background()
	ks := []int{0, 1, -1, 2, -2, 3, 1 << 62, -(1 << 62), math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1<<62 - 1, -(1 << 62) + 1, 1 << 61, -(1 << 61), 3 << 61, -(3 << 61), 1 << 32, 7}
	n := 5000
	if testing.Short() {
		n = 400
	}
	encoded := 0
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 28))
		k := func() int { return ks[r.IntN(len(ks))] }
		var ex func(d int) *symbolic.Expr
		ex = func(d int) *symbolic.Expr {
			if d == 0 || r.IntN(4) == 0 {
				if r.IntN(2) == 0 {
					return symbolic.V(symbolic.VarID(r.IntN(2)))
				}
				return symbolic.Lit(k())
			}
			switch r.IntN(9) {
			case 0:
				return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{ex(d - 1), ex(d - 1)}}
			case 1:
				return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{ex(d - 1), ex(d - 1)}}
			case 2:
				return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{ex(d - 1)}}
			case 3:
				return &symbolic.Expr{Op: symbolic.OpMul, K: k(), Args: []*symbolic.Expr{ex(d - 1)}}
			case 4:
				kk := k()
				if kk <= 0 {
					kk = 3
				}
				return &symbolic.Expr{Op: symbolic.OpDiv, K: kk, Args: []*symbolic.Expr{ex(d - 1)}}
			case 5:
				return &symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{ex(d - 1)}}
			case 6:
				return &symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{ex(d - 1), ex(d - 1)}}
			case 7:
				return &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{ex(d - 1), ex(d - 1)}}
			default:
				return &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{ex(d - 1), ex(d - 1)}}
			}
		}
		xlo := []int{-3, math.MinInt64 + 1, math.MaxInt64 - 7, 1<<62 - 3, -(1 << 62) - 3, 1 << 61}[r.IntN(6)]
		ylo := []int{-2, math.MinInt64 + 1, math.MaxInt64 - 5, -(1 << 62), 1 << 62}[r.IntN(5)]
		e := ex(1 + r.IntN(3))
		op := symbolic.CmpOp(r.IntN(6))
		c := k() + r.IntN(3) - 1
		if r.IntN(3) == 0 {
			c = r.IntN(7) - 3
		}
		start := symbolic.Compare(e, op, symbolic.Lit(c))
		m := &symbolic.Model{
			Name:       "edge",
			Vars:       []symbolic.Var{{Name: "x", Lo: xlo, Hi: xlo + 6}, {Name: "y", Lo: ylo, Hi: ylo + 4}},
			Labels:     []symbolic.Label{{Name: "a"}},
			Commands:   []symbolic.Command{{Label: 0, Guard: symbolic.False(), Outcomes: []symbolic.Outcome{{Prob: 1}}}},
			Properties: []*symbolic.Property{{Name: "p", Start: start, Unsafe: symbolic.False()}},
		}
		want := 0
		for x := xlo; x <= xlo+6; x++ {
			for y := ylo; y <= ylo+4; y++ {
				v := e.EvalBig(symbolic.State{x, y}).Cmp(big.NewInt(int64(c)))
				var ok bool
				switch op {
				case symbolic.Eq:
					ok = v == 0
				case symbolic.Ne:
					ok = v != 0
				case symbolic.Lt:
					ok = v < 0
				case symbolic.Le:
					ok = v <= 0
				case symbolic.Gt:
					ok = v > 0
				case symbolic.Ge:
					ok = v >= 0
				}
				if ok {
					want++
				}
			}
		}
		desc := fmt.Sprintf("seed %d: %s", seed, m.CondString(start))
		got, err := bdd.Explore(ctx, m, m.Properties[0], nil, bdd.Options{})
		if want == 0 {
			if err == nil {
				t.Errorf("%s: no state satisfies it, BDD explores %v", desc, got.Starts)
			}
			continue
		}
		if err != nil {
			continue // refused (too wide)
		}
		encoded++
		if got.Starts.Int64() != int64(want) {
			t.Errorf("%s: %d states satisfy it, BDD counts %v", desc, want, got.Starts)
		}
	}
	t.Logf("%d of %d encoded", encoded, n)
}
