package jani

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestS31wSyncChoiceNotSplit: an edge whose PlaJA choices read variables
// is split by their values (up to 64 pieces), but an edge that
// synchronises with another automaton is not, since the composition
// multiplies the pieces of the edges it joins: two automata whose choices
// read two variables of 4 values each became 16 x 16 = 256 commands (of
// 8 values each: 4096 commands, 56 s and 1.6 GB to load, where the edges
// unsplit took 1.8 s and 160 MB). The single automaton's edge is still
// split, and the synchronised model is one command, as before session 31.
func TestS31wSyncChoiceNotSplit(t *testing.T) {
	b := func(n string) any {
		return map[string]any{"name": n, "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0}
	}
	aut := func(name, own0, own1, o0, o1 string) any {
		d := map[string]any{"location": "l", "assignments": []any{
			map[string]any{"ref": own0, "lower-bound": o0, "upper-bound": map[string]any{"op": "min", "left": 3, "right": map[string]any{"op": "+", "left": o0, "right": o1}}},
			map[string]any{"ref": own1, "lower-bound": map[string]any{"op": "max", "left": 0, "right": map[string]any{"op": "-", "left": o1, "right": 1}}, "upper-bound": o1}}}
		return map[string]any{"name": name, "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"},
			"edges": []any{map[string]any{"location": "l", "action": "a", "destinations": []any{d}}}}
	}
	dir := t.TempDir()
	for _, tc := range []struct {
		name    string
		autos   []any
		syncs   []any
		minCmds int
		maxCmds int
	}{
		{"one", []any{aut("A", "x0", "x1", "y0", "y1")}, nil, 16, 16},
		{"two", []any{aut("A", "x0", "x1", "y0", "y1"), aut("B", "y0", "y1", "x0", "x1")},
			[]any{map[string]any{"synchronise": []any{"a", "a"}, "result": "a"}}, 1, 1},
	} {
		els := []any{}
		for _, a := range tc.autos {
			els = append(els, map[string]any{"automaton": a.(map[string]any)["name"]})
		}
		sys := map[string]any{"elements": els}
		if tc.syncs != nil {
			sys["syncs"] = tc.syncs
		}
		model := map[string]any{"jani-version": 1, "name": tc.name, "type": "mdp", "actions": []any{map[string]any{"name": "a"}},
			"variables": []any{b("x0"), b("x1"), b("y0"), b("y1")}, "automata": tc.autos, "system": sys}
		data, err := json.Marshal(model)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, tc.name+".jani")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := Load(path, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if n := len(m.Commands); n < tc.minCmds || n > tc.maxCmds {
			t.Errorf("%s: %d commands, want %d..%d", tc.name, n, tc.minCmds, tc.maxCmds)
		}
	}
}
