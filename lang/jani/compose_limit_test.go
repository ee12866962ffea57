package jani

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A few automata of a few edges on one synchronised action make a product
// of edges the importer refuses (maxComposed) instead of building it: 8
// automata of 10 edges would be 10^8 commands, from 11 KB of JSON.
func TestComposeLimit(t *testing.T) {
	const k, e = 8, 10
	var autos []any
	for a := 0; a < k; a++ {
		var edges []any
		for i := 0; i < e; i++ {
			edges = append(edges, map[string]any{"location": "l", "action": "a",
				"guard":        map[string]any{"exp": map[string]any{"op": "≥", "left": "x", "right": i % 3}},
				"destinations": []any{map[string]any{"location": "l"}}})
		}
		autos = append(autos, map[string]any{"name": fmt.Sprintf("A%d", a), "locations": []any{map[string]any{"name": "l"}},
			"initial-locations": []string{"l"}, "edges": edges})
	}
	var elems []any
	vec := make([]string, k)
	for a := range vec {
		elems, vec[a] = append(elems, map[string]any{"automaton": fmt.Sprintf("A%d", a)}), "a"
	}
	data, err := json.Marshal(map[string]any{"jani-version": 1, "name": "blow", "type": "mdp", "actions": []any{map[string]any{"name": "a"}},
		"variables": []any{map[string]any{"name": "x", "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0}},
		"automata":  autos, "system": map[string]any{"elements": elems, "syncs": []any{map[string]any{"synchronise": vec, "result": "a"}}}})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Decode("blow.jani", data, nil)
	if err == nil || !strings.Contains(err.Error(), "blow.jani#system.syncs[0]") || !strings.Contains(err.Error(), "the synchronisation vectors combine more than 250000 commands in all") {
		t.Fatalf("want the composition refused at the vector, got %v", err)
	}
}
