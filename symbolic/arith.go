package symbolic

// Integer semantics. Integer expressions denote mathematical integers:
// there is no wrap-around and no overflow error, the SMT engines' unbounded
// Int and JANI's semantics alike (lang/spec.md, "Integer arithmetic").
// Variables hold values of their ranges, which lie strictly inside int64
// (CheckRanges), so every value a variable can take is an int; only the
// intermediate and final values of expressions can leave int64.
//
// Evaluation therefore has two paths. The fast path (eval64) computes in
// int64 with every operation checked; when some intermediate leaves int64
// it gives up, and the expression is evaluated again exactly with math/big
// (EvalBig). Comparisons (Cond.Holds) compare exact values. Expr.Eval
// returns the exact value when it fits in an int and otherwise saturates
// to math.MinInt64 or math.MaxInt64: no variable's range contains those,
// so an assignment of a saturated value is a range error, as the exact
// value would be.
//
// Static interval analysis (Model.Bounds, Model.Fits) is done exactly with
// math/big, so that a compiled evaluator may skip the checks on
// expressions proven to stay inside int64 for every state in range.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
)

// Checked int64 arithmetic: ok == false when the exact result is outside
// int64.

func add64(a, b int) (int, bool) {
	c := a + b
	return c, (a^c)&(b^c) >= 0
}

func sub64(a, b int) (int, bool) {
	c := a - b
	return c, (a^b)&(a^c) >= 0
}

func mul64(a, b int) (int, bool) {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	// Signed high word of the 128-bit product.
	h := int64(hi)
	if a < 0 {
		h -= int64(b)
	}
	if b < 0 {
		h -= int64(a)
	}
	return int(lo), h == int64(lo)>>63
}

func neg64(a int) (int, bool) { return -a, a != math.MinInt64 }

// AddExact returns a+b and whether it lies within int64 (when not, the
// first result is the wrapped sum).
func AddExact(a, b int) (int, bool) { return add64(a, b) }

// SubExact returns a-b and whether it lies within int64.
func SubExact(a, b int) (int, bool) { return sub64(a, b) }

// MulExact returns a*b and whether it lies within int64.
func MulExact(a, b int) (int, bool) { return mul64(a, b) }

// NegExact returns -a and whether it lies within int64 (a != MinInt64).
func NegExact(a int) (int, bool) { return neg64(a) }

func abs64(a int) (int, bool) {
	if a < 0 {
		return -a, a != math.MinInt64
	}
	return a, true
}

// eval64 evaluates e with checked int64 arithmetic; ok == false when an
// intermediate or the result leaves int64.
func (e *Expr) eval64(s State) (v int, ok bool) {
	switch e.Op {
	case OpConst:
		return e.K, true
	case OpVar:
		return s[e.Var], true
	case OpAdd:
		for _, a := range e.Args {
			x, ok := a.eval64(s)
			if !ok {
				return 0, false
			}
			if v, ok = add64(v, x); !ok {
				return 0, false
			}
		}
		return v, true
	case OpSub, OpProd, OpMin, OpMax:
		a, ok1 := e.Args[0].eval64(s)
		b, ok2 := e.Args[1].eval64(s)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case OpSub:
			return sub64(a, b)
		case OpProd:
			return mul64(a, b)
		case OpMin:
			return min(a, b), true
		}
		return max(a, b), true
	case OpNeg, OpMul, OpDiv, OpAbs:
		a, ok := e.Args[0].eval64(s)
		if !ok {
			return 0, false
		}
		switch e.Op {
		case OpNeg:
			return neg64(a)
		case OpMul:
			return mul64(e.K, a)
		case OpDiv:
			return FloorDiv(a, e.K), true
		}
		return abs64(a)
	case OpIte:
		if e.Cond.Holds(s) {
			return e.Args[0].eval64(s)
		}
		return e.Args[1].eval64(s)
	case OpBool:
		if e.Cond.Holds(s) {
			return 1, true
		}
		return 0, true
	}
	panic("symbolic: bad expression op " + e.Op.String())
}

// EvalBig returns the exact value of e in state s.
func (e *Expr) EvalBig(s State) *big.Int {
	if v, ok := e.eval64(s); ok {
		return big.NewInt(int64(v))
	}
	return e.evalBig(s)
}

