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
//
// Where an atom's variables span a small box (maxTable states), the key is
// its truth table over the variables' ranges instead (canon): atoms that
// agree on every state in range are one predicate whatever their form, and
// atoms that are constant there are none. Without it, weakest
// preconditions along a spurious path bring a predicate back in ever
// longer forms ((!b) != 0 for b through b' = !b, then (!((!b) != 0)) != 0,
// ...), each "new", so that refinement never falls back to splitting and
// CEGAR diverges.

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
	memo map[string]canonical // canon's answers by the atom's text
}

func newPredSet(m *symbolic.Model) *predSet { return &predSet{m: m, has: map[string]bool{}} }

// add adds the atoms of c that are new; it returns how many.
func (ps *predSet) add(c *symbolic.Cond) int {
	n := 0
	atoms(c, func(a *symbolic.Cond) {
		if ps.addAtom(a) {
			n++
		}
	})
	return n
}

// addAtom adds the atom a when its predicate is new.
func (ps *predSet) addAtom(a *symbolic.Cond) bool {
	p, ok := ps.canon(a)
	if !ok || ps.has[p.key] {
		return false
	}
	ps.has[p.key] = true
	ps.list = append(ps.list, p)
	return true
}

// truncate drops the predicates from index n on (a refinement tried and
// not kept).
func (ps *predSet) truncate(n int) {
	for _, p := range ps.list[n:] {
		delete(ps.has, p.key)
	}
	ps.list = ps.list[:n]
}

// addPred adds the canonical predicate p when it is new.
func (ps *predSet) addPred(p pred) bool {
	if ps.has[p.key] {
		return false
	}
	ps.has[p.key] = true
	ps.list = append(ps.list, p)
	return true
}

// atoms calls f for each atomic condition of c. A comparison of a Boolean
// expression (the value of a Boolean assignment, after substitution) with
// a constant is the Boolean condition itself, its negation or a constant,
// and its atoms are taken.
func atoms(c *symbolic.Cond, f func(*symbolic.Cond)) {
	if c == nil {
		return
	}
	switch c.Op {
	case symbolic.CTrue, symbolic.CFalse:
	case symbolic.CVar:
		f(c)
	case symbolic.CCmp:
		if b, ok := boolCmp(c); ok {
			atoms(b, f)
			return
		}
		f(c)
	default:
		for _, a := range c.Args {
			atoms(a, f)
		}
	}
}

// boolCmp rewrites "bool(b) cmp k" and "k cmp bool(b)" (bool(b) is 1
// where b holds, else 0) as b, !b, true or false.
func boolCmp(c *symbolic.Cond) (*symbolic.Cond, bool) {
	l, r := c.L, c.R
	switch {
	case l.Op == symbolic.OpBool && r.Op == symbolic.OpConst:
	case r.Op == symbolic.OpBool && l.Op == symbolic.OpConst:
	default:
		return nil, false
	}
	holds := func(v int) bool {
		lv, rv := v, v
		if l.Op == symbolic.OpConst {
			lv = l.K
		}
		if r.Op == symbolic.OpConst {
			rv = r.K
		}
		return symbolic.Compare(symbolic.Lit(lv), c.Cmp, symbolic.Lit(rv)).Holds(nil)
	}
	b := l.Cond
	if r.Op == symbolic.OpBool {
		b = r.Cond
	}
	switch f, t := holds(0), holds(1); {
	case f == t && t:
		return &symbolic.Cond{Op: symbolic.CTrue}, true
	case f == t:
		return &symbolic.Cond{Op: symbolic.CFalse}, true
	case t:
		return b, true
	}
	return symbolic.Not(b), true
}

// canon returns the canonical predicate of the atom a; ok is false for an
// atom that is constant over the variables' ranges. An atom whose
// variables span a box of at most maxTable states is keyed by its truth
// table over the variables it depends on (see table), so that atoms equal
// on the ranges are one predicate however they are written (weakest
// preconditions repeat a predicate in ever longer forms, such as
// max(min(2x, -2), -2) <= -1, which always holds); a table over one
// variable that is a threshold or a single point becomes x <= k or x == k.
// Larger atoms are keyed by their linear form or their text, after
// interval bounds simplified them (simplifyAtom).
func (ps *predSet) canon(a *symbolic.Cond) (pred, bool) {
	text := ps.m.CondString(a)
	if c, ok := ps.memo[text]; ok {
		return c.p, c.ok
	}
	p, ok := pred{}, false
	if a = simplifyAtom(ps.m, a); a != nil {
		p, ok = ps.syntax(a)
	}
	if ok {
		if t, has := ps.table(p.c); has {
			switch {
			case t.constant:
				p, ok = pred{}, false
			default:
				p.key = t.key
				if t.c != nil {
					p.c = t.c
				}
			}
		}
	}
	if ps.memo == nil {
		ps.memo = map[string]canonical{}
	}
	ps.memo[text] = canonical{p, ok}
	return p, ok
}

