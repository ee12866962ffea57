package verify

// Counterexamples as a person reads them: the first state in full, then
// at each step the variables that changed, the label taken and why the
// policy took it (the rule that fired, or every output's score).

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// semantics returns the question compiled for the explicit engine, which
// explains the policy's choices along a counterexample (nil when it cannot
// be compiled: the text then leaves the explanations out).
func (r *Report) semantics() *Prepared {
	if r.v.prep == nil {
		r.v.prep, _ = prepare(r.q)
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
	return reasonLine(r.q.Model, r.q.Policy, reason, x.App)
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
			w.printf("%4d  %s\n", i, changed(m, trace[i-1].State, st.State))
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

// changed lists the variables whose values differ between a and b, as
// FormatState writes them ("(no change)" when none does).
func changed(m *symbolic.Model, a, b symbolic.State) string {
	var parts []string
	for v := range m.Vars {
		if a[v] != b[v] {
			parts = append(parts, m.Vars[v].Name+"="+formatValue(&m.Vars[v], b[v]))
		}
	}
	if len(parts) == 0 {
		return "(no change)"
	}
	return strings.Join(parts, " ")
}

// reasonLine says why the policy chose its label: "rule 2 (f.spec:30:5)"
// or "scores: up 1.25 (chosen), down -0.31; not applicable: left 0.9".
func reasonLine(m *symbolic.Model, d *symbolic.PolicyDecl, r *explicit.Reason, app []bool) string {
	name := "policy"
	if d != nil {
		name = "policy " + d.Name
	}
	if r.Scores == nil {
		if r.Rule < 0 {
			return ""
		}
		return fmt.Sprintf("%s: rule %d fired (%s)", name, r.Rule+1, r.RulePos)
	}
	// The applicable labels first, best score first; then the others.
	idx := make([]int, len(r.Outputs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return r.Scores[idx[a]] > r.Scores[idx[b]] })
	var on, off []string
	for _, i := range idx {
		l := r.Outputs[i]
		s := fmt.Sprintf("%s %s", m.Labels[l].Name, score(r.Scores[i]))
		switch {
		case l == r.Label:
			on = append(on, s+" (chosen)")
		case app[l]:
			on = append(on, s)
		default:
			off = append(off, s)
		}
	}
	line := name + " scores: " + strings.Join(on, ", ")
	if len(off) > 0 {
		line += "; not applicable: " + strings.Join(off, ", ")
	}
	return line
}

// formatValue writes a variable's value as FormatState does.
func formatValue(v *symbolic.Var, x int) string {
	if v.Bool {
		return fmt.Sprint(x != 0)
	}
	return fmt.Sprint(x)
}

func score(f float64) string {
	switch {
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsInf(f, 1):
		return "+inf"
	case math.IsNaN(f):
		return "NaN"
	}
	return fmt.Sprintf("%.4g", f)
}
