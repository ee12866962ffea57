package jani

import (
	"encoding/json"
	"fmt"
	"testing"
)

// manyActions is a JANI model of one automaton with edges edges over
// actions actions, each action synchronised on its own.
func manyActions(edges, actions int) []byte {
	type obj = map[string]any
	var es, acts, syncs []obj
	for i := 0; i < edges; i++ {
		es = append(es, obj{"location": "l", "action": fmt.Sprintf("a%d", i%actions),
			"guard":        obj{"exp": obj{"op": "<", "left": "x", "right": 100}},
			"destinations": []obj{{"location": "l", "assignments": []obj{{"ref": "x", "value": obj{"op": "+", "left": "x", "right": 1}}}}}})
	}
	for i := 0; i < actions; i++ {
		acts = append(acts, obj{"name": fmt.Sprintf("a%d", i)})
		syncs = append(syncs, obj{"synchronise": []string{fmt.Sprintf("a%d", i)}, "result": fmt.Sprintf("a%d", i)})
	}
	b, _ := json.Marshal(obj{"jani-version": 1, "name": "many", "type": "mdp", "actions": acts,
		"variables": []obj{{"name": "x", "type": obj{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 100}, "initial-value": 0}},
		"automata":  []obj{{"name": "A", "locations": []obj{{"name": "l"}}, "initial-locations": []string{"l"}, "edges": es}},
		"system":    obj{"elements": []obj{{"automaton": "A"}}, "syncs": syncs}, "properties": []obj{}})
	return b
}

// BenchmarkManyActions: 10,000 actions over 100,000 edges, each action
// its own synchronisation vector (lang/jani/FIGURES.md):
// go test ./lang/jani -run XXX -bench ManyActions.
func BenchmarkManyActions(b *testing.B) {
	data := manyActions(100000, 10000)
	for b.Loop() {
		if _, _, err := Decode("many.jani", data, nil); err != nil {
			b.Fatal(err)
		}
	}
}
