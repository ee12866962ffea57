package conformance

// The goal-reaching question (papers 001 and 003, vigil test --mode goal):
// is a state a bug, i.e. does some policy reach the goal on every run in
// fewer steps than the tested one (or at all, where it fails)? Costs are
// steps, outcomes adversarial. GoalBugs runs a tester on generated models
// and re-decides every bug it reports with a reference that shares no code
// with the explicit engine -- successors straight from the IR
// (symbolic.Cond.Holds, symbolic.Expr.Eval), the policy through
// symbolic.Instantiate, the policy's value by plain recursion and the
// optimal value V* by value iteration -- and replays its evidence runs.

import (
	"context"
	"fmt"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// GoalOverride is one decision of a bug's patch: in State take Label.
type GoalOverride struct {
	State symbolic.State
	Label symbolic.LabelID
}

// GoalBug is a reported bug with its evidence: the policy patched with
// Patch reaches the goal from State on every run within Cost steps (Plan
// is a longest run of it), while the policy's run PolicyRun ends as
// PolicyEnd says: "goal" (after more steps than Cost), "beyond" (Cost or
// more steps without the goal), or a failure: "loop", "unsafe", "deadlock",
// "stuck".
type GoalBug struct {
	State       symbolic.State
	Patch       []GoalOverride
	Cost        int
	Plan        []explicit.Step
	PolicyRun   []explicit.Step
	PolicyEnd   string
	Qualitative bool // the policy never reaches the goal
}

// GoalAnswer is a tester's answer on one model: the states it tested and
// the bugs among them it reports.
type GoalAnswer struct {
	Tested []symbolic.State
	Bugs   []GoalBug
}

// GoalTester tests the policy pd of m against prop's goal (seed varies its
// random choices). An error means the model has nothing to test (no start
// state, every start state terminal): GoalBugs skips it.
type GoalTester func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, seed uint64) (GoalAnswer, error)

// GoalOptions select the models and what is required.
type GoalOptions struct {
	Models    int                           // models with something to test (default 500)
	FirstSeed uint64                        // default 1
	Gen       func(seed uint64) gen.Options // generator options per seed (default: gen's defaults)
	MinBugs   int                           // fail when fewer bugs are reported in all (the suite would test too little); default 1
	// Complete requires the tester to report every bug among its tested
	// states (for exact testers such as the optimal oracle).
	Complete bool
	// Fair: outcomes are fair, not adversarial; the objective is
	// qualitative (reach the goal with probability 1) and Cost is the
	// length of the plan shown, not a bound over all runs.
	Fair bool
}

// GoalBugs fails t on a reported bug the reference refutes, evidence that
// does not replay, or (with Complete) a missed bug.
func GoalBugs(t *testing.T, tester GoalTester, opt GoalOptions) {
	t.Helper()
	if opt.Models <= 0 {
		opt.Models = 500
	}
	if opt.FirstSeed == 0 {
		opt.FirstSeed = 1
	}
	opt.FirstSeed, opt.Models = Campaign(opt.FirstSeed, opt.Models)
	models, tested, bugs, skipped := 0, 0, 0, 0
	for seed := opt.FirstSeed; models < opt.Models; seed++ {
		var gopt gen.Options
		if opt.Gen != nil {
			gopt = opt.Gen(seed)
		}
		gopt.RangeErrors = false
		m := gen.Model(seed, gopt)
		prop := m.Properties[0]
		if prop.Goal == nil {
			continue
		}
		ans, err := tester(context.Background(), m, prop, m.Policies[0], seed)
		if err != nil {
			skipped++
			continue
		}
		models++
		tested += len(ans.Tested)
		pol, err := symbolic.Instantiate(m, m.Policies[0])
		if err != nil {
			t.Fatal(err)
		}
		ref := &refModel{m: m, prop: prop, policy: pol, fair: opt.Fair}
		reported := map[string]bool{}
		for i := range ans.Bugs {
			b := &ans.Bugs[i]
			bugs++
			reported[fmt.Sprint(b.State)] = true
			if err := ref.checkBug(b); err != nil {
				t.Errorf("seed %d: %v", seed, err)
			}
		}
		if opt.Complete {
			for _, s := range ans.Tested {
				if !reported[fmt.Sprint(s)] && ref.optimal(s) < ref.value(s, nil) {
					t.Errorf("seed %d: the tester misses the bug at %v", seed, s)
				}
			}
		}
	}
	t.Logf("goal conformance: %d models (%d more had nothing to test), %d states tested, %d bugs confirmed", models, skipped, tested, bugs)
	// A tester that tests nothing, or finds nothing, is never refuted:
	// require it to test every model and to report bugs.
	if tested < models {
		t.Errorf("only %d states tested on %d models: the tester tests too little", tested, models)
	}
	if bugs < max(opt.MinBugs, 1) {
		t.Errorf("only %d bugs on %d models: the suite tests too little", bugs, models)
	}
}

