package bdd

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dalzilio/rudd"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestRuddInternals guards the reflection on rudd's table (mgr.go).
func TestRuddInternals(t *testing.T) {
	b, err := rudd.New(4)
	if err != nil {
		t.Fatal(err)
	}
	rt, err := newRuddTable(b)
	if err != nil {
		t.Fatal(err)
	}
	if rt.size() < 10 || rt.free() < 0 || rt.size() < rt.free() {
		t.Fatalf("table size %d, free %d", rt.size(), rt.free())
	}
	// rudd's OPdiff bug, which mgr.diff works around: if a rudd upgrade
	// fixes it, this test tells.
	d := b.Apply(b.False(), b.Ithvar(0), rudd.OPdiff)
	if *d == 0 {
		t.Log("rudd's OPdiff is fixed; mgr.diff could use it again")
	}
}

// valueOf evaluates a vector in the state whose current bits are bit.
func valueOf(g *graph, v bvec, bit func(int32) bool) int {
	u := uint64(0)
	for i, n := range v.bits {
		if g.eval(*n, bit) {
			u |= 1 << uint(i)
		}
	}
	w := len(v.bits)
	if w < 64 && u>>(uint(w)-1)&1 == 1 {
		u |= ^uint64(0) << uint(w) // sign extension
	}
	return int(int64(u))
}

// allStates calls f with every state of m's ranges.
func allStates(m *symbolic.Model, f func(symbolic.State)) { gen.EachState(m, f) }

func testSpace(t *testing.T, m *symbolic.Model, o Order) *space {
	t.Helper()
	sp, err := newSpace(context.Background(), m, nil, Options{Order: o})
	if err != nil {
		t.Fatal(err)
	}
	st, err := sp.run(sp.encode)
	if err != nil || st != nil {
		t.Fatalf("encode: %v %v", err, st)
	}
	return sp
}

// randExpr builds a random expression over the integer variables.
func randExpr(r *rand.Rand, m *symbolic.Model, depth int) *symbolic.Expr {
	if depth == 0 || r.IntN(4) == 0 {
		if r.IntN(3) == 0 {
			return symbolic.Lit(r.IntN(41) - 20)
		}
		return symbolic.V(symbolic.VarID(r.IntN(len(m.Vars))))
	}
	d := depth - 1
	two := func(op symbolic.Op) *symbolic.Expr {
		return &symbolic.Expr{Op: op, Args: []*symbolic.Expr{randExpr(r, m, d), randExpr(r, m, d)}}
	}
	switch r.IntN(12) {
	case 0:
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{randExpr(r, m, d), randExpr(r, m, d), randExpr(r, m, d)}}
	case 1:
		return two(symbolic.OpSub)
	case 2:
		return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{randExpr(r, m, d)}}
	case 3:
		return &symbolic.Expr{Op: symbolic.OpMul, K: r.IntN(31) - 15, Args: []*symbolic.Expr{randExpr(r, m, d)}}
	case 4, 5:
		return &symbolic.Expr{Op: symbolic.OpDiv, K: 1 + r.IntN(9), Args: []*symbolic.Expr{randExpr(r, m, d)}}
	case 6:
		return two(symbolic.OpMin)
	case 7:
		return two(symbolic.OpMax)
	case 8:
		return &symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{randExpr(r, m, d)}}
	case 9:
		return &symbolic.Expr{Op: symbolic.OpIte, Cond: randCond(r, m, d), Args: []*symbolic.Expr{randExpr(r, m, d), randExpr(r, m, d)}}
	case 10:
		return two(symbolic.OpProd) // a JANI product of two variables
	}
	return &symbolic.Expr{Op: symbolic.OpBool, Cond: randCond(r, m, d)}
}

