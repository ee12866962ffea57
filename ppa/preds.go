package ppa

// Predicates: atoms of conditions in a canonical form, and weakest
// preconditions by substitution.
//
// A predicate is an atomic condition. A linear comparison is kept as
// "sum c_i x_i + k <= 0" or "sum c_i x_i + k == 0" with the coefficients
// divided by their gcd (and the constant rounded as integers allow), so
// that x < 3, x <= 2, !(x >= 3) and 2x <= 5 are one predicate, and a
// predicate and its negation are one too (the key of a predicate and of
// its negation agree). Other atoms (if, min, max, abs, div inside a
// comparison; Boolean variables) are kept as written, keyed by their text.

import (
	"fmt"
	"sort"
	"strings"

	"vigil/symbolic"
)

// pred is one predicate of the abstraction.
type pred struct {
	c   *symbolic.Cond
	key string
}

// predSet is the ordered set of predicates; new ones are appended.
type predSet struct {
	m    *symbolic.Model
	list []pred
	has  map[string]bool
}

func newPredSet(m *symbolic.Model) *predSet { return &predSet{m: m, has: map[string]bool{}} }

// add adds the atoms of c that are new; it returns how many.
func (ps *predSet) add(c *symbolic.Cond) int {
	n := 0
	atoms(c, func(a *symbolic.Cond) {
		p, ok := ps.canon(a)
		if !ok || ps.has[p.key] {
			return
		}
		ps.has[p.key] = true
		ps.list = append(ps.list, p)
		n++
	})
	return n
}

// atoms calls f for each atomic condition of c.
func atoms(c *symbolic.Cond, f func(*symbolic.Cond)) {
	if c == nil {
		return
	}
	switch c.Op {
	case symbolic.CTrue, symbolic.CFalse:
	case symbolic.CVar, symbolic.CCmp:
		f(c)
	default:
		for _, a := range c.Args {
			atoms(a, f)
		}
	}
}

// canon returns the canonical predicate of the atom a; ok is false for an
// atom that is constant.
func (ps *predSet) canon(a *symbolic.Cond) (pred, bool) {
	m := ps.m
	if a.Op == symbolic.CVar {
		return pred{c: a, key: "b " + m.Vars[a.Var].Name}, true
	}
	l, okl := symbolic.Linearize(a.L)
	r, okr := symbolic.Linearize(a.R)
	if !okl || !okr {
		return pred{c: a, key: "t " + m.CondString(a)}, true
	}
	// d = l - r, compared with 0.
	coef := map[symbolic.VarID]int{}
	for _, t := range l.Terms {
		coef[t.Var] += t.Coef
	}
	for _, t := range r.Terms {
		coef[t.Var] -= t.Coef
	}
	k := l.Const - r.Const
	var ts []symbolic.Term
	for v, c := range coef {
		if c != 0 {
			ts = append(ts, symbolic.Term{Coef: c, Var: v})
		}
	}
	if len(ts) == 0 {
		return pred{}, false
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Var < ts[j].Var })
	// As "d <= 0" (or d == 0): d < 0 is d + 1 <= 0; d > 0 is -d + 1 <= 0;
	// d >= 0 is -d <= 0; d != 0 is the negation of d == 0.
	eq := false
	switch a.Cmp {
	case symbolic.Eq, symbolic.Ne:
		eq = true
	case symbolic.Lt:
		k++
	case symbolic.Gt:
		neg(ts, &k)
		k++
	case symbolic.Ge:
		neg(ts, &k)
	}
	g := 0
	for _, t := range ts {
		g = gcd(g, abs(t.Coef))
	}
	if eq {
		if k%g != 0 {
			return pred{}, false // never holds
		}
		if ts[0].Coef < 0 {
			neg(ts, &k)
		}
		k /= g
	} else {
		// sum c x <= -k  <=>  sum (c/g) x <= floor(-k/g)
		k = -floorDiv(-k, g)
	}
	for i := range ts {
		ts[i].Coef /= g
	}
	if !eq && ts[0].Coef < 0 {
		// The negation, -d + (1 - k) <= 0 ... keep the form whose first
		// coefficient is positive: the predicate and its negation share it.
		neg(ts, &k)
		k++
	}
	cmp := symbolic.Le
	if eq {
		cmp = symbolic.Eq
	}
	var sum []*symbolic.Expr
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "%+d*%d ", t.Coef, t.Var)
		var e *symbolic.Expr = symbolic.V(t.Var)
		if t.Coef != 1 {
			e = &symbolic.Expr{Op: symbolic.OpMul, K: t.Coef, Args: []*symbolic.Expr{e}}
		}
		sum = append(sum, e)
	}
	lhs := sum[0]
	if len(sum) > 1 {
		lhs = &symbolic.Expr{Op: symbolic.OpAdd, Args: sum}
	}
	fmt.Fprintf(&b, "%v %d", cmp, -k)
	c := &symbolic.Cond{Op: symbolic.CCmp, Cmp: cmp, L: lhs, R: symbolic.Lit(-k), Pos: a.Pos}
	return pred{c: c, key: b.String()}, true
}

func neg(ts []symbolic.Term, k *int) {
	for i := range ts {
		ts[i].Coef = -ts[i].Coef
	}
	*k = -*k
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

// substCond returns c with each variable v that o assigns replaced by the
// assigned expression: the weakest precondition of c for outcome o.
func substCond(c *symbolic.Cond, o *symbolic.Outcome) *symbolic.Cond {
	if c == nil {
		return nil
	}
	n := *c
	switch c.Op {
	case symbolic.CVar:
		for _, a := range o.Assigns {
			if a.Var == c.Var {
				return &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Ne, L: a.Value, R: symbolic.Lit(0), Pos: c.Pos}
			}
		}
		return c
	case symbolic.CCmp:
		n.L, n.R = substExpr(c.L, o), substExpr(c.R, o)
		return &n
	}
	n.Args = make([]*symbolic.Cond, len(c.Args))
	for i, a := range c.Args {
		n.Args[i] = substCond(a, o)
	}
	return &n
}

func substExpr(e *symbolic.Expr, o *symbolic.Outcome) *symbolic.Expr {
	if e == nil {
		return nil
	}
	if e.Op == symbolic.OpVar {
		for _, a := range o.Assigns {
			if a.Var == e.Var {
				return a.Value
			}
		}
		return e
	}
	n := *e
	if len(e.Args) > 0 {
		n.Args = make([]*symbolic.Expr, len(e.Args))
		for i, a := range e.Args {
			n.Args[i] = substExpr(a, o)
		}
	}
	n.Cond = substCond(e.Cond, o)
	return &n
}

// Linear reports the first part of c that SMT cannot encode exactly
// (a product of two variables), as an error naming its position.
func Linear(m *symbolic.Model, c *symbolic.Cond) error {
	var bad error
	var expr func(e *symbolic.Expr)
	var cond func(c *symbolic.Cond)
	expr = func(e *symbolic.Expr) {
		if e == nil || bad != nil {
			return
		}
		if e.Op == symbolic.OpProd || e.Op > symbolic.OpProd || e.Op == symbolic.OpDiv && e.K <= 0 {
			bad = fmt.Errorf("%s: predicate %s is not linear (a product of two variables); ppa needs linear predicates", e.Pos, m.CondString(c))
			return
		}
		for _, a := range e.Args {
			expr(a)
		}
		cond(e.Cond)
	}
	cond = func(c *symbolic.Cond) {
		if c == nil || bad != nil {
			return
		}
		expr(c.L)
		expr(c.R)
		for _, a := range c.Args {
			cond(a)
		}
	}
	cond(c)
	return bad
}
