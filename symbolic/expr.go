package symbolic

// Op tags an integer expression node.
type Op uint8

const (
	OpConst Op = iota // K
	OpVar             // Var
	OpAdd             // Args[0] + Args[1] + ... (at least two)
	OpSub             // Args[0] - Args[1]
	OpNeg             // -Args[0]
	OpMul             // K * Args[0]: linear, one factor is always the constant K
	OpDiv             // Args[0] / K, K > 0, rounding toward negative infinity
	OpMin             // min(Args[0], Args[1])
	OpMax             // max(Args[0], Args[1])
	OpAbs             // abs(Args[0])
	OpIte             // if Cond then Args[0] else Args[1]
	OpBool            // 1 if Cond holds, else 0 (Boolean assignments)
	// OpProd is Args[0] * Args[1], both non-constant: not linear. Only JANI
	// models produce it (.spec is linear); the explicit and BDD engines
	// evaluate it exactly, the SMT-based engines refuse it.
	OpProd
)

var opNames = [...]string{"const", "var", "add", "sub", "neg", "mul", "div", "min", "max", "abs", "ite", "bool", "prod"}

func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return "op?"
}

// Expr is an integer expression node. Which fields are used depends on Op.
type Expr struct {
	Op   Op
	K    int   // OpConst: the value; OpMul: the factor; OpDiv: the divisor (> 0)
	Var  VarID // OpVar
	Args []*Expr
	Cond *Cond // OpIte, OpBool
	Pos  Pos
}

// CondOp tags a condition node.
type CondOp uint8

const (
	CTrue    CondOp = iota
	CFalse          //
	CVar            // Boolean variable Var is true (value != 0)
	CCmp            // L Cmp R
	CNot            // !Args[0]
	CAnd            // Args[0] && Args[1] && ... (at least two)
	COr             // Args[0] || Args[1] || ... (at least two)
	CImplies        // Args[0] => Args[1]
)

// CmpOp is a comparison operator.
type CmpOp uint8

const (
	Eq CmpOp = iota
	Ne
	Lt
	Le
	Gt
	Ge
)

var cmpNames = [...]string{"==", "!=", "<", "<=", ">", ">="}

func (c CmpOp) String() string { return cmpNames[c] }

// Negate returns the comparison that holds exactly when c does not.
func (c CmpOp) Negate() CmpOp {
	return [...]CmpOp{Ne, Eq, Ge, Gt, Le, Lt}[c]
}

// Flip returns the comparison c' with (a c b) == (b c' a).
func (c CmpOp) Flip() CmpOp {
	return [...]CmpOp{Eq, Ne, Gt, Ge, Lt, Le}[c]
}

// Holds applies the comparison to two integers.
func (c CmpOp) Holds(a, b int) bool {
	switch c {
	case Eq:
		return a == b
	case Ne:
		return a != b
	case Lt:
		return a < b
	case Le:
		return a <= b
	case Gt:
		return a > b
	default:
		return a >= b
	}
}

// Cond is a condition node. Which fields are used depends on Op.
type Cond struct {
	Op   CondOp
	Var  VarID // CVar
	Cmp  CmpOp // CCmp
	L, R *Expr // CCmp
	Args []*Cond
	Pos  Pos
}

// Constructors. They do no simplification beyond what their names say; the
// lowering pass folds constants before building nodes.

// Lit returns the constant k.
func Lit(k int) *Expr { return &Expr{Op: OpConst, K: k} }

// V returns a reference to variable v.
func V(v VarID) *Expr { return &Expr{Op: OpVar, Var: v} }

// True and False return fresh constant conditions.
func True() *Cond  { return &Cond{Op: CTrue} }
func False() *Cond { return &Cond{Op: CFalse} }

// Compare returns l c r.
func Compare(l *Expr, c CmpOp, r *Expr) *Cond { return &Cond{Op: CCmp, Cmp: c, L: l, R: r} }

// And returns the conjunction of cs, flattening nested conjunctions and
// dropping `true`; the empty conjunction is `true`. An argument that is
// already among the arguments (the same node, or a small one of the same
// structure) is dropped, as it adds nothing to the value: so `p && p` of a
// predicate p is p, not two copies of its conjuncts, and a chain of
// predicates that each use the one before twice does not double at every
// level. The arguments keep their order, first occurrences first.
func And(cs ...*Cond) *Cond {
	var args condArgs
	for _, c := range cs {
		switch c.Op {
		case CTrue:
			continue
		case CFalse:
			return False()
		case CAnd:
			for _, a := range c.Args {
				args.add(a)
			}
		default:
			args.add(c)
		}
	}
	switch len(args.list) {
	case 0:
		return True()
	case 1:
		return args.list[0]
	}
	return &Cond{Op: CAnd, Args: args.list}
}

