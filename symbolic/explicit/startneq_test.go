package explicit_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestStartsDisequalities holds the start enumeration, which turns
// conjuncts x_k != x_j + c and x_k != c into excluded values (a bit mask
// over ranges of at most 64 values, a test per value over wider ones), to
// the brute force over the product of the ranges (symbolic's Holds), on
// random conjunctions of disequalities written every way (negated
// equalities, either side, negated variables, offsets on either side)
// with forms that are not such rules (x + y != c, 2x != y, x != x + 1) and
// ordinary comparisons, over small, 64-value, wider and huge ranges: the
// same states, in the same (lexicographic) order.
func TestStartsDisequalities(t *testing.T) {
	v, k, cmp := symbolic.V, symbolic.Lit, symbolic.Compare
	op := func(o symbolic.Op, args ...*symbolic.Expr) *symbolic.Expr { return &symbolic.Expr{Op: o, Args: args} }
	r := rand.New(rand.NewPCG(64, 46))
	for iter := range 400 {
		n := 2 + r.IntN(4)
		m := wideModel(n, nil)
		// blo, bhi: the box the brute force walks, the ranges as the
		// comparisons added below bound them; one variable at most is wide.
		blo, bhi := make([]int, n), make([]int, n)
		var cs []*symbolic.Cond
		wide := r.IntN(n + 2)
		for i := range m.Vars {
			x := v(symbolic.VarID(i))
			switch {
			case i == wide && r.IntN(3) == 0: // exactly 64 values: the widest mask
				m.Vars[i].Lo, m.Vars[i].Hi = -10, 53
				blo[i], bhi[i] = -10, 53
			case i == wide && r.IntN(2) == 0: // wider than a mask
				m.Vars[i].Lo, m.Vars[i].Hi = 0, 64+r.IntN(10)
				blo[i], bhi[i] = 0, m.Vars[i].Hi
			case i == wide || r.IntN(5) == 0: // huge, bounded by comparisons
				m.Vars[i].Lo, m.Vars[i].Hi = -1<<50, 1<<50
				blo[i] = r.IntN(6) - 3
				bhi[i] = blo[i] + r.IntN(8)
				if i == wide {
					bhi[i] = blo[i] + 60 + r.IntN(10)
				}
				cs = append(cs, cmp(x, symbolic.Ge, k(blo[i])), cmp(k(bhi[i]), symbolic.Ge, x))
			default:
				m.Vars[i].Lo = r.IntN(6) - 3
				m.Vars[i].Hi = m.Vars[i].Lo + r.IntN(8)
				blo[i], bhi[i] = m.Vars[i].Lo, m.Vars[i].Hi
			}
		}
		for range 1 + r.IntN(7) {
			a, b := symbolic.VarID(r.IntN(n)), symbolic.VarID(r.IntN(n))
			c := r.IntN(7) - 3
			var cond *symbolic.Cond
			switch r.IntN(9) {
			case 0:
				cond = cmp(v(a), symbolic.Ne, op(symbolic.OpAdd, v(b), k(c)))
			case 1:
				cond = symbolic.Not(cmp(op(symbolic.OpSub, v(a), k(c)), symbolic.Eq, v(b)))
			case 2:
				cond = cmp(k(c), symbolic.Ne, v(a))
			case 3:
				cond = cmp(op(symbolic.OpNeg, v(a)), symbolic.Ne, op(symbolic.OpSub, k(c), v(b)))
			case 4:
				cond = cmp(op(symbolic.OpAdd, v(a), v(b)), symbolic.Ne, k(c))
			case 5:
				cond = cmp(&symbolic.Expr{Op: symbolic.OpMul, K: 2, Args: []*symbolic.Expr{v(a)}}, symbolic.Ne, v(b))
			case 6:
				cond = cmp(v(a), symbolic.Ne, op(symbolic.OpAdd, v(a), k(1)))
			case 7:
				cond = symbolic.Not(cmp(v(a), symbolic.Ne, v(b))) // an equality
			default:
				cond = cmp(v(a), symbolic.Lt, op(symbolic.OpAdd, v(b), k(c)))
			}
			cs = append(cs, cond)
		}
		start := symbolic.And(cs...)
		m.Properties[0].Start = start
		name := fmt.Sprintf("model %d, start %s", iter, m.CondString(start))

		var want []symbolic.State
		s := make(symbolic.State, n)
		var walk func(i int)
		walk = func(i int) {
			if i == n {
				if start.Holds(s) {
					want = append(want, slices.Clone(s))
				}
				return
			}
			for x := blo[i]; x <= bhi[i]; x++ {
				s[i] = x
				walk(i + 1)
			}
		}
		walk(0)

		g := testutil.Generator(t, m, m.Properties[0])
		var got []symbolic.State
		err := g.Starts(func(s symbolic.State) bool { got = append(got, slices.Clone(s)); return true })
		if len(want) == 0 {
			if err == nil {
				t.Fatalf("%s: %d start states, want none (an error)", name, len(got))
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("%s: %d start states, want %d\ngot  %v\nwant %v", name, len(got), len(want), got, want)
		}
	}
}
