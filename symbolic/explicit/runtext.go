package explicit

// Runs as a person reads them: one state per line, the action below it,
// and for counterexamples the variables that changed and why the policy
// took its label (the rule that fired, or every output's score). vigil
// run, vigil verify and vigil explore print runs this way.

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"vigil/symbolic"
)

// WriteStep writes step i of a run: its state, and the action below it.
func WriteStep(w io.Writer, m *symbolic.Model, i int, st Step) {
	fmt.Fprintf(w, "%4d  %s\n", i, m.FormatState(st.State))
	if st.Cmd >= 0 {
		c := &m.Commands[st.Cmd]
		fmt.Fprintf(w, "      -> %s  (%s, outcome %d of %d)\n", m.Labels[st.Label].Name, c.Pos, st.Outcome+1, len(c.Outcomes))
	}
}

// WriteEnd writes why a run of n steps ended (an End* value).
func WriteEnd(w io.Writer, end string, n int) {
	switch end {
	case EndSteps:
		end = "step limit"
	case EndStopped:
		end = "interrupted"
	}
	steps := "1 step"
	if n != 1 {
		steps = fmt.Sprintf("%d steps", n)
	}
	fmt.Fprintf(w, "end: %s after %s\n", end, steps)
}

// WriteTrace writes a run one state per line, each action below its
// state, then why it ended.
func WriteTrace(w io.Writer, m *symbolic.Model, trace []Step, end string) {
	for i, st := range trace {
		WriteStep(w, m, i, st)
	}
	WriteEnd(w, end, len(trace)-1)
}

// WriteCex writes a counterexample that ends unsafe. Without full, each
// state after the first lists only the variables whose values changed.
// With a policy (dec, named policy), each step says why the policy took
// its label.
func WriteCex(w io.Writer, g *Generator, dec Decider, policy string, trace []Step, full bool) {
	m := g.M
	var x Expansion
	for i, st := range trace {
		switch {
		case i == 0 || full:
			fmt.Fprintf(w, "%4d  %s\n", i, m.FormatState(st.State))
		default:
			fmt.Fprintf(w, "%4d  %s\n", i, Changed(m, trace[i-1].State, st.State))
		}
		if st.Cmd < 0 {
			continue
		}
		c := &m.Commands[st.Cmd]
		fmt.Fprintf(w, "      -> %s  (%s, outcome %d of %d)\n", m.Labels[st.Label].Name, c.Pos, st.Outcome+1, len(c.Outcomes))
		if dec == nil {
			continue
		}
		g.Applicable(st.State, &x)
		why, err := Explain(dec, st.State, x.App)
		if err != nil || why == nil {
			continue
		}
		if line := why.Line(m, policy, x.App); line != "" {
			fmt.Fprintf(w, "         %s\n", line)
		}
	}
	WriteEnd(w, EndUnsafe, len(trace)-1)
}

// Changed lists the variables whose values differ between a and b, as
// FormatState writes them ("(no change)" when none does).
func Changed(m *symbolic.Model, a, b symbolic.State) string {
	var parts []string
	for v := range m.Vars {
		if a[v] != b[v] {
			parts = append(parts, m.Vars[v].Name+"="+FormatValue(&m.Vars[v], b[v]))
		}
	}
	if len(parts) == 0 {
		return "(no change)"
	}
	return strings.Join(parts, " ")
}

