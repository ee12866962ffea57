package explicit

import (
	"fmt"

	"vigil/symbolic"
)

// CheckCounterexample replays trace in the explicit semantics and returns
// nil when it is a counterexample of the property for the policy: the
// first state is a start state, no earlier state is terminal, in each step
// the policy (nil: any label) chooses the step's label, the step's command
// has that label and an enabled guard, its outcome leads to the next state,
// and the last state is unsafe. Every engine's counterexamples are checked
// against this.
func (g *Generator) CheckCounterexample(policy Decider, trace []Step) error {
	m := g.M
	if len(trace) == 0 {
		return fmt.Errorf("explicit: empty counterexample")
	}
	for i, st := range trace {
		if len(st.State) != len(m.Vars) || m.InRange(st.State) >= 0 {
			return fmt.Errorf("explicit: counterexample step %d: not a state of model %s", i, m.Name)
		}
	}
	if err := g.isStart(trace[0].State); err != nil {
		return err
	}
	x := &Expansion{}
	for i, st := range trace[:len(trace)-1] {
		s := st.State
		if status := g.Status(s); status != Open {
			return fmt.Errorf("explicit: counterexample step %d: %s is %s, a run ends there", i, m.FormatState(s), status)
		}
		if st.Cmd < 0 || st.Cmd >= len(m.Commands) {
			return fmt.Errorf("explicit: counterexample step %d: no command %d", i, st.Cmd)
		}
		c := &m.Commands[st.Cmd]
		if c.Label != st.Label || st.Outcome < 0 || st.Outcome >= len(c.Outcomes) {
			return fmt.Errorf("explicit: counterexample step %d: command %s has no outcome %d of label %d", i, c.Pos, st.Outcome, st.Label)
		}
		if !g.Guard(s, st.Cmd) {
			return fmt.Errorf("explicit: counterexample step %d: the guard of %s does not hold in %s", i, c.Pos, m.FormatState(s))
		}
		if policy != nil {
			g.Applicable(s, x)
			l, err := policy.Decide(s, x.App)
			if err != nil {
				return err
			}
			if l != st.Label {
				name := "nothing"
				if l != symbolic.NoLabel {
					name = m.Labels[l].Name
				}
				return fmt.Errorf("explicit: counterexample step %d: the policy chooses %s in %s, not %s", i, name, m.FormatState(s), m.Labels[st.Label].Name)
			}
		}
		t, err := g.Apply(s, st.Cmd, st.Outcome)
		if err != nil {
			return err
		}
		if m.FormatState(t) != m.FormatState(trace[i+1].State) {
			return fmt.Errorf("explicit: counterexample step %d: outcome %d of %s leads to %s, not %s", i, st.Outcome+1, c.Pos, m.FormatState(t), m.FormatState(trace[i+1].State))
		}
	}
	if last := trace[len(trace)-1].State; g.Status(last) != Unsafe {
		return fmt.Errorf("explicit: counterexample ends in %s, which is not unsafe", m.FormatState(last))
	}
	return nil
}

// isStart reports whether s is a start state of the generator's property.
func (g *Generator) isStart(s symbolic.State) error {
	if g.Prop == nil || g.Prop.Start == nil {
		init, err := g.M.InitialState()
		if err != nil {
			return fmt.Errorf("explicit: %w", err)
		}
		if g.M.FormatState(init) != g.M.FormatState(s) {
			return fmt.Errorf("explicit: counterexample starts in %s, not in the initial state %s", g.M.FormatState(s), g.M.FormatState(init))
		}
		return nil
	}
	if !g.Prop.Start.Holds(s) { // exact, with no assumption that s is in range
		return fmt.Errorf("explicit: counterexample starts in %s, which violates the start condition", g.M.FormatState(s))
	}
	return nil
}
