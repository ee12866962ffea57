package fuzz

// Soundness of safety testing (vigil test --mode safety): on 1,500 generated
// models every unsafe run, bug and fault that SafetyTest reports is
// re-checked by deciders that share nothing with the pipeline's oracles.
//
//   - The run replays in the IR's own semantics (symbolic.Cond.Holds,
//     symbolic.Expr.Eval, the policy through symbolic.Instantiate): it
//     starts in a start state, each step takes the policy's label through
//     a command with that label, an enabled guard and the outcome that
//     gives the next state, no earlier state is terminal, and it ends
//     unsafe.
//   - r-safety of every state comes from safety/conformance.Reference, the
//     naive greatest fixpoint over (state, budget) pairs of the whole
//     reachable graph. The bugs must be exactly the run's states it calls
//     safe (no false bug, none missed), and the faults exactly the safe
//     states on the run where the policy's label has a successor it calls
//     unsafe; each fault's outcome must be such a successor and its safe
//     alternative (radius inf) must keep every outcome safe.
//
// The pipeline's oracle varies with the model (tarjan, ipi, propu, lrtdp,
// with a second one cross-checking), as do the configuration and the
// radius (inf or 1). Mutations of reported answers (a false bug, a missed
// bug, a wrong fault outcome or label, a run that does not replay) must
// each be caught by the checks, so that the checks are known to bite.

