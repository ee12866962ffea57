package ppa

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestCanonSemantic: atoms equal on the variables' ranges are one
// predicate however they are written, constant atoms are none, and
// one-variable thresholds and points become x <= k and x == k.
func TestCanonSemantic(t *testing.T) {
	m := testutil.LoadSource(t, "canon.spec", `model canon
var b : bool = false
var x : -2 .. 2 = 0
var y : 0 .. 5 = 0
var big : 0 .. 100000 = 0
action a -> b' = !b, x' = max(min(x + x, -2), -2)
property p { unsafe b && x <= -1 && y + big > 3 }
`)
	ps := newPredSet(m)
	o := &m.Commands[0].Outcomes[0]
	b := &symbolic.Cond{Op: symbolic.CVar, Var: 0}
	x, y, big := symbolic.V(1), symbolic.V(2), symbolic.V(3)
	key := func(c *symbolic.Cond) (string, bool) {
		t.Helper()
		var k string
		var n int
		var ok bool
		atoms(c, func(a *symbolic.Cond) {
			n++
			var p pred
			p, ok = ps.canon(a)
			k = p.key
		})
		if n != 1 {
			t.Fatalf("%s: %d atoms, want 1", m.CondString(c), n)
		}
		return k, ok
	}
	same := func(c, d *symbolic.Cond) {
		t.Helper()
		kc, okc := key(c)
		kd, okd := key(d)
		if !okc || !okd || kc != kd {
			t.Errorf("%s (%q, %v) and %s (%q, %v): want one predicate", m.CondString(c), kc, okc, m.CondString(d), kd, okd)
		}
	}
	constant := func(c *symbolic.Cond) {
		t.Helper()
		if k, ok := key(c); ok {
			t.Errorf("%s: predicate %q, want none (constant on the ranges)", m.CondString(c), k)
		}
	}
	// b through b' = !b is !b (its own predicate), and so on.
	w := b
	for i := 0; i < 4; i++ {
		w = substCond(w, o)
		same(w, b)
	}
	ne := &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Ne, L: &symbolic.Expr{Op: symbolic.OpBool, Cond: symbolic.Not(b)}, R: symbolic.Lit(0)}
	same(ne, b)
	// x <= -1 through x' = max(min(2x, -2), -2): always true.
	constant(substCond(symbolic.Compare(x, symbolic.Le, symbolic.Lit(-1)), o))
	constant(symbolic.Compare(y, symbolic.Le, symbolic.Lit(5)))
	same(symbolic.Compare(x, symbolic.Lt, symbolic.Lit(1)), symbolic.Compare(&symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{x, symbolic.Lit(-5)}}, symbolic.Ge, symbolic.Lit(1)))
	same(symbolic.Compare(&symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{x}}, symbolic.Eq, symbolic.Lit(0)), symbolic.Compare(x, symbolic.Eq, symbolic.Lit(0)))
	// x + 0*y: y does not matter.
	same(symbolic.Compare(&symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{x, &symbolic.Expr{Op: symbolic.OpMul, K: 0, Args: []*symbolic.Expr{y}}}}, symbolic.Le, symbolic.Lit(0)), symbolic.Compare(x, symbolic.Le, symbolic.Lit(0)))
	// One-variable forms.
	p, ok := ps.canon(symbolic.Compare(&symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{y, symbolic.Lit(2)}}, symbolic.Gt, symbolic.Lit(3)))
	if !ok || m.CondString(p.c) != "y <= 3" {
		t.Errorf("max(y, 2) > 3: %s, want y <= 3", m.CondString(p.c))
	}
	p, ok = ps.canon(symbolic.Compare(&symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{x}}, symbolic.Ge, symbolic.Lit(1)))
	if !ok || m.CondString(p.c) != "x == 0" {
		t.Errorf("abs(x) >= 1: %s, want x == 0", m.CondString(p.c))
	}
	// Beyond maxTable: the linear key, as before.
	lin := symbolic.Compare(&symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{y, big}}, symbolic.Gt, symbolic.Lit(3))
	if p, ok := ps.canon(lin); !ok || p.key[:2] == "tt" {
		t.Errorf("y + big > 3: %q, want a linear key", p.key)
	}
	// Beyond maxTable, interval bounds: a clamped chain is constant, and
	// min, max and abs with a decided order or sign drop out.
	two := &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{big, big}}
	clamp := &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{{Op: symbolic.OpMin, Args: []*symbolic.Expr{two, symbolic.Lit(-2)}}, symbolic.Lit(-2)}}
	constant(symbolic.Compare(clamp, symbolic.Le, symbolic.Lit(-1)))
	constant(symbolic.Compare(&symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{big, clamp}}, symbolic.Ge, symbolic.Lit(-2)))
	same(symbolic.Compare(&symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{big, symbolic.Lit(200000)}}, symbolic.Le, symbolic.Lit(5)), symbolic.Compare(big, symbolic.Lt, symbolic.Lit(6)))
	same(symbolic.Compare(&symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{&symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{big}}}}, symbolic.Eq, symbolic.Lit(3)), symbolic.Compare(big, symbolic.Eq, symbolic.Lit(3)))
	// A set adds each of them once.
	if n := ps.add(symbolic.And(b, ne, substCond(b, o), symbolic.Compare(y, symbolic.Le, symbolic.Lit(5)))); n != 1 {
		t.Errorf("added %d predicates, want 1", n)
	}
}
