package jani

import (
	"os"
	"path/filepath"
	"strings"
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

// A constant import renames (goal is goal_) takes -D under either name,
// as run files and reports name it goal_; a constant literally named
// goal_ keeps its own -D; both names at once are an error.
func TestS24zDefineRenamed(t *testing.T) {
	model := func(consts string) []byte {
		return []byte(`{"jani-version": 1, "name": "c", "type": "mdp", "actions": [], "constants": [` + consts + `],
"variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0}], "properties": [],
"automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": []}], "system": {"elements": [{"automaton": "a"}]}}`)
	}
	one := model(`{"name": "goal", "type": "int"}`)
	for _, def := range []string{"goal", "goal_"} {
		m, _, err := Decode("c.jani", one, map[string]string{def: "3"})
		if err != nil {
			t.Fatalf("-D %s=3: %v", def, err)
		}
		if len(m.Consts) != 1 || m.Consts[0].Name != "goal_" || m.Consts[0].Value != 3 {
			t.Errorf("-D %s=3: constants %+v", def, m.Consts)
		}
	}
	if _, _, err := Decode("c.jani", one, map[string]string{"goal": "3", "goal_": "3"}); err == nil || !strings.Contains(err.Error(), "set the same constant") {
		t.Errorf("-D goal and goal_: %v", err)
	}
	// goal and goal_ both declared: each -D sets its own constant
	two := model(`{"name": "goal", "type": "int"}, {"name": "goal_", "type": "int"}`)
	if _, _, err := Decode("c.jani", two, map[string]string{"goal_": "3"}); err == nil || !strings.Contains(err.Error(), `constant "goal" has no value`) {
		t.Errorf("-D goal_ with constants goal and goal_: %v", err)
	}
}
