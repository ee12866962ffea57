package jani

import (
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestPropertyShapes imports one property of each shape and checks the
// unsafe and goal conditions vigil reads from it, or the note that names a
// property it does not import.
func TestPropertyShapes(t *testing.T) {
	const model = `{"jani-version": 1, "name": "m", "type": "mdp",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0},
               {"name": "lab", "type": "bool", "transient": true, "initial-value": false}],
 "automata": [{"name": "a", "locations": [{"name": "l", "transient-values": [{"ref": "lab", "value": {"op": "≥", "left": "x", "right": 2}}]}],
   "initial-locations": ["l"],
   "edges": [{"location": "l", "guard": {"exp": {"op": "<", "left": "x", "right": 3}},
     "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]},
 "properties": [PROPS]}`
	x2 := `{"op": "=", "left": "x", "right": 2}`
	x1 := `{"op": "≤", "left": "x", "right": 1}`
	cases := []struct {
		name, expr string
		want       []string // NAME: unsafe | goal, per property imported
		note       string
	}{
		{"f", `{"op": "filter", "fun": "max", "states": {"op": "initial"}, "values": {"op": "Pmax", "exp": {"op": "F", "exp": ` + x2 + `}}}`,
			[]string{"f: false | x == 2", "f_avoid: x == 2 | -"}, ""},
		{"u", `{"op": "Pmin", "exp": {"op": "U", "left": ` + x1 + `, "right": ` + x2 + `}}`,
			[]string{"u: !(x <= 1) && !(x == 2) | x == 2"}, ""},
		{"w", `{"op": "Pmin", "exp": {"op": "W", "left": ` + x1 + `, "right": ` + x2 + `}}`,
			[]string{"w: !(x <= 1) && !(x == 2) | x == 2"}, ""},
		{"g", `{"op": "Pmin", "exp": {"op": "G", "exp": ` + x1 + `}}`,
			[]string{"g: !(x <= 1) | -"}, ""},
		{"ag", `{"op": "filter", "fun": "∀", "states": {"op": "initial"}, "values": {"op": "∀", "exp": {"op": "G", "exp": ` + x1 + `}}}`,
			[]string{"ag: !(x <= 1) | -"}, ""},
		{"ef", `{"op": "filter", "fun": "∃", "states": {"op": "initial"}, "values": {"op": "F", "exp": "lab"}}`,
			[]string{"ef: false | x >= 2"}, ""},
		{"bound", `{"op": "≥", "left": {"op": "Pmin", "exp": {"op": "F", "exp": "lab"}}, "right": 1}`,
			[]string{"bound: false | x >= 2", "bound_avoid: x >= 2 | -"}, ""},
		{"reach", `{"op": "Emax", "exp": 1, "accumulate": ["steps"], "reach": ` + x2 + `}`,
			[]string{"reach: false | x == 2"}, ""},
		{"steps", `{"op": "Pmax", "exp": {"op": "U", "left": true, "right": ` + x2 + `, "step-bounds": {"upper": 2}}}`,
			nil, `property "steps" not imported: time, step and reward bounds are not supported`},
		{"reward", `{"op": "Emax", "exp": 1, "accumulate": ["steps"]}`,
			nil, `property "reward" not imported: an expected reward without "reach"`},
		{"nested", `{"op": "Pmax", "exp": {"op": "F", "exp": {"op": ">", "left": {"op": "Pmin", "exp": {"op": "F", "exp": ` + x2 + `}}, "right": 0.5}}}`,
			nil, `property "nested" not imported: nested probability`},
		{"steady", `{"op": "Smax", "exp": ` + x2 + `}`,
			nil, `property "steady" not imported: steady-state probabilities are not supported`},
		{"undeclared", `{"op": "Pmax", "exp": {"op": "F", "exp": "nosuch"}}`,
			nil, `property "undeclared" not imported: jani: `},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(model, "PROPS", `{"name": "`+c.name+`", "expression": `+c.expr+`}`, 1)
			m, notes, err := Decode("m.jani", []byte(src), nil)
			if err != nil {
				t.Fatalf("the model must load whatever its properties: %v", err)
			}
			var got []string
			for _, p := range m.Properties {
				goal := "-"
				if p.Goal != nil {
					goal = m.CondString(p.Goal)
				}
				got = append(got, p.Name+": "+m.CondString(p.Unsafe)+" | "+goal)
				if !p.FromModel {
					t.Errorf("%s: not marked FromModel", p.Name)
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("properties\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			if c.note != "" {
				found := false
				for _, n := range notes {
					found = found || strings.Contains(n.Msg, c.note)
				}
				if !found {
					t.Errorf("no note containing %q in %v", c.note, notes)
				}
			}
		})
	}
}

// TestLabelPredicate: a transient Boolean set in one location of an
// automaton with several is that location's value there and its initial
// value elsewhere.
func TestLabelPredicate(t *testing.T) {
	src := `{"jani-version": 1, "name": "m", "type": "lts",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0},
               {"name": "hot", "type": "bool", "transient": true, "initial-value": true}],
 "automata": [{"name": "a", "locations": [{"name": "p"}, {"name": "q", "transient-values": [{"ref": "hot", "value": {"op": ">", "left": "x", "right": 1}}]}],
   "initial-locations": ["p"],
   "edges": [{"location": "p", "destinations": [{"location": "q"}]}]}],
 "system": {"elements": [{"automaton": "a"}]}}`
	m, _, err := Decode("m.jani", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	var hot *symbolic.Cond
	for _, p := range m.Preds {
		if p.Name == "hot" {
			hot = p.Cond
		}
	}
	if hot == nil {
		t.Fatalf("no predicate hot in %v", m.Preds)
	}
	loc := m.VarIndex(LocationVar("a"))
	for x := 0; x <= 3; x++ {
		for l := 0; l <= 1; l++ {
			s := make(symbolic.State, len(m.Vars))
			s[m.VarIndex("x")], s[loc] = x, l
			want := l == 0 || x > 1
			if got := hot.Holds(s); got != want {
				t.Errorf("hot at x=%d loc=%d: %v, want %v", x, l, got, want)
			}
		}
	}
}
