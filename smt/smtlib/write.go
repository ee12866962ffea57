package smtlib

import (
	"fmt"
	"io"
	"strings"

	"vigil/symbolic"
)

// WriteSystem writes q as the SMT-LIB2 definitions of its transition
// system (vigil.init, vigil.trans, vigil.bad and their helpers), without
// set-logic or commands, for other solvers and tools to build on.
func WriteSystem(w io.Writer, q Question) error {
	p, err := newPrinter(q)
	if err != nil {
		return err
	}
	p.describe()
	p.line("; The definitions are quantifier-free linear integer arithmetic (QF_LIA:")
	p.line("; ite, and div by positive constants). vigil.trans(s, s') relates a state")
	p.line("; to its successors; vigil.bad(s) holds in unsafe states and in states where")
	p.line("; a step would leave a variable's range. The question is safe when no bad")
	p.line("; state is reachable from a vigil.init state along vigil.trans.")
	p.defs()
	return p.flush(w)
}

// WriteCHC writes q as constrained Horn clauses over one unknown predicate
// vigil.inv, for Z3's Spacer (z3 FILE): sat means an inductive invariant
// that excludes every bad state exists (safe), unsat that a bad state is
// reachable (unsafe).
//
// The transition and the range errors are not define-funs here, as they
// are in WriteSystem and WriteCert, but written out in the constraints of
// the step clause and the query clause; and a definition of WriteSystem
// whose body holds an ite term (vigil.unsafe, vigil.terminal, vigil.init,
// a policy's vigil.app.<label>, vigil.rule.<n> or vigil.chosen.<label>,
// where a condition has an atom of more than maxCases cases), or uses
// such a definition, is bound with let inside each clause that uses it,
// the same formula under the same name. z3 4.8.12 reads a define-fun with
// parameters as a recursive function and takes time exponential in the
// nesting of its ite terms to do so (lift.go): it spent more than 10 s
// reading the vigil.trans of 81-state models, and more than 20 s reading
// a vigil.rule.<n> whose condition nests if, min, max and division,
// before Spacer started (FIGURES.md); clauses and let bindings it reads
// as plain terms. One step clause and one query clause, rather than one
// per command: Spacer was slower with one per command (FIGURES.md).
func WriteCHC(w io.Writer, q Question) error {
	p, err := newPrinter(q)
	if err != nil {
		return err
	}
	p.describe()
	p.line("; Horn clauses: sat = safe (an inductive invariant vigil.inv excludes every")
	p.line("; bad state), unsat = unsafe (a bad state is reachable).")
	p.line("(set-logic HORN)")
	p.chc = true
	p.defs()
	s, t := p.state(), p.nextState()
	sorts := strings.TrimSpace(strings.Repeat("Int ", len(p.n.cur)))
	p.line("")
	p.line("(declare-fun " + fnInv + " (" + sorts + ") Bool)")
	if len(p.lets) > 0 {
		p.line("")
		p.line("; Each clause binds the definitions with ite terms that it uses with let, over")
		p.line("; the current state (z3 4.8.12 reads a define-fun with nested ite terms")
		p.line("; slowly); a comment before each binding says what it is.")
		p.line("")
	}
	forall := func(vars, body string) string {
		body = p.letWrap(body)
		if vars == "" {
			return body
		}
		return "(forall (" + vars + ") " + body + ")"
	}
	ps := params(p.n.cur)
	both := strings.TrimSpace(ps + " " + params(p.n.next))
	p.line("(assert " + forall(ps, "(=> "+p.use(fnInit, s...)+" "+call(fnInv, s...)+")") + ")")
	inv := call(fnInv, s...)
	inS := call(fnInRange, s...)
	live := "(not " + p.use(fnTerminal, s...) + ")"
	if len(p.steps) > 0 {
		p.line("")
		p.line("; one step: s and s' are in range, s is not terminal, a command is enabled in s")
		p.line("; whose label the policy chooses (any label without a policy), and s' is one")
		p.line("; of its outcomes")
		var steps []string
		for _, c := range p.steps {
			steps = append(steps, c.doc+"\n      "+c.body)
		}
		step := "\n    (or\n      " + strings.Join(steps, "\n      ") + ")"
		if len(steps) == 1 {
			step = "\n    " + steps[0]
		}
		p.line("(assert " + forall(both, "(=> (and "+inv+" "+inS+" "+call(fnInRange, t...)+" "+live+step+")\n  "+call(fnInv, t...)+")") + ")")
	}
	p.line("")
	if len(p.errs) == 0 {
		p.line("; no reachable state is bad: unsafe")
		p.line("(assert " + forall(ps, "(=> (and "+inv+" "+inS+" "+p.use(fnUnsafe, s...)+") false)") + ")")
	} else {
		if p.probErrs {
			p.line("; no reachable state is bad: unsafe, or not terminal where an enabled outcome")
			p.line("; would leave a variable's range, or its probability would lie outside [0, 1]")
			p.line("; (the explicit engine's range error)")
		} else {
			p.line("; no reachable state is bad: unsafe, or not terminal where an enabled outcome")
			p.line("; would leave a variable's range (the explicit engine's range error)")
		}
		var errs []string
		for _, c := range p.errs {
			errs = append(errs, c.doc+"\n      "+c.body)
		}
		p.line("(assert " + forall(ps, "(=> (and "+inv+" "+inS+"\n  (or "+p.use(fnUnsafe, s...)+"\n    (and "+live+"\n    (or\n      "+strings.Join(errs, "\n      ")+"))))\n  false)") + ")")
	}
	p.line("(check-sat)")
	return p.flush(w)
}

