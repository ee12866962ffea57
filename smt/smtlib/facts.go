package smtlib

import (
	"fmt"
	"io"
	"strings"

	"vigil/smt"
	"vigil/symbolic"
)

// WriteCertFacts writes the certificate of a learned policy (a network or
// an ensemble, which SMT-LIB cannot express): q.Policy must be nil, and
// excluded[a] lists the boxes of inv (indices) where policy facts, checked
// elsewhere, say label a is never chosen. Consecution is then checked per
// label: from the boxes where a may be chosen, every a-step stays in the
// invariant. z3 FILE prints init, unsat, then one "consecution <label>",
// unsat pair per label, then safety, unsat.
func WriteCertFacts(w io.Writer, q Question, header []string, inv [][]smt.Lit, excluded [][]int) error {
	if q.Policy != nil {
		return fmt.Errorf("smtlib: WriteCertFacts takes the question without its (learned) policy")
	}
	p, err := newPrinter(q)
	if err != nil {
		return err
	}
	m := p.m
	if len(excluded) != len(m.Labels) {
		return fmt.Errorf("smtlib: %d exclusion lists for %d labels", len(excluded), len(m.Labels))
	}
	for _, h := range header {
		for _, l := range strings.Split(h, "\n") {
			p.line(strings.TrimRight("; "+strings.TrimRight(l, "\r"), " "))
		}
	}
	p.describe()
	p.line("; Certificate of a learned policy: vigil.inv is an inductive invariant that")
	p.line("; contains the start states and no bad state, given the policy facts of the")
	p.line("; header (label a is never chosen in box i), which vigil cert check re-checks")
	p.line("; against the policy. Each check below must print unsat.")
	p.defs()
	if err := p.invariant(inv); err != nil {
		return err
	}
	s, t := p.state(), p.nextState()
	ps := params(p.n.cur)
	both := strings.TrimSpace(ps + " " + params(p.n.next))
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
		p.line("")
		p.define(fmt.Sprintf("one step under label %s", m.Labels[a].Name), fmt.Sprintf("vigil.step.%d", a), both,
			"(and "+call(fnInRange, s...)+" "+call(fnInRange, t...)+" (not "+call(fnTerminal, s...)+")\n    "+steps+")")
		skip := map[int]bool{}
		for _, i := range excluded[a] {
			if i < 0 || i >= len(inv) {
				return fmt.Errorf("smtlib: exclusion of label %s names box %d of %d", m.Labels[a].Name, i+1, len(inv))
			}
			skip[i] = true
		}
		var keep [][]smt.Lit
		for i, b := range inv {
			if !skip[i] {
				keep = append(keep, b)
			}
		}
		p.line(fmt.Sprintf("; the boxes of the invariant where the policy may choose %s", comment(m.Labels[a].Name)))
		p.line(fmt.Sprintf("(define-fun vigil.inv.%d (%s) Bool", a, ps))
		p.line("  " + p.boxes(keep) + ")")
	}
	p.line("")
	for _, vs := range [][]string{p.n.cur, p.n.next} {
		for _, v := range vs {
			p.line("(declare-const " + v + " Int)")
		}
	}
	check := func(name, formula string) {
		p.line(`(echo "` + name + `")`)
		p.line("(push 1)")
		p.line("(assert " + formula + ")")
		p.line("(check-sat)")
		p.line("(pop 1)")
	}
	check("init", "(and "+call(fnInit, s...)+" (not "+call(fnInv, s...)+"))")
	for a := range m.Labels {
		check(fmt.Sprintf("consecution %d", a), "(and "+call(fmt.Sprintf("vigil.inv.%d", a), s...)+" "+call(fmt.Sprintf("vigil.step.%d", a), pair(s, t)...)+" (not "+call(fnInv, t...)+"))")
	}
	check("safety", "(and "+call(fnInv, s...)+" "+call(fnBad, s...)+")")
	return p.flush(w)
}

// boxes writes a union of boxes as one expression.
func (p *printer) boxes(inv [][]smt.Lit) string {
	if len(inv) == 0 {
		return "false"
	}
	var parts []string
	for _, box := range inv {
		ls := make([]string, len(box))
		for j, l := range box {
			op := ">="
			if l.Upper {
				op = "<="
			}
			ls[j] = "(" + op + " " + p.n.cur[l.Var] + " " + lit(l.K) + ")"
		}
		parts = append(parts, and(ls...))
	}
	return or(parts...)
}
