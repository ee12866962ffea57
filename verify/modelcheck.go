package verify

// The checks of a model itself that ask Z3 about all in-range states at
// once (vigil check --bounds and --deadlocks): package smt decides them,
// this file describes its answers.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Finding is one answer of the model checks BoundsFindings and
// DeadlockFindings, in the form vigil check --json prints; String is its
// text form. Outcome is 1-based, as in the text form ("outcome 1" is the
// first one written).
type Finding struct {
	Kind     string `json:"kind"` // "range", "deadlock" or "unknown"
	Check    string `json:"check"`
	Pos      string `json:"pos"`
	Property string `json:"property,omitempty"`
	Label    string `json:"label,omitempty"`
	Outcome  int    `json:"outcome,omitempty"`
	Variable string `json:"variable,omitempty"`
	Value    *int   `json:"value,omitempty"` // saturated to int64
	Exact    string `json:"exact,omitempty"` // the exact value (range, overflow)
	Expr     string `json:"expr,omitempty"`  // overflow: the expression
	Where    string `json:"where,omitempty"` // overflow: where it occurs
	Range    []int  `json:"range,omitempty"`
	// Access: range: the array accesses out of range in State, as
	// written with their indices (Variable and Value are then the
	// element that carries the error, not one the model assigns)
	Access string         `json:"access,omitempty"`
	State  string         `json:"state,omitempty"`
	Values map[string]int `json:"values,omitempty"`
	Reason string         `json:"reason,omitempty"`
	text   string
}

// String is the finding as vigil check prints it: a position, a
// severity, the check and the witness.
func (f Finding) String() string { return f.text }

// BoundsFindings runs smt.CheckBounds and describes its answers. n counts
// the violations; err is set when some query was undecided.
func BoundsFindings(ctx context.Context, m *symbolic.Model) (fs []Finding, n int, err error) {
	res, err := smt.CheckBounds(m, smt.CheckOptions{Context: ctx})
	if err != nil {
		return nil, 0, err
	}
	for _, v := range res.Violations {
		if v.Prob {
			fs = append(fs, probFinding(m, v))
			continue
		}
		f := smtQueryFinding(m, v.Query, "range")
		val := v.Value
		f.Value = &val
		f.State, f.Values = m.FormatState(v.State), smtStateValues(m, v.State)
		vr := &m.Vars[v.Var]
		exact := fmt.Sprint(val)
		for _, a := range m.Commands[v.Command].Outcomes[v.Outcome].Assigns {
			if a.Var == v.Var {
				exact = a.Value.ValueString(v.State) // val is saturated beyond int64
			}
		}
		f.Exact = exact
		f.text = fmt.Sprintf("%s: error: range: action %s, outcome %d sets %s' = %s, outside %d..%d, in state %s%s",
			f.Pos, f.Label, f.Outcome, f.Variable, exact, vr.Lo, vr.Hi, f.State, smtOfProperty(f.Property))
		if acc := explicit.AccessesOutOfRange(m, v.Command, v.Outcome, v.State); acc != "" {
			f.Access = acc
			// an array access out of range, which lowering carries on
			// an element one above its range: name the access and its
			// index, as bfs does, not the carrier (a[0]' = 4)
			f.text = fmt.Sprintf("%s: error: range: action %s, outcome %d %s, in state %s%s",
				f.Pos, f.Label, f.Outcome, acc, f.State, smtOfProperty(f.Property))
		}
		fs = append(fs, f)
	}
	for _, u := range res.Undecided {
		f := smtQueryFinding(m, u.Query, "unknown")
		f.Reason = u.Reason
		if u.Prob {
			f.text = fmt.Sprintf("%s: unknown: probability: action %s, outcome %d: whether its probability can leave [0, 1]: Z3 gave no answer (%s)%s",
				f.Pos, f.Label, f.Outcome, u.Reason, smtOfProperty(f.Property))
			fs = append(fs, f)
			continue
		}
		f.text = fmt.Sprintf("%s: unknown: range: action %s, outcome %d, variable %s: Z3 gave no answer (%s)%s",
			f.Pos, f.Label, f.Outcome, f.Variable, u.Reason, smtOfProperty(f.Property))
		fs = append(fs, f)
	}
	if len(res.Undecided) > 0 {
		err = fmt.Errorf("smt: %s undecided (%s); the model may still have range errors", queries(len(res.Undecided), "range"), res.Undecided[0].Reason)
	} else if res.Stopped && len(res.Violations) == 0 {
		// A check stopped before every query was asked (the context, or
		// a stop of the solver's own) with nothing found so far: never
		// "no outcome leaves a range".
		err = errors.New("smt: the bounds check stopped before every range query was answered; the model may still have range errors")
	}
	if ctx.Err() != nil {
		return fs, len(res.Violations), err // stopped: the overflow sites are not asked
	}
	ovs, oerr := smt.CheckOverflow(m, smt.CheckOptions{Context: ctx})
	if oerr != nil && err == nil {
		err = oerr
	}
	for _, o := range ovs {
		f := Finding{Kind: "overflow", Check: "bounds", Pos: smtWhere(m, o.Pos), Expr: m.ExprString(o.Expr), Where: o.Where}
		switch {
		case o.Unknown != "":
			f.Kind, f.Reason = "unknown", o.Unknown
			f.text = fmt.Sprintf("%s: unknown: overflow: in %s, whether %s leaves the 64-bit integers: Z3 gave no answer (%s)", f.Pos, o.Where, f.Expr, o.Unknown)
		case o.State != nil:
			f.Exact, f.State, f.Values = o.Value.String(), m.FormatState(o.State), smtStateValues(m, o.State)
			f.text = fmt.Sprintf("%s: note: overflow: in %s, %s = %s, beyond the 64-bit integers, in state %s: vigil computes it exactly, but the bdd engine refuses the model",
				f.Pos, o.Where, f.Expr, f.Exact, f.State)
		default:
			f.Kind = "no-overflow"
			f.text = fmt.Sprintf("%s: note: overflow: in %s, no intermediate value leaves the 64-bit integers on an in-range state (proved with Z3), though interval analysis flags %s", f.Pos, o.Where, f.Expr)
		}
		fs = append(fs, f)
	}
	return fs, len(res.Violations), err
}

