package smtlib

import (
	"fmt"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// Printing of expressions and conditions. Every node of a validated
// question prints; the printer still records an error rather than panic on
// a node it does not know, so that a caller who skipped validation gets an
// error naming the node's position.

// printer writes one question. Its buffer holds the whole text, so that a
// failed question writes nothing.
type printer struct {
	q   Question
	m   *symbolic.Model
	n   *names
	b   strings.Builder
	out *strings.Builder // b, or side while aside runs
	err error
	// cmds[c] is command c's disjunct of vigil.trans (set by defs; ""
	// for a command without outcomes), and post[c] the same disjunct with
	// the successor replaced by each outcome's values: command c is
	// enabled and one of its outcomes is in range and outside the
	// invariant (see Check.Post).
	cmds, post []string
	// chc (WriteCHC): the transition and the range errors are written
	// out in the step and query clauses from their commands' parts
	// (steps, errs), rather than as the define-funs vigil.trans,
	// vigil.rangeerr and vigil.bad; see WriteCHC.
	chc         bool
	steps, errs []clause
	// lets (WriteCHC): the definitions other than vigil.inrange, in the
	// order written, which the clauses bind with let instead of
	// define-fun (see WriteCHC); inlined holds their names, which use
	// then writes alone, without the state's arguments.
	lets    []letDef
	inlined map[string]bool
	// probErrs: some outcome's probability may lie outside [0, 1]
	probErrs bool
	// learned (a learned policy's certificate): range errors are
	// written per label (vigil.rangeerr.<a>, by factDefs) instead of
	// vigil.rangeerr and vigil.bad, and rerr[a] are label a's disjuncts
	// (set by defs): a command of a is enabled and an outcome of it
	// leaves a variable's range.
	learned bool
	rerr    [][]string
	// side, when set, receives the definitions that only the checks'
	// Formula reads (vigil.trans, vigil.step.<a>) instead of b.
	side *strings.Builder
	// conds remembers the text of conditions (condString); branched
	// holds the conditions the cases of the atom being lifted branch on
	// (lift.go).
	conds    map[*symbolic.Cond]string
	branched map[string]bool
}

// letDef is a definition that WriteCHC binds with let: its comment
// lines, name and body over the current state.
type letDef struct{ doc, name, body string }

// use writes the application of the definition f to the state args: f's
// name alone when WriteCHC binds it with let (always over the current
// state), else call(f, args...).
func (p *printer) use(f string, args ...string) string {
	if p.inlined[f] {
		return f
	}
	return call(f, args...)
}

// clause is a command's part of the transition or of the range errors:
// the comment that names the command and the formula over s (and s').
type clause struct{ doc, body string }

// aside runs f with the definitions it writes sent to p.side (when set).
func (p *printer) aside(f func()) {
	if p.side == nil {
		f()
		return
	}
	out := p.out
	p.out = p.side
	f()
	p.out = out
}

func newPrinter(q Question) (*printer, error) {
	n, err := validate(q)
	if err != nil {
		return nil, err
	}
	p := &printer{q: q, m: q.Model, n: n}
	p.out = &p.b
	return p, nil
}

func (p *printer) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// lit writes the integer k, negative numbers as (- 5).
func lit(k int) string {
	s := strconv.Itoa(k)
	if s[0] == '-' {
		return "(- " + s[1:] + ")"
	}
	return s
}

// call writes the application of f to args; a function of no arguments
// is applied by its name alone.
func call(f string, args ...string) string {
	if len(args) == 0 {
		return f
	}
	return "(" + f + " " + strings.Join(args, " ") + ")"
}

// nary writes (op a b ...), leaving out the arguments equal to unit: unit
// for none left, the argument itself for one, and zero when an argument
// is the operator's zero (false for and, true for or).
func nary(op, unit, zero string, args []string) string {
	var keep []string
	for _, a := range args {
		switch a {
		case unit:
			continue
		case zero:
			return zero
		}
		keep = append(keep, a)
	}
	switch len(keep) {
	case 0:
		return unit
	case 1:
		return keep[0]
	}
	return "(" + op + " " + strings.Join(keep, " ") + ")"
}

func and(args ...string) string { return nary("and", "true", "false", args) }
func or(args ...string) string  { return nary("or", "false", "true", args) }

// params writes the parameter list of a state vector: (|x| Int) (|y| Int).
func params(vs []string) string {
	var b strings.Builder
	for i, v := range vs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("(" + v + " Int)")
	}
	return b.String()
}

