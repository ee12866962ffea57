package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/symbolic"
)

// condStrings renders conditions for comparison.
func condStrings(m *symbolic.Model, cs []*symbolic.Cond) string {
	var out []string
	for _, c := range cs {
		out = append(out, m.CondString(c))
	}
	return strings.Join(out, "; ")
}

// A file with several PA properties names them all unless --property
// chooses one; the objective is the goal and the predicates are recorded
// with their positions, from files or in place.
func TestSeveralPAProperties(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	const file = "testdata/plaja/pa/several.jani"
	err := AddProperty(m, file, file)
	if err == nil || !strings.Contains(err.Error(), "2 PA properties (low, high); choose one with --property NAME") {
		t.Fatalf("no choice: got %v", err)
	}
	if err := AddPropertyNamed(m, file, file, "nope"); err == nil || !strings.Contains(err.Error(), `no PA property "nope"; the file has: low, high`) {
		t.Fatalf("wrong choice: got %v", err)
	}
	if err := AddPropertyNamed(m, file, file, "low"); err != nil {
		t.Fatal(err)
	}
	if err := AddPropertyNamed(m, "", file, "high"); err != nil {
		t.Fatal(err)
	}
	low, high := m.Properties[0], m.Properties[1]
	for _, tc := range []struct{ what, got, want string }{
		{"low name", low.Name, "low"},
		{"low start", m.CondString(low.Start), "x == 0"},
		{"low unsafe", m.CondString(low.Unsafe), "x == 2"},
		{"low goal", m.CondString(low.Goal), "x == 1"},
		{"low predicates", condStrings(m, low.Predicates), "1 <= x; done"},
		{"high name", high.Name, "high"},
		{"high unsafe", m.CondString(high.Unsafe), "x == 3"},
		{"high goal", m.CondString(high.Goal), "done && loc_main == 1"},
		{"high predicates", condStrings(m, high.Predicates), "2 <= x"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if len(low.PredicatePos) != 2 || !strings.HasPrefix(filepath.Base(low.PredicatePos[1].File), "predicates.jani") || low.PredicatePos[1].Line != 2 {
		t.Errorf("low predicate positions %v, want predicates.jani lines 1 and 2", low.PredicatePos)
	}
	d, err := LoadPolicyFileNamed(m, file, "low")
	if err != nil || filepath.Base(d.Interface) != "counter.jani2nnet" {
		t.Errorf("policy of low: %v, %v", d, err)
	}
	if _, err := LoadPolicyFileNamed(m, file, "high"); err == nil {
		t.Error("high names no policy interface: no error")
	}
}

// A predicate over an undeclared variable is an error at its position.
func TestPAPredicateError(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	err := AddProperty(m, "", "testdata/plaja/pa/bad_predicates.jani")
	if err == nil || !strings.Contains(err.Error(), "bad_predicates.jani#properties[0].expression.predicates[0].right:2:") || !strings.Contains(err.Error(), `"y"`) {
		t.Fatalf("got %v", err)
	}
}

// A PA property written in the model (as jani_env models carry one) is a
// property of the model like its others, with no note asking for files.
func TestInlinePAProperty(t *testing.T) {
	m, notes := load(t, "plaja/counter_pa.jani", map[string]string{"N": "3"})
	for _, n := range notes {
		if strings.Contains(n.Msg, "PA") {
			t.Errorf("note %s", n)
		}
	}
	p := m.Property("inline-pa")
	if p == nil {
		var names []string
		for _, q := range m.Properties {
			names = append(names, q.Name)
		}
		t.Fatalf("no property inline-pa among %v", names)
	}
	for _, tc := range []struct{ what, got, want string }{
		{"start", m.CondString(p.Start), "x <= 1"},
		{"unsafe", m.CondString(p.Unsafe), "x == 3"},
		{"goal", m.CondString(p.Goal), "done"},
		{"predicates", condStrings(m, p.Predicates), "2 <= x; done"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if !p.FromModel || len(p.PredicatePos) != 2 || p.PredicatePos[0].Line == 0 {
		t.Errorf("FromModel %v, predicate positions %v", p.FromModel, p.PredicatePos)
	}
}

// The PlaJA corpus: every PA property of its model files imports, and a
// PA property file's objective becomes the goal.
func TestCorpusPAProperties(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "jani", "plaja")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("PlaJA corpus absent (%v): skipping", err)
	}
	n := 0
	for _, f := range []string{"for_pa_cegar.jani", "for_pa_cegar2.jani"} {
		m, notes, err := LoadNotes(filepath.Join(dir, f), nil)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		for _, nt := range notes {
			if strings.Contains(nt.Msg, "PA") {
				t.Errorf("%s: note %s", f, nt)
			}
		}
		for _, p := range m.Properties {
			if p.FromModel {
				n++
			}
		}
	}
	if n != 5 {
		t.Errorf("%d PA properties imported, want 5 (3 + 2)", n)
	}
	bw := filepath.Join(dir, "blocksworld/additional_properties/safety_verification/blocksworld_4_3/compact_starts_cost_predicates_afterwards")
	pas, _ := filepath.Glob(filepath.Join(bw, "pa_*.jani"))
	model := filepath.Join(dir, "blocksworld/cost_terminal/models/legacy_enc/blocksworld_4_3.jani")
	if _, err := os.Stat(model); err != nil || len(pas) == 0 {
		t.Skipf("blocksworld_4_3 model or PA file absent under %s: skipping", dir)
	}
	m, _, err := LoadNotes(model, map[string]string{"item_cost_bound": "4", "failing_probability": "0.1"})
	if err != nil {
		t.Fatal(err)
	}
	if err := AddProperty(m, pas[0], pas[0]); err != nil {
		t.Fatal(err)
	}
	p := m.Properties[len(m.Properties)-1]
	if p.Start == nil || p.Goal != nil || len(p.Predicates) == 0 || len(p.PredicatePos) != len(p.Predicates) {
		t.Errorf("blocksworld PA: start %v, goal %v, %d predicates at %d positions; want a start, no goal, some predicates", p.Start != nil, p.Goal, len(p.Predicates), len(p.PredicatePos))
	}
}

// A PA property with neither reach nor objective would make every verdict
// vacuous: an error. With an objective only, it has no unsafe states.
func TestPAWithoutReach(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bare := write("bare.jani", `{"properties": [{"name": "p", "expression": {"op": "PA", "predicates": []}}]}`)
	if err := AddProperty(m, "", bare); err == nil || !strings.Contains(err.Error(), `neither "reach" (unsafe states) nor "objective"`) {
		t.Errorf("no reach, no objective: %v", err)
	}
	goal := write("goal.jani", `{"properties": [{"name": "p", "expression": {"op": "PA", "objective": {"op": "objective", "goal": "done"}}}]}`)
	if err := AddProperty(m, "", goal); err != nil {
		t.Fatal(err)
	}
	p := m.Properties[len(m.Properties)-1]
	if p.Unsafe.Op != symbolic.CFalse || m.CondString(p.Goal) != "done" {
		t.Errorf("objective only: unsafe %s, goal %s", m.CondString(p.Unsafe), m.CondString(p.Goal))
	}
}
