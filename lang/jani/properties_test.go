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
			[]string{"steps: false | x == 2"}, ""}, // bounded (vigil prob only): no steps_avoid
		{"timed", `{"op": "Pmax", "exp": {"op": "F", "exp": ` + x2 + `, "time-bounds": {"upper": 2}}}`,
			nil, `property "timed" not imported: a time bound: a discrete-time model has no time`},
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

// TestPropertyMembersChecked: a member JANI (or PlaJA, in a PA property)
// does not define is an error naming its path, also inside bounds, reward
// instants and accumulations, which are not imported; spelt right, the
// same properties load (with a note where not imported).
func TestPropertyMembersChecked(t *testing.T) {
	const model = `{"jani-version": 1, "name": "m", "type": "mdp",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "min", "left": 3, "right": {"op": "+", "left": "x", "right": 1}}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]},
 "properties": [{"name": "p", "expression": PROP}]}`
	x2 := `{"op": "=", "left": "x", "right": 2}`
	sc := `{"op": "state-condition", "exp": ` + x2 + `, "locations": [{"automaton": "a", "location": "l", "index": 0}]}`
	cases := []struct {
		name, good, bad, err string
	}{
		{"step-bounds", `{"op": "Pmax", "exp": {"op": "F", "exp": ` + x2 + `, "step-bounds": {"upper": 2, "upper-exclusive": false}}}`,
			`{"op": "Pmax", "exp": {"op": "F", "exp": ` + x2 + `, "step-bounds": {"uper": 2}}}`,
			`expression.exp.step-bounds.uper:6:148: unknown member "uper" of the property interval "step-bounds"`},
		{"time-bounds", `{"op": "Pmax", "exp": {"op": "U", "left": true, "right": ` + x2 + `, "time-bounds": {"lower": 1}}}`,
			`{"op": "Pmax", "exp": {"op": "U", "left": true, "right": ` + x2 + `, "time-bounds": {"lower": {"op": "-", "exp": 1, "right": 0}}}}`,
			`unknown member "right" of operator "-"`},
		{"reward-bounds", `{"op": "Pmax", "exp": {"op": "F", "exp": ` + x2 + `, "reward-bounds": [{"exp": 1, "accumulate": ["steps", "exit"], "bounds": {"upper": 3}}]}}`,
			`{"op": "Pmax", "exp": {"op": "F", "exp": ` + x2 + `, "reward-bounds": [{"exp": 1, "accumulate": ["steps"], "bounds": {"upper": 3, "upper-exlusive": true}}]}}`,
			`unknown member "upper-exlusive" of the property interval "bounds"`},
		{"reward-instants", `{"op": "Emax", "exp": 1, "reward-instants": [{"exp": 1, "accumulate": ["time"], "instant": 3}]}`,
			`{"op": "Emax", "exp": 1, "reward-instants": [{"exp": 1, "accumulate": ["time"], "instance": 3}]}`,
			`unknown member "instance" of an element of "reward-instants"`},
		{"accumulate", `{"op": "Emax", "exp": 1, "accumulate": ["steps"], "reach": ` + x2 + `}`,
			`{"op": "Emax", "exp": 1, "accumulate": ["step"], "reach": ` + x2 + `}`,
			`unknown reward accumulation "step"`},
		{"accumulate-not-list", `{"op": "Smax", "exp": ` + x2 + `, "accumulate": ["exit"]}`,
			`{"op": "Smax", "exp": ` + x2 + `, "accumulate": "steps"}`,
			`"accumulate" must be a list`},
		{"pa", `{"op": "PA", "start": ` + sc + `, "reach": ` + sc + `, "predicates": [` + x2 + `], "file": "p.jani2nnet"}`,
			`{"op": "PA", "start": ` + sc + `, "raech": ` + sc + `}`,
			`unknown member "raech" of the PA property (PlaJA defines`},
		{"pa-state-condition", `{"op": "PA", "reach": ` + sc + `}`,
			`{"op": "PA", "reach": {"op": "state-condition", "exps": ` + x2 + `}}`,
			`expression.reach.exps:6:101: unknown member "exps" of a state-condition`},
		{"pa-location", `{"op": "PA", "reach": ` + sc + `}`,
			`{"op": "PA", "reach": {"op": "state-condition", "exp": ` + x2 + `, "locations": [{"automaton": "a", "loc": "l"}]}}`,
			`unknown member "loc" of a location reference`},
		{"pa-objective", `{"op": "PA", "objective": {"op": "objective", "goal": ` + sc + `, "step-reward": 1, "accumulate": ["steps"]}}`,
			`{"op": "PA", "objective": {"op": "objective", "gaol": ` + sc + `}}`,
			`unknown member "gaol" of the objective`},
		{"pa-predicate", `{"op": "PA", "reach": ` + sc + `, "predicates": [` + x2 + `]}`,
			`{"op": "PA", "reach": ` + sc + `, "predicates": [{"op": "=", "left": "x", "rigth": 2}]}`,
			`unknown member "rigth" of operator "="`},
		{"pa-file", `{"op": "PA", "reach": {"file": "r.jani"}}`,
			`{"op": "PA", "reach": {"file": "r.jani", "exp": true}}`,
			`unknown member "exp" of the PA property's "reach" file reference`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := Decode("m.jani", []byte(strings.Replace(model, "PROP", c.good, 1)), nil)
			if err != nil {
				t.Errorf("spelt right: %v", err)
			}
			_, _, err = Decode("m.jani", []byte(strings.Replace(model, "PROP", c.bad, 1)), nil)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("misspelt: got %v, want an error containing %q", err, c.err)
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