const refInf = 1 << 30

// refModel is the reference semantics of one model, property and policy.
type refModel struct {
	fair   bool
	m      *symbolic.Model
	prop   *symbolic.Property
	policy symbolic.Policy
}

func (r *refModel) status(s symbolic.State) explicit.Status {
	if r.prop.Unsafe.Holds(s) {
		return explicit.Unsafe
	}
	if r.prop.Goal.Holds(s) {
		return explicit.Goal
	}
	return explicit.Open
}

func (r *refModel) app(s symbolic.State) []bool {
	app := make([]bool, len(r.m.Labels))
	r.m.Applicable(s, app)
	return app
}

// succ returns the distinct successors of label l in s.
func (r *refModel) succ(s symbolic.State, l symbolic.LabelID) []symbolic.State {
	var out []symbolic.State
	seen := map[string]bool{}
	for i := range r.m.Commands {
		c := &r.m.Commands[i]
		if c.Label != l || !c.Guard.Holds(s) {
			continue
		}
		for _, o := range c.Outcomes {
			t := append(symbolic.State(nil), s...)
			for _, a := range o.Assigns {
				t[a.Var] = a.Value.Eval(s)
			}
			if k := fmt.Sprint(t); !seen[k] {
				seen[k] = true
				out = append(out, t)
			}
		}
	}
	return out
}

func (r *refModel) decide(s symbolic.State, patch map[string]symbolic.LabelID) symbolic.LabelID {
	if l, ok := patch[fmt.Sprint(s)]; ok {
		return l
	}
	app := r.app(s)
	l, err := symbolic.Decide(r.policy, s, func(l symbolic.LabelID) bool { return app[l] }, nil)
	if err != nil {
		panic(err)
	}
	return l
}

// value is the worst-case number of steps of the (patched) policy to the
// goal, refInf when some run never gets there.
func (r *refModel) value(s symbolic.State, patch map[string]symbolic.LabelID) int {
	if r.fair {
		return r.fairValue(s, patch)
	}
	onStack := map[string]bool{}
	memo := map[string]int{}
	var rec func(s symbolic.State) int
	rec = func(s symbolic.State) int {
		switch r.status(s) {
		case explicit.Goal:
			return 0
		case explicit.Unsafe:
			return refInf
		}
		k := fmt.Sprint(s)
		if v, ok := memo[k]; ok {
			return v
		}
		if onStack[k] {
			return refInf
		}
		l := r.decide(s, patch)
		if l == symbolic.NoLabel || !r.app(s)[l] {
			return refInf
		}
		onStack[k] = true
		worst := 0
		for _, t := range r.succ(s, l) {
			worst = max(worst, rec(t))
		}
		onStack[k] = false
		v := min(refInf, worst+1)
		memo[k] = v
		return v
	}
	return rec(s)
}

