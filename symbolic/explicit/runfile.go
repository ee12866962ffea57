package explicit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"vigil/internal/inputfile"
	"vigil/internal/jsonerr"
	"vigil/symbolic"
)

// Run files: `vigil run --record FILE` and `vigil verify --record FILE`
// write one run as JSON; fault analysis and `vigil run --replay FILE` read
// it back. The format (version 1):
//
//	{
//	  "version": 1,
//	  "model": "oneway",          // Model.Name
//	  "constants": {"L": 10},     // Model.Consts as the run saw them (-D)
//	  "real_constants": {"p": "1/10"}, // Model.Reals (JANI), exact rationals
//	  "property": "no_overshoot", // the property whose terminal states end the run
//	  "policy": "careful",        // the policy that chose the labels ("" if none)
//	  "end": "unsafe",            // why the run ended: unsafe, goal, deadlock, stuck, steps
//	  "why": "policy careful ...", // with "end": "stuck", why the policy chose no label (Reason.Stuck)
//	  "steps": [
//	    {"state": {"load": 3, "parked": 0, "pos": 0, "speed": 0},
//	     "label": "accelerate", "command": "oneway.spec:16:8", "command_index": 0, "outcome": 0},
//	    ...
//	    {"state": {...}}          // the last state: no label, no command
//	  ]
//	}
//
// A state maps every variable name to its value (Booleans as 0/1; true and
// false are accepted when reading). In every step but the last, "label" is
// the label taken, "command" the source position of the command that fired
// (Model.Commands[command_index].Pos, with the file's base name only) and "outcome" the 0-based index of its
// outcome. Read checks that every state is complete and in range, that
// each step's command has the step's label and an enabled guard, and that
// its outcome leads exactly to the next step's state, that no state but
// the last is terminal under the property and that the ending holds of the
// last state (checkEnd). It does not re-run the policy: CheckPolicyRun
// does, for vigil run --replay (fault analysis checks the tested policy's
// labels itself).

// RunVersion is the version of the run-file format Write produces.
const RunVersion = 1

// Run is a recorded run.
type Run struct {
	Version int    `json:"version"`
	Model   string `json:"model"`
	// Constants are the model's constants (Model.Consts) when the run was
	// recorded, after -D: a run replays only on the same values. Absent
	// in files of earlier versions of vigil, which are read without the
	// check.
	Constants map[string]json.Number `json:"constants,omitempty"`
	// RealConstants are a JANI model's real constants (Model.Reals) as
	// exact rationals ("1/10"), checked like Constants.
	RealConstants map[string]string `json:"real_constants,omitempty"`
	// ArrayConstants are the model's array constants (Model.ArrayConsts),
	// elements as integers or booleans, checked like Constants.
	ArrayConstants map[string][]any `json:"array_constants,omitempty"`
	Property       string           `json:"property"`
	Policy         string           `json:"policy"`
	End            string           `json:"end"`
	// Why says, in a run that ended stuck, why the policy chose no label
	// in its last state (Reason.Stuck); "" otherwise.
	Why   string    `json:"why,omitempty"`
	Steps []RunStep `json:"steps"`
}

// RunStep is one step of a Run.
type RunStep struct {
	State        map[string]any `json:"state"`
	Label        string         `json:"label,omitempty"`
	Command      string         `json:"command,omitempty"`
	CommandIndex *int           `json:"command_index,omitempty"`
	Outcome      *int           `json:"outcome,omitempty"`
}

// NewRun converts engine steps (see Step) to a Run.
func NewRun(m *symbolic.Model, prop, policy, end string, steps []Step) *Run {
	r := &Run{Version: RunVersion, Model: m.Name, Property: prop, Policy: policy, End: end}
	if len(m.Consts) > 0 {
		r.Constants = map[string]json.Number{}
		for _, c := range m.Consts {
			r.Constants[c.Name] = json.Number(strconv.Itoa(c.Value))
		}
	}
	if len(m.ArrayConsts) > 0 {
		r.ArrayConstants = map[string][]any{}
		for _, c := range m.ArrayConsts {
			r.ArrayConstants[c.Name] = arrayValues(c)
		}
	}
	if len(m.Reals) > 0 {
		r.RealConstants = map[string]string{}
		for _, c := range m.Reals {
			r.RealConstants[c.Name] = c.Value
		}
	}
	for _, st := range steps {
		rs := RunStep{State: map[string]any{}}
		for i := range m.Vars {
			rs.State[m.Vars[i].Name] = st.State[i]
		}
		if st.Cmd >= 0 {
			c, o := st.Cmd, st.Outcome
			rs.Label = m.Labels[st.Label].Name
			rs.Command = runPos(m.Commands[c].Pos)
			rs.CommandIndex, rs.Outcome = &c, &o
		}
		r.Steps = append(r.Steps, rs)
	}
	return r
}