// canonical is a remembered answer of canon.
type canonical struct {
	p  pred
	ok bool
}

// maxTable bounds the states of the box over an atom's variables that
// canon evaluates the atom on.
const maxTable = 1 << 12

// truth is an atom's truth table over the variables it depends on.
type truth struct {
	constant bool
	key      string         // the table's key; an atom and its negation share it
	c        *symbolic.Cond // a simpler equivalent (one variable), or nil
}

// table evaluates the atom a on the box of its variables' ranges; has is
// false when the box is too large (or a has no variable).
func (ps *predSet) table(a *symbolic.Cond) (t truth, has bool) {
	m := ps.m
	seen := map[symbolic.VarID]bool{}
	var vs []symbolic.VarID
	a.Vars(func(v symbolic.VarID) {
		if !seen[v] {
			seen[v] = true
			vs = append(vs, v)
		}
	})
	if len(vs) == 0 {
		return truth{}, false
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i] < vs[j] })
	size := 1
	for _, v := range vs {
		size *= m.Vars[v].Size()
		if size > maxTable || m.Vars[v].Size() <= 0 {
			return truth{}, false
		}
	}
	// bits[i]: a holds at the point whose digit j (stride[j]) is the
	// offset of vs[j] from its lower bound.
	s := make(symbolic.State, len(m.Vars))
	for v := range m.Vars {
		s[v] = m.Vars[v].Lo
	}
	stride := make([]int, len(vs))
	for j := range vs {
		stride[j] = 1
		if j > 0 {
			stride[j] = stride[j-1] * m.Vars[vs[j-1]].Size()
		}
	}
	bits := make([]bool, size)
	for i := range bits {
		q := i
		for _, v := range vs {
			n := m.Vars[v].Size()
			s[v] = m.Vars[v].Lo + q%n
			q /= n
		}
		bits[i] = a.Holds(s)
	}
	// The variables a depends on: those along which some step changes it.
	var dep []int
	for j, v := range vs {
		n := m.Vars[v].Size()
		for i := range bits {
			if (i/stride[j])%n < n-1 && bits[i] != bits[i+stride[j]] {
				dep = append(dep, j)
				break
			}
		}
	}
	if len(dep) == 0 {
		return truth{constant: true}, true
	}
	// The table projected on dep (the other digits at 0).
	psize := 1
	for _, j := range dep {
		psize *= m.Vars[vs[j]].Size()
	}
	proj := make([]bool, psize)
	for i := range proj {
		q, idx := i, 0
		for _, j := range dep {
			n := m.Vars[vs[j]].Size()
			idx += (q % n) * stride[j]
			q /= n
		}
		proj[i] = bits[idx]
	}
	var b strings.Builder
	b.WriteString("tt")
	for _, j := range dep {
		fmt.Fprintf(&b, " %d", vs[j])
	}
	b.WriteByte(' ')
	flip := proj[0]
	trues := 0
	for _, x := range proj {
		if x != flip {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
		if x {
			trues++
		}
	}
	t = truth{key: b.String()}
	if len(dep) == 1 {
		t.c = oneVar(m, vs[dep[0]], proj, trues)
	}
	return t, true
}

// oneVar is the condition over variable v (range lo..hi) whose values
// lo, lo+1, ... make the table tab (not constant, trues of them true), or
// its negation, when that is a threshold (v <= k) or a single point
// (v == k); nil otherwise. A Boolean variable is the condition v.
func oneVar(m *symbolic.Model, v symbolic.VarID, tab []bool, trues int) *symbolic.Cond {
	lo := m.Vars[v].Lo
	if m.Vars[v].Bool {
		return &symbolic.Cond{Op: symbolic.CVar, Var: v}
	}
	changes, at := 0, 0
	for i := 1; i < len(tab); i++ {
		if tab[i] != tab[i-1] {
			changes++
			at = i
		}
	}
	x := symbolic.V(v)
	switch {
	case changes == 1:
		return symbolic.Compare(x, symbolic.Le, symbolic.Lit(lo+at-1))
	case trues == 1 || trues == len(tab)-1:
		one := trues == 1
		for i, b := range tab {
			if b == one {
				return symbolic.Compare(x, symbolic.Eq, symbolic.Lit(lo+i))
			}
		}
	}
	return nil
}