// letWrap wraps body in the let bindings of the definitions it uses (p.lets,
// directly or through another binding), one let per binding, each
// binding's comment lines before it, in the order of p.lets, so that a
// binding sees the ones it uses.
func (p *printer) letWrap(body string) string {
	used := make([]bool, len(p.lets))
	text := body
	for i := len(p.lets) - 1; i >= 0; i-- {
		if mentions(text, p.lets[i].name) {
			used[i] = true
			text += "\n" + p.lets[i].body
		}
	}
	var b strings.Builder
	n := 0
	for i, d := range p.lets {
		if !used[i] {
			continue
		}
		b.WriteString("(let ((" + d.name + "\n")
		for _, l := range strings.Split(d.doc, "\n") {
			b.WriteString("  " + comment("; "+l) + "\n")
		}
		b.WriteString("  " + d.body + "))\n")
		n++
	}
	if n == 0 {
		return body
	}
	return b.String() + body + strings.Repeat(")", n)
}

// usesLet reports whether body mentions a definition that WriteCHC binds
// with let (which a define-fun could not see).
func (p *printer) usesLet(body string) bool {
	for _, d := range p.lets {
		if mentions(body, d.name) {
			return true
		}
	}
	return false
}

// mentions reports whether text holds the symbol sym as a whole symbol
// (not as a part of a longer one, vigil.rule.1 in vigil.rule.12).
func mentions(text, sym string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], sym)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(sym)
		before := j == 0 || !symbolByte(text[j-1])
		after := end == len(text) || !symbolByte(text[end])
		if before && after {
			return true
		}
		i = j + 1
	}
}

// symbolByte reports whether b may continue a simple SMT-LIB symbol (or
// close a quoted one).
func symbolByte(b byte) bool {
	switch {
	case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', '0' <= b && b <= '9':
		return true
	}
	return strings.IndexByte("~!@$%^&*_-+=<>.?/|'", b) >= 0
}

// WriteCert writes a certificate that inv, a union of boxes (each a
// conjunction of bound literals), is an inductive invariant of q that
// contains the start states and no bad state. The header lines come
// first as comments. z3 FILE prints init, unsat, consecution, unsat,
// safety, unsat when the certificate is valid; see the package
// documentation for the format.
func WriteCert(w io.Writer, q Question, header []string, inv [][]Lit) error {
	p, err := newPrinter(q)
	if err != nil {
		return err
	}
	p.header(header)
	p.describe()
	p.line("; Certificate: vigil.inv is an inductive invariant that contains the start")
	p.line("; states and no bad state. Each check below must print unsat.")
	checks, err := p.certDefs(inv, nil, false)
	if err != nil {
		return err
	}
	p.checks(checks)
	return p.flush(w)
}