func (e *Expr) evalBig(s State) *big.Int {
	arg := func(i int) *big.Int { return e.Args[i].EvalBig(s) }
	switch e.Op {
	case OpConst:
		return big.NewInt(int64(e.K))
	case OpVar:
		return big.NewInt(int64(s[e.Var]))
	case OpAdd:
		v := new(big.Int)
		for i := range e.Args {
			v.Add(v, arg(i))
		}
		return v
	case OpSub:
		return new(big.Int).Sub(arg(0), arg(1))
	case OpNeg:
		return new(big.Int).Neg(arg(0))
	case OpMul:
		return new(big.Int).Mul(big.NewInt(int64(e.K)), arg(0))
	case OpProd:
		return new(big.Int).Mul(arg(0), arg(1))
	case OpDiv:
		return floorDivBig(arg(0), big.NewInt(int64(e.K)))
	case OpMin:
		a, b := arg(0), arg(1)
		if a.Cmp(b) <= 0 {
			return a
		}
		return b
	case OpMax:
		a, b := arg(0), arg(1)
		if a.Cmp(b) >= 0 {
			return a
		}
		return b
	case OpAbs:
		return new(big.Int).Abs(arg(0))
	case OpIte:
		if e.Cond.Holds(s) {
			return arg(0)
		}
		return arg(1)
	case OpBool:
		if e.Cond.Holds(s) {
			return big.NewInt(1)
		}
		return new(big.Int)
	}
	panic("symbolic: bad expression op " + e.Op.String())
}

// floorDivBig divides a by k > 0 rounding toward negative infinity.
func floorDivBig(a, k *big.Int) *big.Int {
	// Euclidean division rounds toward negative infinity for k > 0.
	return new(big.Int).Div(a, k)
}

// saturate returns v when it fits in an int, else math.MinInt64 or
// math.MaxInt64.
func saturate(v *big.Int) int {
	switch {
	case v.IsInt64():
		return int(v.Int64())
	case v.Sign() < 0:
		return math.MinInt64
	}
	return math.MaxInt64
}

// holdsExact compares the exact values of c.L and c.R.
func (c *Cond) holdsExact(s State) bool {
	l, ok1 := c.L.eval64(s)
	r, ok2 := c.R.eval64(s)
	if ok1 && ok2 {
		return c.Cmp.Holds(l, r)
	}
	return c.Cmp.Holds(c.L.EvalBig(s).Cmp(c.R.EvalBig(s)), 0)
}

// ValueString formats the exact value of e in s (for messages about values
// that may lie outside int64).
func (e *Expr) ValueString(s State) string { return e.EvalBig(s).String() }

// ---- ranges -------------------------------------------------------------

// CheckRanges reports the first variable whose range is empty or touches
// the ends of int64. Ranges must lie strictly inside int64 so that
// Expr.Eval's saturated values (math.MinInt64, math.MaxInt64) are never a
// variable's value.
func (m *Model) CheckRanges() error {
	for i := range m.Vars {
		v := &m.Vars[i]
		if v.Lo > v.Hi {
			return fmt.Errorf("%s: variable %s has an empty range %d..%d", v.Pos, v.Name, v.Lo, v.Hi)
		}
		if v.Lo == math.MinInt64 || v.Hi == math.MaxInt64 {
			return fmt.Errorf("%s: variable %s has range %d..%d, which touches the end of the 64-bit integers; a range must lie within %d..%d", v.Pos, v.Name, v.Lo, v.Hi, math.MinInt64+1, math.MaxInt64-1)
		}
	}
	return nil
}

// ---- interval analysis --------------------------------------------------

// interval is an exact interval of integers.
type interval struct{ lo, hi *big.Int }

func point(k int) interval {
	return interval{big.NewInt(int64(k)), big.NewInt(int64(k))}
}

func (iv interval) fits() bool { return iv.lo.IsInt64() && iv.hi.IsInt64() }

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}