// atomic reports whether e prints as a symbol or a numeral, which min, max
// and abs may repeat without a let.
func atomic(e *symbolic.Expr) bool { return e.Op == symbolic.OpConst || e.Op == symbolic.OpVar }

// expr writes e over the current-state variables.
func (p *printer) expr(b *strings.Builder, e *symbolic.Expr) {
	if e == nil {
		p.fail(fmt.Errorf("smtlib: missing expression"))
		b.WriteString("0")
		return
	}
	args := func(n int) bool {
		if len(e.Args) != n {
			p.fail(fmt.Errorf("smtlib: %s: %s wants %d operands, has %d", e.Pos, e.Op, n, len(e.Args)))
			b.WriteString("0")
			return false
		}
		return true
	}
	switch e.Op {
	case symbolic.OpConst:
		b.WriteString(lit(e.K))
	case symbolic.OpVar:
		if int(e.Var) < 0 || int(e.Var) >= len(p.n.cur) {
			p.fail(fmt.Errorf("smtlib: %s: variable %d does not exist", e.Pos, e.Var))
			b.WriteString("0")
			return
		}
		b.WriteString(p.n.cur[e.Var])
	case symbolic.OpAdd:
		if len(e.Args) == 1 {
			p.expr(b, e.Args[0])
			return
		}
		p.apply(b, "+", e.Args...)
	case symbolic.OpSub:
		if args(2) {
			p.apply(b, "-", e.Args...)
		}
	case symbolic.OpNeg:
		if args(1) {
			p.apply(b, "-", e.Args...)
		}
	case symbolic.OpMul:
		if args(1) {
			b.WriteString("(* " + lit(e.K) + " ")
			p.expr(b, e.Args[0])
			b.WriteString(")")
		}
	case symbolic.OpDiv:
		if e.K <= 0 {
			p.fail(fmt.Errorf("smtlib: %s: division by %d; divisors must be positive constants", e.Pos, e.K))
		}
		if args(1) {
			// SMT-LIB's div floors for positive divisors, as OpDiv does.
			b.WriteString("(div ")
			p.expr(b, e.Args[0])
			b.WriteString(" " + lit(e.K) + ")")
		}
	case symbolic.OpMin, symbolic.OpMax:
		if args(2) {
			cmp := "<="
			if e.Op == symbolic.OpMax {
				cmp = ">="
			}
			p.bind(b, e.Args, func(x []string) string {
				return "(ite (" + cmp + " " + x[0] + " " + x[1] + ") " + x[0] + " " + x[1] + ")"
			})
		}
	case symbolic.OpAbs:
		if args(1) {
			p.bind(b, e.Args, func(x []string) string {
				return "(ite (>= " + x[0] + " 0) " + x[0] + " (- " + x[0] + "))"
			})
		}
	case symbolic.OpIte:
		if args(2) {
			b.WriteString("(ite ")
			b.WriteString(p.condString(e.Cond))
			b.WriteByte(' ')
			p.expr(b, e.Args[0])
			b.WriteByte(' ')
			p.expr(b, e.Args[1])
			b.WriteString(")")
		}
	case symbolic.OpBool:
		b.WriteString("(ite ")
		b.WriteString(p.condString(e.Cond))
		b.WriteString(" 1 0)")
	default:
		p.fail(fmt.Errorf("smtlib: %s: unknown expression op %d", e.Pos, e.Op))
		b.WriteString("0")
	}
}

// apply writes (op args...).
func (p *printer) apply(b *strings.Builder, op string, args ...*symbolic.Expr) {
	b.WriteString("(" + op)
	for _, a := range args {
		b.WriteByte(' ')
		p.expr(b, a)
	}
	b.WriteString(")")
}

// bind writes body over the operands es, binding the non-atomic ones to
// vigil.a and vigil.b with a let so that each is printed once. The let's
// right-hand sides are read in the enclosing scope, so nested lets that
// reuse the names are correct.
func (p *printer) bind(b *strings.Builder, es []*symbolic.Expr, body func(x []string) string) {
	x := make([]string, len(es))
	var lets []string
	for i, e := range es {
		var eb strings.Builder
		p.expr(&eb, e)
		if atomic(e) {
			x[i] = eb.String()
			continue
		}
		x[i] = [...]string{letA, letB}[i]
		lets = append(lets, "("+x[i]+" "+eb.String()+")")
	}
	if len(lets) == 0 {
		b.WriteString(body(x))
		return
	}
	b.WriteString("(let (" + strings.Join(lets, " ") + ") " + body(x) + ")")
}

