package ppa

// Fast evaluation of the predicates on explicit states. The abstraction
// reads the cube of every successor of every enumerated state
// (expandStates), of every state an SMT model gives (values) and of every
// partial state of the cube search (searchWithin): on be3_16x16_safe the
// generic evaluator (symbolic.Cond.Holds, which checks every operation for
// overflow and falls back to big integers) took 4.9 of 17.7 CPU s. A
// predicate l <op> r whose difference l - r is linear, and whose value
// lies within int64 on every state in the variables' ranges
// (Model.LinearFits), is evaluated here as a sum of products in wrapping
// int64 arithmetic: by LinearFits that sum is exact on in-range states,
// the only states the engine evaluates predicates on. Any other predicate
// (weakest preconditions through if, min and max: be3's busy and demand)
// is tabulated once it has been evaluated as often as the box of its
// variables' ranges has states, when that box has at most maxFastTable
// states: a table lookup per evaluation, paid for by the evaluations that
// it saves. A state outside the ranges goes to Cond.Holds. A predicate over
// a larger box is compiled into closures (compileCond) when every
// subexpression's values over the ranges lie within ±2^62
// (symbolic.EvalBox), so that its plain int64 evaluation is exact on
// in-range states (the ring operations may wrap in between, their results
// fit; min, max, abs, div and comparisons see exact operands).

import "vigil/symbolic"

// fastPred is a predicate compiled for evaluation.
type fastPred struct {
	c      *symbolic.Cond // the predicate compiled (to notice a replaced one)
	linear bool           // c is Const + sum Terms <cmp> 0
	cmp    symbolic.CmpOp
	k      int
	terms  []symbolic.Term
	// The table: vars, their ranges' low ends and strides; table[i] is
	// the value at the state of index i; evals counts evaluations
	// before it is built (size: the box's states, 0: too many).
	vars        []symbolic.VarID
	lo, hi, mul []int
	size, evals int
	table       []bool
	// fn is the compiled predicate (nil: none).
	fn func(symbolic.State) bool
}

// maxFastTable bounds the states of the box a predicate is tabulated on.
const maxFastTable = 1 << 16

// compilePred compiles c for the model m.
func compilePred(m *symbolic.Model, c *symbolic.Cond) fastPred {
	f := fastPred{c: c}
	f.tableBox(m)
	if f.size == 0 {
		lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
		for v := range m.Vars {
			lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
		}
		f.fn = compileCond(c, lo, hi)
	}
	if c.Op != symbolic.CCmp {
		return f
	}
	l, ok := symbolic.Linearize(&symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{c.L, c.R}})
	if !ok || !m.LinearFits(l) {
		return f
	}
	for _, t := range l.Terms {
		if int(t.Var) < 0 || int(t.Var) >= len(m.Vars) {
			return f
		}
	}
	f.linear, f.cmp, f.k, f.terms = true, c.Cmp, l.Const, l.Terms
	return f
}

// tableBox sets the box of the predicate's variables, when it has at
// most maxFastTable states.
func (f *fastPred) tableBox(m *symbolic.Model) {
	seen := map[symbolic.VarID]bool{}
	f.c.Vars(func(v symbolic.VarID) {
		if !seen[v] {
			seen[v] = true
			f.vars = append(f.vars, v)
		}
	})
	size := 1
	for _, v := range f.vars {
		if int(v) < 0 || int(v) >= len(m.Vars) {
			f.vars = nil
			return
		}
		lo, hi := m.Vars[v].Lo, m.Vars[v].Hi
		if hi-lo >= maxFastTable || size*(hi-lo+1) > maxFastTable {
			f.vars = nil
			return
		}
		f.lo, f.hi, f.mul = append(f.lo, lo), append(f.hi, hi), append(f.mul, size)
		size *= hi - lo + 1
	}
	f.size = size
}

// tabulate builds the table: the predicate on every state of the box
// (the other variables 0: it does not read them).
func (f *fastPred) tabulate(n int) {
	f.table = make([]bool, f.size)
	s := make(symbolic.State, n)
	for i := range f.table {
		k := i
		for j := len(f.vars) - 1; j >= 0; j-- {
			s[f.vars[j]] = f.lo[j] + k/f.mul[j]
			k %= f.mul[j]
		}
		f.table[i] = f.c.Holds(s)
	}
}

// holds evaluates the predicate on the in-range state s.
func (f *fastPred) holds(s symbolic.State) bool {
	if !f.linear {
		if f.size == 0 {
			if f.fn != nil {
				return f.fn(s)
			}
			return f.c.Holds(s)
		}
		if f.table == nil {
			if f.evals++; f.evals < f.size {
				return f.c.Holds(s)
			}
			f.tabulate(len(s))
		}
		i := 0
		for j, v := range f.vars {
			x := s[v]
			if x < f.lo[j] || x > f.hi[j] {
				return f.c.Holds(s)
			}
			i += (x - f.lo[j]) * f.mul[j]
		}
		return f.table[i]
	}
	v := f.k
	for _, t := range f.terms {
		v += t.Coef * s[t.Var]
	}
	return f.cmp.Holds(v, 0)
}

// pred returns predicate p compiled (compiled on first use, again after
// the predicate list replaced it).
func (r *engine) pred(p int) *fastPred {
	for len(r.fast) <= p {
		r.fast = append(r.fast, fastPred{})
	}
	if c := r.preds.list[p].c; r.fast[p].c != c {
		r.fast[p] = compilePred(r.m, c)
	}
	return &r.fast[p]
}