// header writes the caller's header lines as comments.
func (p *printer) header(header []string) {
	for _, h := range header {
		for _, l := range strings.Split(h, "\n") {
			p.line(strings.TrimRight("; "+strings.TrimRight(l, "\r"), " "))
		}
	}
}

// checks writes the declarations of the state constants and, for each
// check, its name (echo) and a satisfiability check in its own scope.
func (p *printer) checks(checks []Check) {
	p.line("")
	if d := p.declarations(); d != "" {
		p.line(d)
	}
	for _, c := range checks {
		p.line(`(echo "` + c.Name + `")`)
		p.line("(push 1)")
		p.line("(assert " + c.Formula + ")")
		p.line("(check-sat)")
		p.line("(pop 1)")
	}
}

// declarations declares the current and next state constants, one per
// line.
func (p *printer) declarations() string {
	var ls []string
	for _, vs := range [][]string{p.n.cur, p.n.next} {
		for _, v := range vs {
			ls = append(ls, "(declare-const "+v+" Int)")
		}
	}
	return strings.Join(ls, "\n")
}

// invariant writes the define-fun of vigil.inv in the fixed form the
// certificate checker parses: the header line, then "(or", one box per
// line, "))"; an empty invariant is the line "false" and ")".
func (p *printer) invariant(inv [][]Lit) error {
	p.line("")
	kind := "boxes"
	for _, b := range inv {
		for _, l := range b {
			if l.Form != nil {
				kind = "regions (conjunctions of bounds and linear atoms)"
			}
		}
	}
	closing := ")"
	if len(p.q.Differ) > 0 {
		var ne []string
		for _, d := range p.q.Differ {
			if int(d[0]) < 0 || int(d[0]) >= len(p.n.cur) || int(d[1]) < 0 || int(d[1]) >= len(p.n.cur) || d[0] == d[1] {
				return fmt.Errorf("smtlib: a disequality of the invariant names variables %d and %d of %d", d[0], d[1], len(p.n.cur))
			}
			ne = append(ne, "(not (= "+p.n.cur[d[0]]+" "+p.n.cur[d[1]]+"))")
		}
		p.line("; the disequality invariant: these pairs of variables differ (the header's differ lines)")
		p.line("(define-fun " + fnDiffer + " (" + params(p.n.cur) + ") Bool")
		p.line("  " + and(ne...) + ")")
		p.line("; the invariant: the disequalities and a union of " + kind + ", one per line")
		p.line("(define-fun " + fnInv + " (" + params(p.n.cur) + ") Bool")
		p.line("(and " + call(fnDiffer, p.n.cur...))
		closing = "))"
	} else {
		p.line("; the invariant: a union of " + kind + ", one per line")
		p.line("(define-fun " + fnInv + " (" + params(p.n.cur) + ") Bool")
	}
	if len(inv) == 0 {
		p.line("false")
		p.line(closing)
		return nil
	}
	p.line("(or")
	for i, box := range inv {
		if len(box) == 0 {
			p.line("true")
			continue
		}
		ls := make([]string, len(box))
		for j, l := range box {
			a, err := atom(l, p.n.cur)
			if err != nil {
				return fmt.Errorf("smtlib: invariant box %d: %v, which model %s lacks", i+1, err, p.m.Name)
			}
			ls[j] = a
		}
		p.line("(and " + strings.Join(ls, " ") + ")")
	}
	p.line(")" + closing)
	return nil
}

func (p *printer) line(s string) {
	p.out.WriteString(s)
	p.out.WriteByte('\n')
}

func (p *printer) flush(w io.Writer) error {
	if p.err != nil {
		return p.err
	}
	_, err := io.WriteString(w, p.b.String())
	return err
}

// state and nextState are the argument lists of the current and next
// state.
func (p *printer) state() []string     { return p.n.cur }
func (p *printer) nextState() []string { return p.n.next }

// pair is the argument list of a step: the current state, then the next.
func pair(s, t []string) []string { return append(append([]string(nil), s...), t...) }

// comment makes s safe for a ; comment line.
func comment(s string) string {
	return strings.NewReplacer("\n", " ", "\r", " ").Replace(s)
}

