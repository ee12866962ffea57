package jani

import (
	"strings"
	"testing"
)

// TestS28bVariableOutOfScope: a variable read where it is not in scope
// (an initial value, which reads constants only; another automaton's
// local) is named as the variable it is, not as an undeclared identifier
// (which sent the reader looking for a misspelling).
func TestS28bVariableOutOfScope(t *testing.T) {
	bounded := `{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}`
	for _, tc := range []struct{ name, src, want string }{
		{"initial value", `{"jani-version": 1, "name": "m", "type": "mdp",
 "variables": [{"name": "x", "type": ` + bounded + `, "initial-value": 1},
   {"name": "y", "type": ` + bounded + `, "initial-value": {"op": "+", "left": "x", "right": 1}}],
 "automata": [{"name": "A", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": []}],
 "system": {"elements": [{"automaton": "A"}]}}`,
			`m.jani#variables[1].initial-value.left:3:135: "x" is a global variable, which cannot be read here`},
		{"another automaton's local", `{"jani-version": 1, "name": "m", "type": "mdp",
 "automata": [{"name": "A", "variables": [{"name": "c", "type": ` + bounded + `, "initial-value": 0}], "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": []},
   {"name": "B", "locations": [{"name": "l"}], "initial-locations": ["l"],
    "edges": [{"location": "l", "guard": {"exp": {"op": "<", "left": "c", "right": 2}}, "destinations": [{"location": "l"}]}]}],
 "system": {"elements": [{"automaton": "A"}, {"automaton": "B"}]}}`,
			`"c" is a variable of automaton "A", which cannot be read here`},
		{"undeclared", `{"jani-version": 1, "name": "m", "type": "mdp",
 "automata": [{"name": "A", "locations": [{"name": "l"}], "initial-locations": ["l"],
    "edges": [{"location": "l", "guard": {"exp": {"op": "<", "left": "nosuch", "right": 2}}, "destinations": [{"location": "l"}]}]}],
 "system": {"elements": [{"automaton": "A"}]}}`,
			`undeclared identifier "nosuch"`},
	} {
		_, _, err := Decode("m.jani", []byte(tc.src), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}