// holds reports whether predicate p holds in the in-range state s.
func (r *engine) holds(p int, s symbolic.State) bool { return r.pred(p).holds(s) }

// compileCond compiles c for states in the box lo..hi (the variables'
// ranges), or returns nil where a subexpression may leave ±2^62 there or
// an operation is not compiled.
func compileCond(c *symbolic.Cond, lo, hi []int) func(symbolic.State) bool {
	switch c.Op {
	case symbolic.CTrue:
		return func(symbolic.State) bool { return true }
	case symbolic.CFalse:
		return func(symbolic.State) bool { return false }
	case symbolic.CVar:
		if int(c.Var) < 0 || int(c.Var) >= len(lo) {
			return nil
		}
		v := c.Var
		return func(s symbolic.State) bool { return s[v] != 0 }
	case symbolic.CCmp:
		l, r := compileExpr(c.L, lo, hi), compileExpr(c.R, lo, hi)
		if l == nil || r == nil {
			return nil
		}
		switch c.Cmp {
		case symbolic.Eq:
			return func(s symbolic.State) bool { return l(s) == r(s) }
		case symbolic.Ne:
			return func(s symbolic.State) bool { return l(s) != r(s) }
		case symbolic.Lt:
			return func(s symbolic.State) bool { return l(s) < r(s) }
		case symbolic.Le:
			return func(s symbolic.State) bool { return l(s) <= r(s) }
		case symbolic.Gt:
			return func(s symbolic.State) bool { return l(s) > r(s) }
		case symbolic.Ge:
			return func(s symbolic.State) bool { return l(s) >= r(s) }
		}
		return nil
	case symbolic.CNot:
		a := compileCond(c.Args[0], lo, hi)
		if a == nil {
			return nil
		}
		return func(s symbolic.State) bool { return !a(s) }
	case symbolic.CImplies:
		a, b := compileCond(c.Args[0], lo, hi), compileCond(c.Args[1], lo, hi)
		if a == nil || b == nil {
			return nil
		}
		return func(s symbolic.State) bool { return !a(s) || b(s) }
	case symbolic.CAnd, symbolic.COr:
		args := make([]func(symbolic.State) bool, len(c.Args))
		for i, a := range c.Args {
			if args[i] = compileCond(a, lo, hi); args[i] == nil {
				return nil
			}
		}
		if c.Op == symbolic.CAnd {
			return func(s symbolic.State) bool {
				for _, a := range args {
					if !a(s) {
						return false
					}
				}
				return true
			}
		}
		return func(s symbolic.State) bool {
			for _, a := range args {
				if a(s) {
					return true
				}
			}
			return false
		}
	}
	return nil
}

// compileExpr compiles e for states in the box lo..hi, or returns nil
// (see compileCond).
func compileExpr(e *symbolic.Expr, lo, hi []int) func(symbolic.State) int {
	if symbolic.EvalBox(e, lo, hi).Top {
		return nil
	}
	arg := func(i int) func(symbolic.State) int {
		if i >= len(e.Args) {
			return nil
		}
		return compileExpr(e.Args[i], lo, hi)
	}
	switch e.Op {
	case symbolic.OpConst:
		k := e.K
		return func(symbolic.State) int { return k }
	case symbolic.OpVar:
		if int(e.Var) < 0 || int(e.Var) >= len(lo) {
			return nil
		}
		v := e.Var
		return func(s symbolic.State) int { return s[v] }
	case symbolic.OpAdd:
		args := make([]func(symbolic.State) int, len(e.Args))
		for i := range e.Args {
			if args[i] = arg(i); args[i] == nil {
				return nil
			}
		}
		return func(s symbolic.State) int {
			v := 0
			for _, a := range args {
				v += a(s)
			}
			return v
		}
	case symbolic.OpSub, symbolic.OpMin, symbolic.OpMax:
		a, b := arg(0), arg(1)
		if a == nil || b == nil {
			return nil
		}
		switch e.Op {
		case symbolic.OpSub:
			return func(s symbolic.State) int { return a(s) - b(s) }
		case symbolic.OpMin:
			return func(s symbolic.State) int { return min(a(s), b(s)) }
		}
		return func(s symbolic.State) int { return max(a(s), b(s)) }
	case symbolic.OpNeg, symbolic.OpMul, symbolic.OpDiv, symbolic.OpAbs:
		a, k := arg(0), e.K
		if a == nil {
			return nil
		}
		switch e.Op {
		case symbolic.OpNeg:
			return func(s symbolic.State) int { return -a(s) }
		case symbolic.OpMul:
			return func(s symbolic.State) int { return k * a(s) }
		case symbolic.OpDiv:
			if k <= 0 {
				return nil
			}
			return func(s symbolic.State) int { return symbolic.FloorDiv(a(s), k) }
		}
		return func(s symbolic.State) int {
			if v := a(s); v < 0 {
				return -v
			} else {
				return v
			}
		}
	case symbolic.OpIte:
		c, a, b := compileCond(e.Cond, lo, hi), arg(0), arg(1)
		if c == nil || a == nil || b == nil {
			return nil
		}
		return func(s symbolic.State) int {
			if c(s) {
				return a(s)
			}
			return b(s)
		}
	case symbolic.OpBool:
		c := compileCond(e.Cond, lo, hi)
		if c == nil {
			return nil
		}
		return func(s symbolic.State) int {
			if c(s) {
				return 1
			}
			return 0
		}
	}
	return nil
}
