package jani

import (
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestReview22bUninitialisedVariable: a JANI variable without an initial
// value starts at any value of its type (Storm enumerates them), so its
// properties, and the model without properties, get a start condition:
// the import left none unless a restrict-initial other than true was
// given, and every engine refused the model ("x has no initial value and
// the property has no start condition"). A variable with an initial value
// keeps it.
func TestReview22bUninitialisedVariable(t *testing.T) {
	vars := `"variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}},
 {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 1}],`
	rest := `"automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "guard": {"exp": {"op": "<", "left": "y", "right": 3}},
     "destinations": [{"location": "l", "assignments": [{"ref": "y", "value": {"op": "+", "left": "y", "right": 1}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]}`
	props := `, "properties": [{"name": "p", "expression": {"op": "filter", "fun": "max", "states": {"op": "initial"}, "values": ` + review22jPmax + `}}]`
	for _, c := range []struct{ name, ri, props string }{
		{"no restrict-initial", "", props},
		{"restrict-initial true", `"restrict-initial": {"exp": true},`, props},
		{"no properties", "", ""},
	} {
		src := `{"jani-version": 1, "name": "m", "type": "mdp", ` + vars + c.ri + rest + c.props + `}`
		m, _, err := Decode("m.jani", []byte(src), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(m.Properties) == 0 {
			t.Fatalf("%s: no property", c.name)
		}
		p := m.Properties[0]
		if p.Start == nil {
			t.Fatalf("%s: property %s has no start condition", c.name, p.Name)
		}
		var starts []string
		for x := 0; x <= 2; x++ {
			for y := 0; y <= 3; y++ {
				if s := (symbolic.State{x, y}); p.Start.Holds(s) {
					starts = append(starts, m.FormatState(s))
				}
			}
		}
		if got, want := strings.Join(starts, ", "), "x=0 y=1, x=1 y=1, x=2 y=1"; got != want {
			t.Errorf("%s: start states %s, want %s", c.name, got, want)
		}
	}
}
