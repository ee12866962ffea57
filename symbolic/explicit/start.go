package explicit

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"

	"vigil/symbolic"
)

// Start-state enumeration. The start condition is split into its top-level
// conjuncts; conjuncts that are comparisons between linear expressions (or
// Boolean literals) tighten the variables' bounds by interval propagation
// until a fixpoint. What remains is enumerated depth-first over the
// tightened ranges in declaration order, testing each conjunct as soon as
// the last variable it reads is assigned, so a start condition that fixes
// or bounds variables never walks the whole product of their ranges.

// linLE is the constraint Const + sum Terms <= 0.
type linLE = symbolic.Linear

func conjuncts(c *symbolic.Cond, out []*symbolic.Cond) []*symbolic.Cond {
	if c.Op == symbolic.CAnd {
		for _, a := range c.Args {
			out = conjuncts(a, out)
		}
		return out
	}
	return append(out, c)
}

// boundConjuncts is conjuncts (of c, or of !c when neg) for the bounds
// StartBounds draws: it also reads !(a || b) as !a && !b, !(a => b) as
// a && !b and !!a as a, so that `start !(x < K || y != 3)` bounds x and
// y (bfs walked x's 2^40 values times y's where bdd answered at once;
// s33c). A negated part is returned as !part, which leConstraints reads.
func boundConjuncts(c *symbolic.Cond, neg bool, out []*symbolic.Cond) []*symbolic.Cond {
	switch {
	case c.Op == symbolic.CNot && len(c.Args) == 1:
		return boundConjuncts(c.Args[0], !neg, out)
	case c.Op == symbolic.CAnd && !neg, c.Op == symbolic.COr && neg:
		for _, a := range c.Args {
			out = boundConjuncts(a, neg, out)
		}
		return out
	case c.Op == symbolic.CImplies && neg && len(c.Args) == 2:
		out = boundConjuncts(c.Args[0], false, out)
		return boundConjuncts(c.Args[1], true, out)
	}
	if neg {
		return append(out, &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{c}, Pos: c.Pos})
	}
	return append(out, c)
}

// negLinear returns -l, or ok == false when a coefficient or the constant
// is math.MinInt64.
func negLinear(l symbolic.Linear) (symbolic.Linear, bool) {
	n := symbolic.Linear{Terms: make([]symbolic.Term, len(l.Terms))}
	var ok bool
	if n.Const, ok = symbolic.NegExact(l.Const); !ok {
		return n, false
	}
	for i, t := range l.Terms {
		c, ok := symbolic.NegExact(t.Coef)
		if !ok {
			return n, false
		}
		n.Terms[i] = symbolic.Term{Coef: c, Var: t.Var}
	}
	return n, true
}

// leConstraints turns a conjunct into linear constraints "<= 0" when it can.
func leConstraints(c *symbolic.Cond) []linLE {
	neg := false
	if c.Op == symbolic.CNot {
		c, neg = c.Args[0], true
	}
	switch c.Op {
	case symbolic.CVar:
		if neg { // x <= 0
			return []linLE{{Terms: []symbolic.Term{{Coef: 1, Var: c.Var}}}}
		}
		return []linLE{{Const: 1, Terms: []symbolic.Term{{Coef: -1, Var: c.Var}}}} // 1 - x <= 0
	case symbolic.CCmp:
		op := c.Cmp
		if neg {
			op = op.Negate()
		}
		d, ok := diffLinear(c.L, c.R)
		if !ok {
			return impliedBounds(c.L, op, c.R)
		}
		// The constraints must be exact: a form whose negation or +1 leaves
		// int64 is dropped (the conjunct is still tested on every state).
		plus1 := func(l symbolic.Linear, ok bool) []linLE {
			if ok {
				l.Const, ok = symbolic.AddExact(l.Const, 1)
			}
			if !ok {
				return nil
			}
			return []linLE{l}
		}
		keep := func(l symbolic.Linear, ok bool) []linLE {
			if !ok {
				return nil
			}
			return []linLE{l}
		}
		switch op {
		case symbolic.Le:
			return []linLE{d}
		case symbolic.Lt:
			return plus1(d, true)
		case symbolic.Ge:
			return keep(negLinear(d))
		case symbolic.Gt:
			return plus1(negLinear(d))
		case symbolic.Eq:
			return append([]linLE{d}, keep(negLinear(d))...)
		}
	}
	return nil
}

