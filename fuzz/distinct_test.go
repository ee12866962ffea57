package fuzz

import (
	"testing"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Distinct keeps each bug state and each (state, label) fault once, with
// the first analysed run that shows it, and counts the runs it skips.
func TestDistinct(t *testing.T) {
	st := func(xs ...int) explicit.Step {
		return explicit.Step{State: symbolic.State(xs), Label: symbolic.NoLabel}
	}
	fault := func(step int, s symbolic.State, l symbolic.LabelID) SafetyFault {
		return SafetyFault{Step: step, State: s, Label: l, Outcome: symbolic.State{9}, Alt: symbolic.NoLabel}
	}
	res := &SafetyResult{Cases: []*SafetyCase{
		{Run: &SafetyRun{Steps: []explicit.Step{st(1), st(2), st(3)}, At: time.Second}, Analysed: true, Bugs: []int{0, 1},
			Faults: []SafetyFault{fault(1, symbolic.State{2}, 0)}},
		{Run: &SafetyRun{Steps: []explicit.Step{st(4), st(3)}, At: 2 * time.Second}}, // not analysed
		{Run: &SafetyRun{Steps: []explicit.Step{st(2), st(1, 0), st(3)}, At: 3 * time.Second}, Analysed: true, Bugs: []int{0, 1},
			Faults: []SafetyFault{fault(0, symbolic.State{2}, 0), fault(0, symbolic.State{2}, 1)}},
		{Run: &SafetyRun{Steps: []explicit.Step{st(5), st(3)}, At: 4 * time.Second}, Analysed: true},
	}}
	d := res.Distinct()
	if d.WithBugs != 2 || d.Unanalysed != 1 {
		t.Errorf("WithBugs %d, Unanalysed %d; want 2 and 1", d.WithBugs, d.Unanalysed)
	}
	want := []DistinctBug{{symbolic.State{1}, 0, 0, time.Second}, {symbolic.State{2}, 0, 1, time.Second}, {symbolic.State{1, 0}, 2, 1, 3 * time.Second}}
	if len(d.Bugs) != len(want) {
		t.Fatalf("bugs %v, want %v", d.Bugs, want)
	}
	for i, b := range d.Bugs {
		if stateKey(b.State) != stateKey(want[i].State) || b.Case != want[i].Case || b.Step != want[i].Step || b.At != want[i].At {
			t.Errorf("bug %d: %+v, want %+v", i, b, want[i])
		}
	}
	if len(d.Faults) != 2 || d.Faults[0].Case != 0 || d.Faults[0].Label != 0 || d.Faults[1].Case != 2 || d.Faults[1].Label != 1 {
		t.Errorf("faults %+v, want label 0 from run 0 and label 1 from run 2", d.Faults)
	}
}