// WriteRun writes r as indented JSON.
func WriteRun(w io.Writer, r *Run) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return fmt.Errorf("explicit: run file: %v", err)
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// ReadRun reads a run file and validates it against m (see the format
// above). It returns the run and its steps in engine form.
func ReadRun(rd io.Reader, m *symbolic.Model) (*Run, []Step, error) {
	var r Run
	// read whole, so that an error's offset becomes a line and column
	data, err := inputfile.ReadAll(rd, "")
	if err != nil {
		return nil, nil, &RunFileError{Step: -1, Msg: err.Error(), Err: err}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	// States hold 64-bit integers: decoded as float64, values beyond 2^53
	// would round, and a recorded run would not replay.
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return nil, nil, runFileErrorf(-1, "%s", jsonerr.Describe(data, err))
	}
	if r.Version != RunVersion {
		return nil, nil, runFileErrorf(-1, "version %d, this vigil reads version %d", r.Version, RunVersion)
	}
	if r.Model != m.Name {
		return nil, nil, runFileErrorf(-1, "recorded on model %q, not %q", r.Model, m.Name)
	}
	if err := checkConstants(m, &r); err != nil {
		return nil, nil, err
	}
	if len(r.Steps) == 0 {
		return nil, nil, runFileErrorf(-1, "no steps")
	}
	g, err := New(m, nil)
	if err != nil {
		return nil, nil, err
	}
	steps := make([]Step, len(r.Steps))
	for i, rs := range r.Steps {
		s, err := runState(m, rs.State)
		if err != nil {
			return nil, nil, runFileErrorf(i, "%v", err)
		}
		steps[i] = Step{State: s, Label: symbolic.NoLabel, Cmd: -1, Outcome: -1}
	}
	for i, rs := range r.Steps {
		last := i == len(r.Steps)-1
		if last {
			if rs.Label != "" || rs.CommandIndex != nil {
				return nil, nil, runFileErrorf(-1, "the last step %d has an action; the last step is a state only", i)
			}
			break
		}
		if rs.CommandIndex == nil || rs.Outcome == nil {
			return nil, nil, runFileErrorf(i, "missing command_index or outcome")
		}
		ci, oi := *rs.CommandIndex, *rs.Outcome
		if ci < 0 || ci >= len(m.Commands) {
			return nil, nil, runFileErrorf(i, "command_index %d out of range (the model has %d commands)", ci, len(m.Commands))
		}
		c := &m.Commands[ci]
		if rs.Command != runPos(c.Pos) {
			return nil, nil, runFileErrorf(i, "command %s does not match command %d at %s; was the model edited?", rs.Command, ci, c.Pos)
		}
		l := m.LabelIndex(rs.Label)
		if l == symbolic.NoLabel || l != c.Label {
			return nil, nil, runFileErrorf(i, "label %q is not the label of command %s", rs.Label, c.Pos)
		}
		if oi < 0 || oi >= len(c.Outcomes) {
			return nil, nil, runFileErrorf(i, "outcome %d out of range (command %s has %d)", oi, c.Pos, len(c.Outcomes))
		}
		s := steps[i].State
		if !g.Guard(s, ci) {
			return nil, nil, runFileErrorf(i, "the guard of %s does not hold in %s", c.Pos, m.FormatState(s))
		}
		t, err := g.Apply(s, ci, oi)
		if err != nil {
			return nil, nil, runFileErrorf(i, "%v", err)
		}
		if m.FormatState(t) != m.FormatState(steps[i+1].State) {
			return nil, nil, runFileErrorf(i, "outcome %d of %s leads to %s, but step %d is %s", oi, c.Pos, m.FormatState(t), i+1, m.FormatState(steps[i+1].State))
		}
		steps[i].Label, steps[i].Cmd, steps[i].Outcome = l, ci, oi
	}
	if err := checkEnd(m, &r, steps); err != nil {
		return nil, nil, err
	}
	return &r, steps, nil
}

