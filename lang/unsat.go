package lang

import (
	"math"

	"vigil/symbolic"
)

// neverHolds reports whether the condition c provably never has the
// truth value want in a state of the variables' ranges (interval
// reasoning: each comparison's operands by symbolic's bounds, and the
// conjuncts VAR op CONST of a conjunction narrowing VAR's range
// together). It is conservative: false means "not shown". It decides
// nothing of the semantics: a command is never applicable only when its
// guard folds to false (spec.md, "Indexing"); it lets the errors that
// such a command still gets (E0405, E0803) say so and what to do.
func neverHolds(m *symbolic.Model, c *symbolic.Cond, want bool) bool {
	if c == nil {
		return false
	}
	switch c.Op {
	case symbolic.CTrue:
		return !want
	case symbolic.CFalse:
		return want
	case symbolic.CNot:
		return neverHolds(m, c.Args[0], !want)
	case symbolic.CAnd, symbolic.COr:
		// a && b is true only where both are; a || b false only where
		// both are false: one operand that never has that value decides
		if (c.Op == symbolic.CAnd) == want {
			for _, a := range c.Args {
				if neverHolds(m, a, want) {
					return true
				}
			}
			return c.Op == symbolic.CAnd && conjunctsClash(m, c.Args)
		}
		for _, a := range c.Args {
			if !neverHolds(m, a, want) {
				return false
			}
		}
		return true
	case symbolic.CImplies:
		// a => b is !a || b
		a, b := c.Args[0], c.Args[1]
		if want {
			return neverHolds(m, a, false) && neverHolds(m, b, true)
		}
		return neverHolds(m, a, true) || neverHolds(m, b, false)
	case symbolic.CCmp:
		op := c.Cmp
		if !want {
			op = op.Negate()
		}
		l, r, ok := cmpBounds(m, c)
		if !ok {
			return false
		}
		switch op {
		case symbolic.Lt:
			return l[0] >= r[1]
		case symbolic.Le:
			return l[0] > r[1]
		case symbolic.Gt:
			return l[1] <= r[0]
		case symbolic.Ge:
			return l[1] < r[0]
		case symbolic.Eq:
			return l[1] < r[0] || r[1] < l[0]
		case symbolic.Ne:
			return l[0] == l[1] && r[0] == r[1] && l[0] == r[0]
		}
	}
	return false
}

// cmpBounds is the intervals of a comparison's operands; not ok when
// one is saturated (it may leave int64, where the bound says nothing).
func cmpBounds(m *symbolic.Model, c *symbolic.Cond) (l, r [2]int, ok bool) {
	ll, lh := m.Bounds(c.L)
	rl, rh := m.Bounds(c.R)
	for _, b := range []int{ll, lh, rl, rh} {
		if b == math.MinInt || b == math.MaxInt {
			return l, r, false
		}
	}
	return [2]int{ll, lh}, [2]int{rl, rh}, true
}

// conjunctsClash reports whether the conjuncts VAR op CONST (CONST op
// VAR) of a conjunction narrow a variable's range to nothing together
// (x > 1 && x < 1), where each alone may hold.
func conjunctsClash(m *symbolic.Model, args []*symbolic.Cond) bool {
	ranges := map[symbolic.VarID][2]int{}
	for _, a := range args {
		if a.Op != symbolic.CCmp {
			continue
		}
		x, k, op := a.L, a.R, a.Cmp
		if x.Op != symbolic.OpVar {
			x, k, op = k, x, op.Flip()
		}
		if x.Op != symbolic.OpVar || k.Op != symbolic.OpConst || int(x.Var) >= len(m.Vars) {
			continue
		}
		r, seen := ranges[x.Var]
		if !seen {
			r = [2]int{m.Vars[x.Var].Lo, m.Vars[x.Var].Hi}
		}
		v := k.K
		if v == math.MinInt || v == math.MaxInt {
			continue
		}
		switch op {
		case symbolic.Lt:
			r[1] = min(r[1], v-1)
		case symbolic.Le:
			r[1] = min(r[1], v)
		case symbolic.Gt:
			r[0] = max(r[0], v+1)
		case symbolic.Ge:
			r[0] = max(r[0], v)
		case symbolic.Eq:
			r = [2]int{max(r[0], v), min(r[1], v)}
		}
		if r[0] > r[1] {
			return true
		}
		ranges[x.Var] = r
	}
	return false
}
