package verify

// Counterexamples as a person reads them: the first state in full, then
// at each step the variables that changed, the label taken and why the
// policy took it (the rule that fired, or every output's score). The
// wording is explicit's (WriteStep, Changed, Reason.Line), which vigil run
// and vigil explore print too.

import (
	"context"
	"vigil/symbolic/explicit"
)

// semantics returns the question compiled for the explicit engine, which
// explains the policy's choices along a counterexample (nil when it cannot
// be compiled: the text then leaves the explanations out).
func (r *Report) semantics() *Prepared {
	if r.v.prep == nil {
		r.v.prep, _ = prepare(context.Background(), r.q)
	}
	return r.v.prep
}

// why says why the policy took its label in st ("" when there is no
// policy or nothing to say).
func (r *Report) why(st explicit.Step, x *explicit.Expansion) string {
	p := r.semantics()
	if p == nil || p.Dec == nil {
		return ""
	}
	p.Gen.Applicable(st.State, x)
	reason, err := explicit.Explain(p.Dec, st.State, x.App)
	if err != nil || reason == nil {
		return ""
	}
	return reason.Line(r.q.Model, policyName(r.q.Policy), x.App)
}

// writeCounterexample writes the counterexample. Without full, each state
// after the first lists only the variables whose values changed.
func (r *Report) writeCounterexample(w *textWriter, full bool) {
	m, trace := r.q.Model, r.v.Trace
	var x explicit.Expansion
	for i, st := range trace {
		switch {
		case i == 0 || full:
			w.printf("%4d  %s\n", i, m.FormatState(st.State))
		default:
			w.printf("%4d  %s\n", i, explicit.Changed(m, trace[i-1].State, st.State))
		}
		if st.Cmd < 0 {
			continue
		}
		c := &m.Commands[st.Cmd]
		w.printf("      -> %s  (%s, outcome %d of %d)\n", m.Labels[st.Label].Name, c.Pos, st.Outcome+1, len(c.Outcomes))
		if line := r.why(st, &x); line != "" {
			w.printf("         %s\n", line)
		}
	}
	w.printf("end: unsafe after %s\n", Plural(len(trace)-1, "step"))
}