var cmpOps = [...]string{symbolic.Eq: "=", symbolic.Lt: "<", symbolic.Le: "<=", symbolic.Gt: ">", symbolic.Ge: ">="}

// cond writes c over the current-state variables. A Boolean variable holds
// when it is non-zero.
func (p *printer) cond(b *strings.Builder, c *symbolic.Cond) {
	if c == nil {
		p.fail(fmt.Errorf("smtlib: missing condition"))
		b.WriteString("false")
		return
	}
	switch c.Op {
	case symbolic.CTrue:
		b.WriteString("true")
	case symbolic.CFalse:
		b.WriteString("false")
	case symbolic.CVar:
		if int(c.Var) < 0 || int(c.Var) >= len(p.n.cur) {
			p.fail(fmt.Errorf("smtlib: %s: variable %d does not exist", c.Pos, c.Var))
			b.WriteString("false")
			return
		}
		b.WriteString("(not (= " + p.n.cur[c.Var] + " 0))")
	case symbolic.CCmp:
		if c.Cmp > symbolic.Ge {
			p.fail(fmt.Errorf("smtlib: %s: unknown comparison %d", c.Pos, c.Cmp))
			b.WriteString("false")
			return
		}
		// without integer ite terms (lift.go)
		b.WriteString(p.lifted([]*symbolic.Expr{c.L, c.R}, func(v []string) string {
			if c.Cmp == symbolic.Ne {
				return "(not (= " + v[0] + " " + v[1] + "))"
			}
			return "(" + cmpOps[c.Cmp] + " " + v[0] + " " + v[1] + ")"
		}))
	case symbolic.CNot:
		if len(c.Args) != 1 {
			p.fail(fmt.Errorf("smtlib: %s: negation wants 1 operand, has %d", c.Pos, len(c.Args)))
			b.WriteString("false")
			return
		}
		if a := c.Args[0]; a.Op == symbolic.CVar && int(a.Var) >= 0 && int(a.Var) < len(p.n.cur) {
			b.WriteString("(= " + p.n.cur[a.Var] + " 0)") // a Boolean is false
			return
		}
		b.WriteString("(not ")
		p.cond(b, c.Args[0])
		b.WriteString(")")
	case symbolic.CAnd, symbolic.COr, symbolic.CImplies:
		op := map[symbolic.CondOp]string{symbolic.CAnd: "and", symbolic.COr: "or", symbolic.CImplies: "=>"}[c.Op]
		switch {
		case c.Op == symbolic.CImplies && len(c.Args) != 2:
			p.fail(fmt.Errorf("smtlib: %s: implication wants 2 operands, has %d", c.Pos, len(c.Args)))
			b.WriteString("false")
			return
		case len(c.Args) == 0:
			p.fail(fmt.Errorf("smtlib: %s: empty conjunction or disjunction", c.Pos))
			b.WriteString("false")
			return
		case len(c.Args) == 1:
			p.cond(b, c.Args[0])
			return
		}
		b.WriteString("(" + op)
		for _, a := range c.Args {
			b.WriteByte(' ')
			p.cond(b, a)
		}
		b.WriteString(")")
	default:
		p.fail(fmt.Errorf("smtlib: %s: unknown condition op %d", c.Pos, c.Op))
		b.WriteString("false")
	}
}

// condString and exprString print into a fresh string. condString
// remembers the text of each condition of an if or a condition as a
// number: lift.go prints it both in an operand's plain text and in its
// cases, which for conditions nested in the operands of conditions would
// take time exponential in the nesting.
func (p *printer) condString(c *symbolic.Cond) string {
	if s, ok := p.conds[c]; ok {
		return s
	}
	var b strings.Builder
	p.cond(&b, c)
	if p.conds == nil {
		p.conds = map[*symbolic.Cond]string{}
	}
	p.conds[c] = b.String()
	return b.String()
}

func (p *printer) exprString(e *symbolic.Expr) string {
	var b strings.Builder
	p.expr(&b, e)
	return b.String()
}
