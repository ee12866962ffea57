package ppa

import (
	"math/rand"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestFastPredAgrees: the compiled evaluation of random atoms (linear,
// with coefficients up to 2^43 so that some sums leave int64 and stay
// with Cond.Holds, and non-linear ones) agrees with Cond.Holds on random
// in-range states, and so do the table of those over small boxes and
// the closures (if, min, max, abs, div, Boolean terms).
func TestFastPredAgrees(t *testing.T) {
	m := testutil.LoadSource(t, "fast.spec", `model fast
var b : bool = false
var x : -7 .. 7 = 0
var y : 0 .. 1099511627775 = 0
var z : -1000 .. 1000 = 0
action a -> b' = !b
property p { unsafe b && x <= -1 }
`)
	rng := rand.New(rand.NewSource(1))
	expr := func(linear bool) *symbolic.Expr {
		var e *symbolic.Expr = symbolic.Lit(rng.Intn(21) - 10)
		for i := rng.Intn(4); i >= 0; i-- {
			v := symbolic.V(symbolic.VarID(rng.Intn(len(m.Vars))))
			k := rng.Intn(9) - 4
			if rng.Intn(4) == 0 {
				k = 1 << (20 + rng.Intn(24))
			}
			t := &symbolic.Expr{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{v}}
			op := rng.Intn(9)
			if linear && op > 0 {
				op = 8
			}
			switch op {
			case 0:
				e = &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{e, t}}
			case 1:
				e = &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{e, t}}
			case 2:
				e = &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{&symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{e}}, t}}
			case 3:
				e = &symbolic.Expr{Op: symbolic.OpDiv, K: 1 + rng.Intn(5), Args: []*symbolic.Expr{&symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{e, t}}}}
			case 4:
				e = &symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{&symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{e, t}}}}
			case 5:
				c := symbolic.Compare(t, symbolic.CmpOp(rng.Intn(6)), symbolic.Lit(rng.Intn(9)-4))
				if rng.Intn(2) == 0 {
					c = &symbolic.Cond{Op: symbolic.COr, Args: []*symbolic.Cond{c, {Op: symbolic.CVar, Var: 0}}}
				}
				if rng.Intn(3) == 0 {
					c = &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{c}}
				}
				e = &symbolic.Expr{Op: symbolic.OpIte, Cond: c, Args: []*symbolic.Expr{e, t}}
			case 6:
				e = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{e, {Op: symbolic.OpBool, Cond: symbolic.Compare(t, symbolic.Le, symbolic.Lit(0))}}}
			default:
				e = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{e, t}}
			}
		}
		return e
	}
	linear, tables, compiled, evals := 0, 0, 0, 0
	lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for v := range m.Vars {
		lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
	}
	for i := 0; i < 2000; i++ {
		lin := i%2 == 0
		c := symbolic.Compare(expr(lin), symbolic.CmpOp(rng.Intn(6)), expr(lin))
		f, g := compilePred(m, c), compilePred(m, c)
		fn := compileCond(c, lo, hi)
		if fn != nil && !f.linear {
			compiled++
		}
		if f.linear {
			linear++
		} else if g.size > 0 {
			g.tabulate(len(m.Vars))
			tables++
		}
		for j := 0; j < 50; j++ {
			s := make(symbolic.State, len(m.Vars))
			for v := range s {
				lo, hi := m.Vars[v].Lo, m.Vars[v].Hi
				switch rng.Intn(3) {
				case 0:
					s[v] = lo
				case 1:
					s[v] = hi
				default:
					s[v] = lo + int(rng.Int63n(int64(hi-lo)+1))
				}
			}
			evals++
			want := c.Holds(s)
			if got := f.holds(s); got != want {
				t.Fatalf("%s in %s: compiled %v, Holds %v", m.CondString(c), m.FormatState(s), got, want)
			}
			if fn != nil && fn(s) != want {
				t.Fatalf("%s in %s: closures %v, Holds %v", m.CondString(c), m.FormatState(s), fn(s), want)
			}
			if got := g.holds(s); got != want {
				t.Fatalf("%s in %s: tabulated %v, Holds %v", m.CondString(c), m.FormatState(s), got, want)
			}
		}
	}
	if linear < 500 {
		t.Errorf("only %d of 2000 atoms compiled to a linear form", linear)
	}
	if compiled < 200 {
		t.Errorf("only %d of 2000 non-linear atoms compiled to closures", compiled)
	}
	if tables < 200 {
		t.Errorf("only %d of 2000 atoms tabulated", tables)
	}
	t.Logf("%d atoms, %d linear, %d tabulated, %d non-linear compiled, %d evaluations", 2000, linear, tables, compiled, evals)
}
