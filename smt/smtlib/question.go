package smtlib

import (
	"fmt"
	"strings"

	"vigil/symbolic"
)

// Question is one safety question: can Model, restricted to the labels
// Policy chooses, reach an unsafe state of Property from its start states?
type Question struct {
	Model    *symbolic.Model
	Property *symbolic.Property
	// Policy restricts each state to the label it chooses; nil: every
	// applicable label may be taken. Only rules and table policies can be
	// written exactly.
	Policy *symbolic.PolicyDecl
	// Differ, for a certificate only, are the pairs of variables of its
	// disequality invariant: vigil.inv is then (and (vigil.differ ...)
	// (or BOX ...)), vigil.differ being (and (not (= |x| |y|)) ...) over
	// the pairs. Empty: vigil.inv is the union of boxes alone.
	Differ [][2]symbolic.VarID
}

// Function names. Labels make vigil.app.<label> and vigil.chosen.<label>,
// rules vigil.rule.<n> (1-based).
const (
	fnInRange  = "vigil.inrange"
	fnUnsafe   = "vigil.unsafe"
	fnTerminal = "vigil.terminal"
	fnInit     = "vigil.init"
	fnTrans    = "vigil.trans"
	fnRangeErr = "vigil.rangeerr"
	fnBad      = "vigil.bad"
	fnInv      = "vigil.inv"
	fnDiffer   = "vigil.differ"
	// letA and letB name the operands of min, max and abs, bound with let
	// so that an operand is printed once.
	letA = "vigil.a"
	letB = "vigil.b"
	// letConds is how many conditions a lifted atom binds with let, named
	// vigil.c0, vigil.c1, ... (lift.go).
	letConds = 16
)

// reserved lists the SMT-LIB reserved words and the symbols of the Core and
// Ints theories: quoting does not make them usable as variable names (Z3
// and cvc5 reject or misread |and|, |_|, |div| and the like).
var reserved = map[string]bool{
	"!": true, "_": true, "as": true, "let": true, "exists": true, "forall": true, "match": true, "par": true,
	"NUMERAL": true, "DECIMAL": true, "STRING": true, "BINARY": true, "HEXADECIMAL": true,
	"true": true, "false": true, "not": true, "=>": true, "and": true, "or": true, "xor": true,
	"=": true, "distinct": true, "ite": true,
	"+": true, "-": true, "*": true, "/": true, "div": true, "mod": true, "abs": true,
	"<=": true, "<": true, ">=": true, ">": true, "to_real": true, "to_int": true, "is_int": true,
}

// simpleSymbolChar reports whether r may appear in an SMT-LIB simple
// symbol.
func simpleSymbolChar(r rune) bool {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9':
		return true
	}
	return strings.ContainsRune("~!@$%^&*_-+=<>.?/", r)
}

// quotable reports why name cannot be written as a quoted symbol |name|,
// or "" when it can.
func quotable(name string) string {
	if name == "" {
		return "it is empty"
	}
	for _, r := range name {
		switch {
		case r == '|' || r == '\\':
			return fmt.Sprintf("it contains %q, which an SMT-LIB quoted symbol cannot hold", r)
		case r < 0x20 || r == 0x7f:
			return fmt.Sprintf("it contains the control character %q", r)
		}
	}
	return ""
}

// funcSymbol writes the function name f, quoted when it has characters
// outside SMT-LIB's simple symbols.
func funcSymbol(f string) string {
	for _, r := range f {
		if !simpleSymbolChar(r) {
			return "|" + f + "|"
		}
	}
	return f
}

// Validate reports why q cannot be written: a missing model or property, a
// malformed node (unknown operator, wrong operand count, reference out of
// range, division by a non-positive constant), a learned policy, a name
// that cannot be an SMT-LIB symbol, or two symbols that would coincide.
func (q Question) Validate() error {
	_, err := newPrinter(q)
	return err
}

// names holds the symbols of a question.
type names struct {
	cur, next []string // quoted state variables, |x| and |x'|
	app       []string // per label: vigil.app.<label> (with a policy)
	chosen    []string // per label: vigil.chosen.<label> (with a policy)
	rule      []string // per rule: vigil.rule.<n> (rules policies)
}

