package fuzz

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestGoalValueCosts: a run's cost is the sum of its commands' costs
// (spec.md, "Costs"), while the bound still counts steps: from x == 0
// the policy jumps (cost 5) to 2 and walks (cost 1) to 4: 5 + 1 + 1 = 7,
// in 3 steps; a patch that walks all the way costs 4 in 4 steps, a
// better plan.
func TestGoalValueCosts(t *testing.T) {
	const spec = `
var x : 0 .. 4 = 0
action jump when x == 0 cost 5 -> x' = 2
action walk when x < 4 -> x' = x + 1
policy rules pi {
    when x == 0 -> jump
    otherwise -> walk
}
property p { start x == 0 unsafe false goal x == 4 }
`
	m := testutil.LoadSource(t, "cost.spec", spec)
	task := goalTask(t, m)
	v, err := task.GoalValueOf(symbolic.State{0}, nil, 100, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if v.Outcome != GoalReached || v.Cost != 7 {
		t.Fatalf("policy: %v, want reached at cost 7", v)
	}
	if v, _ := task.GoalValueOf(symbolic.State{0}, nil, 2, 1000); v.Outcome != GoalBeyond {
		t.Errorf("bound 2 (steps): %v, want beyond", v)
	}
	walk := m.LabelIndex("walk")
	p, err := task.GoalValueOf(symbolic.State{0}, []GoalOverride{{State: symbolic.State{0}, Label: walk}}, 100, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if p.Outcome != GoalReached || p.Cost != 4 || !v.Better(p.Cost) {
		t.Errorf("patched: %v, want reached at cost 4, better than %v", p, v)
	}
}