// Line says why the policy named policy ("" for an unnamed one) chose
// its label: "policy p: rule 2 fired (f.spec:30:5)" or "policy p scores:
// up 1.25 (chosen), down -0.31; not applicable: left 0.9" (app marks the
// applicable labels). It is "" when no rule fired.
func (r *Reason) Line(m *symbolic.Model, policy string, app []bool) string {
	name := "policy"
	if policy != "" {
		name = "policy " + policy
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
	stuckAt := symbolic.NoLabel // under argmax all: the arg-max that is not applicable
	if r.All && r.Label == symbolic.NoLabel {
		stuckAt = symbolic.Choose(r.Outputs, r.Scores, func(symbolic.LabelID) bool { return true })
	}
	for _, i := range idx {
		l := r.Outputs[i]
		s := fmt.Sprintf("%s %s", m.Labels[l].Name, score(r.Scores[i]))
		switch {
		case l == r.Label:
			on = append(on, s+" (chosen)")
		case l == stuckAt && !app[l]:
			off = append(off, s+" (the arg-max over all outputs: stuck)")
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

// Stuck says why the policy named policy ("" for an unnamed one) chose no
// label in a state where the labels app marks are applicable, r being its
// decision there (Explain, with r.Label == NoLabel): under `argmax all`,
// "policy p chose left (score 3), which is not applicable here (argmax
// all: the run ends)"; under `argmax applicable`, "policy p: no output
// label is applicable here (argmax applicable: the run ends)", or that
// the applicable ones all score -inf or NaN; for rules, that no rule with
// an applicable label holds; for a table, that it has no row for the
// state or that the row's label is not applicable.
func (r *Reason) Stuck(m *symbolic.Model, policy string, app []bool) string {
	name := "policy"
	if policy != "" {
		name = "policy " + policy
	}
	if r.Scores == nil {
		return name + ": no rule whose label is applicable holds here (the run ends)"
	}
	if r.Table {
		for i, sc := range r.Scores {
			if sc > 0 {
				return fmt.Sprintf("%s: the table's row for this state names %s, which is not applicable here (the run ends)", name, m.Labels[r.Outputs[i]].Name)
			}
		}
		return name + ": the table has no row for this state (the run ends)"
	}
	if r.All {
		best := symbolic.Choose(r.Outputs, r.Scores, func(symbolic.LabelID) bool { return true })
		if best == symbolic.NoLabel {
			return name + ": every output scores -inf or NaN, so no label wins (argmax all: the run ends)"
		}
		i := slices.Index(r.Outputs, best)
		return fmt.Sprintf("%s chose %s (score %s), which is not applicable here (argmax all: the run ends)", name, m.Labels[best].Name, score(r.Scores[i]))
	}
	var on []string
	for i, l := range r.Outputs {
		if app[l] {
			on = append(on, fmt.Sprintf("%s %s", m.Labels[l].Name, score(r.Scores[i])))
		}
	}
	if len(on) == 0 {
		return name + ": no output label is applicable here (argmax applicable: the run ends)"
	}
	return fmt.Sprintf("%s: the applicable output labels all score -inf or NaN (%s), so none is chosen (argmax applicable: the run ends)", name, strings.Join(on, ", "))
}

// StuckReason is Reason.Stuck for decider d (the policy named policy) in
// state s of g, where it chooses no label; "" when it does choose one.
func StuckReason(g *Generator, d Decider, policy string, s symbolic.State) (string, error) {
	var x Expansion
	g.Applicable(s, &x)
	r, err := Explain(d, s, x.App)
	switch {
	case err != nil:
		return "", err
	case r == nil: // a decider without reasons (a table)
		if l, err := d.Decide(s, x.App); err != nil || l != symbolic.NoLabel {
			return "", err
		}
		if policy == "" {
			return "the policy chooses no applicable label here (the run ends)", nil
		}
		return "policy " + policy + " chooses no applicable label here (the run ends)", nil
	case r.Label != symbolic.NoLabel:
		return "", nil
	}
	return r.Stuck(g.M, policy, x.App), nil
}

// FormatValue writes a variable's value as FormatState does: an enum
// value by its name (a counterexample's changed variables used to print
// light=2 where its states print light=blue), a Boolean as true or false.
func FormatValue(v *symbolic.Var, x int) string { return v.ValueName(x) }

// score writes a policy's score: 4 significant digits, or ±inf, NaN.
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

// WriteRunFile writes run to path as a run file, whole or not at all
// (nothing is written when encoding fails).
func WriteRunFile(path string, run *Run) error {
	var b bytes.Buffer
	if err := WriteRun(&b, run); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