// runEnds are the endings a run file may name: Simulate's, and the goal
// tests' loop.
var runEnds = []string{EndUnsafe, EndGoal, EndDeadlock, EndStuck, EndSteps, EndStopped, "loop"}

// checkConstants reports the constants whose recorded values differ from
// m's (a run recorded with -D N=8 replayed without it), naming the -D
// that loads the model the run was recorded on.
func checkConstants(m *symbolic.Model, r *Run) error {
	if r.Constants == nil && r.RealConstants == nil && r.ArrayConstants == nil {
		return nil
	}
	have := map[string]int{}
	for _, c := range m.Consts {
		have[c.Name] = c.Value
	}
	var diffs, defs []string
	for _, name := range slices.Sorted(maps.Keys(r.Constants)) {
		rec := r.Constants[name]
		if q, ok := new(big.Rat).SetString(string(rec)); !ok || !q.IsInt() || !q.Num().IsInt64() {
			return runFileErrorf(-1, "constant %s = %s is not an integer within the 64-bit integers", name, rec)
		}
		v, ok := have[name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s=%s (the model has no constant %s)", name, rec, name))
		case !sameInt(rec, v):
			diffs = append(diffs, fmt.Sprintf("%s=%s (the model has %s=%d)", name, rec, name, v))
			defs = append(defs, "-D "+name+"="+rec.String())
		}
	}
	reals := map[string]string{}
	for _, c := range m.Reals {
		reals[c.Name] = c.Value
	}
	for _, name := range slices.Sorted(maps.Keys(r.RealConstants)) {
		rec := r.RealConstants[name]
		q, ok := new(big.Rat).SetString(rec)
		if !ok {
			return runFileErrorf(-1, "real constant %s = %q is not a number", name, rec)
		}
		v, ok := reals[name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s=%s (the model has no real constant %s)", name, rec, name))
		default:
			if have, _ := new(big.Rat).SetString(v); have == nil || have.Cmp(q) != 0 {
				diffs = append(diffs, fmt.Sprintf("%s=%s (the model has %s=%s)", name, rec, name, v))
				defs = append(defs, "-D "+name+"="+rec)
			}
		}
	}
	arrays := map[string]symbolic.ArrayConst{}
	for _, c := range m.ArrayConsts {
		arrays[c.Name] = c
	}
	for _, name := range slices.Sorted(maps.Keys(r.ArrayConstants)) {
		rec := r.ArrayConstants[name]
		text, err := arrayText(rec)
		if err != "" {
			return runFileErrorf(-1, "array constant %s: %s", name, err)
		}
		c, ok := arrays[name]
		switch {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("%s=%s (the model has no array constant %s)", name, text, name))
		default:
			if have, _ := arrayText(arrayValues(c)); have != text {
				diffs = append(diffs, fmt.Sprintf("%s=%s (the model has %s=%s)", name, text, name, have))
				defs = append(defs, "-D '"+name+"="+text+"'")
			}
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	hint := "load the model with the constants the run was recorded with"
	if len(defs) > 0 {
		hint = "give " + strings.Join(defs, " ")
	}
	return runFileErrorf(-1, "recorded with %s; %s", strings.Join(diffs, ", "), hint)
}

// arrayValues is an array constant's elements as a run file records them.
func arrayValues(c symbolic.ArrayConst) []any {
	vs := make([]any, len(c.Values))
	for i, v := range c.Values {
		if c.Bool {
			vs[i] = v != 0
		} else {
			vs[i] = json.Number(strconv.Itoa(v))
		}
	}
	return vs
}

// arrayText is a recorded array constant as -D spells it ([2,0,1]), each
// integer in its canonical form (5.0 is 5); "" and why if an element is
// neither a 64-bit integer nor a boolean.
func arrayText(vs []any) (string, string) {
	parts := make([]string, len(vs))
	for i, v := range vs {
		switch v := v.(type) {
		case bool:
			parts[i] = strconv.FormatBool(v)
		case json.Number:
			q, ok := new(big.Rat).SetString(string(v))
			if !ok || !q.IsInt() || !q.Num().IsInt64() {
				return "", fmt.Sprintf("element %d (%s) is not an integer within the 64-bit integers", i, v)
			}
			parts[i] = q.Num().String()
		default:
			return "", fmt.Sprintf("element %d is neither an integer nor true or false", i)
		}
	}
	return "[" + strings.Join(parts, ",") + "]", ""
}

// sameInt reports whether n is exactly the integer v (5, 5.0 and 5e0
// are 5, as a state's values are read).
func sameInt(n json.Number, v int) bool {
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.Cmp(new(big.Rat).SetInt64(int64(v))) == 0
}

// checkEnd checks what a run file says about its states under its
// property: no state but the last is terminal (a run ends at an unsafe or
// goal state), and the ending it names is one that holds of its last
// state: unsafe and goal are that state's status, deadlock that no label
// is applicable there, the others that the state is open. Without it, a
// file claiming "end": "unsafe" after a safe state replayed as an unsafe
// run. The policy's choices are not checked (see the format above).
func checkEnd(m *symbolic.Model, r *Run, steps []Step) error {
	if !slices.Contains(runEnds, r.End) {
		return runFileErrorf(-1, "end %q is not a run ending (%s)", r.End, strings.Join(runEnds, ", "))
	}
	if r.Property == "" {
		if r.End == EndUnsafe || r.End == EndGoal {
			return runFileErrorf(-1, "the run ends %s but names no property whose %s states it reached", r.End, r.End)
		}
		// a deadlock is one whatever the property: without this, a file
		// that names none claimed one where a label is applicable
		g, err := New(m, nil)
		if err != nil {
			return err
		}
		if err := checkLoop(m, r, steps); err != nil {
			return err
		}
		return checkDeadlock(g, r, steps)
	}
	prop := m.Property(r.Property)
	if prop == nil {
		return runFileErrorf(-1, "recorded under property %q, which model %s does not have (give the --start and --unsafe files it was recorded with)", r.Property, m.Name)
	}
	g, err := New(m, prop)
	if err != nil {
		return err
	}
	last := len(steps) - 1
	for i := range last {
		if st := g.Status(steps[i].State); st != Open {
			return runFileErrorf(i, "%s is %s under property %s, so a run ends there, but the run goes on", m.FormatState(steps[i].State), st, prop.Name)
		}
	}
	s := steps[last].State
	st := g.Status(s)
	want := Open
	switch r.End {
	case EndUnsafe:
		want = Unsafe
	case EndGoal:
		want = Goal
	}
	if st != want {
		return runFileErrorf(last, "the run ends %s, but its last state %s is %s under property %s", r.End, m.FormatState(s), st, prop.Name)
	}
	if err := checkLoop(m, r, steps); err != nil {
		return err
	}
	return checkDeadlock(g, r, steps)
}

// checkLoop checks that a run that ends in a loop (a goal test's: the
// run revisits a state) ends in a state it met before. Without it, a file
// claiming "end": "loop" after any open state replayed, exit 0, as a
// policy run that never reaches the goal.
func checkLoop(m *symbolic.Model, r *Run, steps []Step) error {
	if r.End != "loop" {
		return nil
	}
	last := len(steps) - 1
	for i := range last {
		if slices.Equal(steps[i].State, steps[last].State) {
			return nil
		}
	}
	return runFileErrorf(last, "the run ends in a loop, but its last state %s is not one it met before", m.FormatState(steps[last].State))
}

// checkDeadlock checks that a run that ends in a deadlock has no label
// applicable in its last state, and that one that ends stuck (its policy
// chooses none of the applicable labels: Simulate's reading) names a
// policy and has a label applicable there (CheckPolicyRun checks the
// policy's choice where the model declares the policy).
func checkDeadlock(g *Generator, r *Run, steps []Step) error {
	if r.End != EndDeadlock && r.End != EndStuck {
		return nil
	}
	last := len(steps) - 1
	s := steps[last].State
	var x Expansion
	g.Applicable(s, &x)
	switch {
	case r.End == EndDeadlock && len(x.Labels) > 0:
		return runFileErrorf(last, "the run ends in a deadlock, but %s is applicable in its last state %s", g.M.Labels[x.Labels[0]].Name, g.M.FormatState(s))
	case r.End == EndStuck && r.Policy == "":
		return runFileErrorf(-1, "the run ends stuck (its policy chooses no label) but names no policy")
	case r.End == EndStuck && len(x.Labels) == 0:
		return runFileErrorf(last, "the run ends stuck, but no label is applicable in its last state %s: that is a deadlock", g.M.FormatState(s))
	}
	return nil
}

// runPos is a command position as run files record it: the file's base
// name, so that a run replays wherever the model is loaded from.
func runPos(p symbolic.Pos) string {
	p.File = filepath.Base(p.File)
	if p.File == "." {
		p.File = ""
	}
	return p.String()
}

func runState(m *symbolic.Model, vals map[string]any) (symbolic.State, error) {
	s := make(symbolic.State, len(m.Vars))
	for name := range vals {
		if m.VarIndex(name) < 0 {
			return nil, fmt.Errorf("unknown variable %q%s", name, didYouMean(name, varNames(m)))
		}
	}
	var missing []string
	for i := range m.Vars {
		v := &m.Vars[i]
		raw, ok := vals[v.Name]
		if !ok {
			missing = append(missing, v.Name)
			continue
		}
		var x int
		switch t := raw.(type) {
		case json.Number:
			// Read exactly: 5.0 and 5e0 are 5, 9.007199254740993e15 is
			// 9007199254740993.
			r, ok := new(big.Rat).SetString(string(t))
			if !ok || !r.IsInt() || !r.Num().IsInt64() {
				return nil, fmt.Errorf("%s = %v is not an integer within the 64-bit integers", v.Name, t)
			}
			x = int(r.Num().Int64())
		case bool:
			if !v.Bool {
				return nil, fmt.Errorf("%s is not a Boolean", v.Name)
			}
			if t {
				x = 1
			}
		default:
			return nil, fmt.Errorf("%s: value %v is neither a number nor a Boolean", v.Name, raw)
		}
		if x < v.Lo || x > v.Hi {
			return nil, fmt.Errorf("%s = %d is outside its range %d..%d", v.Name, x, v.Lo, v.Hi)
		}
		s[i] = x
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("no value for %v", missing)
	}
	return s, nil
}

// CheckPolicyRun checks that the run steps (from ReadRun) are a run of
// the policy d decides, named policy: in every step but the last the
// label taken is d's choice, and a run that ends stuck ends where d
// chooses no label. vigil run --replay calls it for the policy a run file
// names, so that a file claiming to be that policy's run is one.
func CheckPolicyRun(g *Generator, d Decider, policy string, steps []Step, end string) error {
	m := g.M
	var x Expansion
	for i, st := range steps {
		last := i == len(steps)-1
		if last && end != EndStuck {
			break
		}
		g.Applicable(st.State, &x)
		l, err := d.Decide(st.State, x.App)
		if err != nil {
			return runFileErrorf(i, "policy %s in %s: %v", policy, m.FormatState(st.State), err)
		}
		switch {
		case last && l != symbolic.NoLabel:
			return runFileErrorf(i, "the run ends stuck, but policy %s chooses %s in %s", policy, m.Labels[l].Name, m.FormatState(st.State))
		case last:
		case l == symbolic.NoLabel:
			return runFileErrorf(i, "the run takes %s in %s, but policy %s is stuck there; was it recorded with another policy file or --argmax?", m.Labels[st.Label].Name, m.FormatState(st.State), policy)
		case l != st.Label:
			return runFileErrorf(i, "the run takes %s in %s, but policy %s chooses %s; was it recorded with another policy file or --argmax?", m.Labels[st.Label].Name, m.FormatState(st.State), policy, m.Labels[l].Name)
		}
	}
	return nil
}
