package fuzz

// Soundness of goal-reaching testing on generated models: every bug the
// fuzzer and its oracles report is re-decided here by an independent
// reference that shares no code with them -- successors straight from the
// IR (symbolic.Cond.Holds, symbolic.Expr.Eval), the policy through
// symbolic.Instantiate, the policy's value by plain recursion and the
// optimal value V* by value iteration -- and the evidence runs are
// replayed step by step. No false bug is allowed.

import (
	"context"
	"fmt"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

const goalRefInf = 1 << 30

// refModel is the reference semantics of one model, property and policy.
type goalRef struct {
	m      *symbolic.Model
	prop   *symbolic.Property
	policy symbolic.Policy
}

func (r *goalRef) status(s symbolic.State) explicit.Status {
	if r.prop.Unsafe.Holds(s) {
		return explicit.Unsafe
	}
	if r.prop.Goal.Holds(s) {
		return explicit.Goal
	}
	return explicit.Open
}

func (r *goalRef) app(s symbolic.State) []bool {
	app := make([]bool, len(r.m.Labels))
	r.m.Applicable(s, app)
	return app
}

// succ returns the distinct successors of label l in s.
func (r *goalRef) succ(s symbolic.State, l symbolic.LabelID) []symbolic.State {
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

func (r *goalRef) decide(s symbolic.State, patch map[string]symbolic.LabelID) symbolic.LabelID {
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
func (r *goalRef) value(s symbolic.State, patch map[string]symbolic.LabelID) int {
	onStack := map[string]bool{}
	memo := map[string]int{}
	var rec func(s symbolic.State) int
	rec = func(s symbolic.State) int {
		switch r.status(s) {
		case explicit.Goal:
			return 0
		case explicit.Unsafe:
			return goalRefInf
		}
		k := fmt.Sprint(s)
		if v, ok := memo[k]; ok {
			return v
		}
		if onStack[k] {
			return goalRefInf
		}
		l := r.decide(s, patch)
		if l == symbolic.NoLabel || !r.app(s)[l] {
			return goalRefInf
		}
		onStack[k] = true
		worst := 0
		for _, t := range r.succ(s, l) {
			worst = max(worst, rec(t))
		}
		onStack[k] = false
		v := min(goalRefInf, worst+1)
		memo[k] = v
		return v
	}
	return rec(s)
}

// optimal is V*(s) by value iteration over the states reachable from s.
func (r *goalRef) optimal(s symbolic.State) int {
	var states []symbolic.State
	idx := map[string]int{}
	add := func(t symbolic.State) {
		if _, ok := idx[fmt.Sprint(t)]; !ok {
			idx[fmt.Sprint(t)] = len(states)
			states = append(states, t)
		}
	}
	add(s)
	type group []int
	var groups [][]group
	for i := 0; i < len(states); i++ {
		var gs []group
		if r.status(states[i]) == explicit.Open {
			app := r.app(states[i])
			for l, ok := range app {
				if !ok {
					continue
				}
				var g group
				for _, t := range r.succ(states[i], symbolic.LabelID(l)) {
					add(t)
					g = append(g, idx[fmt.Sprint(t)])
				}
				gs = append(gs, g)
			}
		}
		groups = append(groups, gs)
	}
	v := make([]int, len(states))
	for i := range v {
		v[i] = goalRefInf
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
				if w < goalRefInf && w+1 < v[i] {
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
func (r *goalRef) replay(run []explicit.Step, patch map[string]symbolic.LabelID) error {
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
func (r *goalRef) checkBug(b *GoalBug) error {
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
	case vpatch != b.Cost:
		return fmt.Errorf("bug at %v: the patch takes %d steps, the report says %d", b.State, vpatch, b.Cost)
	case vpatch >= vpi:
		return fmt.Errorf("bug at %v: the patch (%d) is no better than the policy (%d)", b.State, vpatch, vpi)
	case b.Qualitative != (vpi == goalRefInf):
		return fmt.Errorf("bug at %v: qualitative %v but V^pi = %d", b.State, b.Qualitative, vpi)
	}
	if err := r.replay(b.Plan, patch); err != nil {
		return fmt.Errorf("bug at %v: plan: %v", b.State, err)
	}
	if last := b.Plan[len(b.Plan)-1].State; r.status(last) != explicit.Goal || len(b.Plan)-1 > b.Cost {
		return fmt.Errorf("bug at %v: the plan ends in %v after %d steps", b.State, last, len(b.Plan)-1)
	}
	if err := r.replay(b.Policy.Run, nil); err != nil {
		return fmt.Errorf("bug at %v: policy run: %v", b.State, err)
	}
	run := b.Policy.Run
	last := run[len(run)-1].State
	switch b.Policy.Outcome {
	case GoalReached:
		if r.status(last) != explicit.Goal || len(run)-1 != vpi {
			return fmt.Errorf("bug at %v: the policy's run ends in %v after %d steps, V^pi=%d", b.State, last, len(run)-1, vpi)
		}
	case GoalBeyond:
		if len(run)-1 < b.Cost || r.status(last) == explicit.Goal {
			return fmt.Errorf("bug at %v: the policy's run of %d steps does not show it needs more than %d", b.State, len(run)-1, b.Cost)
		}
	case GoalFails:
		ok := false
		switch b.Policy.Why {
		case GoalFailUnsafe:
			ok = r.status(last) == explicit.Unsafe
		case GoalFailStuck, GoalFailDeadlock:
			l := r.decide(last, nil)
			ok = r.status(last) == explicit.Open && (l == symbolic.NoLabel || !r.app(last)[l])
		case GoalFailLoop:
			for _, st := range run[:len(run)-1] {
				ok = ok || fmt.Sprint(st.State) == fmt.Sprint(last)
			}
		}
		if !ok {
			return fmt.Errorf("bug at %v: the policy's run does not show %s", b.State, b.Policy.Why)
		}
	default:
		return fmt.Errorf("bug at %v with policy value %v", b.State, b.Policy)
	}
	return nil
}

func TestGoalConformance(t *testing.T) {
	models, bugs, checked, skipped, poolStates := 0, 0, 0, 0, 0
	byOracle := map[string]int{}
	for seed := uint64(1); models < 1000; seed++ {
		// Half the models have one outcome per command: adversarial
		// outcomes make most states unsolvable, so bugs are rarer there.
		m := gen.Model(seed, gen.Options{MaxOutcomes: 1 + int(seed%2)*2, MaxRange: 8})
		prop := m.Properties[0]
		if prop.Goal == nil {
			continue
		}
		pd := m.Policies[0]
		d, err := explicit.NewDecider(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		task, err := NewGoalTask(m, prop, d, pd.Name)
		if err != nil {
			t.Fatal(err)
		}
		pool, err := task.Fuzz(context.Background(), PoolOptions{MaxPool: 12, Seed: seed, Biases: []string{[]string{"polqual", "loop", "detour", "surface", "novelty"}[seed%5]}, MaxSteps: 20_000})
		if err != nil {
			skipped++ // no start state, or every start state is terminal
			continue
		}
		models++
		poolStates += len(pool.Entries)
		res, err := task.Confirm(context.Background(), pool, OracleOptions{All: true, Depth: 2, Bound: 1000, MaxStates: 10_000, OptimalStates: 5_000, Expansions: 500})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		pol, err := symbolic.Instantiate(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		ref := &goalRef{m: m, prop: prop, policy: pol}
		for _, b := range res.Bugs {
			bugs++
			if err := ref.checkBug(b); err != nil {
				t.Errorf("seed %d (%s): %v", seed, b.Oracle, err)
			}
		}
		// Every oracle's finding, not just the first, must stand.
		for name, idx := range res.Found {
			byOracle[name] += len(idx)
			for _, i := range idx {
				s := pool.Entries[i].State
				if ref.optimal(s) >= ref.value(s, nil) {
					t.Errorf("seed %d: oracle %s reports a false bug at %v", seed, name, s)
				}
				checked++
			}
		}
		// The optimal oracle must find every bug in the pool (its state
		// budget covers these models).
		for i, e := range pool.Entries {
			if ref.optimal(e.State) < ref.value(e.State, nil) && !goalContains(res.Found[OracleOptimal], i) {
				t.Errorf("seed %d: the optimal oracle misses the bug at %v", seed, e.State)
			}
		}
	}
	t.Logf("%d models tested (%d pool states; %d more had nothing to test), %d bugs (%d oracle findings checked: %v)", models, poolStates, skipped, bugs, checked, byOracle)
	if bugs < 50 {
		t.Errorf("only %d bugs on %d models: the suite tests too little", bugs, models)
	}
}

func goalContains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
