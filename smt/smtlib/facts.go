package smtlib

import (
	"fmt"
	"io"
	"strings"

	"vigil/symbolic"
)

// Exclusion is a policy fact as the certificate uses it: label Label is
// never chosen in box Box of the invariant, or in the part of it that
// Within (bounds and linear atoms, written exactly as the invariant's)
// cuts out when that is not nil.
type Exclusion struct {
	Box    int
	Label  symbolic.LabelID
	Within []Lit
	// Sure are the labels the fact claims applicable throughout its
	// region; only the checker's Script tests them (CertScript).
	Sure []symbolic.LabelID
}

// WriteCertFacts writes the certificate of a learned policy (a network or
// an ensemble, which SMT-LIB cannot express): q.Policy must be nil, and
// excluded are the policy facts, checked elsewhere (their Sure labels are
// not written: vigil cert check checks them). Consecution is then
// checked per label: from the part of the invariant where a may be chosen
// (the invariant without the regions of the facts that exclude a), every
// a-step stays in the invariant, and no outcome of a leaves a variable's
// range. z3 FILE prints init, unsat, then one "consecution <label>", unsat
// pair per label, one "rangeerr <label>", unsat pair per label whose
// commands may leave a range, then safety (the unsafe states), unsat.
func WriteCertFacts(w io.Writer, q Question, header []string, inv [][]Lit, excluded []Exclusion) error {
	if q.Policy != nil {
		return fmt.Errorf("smtlib: WriteCertFacts takes the question without its (learned) policy")
	}
	p, err := newPrinter(q)
	if err != nil {
		return err
	}
	if err := p.checkFacts(len(inv), excluded); err != nil {
		return err
	}
	p.header(header)
	p.describe()
	p.line("; Certificate of a learned policy: vigil.inv is an inductive invariant that")
	p.line("; contains the start states and no bad state, given the policy facts of the")
	p.line("; header (label a is never chosen in box i), which vigil cert check re-checks")
	p.line("; against the policy. Each check below must print unsat.")
	checks, err := p.certDefs(inv, excluded, true)
	if err != nil {
		return err
	}
	p.checks(checks)
	return p.flush(w)
}

// checkFacts checks that the facts name boxes of the invariant and labels
// and variables of the model.
func (p *printer) checkFacts(boxes int, excluded []Exclusion) error {
	m := p.m
	label := func(l symbolic.LabelID) bool { return int(l) >= 0 && int(l) < len(m.Labels) }
	for _, e := range excluded {
		if e.Box < 0 || e.Box >= boxes || !label(e.Label) {
			return fmt.Errorf("smtlib: a policy fact names box %d of %d, label %d of %d", e.Box+1, boxes, e.Label, len(m.Labels))
		}
		for _, l := range e.Sure {
			if !label(l) {
				return fmt.Errorf("smtlib: a policy fact names sure label %d of %d", l, len(m.Labels))
			}
		}
		for _, l := range e.Within {
			if int(l.Var) < 0 || int(l.Var) >= len(m.Vars) {
				return fmt.Errorf("smtlib: a policy fact bounds variable %d, which model %s lacks", l.Var, m.Name)
			}
			if l.Form != nil {
				for _, t := range l.Form.Terms() {
					if int(t.Var) < 0 || int(t.Var) >= len(m.Vars) {
						return fmt.Errorf("smtlib: a policy fact's atom %s names variable %d, which model %s lacks", l.Form.Key(), t.Var, m.Name)
					}
				}
			}
		}
	}
	return nil
}