// impliedBounds returns linear constraints that "l op r" implies when
// one side is a constant and the other is not linear but built from
// linear forms by floor division, max, min, abs and negation: x / 2 == 3
// implies 6 <= x <= 7, max(x, y) <= 3 implies x <= 3 and y <= 3, abs(x -
// 5) <= 1 implies 4 <= x <= 6. They need not be equivalent to the
// conjunct, which is still tested on every state: they only narrow the
// box enumerated, so that such a start condition over variables of 2^40
// values is not walked value by value (vigil verify --engine bfs ran for
// hours where bdd answered at once; s33b). Parts that would imply only a
// disjunction (max(x, y) >= 3, abs(x) >= 3, min(x, y) <= 3) or whose
// bound leaves int64 add nothing.
func impliedBounds(l *symbolic.Expr, op symbolic.CmpOp, r *symbolic.Expr) []linLE {
	constOf := func(e *symbolic.Expr) (int, bool) {
		if lin, ok := symbolic.Linearize(e); ok && len(lin.Terms) == 0 {
			return lin.Const, true
		}
		return 0, false
	}
	e := l
	k, ok := constOf(r)
	if !ok {
		if k, ok = constOf(l); !ok {
			return nil
		}
		e, op = r, op.Flip() // k op e is e op' k
	}
	switch op {
	case symbolic.Le:
		return upperBounds(e, k, nil)
	case symbolic.Lt:
		if k == math.MinInt64 {
			return nil // e < -2^63 may hold: e's value is exact, not int64
		}
		return upperBounds(e, k-1, nil)
	case symbolic.Ge:
		return lowerBounds(e, k, nil)
	case symbolic.Gt:
		if k == math.MaxInt64 {
			return nil // e > 2^63-1 may hold, as above
		}
		return lowerBounds(e, k+1, nil)
	case symbolic.Eq:
		return lowerBounds(e, k, upperBounds(e, k, nil))
	}
	return nil
}

// upperBounds appends to out linear constraints implied by e <= k.
func upperBounds(e *symbolic.Expr, k int, out []linLE) []linLE {
	if lin, ok := symbolic.Linearize(e); ok {
		if c, ok := symbolic.SubExact(lin.Const, k); ok { // lin - k <= 0
			out = append(out, linLE{Const: c, Terms: lin.Terms})
		}
		return out
	}
	switch e.Op {
	case symbolic.OpDiv: // floor(a/K) <= k  <=>  a <= (k+1)K - 1
		if e.K > 0 {
			if k1, ok := symbolic.AddExact(k, 1); ok {
				if b, ok := symbolic.MulExact(k1, e.K); ok {
					if b1, ok := symbolic.SubExact(b, 1); ok {
						out = upperBounds(e.Args[0], b1, out)
					}
				}
			}
		}
	case symbolic.OpMax:
		for _, a := range e.Args {
			out = upperBounds(a, k, out)
		}
	case symbolic.OpAbs: // |a| <= k  <=>  -k <= a <= k
		if k < 0 {
			return append(out, linLE{Const: 1}) // |a| <= k < 0: never
		}
		out = upperBounds(e.Args[0], k, out)
		out = lowerBounds(e.Args[0], -k, out)
	case symbolic.OpNeg:
		if nk, ok := symbolic.NegExact(k); ok {
			out = lowerBounds(e.Args[0], nk, out)
		}
	}
	return out
}

