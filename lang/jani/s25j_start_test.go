package jani

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS25jStartAndRestrictInitial: a PlaJA start condition (--start)
// chooses among the states the model's restrict-initial allows, in place
// of the variables' initial values: the start states are restrict-initial
// ∧ start condition. It replaced restrict-initial: with restrict-initial
// x <= 1 and a start file x >= 1, x = 2 was a start state.
func TestS25jStartAndRestrictInitial(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	unsafe := write("u.json", `{"op": "=", "left": "x", "right": 2}`)
	start := write("s.json", `{"op": "≥", "left": "x", "right": 1}`)
	for _, tc := range []struct {
		name, init, restrict string
		starts               []int // the x of the start states
	}{
		{"restricted", `, "initial-value": 0`, `{"op": "≤", "left": "x", "right": 1}`, []int{1}},
		{"initial value only", `, "initial-value": 0`, ``, []int{1, 2}},
		{"no initial value", ``, `{"op": "≠", "left": "x", "right": 2}`, []int{1}},
		{"folds to true", `, "initial-value": 0`, `{"op": "≤", "left": 0, "right": 1}`, []int{1, 2}},
	} {
		m, _, err := Decode("coin.jani", []byte(coinJANI(tc.init, tc.restrict)), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := AddProperty(m, start, unsafe); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		p := m.Properties[len(m.Properties)-1]
		var got []int
		for x := 0; x <= 2; x++ {
			if p.Start.Holds(symbolic.State{x}) {
				got = append(got, x)
			}
		}
		if !equalInts(got, tc.starts) {
			t.Errorf("%s: start states x in %v (start %s), want %v", tc.name, got, m.CondString(p.Start), tc.starts)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestS25jStartCorpus: the corpus's blocksworld 4_3 PA property has a
// start condition; with a restrict-initial added to the model (table-counter
// = 1, which the start condition leaves open), its property starts from
// the states of both, and from the start condition's alone without it.
func TestS25jStartCorpus(t *testing.T) {
	dir := corpus(t, "plaja/blocksworld")
	model := filepath.Join(dir, "cost_terminal/models/legacy_enc/blocksworld_4_3.jani")
	pa := filepath.Join(dir, "additional_properties/safety_verification/blocksworld_4_3/compact_starts_cost_predicates_afterwards/pa_compact_starts_cost_predicates_afterwards_blocksworld_4_3.jani")
	data, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	defs := map[string]string{"item_cost_bound": "4", "failing_probability": "0.1"}
	plain, err := Load(model, defs)
	if err != nil {
		t.Fatal(err)
	}
	root["restrict-initial"] = map[string]any{"exp": map[string]any{"op": "=", "left": "table-counter", "right": 1}}
	restricted, err := json.Marshal(root)
	if err != nil {
		t.Fatal(err)
	}
	rm, _, err := Decode("restricted.jani", restricted, defs)
	if err != nil {
		t.Fatal(err)
	}
	if rm.RestrictInitial == nil {
		t.Fatal("no restrict-initial read")
	}
	for _, m := range []*symbolic.Model{plain, rm} {
		if err := AddProperty(m, pa, pa); err != nil {
			t.Fatal(err)
		}
	}
	ps, pr := plain.Properties[len(plain.Properties)-1], rm.Properties[len(rm.Properties)-1]
	if ps.Name != pr.Name {
		t.Fatalf("properties %s and %s", ps.Name, pr.Name)
	}
	// the start states, and those of the start condition alone with
	// table-counter 1
	starts := func(m *symbolic.Model, p *symbolic.Property) (all, tc1 int) {
		g, err := explicit.New(m, p)
		if err != nil {
			t.Fatal(err)
		}
		h := m.VarIndex("table-counter")
		if h < 0 {
			t.Fatal("no variable table-counter")
		}
		err = g.StartsContext(context.Background(), func(s symbolic.State) bool {
			all++
			if s[h] == 1 {
				tc1++
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		return all, tc1
	}
	alone, alone0 := starts(plain, ps)
	both, both0 := starts(rm, pr)
	t.Logf("start states: %d of the start condition (%d with table-counter 1), %d with the restrict-initial", alone, alone0, both)
	if both != alone0 || both0 != both || both == 0 || both == alone {
		t.Errorf("%d start states with the restrict-initial (%d with table-counter 1), want the start condition's %d of %d with table-counter 1", both, both0, alone0, alone)
	}
}
