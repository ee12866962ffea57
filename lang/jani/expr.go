package jani

// Expression lowering. JANI expressions are typed trees over bool, int and
// real. vigil's IR is integer-only and linear, so the lowering keeps every
// numeric value in one of two shapes:
//
//   - a constant: an exact rational (constants, literals and everything
//     built from them fold at once, including real constants and
//     probabilities);
//   - a scaled integer expression e/den with den >= 1: every variable
//     expression, where den > 1 only after a division or a multiplication
//     by a non-integer constant.
//
// floor and ceil turn e/den back into integers (floor(x / 3) is x / 3 in the
// IR, rounding toward negative infinity); comparisons multiply across
// (x / 2 < 3 becomes x < 6, x <= 2.5 becomes 2 * x <= 5). A product of two
// non-constant expressions becomes OpProd (not linear: the explicit and BDD
// engines evaluate it, the SMT-based engines refuse it); division by a
// non-constant expression is accepted in probabilities only (prob.go).

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"vigil/symbolic"
)

type typ uint8

const (
	tInt typ = iota
	tReal
	tBool
)

func (t typ) String() string { return [...]string{"int", "real", "bool"}[t] }

// val is a lowered expression.
type val struct {
	t   typ
	k   *big.Rat       // the constant value (bool: 0 or 1), nil if not constant
	e   *symbolic.Expr // numeric non-constant: the value is e / den
	den int64          // >= 1 for numeric non-constants
	c   *symbolic.Cond // bool non-constant
}

func (v val) isConst() bool { return v.k != nil }
func (v val) numeric() bool { return v.t != tBool }

func constInt(i int64) val { return val{t: tInt, k: big.NewRat(i, 1)} }
func constBool(b bool) val {
	if b {
		return val{t: tBool, k: big.NewRat(1, 1)}
	}
	return val{t: tBool, k: new(big.Rat)}
}

// constRat returns the constant r, typed int when r is an integer and t
// allows it.
func constRat(r *big.Rat, t typ) val {
	if t == tInt && !r.IsInt() {
		t = tReal
	}
	return val{t: t, k: r}
}

func boolOf(v val) bool { return v.k.Sign() != 0 }

// Limits that keep IR arithmetic inside int64.
const (
	maxLit = 1 << 40 // largest constant magnitude in an IR expression
	maxDen = 1 << 30 // largest denominator of a scaled expression
)

// ratInt returns r as an int when it is an integer of magnitude <= maxLit.
func ratInt(r *big.Rat) (int, bool) {
	if !r.IsInt() {
		return 0, false
	}
	n := r.Num()
	if !n.IsInt64() {
		return 0, false
	}
	i := n.Int64()
	if i > maxLit || i < -maxLit {
		return 0, false
	}
	return int(i), true
}

// scope resolves identifiers: a constant value or a variable.
type scope func(name string) (ref, bool)

// ref is what an identifier names.
type ref struct {
	isConst   bool
	val       val // isConst
	v         symbolic.VarID
	isBool    bool
	transient bool
	label     *symbolic.Cond   // a transient Boolean's condition (a JANI label), when known
	feature   string           // non-empty: the name refers to something unsupported (a whole array)
	elems     []symbolic.VarID // an array's elements (array.go); isBool tells their type
	fn        *function        // a function (asked as fnPrefix + name; functions.go)
}

