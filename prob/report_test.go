package prob_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// coin is ExampleAsk's model: toss reaches the goal or the unsafe state
// with 1/2 each, wait loops.
func coin(t *testing.T) *explicit.Generator {
	x := symbolic.V(0)
	m := &symbolic.Model{
		Name:   "coin",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 2, HasInit: true, Init: 1}},
		Labels: []symbolic.Label{{Name: "toss"}, {Name: "wait"}},
		Commands: []symbolic.Command{
			{Label: 0, Guard: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(1)), Outcomes: []symbolic.Outcome{
				{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(2)}}},
				{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(0)}}},
			}},
			{Label: 1, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{}}},
		},
	}
	p := &symbolic.Property{Name: "p", Unsafe: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(0)), Goal: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(2))}
	return testutil.Generator(t, m, p)
}

// The figures of an exact answer carry the rational value, the label
// that attains it, and the JSON keys vigil prob --json prints; the text
// report shows them as vigil prob does.
func TestFiguresAndText(t *testing.T) {
	g := coin(t)
	ctx := context.Background()
	pm, err := prob.Build(ctx, g, prob.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := prob.Ask(ctx, pm, prob.Query{Name: "p", Target: explicit.Unsafe, Max: true}, prob.SolveOptions{Method: prob.Exact})
	if err != nil {
		t.Fatal(err)
	}
	f := prob.NewFigures(pm, a, "", false, "exact")
	if f.Exact != "1/2" || f.Value != 0.5 || len(f.Labels) != 1 || f.Labels[0] != "toss" || f.Worst != "x=1" || f.Starts != 1 {
		t.Fatalf("figures %+v", f)
	}
	b, _ := json.Marshal([]prob.Figures{f})
	for _, key := range []string{`"query":"Pmax=? [F unsafe]"`, `"exact":"1/2"`, `"worst_start_label":["toss"]`, `"prob0_states":`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("JSON lacks %s: %s", key, b)
		}
	}
	rep := &prob.Report{Model: "coin", Property: "p", Method: "exact", States: pm.NumStates(), Choices: pm.NumChoices(), Figures: []prob.Figures{f}}
	var w bytes.Buffer
	if err := rep.WriteText(&w); err != nil {
		t.Fatal(err)
	}
	want := "model coin, property p, over all label choices (MDP)\n  Pmax=? [F unsafe] = 1/2 ≈ 0.5\n    attained by taking toss in x=1\nengine prob (exact): "
	if !strings.HasPrefix(w.String(), want) {
		t.Errorf("text:\n%s\nwant prefix:\n%s", w.String(), want)
	}
}

// The memory note is silent for small models and names the bound and
// the limit for large ones.
func TestEstimateNote(t *testing.T) {
	if n := (prob.Estimate{Bound: 10, BytesPerState: 50, Bytes: 500}).Note(0); n != "" {
		t.Errorf("small model: %q", n)
	}
	e := prob.Estimate{Log2Bound: 40, Bound: 1 << 40, BytesPerState: 100, Bytes: 100 * (1 << 40)}
	if n := e.Note(0); !strings.HasPrefix(n, "at most 2^40.0 states (the product of the variables' ranges;") || !strings.HasSuffix(n, "up to 100.0 TiB") {
		t.Errorf("large model: %q", n)
	}
	if n := e.Note(1 << 35); !strings.Contains(n, "(--max-states)") {
		t.Errorf("with a limit: %q", n)
	}
}

// SolveProperty answers the property's queries on the MDP, keeps the
// safest scheduler, reports its phases, and its report is the text vigil
// prob prints.
func TestSolveProperty(t *testing.T) {
	g := coin(t)
	var phases []string
	done := 0
	res, err := prob.SolveProperty(context.Background(), g, g.Prop, prob.PropertyOptions{Method: prob.Exact,
		BeforeBuild: func(_ *explicit.Generator, phase string, _ prob.Options) { phases = append(phases, phase) },
		Done:        func() { done++ }})
	if err != nil {
		t.Fatal(err)
	}
	var queries []string
	for _, f := range res.Report.Figures {
		queries = append(queries, f.Query+" = "+f.Exact)
	}
	if got := strings.Join(queries, "; "); !strings.Contains(got, "Pmax=? [F unsafe] = 1/2") || !strings.Contains(got, "Pmin=? [F unsafe] = 0") {
		t.Errorf("figures: %s", got)
	}
	if len(phases) != 1 || phases[0] != prob.PhaseModel || done != 1+len(res.Report.Figures) {
		t.Errorf("phases %v, %d ends for %d queries", phases, done, len(res.Report.Figures))
	}
	// The safest scheduler waits in x=1.
	if res.Scheduler == nil || g.M.Labels[res.Model.Schedule(res.Scheduler)[0]].Name != "wait" {
		t.Errorf("scheduler %v", res.Scheduler)
	}
	var w bytes.Buffer
	res.Report.WriteText(&w)
	if !strings.HasPrefix(w.String(), "model coin, property p, over all label choices (MDP)\n") {
		t.Errorf("text:\n%s", w.String())
	}
}