func randCond(r *rand.Rand, m *symbolic.Model, depth int) *symbolic.Cond {
	if depth == 0 || r.IntN(3) == 0 {
		if r.IntN(5) == 0 {
			return &symbolic.Cond{Op: symbolic.CVar, Var: symbolic.VarID(r.IntN(len(m.Vars)))}
		}
		return symbolic.Compare(randExpr(r, m, depth), symbolic.CmpOp(r.IntN(6)), randExpr(r, m, depth))
	}
	d := depth - 1
	switch r.IntN(4) {
	case 0:
		return &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{randCond(r, m, d), randCond(r, m, d)}}
	case 1:
		return &symbolic.Cond{Op: symbolic.COr, Args: []*symbolic.Cond{randCond(r, m, d), randCond(r, m, d)}}
	case 2:
		return &symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{randCond(r, m, d), randCond(r, m, d)}}
	}
	return &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{randCond(r, m, d)}}
}

// TestExprExact checks every circuit against symbolic evaluation on every
// state of small models with odd ranges (negative, not powers of two), for
// random expressions of the whole IR and every variable order.
func TestExprExact(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for round := 0; round < 40; round++ {
		m := &symbolic.Model{Name: "e"}
		for i := 0; i < 1+r.IntN(3); i++ {
			lo := r.IntN(21) - 10
			m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("x%d", i), Lo: lo, Hi: lo + r.IntN(13)})
		}
		sp := testSpace(t, m, Order(round%3))
		var exprs []*symbolic.Expr
		var conds []*symbolic.Cond
		for k := 0; k < 15; k++ {
			exprs = append(exprs, randExpr(r, m, 3))
			conds = append(conds, randCond(r, m, 2))
		}
		vecs := make([]bvec, len(exprs))
		nodes := make([]Node, len(conds))
		st, err := sp.run(func() error {
			for i, e := range exprs {
				v, err := sp.expr(e, "test")
				if err != nil {
					return err
				}
				vecs[i] = v
			}
			for i, c := range conds {
				n, err := sp.cond(c, "test")
				if err != nil {
					return err
				}
				nodes[i] = n
			}
			return nil
		})
		if err != nil || st != nil {
			t.Fatal(err, st)
		}
		var roots []Node
		for _, v := range vecs {
			roots = append(roots, v.bits...)
		}
		roots = append(roots, nodes...)
		g := sp.m.graph(roots...)
		allStates(m, func(s symbolic.State) {
			bit := sp.bitsOf(s)
			f := func(l int32) bool { return bit[l] }
			for i, e := range exprs {
				want := e.Eval(s)
				got := valueOf(g, vecs[i], f)
				if got != want {
					t.Fatalf("%s in %s: BDD %d, eval %d (interval %d..%d, width %d)", m.ExprString(e), m.FormatState(s), got, want, vecs[i].lo, vecs[i].hi, vecs[i].width())
				}
				if want < vecs[i].lo || want > vecs[i].hi {
					t.Fatalf("%s in %s: %d outside the interval %d..%d", m.ExprString(e), m.FormatState(s), want, vecs[i].lo, vecs[i].hi)
				}
				checked++
			}
			for i, c := range conds {
				if got, want := g.eval(*nodes[i], f), c.Holds(s); got != want {
					t.Fatalf("%s in %s: BDD %v, eval %v", m.CondString(c), m.FormatState(s), got, want)
				}
				checked++
			}
		})
	}
	t.Logf("%d evaluations", checked)
}