// Or returns the disjunction of cs, flattening and dropping `false` and
// repeated arguments (as And does).
func Or(cs ...*Cond) *Cond {
	var args condArgs
	for _, c := range cs {
		switch c.Op {
		case CFalse:
			continue
		case CTrue:
			return True()
		case COr:
			for _, a := range c.Args {
				args.add(a)
			}
		default:
			args.add(c)
		}
	}
	switch len(args.list) {
	case 0:
		return False()
	case 1:
		return args.list[0]
	}
	return &Cond{Op: COr, Args: args.list}
}

// Not returns the negation of c.
func Not(c *Cond) *Cond {
	switch c.Op {
	case CTrue:
		return False()
	case CFalse:
		return True()
	case CNot:
		return c.Args[0]
	}
	return &Cond{Op: CNot, Args: []*Cond{c}}
}

// FloorDiv divides a by k > 0 rounding toward negative infinity.
func FloorDiv(a, k int) int {
	q := a / k
	if (a%k != 0) && ((a < 0) != (k < 0)) {
		q--
	}
	return q
}

// Eval returns the value of e in state s: the exact integer when it lies
// within int64, else math.MinInt64 or math.MaxInt64 (saturated; no
// variable's range contains them). See arith.go.
func (e *Expr) Eval(s State) int {
	if v, ok := e.eval64(s); ok {
		return v
	}
	return saturate(e.evalBig(s))
}

// EvalInt returns the exact value of e in state s and whether it lies
// within int64.
func (e *Expr) EvalInt(s State) (int, bool) {
	if v, ok := e.eval64(s); ok {
		return v, true
	}
	v := e.evalBig(s)
	return saturate(v), v.IsInt64()
}

// Holds evaluates c in state s; comparisons compare exact values.
func (c *Cond) Holds(s State) bool {
	switch c.Op {
	case CTrue:
		return true
	case CFalse:
		return false
	case CVar:
		return s[c.Var] != 0
	case CCmp:
		return c.holdsExact(s)
	case CNot:
		return !c.Args[0].Holds(s)
	case CAnd:
		for _, a := range c.Args {
			if !a.Holds(s) {
				return false
			}
		}
		return true
	case COr:
		for _, a := range c.Args {
			if a.Holds(s) {
				return true
			}
		}
		return false
	case CImplies:
		return !c.Args[0].Holds(s) || c.Args[1].Holds(s)
	}
	panic("symbolic: bad condition op")
}

// Term is Coef * Var in a linear form.
type Term struct {
	Coef int
	Var  VarID
}

// Linear is Const + sum of Terms, with each Var at most once and no zero
// coefficients, sorted by Var.
type Linear struct {
	Const int
	Terms []Term
}

// Linearize returns the linear form of e, or ok == false when e uses
// min/max/abs/if/div/bool, or when a coefficient or the constant of the
// form (or a factor on the way) lies outside int64.
func Linearize(e *Expr) (l Linear, ok bool) {
	coef := map[VarID]int{}
	var walk func(e *Expr, k int) bool
	walk = func(e *Expr, k int) bool {
		var ok bool
		switch e.Op {
		case OpConst:
			var p int
			if p, ok = mul64(k, e.K); ok {
				l.Const, ok = add64(l.Const, p)
			}
			return ok
		case OpVar:
			coef[e.Var], ok = add64(coef[e.Var], k)
			return ok
		case OpAdd:
			for _, a := range e.Args {
				if !walk(a, k) {
					return false
				}
			}
		case OpSub:
			var nk int
			nk, ok = neg64(k)
			return ok && walk(e.Args[0], k) && walk(e.Args[1], nk)
		case OpNeg:
			var nk int
			nk, ok = neg64(k)
			return ok && walk(e.Args[0], nk)
		case OpMul:
			var p int
			p, ok = mul64(k, e.K)
			return ok && walk(e.Args[0], p)
		default:
			return false
		}
		return true
	}
	if !walk(e, 1) {
		return Linear{}, false
	}
	for v, c := range coef {
		if c != 0 {
			l.Terms = append(l.Terms, Term{Coef: c, Var: v})
		}
	}
	sortTerms(l.Terms)
	return l, true
}

func sortTerms(ts []Term) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].Var < ts[j-1].Var; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// Vars calls f for every variable occurrence in e (with repetition).
func (e *Expr) Vars(f func(VarID)) {
	switch e.Op {
	case OpVar:
		f(e.Var)
	case OpIte, OpBool:
		e.Cond.Vars(f)
	}
	for _, a := range e.Args {
		a.Vars(f)
	}
}

// Vars calls f for every variable occurrence in c (with repetition).
func (c *Cond) Vars(f func(VarID)) {
	switch c.Op {
	case CVar:
		f(c.Var)
	case CCmp:
		c.L.Vars(f)
		c.R.Vars(f)
	}
	for _, a := range c.Args {
		a.Vars(f)
	}
}