// expr lowers n in scope sc. It records an error and returns ok == false
// when n is not a valid expression.
func (l *lowerer) expr(n *node, sc scope) (val, bool) {
	switch n.kind {
	case kBool:
		return constBool(n.b), true
	case kNumber:
		r, ok := l.number(n)
		if !ok {
			return val{}, false
		}
		return constRat(r, tInt), true
	case kString:
		return l.ident(n, sc)
	case kObject:
	default:
		l.errorf(n, "expected an expression, got %s", n.describe())
		return val{}, false
	}
	opn := n.get("op")
	if opn == nil {
		l.errorf(n, "expression object has no \"op\"")
		return val{}, false
	}
	if opn.kind != kString {
		l.errorf(opn, "operator must be a string, got %s", opn.describe())
		return val{}, false
	}
	op := opn.str
	if allowed, ok := exprMembers(n, op); ok {
		l.members(n, fmt.Sprintf("operator %q", op), allowed...)
	}
	switch op {
	case "∧", "∨", "⇒", "=", "≠", "<", "≤", ">", "≥", "+", "*", "%", "/", "pow", "log", "min", "max":
		a, ok1 := l.operand(n, "left", sc)
		b, ok2 := l.operand(n, "right", sc)
		if !ok1 || !ok2 {
			return val{}, false
		}
		return l.binary(n, op, a, b)
	case "-":
		if n.get("left") == nil && n.get("exp") != nil { // tolerated unary minus
			a, ok := l.operand(n, "exp", sc)
			if !ok {
				return val{}, false
			}
			return l.binary(n, "-", constInt(0), a)
		}
		a, ok1 := l.operand(n, "left", sc)
		b, ok2 := l.operand(n, "right", sc)
		if !ok1 || !ok2 {
			return val{}, false
		}
		return l.binary(n, op, a, b)
	case "¬", "floor", "ceil", "abs", "sgn", "trc":
		a, ok := l.operand(n, "exp", sc)
		if !ok {
			return val{}, false
		}
		return l.unary(n, op, a)
	case "ite":
		c, ok1 := l.operand(n, "if", sc)
		a, ok2 := l.operand(n, "then", sc)
		b, ok3 := l.operand(n, "else", sc)
		if !ok1 || !ok2 || !ok3 {
			return val{}, false
		}
		return l.ite(n, c, a, b)
	case "let": // PlaJA: {"op": "let", "variables": [], "expression": E}
		if vs := n.get("variables"); vs != nil && (vs.kind != kArray || len(vs.vals) > 0) {
			l.unsupported(vs, "let with variables")
			return val{}, false
		}
		return l.operand(n, "expression", sc)
	case "aa":
		return l.access(n, sc)
	case "av", "ac":
		l.unsupported(opn, "array values (operator %q) outside an array's initial value", op)
	case "call":
		return l.call(n, sc)
	case "nondet":
		l.unsupported(opn, "nondet-selection (operator \"nondet\")")
	case "der":
		l.unsupported(opn, "derivatives (operator \"der\")")
	case "exp", "sin", "cos", "tan", "cot", "sec", "csc", "asin", "acos", "atan", "acot", "asec", "acsc",
		"sinh", "cosh", "tanh", "coth", "sech", "csch", "asinh", "acosh", "atanh", "acoth", "asech", "acsch":
		l.unsupported(opn, "operator %q (trigonometric, hyperbolic and exponential functions)", op)
	case "Pmin", "Pmax", "Emin", "Emax", "Smin", "Smax", "filter", "U", "W", "F", "G", "R", "∀", "∃",
		"initial", "deadlock", "timelock", "state-condition", "states-values", "objective", "PA":
		l.errorf(opn, "operator %q belongs to properties and may not appear in a state expression", op)
	default:
		l.errorf(opn, "unknown operator %q", op)
	}
	return val{}, false
}

// exprMembers lists the members JANI defines for expression n with
// operator op (false for an operator the import does not lower). A member
// besides these was ignored: {"op": "-", "exp": x, "right": y} was -x.
func exprMembers(n *node, op string) ([]string, bool) {
	switch op {
	case "-":
		if n.get("left") == nil && n.get("exp") != nil {
			return []string{"op", "exp"}, true
		}
		return []string{"op", "left", "right"}, true
	case "∧", "∨", "⇒", "=", "≠", "<", "≤", ">", "≥", "+", "*", "%", "/", "pow", "log", "min", "max":
		return []string{"op", "left", "right"}, true
	case "¬", "floor", "ceil", "abs", "sgn", "trc":
		return []string{"op", "exp"}, true
	case "ite":
		return []string{"op", "if", "then", "else"}, true
	case "let":
		return []string{"op", "variables", "expression"}, true
	case "aa":
		return []string{"op", "exp", "index"}, true
	case "call":
		return []string{"op", "function", "args"}, true
	}
	return nil, false
}

func (l *lowerer) operand(n *node, key string, sc scope) (val, bool) {
	c := n.get(key)
	if c == nil {
		l.errorf(n, "operator %q needs %q", n.get("op").str, key)
		return val{}, false
	}
	return l.expr(c, sc)
}

