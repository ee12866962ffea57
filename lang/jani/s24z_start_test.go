package jani

import (
	"os"
	"path/filepath"
	"testing"
)

// coinJANI is a model of x in 0..2 (initial value init, "" for none)
// restricted by restrict (a JSON expression, "" for none).
func coinJANI(init, restrict string) string {
	v := `{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}` + init + `}`
	s := `{"jani-version": 1, "name": "coin", "type": "mdp", "actions": [{"name": "flip"}], "variables": [` + v + `], "properties": [],
"automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": [{"location": "l", "action": "flip", "guard": {"exp": {"op": "=", "left": "x", "right": 0}}, "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": 2}]}]}]}],
"system": {"elements": [{"automaton": "a"}]}`
	if restrict != "" {
		s += `, "restrict-initial": {"exp": ` + restrict + `}`
	}
	return s + "}"
}

// A restrict-initial that folds to true restricts nothing; any other
// restriction, or a variable without an initial value, is the model's
// Start, which a property from an unsafe file alone starts from (it
// started from the initial values, x=2 outside x <= 1).
func TestS24zStartsRestricted(t *testing.T) {
	dir := t.TempDir()
	unsafe := filepath.Join(dir, "u.json")
	if err := os.WriteFile(unsafe, []byte(`{"op": "=", "left": "x", "right": 2}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, init, restrict string
		restricted           bool
		start                string // the unsafe file's property's start
	}{
		{"true", `, "initial-value": 0`, `true`, false, ""},
		{"folds to true", `, "initial-value": 0`, `{"op": "≤", "left": 0, "right": 1}`, false, ""},
		{"restricted", `, "initial-value": 2`, `{"op": "≤", "left": "x", "right": 1}`, true, "x <= 1 && x == 2"},
		{"no initial value", ``, ``, true, "true"},
	} {
		m, _, err := Decode("coin.jani", []byte(coinJANI(tc.init, tc.restrict)), nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if m.StartsRestricted != tc.restricted || (m.Start != nil) != tc.restricted {
			t.Errorf("%s: StartsRestricted %v, Start %v; want %v", tc.name, m.StartsRestricted, m.Start, tc.restricted)
		}
		if err := AddProperty(m, "", unsafe); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		p := m.Properties[len(m.Properties)-1]
		got := ""
		if p.Start != nil {
			got = m.CondString(p.Start)
		}
		if got != tc.start {
			t.Errorf("%s: the unsafe file's property starts from %q, want %q", tc.name, got, tc.start)
		}
	}
}