// describe writes the comment block that names the question and its
// variables.
func (p *printer) describe() {
	q, m := p.q, p.m
	pol := "no policy: every applicable label may be taken"
	if q.Policy != nil {
		pol = fmt.Sprintf("policy %s (%s)", q.Policy.Name, q.Policy.Kind)
	}
	p.line(comment(fmt.Sprintf("; model %s, property %s, %s", m.Name, q.Property.Name, pol)))
	start := "the variables' initial values"
	if q.Property.Start != nil {
		start = "the property's start condition"
	}
	p.line("; start states: " + start)
	if len(m.Vars) == 0 {
		p.line("; no variables")
		return
	}
	p.line("; a state is one Int per variable (a Boolean is 0 or 1 and holds when")
	p.line("; non-zero); the next state's copy of |x| is |x'|:")
	for i := range m.Vars {
		v := &m.Vars[i]
		s := fmt.Sprintf(";   %s %d..%d", p.n.cur[i], v.Lo, v.Hi)
		if v.Bool {
			s += " bool"
		}
		if v.HasInit {
			s += fmt.Sprintf(" init %d", v.Init)
		}
		p.line(comment(s))
	}
}

// define writes (define-fun name (params) Bool body) after the comment
// lines of doc.
func (p *printer) define(doc, name, ps, body string) {
	if p.chc && name != fnInRange && (strings.Contains(body, "(ite ") || p.usesLet(body)) {
		// WriteCHC binds it with let in the clauses that use it
		if p.inlined == nil {
			p.inlined = map[string]bool{}
		}
		p.inlined[name] = true
		p.lets = append(p.lets, letDef{doc, name, body})
		return
	}
	p.line("")
	for _, l := range strings.Split(doc, "\n") {
		p.line(comment("; " + l))
	}
	p.line("(define-fun " + name + " (" + ps + ") Bool")
	p.line("  " + body + ")")
}

