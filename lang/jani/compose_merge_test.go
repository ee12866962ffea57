package jani

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"vigil/symbolic"
)

// randomNetwork is a small random JANI network of synchronising automata:
// each automaton has locations, owns an integer x_i and a Boolean b_i that
// only its edges assign (so that no combination assigns a variable twice),
// and has edges on actions a, b and silent ones, at random locations, with
// one or two destinations (mostly as many per action, so that merging by
// location applies; sometimes not, so that it falls back to the product).
func randomNetwork(r *rand.Rand) []byte {
	type obj = map[string]any
	k := 2 + r.Intn(2)
	var vars []obj
	for i := 0; i < k; i++ {
		vars = append(vars,
			obj{"name": fmt.Sprintf("x%d", i), "type": obj{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0},
			obj{"name": fmt.Sprintf("b%d", i), "type": "bool", "initial-value": false})
	}
	guard := func() any {
		j := r.Intn(k)
		switch r.Intn(5) {
		case 0:
			return true
		case 1:
			return obj{"op": "<", "left": fmt.Sprintf("x%d", j), "right": 1 + r.Intn(3)}
		case 2:
			return obj{"op": "=", "left": fmt.Sprintf("x%d", j), "right": r.Intn(4)}
		case 3:
			return fmt.Sprintf("b%d", j)
		}
		return obj{"op": "¬", "exp": fmt.Sprintf("b%d", j)}
	}
	var autos, elems []obj
	for i := 0; i < k; i++ {
		nl := 2 + r.Intn(2)
		var locs []obj
		for l := 0; l < nl; l++ {
			locs = append(locs, obj{"name": fmt.Sprintf("l%d", l)})
		}
		nd := map[string]int{"a": 1 + r.Intn(2), "b": 1 + r.Intn(2), "": 1}
		var edges []obj
		for e, ne := 0, 3+r.Intn(8); e < ne; e++ {
			act := []string{"a", "a", "b", "b", ""}[r.Intn(5)]
			n := nd[act]
			if r.Intn(6) == 0 {
				n = 3 - n
			}
			var dests []obj
			for d := 0; d < n; d++ {
				asgs := []obj{}
				x, b := fmt.Sprintf("x%d", i), fmt.Sprintf("b%d", i)
				c := r.Intn(4)
				switch c {
				case 0:
					asgs = append(asgs, obj{"ref": x, "value": obj{"op": "min", "left": obj{"op": "+", "left": fmt.Sprintf("x%d", r.Intn(k)), "right": 1}, "right": 3}})
				case 1:
					asgs = append(asgs, obj{"ref": x, "value": obj{"op": "max", "left": obj{"op": "-", "left": x, "right": 1}, "right": 0}})
				case 2:
					asgs = append(asgs, obj{"ref": b, "value": obj{"op": "¬", "exp": fmt.Sprintf("b%d", r.Intn(k))}})
				}
				if c != 2 && r.Intn(3) == 0 {
					asgs = append(asgs, obj{"ref": b, "value": r.Intn(2) == 0})
				}
				dst := obj{"location": fmt.Sprintf("l%d", r.Intn(nl)), "assignments": asgs}
				if n == 2 {
					p := []any{0.5, obj{"op": "/", "left": 1, "right": 3}, obj{"op": "/", "left": 2, "right": 3}}
					if d == 0 {
						dst["probability"] = obj{"exp": p[r.Intn(2)]}
					} else if q := dests[0]["probability"].(obj)["exp"]; q == 0.5 {
						dst["probability"] = obj{"exp": 0.5}
					} else {
						dst["probability"] = obj{"exp": p[2]}
					}
				}
				dests = append(dests, dst)
			}
			ed := obj{"location": fmt.Sprintf("l%d", r.Intn(nl)), "guard": obj{"exp": guard()}, "destinations": dests}
			if act != "" {
				ed["action"] = act
			}
			edges = append(edges, ed)
		}
		autos = append(autos, obj{"name": fmt.Sprintf("A%d", i), "locations": locs, "initial-locations": []string{"l0"}, "edges": edges})
		elems = append(elems, obj{"automaton": fmt.Sprintf("A%d", i)})
	}
	all := func(a string) []any {
		v := make([]any, k)
		for i := range v {
			v[i] = a
		}
		return v
	}
	partial := all("b")
	partial[r.Intn(k)] = nil
	syncs := []obj{{"synchronise": all("a"), "result": "a"}, {"synchronise": partial, "result": "b"}}
	data, err := json.Marshal(obj{"jani-version": 1, "name": "net", "type": "mdp",
		"actions": []obj{{"name": "a"}, {"name": "b"}}, "variables": vars, "automata": autos,
		"system": obj{"elements": elems, "syncs": syncs}, "properties": []obj{}})
	if err != nil {
		panic(err)
	}
	return data
}

// Composition by location (compose_merge.go) has, in every reachable
// state, the transitions of the full product of edges, on random
// synchronising networks.
func TestMergeByLocation(t *testing.T) {
	old := mergeAbove
	defer func() { mergeAbove = old }()
	r := rand.New(rand.NewSource(26))
	merged, decoded := 0, 0
	for it := 0; it < 300; it++ {
		data := randomNetwork(r)
		mergeAbove = 1 << 30
		prod, _, err := Decode("net.jani", data, nil)
		mergeAbove = 0
		lazy, _, err2 := Decode("net.jani", data, nil)
		if (err == nil) != (err2 == nil) {
			t.Fatalf("network %d: the product gives %v, by location %v\n%s", it, err, err2, data)
		}
		if err != nil {
			if it < 3 {
				t.Logf("network %d: %v", it, err)
			}
			continue
		}
		decoded++
		if len(lazy.Commands) < len(prod.Commands) {
			merged++
		}
		init, err := prod.InitialState()
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{fmt.Sprint(init): true}
		queue := []symbolic.State{init}
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			want, succ := s26sTransitions(prod, s)
			got, _ := s26sTransitions(lazy, s)
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Fatalf("network %d, state %s:\nproduct:\n%s\nby location:\n%s\n%s", it, prod.FormatState(s), strings.Join(want, "\n"), strings.Join(got, "\n"), data)
			}
			for _, t := range succ {
				if k := fmt.Sprint(t); !seen[k] {
					seen[k] = true
					queue = append(queue, t)
				}
			}
		}
	}
	if merged < 100 || decoded < 250 {
		t.Fatalf("%d of 300 networks decoded, %d merged some edges: the test does not exercise the merge", decoded, merged)
	}
}
