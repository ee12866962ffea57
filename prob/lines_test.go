package prob_test

import (
	"context"
	"strings"
	"testing"

	"vigil/prob"
)

// ShowProgress turns SolveProperty's callbacks into status lines, and a
// build's or solve's end into "".
func TestShowProgress(t *testing.T) {
	g := coin(t)
	var lines, notes []string
	var o prob.PropertyOptions
	o.ShowProgress(func(l string) { lines = append(lines, l) }, func(n string) { notes = append(notes, n) })
	o.Build(prob.PhaseModel, 2, 4, 3<<20)
	o.Build(prob.PhaseBlame, 2, 4, 0)
	o.Done()
	want := []string{"prob: building the model: 2 states expanded, 4 stored, about 6 MiB", "prob: building the MDP for --blame: 2 states expanded, 4 stored", ""}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("lines %q, want %q", lines, want)
	}
	if _, err := prob.SolveProperty(context.Background(), g, g.Prop, o); err != nil {
		t.Fatal(err)
	}
	if len(notes) != 0 {
		t.Errorf("notes %q for a model of 3 states", notes)
	}
}