func (l *lowerer) number(n *node) (*big.Rat, bool) {
	lit := n.str
	if i := strings.IndexAny(lit, "eE"); i >= 0 {
		exp := strings.TrimLeft(lit[i+1:], "+-")
		if len(exp) > 3 {
			l.errorf(n, "number %s is out of range", lit)
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(lit)
	if !ok {
		l.errorf(n, "bad number %s", lit)
		return nil, false
	}
	return r, true
}

func (l *lowerer) ident(n *node, sc scope) (val, bool) {
	r, ok := sc(n.str)
	if !ok {
		switch what := l.declared[n.str]; {
		case l.rejected[n.str]: // its declaration's error says why
		case what != "":
			l.errorf(n, "%q is %s, which cannot be read here (an initial value or a constant reads constants only, a model function the global variables, an automaton the global variables and its own)", n.str, what)
		default:
			l.errorf(n, "undeclared identifier %q", n.str)
		}
		return val{}, false
	}
	switch {
	case r.feature != "":
		l.unsupported(n, "%s (%q)", r.feature, n.str)
		return val{}, false
	case r.transient && r.label != nil:
		return boolVal(r.label), true
	case r.transient:
		l.unsupported(n, "reading transient variable %q outside rewards and labels", n.str)
		return val{}, false
	case r.isConst:
		return r.val, true
	case r.isBool:
		return val{t: tBool, c: &symbolic.Cond{Op: symbolic.CVar, Var: r.v}}, true
	}
	return val{t: tInt, e: symbolic.V(r.v), den: 1}, true
}

// num returns the scaled form e/den of a numeric value; constants become
// literals over their denominator.
func (l *lowerer) num(n *node, v val) (*symbolic.Expr, int64, bool) {
	if !v.isConst() {
		return v.e, v.den, true
	}
	num, den := v.k.Num(), v.k.Denom()
	if !num.IsInt64() || !den.IsInt64() || num.Int64() > maxLit || num.Int64() < -maxLit || den.Int64() > maxDen {
		l.errorf(n, "constant %s is used beside a variable, where vigil keeps integers within ±2^40 and denominators within 2^30 (so that its engines' 64-bit arithmetic cannot overflow): write the expression with smaller constants, or scale the variables so it needs none this large", v.k.RatString())
		return nil, 0, false
	}
	return symbolic.Lit(int(num.Int64())), den.Int64(), true
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

// common brings two scaled values to one denominator.
func (l *lowerer) common(n *node, a, b val) (ea, eb *symbolic.Expr, den int64, ok bool) {
	ea, da, ok1 := l.num(n, a)
	eb, db, ok2 := l.num(n, b)
	if !ok1 || !ok2 {
		return nil, nil, 0, false
	}
	den = da / gcd(da, db) * db
	if den > maxDen {
		l.errorf(n, "the common denominator %d of this expression is beyond the 2^30 vigil allows beside a variable: write its fractions over a common smaller denominator", den)
		return nil, nil, 0, false
	}
	if ea, ok = l.scale(n, ea, den/da); !ok {
		return
	}
	eb, ok = l.scale(n, eb, den/db)
	return ea, eb, den, ok
}

// scale multiplies e by the integer f.
func (l *lowerer) scale(n *node, e *symbolic.Expr, f int64) (*symbolic.Expr, bool) {
	switch {
	case f == 1:
		return e, true
	case f > maxLit || f < -maxLit:
		l.errorf(n, "the factor %d this expression multiplies a variable by is beyond the ±2^40 vigil allows: write it with smaller constants or denominators", f)
		return nil, false
	case e.Op == symbolic.OpConst:
		q, exact := symbolic.MulExact(e.K, int(f))
		p := int64(q)
		if !exact || p > maxLit || p < -maxLit {
			l.errorf(n, "the constant %d * %d is beyond the ±2^40 vigil allows beside a variable: write the expression with smaller constants or denominators", e.K, f)
			return nil, false
		}
		return symbolic.Lit(int(p)), true
	case f == 0:
		return symbolic.Lit(0), true
	case e.Op == symbolic.OpMul:
		q, exact := symbolic.MulExact(e.K, int(f))
		p := int64(q)
		if !exact || p > maxLit || p < -maxLit {
			l.errorf(n, "the factor %d * %d this expression multiplies a variable by is beyond the ±2^40 vigil allows: write it with smaller constants or denominators", e.K, f)
			return nil, false
		}
		return &symbolic.Expr{Op: symbolic.OpMul, K: int(p), Args: e.Args}, true
	}
	return &symbolic.Expr{Op: symbolic.OpMul, K: int(f), Args: []*symbolic.Expr{e}}, true
}

func resultType(a, b val) typ {
	if a.t == tReal || b.t == tReal {
		return tReal
	}
	return tInt
}

func mkAdd(a, b *symbolic.Expr) *symbolic.Expr {
	if b.Op == symbolic.OpConst && b.K == 0 {
		return a
	}
	if a.Op == symbolic.OpConst && a.K == 0 {
		return b
	}
	if b.Op == symbolic.OpConst && b.K < 0 {
		return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{a, symbolic.Lit(-b.K)}}
	}
	var args []*symbolic.Expr
	for _, x := range []*symbolic.Expr{a, b} {
		if x.Op == symbolic.OpAdd {
			args = append(args, x.Args...)
		} else {
			args = append(args, x)
		}
	}
	return &symbolic.Expr{Op: symbolic.OpAdd, Args: args}
}

func mkSub(a, b *symbolic.Expr) *symbolic.Expr {
	if b.Op == symbolic.OpConst && b.K == 0 {
		return a
	}
	if a.Op == symbolic.OpConst && a.K == 0 {
		return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{b}}
	}
	return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{a, b}}
}