import (
	"context"
	"fmt"
	"testing"

	"vigil/safety"
	sconf "vigil/safety/conformance"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// safetyRef is the reference view of one generated model.
type safetyRef struct {
	tc     *sconf.Model
	r      safety.Radius
	safe   []bool // per graph state
	policy symbolic.Policy
	buf    []uint64
}

func (ref *safetyRef) id(s symbolic.State) (uint32, bool) {
	ref.tc.G.L.Pack(s, ref.buf)
	return ref.tc.Gr.Store.Lookup(ref.buf)
}

// replay checks the run in the IR's semantics.
func (ref *safetyRef) replay(run []explicit.Step) error {
	m, prop := ref.tc.M, ref.tc.Prop
	if len(run) == 0 {
		return fmt.Errorf("empty run")
	}
	s0 := run[0].State
	if prop.Start != nil {
		if !prop.Start.Holds(s0) {
			return fmt.Errorf("run starts in %s, not a start state", m.FormatState(s0))
		}
	} else if init, _ := m.InitialState(); m.FormatState(init) != m.FormatState(s0) {
		return fmt.Errorf("run starts in %s, not the initial state", m.FormatState(s0))
	}
	app := make([]bool, len(m.Labels))
	for i, st := range run[:len(run)-1] {
		s := st.State
		if prop.Unsafe.Holds(s) || (prop.Goal != nil && prop.Goal.Holds(s)) {
			return fmt.Errorf("step %d: %s is terminal", i, m.FormatState(s))
		}
		m.Applicable(s, app)
		l, err := symbolic.Decide(ref.policy, s, func(l symbolic.LabelID) bool { return app[l] }, nil)
		if err != nil {
			return err
		}
		if l != st.Label {
			return fmt.Errorf("step %d: the policy takes label %d, the run %d", i, l, st.Label)
		}
		if st.Cmd < 0 || st.Cmd >= len(m.Commands) {
			return fmt.Errorf("step %d: no command %d", i, st.Cmd)
		}
		c := &m.Commands[st.Cmd]
		if c.Label != l || !c.Guard.Holds(s) || st.Outcome < 0 || st.Outcome >= len(c.Outcomes) {
			return fmt.Errorf("step %d: command %d outcome %d does not fire label %d", i, st.Cmd, st.Outcome, l)
		}
		t := append(symbolic.State(nil), s...)
		for _, a := range c.Outcomes[st.Outcome].Assigns {
			t[a.Var] = a.Value.Eval(s)
		}
		if m.FormatState(t) != m.FormatState(run[i+1].State) {
			return fmt.Errorf("step %d: leads to %s, not %s", i, m.FormatState(t), m.FormatState(run[i+1].State))
		}
	}
	if !prop.Unsafe.Holds(run[len(run)-1].State) {
		return fmt.Errorf("the run does not end unsafe")
	}
	return nil
}

// check re-decides one analysed unsafe run.
func (ref *safetyRef) check(c *SafetyCase) error {
	run := c.Run.Steps
	if err := ref.replay(run); err != nil {
		return fmt.Errorf("run %d: %v", c.Run.Index, err)
	}
	m, gr := ref.tc.M, ref.tc.Gr
	bugs := map[int]bool{}
	for _, i := range c.Bugs {
		bugs[i] = true
	}
	wantFault := map[int]bool{}
	for i, st := range run {
		id, ok := ref.id(st.State)
		if !ok {
			return fmt.Errorf("run %d step %d: %s is not reachable", c.Run.Index, i, m.FormatState(st.State))
		}
		last := i == len(run)-1
		if bugs[i] != (ref.safe[id] && !last) {
			return fmt.Errorf("run %d step %d: %s reported as bug %v, the reference says %s", c.Run.Index, i, m.FormatState(st.State), bugs[i], safeWord(ref.safe[id]))
		}
		if last || !ref.safe[id] || ref.tc.Pi[id] < 0 {
			continue
		}
		for _, t := range gr.Successors(uint32(ref.tc.Pi[id])) {
			if !ref.safe[t] {
				wantFault[i] = true
			}
		}
	}
	got := map[int]bool{}
	for _, f := range c.Faults {
		got[f.Step] = true
		if f.Step < 0 || f.Step >= len(run)-1 || m.FormatState(f.State) != m.FormatState(run[f.Step].State) {
			return fmt.Errorf("run %d: fault at step %d names state %s", c.Run.Index, f.Step, m.FormatState(f.State))
		}
		if !wantFault[f.Step] {
			return fmt.Errorf("run %d: false fault at step %d", c.Run.Index, f.Step)
		}
		id, _ := ref.id(f.State)
		k := uint32(ref.tc.Pi[id])
		if f.Label != gr.GroupLabel[k] {
			return fmt.Errorf("run %d: fault at step %d: label %d is not the policy's", c.Run.Index, f.Step, f.Label)
		}
		oid, ok := ref.id(f.Outcome)
		if !ok || ref.safe[oid] {
			return fmt.Errorf("run %d: fault at step %d: outcome %s is not an unsafe state", c.Run.Index, f.Step, m.FormatState(f.Outcome))
		}
		isSucc := false
		for _, t := range gr.Successors(k) {
			isSucc = isSucc || t == oid
		}
		if !isSucc {
			return fmt.Errorf("run %d: fault at step %d: %s is no outcome of the policy's label", c.Run.Index, f.Step, m.FormatState(f.Outcome))
		}
		if f.Alt != symbolic.NoLabel && ref.r == safety.Inf {
			from, to := gr.Groups(id)
			found := false
			for g := from; g < to; g++ {
				if gr.GroupLabel[g] != f.Alt {
					continue
				}
				found = true
				for _, t := range gr.Successors(g) {
					if !ref.safe[t] {
						return fmt.Errorf("run %d: fault at step %d: alternative %d may lead to a state that is not safe", c.Run.Index, f.Step, f.Alt)
					}
				}
			}
			if !found {
				return fmt.Errorf("run %d: fault at step %d: alternative %d is not applicable", c.Run.Index, f.Step, f.Alt)
			}
		}
	}
	for i := range wantFault {
		if !got[i] {
			return fmt.Errorf("run %d: missed the fault at step %d", c.Run.Index, i)
		}
	}
	return nil
}

// safetyMutants returns wrong variants of an analysed case with a fault.
func safetyMutants(c *SafetyCase, ref *safetyRef) map[string]*SafetyCase {
	out := map[string]*SafetyCase{}
	cp := func() *SafetyCase {
		d := *c
		d.Bugs = append([]int(nil), c.Bugs...)
		d.Faults = append([]SafetyFault(nil), c.Faults...)
		r := *c.Run
		r.Steps = append([]explicit.Step(nil), c.Run.Steps...)
		d.Run = &r
		return &d
	}
	n := len(c.Run.Steps)
	d := cp()
	d.Bugs = append(d.Bugs, n-1)
	out["the unsafe end as a bug"] = d
	d = cp()
	d.Bugs = d.Bugs[1:]
	out["a missed bug"] = d
	d = cp()
	d.Faults = d.Faults[1:]
	out["a missed fault"] = d
	d = cp()
	d.Faults[0].Outcome = d.Faults[0].State
	out["a safe outcome"] = d
	d = cp()
	d.Faults[0].Label = symbolic.LabelID((int(d.Faults[0].Label) + 1) % len(ref.tc.M.Labels))
	if len(ref.tc.M.Labels) > 1 {
		out["another label"] = d
	}
	d = cp()
	d.Run.Steps[n-1].State = d.Run.Steps[0].State
	out["a run that does not end unsafe"] = d
	return out
}

func TestSafetyConformance(t *testing.T) {
	const models = 1500
	oracles := [][]string{{"tarjan"}, {"ipi", "tarjan"}, {"propu"}, {"lrtdp", "vi"}}
	done, skipped, unsafe, bugs, faults, mutants := 0, 0, 0, 0, 0, 0
	caught := map[string]int{}
	for seed := uint64(1); done < models; seed++ {
		tc, err := sconf.Generate(seed, gen.Options{MaxOutcomes: 1 + int(seed%3), MaxRange: 10, MaxVars: 3})
		if err != nil {
			t.Fatal(err)
		}
		if tc == nil {
			skipped++
			continue
		}
		r := safety.Inf
		if seed%3 == 0 {
			r = 1
		}
		task, err := NewSafetyTask(tc.M, tc.Prop, tc.Dec, tc.Pol.Name)
		if err != nil {
			skipped++
			continue
		}
		done++
		res, err := SafetyTest(context.Background(), []*SafetyTask{task}, SafetyOptions{Config: SafetyConfigs[seed%5], Runs: 30, Seed: seed,
			Oracles: oracles[seed%4], Radius: &r, Limits: SafetyLimits{MaxLen: 200}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		pol, err := symbolic.Instantiate(tc.M, tc.Pol)
		if err != nil {
			t.Fatal(err)
		}
		ref := &safetyRef{tc: tc, r: r, safe: sconf.Reference(tc.Gr, tc.Pi, r), policy: pol, buf: make([]uint64, tc.G.Words())}
		for _, c := range res.Cases {
			if !c.Analysed {
				t.Fatalf("seed %d: run %d not analysed", seed, c.Run.Index)
			}
			unsafe++
			bugs += len(c.Bugs)
			faults += len(c.Faults)
			if err := ref.check(c); err != nil {
				t.Errorf("seed %d (radius %v, %s, oracles %v): %v", seed, r, SafetyConfigs[seed%5].Name(), oracles[seed%4], err)
				continue
			}
			if len(c.Faults) > 0 && len(c.Bugs) > 0 {
				for name, mc := range safetyMutants(c, ref) {
					mutants++
					if ref.check(mc) != nil {
						caught[name]++
					} else {
						t.Errorf("seed %d: the mutant %q passes the checks", seed, name)
					}
				}
			}
		}
	}
	t.Logf("safety conformance: %d models (%d more had nothing to test), %d unsafe runs, %d bugs, %d faults confirmed; %d mutants caught %v", done, skipped, unsafe, bugs, faults, mutants, caught)
	if unsafe < 1000 || bugs < 200 || faults < 150 {
		t.Errorf("only %d unsafe runs, %d bugs, %d faults: the suite tests too little", unsafe, bugs, faults)
	}
}