// lowerBounds appends to out linear constraints implied by e >= k.
func lowerBounds(e *symbolic.Expr, k int, out []linLE) []linLE {
	if lin, ok := symbolic.Linearize(e); ok {
		if c, ok := symbolic.SubExact(lin.Const, k); ok { // k - lin <= 0
			if n, ok := negLinear(symbolic.Linear{Const: c, Terms: lin.Terms}); ok {
				out = append(out, n)
			}
		}
		return out
	}
	switch e.Op {
	case symbolic.OpDiv: // floor(a/K) >= k  <=>  a >= kK
		if e.K > 0 {
			if b, ok := symbolic.MulExact(k, e.K); ok {
				out = lowerBounds(e.Args[0], b, out)
			}
		}
	case symbolic.OpMin:
		for _, a := range e.Args {
			out = lowerBounds(a, k, out)
		}
	case symbolic.OpNeg:
		if nk, ok := symbolic.NegExact(k); ok {
			out = upperBounds(e.Args[0], nk, out)
		}
	}
	return out
}

// propagate tightens lo/hi under the constraints; it returns false when a
// range becomes empty. Arithmetic is checked: a step whose values leave
// int64 is skipped (skipping a tightening is always sound).
func propagate(cs []linLE, lo, hi []int) bool {
	// minTerm is the least value of t over the current box.
	minTerm := func(t symbolic.Term) (int, bool) {
		a, ok1 := symbolic.MulExact(t.Coef, lo[t.Var])
		b, ok2 := symbolic.MulExact(t.Coef, hi[t.Var])
		return min(a, b), ok1 && ok2
	}
	for round := 0; round < 64; round++ {
		changed := false
		for _, c := range cs {
			minSum, ok := c.Const, true
			for _, t := range c.Terms {
				p, ok1 := minTerm(t)
				var ok2 bool
				minSum, ok2 = symbolic.AddExact(minSum, p)
				ok = ok && ok1 && ok2
			}
			if !ok {
				continue
			}
			for _, t := range c.Terms {
				p, ok1 := minTerm(t)
				rest, ok2 := symbolic.SubExact(minSum, p)
				if !ok1 || !ok2 || rest == math.MinInt64 {
					continue
				}
				// t.Coef * x <= -rest
				if t.Coef > 0 {
					if b := symbolic.FloorDiv(-rest, t.Coef); b < hi[t.Var] {
						hi[t.Var], changed = b, true
					}
				} else {
					// x >= ceil(-rest / Coef) = -floor(rest / Coef), exact
					// since rest != MinInt64.
					if b := -symbolic.FloorDiv(rest, t.Coef); b > lo[t.Var] {
						lo[t.Var], changed = b, true
					}
				}
				if lo[t.Var] > hi[t.Var] {
					return false
				}
			}
			if len(c.Terms) == 0 && c.Const > 0 {
				return false
			}
		}
		if !changed {
			break
		}
	}
	return true
}

// StartBounds returns the variable bounds implied by the property's start
// condition (the variables' ranges when there is none), and ok == false
// when propagation proves that no state satisfies it.
func (g *Generator) StartBounds() (lo, hi []int, ok bool) {
	m := g.M
	lo, hi = make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for i := range m.Vars {
		lo[i], hi[i] = m.Vars[i].Lo, m.Vars[i].Hi
	}
	if g.Prop == nil || g.Prop.Start == nil {
		return lo, hi, true
	}
	var cs []linLE
	var ors [][]*symbolic.Cond
	for _, c := range boundConjuncts(g.Prop.Start, false, nil) {
		if ds := disjuncts(c); ds != nil {
			ors = append(ors, ds)
			continue
		}
		cs = append(cs, leConstraints(c)...)
	}
	if !propagate(cs, lo, hi) {
		return lo, hi, false
	}
	if len(ors) == 0 {
		return lo, hi, true
	}
	// A disjunction narrows the box to the hull of its disjuncts' boxes,
	// each propagated with the other conjuncts' constraints: a state
	// satisfies one disjunct, so it lies in that one's box (start x == 3
	// || x == 5 over 2^40 values is 3 <= x <= 5; s33c). A disjunct that
	// propagation proves empty adds nothing; nested disjunctions in a
	// disjunct narrow nothing.
	for _, ds := range ors {
		var hlo, hhi []int
		for _, d := range ds {
			dcs := slices.Clip(cs)
			for _, c := range boundConjuncts(d, false, nil) {
				dcs = append(dcs, leConstraints(c)...)
			}
			dlo, dhi := slices.Clone(lo), slices.Clone(hi)
			if !propagate(dcs, dlo, dhi) {
				continue
			}
			if hlo == nil {
				hlo, hhi = dlo, dhi
				continue
			}
			for i := range hlo {
				hlo[i], hhi[i] = min(hlo[i], dlo[i]), max(hhi[i], dhi[i])
			}
		}
		if hlo == nil {
			return lo, hi, false // no disjunct holds in the box
		}
		copy(lo, hlo) // within lo .. hi: propagation only tightens
		copy(hi, hhi)
	}
	return lo, hi, propagate(cs, lo, hi)
}