func mkNeg(a *symbolic.Expr) *symbolic.Expr {
	return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{a}}
}

func (l *lowerer) needNum(n *node, op string, vs ...val) bool {
	for _, v := range vs {
		if !v.numeric() {
			l.errorf(n, "type error: %q expects numbers, got a boolean", op)
			return false
		}
	}
	return true
}

func (l *lowerer) needBool(n *node, op string, vs ...val) bool {
	for _, v := range vs {
		if v.numeric() {
			l.errorf(n, "type error: %q expects booleans, got a number", op)
			return false
		}
	}
	return true
}

func condOf(v val) *symbolic.Cond {
	if v.isConst() {
		if boolOf(v) {
			return symbolic.True()
		}
		return symbolic.False()
	}
	return v.c
}

func boolVal(c *symbolic.Cond) val {
	switch c.Op {
	case symbolic.CTrue:
		return constBool(true)
	case symbolic.CFalse:
		return constBool(false)
	}
	return val{t: tBool, c: c}
}

// boolExpr is the 0/1 integer form of a condition.
func boolExpr(c *symbolic.Cond) *symbolic.Expr {
	switch c.Op {
	case symbolic.CTrue:
		return symbolic.Lit(1)
	case symbolic.CFalse:
		return symbolic.Lit(0)
	case symbolic.CVar:
		return symbolic.V(c.Var)
	}
	return &symbolic.Expr{Op: symbolic.OpBool, Cond: c}
}

var cmpOps = map[string]symbolic.CmpOp{"=": symbolic.Eq, "≠": symbolic.Ne, "<": symbolic.Lt, "≤": symbolic.Le, ">": symbolic.Gt, "≥": symbolic.Ge}

// binary lowers the operator op applied to a and b: a connective, a
// comparison or arithmetic. Two constants fold to a constant.
func (l *lowerer) binary(n *node, op string, a, b val) (val, bool) {
	switch op {
	case "∧", "∨", "⇒":
		return l.connective(n, op, a, b)
	case "=", "≠", "<", "≤", ">", "≥":
		return l.compare(n, op, a, b)
	}
	if !l.needNum(n, op, a, b) {
		return val{}, false
	}
	t := resultType(a, b)
	if a.isConst() && b.isConst() {
		return l.foldNum(n, op, a, b, t)
	}
	switch op {
	case "+", "-", "min", "max":
		return l.additive(n, op, a, b)
	case "*":
		return l.product(n, a, b)
	case "/":
		if !b.isConst() {
			l.unsupported(n, "division by a non-constant expression outside a probability")
			return val{}, false
		}
		if b.k.Sign() == 0 {
			l.errorf(n, "division by zero")
			return val{}, false
		}
		return l.mulConst(n, a, new(big.Rat).Inv(b.k))
	case "%":
		return l.modulo(n, a, b)
	case "pow", "log":
		l.errorf(n, "%q is only supported on constants", op)
		return val{}, false
	}
	l.errorf(n, "unknown operator %q", op)
	return val{}, false
}

// connective lowers ∧, ∨ and ⇒; an implication with a constant side
// simplifies.
func (l *lowerer) connective(n *node, op string, a, b val) (val, bool) {
	if !l.needBool(n, op, a, b) {
		return val{}, false
	}
	ca, cb := condOf(a), condOf(b)
	switch op {
	case "∧":
		return boolVal(symbolic.And(ca, cb)), true
	case "∨":
		return boolVal(symbolic.Or(ca, cb)), true
	}
	switch {
	case a.isConst() && !boolOf(a), b.isConst() && boolOf(b):
		return constBool(true), true
	case a.isConst():
		return boolVal(cb), true
	case b.isConst():
		return boolVal(symbolic.Not(ca)), true
	}
	return val{t: tBool, c: &symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{ca, cb}}}, true
}

