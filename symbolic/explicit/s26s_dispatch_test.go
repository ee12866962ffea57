package explicit

import (
	"math"
	"math/rand"
	"testing"

	"vigil/symbolic"
)

// Review of the dispatch tables (dispatch.go), as an adversary: pins at
// the ends of the 64-bit integers, negative ranges and constants, !x and
// x of 0..1 integers, pins written k == x and -x == -k, pins that are
// not the first conjunct, branches that read other variables, nested
// if-then-else chains and disjunctions inside branches. The tables must
// agree with the IR's own evaluation (Cond.Holds, Expr.Eval) in every
// state, and compiling must not panic.

func TestS26sDispatchExtremes(t *testing.T) {
	// x == 2^63-1 || x == -(2^63-1) || x == 0 || x == 1: a span that
	// wrapped below zero made the table's make() panic (vigil explore
	// exited 70); now no table is built and the chain is evaluated.
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 3}}}
	x := symbolic.V(0)
	c := symbolic.Or(
		symbolic.Compare(x, symbolic.Eq, symbolic.Lit(math.MaxInt64)),
		symbolic.Compare(x, symbolic.Eq, symbolic.Lit(-math.MaxInt64)),
		symbolic.Compare(x, symbolic.Eq, symbolic.Lit(0)),
		symbolic.Compare(x, symbolic.Eq, symbolic.Lit(1)))
	e := symbolic.Lit(7)
	for _, k := range []int{1, 0, -math.MaxInt64, math.MaxInt64} {
		e = &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(k)), Args: []*symbolic.Expr{symbolic.Lit(k % 100), e}}
	}
	fc, fe := compileCond(m, c), compileExpr(m, e)
	for v := 0; v <= 3; v++ {
		s := symbolic.State{v}
		if fc(s) != c.Holds(s) || fe(s) != e.Eval(s) {
			t.Fatalf("x=%d: compiled %v %d, IR %v %d", v, fc(s), fe(s), c.Holds(s), e.Eval(s))
		}
	}
}

