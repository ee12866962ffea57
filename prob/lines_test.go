package prob_test

import (
	"context"
	"strings"
	"testing"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
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

// SolveProperties compiles each property other than the generator's own
// with the caller's context: a model of ten thousand commands stops there
// at once when the context is done (it compiled to the end before, with
// explicit.New, deaf to --timeout and Ctrl-C).
func TestSolvePropertiesCompileStops(t *testing.T) {
	x := symbolic.V(0)
	m := &symbolic.Model{Name: "big", Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 9, HasInit: true}}, Labels: []symbolic.Label{{Name: "a"}}}
	for k := range 10000 {
		m.Commands = append(m.Commands, symbolic.Command{Guard: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(k%10)),
			Outcomes: []symbolic.Outcome{{Prob: 1, Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit((k + 1) % 10)}}}}})
	}
	p1 := &symbolic.Property{Name: "p1", Unsafe: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(9))}
	p2 := &symbolic.Property{Name: "p2", Unsafe: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(8))}
	m.Properties = []*symbolic.Property{p1, p2}
	g, err := explicit.New(m, p1)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err = prob.SolveProperties(ctx, g, []*symbolic.Property{p2}, prob.PropertyOptions{}, func(*prob.PropertyResult) error {
		t.Fatal("answered after the context was done")
		return nil
	})
	if err != context.Canceled {
		t.Fatalf("error %v, want the context's own (from compiling p2, before any build)", err)
	}
}