// compare lowers a comparison of two numbers, or the (in)equality of two
// Booleans.
func (l *lowerer) compare(n *node, op string, a, b val) (val, bool) {
	cmp := cmpOps[op]
	if !a.numeric() || !b.numeric() {
		if a.numeric() != b.numeric() || (op != "=" && op != "≠") {
			l.errorf(n, "type error: %q compares %s with %s", op, a.t, b.t)
			return val{}, false
		}
		return compareBools(op, a, b), true
	}
	if a.isConst() && b.isConst() {
		return constBool(cmp.Holds(a.k.Cmp(b.k), 0)), true
	}
	// ea/da cmp eb/db  <=>  ea*db cmp eb*da, both denominators positive.
	ea, da, ok1 := l.num(n, a)
	eb, db, ok2 := l.num(n, b)
	if !ok1 || !ok2 {
		return val{}, false
	}
	g := gcd(da, db)
	ea, ok1 = l.scale(n, ea, db/g)
	eb, ok2 = l.scale(n, eb, da/g)
	if !ok1 || !ok2 {
		return val{}, false
	}
	return val{t: tBool, c: symbolic.Compare(ea, cmp, eb)}, true
}

// compareBools lowers a = b or a ≠ b (op) on Booleans; a constant side
// simplifies.
func compareBools(op string, a, b val) val {
	cmp := cmpOps[op]
	if a.isConst() && b.isConst() {
		return constBool(cmp.Holds(int(a.k.Num().Int64()), int(b.k.Num().Int64())))
	}
	if a.isConst() {
		a, b = b, a
	}
	if b.isConst() {
		if boolOf(b) == (op == "=") {
			return a
		}
		return boolVal(symbolic.Not(a.c))
	}
	return val{t: tBool, c: symbolic.Compare(boolExpr(a.c), cmp, boolExpr(b.c))}
}

// additive lowers +, -, min and max of a and b (not both constant) over
// their common denominator.
func (l *lowerer) additive(n *node, op string, a, b val) (val, bool) {
	ea, eb, den, ok := l.common(n, a, b)
	if !ok {
		return val{}, false
	}
	var e *symbolic.Expr
	switch op {
	case "+":
		e = mkAdd(ea, eb)
	case "-":
		e = mkSub(ea, eb)
	case "min":
		e = &symbolic.Expr{Op: symbolic.OpMin, Args: []*symbolic.Expr{ea, eb}}
	case "max":
		e = &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{ea, eb}}
	}
	return scaled(e, den), true
}

// product lowers a * b (not both constant); the product of two
// non-constants is not linear (OpProd).
func (l *lowerer) product(n *node, a, b val) (val, bool) {
	if !a.isConst() && !b.isConst() {
		// (ea/da) * (eb/db) = (ea*eb) / (da*db)
		if a.den*b.den > maxDen {
			l.errorf(n, "the denominator %d of this product is beyond the 2^30 vigil allows beside a variable: write its factors with smaller denominators", a.den*b.den)
			return val{}, false
		}
		return scaled(&symbolic.Expr{Op: symbolic.OpProd, Args: []*symbolic.Expr{a.e, b.e}, Pos: l.pos(n)}, a.den*b.den), true
	}
	if a.isConst() {
		a, b = b, a
	}
	// a is the variable part e/d, b the constant p/q: (e*p)/(d*q).
	return l.mulConst(n, a, b.k)
}