// factDefs writes vigil.fact.<i>, the region of fact i (its box of the
// invariant, within its sub-box if it has one), then per label
// vigil.step.<a> (one step under label a) and vigil.inv.<a> (the part of
// the invariant where the policy may choose a: vigil.inv without the
// regions of the facts that exclude a), and returns the consecution
// checks, one per label; then, per label whose commands may leave a
// range, vigil.rangeerr.<a> and its check over vigil.inv.<a>.
//
// vigil.inv.<a> refers to vigil.inv rather than repeating its boxes, so
// the text (and what Z3 parses) grows with the invariant plus the facts,
// not with the invariant times the labels. It is sound: each fact holds
// in every state of its region (the fact checker checks it on the
// region, box and atoms, the sure checks its sure labels in the region),
// so a state of any region that excludes a is one where the policy never
// chooses a, whichever other boxes of the invariant also hold it (where
// boxes overlap, such a state is left out of a's check even though
// another box holds it).
func (p *printer) factDefs(inv [][]Lit, excluded []Exclusion) []Check {
	m := p.m
	s, t := p.state(), p.nextState()
	ps := params(p.n.cur)
	both := strings.TrimSpace(ps + " " + params(p.n.next))
	if len(excluded) > 0 {
		p.line("")
		p.line("; the region of each policy fact of the header, in order")
	}
	for i, e := range excluded {
		region := p.boxes([][]Lit{inv[e.Box]})
		if len(e.Within) > 0 {
			region = and(region, p.boxes([][]Lit{e.Within}))
		}
		p.line(fmt.Sprintf("(define-fun %s (%s) Bool", factFn(i), ps))
		p.line("  " + region + ")")
	}
	var checks []Check
	for a := range m.Labels {
		var cmds []string
		for ci := range m.Commands {
			if m.Commands[ci].Label == symbolic.LabelID(a) && p.cmds != nil && p.cmds[ci] != "" {
				cmds = append(cmds, p.cmds[ci])
			}
		}
		steps := "false"
		if len(cmds) > 0 {
			steps = "(or\n      " + strings.Join(cmds, "\n      ") + ")"
		}
		p.aside(func() {
			p.line("")
			p.define(fmt.Sprintf("one step under label %s", m.Labels[a].Name), fmt.Sprintf("vigil.step.%d", a), both,
				"(and "+call(fnInRange, s...)+" "+call(fnInRange, t...)+" (not "+call(fnTerminal, s...)+")\n    "+steps+")")
		})
		var out []string // the regions of the facts that exclude a
		for i, e := range excluded {
			if e.Label == symbolic.LabelID(a) {
				out = append(out, call(factFn(i), s...))
			}
		}
		body := call(fnInv, s...)
		if len(out) > 0 {
			body = "(and " + body + " (not " + or(out...) + "))"
		}
		p.line(fmt.Sprintf("; the part of the invariant where the policy may choose %s", comment(m.Labels[a].Name)))
		p.line(fmt.Sprintf("(define-fun vigil.inv.%d (%s) Bool", a, ps))
		p.line("  " + body + ")")
		checks = append(checks, Check{
			Name:    fmt.Sprintf("consecution %d", a),
			Formula: "(and " + call(fmt.Sprintf("vigil.inv.%d", a), s...) + " " + call(fmt.Sprintf("vigil.step.%d", a), pair(s, t)...) + " (not " + call(fnInv, t...) + "))",
			Post:    "(and " + call(fmt.Sprintf("vigil.inv.%d", a), s...) + " " + p.postStep(symbolic.LabelID(a)) + ")",
			Label:   symbolic.LabelID(a), Next: true, Fact: -1,
		})
	}
	// Range errors per label, like consecution: a label's range error
	// counts only where the policy may choose it (vigil.inv.<a>), since
	// the explicit engine reports a range error of the label taken only.
	for a := range m.Labels {
		if a >= len(p.rerr) || len(p.rerr[a]) == 0 {
			continue
		}
		fn := fmt.Sprintf("vigil.rangeerr.%d", a)
		p.define(fmt.Sprintf("an enabled outcome of label %s would leave a variable's range (a range\nerror where the policy chooses %s)", m.Labels[a].Name, m.Labels[a].Name), fn, ps,
			"(and (not "+call(fnTerminal, s...)+")\n    (or\n      "+strings.Join(p.rerr[a], "\n      ")+"))")
		checks = append(checks, Check{
			Name:    fmt.Sprintf("rangeerr %d", a),
			Formula: and(call(fmt.Sprintf("vigil.inv.%d", a), s...), call(fnInRange, s...), call(fn, s...)),
			Label:   symbolic.LabelID(a), Fact: -1,
		})
	}
	return checks
}

// factFn names the definition of the region of fact i.
func factFn(i int) string { return fmt.Sprintf("vigil.fact.%d", i) }

// boxes writes a union of boxes as one expression.
func (p *printer) boxes(inv [][]Lit) string {
	if len(inv) == 0 {
		return "false"
	}
	var parts []string
	for _, box := range inv {
		ls := make([]string, len(box))
		for j, l := range box {
			a, err := atom(l, p.n.cur)
			if err != nil {
				p.fail(fmt.Errorf("smtlib: %v, which model %s lacks", err, p.m.Name))
				return "false"
			}
			ls[j] = a
		}
		parts = append(parts, and(ls...))
	}
	return or(parts...)
}
