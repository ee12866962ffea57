package jani

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/symbolic"
)

// TestChoiceBeyondRange (review, session 30): PlaJA's non-deterministic
// assignment {"ref": x, "lower-bound": lb, "upper-bound": ub} became one
// outcome per value k of x's range assigning max(lb, min(ub, k)), so the
// values of lb..ub outside x's range were never written: x in 0..5 with
// lb..ub = 4..8 had the outcomes 4 and 5 only, and `vigil check --bounds`
// proved "no command outcome leaves a variable's range" of a model that
// leaves it (no engine met the range error). An empty lb..ub (lb > ub)
// assigned lb. Now, in every state, the values written are exactly the
// values of lb..ub inside the range, plus one value outside it when lb..ub
// holds one or is empty (a range error).
func TestChoiceBeyondRange(t *testing.T) {
	bounds := []any{-2, 0, 3, 5, 8, "y",
		map[string]any{"op": "-", "left": "y", "right": 3},
		map[string]any{"op": "+", "left": "y", "right": 1}}
	dir := t.TempDir()
	for i, lb := range bounds {
		for j, ub := range bounds {
			model := map[string]any{
				"jani-version": 1, "name": "c", "type": "lts",
				"variables": []any{
					map[string]any{"name": "x", "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 5}, "initial-value": 0},
					map[string]any{"name": "y", "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 7}, "initial-value": 0},
				},
				"actions": []any{map[string]any{"name": "go"}},
				"automata": []any{map[string]any{"name": "a", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"},
					"edges": []any{map[string]any{"location": "l", "action": "go", "destinations": []any{map[string]any{"location": "l",
						"assignments": []any{map[string]any{"ref": "x", "lower-bound": lb, "upper-bound": ub}}}}}}}},
				"system": map[string]any{"elements": []any{map[string]any{"automaton": "a"}}},
			}
			data, err := json.Marshal(model)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, fmt.Sprintf("c%d_%d.jani", i, j))
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := Load(path, nil)
			if err != nil {
				t.Fatalf("lb %v ub %v: %v", lb, ub, err)
			}
			eval := func(b any, y int) int {
				switch b := b.(type) {
				case int:
					return b
				case string:
					return y
				}
				if b.(map[string]any)["op"] == "-" {
					return y - 3
				}
				return y + 1
			}
			for y := 0; y <= 7; y++ {
				st := symbolic.State{0, y}
				lo, hi := eval(lb, y), eval(ub, y)
				var inside, outside int
				for v := lo; v <= hi; v++ {
					if v >= 0 && v <= 5 {
						inside++
					} else {
						outside++
					}
				}
				got := map[int]bool{}
				gotOut := false
				for _, c := range m.Commands {
					if !c.Guard.Holds(st) {
						continue
					}
					for _, o := range c.Outcomes {
						for _, a := range o.Assigns {
							v := a.Value.Eval(st)
							if v < 0 || v > 5 {
								gotOut = true
							} else {
								got[v] = true
								if v < lo || v > hi {
									t.Errorf("lb %v ub %v y=%d: writes %d, outside lb..ub = %d..%d", lb, ub, y, v, lo, hi)
								}
							}
						}
					}
				}
				if len(got) != inside {
					t.Errorf("lb %v ub %v y=%d: writes %v inside 0..5, want the %d values of %d..%d there", lb, ub, y, got, inside, lo, hi)
				}
				if want := outside > 0 || lo > hi; gotOut != want {
					t.Errorf("lb %v ub %v y=%d: a value outside 0..5 written: %v, want %v (lb..ub = %d..%d)", lb, ub, y, gotOut, want, lo, hi)
				}
			}
		}
	}
}

// TestS30jChoiceNeverEmpty: lb..ub = y+1 .. y+2 is never empty, which the
// bounds of lb and ub apart (1..8 and 2..9) do not show; their difference
// as one linear form does, so the outcomes carry no test of emptiness.
func TestS30jChoiceNeverEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "n.jani")
	src := `{"jani-version":1,"name":"n","type":"lts",
 "variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":9},"initial-value":0},
   {"name":"y","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":7},"initial-value":0}],
 "actions":[{"name":"go"}],
 "automata":[{"name":"a","locations":[{"name":"l"}],"initial-locations":["l"],
   "edges":[{"location":"l","action":"go","destinations":[{"location":"l","assignments":[
     {"ref":"x","lower-bound":{"op":"+","left":"y","right":1},"upper-bound":{"op":"+","left":"y","right":2}}]}]}]}],
 "system":{"elements":[{"automaton":"a"}]}}`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range m.Commands[0].Outcomes {
		if o.Assigns[0].Value.Op == symbolic.OpIte {
			t.Fatalf("outcome %s tests for an empty choice", m.ExprString(o.Assigns[0].Value))
		}
	}
}