// modulo lowers a % b, for a non-zero integer constant b, as Storm reads
// JANI's % (its expression evaluator's C++ %): the remainder of division
// truncated toward zero, with the sign of a and |a % b| < |b| (-1 % 4 is
// -1, 1 % -4 is 1). vigil's division a / k (.spec, OpDiv) rounds toward negative
// infinity, so for k = |b|
//
//	a % b = a - k * (a / k)          where a >= 0
//	a % b = a + k * ((-a) / k)       where a <= 0
//
// and an if on the sign of a where a may have either. (Momba computes the
// Euclidean remainder, 3 for -1 % 4; a note says so where a can be
// negative.)
func (l *lowerer) modulo(n *node, a, b val) (val, bool) {
	if !b.isConst() || !b.k.IsInt() || b.k.Sign() == 0 {
		l.errorf(n, "modulo needs a non-zero integer constant on the right")
		return val{}, false
	}
	e, ok := l.integer(n, a)
	if !ok {
		return val{}, false
	}
	lo, hi := math.MinInt, math.MaxInt
	if l.bounds != nil {
		lo, hi = l.bounds(e)
	}
	absB := new(big.Int).Abs(b.k.Num())
	if lo < 0 {
		b, m1 := b.k.RatString(), -1
		if absB.IsInt64() && absB.Int64() == 1 {
			m1 = 0
		}
		l.note(n, "the left operand of %% can be negative (down to %d): vigil reads a %% %s as Storm does, the remainder of truncated division, with the sign of a (-1 %% %s is %d), where Momba computes the Euclidean remainder, from 0 to %s", lo, b, b, m1, new(big.Int).Sub(absB, big.NewInt(1)))
	}
	if lo > math.MinInt && absB.Cmp(big.NewInt(int64(max(-lo, hi)))) > 0 {
		// |a| < |b| for every value of a: a % b is a (x % 2^42 for x
		// within ±2^31 was refused as a modulus of more than 64 bits)
		return scaled(e, 1), true
	}
	k, ok := ratInt(new(big.Rat).SetInt(absB))
	if !ok {
		l.errorf(n, "modulus %s is beyond the ±2^40 vigil allows beside a variable (the left operand may reach %d .. %d): write a smaller modulus", b.k.RatString(), lo, hi)
		return val{}, false
	}
	// rem is e - k * (e / k), e's floor modulo: its truncated remainder
	// where e >= 0.
	rem := func(e *symbolic.Expr) (*symbolic.Expr, bool) {
		q := &symbolic.Expr{Op: symbolic.OpDiv, K: k, Args: []*symbolic.Expr{e}}
		kq, ok := l.scale(n, q, int64(k))
		if !ok {
			return nil, false
		}
		return mkSub(e, kq), true
	}
	pos, ok := rem(e)
	if !ok || lo >= 0 {
		return scaled(pos, 1), ok
	}
	// -((-e) floor-mod k) where e <= 0
	negRem, ok := rem(mkNeg(e))
	if !ok {
		return val{}, false
	}
	neg := mkNeg(negRem)
	if hi <= 0 {
		return scaled(neg, 1), true
	}
	ite := &symbolic.Expr{Op: symbolic.OpIte, Cond: symbolic.Compare(e, symbolic.Ge, symbolic.Lit(0)), Args: []*symbolic.Expr{pos, neg}}
	return scaled(ite, 1), true
}

func scaled(e *symbolic.Expr, den int64) val {
	if e.Op == symbolic.OpConst {
		return constRat(big.NewRat(int64(e.K), den), tInt)
	}
	t := tInt
	if den != 1 {
		t = tReal
	}
	return val{t: t, e: e, den: den}
}

func (l *lowerer) mulConst(n *node, a val, k *big.Rat) (val, bool) {
	if k.Sign() == 0 {
		return constInt(0), true
	}
	p, q := k.Num(), k.Denom()
	if !p.IsInt64() || !q.IsInt64() {
		l.errorf(n, "constant %s needs more than 64 bits in its numerator or denominator, and vigil multiplies variables by 64-bit integers only: write it with fewer digits", k.RatString())
		return val{}, false
	}
	e, ok := l.scale(n, a.e, p.Int64())
	if !ok {
		return val{}, false
	}
	den := a.den * q.Int64()
	if q.Int64() > maxDen || den > maxDen {
		l.errorf(n, "the denominator %s is beyond the 2^30 vigil allows beside a variable: write the constant with fewer digits", q.String())
		return val{}, false
	}
	if g := gcd(int64(gcdExpr(e)), den); g > 1 {
		e, den = divExpr(e, g), den/g
	}
	return scaled(e, den), true
}

// gcdExpr returns the factor K of e = K * x (or the literal), else 1, so that
// 2*x / 2 simplifies to x.
func gcdExpr(e *symbolic.Expr) int {
	switch e.Op {
	case symbolic.OpMul, symbolic.OpConst:
		if e.K == 0 {
			return 1
		}
		return e.K
	}
	return 1
}

