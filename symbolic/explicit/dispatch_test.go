package explicit

import (
	"math/rand"
	"testing"

	"vigil/symbolic"
)

// Disjunctions and if-then-else chains that pin one variable, compiled as
// tables (dispatch.go), agree with the IR's own evaluation in every state
// of a small model, including pins outside the variable's range, repeated
// values, and branches that pin another variable.
func TestDispatch(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "v", Lo: 0, Hi: 7}, {Name: "w", Lo: 0, Hi: 3}, {Name: "b", Lo: 0, Hi: 1, Bool: true}}}
	r := rand.New(rand.NewSource(7))
	pin := func() *symbolic.Cond {
		switch r.Intn(8) {
		case 0:
			return symbolic.Compare(symbolic.V(1), symbolic.Eq, symbolic.Lit(r.Intn(4)))
		case 1:
			return &symbolic.Cond{Op: symbolic.CVar, Var: 2}
		case 2:
			return symbolic.Compare(symbolic.Lit(r.Intn(10)-1), symbolic.Eq, symbolic.V(0))
		}
		return symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(r.Intn(10)-1))
	}
	other := func() *symbolic.Cond {
		return symbolic.Compare(symbolic.V(symbolic.VarID(r.Intn(2))), []symbolic.CmpOp{symbolic.Eq, symbolic.Ne, symbolic.Lt, symbolic.Le, symbolic.Gt, symbolic.Ge}[r.Intn(6)], symbolic.Lit(r.Intn(6)))
	}
	tables := 0
	for it := 0; it < 2000; it++ {
		var ds []*symbolic.Cond
		for i, n := 0, 2+r.Intn(8); i < n; i++ {
			switch r.Intn(4) {
			case 0:
				ds = append(ds, pin())
			case 1:
				ds = append(ds, other())
			default:
				ds = append(ds, &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{other(), pin(), other()}})
			}
		}
		c := &symbolic.Cond{Op: symbolic.COr, Args: ds}
		e := symbolic.Lit(r.Intn(5))
		for i, n := 0, 1+r.Intn(8); i < n; i++ {
			e = &symbolic.Expr{Op: symbolic.OpIte, Cond: pin(), Args: []*symbolic.Expr{symbolic.V(symbolic.VarID(r.Intn(2))), e}}
		}
		cp := newCompiler(t.Context(), m)
		if _, ok := cp.dispatchOr(c); ok {
			tables++
		}
		if _, ok := cp.dispatchIte(e); ok {
			tables++
		}
		fc, fe := compileCond(m, c), compileExpr(m, e)
		for v := 0; v <= 7; v++ {
			for w := 0; w <= 3; w++ {
				for b := 0; b <= 1; b++ {
					s := symbolic.State{v, w, b}
					if fc(s) != c.Holds(s) {
						t.Fatalf("%+v in %v: compiled %v, IR %v", c, s, fc(s), c.Holds(s))
					}
					if fe(s) != e.Eval(s) {
						t.Fatalf("%+v in %v: compiled %d, IR %d", e, s, fe(s), e.Eval(s))
					}
				}
			}
		}
	}
	if tables < 500 {
		t.Fatalf("only %d tables built: the test does not exercise dispatch", tables)
	}
}