// disjuncts returns the disjuncts of a conjunct that is a disjunction (a
// || b, a => b as !a || b, and !(a && b) as !a || !b, the forms
// boundConjuncts leaves), or nil.
func disjuncts(c *symbolic.Cond) []*symbolic.Cond {
	not := func(a *symbolic.Cond) *symbolic.Cond {
		return &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{a}, Pos: a.Pos}
	}
	switch {
	case c.Op == symbolic.COr:
		return c.Args
	case c.Op == symbolic.CImplies && len(c.Args) == 2:
		return []*symbolic.Cond{not(c.Args[0]), c.Args[1]}
	case c.Op == symbolic.CNot && len(c.Args) == 1 && c.Args[0].Op == symbolic.CAnd:
		var ds []*symbolic.Cond
		for _, a := range c.Args[0].Args {
			ds = append(ds, not(a))
		}
		return ds
	}
	return nil
}

// Starts calls f with each start state of the property, in lexicographic
// order of the variables (declaration order, smallest values first), until
// f returns false. The state passed to f is reused: copy it to keep it.
// Without a start condition the single start state is the initial-value
// state. It returns an error when no state satisfies the start condition.
func (g *Generator) Starts(f func(s symbolic.State) bool) error {
	return g.StartsContext(context.Background(), f)
}