// DeadlockFindings runs smt.FindDeadlocks and describes its answers: one
// witness per property with deadlocks.
func DeadlockFindings(ctx context.Context, m *symbolic.Model) (fs []Finding, n int, err error) {
	res, err := smt.FindDeadlocks(m, smt.CheckOptions{Context: ctx})
	if err != nil {
		return nil, 0, err
	}
	for _, d := range res.Deadlocks {
		f := Finding{Kind: "deadlock", Check: "deadlocks", Pos: smtPropPos(m, d.Property), Property: smtPropName(d.Property)}
		f.State, f.Values = m.FormatState(d.State), smtStateValues(m, d.State)
		f.text = fmt.Sprintf("%s: warning: deadlock: no action is applicable in state %s%s", f.Pos, f.State, smtOfProperty(f.Property))
		fs = append(fs, f)
	}
	for _, u := range res.Undecided {
		f := Finding{Kind: "unknown", Check: "deadlocks", Pos: smtPropPos(m, u.Property), Property: smtPropName(u.Property), Reason: u.Reason}
		f.text = fmt.Sprintf("%s: unknown: deadlock: Z3 gave no answer (%s)%s", f.Pos, u.Reason, smtOfProperty(f.Property))
		fs = append(fs, f)
	}
	if len(res.Undecided) > 0 {
		err = fmt.Errorf("smt: %s undecided (%s)", queries(len(res.Undecided), "deadlock"), res.Undecided[0].Reason)
	}
	return fs, len(res.Deadlocks), err
}

func smtQueryFinding(m *symbolic.Model, q smt.Query, kind string) Finding {
	c := &m.Commands[q.Command]
	f := Finding{
		Kind:     kind,
		Check:    "bounds",
		Pos:      smtWhere(m, c.Pos),
		Property: smtPropName(q.Property),
		Label:    m.Labels[c.Label].Name,
		Outcome:  q.Outcome + 1,
	}
	if !q.Prob {
		f.Variable = m.Vars[q.Var].Name
		f.Range = []int{m.Vars[q.Var].Lo, m.Vars[q.Var].Hi}
	}
	return f
}

// probFinding describes a probability error found by smt.CheckBounds: the
// outcome's state-dependent probability outside [0, 1], or undefined, in
// the witness state (kind "probability"; Exact is the probability as the
// explicit engine states it: num/den, or "undefined").
func probFinding(m *symbolic.Model, v smt.BoundsViolation) Finding {
	f := smtQueryFinding(m, v.Query, "probability")
	o := &m.Commands[v.Command].Outcomes[v.Outcome]
	f.Pos = smtWhere(m, o.Pos)
	f.State, f.Values = m.FormatState(v.State), smtStateValues(m, v.State)
	var fs []string
	for _, pf := range o.ProbFactors {
		n, d := pf.At(v.State)
		if d.Sign() == 0 {
			fs = append(fs, n.String()+"/0")
		} else {
			fs = append(fs, symbolic.ProbString(n, d)) // reduced: -1, not -1/1
		}
	}
	f.Exact = strings.Join(fs, " * ")
	if len(fs) == 1 && strings.HasSuffix(f.Exact, "/0") {
		f.Exact = "undefined (division by zero)"
	}
	if len(o.ProbFactors) == 1 && o.ProbFactors[0].ZeroSum {
		f.Exact = "undefined (every destination has probability 0)"
		f.text = fmt.Sprintf("%s: error: probability: action %s: every destination has probability 0 in state %s, where it is enabled: they sum to 0, not 1%s",
			f.Pos, f.Label, f.State, smtOfProperty(f.Property))
		return f
	}
	f.text = fmt.Sprintf("%s: error: probability: action %s, outcome %d has probability %s, outside [0, 1], in state %s%s",
		f.Pos, f.Label, f.Outcome, f.Exact, f.State, smtOfProperty(f.Property))
	return f
}

func smtStateValues(m *symbolic.Model, s symbolic.State) map[string]int {
	vs := make(map[string]int, len(s))
	for i, v := range s {
		vs[m.Vars[i].Name] = v
	}
	return vs
}

func smtPropName(p *symbolic.Property) string {
	if p == nil {
		return ""
	}
	return p.Name
}

func smtPropPos(m *symbolic.Model, p *symbolic.Property) string {
	if p == nil {
		return smtWhere(m, symbolic.Pos{})
	}
	return smtWhere(m, p.Pos)
}

func smtOfProperty(name string) string {
	if name == "" {
		return ""
	}
	return " (property " + name + ")"
}

// smtWhere prints pos, or the model's file (or name) when pos is unknown.
func smtWhere(m *symbolic.Model, pos symbolic.Pos) string {
	if pos.IsValid() {
		return pos.String()
	}
	for _, v := range m.Vars {
		if v.Pos.File != "" {
			return v.Pos.File
		}
	}
	return strings.TrimSpace("model " + m.Name)
}

// queries counts n queries of a kind: "1 range query", "2 range queries".
func queries(n int, kind string) string {
	if n == 1 {
		return "1 " + kind + " query"
	}
	return fmt.Sprintf("%d %s queries", n, kind)
}
