package safety

import (
	"math"

	"vigil/symbolic"
)

// narrowBudget bounds the guard evaluations of NoRangeErrors (one per value
// of a variable tried), so that a model with many wide variables costs
// milliseconds, not seconds: past it the boxes stay wider, which only
// makes the answer false more often.
const narrowBudget = 1 << 18

// narrowMax is the widest variable range NoRangeErrors narrows by trying
// values one by one.
const narrowMax = 4096

// NoRangeErrors reports whether interval reasoning proves that no outcome
// of any command of m leaves a variable's range or has a probability
// outside [0, 1], in any state where the command's guard holds: then no
// question's scope holds a range error, and the deciders need not search
// it (checkScope). The certificate checker does not use this analysis: it
// asks Z3 instead (safety/cert), so that an error here cannot make both
// skip the same scope.
// For each command the variables' ranges are narrowed to the values for
// which the guard is not false throughout (symbolic.CondBox with the
// variable fixed, for variables of at most narrowMax values), and each
// assignment is evaluated over that box (symbolic.EvalBox); a state-
// dependent probability must be proven within [0, 1] there
// (Outcome.BadProb false throughout). Anything not proven counts as a
// possible range error, so false is always sound.
func NoRangeErrors(m *symbolic.Model) bool {
	n := len(m.Vars)
	lo0, hi0 := make([]int, n), make([]int, n)
	for i, v := range m.Vars {
		lo0[i], hi0[i] = v.Lo, v.Hi
	}
	lo, hi := make([]int, n), make([]int, n)
	budget := narrowBudget
	for ci := range m.Commands {
		c := &m.Commands[ci]
		copy(lo, lo0)
		copy(hi, hi0)
		if !narrowBox(c.Guard, lo, hi, &budget) {
			continue // the guard never holds
		}
		for oi := range c.Outcomes {
			o := &c.Outcomes[oi]
			if o.StateProb() && symbolic.CondBox(o.BadProb(), lo, hi) != symbolic.BoxFalse {
				return false
			}
			for _, a := range o.Assigns {
				v := &m.Vars[a.Var]
				if !within(a.Value, lo, hi, v.Lo, v.Hi, &budget) {
					return false
				}
			}
		}
	}
	return true
}

// narrowBox narrows the box lo..hi to the values of each variable of g
// (of at most narrowMax values) for which g is not false throughout, and
// reports false when g is false throughout the box. Only g's variables
// are narrowed (fixing another one cannot change g's truth), so that a
// condition over one variable of a model of 10^4 array elements costs
// what it reads, not the model's width.
func narrowBox(g *symbolic.Cond, lo, hi []int, budget *int) bool {
	vars := condVars(g, nil)
	narrowAtoms(g, lo, hi)
	for _, v := range vars {
		if lo[v] > hi[v] {
			return false
		}
	}
	if symbolic.CondBox(g, lo, hi) == symbolic.BoxFalse {
		return false
	}
	for _, v := range vars {
		if uint(hi[v]-lo[v]) >= narrowMax || hi[v] == lo[v] {
			continue
		}
		l, h := lo[v], hi[v]
		holds := func(x int) bool {
			*budget--
			lo[v], hi[v] = x, x
			t := symbolic.CondBox(g, lo, hi)
			lo[v], hi[v] = l, h
			return t != symbolic.BoxFalse
		}
		nl := l
		for nl <= h && *budget > 0 && !holds(nl) {
			nl++
		}
		if nl > h {
			return false
		}
		nh := h
		for nh > nl && *budget > 0 && !holds(nh) {
			nh--
		}
		lo[v], hi[v] = nl, nh
	}
	return true
}