// validate checks q and makes its symbols.
func validate(q Question) (*names, error) {
	m := q.Model
	if m == nil {
		return nil, fmt.Errorf("smtlib: no model")
	}
	if q.Property == nil {
		return nil, fmt.Errorf("smtlib: model %s: no property; the question needs one", m.Name)
	}
	p := q.Property
	if p.Unsafe == nil {
		return nil, fmt.Errorf("smtlib: %s: property %s has no unsafe condition", p.Pos, p.Name)
	}
	v := &checker{m: m}
	nm := &names{cur: make([]string, len(m.Vars)), next: make([]string, len(m.Vars))}
	seen := map[string]string{} // symbol -> what it names
	symbol := func(sym, what string) error {
		if prev, ok := seen[sym]; ok {
			return fmt.Errorf("smtlib: %s and %s would both be the SMT-LIB symbol %s; rename one", prev, what, sym)
		}
		seen[sym] = what
		return nil
	}
	fns := []string{fnInRange, fnUnsafe, fnTerminal, fnInit, fnTrans, fnRangeErr, fnBad, fnInv, letA, letB}
	for i := 0; i < letConds; i++ {
		fns = append(fns, letCond(i))
	}
	for _, f := range fns {
		if err := symbol(f, "the function "+f); err != nil {
			return nil, err
		}
	}
	for i := range m.Vars {
		vr := &m.Vars[i]
		what := fmt.Sprintf("variable %s (%s)", vr.Name, vr.Pos)
		if why := quotable(vr.Name); why != "" {
			return nil, fmt.Errorf("smtlib: %s: cannot name it in SMT-LIB: %s; rename it", what, why)
		}
		if reserved[vr.Name] {
			return nil, fmt.Errorf("smtlib: %s: %s is an SMT-LIB reserved word or theory symbol; rename it", what, vr.Name)
		}
		if vr.Lo > vr.Hi {
			return nil, fmt.Errorf("smtlib: %s: empty range %d..%d", what, vr.Lo, vr.Hi)
		}
		if p.Start == nil {
			if !vr.HasInit {
				return nil, fmt.Errorf("smtlib: %s has no initial value and property %s has no start condition", what, p.Name)
			}
			if vr.Init < vr.Lo || vr.Init > vr.Hi {
				return nil, fmt.Errorf("smtlib: %s: initial value %d outside %d..%d", what, vr.Init, vr.Lo, vr.Hi)
			}
		}
		if err := symbol(vr.Name, what); err != nil {
			return nil, err
		}
		if err := symbol(vr.Name+"'", "the next-state copy of "+what); err != nil {
			return nil, err
		}
		nm.cur[i] = "|" + vr.Name + "|"
		nm.next[i] = "|" + vr.Name + "'|"
	}
	for i := range m.Commands {
		c := &m.Commands[i]
		what := fmt.Sprintf("command %d (%s)", i+1, c.Pos)
		if int(c.Label) < 0 || int(c.Label) >= len(m.Labels) {
			return nil, fmt.Errorf("smtlib: %s: label %d does not exist", what, c.Label)
		}
		if err := v.cond(c.Guard, what+" guard"); err != nil {
			return nil, err
		}
		for j, o := range c.Outcomes {
			assigned := map[symbolic.VarID]bool{}
			for _, a := range o.Assigns {
				if int(a.Var) < 0 || int(a.Var) >= len(m.Vars) {
					return nil, fmt.Errorf("smtlib: %s outcome %d: assignment to variable %d, which does not exist", what, j+1, a.Var)
				}
				if assigned[a.Var] {
					return nil, fmt.Errorf("smtlib: %s outcome %d: %s assigned twice", what, j+1, m.Vars[a.Var].Name)
				}
				assigned[a.Var] = true
				if err := v.expr(a.Value, fmt.Sprintf("%s outcome %d", what, j+1)); err != nil {
					return nil, err
				}
			}
			if err := v.cond(o.BadProb(), fmt.Sprintf("%s outcome %d probability", what, j+1)); err != nil {
				return nil, err
			}
		}
	}
	for _, c := range []struct {
		c    *symbolic.Cond
		what string
	}{{p.Start, "start"}, {p.Unsafe, "unsafe"}, {p.Goal, "goal"}} {
		if c.c != nil {
			if err := v.cond(c.c, fmt.Sprintf("%s condition of property %s", c.what, p.Name)); err != nil {
				return nil, err
			}
		}
	}
	if d := q.Policy; d != nil {
		if err := validatePolicy(m, d, v, nm, symbol); err != nil {
			return nil, err
		}
	}
	return nm, nil
}