func bigMax(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

// scale returns k*iv.
func (iv interval) scale(k *big.Int) interval {
	a, b := new(big.Int).Mul(iv.lo, k), new(big.Int).Mul(iv.hi, k)
	if k.Sign() < 0 {
		a, b = b, a
	}
	return interval{a, b}
}

// analysis walks expressions computing exact intervals over the states in
// range; bad (if set) is called for every node whose interval leaves
// int64, innermost first.
type analysis struct {
	m   *Model
	bad func(e *Expr, iv interval)
	// ctx, when set, is polled every 4096 nodes; once it is done the
	// walk returns at once with meaningless intervals and stopped set
	// (FitsContext).
	ctx     context.Context
	n       int
	stopped bool
}

func (an *analysis) expr(e *Expr) interval {
	if an.ctx != nil {
		if an.n++; an.stopped || an.n&4095 == 0 && an.ctx.Err() != nil {
			an.stopped = true
			return point(0)
		}
	}
	iv := an.node(e)
	if an.bad != nil && !iv.fits() {
		an.bad(e, iv)
	}
	return iv
}

func (an *analysis) node(e *Expr) interval {
	switch e.Op {
	case OpConst:
		return point(e.K)
	case OpVar:
		v := &an.m.Vars[e.Var]
		return interval{big.NewInt(int64(v.Lo)), big.NewInt(int64(v.Hi))}
	case OpAdd:
		r := interval{new(big.Int), new(big.Int)}
		for _, a := range e.Args {
			x := an.expr(a)
			r = interval{new(big.Int).Add(r.lo, x.lo), new(big.Int).Add(r.hi, x.hi)}
		}
		return r
	case OpSub:
		a, b := an.expr(e.Args[0]), an.expr(e.Args[1])
		return interval{new(big.Int).Sub(a.lo, b.hi), new(big.Int).Sub(a.hi, b.lo)}
	case OpNeg:
		a := an.expr(e.Args[0])
		return interval{new(big.Int).Neg(a.hi), new(big.Int).Neg(a.lo)}
	case OpMul:
		return an.expr(e.Args[0]).scale(big.NewInt(int64(e.K)))
	case OpDiv:
		a, k := an.expr(e.Args[0]), big.NewInt(int64(e.K))
		if e.K <= 0 { // malformed; Validate rejects it
			return a
		}
		return interval{floorDivBig(a.lo, k), floorDivBig(a.hi, k)}
	case OpProd:
		a, b := an.expr(e.Args[0]), an.expr(e.Args[1])
		p := [4]*big.Int{
			new(big.Int).Mul(a.lo, b.lo), new(big.Int).Mul(a.lo, b.hi),
			new(big.Int).Mul(a.hi, b.lo), new(big.Int).Mul(a.hi, b.hi),
		}
		return interval{bigMin(bigMin(p[0], p[1]), bigMin(p[2], p[3])), bigMax(bigMax(p[0], p[1]), bigMax(p[2], p[3]))}
	case OpMin:
		a, b := an.expr(e.Args[0]), an.expr(e.Args[1])
		return interval{bigMin(a.lo, b.lo), bigMin(a.hi, b.hi)}
	case OpMax:
		a, b := an.expr(e.Args[0]), an.expr(e.Args[1])
		return interval{bigMax(a.lo, b.lo), bigMax(a.hi, b.hi)}
	case OpAbs:
		a := an.expr(e.Args[0])
		switch {
		case a.lo.Sign() >= 0:
			return a
		case a.hi.Sign() <= 0:
			return interval{new(big.Int).Neg(a.hi), new(big.Int).Neg(a.lo)}
		}
		return interval{new(big.Int), bigMax(new(big.Int).Neg(a.lo), a.hi)}
	case OpIte:
		an.cond(e.Cond)
		a, b := an.expr(e.Args[0]), an.expr(e.Args[1])
		return interval{bigMin(a.lo, b.lo), bigMax(a.hi, b.hi)}
	case OpBool:
		an.cond(e.Cond)
		return interval{new(big.Int), big.NewInt(1)}
	}
	panic("symbolic: bad expression op " + e.Op.String())
}

func (an *analysis) cond(c *Cond) {
	switch c.Op {
	case CCmp:
		an.expr(c.L)
		an.expr(c.R)
	}
	for _, a := range c.Args {
		an.cond(a)
	}
}

// Bounds returns an interval [lo, hi] that contains every value e takes on
// states within the variables' ranges (exact interval arithmetic; exact for
// linear expressions with each variable once). A bound beyond int64 is
// clamped: lo == math.MinInt64 means "at or below", hi == math.MaxInt64
// "at or above"; since ranges lie strictly inside int64, a test
// lo >= v.Lo && hi <= v.Hi stays sound.
func (m *Model) Bounds(e *Expr) (lo, hi int) {
	iv := (&analysis{m: m}).expr(e)
	return saturate(iv.lo), saturate(iv.hi)
}

// Fits reports whether every intermediate value of e (including the
// operands of comparisons inside it) lies within int64 on every state in
// the variables' ranges, so that plain (wrapping) int64 evaluation of e is
// exact.
func (m *Model) Fits(e *Expr) bool {
	ok := true
	(&analysis{m: m, bad: func(*Expr, interval) { ok = false }}).expr(e)
	return ok
}

// FitsContext is Fits that stops when ctx is done: an analysis of
// millions of nodes (an array written at a variable index) takes a
// second or more. It then returns false (the caller looks at ctx).
func (m *Model) FitsContext(ctx context.Context, e *Expr) bool {
	ok := true
	an := &analysis{m: m, bad: func(*Expr, interval) { ok = false }, ctx: ctx}
	an.expr(e)
	return ok && !an.stopped
}

// CondFits is Fits for every expression in c.
func (m *Model) CondFits(c *Cond) bool {
	ok := true
	(&analysis{m: m, bad: func(*Expr, interval) { ok = false }}).cond(c)
	return ok
}

// Overflow describes an expression node whose values may leave int64.
type Overflow struct {
	Expr   *Expr
	Lo, Hi *big.Int // its exact interval over the states in range
}

// Overflows returns the innermost nodes of e and of the expressions in c
// (either may be nil) whose values may leave int64 on some state in the
// variables' ranges (by interval analysis, so possibly not on any
// reachable or even any actual state). Enclosing nodes of a reported node
// are not reported.
func (m *Model) Overflows(e *Expr, c *Cond) []Overflow { return m.overflows(e, c, false) }

// OverflowNodes is Overflows with the enclosing nodes too, innermost
// first: every node whose values may leave int64.
func (m *Model) OverflowNodes(e *Expr, c *Cond) []Overflow { return m.overflows(e, c, true) }

func (m *Model) overflows(e *Expr, c *Cond, all bool) []Overflow {
	var out []Overflow
	covered := map[*Expr]bool{}
	an := &analysis{m: m}
	an.bad = func(x *Expr, iv interval) {
		inner := false
		for _, a := range x.Args {
			if covered[a] {
				inner = true
			}
		}
		if x.Cond != nil {
			x.Cond.exprs(func(y *Expr) {
				if covered[y] {
					inner = true
				}
			})
		}
		covered[x] = true
		if all || !inner {
			out = append(out, Overflow{Expr: x, Lo: iv.lo, Hi: iv.hi})
		}
	}
	if e != nil {
		an.expr(e)
	}
	if c != nil {
		an.cond(c)
	}
	return out
}

// exprs calls f for the expressions directly under c (through its
// connectives, not into them).
func (c *Cond) exprs(f func(*Expr)) {
	if c.Op == CCmp {
		f(c.L)
		f(c.R)
	}
	for _, a := range c.Args {
		a.exprs(f)
	}
}

// LinearFits reports whether the value of l lies within int64 on every
// state in the variables' ranges. Since + and * are ring operations,
// wrapping int64 evaluation of l (coefficients times values, summed in any
// order) then gives its exact value, whatever the intermediate sums do.
func (m *Model) LinearFits(l Linear) bool {
	lo, hi := big.NewInt(int64(l.Const)), big.NewInt(int64(l.Const))
	for _, t := range l.Terms {
		v := &m.Vars[t.Var]
		iv := interval{big.NewInt(int64(v.Lo)), big.NewInt(int64(v.Hi))}.scale(big.NewInt(int64(t.Coef)))
		lo.Add(lo, iv.lo)
		hi.Add(hi, iv.hi)
	}
	return lo.IsInt64() && hi.IsInt64()
}
