package prob_test

import (
	"bytes"
	"context"
	"testing"

	"vigil/lang/jani"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// askModel answers property name of m exactly.
func askModel(t *testing.T, m *symbolic.Model, name string) *prob.Answer {
	t.Helper()
	p := m.Property(name)
	if p == nil {
		t.Fatalf("no property %s", name)
	}
	q, err := prob.PropertyQuery(p)
	if err != nil {
		t.Fatal(err)
	}
	g, err := explicit.New(m, p)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := prob.Build(context.Background(), g, prob.Options{Exact: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := prob.Ask(context.Background(), pm, q, prob.SolveOptions{Method: prob.Exact, MaxExact: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// exportDecode writes property name of m as JANI and reads it back.
func exportDecode(t *testing.T, m *symbolic.Model, name string) (*symbolic.Model, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := jani.Export(&b, m, m.Property(name), nil); err != nil {
		t.Fatal(err)
	}
	back, _, err := jani.Decode("e.jani", b.Bytes(), nil)
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	return back, b.Bytes()
}

// TestS24vExportUnfiltered: a JANI property with a comparison and no
// filter, on a model of two initial states (Pmax(F x=5) is 1/2 from x=0,
// 1/4 from x=1), answers the same from vigil export --jani's file, and
// the export is a fixed point. vigil prob compares the largest value
// (Pmax) or the smallest (Pmin) with the bound; the export wrote such a
// property under the filter ∀, so Pmax≥0.4 [F x=5], true (1/2 from x=0),
// came back false (1/4 from x=1), and Pmin≤0.3 likewise. Also ψ W φ: its
// unsafe states grew by a conjunct ¬φ on every export ∘ import round;
// and F φ's f_avoid came back written as true U φ, a second round to the
// fixed point.
func TestS24vExportUnfiltered(t *testing.T) {
	cmp := func(op, p string, b string) string {
		return `{"op":"` + op + `","left":` + p + `,"right":` + b + `}`
	}
	pmaxW := `{"op":"Pmax","exp":{"op":"W","left":{"op":"≤","left":"x","right":1},"right":{"op":"=","left":"x","right":5}}}`
	props := map[string]string{
		"maxge": cmp("≥", pmaxF5, "0.4"), "maxgt": cmp(">", pmaxF5, "0.4"),
		"maxle": cmp("≤", pmaxF5, "0.4"), "maxlt": cmp("<", pmaxF5, "0.5"),
		"minge": cmp("≥", pminF5, "0.3"), "minle": cmp("≤", pminF5, "0.3"),
		"mingt": cmp(">", pminF5, "0.25"), "minlt": cmp("<", pminF5, "0.3"),
		"maxeq": cmp("=", pmaxF5, "0.5"), "mineq": cmp("=", pminF5, "0.5"),
		"maxne": cmp("≠", pmaxF5, "0.25"), "gle": cmp("≤", pmaxG, "0.6"),
		"f": pmaxF5, "w": pmaxW, "wfil": `{"op":"filter","fun":"min","states":{"op":"initial"},"values":` + pmaxW + `}`,
	}
	var list []string
	for name, e := range props {
		list = append(list, `{"name":"`+name+`","expression":`+e+`}`)
	}
	src := filterModel("mdp", joinComma(list))
	m, _, err := jani.Decode("m.jani", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range m.Properties {
		name := p.Name // f_avoid too
		want := askModel(t, m, name)
		back, first := exportDecode(t, m, name)
		got := askModel(t, back, name)
		if got.Holds != want.Holds || got.Exact.Cmp(want.Exact) != 0 {
			t.Errorf("%s: exported answers %s (%s), the original %s (%s)", name, got.Holds, got.Exact.RatString(), want.Holds, want.Exact.RatString())
		}
		again, second := exportDecode(t, back, name)
		if !bytes.Equal(first, second) {
			t.Errorf("%s: the second export differs from the first:\n%s\n%s", name, first, second)
		}
		if u, v := back.CondString(back.Property(name).Unsafe), again.CondString(again.Property(name).Unsafe); u != v {
			t.Errorf("%s: unsafe grew from %s to %s", name, u, v)
		}
	}
}

func joinComma(s []string) string {
	var b bytes.Buffer
	for i, x := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(x)
	}
	return b.String()
}