// TestBitvecOps checks the circuits the IR does not reach (general
// multiplication, modulo) on every pair of values.
func TestBitvecOps(t *testing.T) {
	m := &symbolic.Model{Name: "ops", Vars: []symbolic.Var{{Name: "a", Lo: -9, Hi: 14}, {Name: "b", Lo: -5, Hi: 6}}}
	sp := testSpace(t, m, OrderInterleaved)
	var mul, mod [7]bvec
	st, err := sp.run(func() error {
		a, b := sp.varVec(0), sp.varVec(1)
		var err error
		if mul[0], err = sp.m.mul(a, b); err != nil {
			return err
		}
		for k := 1; k < 7; k++ {
			if _, mod[k], err = sp.m.divmod(a, k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil || st != nil {
		t.Fatal(err, st)
	}
	roots := append([]Node(nil), mul[0].bits...)
	for k := 1; k < 7; k++ {
		roots = append(roots, mod[k].bits...)
	}
	g := sp.m.graph(roots...)
	allStates(m, func(s symbolic.State) {
		bit := sp.bitsOf(s)
		f := func(l int32) bool { return bit[l] }
		if got := valueOf(g, mul[0], f); got != s[0]*s[1] {
			t.Fatalf("%d*%d = %d", s[0], s[1], got)
		}
		for k := 1; k < 7; k++ {
			want := s[0] - k*symbolic.FloorDiv(s[0], k)
			if got := valueOf(g, mod[k], f); got != want {
				t.Fatalf("%d mod %d = %d, want %d", s[0], k, got, want)
			}
		}
	})
}

// TestEncodeErrors: ranges beyond 62 bits and expressions beyond 64 bits
// are errors naming the variable or the expression and its position.
func TestEncodeErrors(t *testing.T) {
	wide := &symbolic.Model{Name: "wide", Vars: []symbolic.Var{{Name: "big", Lo: 0, Hi: 1 << 62, Pos: symbolic.Pos{File: "w.spec", Line: 3, Col: 5}}}}
	_, err := newSpace(context.Background(), wide, nil, Options{})
	if err == nil || !strings.Contains(err.Error(), "w.spec:3:5: variable big") || !strings.Contains(err.Error(), "63 bits") {
		t.Fatalf("want a range error naming big, got %v", err)
	}
	m := &symbolic.Model{Name: "ovf", Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 1 << 40, HasInit: true}}, Labels: []symbolic.Label{{Name: "a"}}}
	pos := symbolic.Pos{File: "o.spec", Line: 7, Col: 9}
	e := &symbolic.Expr{Op: symbolic.OpMul, K: 1 << 40, Args: []*symbolic.Expr{symbolic.V(0)}, Pos: pos}
	m.Commands = []symbolic.Command{{Label: 0, Guard: symbolic.Compare(e, symbolic.Gt, symbolic.Lit(3)), Outcomes: []symbolic.Outcome{{}}}}
	m.Properties = []*symbolic.Property{{Name: "p", Unsafe: symbolic.False()}}
	_, err = Verify(context.Background(), m, m.Properties[0], nil, Options{})
	if err == nil || !strings.Contains(err.Error(), "o.spec:7:9") || !strings.Contains(err.Error(), "1099511627776 * x") {
		t.Fatalf("want an error naming the expression, got %v", err)
	}
	t.Log(err)
	if _, err := Verify(context.Background(), m, m.Properties[0], nil, Options{MaxNodes: -1}); err == nil {
		t.Fatal("a negative node budget must be an error")
	}
}

// TestGenModelsEncode: the generated models' relations agree with the
// explicit successor function on every state (image of each single state).
func TestGenModelsEncode(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		m := gen.Model(seed, gen.Options{})
		sp := testSpace(t, m, Order(seed%3))
		allStates(m, func(s symbolic.State) {
			st, err := sp.run(func() error {
				x := sp.cube(s)
				for ci := range sp.cmds {
					c := &sp.cmds[ci]
					if sp.m.isFalse(sp.m.and(x, c.guard)) != !sp.g.Guard(s, ci) {
						return fmt.Errorf("guard %d in %s", ci, m.FormatState(s))
					}
					if !sp.g.Guard(s, ci) {
						continue
					}
					for oi := range c.outs {
						want, err := sp.g.Apply(s, ci, oi)
						if err != nil {
							if sp.m.isFalse(sp.m.and(x, c.outs[oi].err)) {
								return fmt.Errorf("outcome %d.%d in %s: explicit range error, BDD none", ci, oi, m.FormatState(s))
							}
							continue
						}
						img := sp.post(&c.outs[oi], x)
						if !sp.m.equal(img, sp.cube(want)) {
							return fmt.Errorf("outcome %d.%d in %s: image is not %s", ci, oi, m.FormatState(s), m.FormatState(want))
						}
						if sp.m.isFalse(sp.m.and(x, sp.pre(&c.outs[oi], sp.cube(want)))) {
							return fmt.Errorf("outcome %d.%d in %s: not in the pre-image of %s", ci, oi, m.FormatState(s), m.FormatState(want))
						}
					}
				}
				return nil
			})
			if err != nil || st != nil {
				t.Fatalf("seed %d: %v %v", seed, err, st)
			}
		})
	}
}
