package smtlib

import (
	"fmt"
	"strings"

	"vigil/symbolic"
)

// Check is one condition of a certificate: a formula over the state
// constants that a solver must find unsatisfiable.
type Check struct {
	// Name is init, consecution, "consecution <label index>" or
	// "rangeerr <label index>" (learned policies), safety, or sure.
	Name    string
	Formula string
	// Post is the same condition over the current state alone: for a
	// Next check, the successor's constants replaced by each enabled
	// outcome's values (the one-point rule: "some successor t = o(s) is in
	// range and outside the invariant" is "o(s) is in range and outside
	// the invariant"), so that Post is satisfiable exactly when Formula
	// is and reads neither the next state nor Script.NextDefs; for the
	// other checks, Formula itself.
	Post string
	// Next tells that the formula also reads the next state's constants.
	Next bool
	// Label is the label of a learned policy's consecution or rangeerr
	// check or of a sure check; Fact is the index of the fact a sure check tests, else -1.
	Label symbolic.LabelID
	Fact  int
}

// Script is a certificate's question as SMT-LIB2 text for a solver that
// reads text: Defs holds the definitions, the invariant and the
// declarations of the state constants Cur and Next (quoted symbols, in
// variable order); each check is then asserted in a scope of its own. It
// is what WriteCert and WriteCertFacts write, without the comments and
// with the sure checks of the policy facts, so that a checker can solve it
// without the Z3 binding's encoder.
type Script struct {
	Defs string
	// NextDefs are the definitions that only the checks' Formula reads
	// (the transition relation vigil.trans, or the learned policy's
	// vigil.step.<a>), after Defs; the checks' Post does not need them.
	NextDefs  string
	Cur, Next []string
	Checks    []Check
}

// Posts returns the text of one formula that is unsatisfiable exactly
// when every check is: the current state in range (which every check
// implies already) and the disjunction of the checks' Post. It reads
// only Defs and the current state's constants, so a solver need not see
// NextDefs, and an evaluator that tries every in-range state decides it.
func (s *Script) Posts() string {
	var b strings.Builder
	b.WriteString("(and ")
	b.WriteString(call(fnInRange, s.Cur...))
	b.WriteString(" (or")
	for _, c := range s.Checks {
		b.WriteString("\n  ")
		post := c.Post
		if post == "" {
			// a check without its one-point form (a Next check whose
			// writer set no Post): its Formula, which reads the next
			// state, so that no evaluator over the current state alone
			// can decide the text, rather than a disjunction without it
			post = c.Formula
		}
		b.WriteString(post)
	}
	b.WriteString("))")
	return b.String()
}

// CertScript returns the checks of a certificate that inv is an inductive
// invariant of q containing its start states and no bad state. With
// learned set, q.Policy must be nil and excluded are the learned policy's
// facts: consecution and range errors are checked per label outside the
// regions where a fact excludes the label, and one sure check per fact and sure label
// asks whether the label can be inapplicable somewhere in the fact's
// region (the facts' exclusions themselves are the caller's to check).
func CertScript(q Question, inv [][]Lit, excluded []Exclusion, learned bool) (*Script, error) {
	if learned && q.Policy != nil {
		return nil, fmt.Errorf("smtlib: a learned policy's certificate takes the question without its policy")
	}
	if !learned && len(excluded) > 0 {
		return nil, fmt.Errorf("smtlib: policy facts need a learned policy")
	}
	p, err := newPrinter(q)
	if err != nil {
		return nil, err
	}
	if err := p.checkFacts(len(inv), excluded); err != nil {
		return nil, err
	}
	p.side = new(strings.Builder)
	checks, err := p.certDefs(inv, excluded, learned)
	if err != nil {
		return nil, err
	}
	if learned {
		// the sure checks go before safety, the last check
		safety := checks[len(checks)-1]
		checks = append(append(checks[:len(checks)-1], p.sureChecks(excluded)...), safety)
	}
	for i := range checks {
		if !checks[i].Next {
			checks[i].Post = checks[i].Formula
		}
	}
	if d := p.declarations(); d != "" {
		p.line(d)
	}
	if p.err != nil {
		return nil, p.err
	}
	return &Script{Defs: p.b.String(), NextDefs: p.side.String(), Cur: p.n.cur, Next: p.n.next, Checks: checks}, nil
}

// certDefs writes the definitions of the question and of the invariant
// (and, with learned, the per-label definitions of factDefs) and returns
// the checks: init, consecution (with learned: one per label, then the
// range errors per label), safety (with learned: the unsafe states).
func (p *printer) certDefs(inv [][]Lit, excluded []Exclusion, learned bool) ([]Check, error) {
	p.learned = learned
	p.defs()
	if err := p.invariant(inv); err != nil {
		return nil, err
	}
	s, t := p.state(), p.nextState()
	checks := []Check{{Name: "init", Formula: "(and " + call(fnInit, s...) + " (not " + call(fnInv, s...) + "))", Fact: -1}}
	if learned {
		checks = append(checks, p.factDefs(inv, excluded)...)
	} else {
		checks = append(checks, Check{Name: "consecution", Next: true, Fact: -1,
			Formula: "(and " + call(fnInv, s...) + " " + call(fnTrans, pair(s, t)...) + " (not " + call(fnInv, t...) + "))",
			Post:    "(and " + call(fnInv, s...) + " " + p.postStep(-1) + ")"})
	}
	if learned {
		// range errors were checked per label (factDefs): safety is the
		// unsafe states alone
		checks = append(checks, Check{Name: "safety", Formula: and(call(fnInv, s...), call(fnInRange, s...), call(fnUnsafe, s...)), Fact: -1})
		return checks, p.err
	}
	checks = append(checks, Check{Name: "safety", Formula: "(and " + call(fnInv, s...) + " " + call(fnBad, s...) + ")", Fact: -1})
	return checks, p.err
}

// postStep is vigil.trans (label < 0) or vigil.step.<label> with the
// successor replaced by each outcome's values and the successor's
// membership in the invariant negated: s is in range and not terminal,
// and some enabled command of the label has an outcome o with o(s) in
// range and outside vigil.inv.
func (p *printer) postStep(label symbolic.LabelID) string {
	s := p.state()
	var cmds []string
	for ci := range p.m.Commands {
		if (label < 0 || p.m.Commands[ci].Label == label) && p.post != nil && p.post[ci] != "" {
			cmds = append(cmds, p.post[ci])
		}
	}
	if len(cmds) == 0 {
		return "false"
	}
	return "(and " + call(fnInRange, s...) + " (not " + call(fnTerminal, s...) + ")\n    " + or(cmds...) + ")"
}

// sureChecks returns, per fact and sure label a, the check that a is
// applicable (some command of a has a true guard) in every in-range state
// of the fact's region (vigil.fact.<i>, written by factDefs).
func (p *printer) sureChecks(excluded []Exclusion) []Check {
	m, s := p.m, p.state()
	guards := make([][]string, len(m.Labels))
	for ci := range m.Commands {
		c := &m.Commands[ci]
		guards[c.Label] = append(guards[c.Label], p.condString(c.Guard))
	}
	var checks []Check
	for i, e := range excluded {
		region := call(factFn(i), s...) // defined by factDefs
		for _, a := range e.Sure {
			checks = append(checks, Check{Name: "sure", Label: a, Fact: i,
				Formula: and(call(fnInRange, s...), region, "(not "+or(guards[a]...)+")")})
		}
	}
	return checks
}