// syntax returns the canonical predicate of the atom a by its form (see
// the file comment); ok is false for an atom that is constant.
func (ps *predSet) syntax(a *symbolic.Cond) (pred, bool) {
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
			if a.Var != c.Var {
				continue
			}
			switch a.Value.Op {
			case symbolic.OpBool:
				return a.Value.Cond
			case symbolic.OpConst:
				if a.Value.K != 0 {
					return &symbolic.Cond{Op: symbolic.CTrue, Pos: c.Pos}
				}
				return &symbolic.Cond{Op: symbolic.CFalse, Pos: c.Pos}
			}
			return &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Ne, L: a.Value, R: symbolic.Lit(0), Pos: c.Pos}
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

// exact reports that a bound of Model.Bounds is a value, not a saturated
// one.
func exact(k int) bool { return k > -(1<<62) && k < 1<<62 }

// simplifyAtom returns the comparison a with its sides simplified by
// interval bounds (simplify), or nil when the bounds decide it on every
// state in range. Other atoms are returned as they are.
func simplifyAtom(m *symbolic.Model, a *symbolic.Cond) *symbolic.Cond {
	if a.Op != symbolic.CCmp {
		return a
	}
	n := *a
	n.L, n.R = simplify(m, a.L), simplify(m, a.R)
	llo, lhi := m.Bounds(n.L)
	rlo, rhi := m.Bounds(n.R)
	if !exact(llo) || !exact(lhi) || !exact(rlo) || !exact(rhi) {
		return &n
	}
	var always, never bool
	switch n.Cmp {
	case symbolic.Lt:
		always, never = lhi < rlo, llo >= rhi
	case symbolic.Le:
		always, never = lhi <= rlo, llo > rhi
	case symbolic.Gt:
		always, never = llo > rhi, lhi <= rlo
	case symbolic.Ge:
		always, never = llo >= rhi, lhi < rlo
	case symbolic.Eq, symbolic.Ne:
		one := llo == lhi && rlo == rhi && llo == rlo
		apart := lhi < rlo || rhi < llo
		always, never = one, apart
		if n.Cmp == symbolic.Ne {
			always, never = apart, one
		}
	}
	if always || never {
		return nil
	}
	return &n
}

// simplify returns e with the subexpressions whose value interval bounds
// decide on every state in range replaced by constants, min and max by
// the argument that is never the larger (smaller), and abs by its argument
// or its negation where its sign is fixed: weakest preconditions through
// clamped assignments (x' = max(min(2x, -2), -2)) stay small.
func simplify(m *symbolic.Model, e *symbolic.Expr) *symbolic.Expr {
	if e == nil || e.Op == symbolic.OpConst || e.Op == symbolic.OpVar {
		return e
	}
	n := *e
	if len(e.Args) > 0 {
		n.Args = make([]*symbolic.Expr, len(e.Args))
		for i, a := range e.Args {
			n.Args[i] = simplify(m, a)
		}
	}
	if lo, hi := m.Bounds(&n); lo == hi && exact(lo) {
		return symbolic.Lit(lo)
	}
	bounds := func(a *symbolic.Expr) (int, int, bool) {
		lo, hi := m.Bounds(a)
		return lo, hi, exact(lo) && exact(hi)
	}
	switch n.Op {
	case symbolic.OpMin, symbolic.OpMax:
		alo, ahi, oka := bounds(n.Args[0])
		blo, bhi, okb := bounds(n.Args[1])
		if !oka || !okb {
			break
		}
		lower, upper := -1, -1 // the argument that is never larger, never smaller
		switch {
		case ahi <= blo:
			lower, upper = 0, 1
		case bhi <= alo:
			lower, upper = 1, 0
		}
		if lower < 0 {
			break
		}
		if n.Op == symbolic.OpMin {
			return n.Args[lower]
		}
		return n.Args[upper]
	case symbolic.OpAbs:
		lo, hi, ok := bounds(n.Args[0])
		switch {
		case ok && lo >= 0:
			return n.Args[0]
		case ok && hi <= 0:
			return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{n.Args[0]}, Pos: n.Pos}
		}
	}
	return &n
}