func validatePolicy(m *symbolic.Model, d *symbolic.PolicyDecl, v *checker, nm *names, symbol func(sym, what string) error) error {
	label := func(l symbolic.LabelID, pos symbolic.Pos) error {
		if int(l) < 0 || int(l) >= len(m.Labels) {
			return fmt.Errorf("smtlib: %s: policy %s names label %d, which model %s lacks", pos, d.Name, l, m.Name)
		}
		return nil
	}
	switch d.Kind {
	case symbolic.KindRules:
		for i, r := range d.Rules {
			if err := label(r.Label, r.Pos); err != nil {
				return err
			}
			if err := v.cond(r.Cond, fmt.Sprintf("policy %s rule %d", d.Name, i+1)); err != nil {
				return err
			}
			f := fmt.Sprintf("vigil.rule.%d", i+1)
			if err := symbol(f, fmt.Sprintf("rule %d of policy %s", i+1, d.Name)); err != nil {
				return err
			}
			nm.rule = append(nm.rule, f)
		}
	case symbolic.KindTable:
		if t := d.Table; t != nil {
			if len(t.Labels) != len(t.Rows) {
				return fmt.Errorf("smtlib: %s: policy %s: %d table rows but %d labels", d.Pos, d.Name, len(t.Rows), len(t.Labels))
			}
			for i, row := range t.Rows {
				if err := label(t.Labels[i], d.Pos); err != nil {
					return err
				}
				if len(row) != len(m.Vars) {
					return fmt.Errorf("smtlib: %s: policy %s: table row %d has %d values, model %s has %d variables", d.Pos, d.Name, i+1, len(row), m.Name, len(m.Vars))
				}
			}
		}
	default:
		return fmt.Errorf("smtlib: %s: policy %s is a %s policy; only rules and table policies can be encoded exactly", d.Pos, d.Name, d.Kind)
	}
	for i := range m.Labels {
		l := &m.Labels[i]
		what := fmt.Sprintf("label %s (%s)", l.Name, l.Pos)
		if why := quotable(l.Name); why != "" {
			return fmt.Errorf("smtlib: %s: cannot name it in SMT-LIB: %s; rename it", what, why)
		}
		app, chosen := "vigil.app."+l.Name, "vigil.chosen."+l.Name
		if err := symbol(app, "applicability of "+what); err != nil {
			return err
		}
		if err := symbol(chosen, "policy choice of "+what); err != nil {
			return err
		}
		nm.app = append(nm.app, funcSymbol(app))
		nm.chosen = append(nm.chosen, funcSymbol(chosen))
	}
	return nil
}

// checker checks that expressions and conditions are complete and in
// range, so that printing never meets a malformed node.
type checker struct{ m *symbolic.Model }

func (v *checker) expr(e *symbolic.Expr, what string) error {
	if e == nil {
		return fmt.Errorf("smtlib: %s: missing expression", what)
	}
	want := 0
	switch e.Op {
	case symbolic.OpConst:
	case symbolic.OpVar:
		if int(e.Var) < 0 || int(e.Var) >= len(v.m.Vars) {
			return fmt.Errorf("smtlib: %s: %s: variable %d does not exist", e.Pos, what, e.Var)
		}
	case symbolic.OpAdd:
		want = -1
		if len(e.Args) == 0 {
			return fmt.Errorf("smtlib: %s: %s: empty sum", e.Pos, what)
		}
	case symbolic.OpSub, symbolic.OpMin, symbolic.OpMax:
		want = 2
	case symbolic.OpNeg, symbolic.OpMul, symbolic.OpAbs:
		want = 1
	case symbolic.OpDiv:
		want = 1
		if e.K <= 0 {
			return fmt.Errorf("smtlib: %s: %s: division by %d; divisors must be positive constants", e.Pos, what, e.K)
		}
	case symbolic.OpProd:
		return fmt.Errorf("smtlib: %s: %s: a product of two variables is not linear integer arithmetic", e.Pos, what)
	case symbolic.OpIte:
		want = 2
		if err := v.cond(e.Cond, what); err != nil {
			return err
		}
	case symbolic.OpBool:
		if err := v.cond(e.Cond, what); err != nil {
			return err
		}
	default:
		return fmt.Errorf("smtlib: %s: %s: unknown expression op %d", e.Pos, what, e.Op)
	}
	if want >= 0 && len(e.Args) != want {
		return fmt.Errorf("smtlib: %s: %s: %s wants %d operands, has %d", e.Pos, what, e.Op, want, len(e.Args))
	}
	for _, a := range e.Args {
		if err := v.expr(a, what); err != nil {
			return err
		}
	}
	return nil
}

func (v *checker) cond(c *symbolic.Cond, what string) error {
	if c == nil {
		return fmt.Errorf("smtlib: %s: missing condition", what)
	}
	want := 0
	switch c.Op {
	case symbolic.CTrue, symbolic.CFalse:
	case symbolic.CVar:
		if int(c.Var) < 0 || int(c.Var) >= len(v.m.Vars) {
			return fmt.Errorf("smtlib: %s: %s: variable %d does not exist", c.Pos, what, c.Var)
		}
	case symbolic.CCmp:
		if c.Cmp > symbolic.Ge {
			return fmt.Errorf("smtlib: %s: %s: unknown comparison %d", c.Pos, what, c.Cmp)
		}
		if err := v.expr(c.L, what); err != nil {
			return err
		}
		return v.expr(c.R, what)
	case symbolic.CNot:
		want = 1
	case symbolic.CAnd, symbolic.COr:
		want = -1
		if len(c.Args) == 0 {
			return fmt.Errorf("smtlib: %s: %s: empty conjunction or disjunction", c.Pos, what)
		}
	case symbolic.CImplies:
		want = 2
	default:
		return fmt.Errorf("smtlib: %s: %s: unknown condition op %d", c.Pos, what, c.Op)
	}
	if want >= 0 && len(c.Args) != want {
		return fmt.Errorf("smtlib: %s: %s: condition wants %d operands, has %d", c.Pos, what, want, len(c.Args))
	}
	for _, a := range c.Args {
		if err := v.cond(a, what); err != nil {
			return err
		}
	}
	return nil
}
