package explicit

import (
	"vigil/symbolic"
)

// Expressions and conditions are compiled once into closures over the
// unpacked state. Linear expressions and comparisons between linear
// expressions (the common case) become a constant plus a short
// coefficient loop; everything else follows the tree with the same
// semantics as symbolic.Expr.Eval and symbolic.Cond.Holds.

type intFn func(s symbolic.State) int
type condFn func(s symbolic.State) bool

func compileLinear(l symbolic.Linear) intFn {
	c := l.Const
	switch len(l.Terms) {
	case 0:
		return func(symbolic.State) int { return c }
	case 1:
		v, k := l.Terms[0].Var, l.Terms[0].Coef
		if k == 1 {
			return func(s symbolic.State) int { return s[v] + c }
		}
		return func(s symbolic.State) int { return k*s[v] + c }
	case 2:
		v0, k0, v1, k1 := l.Terms[0].Var, l.Terms[0].Coef, l.Terms[1].Var, l.Terms[1].Coef
		return func(s symbolic.State) int { return k0*s[v0] + k1*s[v1] + c }
	}
	ts := l.Terms
	return func(s symbolic.State) int {
		v := c
		for _, t := range ts {
			v += t.Coef * s[t.Var]
		}
		return v
	}
}

func compileExpr(e *symbolic.Expr) intFn {
	if l, ok := symbolic.Linearize(e); ok {
		return compileLinear(l)
	}
	switch e.Op {
	case symbolic.OpAdd:
		fs := make([]intFn, len(e.Args))
		for i, a := range e.Args {
			fs[i] = compileExpr(a)
		}
		return func(s symbolic.State) int {
			v := 0
			for _, f := range fs {
				v += f(s)
			}
			return v
		}
	case symbolic.OpSub:
		a, b := compileExpr(e.Args[0]), compileExpr(e.Args[1])
		return func(s symbolic.State) int { return a(s) - b(s) }
	case symbolic.OpNeg:
		a := compileExpr(e.Args[0])
		return func(s symbolic.State) int { return -a(s) }
	case symbolic.OpMul:
		a, k := compileExpr(e.Args[0]), e.K
		return func(s symbolic.State) int { return k * a(s) }
	case symbolic.OpDiv:
		a, k := compileExpr(e.Args[0]), e.K
		return func(s symbolic.State) int { return symbolic.FloorDiv(a(s), k) }
	case symbolic.OpProd:
		a, b := compileExpr(e.Args[0]), compileExpr(e.Args[1])
		return func(s symbolic.State) int { return a(s) * b(s) }
	case symbolic.OpMin:
		a, b := compileExpr(e.Args[0]), compileExpr(e.Args[1])
		return func(s symbolic.State) int { return min(a(s), b(s)) }
	case symbolic.OpMax:
		a, b := compileExpr(e.Args[0]), compileExpr(e.Args[1])
		return func(s symbolic.State) int { return max(a(s), b(s)) }
	case symbolic.OpAbs:
		a := compileExpr(e.Args[0])
		return func(s symbolic.State) int {
			if v := a(s); v < 0 {
				return -v
			} else {
				return v
			}
		}
	case symbolic.OpIte:
		c, a, b := compileCond(e.Cond), compileExpr(e.Args[0]), compileExpr(e.Args[1])
		return func(s symbolic.State) int {
			if c(s) {
				return a(s)
			}
			return b(s)
		}
	case symbolic.OpBool:
		c := compileCond(e.Cond)
		return func(s symbolic.State) int {
			if c(s) {
				return 1
			}
			return 0
		}
	}
	// Unknown ops are rejected by validate before compiling.
	return func(s symbolic.State) int { return e.Eval(s) }
}

func compileCmp(op symbolic.CmpOp, a intFn) condFn {
	switch op {
	case symbolic.Eq:
		return func(s symbolic.State) bool { return a(s) == 0 }
	case symbolic.Ne:
		return func(s symbolic.State) bool { return a(s) != 0 }
	case symbolic.Lt:
		return func(s symbolic.State) bool { return a(s) < 0 }
	case symbolic.Le:
		return func(s symbolic.State) bool { return a(s) <= 0 }
	case symbolic.Gt:
		return func(s symbolic.State) bool { return a(s) > 0 }
	}
	return func(s symbolic.State) bool { return a(s) >= 0 }
}

// diffLinear returns the linear form of l - r when both are linear.
func diffLinear(l, r *symbolic.Expr) (symbolic.Linear, bool) {
	return symbolic.Linearize(&symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{l, r}})
}

func compileCond(c *symbolic.Cond) condFn {
	switch c.Op {
	case symbolic.CTrue:
		return func(symbolic.State) bool { return true }
	case symbolic.CFalse:
		return func(symbolic.State) bool { return false }
	case symbolic.CVar:
		v := c.Var
		return func(s symbolic.State) bool { return s[v] != 0 }
	case symbolic.CCmp:
		if d, ok := diffLinear(c.L, c.R); ok {
			// k*x + c OP 0 with one variable: compare x against a constant.
			if len(d.Terms) == 1 && (d.Terms[0].Coef == 1 || d.Terms[0].Coef == -1) {
				v, k := d.Terms[0].Var, d.Terms[0].Coef
				if k == -1 { // -x + c OP 0  <=>  x - c FLIP 0
					return compileVarCmp(v, c.Cmp.Flip(), d.Const)
				}
				return compileVarCmp(v, c.Cmp, -d.Const)
			}
			return compileCmp(c.Cmp, compileLinear(d))
		}
		l, r, op := compileExpr(c.L), compileExpr(c.R), c.Cmp
		return func(s symbolic.State) bool { return op.Holds(l(s), r(s)) }
	case symbolic.CNot:
		a := compileCond(c.Args[0])
		return func(s symbolic.State) bool { return !a(s) }
	case symbolic.CAnd:
		fs := compileConds(c.Args)
		if len(fs) == 2 {
			a, b := fs[0], fs[1]
			return func(s symbolic.State) bool { return a(s) && b(s) }
		}
		return func(s symbolic.State) bool {
			for _, f := range fs {
				if !f(s) {
					return false
				}
			}
			return true
		}
	case symbolic.COr:
		fs := compileConds(c.Args)
		if len(fs) == 2 {
			a, b := fs[0], fs[1]
			return func(s symbolic.State) bool { return a(s) || b(s) }
		}
		return func(s symbolic.State) bool {
			for _, f := range fs {
				if f(s) {
					return true
				}
			}
			return false
		}
	case symbolic.CImplies:
		a, b := compileCond(c.Args[0]), compileCond(c.Args[1])
		return func(s symbolic.State) bool { return !a(s) || b(s) }
	}
	return func(s symbolic.State) bool { return c.Holds(s) }
}

// compileVarCmp returns x OP k.
func compileVarCmp(v symbolic.VarID, op symbolic.CmpOp, k int) condFn {
	switch op {
	case symbolic.Eq:
		return func(s symbolic.State) bool { return s[v] == k }
	case symbolic.Ne:
		return func(s symbolic.State) bool { return s[v] != k }
	case symbolic.Lt:
		return func(s symbolic.State) bool { return s[v] < k }
	case symbolic.Le:
		return func(s symbolic.State) bool { return s[v] <= k }
	case symbolic.Gt:
		return func(s symbolic.State) bool { return s[v] > k }
	}
	return func(s symbolic.State) bool { return s[v] >= k }
}

func compileConds(cs []*symbolic.Cond) []condFn {
	fs := make([]condFn, len(cs))
	for i, c := range cs {
		fs[i] = compileCond(c)
	}
	return fs
}