// defs writes the define-funs of the question, each before its first use.
func (p *printer) defs() {
	q, m, n := p.q, p.m, p.n
	s, t := p.state(), p.nextState()
	ps := params(n.cur)

	var rng []string
	for i := range m.Vars {
		v := &m.Vars[i]
		rng = append(rng, "(<= "+lit(v.Lo)+" "+n.cur[i]+" "+lit(v.Hi)+")")
	}
	p.define("every variable is within its range", fnInRange, ps, and(rng...))
	p.define("the unsafe condition of property "+q.Property.Name, fnUnsafe, ps, p.condString(q.Property.Unsafe))
	terminal := p.use(fnUnsafe, s...)
	if q.Property.Goal != nil {
		terminal = or(terminal, p.condString(q.Property.Goal))
	}
	p.define("terminal states (unsafe or goal) have no successors", fnTerminal, ps, terminal)

	initial := []string{call(fnInRange, s...)}
	if q.Property.Start != nil {
		initial = append(initial, p.condString(q.Property.Start))
	} else {
		for i := range m.Vars {
			initial = append(initial, "(= "+n.cur[i]+" "+lit(m.Vars[i].Init)+")")
		}
	}
	p.define("start states", fnInit, ps, and(initial...))

	chosen := func(l symbolic.LabelID) string { return "" }
	if q.Policy != nil {
		p.policy()
		chosen = func(l symbolic.LabelID) string { return p.use(n.chosen[l], s...) }
	}

	// The transition relation: one disjunct per command, one per outcome
	// within it; every variable's next value is given.
	var cmds []string
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if len(c.Outcomes) == 0 {
			continue
		}
		var outs, posts []string
		for _, o := range c.Outcomes {
			rhs := make([]string, len(m.Vars))
			copy(rhs, n.cur)
			eqs := make([]string, len(m.Vars))
			for v := range eqs {
				eqs[v] = "(= " + n.next[v] + " " + rhs[v] + ")"
			}
			for _, a := range o.Assigns {
				rhs[a.Var] = p.exprString(a.Value)
				// the assignment without integer ite terms (lift.go)
				next := n.next[a.Var]
				eqs[a.Var] = p.lifted([]*symbolic.Expr{a.Value}, func(v []string) string { return "(= " + next + " " + v[0] + ")" })
			}
			outs = append(outs, and(eqs...))
			posts = append(posts, "(and "+call(fnInRange, rhs...)+" (not "+call(fnInv, rhs...)+"))")
		}
		pre := p.enabled(c, chosen)
		var b strings.Builder
		b.WriteString(p.action(c) + "\n      ")
		var body string
		switch {
		case len(outs) == 1:
			body = and(append(pre, outs[0])...)
		case len(pre) == 0:
			body = "(or\n        " + strings.Join(outs, "\n        ") + ")"
		default:
			body = "(and " + strings.Join(pre, " ") + "\n        (or\n          " + strings.Join(outs, "\n          ") + "))"
		}
		b.WriteString(body)
		cmds = append(cmds, b.String())
		p.steps = append(p.steps, clause{p.action(c), body})
		if p.cmds == nil {
			p.cmds = make([]string, len(m.Commands))
			p.post = make([]string, len(m.Commands))
		}
		p.cmds[ci] = b.String()
		p.post[ci] = and(append(pre, or(posts...))...)
	}
	steps := "false"
	if len(cmds) > 0 {
		steps = "(or\n      " + strings.Join(cmds, "\n      ") + ")"
	}
	p.aside(func() {
		if p.chc {
			return // WriteCHC writes a clause per command instead (p.steps)
		}
		p.define("one step: s and s' are in range, s is not terminal, a command is enabled in s\nwhose label the policy chooses (any label without a policy), and s' is\none of its outcomes",
			fnTrans, strings.TrimSpace(ps+" "+params(n.next)),
			"(and "+call(fnInRange, s...)+" "+call(fnInRange, t...)+" (not "+call(fnTerminal, s...)+")\n    "+steps+")")
	})

	// Range errors: an enabled outcome sets a variable outside its range,
	// or its state-dependent probability lies outside [0, 1] or divides by
	// zero (symbolic.Outcome.BadProb). Assignments whose value interval
	// lies within the range are left out.
	var errs []string
	probErrs := false
	for ci := range m.Commands {
		c := &m.Commands[ci]
		var leave []string
		seen := map[string]bool{}
		for oi := range c.Outcomes {
			o := &c.Outcomes[oi]
			if bad := o.BadProb(); bad.Op != symbolic.CFalse {
				probErrs = true
				if l := p.condString(bad); !seen[l] {
					seen[l] = true
					leave = append(leave, l)
				}
			}
			for _, a := range o.Assigns {
				v := &m.Vars[a.Var]
				if lo, hi := m.Bounds(a.Value); lo >= v.Lo && hi <= v.Hi {
					continue
				}
				l := "(not " + p.lifted([]*symbolic.Expr{a.Value}, func(x []string) string {
					return "(<= " + lit(v.Lo) + " " + x[0] + " " + lit(v.Hi) + ")"
				}) + ")"
				if !seen[l] {
					seen[l] = true
					leave = append(leave, l)
				}
			}
		}
		if len(leave) == 0 {
			continue
		}
		body := and(append(p.enabled(c, chosen), or(leave...))...)
		e := p.action(c) + "\n      " + body
		errs = append(errs, e)
		p.errs = append(p.errs, clause{p.action(c), body})
		if p.rerr == nil {
			p.rerr = make([][]string, len(m.Labels))
		}
		p.rerr[c.Label] = append(p.rerr[c.Label], e)
	}
	p.probErrs = probErrs
	if p.learned || p.chc {
		// factDefs writes the range errors per label; WriteCHC a clause
		// per command (p.errs)
		return
	}
	rangeErr := "false"
	if len(errs) > 0 {
		rangeErr = "(and (not " + call(fnTerminal, s...) + ")\n    (or\n      " + strings.Join(errs, "\n      ") + "))"
	}
	what := "an enabled outcome would leave a variable's range (the explicit engine's\nrange error)"
	if probErrs {
		what = "an enabled outcome would leave a variable's range, or its probability\nwould lie outside [0, 1] (the explicit engine's range error)"
	}
	p.define(what, fnRangeErr, ps, rangeErr)
	p.define("bad states: unsafe, or a range error", fnBad, ps,
		"(and "+call(fnInRange, s...)+" (or "+call(fnUnsafe, s...)+" "+call(fnRangeErr, s...)+"))")
}

