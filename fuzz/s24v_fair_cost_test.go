package fuzz

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestS24vFairCostliest: under fair outcomes an outcome of probability 0
// never happens, in costliest (the costliest command leading to a
// successor) too. When two commands of a label have costs, costliest
// applied every outcome, and the range error of one of probability 0
// stopped fair goal testing (exit 1) where vigil prob gives P=1; and a
// successor that the costliest command makes only by an outcome of
// probability 0 was named by the first command of positive probability
// leading there, not the costliest (x=1 cost 1, not 3: a plan through it
// looked cheaper than it is).
func TestS24vFairCostliest(t *testing.T) {
	m := testutil.LoadSource(t, "c.spec", `model c
var x : 0 .. 3 = 0
action a when x == 0 cost 1 -> 1: x' = 1 | 0: x' = x + 9
action a when x == 0 cost 2 -> x' = 1
action b when x == 1 -> x' = 2
policy rules pi {
    when x == 0 -> a
    otherwise -> b
}
property p { start x == 0  unsafe false  goal x == 2 }
`)
	task := goalTask(t, m)
	task.Fair = true
	v, err := task.GoalValueOf(symbolic.State{0}, nil, 100, 100)
	if err != nil {
		t.Fatalf("fair: %v", err)
	}
	if v.Outcome != GoalReached {
		t.Errorf("fair: %+v; want the goal reached (with probability 1, as vigil prob says)", v)
	}
	task.Fair = false
	if _, err := task.GoalValueOf(symbolic.State{0}, nil, 100, 100); err == nil {
		t.Errorf("adversarial outcomes: no range error (outcome 2 of a's first command sets x to 9)")
	}

	m = testutil.LoadSource(t, "k.spec", `model k
var x : 0 .. 3 = 0
action a when x == 0 cost 1 -> x' = 1
action a when x == 0 cost 5 -> 1: x' = 2 | 0: x' = 1
action a when x == 0 cost 3 -> x' = 1
action b when x >= 1 -> x' = 3
policy rules pi { when x == 0 -> a  otherwise -> b }
property p { start x == 0  unsafe false  goal x == 3 }
`)
	task = goalTask(t, m)
	task.Fair = true
	succ, err := task.succs(symbolic.State{0}, m.LabelIndex("a"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range succ {
		if e.s[0] == 1 && e.cmd != 2 {
			t.Errorf("fair: x=1 is named by command %d; want 2 (cost 3: command 1's outcome to x=1 has probability 0)", e.cmd)
		}
	}
	if len(succ) != 2 {
		t.Errorf("fair successors of a in x=0: %+v; want x=1 and x=2", succ)
	}
}