func TestS26sDispatchRandom(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{
		{Name: "v", Lo: -3, Hi: 4}, {Name: "w", Lo: 0, Hi: 1}, {Name: "b", Lo: 0, Hi: 1, Bool: true}, {Name: "u", Lo: -2, Hi: 2}}}
	r := rand.New(rand.NewSource(2626))
	vr := func() symbolic.VarID { return symbolic.VarID(r.Intn(len(m.Vars))) }
	konst := func() int {
		switch r.Intn(30) {
		case 0:
			return math.MaxInt64
		case 1:
			return -math.MaxInt64
		case 2:
			return 1 << 20
		}
		return r.Intn(11) - 5
	}
	main := symbolic.VarID(0) // most pins pin one variable, so that tables are built
	pin := func() *symbolic.Cond {
		v := main
		if r.Intn(4) == 0 {
			v = vr()
		}
		switch r.Intn(6) {
		case 0:
			return &symbolic.Cond{Op: symbolic.CVar, Var: v}
		case 1:
			return symbolic.Not(&symbolic.Cond{Op: symbolic.CVar, Var: v})
		case 2:
			return symbolic.Compare(symbolic.Lit(konst()), symbolic.Eq, symbolic.V(v))
		case 3: // -v == -k
			k := konst()
			return symbolic.Compare(&symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{symbolic.V(v)}}, symbolic.Eq, symbolic.Lit(-k))
		}
		return symbolic.Compare(symbolic.V(v), symbolic.Eq, symbolic.Lit(konst()))
	}
	other := func() *symbolic.Cond {
		return symbolic.Compare(symbolic.V(vr()), []symbolic.CmpOp{symbolic.Eq, symbolic.Ne, symbolic.Lt, symbolic.Le, symbolic.Gt, symbolic.Ge}[r.Intn(6)], symbolic.Lit(r.Intn(7)-3))
	}
	var cond func(depth int) *symbolic.Cond
	var expr func(depth int) *symbolic.Expr
	cond = func(depth int) *symbolic.Cond {
		if depth > 2 || r.Intn(3) == 0 {
			if r.Intn(2) == 0 {
				return pin()
			}
			return other()
		}
		var ds []*symbolic.Cond
		for i, n := 0, 2+r.Intn(8); i < n; i++ {
			switch r.Intn(5) {
			case 0:
				ds = append(ds, pin())
			case 1:
				ds = append(ds, cond(depth+1))
			default:
				cs := []*symbolic.Cond{cond(depth + 1), pin(), other()}
				r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
				ds = append(ds, &symbolic.Cond{Op: symbolic.CAnd, Args: cs})
			}
		}
		if r.Intn(3) == 0 {
			return &symbolic.Cond{Op: symbolic.CAnd, Args: ds}
		}
		return &symbolic.Cond{Op: symbolic.COr, Args: ds}
	}
	expr = func(depth int) *symbolic.Expr {
		if depth > 2 || r.Intn(3) == 0 {
			if r.Intn(2) == 0 {
				return symbolic.Lit(r.Intn(9) - 4)
			}
			return symbolic.V(vr())
		}
		e := expr(depth + 1)
		for i, n := 0, 1+r.Intn(8); i < n; i++ {
			c := pin()
			if r.Intn(5) == 0 {
				c = cond(depth + 1)
			}
			e = &symbolic.Expr{Op: symbolic.OpIte, Cond: c, Args: []*symbolic.Expr{expr(depth + 1), e}}
		}
		if r.Intn(4) == 0 {
			e = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{e, symbolic.V(vr())}}
		}
		return e
	}
	tables := 0
	for it := 0; it < 3000; it++ {
		main = vr()
		c, e := cond(0), expr(0)
		cp := newCompiler(t.Context(), m)
		if c.Op == symbolic.COr {
			if _, ok := cp.dispatchOr(c); ok {
				tables++
			}
		}
		if e.Op == symbolic.OpIte {
			if _, ok := cp.dispatchIte(e); ok {
				tables++
			}
		}
		fc, fe := compileCond(m, c), compileExpr(m, e)
		s := make(symbolic.State, len(m.Vars))
		var walk func(i int)
		walk = func(i int) {
			if i == len(m.Vars) {
				if fc(s) != c.Holds(s) {
					t.Fatalf("%+v in %v: compiled %v, IR %v", c, s, fc(s), c.Holds(s))
				}
				if fe(s) != e.Eval(s) {
					t.Fatalf("%+v in %v: compiled %d, IR %d", e, s, fe(s), e.Eval(s))
				}
				return
			}
			for x := m.Vars[i].Lo; x <= m.Vars[i].Hi; x++ {
				s[i] = x
				walk(i + 1)
			}
		}
		walk(0)
	}
	if tables < 300 {
		t.Fatalf("only %d tables built: the test does not exercise dispatch", tables)
	}
	t.Logf("%d tables", tables)
}

// Sparse pins (x == 0 || x == 4095 || x == 1 || x == 2000) built a table
// of 4,096 entries for four branches: 20,000 such guards took 813 MB
// instead of 269 MB. A table now needs a span not far beyond its
// branches; dense ones (a location per branch) still get one.
func TestS26sDispatchSparse(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 4095}}}
	or := func(ks ...int) *symbolic.Cond {
		var ds []*symbolic.Cond
		for _, k := range ks {
			ds = append(ds, symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(k)))
		}
		return &symbolic.Cond{Op: symbolic.COr, Args: ds}
	}
	cp := newCompiler(t.Context(), m)
	if _, ok := cp.dispatchOr(or(0, 4095, 1, 2000)); ok {
		t.Error("a table of 4,096 entries for 4 sparse pins")
	}
	dense := make([]int, 62)
	for i := range dense {
		dense[i] = 61 - i
	}
	if _, ok := cp.dispatchOr(or(dense...)); !ok {
		t.Error("no table for 62 pins of 62 values")
	}
}