// optimal is V*(s) by value iteration over the states reachable from s.
func (r *refModel) optimal(s symbolic.State) int {
	if r.fair {
		return r.fairOptimal(s)
	}
	states, groups := r.space(s)
	v := make([]int, len(states))
	for i := range v {
		v[i] = refInf
		if r.status(states[i]) == explicit.Goal {
			v[i] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for i, gs := range groups {
			for _, g := range gs {
				w := 0
				for _, j := range g {
					w = max(w, v[j])
				}
				if w < refInf && w+1 < v[i] {
					v[i], changed = w+1, true
				}
			}
		}
	}
	return v[0]
}

// replay checks that run follows the (patched) policy from its first
// state: each step takes the policy's label, and the next state is one of
// that label's successors.
func (r *refModel) replay(run []explicit.Step, patch map[string]symbolic.LabelID) error {
	for i := 0; i+1 < len(run); i++ {
		s := run[i].State
		if l := r.decide(s, patch); l != run[i].Label {
			return fmt.Errorf("step %d: label %d, the policy takes %d", i, run[i].Label, l)
		}
		ok := false
		for _, t := range r.succ(s, run[i].Label) {
			ok = ok || fmt.Sprint(t) == fmt.Sprint(run[i+1].State)
		}
		if !ok {
			return fmt.Errorf("step %d: %v is no successor of %v", i, run[i+1].State, s)
		}
	}
	return nil
}

// checkBug re-decides one reported bug with the reference.
func (r *refModel) checkBug(b *GoalBug) error {
	patch := map[string]symbolic.LabelID{}
	for _, o := range b.Patch {
		if !r.app(o.State)[o.Label] {
			return fmt.Errorf("patch label %d not applicable in %v", o.Label, o.State)
		}
		if r.decide(o.State, nil) == o.Label {
			return fmt.Errorf("patch at %v repeats the policy's label: not a fault", o.State)
		}
		patch[fmt.Sprint(o.State)] = o.Label
	}
	vpi, vpatch, vstar := r.value(b.State, nil), r.value(b.State, patch), r.optimal(b.State)
	switch {
	case vstar >= vpi:
		return fmt.Errorf("false bug at %v: V*=%d, V^pi=%d", b.State, vstar, vpi)
	case !r.fair && vpatch != b.Cost:
		return fmt.Errorf("bug at %v: the patch takes %d steps, the report says %d", b.State, vpatch, b.Cost)
	case vpatch >= vpi:
		return fmt.Errorf("bug at %v: the patch (%d) is no better than the policy (%d)", b.State, vpatch, vpi)
	case b.Qualitative != (vpi == refInf):
		return fmt.Errorf("bug at %v: qualitative %v but V^pi = %d", b.State, b.Qualitative, vpi)
	}
	if err := r.replay(b.Plan, patch); err != nil {
		return fmt.Errorf("bug at %v: plan: %v", b.State, err)
	}
	if last := b.Plan[len(b.Plan)-1].State; r.status(last) != explicit.Goal || len(b.Plan)-1 > b.Cost {
		return fmt.Errorf("bug at %v: the plan ends in %v after %d steps", b.State, last, len(b.Plan)-1)
	}
	if err := r.replay(b.PolicyRun, nil); err != nil {
		return fmt.Errorf("bug at %v: policy run: %v", b.State, err)
	}
	run := b.PolicyRun
	last := run[len(run)-1].State
	switch b.PolicyEnd {
	case "goal":
		if r.status(last) != explicit.Goal || len(run)-1 != vpi {
			return fmt.Errorf("bug at %v: the policy's run ends in %v after %d steps, V^pi=%d", b.State, last, len(run)-1, vpi)
		}
	case "beyond":
		if len(run)-1 < b.Cost || r.status(last) == explicit.Goal {
			return fmt.Errorf("bug at %v: the policy's run of %d steps does not show it needs more than %d", b.State, len(run)-1, b.Cost)
		}
	case "unsafe", "stuck", "deadlock", "loop", "trap":
		ok := false
		switch b.PolicyEnd {
		case "unsafe":
			ok = r.status(last) == explicit.Unsafe
		case "stuck", "deadlock":
			l := r.decide(last, nil)
			ok = r.status(last) == explicit.Open && (l == symbolic.NoLabel || !r.app(last)[l])
		case "loop":
			for _, st := range run[:len(run)-1] {
				ok = ok || fmt.Sprint(st.State) == fmt.Sprint(last)
			}
		case "trap":
			ok = r.fair && r.fairValue(last, nil) == refInf
		}
		if !ok {
			return fmt.Errorf("bug at %v: the policy's run does not show %s", b.State, b.PolicyEnd)
		}
	default:
		return fmt.Errorf("bug at %v: unknown policy run end %q", b.State, b.PolicyEnd)
	}
	return nil
}

// space explores every state reachable from s (over all labels): states
// (s first) and, per state, the successor indices of each applicable
// label (none for terminal states).
func (r *refModel) space(s symbolic.State) ([]symbolic.State, [][][]int) {
	var states []symbolic.State
	idx := map[string]int{}
	add := func(t symbolic.State) {
		if _, ok := idx[fmt.Sprint(t)]; !ok {
			idx[fmt.Sprint(t)] = len(states)
			states = append(states, t)
		}
	}
	add(s)
	var groups [][][]int
	for i := 0; i < len(states); i++ {
		var gs [][]int
		if r.status(states[i]) == explicit.Open {
			for l, ok := range r.app(states[i]) {
				if !ok {
					continue
				}
				var g []int
				for _, t := range r.succ(states[i], symbolic.LabelID(l)) {
					add(t)
					g = append(g, idx[fmt.Sprint(t)])
				}
				gs = append(gs, g)
			}
		}
		groups = append(groups, gs)
	}
	return states, groups
}

// closure returns the states the (patched) policy reaches from s, and
// false when one of them is unsafe, a deadlock or stuck.
func (r *refModel) closure(s symbolic.State, patch map[string]symbolic.LabelID) ([]symbolic.State, map[string][]string, bool) {
	seen := map[string]bool{fmt.Sprint(s): true}
	succ := map[string][]string{}
	states := []symbolic.State{s}
	for i := 0; i < len(states); i++ {
		u := states[i]
		switch r.status(u) {
		case explicit.Goal:
			continue
		case explicit.Unsafe:
			return nil, nil, false
		}
		l := r.decide(u, patch)
		if l == symbolic.NoLabel || !r.app(u)[l] {
			return nil, nil, false
		}
		for _, t := range r.succ(u, l) {
			k := fmt.Sprint(t)
			succ[fmt.Sprint(u)] = append(succ[fmt.Sprint(u)], k)
			if !seen[k] {
				seen[k] = true
				states = append(states, t)
			}
		}
	}
	return states, succ, true
}

// fairValue is 0 when the (patched) policy reaches the goal from s with
// probability 1 under fair outcomes, refInf otherwise.
func (r *refModel) fairValue(s symbolic.State, patch map[string]symbolic.LabelID) int {
	states, succ, ok := r.closure(s, patch)
	if !ok {
		return refInf
	}
	good := map[string]bool{}
	for _, u := range states {
		if r.status(u) == explicit.Goal {
			good[fmt.Sprint(u)] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for k, ts := range succ {
			if good[k] {
				continue
			}
			for _, t := range ts {
				if good[t] {
					good[k], changed = true, true
					break
				}
			}
		}
	}
	for _, u := range states {
		if !good[fmt.Sprint(u)] {
			return refInf
		}
	}
	return 0
}

// fairOptimal is 0 when some policy reaches the goal from s with
// probability 1 under fair outcomes (a strong-cyclic plan exists), by
// the textbook iteration: drop states that cannot reach the goal using
// labels whose successors all stay in the set, until nothing changes.
func (r *refModel) fairOptimal(s symbolic.State) int {
	states, groups := r.space(s)
	alive := make([]bool, len(states))
	for i := range alive {
		alive[i] = r.status(states[i]) != explicit.Unsafe
	}
	for {
		reach := make([]bool, len(states))
		for i := range states {
			reach[i] = alive[i] && r.status(states[i]) == explicit.Goal
		}
		for changed := true; changed; {
			changed = false
			for i, gs := range groups {
				if reach[i] || !alive[i] {
					continue
				}
				for _, g := range gs {
					all, some := true, false
					for _, j := range g {
						all = all && alive[j]
						some = some || reach[j]
					}
					if all && some {
						reach[i], changed = true, true
						break
					}
				}
			}
		}
		changed := false
		for i := range alive {
			if alive[i] && !reach[i] {
				alive[i], changed = false, true
			}
		}
		if !changed {
			break
		}
	}
	if alive[0] {
		return 0
	}
	return refInf
}