// condVars appends the distinct variables c reads (in its comparisons'
// expressions and their if-then-else conditions too) to vs.
func condVars(c *symbolic.Cond, vs []symbolic.VarID) []symbolic.VarID {
	add := func(v symbolic.VarID) {
		for _, w := range vs {
			if w == v {
				return
			}
		}
		vs = append(vs, v)
	}
	var expr func(e *symbolic.Expr)
	expr = func(e *symbolic.Expr) {
		if e.Op == symbolic.OpVar {
			add(e.Var)
		}
		for _, a := range e.Args {
			expr(a)
		}
		if e.Cond != nil {
			vs = condVars(e.Cond, vs)
		}
	}
	switch c.Op {
	case symbolic.CVar:
		add(c.Var)
	case symbolic.CCmp:
		expr(c.L)
		expr(c.R)
	}
	for _, a := range c.Args {
		vs = condVars(a, vs)
	}
	return vs
}

// within reports whether e's values over the box lo..hi lie in vlo..vhi
// (symbolic.EvalBox), taking an if-then-else's branches over the box
// narrowed by its condition and by its negation (x' = if x == W-1 then 0
// else x+1 stays within 0..W-1).
func within(e *symbolic.Expr, lo, hi []int, vlo, vhi int, budget *int) bool {
	if e.Op == symbolic.OpIte {
		vars := condVars(e.Cond, nil)
		saved := make([]int, 2*len(vars))
		for i, v := range vars {
			saved[2*i], saved[2*i+1] = lo[v], hi[v]
		}
		restore := func() {
			for i, v := range vars {
				lo[v], hi[v] = saved[2*i], saved[2*i+1]
			}
		}
		for i, c := range []*symbolic.Cond{e.Cond, {Op: symbolic.CNot, Args: []*symbolic.Cond{e.Cond}}} {
			ok := !narrowBox(c, lo, hi, budget) || within(e.Args[i], lo, hi, vlo, vhi, budget)
			restore()
			if !ok {
				return false
			}
		}
		return true
	}
	iv := symbolic.EvalBox(e, lo, hi)
	return !iv.Top && iv.Lo >= int64(vlo) && iv.Hi <= int64(vhi)
}

// narrowAtoms narrows the box lo..hi by the atoms "variable op constant"
// (either way round) and Boolean variables that g's top-level conjunction
// holds (x < N: hi[x] <= N-1), whatever the variables' widths. It may
// leave lo[v] > hi[v]: then g never holds in the box.
func narrowAtoms(g *symbolic.Cond, lo, hi []int) {
	switch g.Op {
	case symbolic.CAnd:
		for _, a := range g.Args {
			narrowAtoms(a, lo, hi)
		}
	case symbolic.CVar:
		if v := g.Var; int(v) < len(lo) && lo[v] == 0 && hi[v] >= 1 {
			lo[v] = 1 // Boolean: true is 1
		}
	case symbolic.CNot:
		if a := g.Args[0]; a.Op == symbolic.CVar && int(a.Var) < len(lo) && lo[a.Var] <= 0 && hi[a.Var] >= 0 {
			lo[a.Var], hi[a.Var] = 0, 0
		}
	case symbolic.CCmp:
		l, r, op := g.L, g.R, g.Cmp
		if l.Op == symbolic.OpConst && r.Op == symbolic.OpVar {
			l, r = r, l
			switch op { // k op x is x op' k
			case symbolic.Lt:
				op = symbolic.Gt
			case symbolic.Le:
				op = symbolic.Ge
			case symbolic.Gt:
				op = symbolic.Lt
			case symbolic.Ge:
				op = symbolic.Le
			}
		}
		if l.Op != symbolic.OpVar || r.Op != symbolic.OpConst || int(l.Var) >= len(lo) {
			return
		}
		v, k := l.Var, r.K
		switch op {
		case symbolic.Eq:
			lo[v], hi[v] = max(lo[v], k), min(hi[v], k)
		case symbolic.Lt:
			if k > math.MinInt {
				hi[v] = min(hi[v], k-1)
			}
		case symbolic.Le:
			hi[v] = min(hi[v], k)
		case symbolic.Gt:
			if k < math.MaxInt {
				lo[v] = max(lo[v], k+1)
			}
		case symbolic.Ge:
			lo[v] = max(lo[v], k)
		}
	}
}