// action is the comment line that names command c.
func (p *printer) action(c *symbolic.Command) string {
	s := "; action " + p.m.Labels[c.Label].Name
	if c.Pos.IsValid() {
		s += ", " + c.Pos.String()
	}
	return comment(s)
}

// enabled returns the conjuncts under which command c may be taken: its
// guard (unless true) and, with a policy, the choice of its label.
func (p *printer) enabled(c *symbolic.Command, chosen func(symbolic.LabelID) string) []string {
	var pre []string
	if g := p.condString(c.Guard); g != "true" {
		pre = append(pre, g)
	}
	if ch := chosen(c.Label); ch != "" {
		pre = append(pre, ch)
	}
	return pre
}

// policy writes vigil.app.<label>, the rules' vigil.rule.<n> and
// vigil.chosen.<label>, exactly as the explicit engine decides.
func (p *printer) policy() {
	q, m, n := p.q, p.m, p.n
	d := q.Policy
	s := p.state()
	ps := params(n.cur)
	guards := make([][]string, len(m.Labels))
	for ci := range m.Commands {
		c := &m.Commands[ci]
		guards[c.Label] = append(guards[c.Label], p.condString(c.Guard))
	}
	for l := range m.Labels {
		p.define("label "+m.Labels[l].Name+" is applicable: some command of it has a true guard", n.app[l], ps, or(guards[l]...))
	}
	switch d.Kind {
	case symbolic.KindRules:
		// vigil.rule.<n> fires when its condition holds and its label is
		// applicable; the first rule that fires chooses.
		for i, r := range d.Rules {
			doc := fmt.Sprintf("rule %d of policy %s fires", i+1, d.Name)
			if r.Pos.IsValid() {
				doc = fmt.Sprintf("rule %d of policy %s (%s) fires", i+1, d.Name, r.Pos)
			}
			p.define(doc, n.rule[i], ps,
				and(p.condString(r.Cond), p.use(n.app[r.Label], s...)))
		}
		for l := range m.Labels {
			last := -1
			for i, r := range d.Rules {
				if int(r.Label) == l {
					last = i
				}
			}
			body := "false"
			if last >= 0 {
				// the first rule that fires decides: an earlier rule of
				// label l, or rule last when no earlier rule fires (and
				// and or rather than ite, see lift.go)
				var b strings.Builder
				for i := 0; i < last; i++ {
					if int(d.Rules[i].Label) == l {
						fmt.Fprintf(&b, "(or %s ", p.use(n.rule[i], s...))
					} else {
						fmt.Fprintf(&b, "(and (not %s) ", p.use(n.rule[i], s...))
					}
				}
				b.WriteString(p.use(n.rule[last], s...))
				b.WriteString(strings.Repeat(")", last))
				body = b.String()
			}
			p.define(fmt.Sprintf("policy %s chooses %s: the first rule that fires names it", d.Name, m.Labels[l].Name), n.chosen[l], ps, body)
		}
	case symbolic.KindTable:
		// A state listed twice takes its last row's label (as the explicit
		// engine's table does).
		rows := make([][]string, len(m.Labels))
		if t := d.Table; t != nil {
			last := map[string]int{}
			for i, row := range t.Rows {
				last[fmt.Sprint(row)] = i
			}
			for i, row := range t.Rows {
				if last[fmt.Sprint(row)] != i {
					continue
				}
				eqs := make([]string, len(row))
				for v, x := range row {
					eqs[v] = "(= " + n.cur[v] + " " + lit(x) + ")"
				}
				rows[t.Labels[i]] = append(rows[t.Labels[i]], and(eqs...))
			}
		}
		for l := range m.Labels {
			body := "false"
			if len(rows[l]) > 0 {
				body = "(and " + p.use(n.app[l], s...) + "\n    (or\n      " + strings.Join(rows[l], "\n      ") + "))"
			}
			p.define(fmt.Sprintf("policy %s chooses %s: the state is a row of that label and %s is applicable", d.Name, m.Labels[l].Name, m.Labels[l].Name), n.chosen[l], ps, body)
		}
	}
}
