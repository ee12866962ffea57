package explicit

import (
	"context"
	"math"

	"vigil/symbolic"
)

// Expressions and conditions are compiled once into closures over the
// unpacked state. Linear expressions and comparisons between linear
// expressions (the common case) become a constant plus a short
// coefficient loop; everything else follows the tree with the same
// semantics as symbolic.Expr.Eval and symbolic.Cond.Holds.
//
// Integers are exact (see symbolic/arith.go). The closures compute in
// plain, wrapping int64 arithmetic, which is exact only when no value
// leaves int64; so each expression is first analysed over the variables'
// ranges (the states the engine meets are always in range). A linear form
// needs only its final value to fit (wrapping + and * agree with exact
// ones modulo 2^64); a tree needs every intermediate value to fit
// (symbolic.Model.Fits). An expression that may leave int64 is evaluated
// by symbolic's checked and exact evaluator instead, which costs time only
// on such expressions.

type intFn func(s symbolic.State) int
type condFn func(s symbolic.State) bool

// compiler compiles the expressions and conditions of one model, and
// polls ctx every 4096 nodes, so that a model of millions of nodes (array
// writes at a variable index lower to N^2 of them) stops compiling within
// a second of Ctrl-C or a timeout: err is then set, and the closures it
// returned must not be used.
type compiler struct {
	m   *symbolic.Model
	ctx context.Context
	n   int   // nodes compiled, for polling ctx
	err error // ctx's error, once seen
}

// stopper polls ctx every 4096 calls of done (Validate's walk of a model
// of millions of nodes takes a second); a nil stopper is never done.
type stopper struct {
	ctx context.Context
	n   int
	err error // ctx's error, once seen
}

func (s *stopper) done() bool {
	if s == nil {
		return false
	}
	if s.err == nil {
		if s.n++; s.n&4095 == 0 {
			s.err = s.ctx.Err()
		}
	}
	return s.err != nil
}

func newCompiler(ctx context.Context, m *symbolic.Model) *compiler {
	return &compiler{m: m, ctx: ctx}
}

// stopped polls ctx every 4096 nodes and reports whether it is done.
func (c *compiler) stopped() bool {
	if c.err != nil {
		return true
	}
	c.n++
	if c.n&4095 == 0 {
		c.err = c.ctx.Err()
	}
	return c.err != nil
}

// fits is m.Fits(e) under the compiler's context: when the context ends
// during the analysis (millions of nodes take a second), err is set.
func (c *compiler) fits(e *symbolic.Expr) bool {
	if c.err != nil {
		return false
	}
	if c.m.FitsContext(c.ctx, e) {
		return true
	}
	c.err = c.ctx.Err()
	return false
}

func compileExpr(m *symbolic.Model, e *symbolic.Expr) intFn {
	return newCompiler(context.Background(), m).expr(e)
}

func compileCond(m *symbolic.Model, c *symbolic.Cond) condFn {
	return newCompiler(context.Background(), m).cond(c)
}

var stoppedInt intFn = func(symbolic.State) int { panic("explicit: a closure of an interrupted compile was used") }

var stoppedCond condFn = func(symbolic.State) bool { panic("explicit: a closure of an interrupted compile was used") }

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

func (c *compiler) expr(e *symbolic.Expr) intFn {
	m := c.m
	if l, ok := symbolic.Linearize(e); ok && m.LinearFits(l) {
		return compileLinear(l)
	}
	if !c.fits(e) {
		if c.err != nil {
			return stoppedInt
		}
		return func(s symbolic.State) int { return e.Eval(s) }
	}
	return c.tree(e)
}