func divExpr(e *symbolic.Expr, g int64) *symbolic.Expr {
	k := e.K / int(g)
	if e.Op == symbolic.OpConst {
		return symbolic.Lit(k)
	}
	if k == 1 {
		return e.Args[0]
	}
	return &symbolic.Expr{Op: symbolic.OpMul, K: k, Args: e.Args}
}

func (l *lowerer) foldNum(n *node, op string, a, b val, t typ) (val, bool) {
	r := new(big.Rat)
	switch op {
	case "+":
		r.Add(a.k, b.k)
	case "-":
		r.Sub(a.k, b.k)
	case "*":
		r.Mul(a.k, b.k)
	case "/":
		if b.k.Sign() == 0 {
			l.errorf(n, "division by zero")
			return val{}, false
		}
		r.Quo(a.k, b.k)
		t = tReal
	case "%":
		if b.k.Sign() == 0 {
			l.errorf(n, "modulo by zero")
			return val{}, false
		}
		// a - b * trunc(a / b): the sign of a, as Storm computes it
		// (modulo; C++ % on integers, fmod on reals: 2.5 % 2 is 0.5,
		// which was refused as needing integer operands)
		q := new(big.Rat).Quo(a.k, b.k)
		tq := new(big.Int).Quo(q.Num(), q.Denom()) // toward zero
		r.Sub(a.k, new(big.Rat).Mul(b.k, new(big.Rat).SetInt(tq)))
	case "min":
		r.Set(a.k)
		if b.k.Cmp(a.k) < 0 {
			r.Set(b.k)
		}
	case "max":
		r.Set(a.k)
		if b.k.Cmp(a.k) > 0 {
			r.Set(b.k)
		}
	case "pow":
		e, ok := ratInt(b.k)
		if !ok || e < 0 || e > 64 {
			l.errorf(n, "pow needs a small non-negative integer exponent, got %s", b.k.RatString())
			return val{}, false
		}
		r.SetInt64(1)
		for range e {
			r.Mul(r, a.k)
			if r.Num().BitLen() > 128 || r.Denom().BitLen() > 128 {
				l.errorf(n, "the exact value of this pow needs more than 128 bits in its numerator or denominator, beyond what vigil computes constants in: write it with a smaller base or exponent")
				return val{}, false
			}
		}
	case "log":
		l.errorf(n, "\"log\" is not supported: its value is not rational")
		return val{}, false
	}
	if bits := max(r.Num().BitLen(), r.Denom().BitLen()); bits > 256 {
		l.errorf(n, "the exact value of this constant expression needs %d bits in its numerator or denominator, beyond the 256 bits vigil computes constants in (and a probability must be a rational of 64-bit numerator and denominator): write its numbers with fewer digits", bits)
		return val{}, false
	}
	return constRat(r, t), true
}

// integer returns the integer expression of a numeric value, or an error
// when it is not an integer.
func (l *lowerer) integer(n *node, v val) (*symbolic.Expr, bool) {
	if !v.numeric() {
		l.errorf(n, "type error: expected an integer, got a boolean")
		return nil, false
	}
	if v.isConst() {
		i, ok := ratInt(v.k)
		if !ok {
			if v.k.IsInt() {
				l.errorf(n, "constant %s is used beside a variable, where vigil keeps integers within ±2^40 and denominators within 2^30 (so that its engines' 64-bit arithmetic cannot overflow): write the expression with smaller constants, or scale the variables so it needs none this large", v.k.RatString())
			} else {
				l.errorf(n, "type error: expected an integer, got %s", v.k.RatString())
			}
			return nil, false
		}
		return symbolic.Lit(i), true
	}
	if v.den != 1 {
		l.errorf(n, "type error: expression is not an integer (it is divided by %d); wrap it in floor or ceil", v.den)
		return nil, false
	}
	return v.e, true
}

