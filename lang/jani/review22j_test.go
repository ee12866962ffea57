package jani

import (
	"fmt"
	"strings"
	"testing"
)

// review22jModel is a one-variable model of type typ with the property
// expression expr.
func review22jModel(typ, expr string) string {
	return `{"jani-version": 1, "name": "m", "type": "` + typ + `",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "guard": {"exp": {"op": "<", "left": "x", "right": 3}},
     "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]},
 "properties": [{"name": "p", "expression": ` + expr + `}]}`
}

const review22jPmax = `{"op": "Pmax", "exp": {"op": "F", "exp": {"op": "=", "left": "x", "right": 2}}}`

// TestReview22jFilterFun: the filter function is carried to the query
// (vigil prob reduces the initial states' values by it), and one JANI
// does not define is refused at its position, as Storm refuses it; the
// import ignored "fun" before.
func TestReview22jFilterFun(t *testing.T) {
	for _, fun := range []string{"min", "max", "sum", "avg", "count", "∀", "∃", "argmin", "argmax", "values"} {
		src := review22jModel("mdp", `{"op": "filter", "fun": "`+fun+`", "states": {"op": "initial"}, "values": `+review22jPmax+`}`)
		m, _, err := Decode("m.jani", []byte(src), nil)
		if err != nil {
			t.Fatalf("%s: %v", fun, err)
		}
		if q := m.Properties[0].Query; q == nil || q.Filter != fun || q.Op != "Pmax" {
			t.Errorf("%s: query %+v, want the filter %s over Pmax", fun, q, fun)
		}
	}
	for _, c := range []struct{ expr, want string }{
		{`{"op": "filter", "fun": "mean", "states": {"op": "initial"}, "values": ` + review22jPmax + `}`,
			`unknown filter function "mean" (JANI defines "min", "max"`},
		{`{"op": "filter", "fun": 3, "states": {"op": "initial"}, "values": ` + review22jPmax + `}`,
			`a filter's "fun" must be a string`},
		{`{"op": "filter", "states": {"op": "initial"}, "values": ` + review22jPmax + `}`,
			`m.jani#properties[0].expression:7:45: a filter needs "fun"`},
	} {
		_, _, err := Decode("m.jani", []byte(review22jModel("mdp", c.expr)), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %s", c.expr, err, c.want)
		}
	}
	// "forall" and "exists", which Storm refuses, are read as ∀ and ∃ with
	// a note
	for alias, fun := range map[string]string{"forall": "∀", "exists": "∃"} {
		src := review22jModel("mdp", `{"op": "filter", "fun": "`+alias+`", "states": {"op": "initial"}, "values": `+review22jPmax+`}`)
		m, notes, err := Decode("m.jani", []byte(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		if q := m.Properties[0].Query; q.Filter != fun || !strings.Contains(fmt.Sprint(notes), `m.jani#properties[0].expression.fun:7:69: note: filter function "`+alias+`" read as "`+fun+`"`) {
			t.Errorf("%s: filter %q, notes %v", alias, q.Filter, notes)
		}
	}
	// a filter inside a filter is not imported (a note)
	src := review22jModel("mdp", `{"op": "filter", "fun": "min", "states": {"op": "initial"}, "values": {"op": "filter", "fun": "max", "states": {"op": "initial"}, "values": `+review22jPmax+`}}`)
	m, notes, err := Decode("m.jani", []byte(src), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(GoalProperties(m)) != 0 || !strings.Contains(fmt.Sprint(notes), "a filter inside a filter") {
		t.Errorf("nested filter: %d properties, notes %v", len(m.Properties), notes)
	}
}

// TestReview22jModelType: the JANI model type reaches the IR (vigil prob
// fuses a dtmc's enabled edges) and the export writes it back.
func TestReview22jModelType(t *testing.T) {
	for _, typ := range []string{"lts", "mdp", "dtmc"} {
		m, _, err := Decode("m.jani", []byte(review22jModel(typ, review22jPmax)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if m.Type != typ {
			t.Errorf("type %s read as %q", typ, m.Type)
		}
		want := map[string]string{"lts": "mdp", "mdp": "mdp", "dtmc": "dtmc"}[typ]
		if got := exportType(m); got != want {
			t.Errorf("type %s exported as %s, want %s", typ, got, want)
		}
	}
}

// TestReview22jTinyProbability: 1 - 1e-300 needs 997 bits; the refusal
// says so and what to do (it said "constant is too large").
func TestReview22jTinyProbability(t *testing.T) {
	src := strings.Replace(review22jModel("mdp", review22jPmax), `"destinations": [{"location": "l", "assignments"`,
		`"destinations": [{"location": "l", "probability": {"exp": {"op": "-", "left": 1, "right": 1e-300}}, "assignments"`, 1)
	_, _, err := Decode("m.jani", []byte(src), nil)
	want := "m.jani#automata[0].edges[0].destinations[0].probability.exp:5:64: the exact value of this constant expression needs 997 bits in its numerator or denominator, beyond the 256 bits vigil computes constants in"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "write its numbers with fewer digits") {
		t.Errorf("got %v, want %s ... write its numbers with fewer digits", err, want)
	}
}

// TestReview22jSmallConstant: 1e-30 * x is refused because 1e-30 is no
// 64-bit rational, which the message says (it said "is too large").
func TestReview22jSmallConstant(t *testing.T) {
	src := strings.Replace(review22jModel("mdp", review22jPmax), `"destinations": [{"location": "l", "assignments"`,
		`"destinations": [{"location": "l", "probability": {"exp": {"op": "*", "left": 1e-30, "right": {"op": "/", "left": "x", "right": 3}}}, "assignments"`, 1)
	_, _, err := Decode("m.jani", []byte(src), nil)
	want := "constant 1/1000000000000000000000000000000 needs more than 64 bits in its numerator or denominator, and vigil multiplies variables by 64-bit integers only: write it with fewer digits"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}