// compileTree compiles e, every intermediate value of which fits in int64
// (m.Fits(e)), with unchecked arithmetic.
func (c *compiler) tree(e *symbolic.Expr) intFn {
	if c.stopped() {
		return stoppedInt
	}
	if l, ok := symbolic.Linearize(e); ok {
		return compileLinear(l) // its values lie within e's bounds
	}
	switch e.Op {
	case symbolic.OpAdd:
		fs := make([]intFn, len(e.Args))
		for i, a := range e.Args {
			fs[i] = c.tree(a)
		}
		return func(s symbolic.State) int {
			v := 0
			for _, f := range fs {
				v += f(s)
			}
			return v
		}
	case symbolic.OpSub:
		a, b := c.tree(e.Args[0]), c.tree(e.Args[1])
		return func(s symbolic.State) int { return a(s) - b(s) }
	case symbolic.OpNeg:
		a := c.tree(e.Args[0])
		return func(s symbolic.State) int { return -a(s) }
	case symbolic.OpMul:
		a, k := c.tree(e.Args[0]), e.K
		return func(s symbolic.State) int { return k * a(s) }
	case symbolic.OpDiv:
		a, k := c.tree(e.Args[0]), e.K
		return func(s symbolic.State) int { return symbolic.FloorDiv(a(s), k) }
	case symbolic.OpProd:
		a, b := c.tree(e.Args[0]), c.tree(e.Args[1])
		return func(s symbolic.State) int { return a(s) * b(s) }
	case symbolic.OpMin:
		a, b := c.tree(e.Args[0]), c.tree(e.Args[1])
		return func(s symbolic.State) int { return min(a(s), b(s)) }
	case symbolic.OpMax:
		a, b := c.tree(e.Args[0]), c.tree(e.Args[1])
		return func(s symbolic.State) int { return max(a(s), b(s)) }
	case symbolic.OpAbs:
		a := c.tree(e.Args[0])
		return func(s symbolic.State) int {
			if v := a(s); v < 0 {
				return -v
			} else {
				return v
			}
		}
	case symbolic.OpIte:
		if f, ok := c.dispatchIte(e); ok {
			return f
		}
		k, a, b := c.cond(e.Cond), c.tree(e.Args[0]), c.tree(e.Args[1])
		return func(s symbolic.State) int {
			if k(s) {
				return a(s)
			}
			return b(s)
		}
	case symbolic.OpBool:
		k := c.cond(e.Cond)
		return func(s symbolic.State) int {
			if k(s) {
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

func (cp *compiler) cond(c *symbolic.Cond) condFn {
	if cp.stopped() {
		return stoppedCond
	}
	m := cp.m
	switch c.Op {
	case symbolic.CTrue:
		return func(symbolic.State) bool { return true }
	case symbolic.CFalse:
		return func(symbolic.State) bool { return false }
	case symbolic.CVar:
		v := c.Var
		return func(s symbolic.State) bool { return s[v] != 0 }
	case symbolic.CCmp:
		if d, ok := diffLinear(c.L, c.R); ok && m.LinearFits(d) {
			// k*x + c OP 0 with one variable: compare x against a constant.
			// (x + MinInt64 OP 0 is x OP 2^63: not a comparison with an
			// int64 constant; the linear form below handles it.)
			if len(d.Terms) == 1 && (d.Terms[0].Coef == 1 && d.Const != math.MinInt64 || d.Terms[0].Coef == -1) {
				v, k := d.Terms[0].Var, d.Terms[0].Coef
				if k == -1 { // -x + c OP 0  <=>  x - c FLIP 0
					return compileVarCmp(v, c.Cmp.Flip(), d.Const)
				}
				return compileVarCmp(v, c.Cmp, -d.Const)
			}
			return compileCmp(c.Cmp, compileLinear(d))
		}
		if !cp.fits(c.L) || !cp.fits(c.R) {
			if cp.err != nil {
				return stoppedCond
			}
			return c.Holds // exact comparison
		}
		l, r, op := cp.expr(c.L), cp.expr(c.R), c.Cmp
		return func(s symbolic.State) bool { return op.Holds(l(s), r(s)) }
	case symbolic.CNot:
		a := cp.cond(c.Args[0])
		return func(s symbolic.State) bool { return !a(s) }
	case symbolic.CAnd:
		fs := cp.conds1(c.Args)
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
		if f, ok := cp.dispatchOr(c); ok {
			return f
		}
		fs := cp.conds1(c.Args)
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
		a, b := cp.cond(c.Args[0]), cp.cond(c.Args[1])
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

func (cp *compiler) conds1(cs []*symbolic.Cond) []condFn {
	fs := make([]condFn, len(cs))
	for i, c := range cs {
		fs[i] = cp.cond(c)
	}
	return fs
}
