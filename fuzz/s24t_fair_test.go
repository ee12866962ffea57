package fuzz

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestS24tFairSkipsProbabilityZero: under fair outcomes an outcome of
// probability 0 never happens (the tester took it as possible and
// reported the policy failing through it). Where an outcome of
// probability 0 and one of positive probability make the same state, the
// state stays a successor, named by the outcome that may happen.
func TestS24tFairSkipsProbabilityZero(t *testing.T) {
	m := testutil.LoadSource(t, "w.spec", `model w
var x : 0 .. 3 = 0
action a when x == 0 -> 0: x' = 1 | 1: x' = 1 | 0: x' = 3
action b when x == 2 -> 1: x' = 1 | x' = 3
action stay when x == 3 -> skip
policy rules pi { otherwise -> a }
property p { start x == 0  unsafe false  goal x == 1 }
`)
	task := goalTask(t, m)
	for _, c := range []struct {
		fair bool
		want GoalOutcome
	}{{true, GoalReached}, {false, GoalFails}} {
		task.Fair = c.fair
		v, err := task.GoalValueOf(symbolic.State{0}, nil, 100, 100)
		if err != nil {
			t.Fatal(err)
		}
		if v.Outcome != c.want {
			t.Fatalf("fair %v: %v; want %v", c.fair, v, c.want)
		}
		if c.fair && (len(v.Run) != 2 || v.Run[0].Outcome != 1) {
			t.Errorf("fair run %+v: want one step by outcome 2 (outcome 1 has weight 0)", v.Run)
		}
	}
	// b's unweighted outcome gets what 1 leaves: nothing.
	task.Fair = true
	succ, err := task.succs(symbolic.State{2}, m.LabelIndex("b"))
	if err != nil {
		t.Fatal(err)
	}
	if len(succ) != 1 || succ[0].s[0] != 1 {
		t.Errorf("fair successors of b in x=2: %+v; want x=1 only", succ)
	}
}
