package jani

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestS32kEmptyWalkBudget: emptyChoice's budget counted the states it
// enumerated (2^22 over a model) whatever the guard it evaluated in
// each: 64 choices under a guard of 200 disjuncts x*y + x == k (a 35 KB
// file) evaluated 64 x 65536 states of some 1200 nodes each, 52 s to
// load. The budget is now states times the condition's tree size: the
// first choices are decided (never empty: the guard has x <= y), the
// rest keep their range error with the "may" note; the successors are
// the direct reading's in every sampled state.
func TestS32kEmptyWalkBudget(t *testing.T) {
	var dis []any
	for i := range 200 {
		dis = append(dis, map[string]any{"op": "=", "left": map[string]any{"op": "+", "left": map[string]any{"op": "*", "left": "x", "right": "y"}, "right": "x"}, "right": (i*7919)%65000 + 1})
	}
	var bal func(xs []any) any
	bal = func(xs []any) any {
		if len(xs) == 1 {
			return xs[0]
		}
		h := len(xs) / 2
		return map[string]any{"op": "∨", "left": bal(xs[:h]), "right": bal(xs[h:])}
	}
	guard := map[string]any{"op": "∧", "left": map[string]any{"op": "¬", "exp": bal(dis)}, "right": map[string]any{"op": "≤", "left": "x", "right": "y"}}
	const nd = 64
	var dests []any
	for range nd {
		dests = append(dests, map[string]any{"location": "l", "probability": map[string]any{"exp": map[string]any{"op": "/", "left": 1, "right": nd}},
			"assignments": []any{map[string]any{"ref": "x", "lower-bound": "x", "upper-bound": "y"}}})
	}
	bounded := map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 255}
	model := map[string]any{"jani-version": 1, "name": "w", "type": "mdp",
		"variables": []any{map[string]any{"name": "x", "type": bounded, "initial-value": 0}, map[string]any{"name": "y", "type": bounded, "initial-value": 0}},
		"actions":   []any{map[string]any{"name": "go"}},
		"automata": []any{map[string]any{"name": "a", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"},
			"edges": []any{map[string]any{"location": "l", "action": "go", "guard": map[string]any{"exp": guard}, "destinations": dests}}}},
		"system": map[string]any{"elements": []any{map[string]any{"automaton": "a"}}}}
	data, err := json.Marshal(model)
	if err != nil {
		t.Fatal(err)
	}
	m, notes, err := Decode("w.jani", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	may, never := 0, 0
	for _, n := range notes {
		switch {
		case strings.Contains(n.Msg, "may hold in a state where the edge is taken"):
			may++
		case strings.Contains(n.Msg, "no value to choose"):
			never++ // "possible": the guard rules it out, so none is expected
		}
	}
	if may == 0 || may == nd || never != 0 {
		t.Errorf("%d 'may' notes and %d 'possible' notes of %d choices; want some 'may' (the budget spent), not all, and no 'possible'", may, never, nd)
	}
	// the successors: x' in x..y where the guard holds, no range error
	holds := func(x, y int) bool {
		for i := range 200 {
			if x*y+x == (i*7919)%65000+1 {
				return false
			}
		}
		return x <= y
	}
	for _, st := range [][2]int{{0, 0}, {3, 7}, {7, 3}, {255, 255}, {0, 255}, {200, 100}, {17, 18}} {
		x, y := st[0], st[1]
		want := map[int]bool{}
		if holds(x, y) {
			for k := x; k <= y; k++ {
				want[k] = true
			}
		}
		got := map[int]bool{}
		s := symbolic.State{x, y}
		for _, c := range m.Commands {
			if !c.Guard.Holds(s) {
				continue
			}
			for _, o := range c.Outcomes {
				nx := x
				for _, a := range o.Assigns {
					if a.Var == 0 {
						nx = a.Value.Eval(s)
					}
				}
				got[nx] = true
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("state x=%d y=%d: x' in %v, want %v", x, y, got, want)
		}
	}
}