// StartsContext is Starts that also stops, returning ctx's error, when ctx
// ends: it checks ctx every few thousand candidate states, so a sparse
// start condition over large ranges cannot hold it up.
func (g *Generator) StartsContext(ctx context.Context, f func(s symbolic.State) bool) error {
	m := g.M
	if g.Prop == nil || g.Prop.Start == nil {
		s, err := m.InitialState()
		if err != nil {
			return fmt.Errorf("explicit: %w", err)
		}
		f(s)
		return nil
	}
	pos := g.Prop.Pos
	if g.Prop.Start.Pos.IsValid() {
		pos = g.Prop.Start.Pos
	}
	noStart := fmt.Errorf("explicit: %s: no state satisfies the start condition of property %s; check its bounds against the variables' ranges", pos, g.Prop.Name)
	lo, hi, ok := g.StartBounds()
	if !ok {
		return noStart
	}
	n := len(m.Vars)
	// checks[k]: conjuncts whose last variable is k; checks[n]: constant
	// ones. Those of the form x_k != x_j + off or x_k != off go to neq[k]
	// instead: they remove one value each from x_k's candidates (an
	// all-different start condition, as in sliding-tile puzzles, is 66
	// such conjuncts over twelve variables).
	checks := make([][]condFn, n+1)
	neq := make([][]neqRule, n)
	for _, c := range conjuncts(g.Prop.Start, nil) {
		last := -1
		c.Vars(func(v symbolic.VarID) { last = max(last, int(v)) })
		if last < 0 {
			last = n
		}
		if last < n {
			if r, ok := neqOf(m, c, symbolic.VarID(last)); ok {
				neq[last] = append(neq[last], r)
				continue
			}
		}
		checks[last] = append(checks[last], compileCond(m, c))
	}
	// avail[k]: x_k's values not yet tried and not excluded by neq[k], a
	// bit per value from lo[k], where neq[k] has rules and the range has
	// at most 64 values (masked[k]); elsewhere the rules are tested on
	// each value.
	masked := make([]bool, n)
	avail := make([]uint64, n)
	for k := range n { // neqOf keeps the ranges small: hi - lo is exact
		masked[k] = len(neq[k]) > 0 && hi[k] >= lo[k] && hi[k]-lo[k] < 64
	}
	enter := func(k int, s symbolic.State) {
		s[k] = lo[k] - 1
		if !masked[k] {
			return
		}
		w := uint(hi[k] - lo[k] + 1)
		a := ^uint64(0) >> (64 - w)
		for _, r := range neq[k] {
			if v := r.value(s); v >= lo[k] && v <= hi[k] {
				a &^= 1 << uint(v-lo[k])
			}
		}
		avail[k] = a
	}
	excluded := func(k int, s symbolic.State) bool {
		for _, r := range neq[k] {
			if s[k] == r.value(s) {
				return true
			}
		}
		return false
	}
	s := make(symbolic.State, n)
	copy(s, lo)
	for _, fc := range checks[n] {
		if !fc(s) {
			return noStart
		}
	}
	found := false
	// Iterative depth-first enumeration: k is the variable being assigned.
	k := 0
	if n == 0 {
		found = true
		f(s)
		return nil
	}
	enter(0, s)
	steps := 0
	for k >= 0 {
		if steps++; steps&4095 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if masked[k] {
			if avail[k] == 0 {
				k--
				continue
			}
			b := bits.TrailingZeros64(avail[k])
			avail[k] &^= 1 << uint(b)
			s[k] = lo[k] + b
		} else {
			s[k]++
			if s[k] > hi[k] {
				k--
				continue
			}
			if excluded(k, s) {
				continue
			}
		}
		ok := true
		for _, fc := range checks[k] {
			if !fc(s) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if k == n-1 {
			found = true
			if !f(s) {
				return nil
			}
			continue
		}
		k++
		enter(k, s)
	}
	if !found {
		return noStart
	}
	return nil
}

// neqRule is a start conjunct x_k != x_j + off (j < k), or x_k != off
// when j is -1.
type neqRule struct {
	j   int
	off int
}

// value is the value the rule excludes for x_k in s (x_0 .. x_{k-1} set).
func (r neqRule) value(s symbolic.State) int {
	if r.j < 0 {
		return r.off
	}
	return s[r.j] + r.off
}

// neqSmall bounds the values and offsets neqOf accepts, so that x_j + off
// is exact.
const neqSmall = 1 << 40

// neqOf recognises a conjunct whose last variable is k as x_k != x_j + off
// or x_k != off: a disequality (or a negated equality) whose linear form
// has coefficient ±1 on x_k and, if on another variable, the opposite one
// there, over variables and constants smaller than neqSmall in magnitude.
func neqOf(m *symbolic.Model, c *symbolic.Cond, k symbolic.VarID) (neqRule, bool) {
	neg := false
	if c.Op == symbolic.CNot {
		c, neg = c.Args[0], true
	}
	if c.Op != symbolic.CCmp {
		return neqRule{}, false
	}
	op := c.Cmp
	if neg {
		op = op.Negate()
	}
	d, ok := diffLinear(c.L, c.R)
	if op != symbolic.Ne || !ok || d.Const <= -neqSmall || d.Const >= neqSmall {
		return neqRule{}, false
	}
	for _, t := range d.Terms {
		if v := m.Vars[t.Var]; v.Lo <= -neqSmall || v.Hi >= neqSmall {
			return neqRule{}, false
		}
	}
	switch len(d.Terms) {
	case 1: // a*x_k + c != 0, a = ±1: x_k != -c*a
		a := d.Terms[0]
		if a.Var == k && (a.Coef == 1 || a.Coef == -1) {
			return neqRule{j: -1, off: -d.Const * a.Coef}, true
		}
	case 2: // a*x_k - a*x_j + c != 0, a = ±1: x_k != x_j - c*a
		a, b := d.Terms[0], d.Terms[1]
		if b.Var == k {
			a, b = b, a
		}
		if a.Var == k && b.Var < k && (a.Coef == 1 || a.Coef == -1) && b.Coef == -a.Coef {
			return neqRule{j: int(b.Var), off: -d.Const * a.Coef}, true
		}
	}
	return neqRule{}, false
}