func (l *lowerer) unary(n *node, op string, a val) (val, bool) {
	if op == "¬" {
		if !l.needBool(n, op, a) {
			return val{}, false
		}
		if a.isConst() {
			return constBool(!boolOf(a)), true
		}
		return boolVal(symbolic.Not(a.c)), true
	}
	if !l.needNum(n, op, a) {
		return val{}, false
	}
	if a.isConst() {
		r := new(big.Rat).Set(a.k)
		floor := func(x *big.Rat) *big.Rat {
			q := new(big.Int).Div(x.Num(), x.Denom()) // Euclidean division: floor for positive denominators
			return new(big.Rat).SetInt(q)
		}
		switch op {
		case "floor":
			r = floor(a.k)
		case "ceil":
			r = floor(new(big.Rat).Neg(a.k))
			r.Neg(r)
		case "abs":
			r.Abs(r)
		case "sgn":
			r.SetInt64(int64(a.k.Sign()))
		case "trc":
			if a.k.Sign() >= 0 {
				r = floor(a.k)
			} else {
				r = floor(new(big.Rat).Neg(a.k))
				r.Neg(r)
			}
		}
		t := a.t
		if op != "abs" {
			t = tInt
		}
		return constRat(r, t), true
	}
	e, den := a.e, a.den
	floorE := func() *symbolic.Expr {
		if den == 1 {
			return e
		}
		return &symbolic.Expr{Op: symbolic.OpDiv, K: int(den), Args: []*symbolic.Expr{e}}
	}
	ceilE := func() *symbolic.Expr {
		if den == 1 {
			return e
		}
		neg := &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{e}}
		return &symbolic.Expr{Op: symbolic.OpNeg, Args: []*symbolic.Expr{{Op: symbolic.OpDiv, K: int(den), Args: []*symbolic.Expr{neg}}}}
	}
	switch op {
	case "floor":
		return scaled(floorE(), 1), true
	case "ceil":
		return scaled(ceilE(), 1), true
	case "abs":
		return scaled(&symbolic.Expr{Op: symbolic.OpAbs, Args: []*symbolic.Expr{e}}, den), true
	case "sgn":
		pos := symbolic.Compare(e, symbolic.Gt, symbolic.Lit(0))
		neg := symbolic.Compare(e, symbolic.Lt, symbolic.Lit(0))
		inner := &symbolic.Expr{Op: symbolic.OpIte, Cond: neg, Args: []*symbolic.Expr{symbolic.Lit(-1), symbolic.Lit(0)}}
		return scaled(&symbolic.Expr{Op: symbolic.OpIte, Cond: pos, Args: []*symbolic.Expr{symbolic.Lit(1), inner}}, 1), true
	case "trc":
		if den == 1 {
			return a, true
		}
		nonneg := symbolic.Compare(e, symbolic.Ge, symbolic.Lit(0))
		return scaled(&symbolic.Expr{Op: symbolic.OpIte, Cond: nonneg, Args: []*symbolic.Expr{floorE(), ceilE()}}, 1), true
	}
	l.errorf(n, "unknown operator %q", op)
	return val{}, false
}

func (l *lowerer) ite(n *node, c, a, b val) (val, bool) {
	if c.numeric() {
		l.errorf(n.get("if"), "type error: the condition of \"ite\" must be boolean")
		return val{}, false
	}
	if a.numeric() != b.numeric() {
		l.errorf(n, "type error: the branches of \"ite\" have types %s and %s", a.t, b.t)
		return val{}, false
	}
	if c.isConst() {
		if boolOf(c) {
			return a, true
		}
		return b, true
	}
	if !a.numeric() {
		ca, cb := condOf(a), condOf(b)
		return boolVal(symbolic.Or(symbolic.And(c.c, ca), symbolic.And(symbolic.Not(c.c), cb))), true
	}
	ea, eb, den, ok := l.common(n, a, b)
	if !ok {
		return val{}, false
	}
	return scaled(&symbolic.Expr{Op: symbolic.OpIte, Cond: c.c, Args: []*symbolic.Expr{ea, eb}}, den), true
}

// cond lowers a boolean expression.
func (l *lowerer) cond(n *node, sc scope) (*symbolic.Cond, bool) {
	v, ok := l.expr(n, sc)
	if !ok {
		return nil, false
	}
	if v.numeric() {
		l.errorf(n, "type error: expected a boolean expression, got a number")
		return nil, false
	}
	return condOf(v), true
}

// intExpr lowers an integer expression.
func (l *lowerer) intExpr(n *node, sc scope) (*symbolic.Expr, bool) {
	v, ok := l.expr(n, sc)
	if !ok {
		return nil, false
	}
	return l.integer(n, v)
}

// constant lowers an expression that must be constant.
func (l *lowerer) constant(n *node, sc scope, what string) (val, bool) {
	v, ok := l.expr(n, sc)
	if !ok {
		return val{}, false
	}
	if !v.isConst() {
		l.errorf(n, "%s must be a constant expression", what)
		return val{}, false
	}
	return v, true
}
