package jani_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"vigil/lang/jani"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// fnDefs are the model functions of the differential test: h's parameter
// x hides the global x, h calls g, p is a predicate, r a real.
var fnDefs = []map[string]any{
	{"name": "g", "type": "int", "parameters": []any{map[string]any{"name": "a", "type": "int"}, map[string]any{"name": "b", "type": "int"}},
		"body": map[string]any{"op": "ite", "if": map[string]any{"op": "<", "left": "a", "right": "b"}, "then": map[string]any{"op": "+", "left": "a", "right": 1}, "else": "b"}},
	{"name": "h", "type": "int", "parameters": []any{map[string]any{"name": "a", "type": "int"}, map[string]any{"name": "x", "type": "int"}},
		"body": map[string]any{"op": "max", "left": 0, "right": map[string]any{"op": "min", "left": map[string]any{"op": "call", "function": "g", "args": []any{"a", "x"}}, "right": 3}}},
	{"name": "p", "type": "bool", "parameters": []any{map[string]any{"name": "a", "type": "int"}, map[string]any{"name": "c", "type": "bool"}},
		"body": map[string]any{"op": "∨", "left": map[string]any{"op": "≠", "left": "a", "right": 2}, "right": "c"}},
	{"name": "r", "type": "real", "parameters": []any{map[string]any{"name": "a", "type": "int"}},
		"body": map[string]any{"op": "/", "left": map[string]any{"op": "+", "left": "a", "right": 1}, "right": 5}},
}

// inline replaces every call in e by its function's body with the
// arguments substituted for the parameters (bodies inlined first, so a
// substitution never meets a call).
func inline(e any, defs map[string]map[string]any) any {
	switch v := e.(type) {
	case map[string]any:
		if v["op"] == "call" {
			f := defs[v["function"].(string)]
			args := v["args"].([]any)
			sub := map[string]any{}
			for i, p := range f["parameters"].([]any) {
				sub[p.(map[string]any)["name"].(string)] = inline(args[i], defs)
			}
			return substitute(inline(f["body"], defs), sub)
		}
		out := map[string]any{}
		for k, c := range v {
			out[k] = inline(c, defs)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, c := range v {
			out[i] = inline(c, defs)
		}
		return out
	}
	return e
}

func substitute(e any, sub map[string]any) any {
	switch v := e.(type) {
	case string:
		if r, ok := sub[v]; ok {
			return r
		}
	case map[string]any:
		out := map[string]any{}
		for k, c := range v {
			if k == "op" {
				out[k] = c
				continue
			}
			out[k] = substitute(c, sub)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, c := range v {
			out[i] = substitute(c, sub)
		}
		return out
	}
	return e
}

// randInt is a random int expression over x and y in 0..3, calling g and h.
func randInt(rng *rand.Rand, depth int) any {
	if depth == 0 || rng.Intn(3) == 0 {
		return []any{"x", "y", 0, 1, 2}[rng.Intn(5)]
	}
	switch rng.Intn(3) {
	case 0:
		return map[string]any{"op": "call", "function": "h", "args": []any{randInt(rng, depth-1), randInt(rng, depth-1)}}
	case 1:
		return map[string]any{"op": "min", "left": 3, "right": map[string]any{"op": "call", "function": "g", "args": []any{randInt(rng, depth-1), randInt(rng, depth-1)}}}
	}
	return map[string]any{"op": "min", "left": 3, "right": map[string]any{"op": "+", "left": randInt(rng, depth-1), "right": randInt(rng, depth-1)}}
}

func randModel(rng *rand.Rand) ([]byte, []byte) {
	defs := map[string]map[string]any{}
	for _, f := range fnDefs {
		defs[f["name"].(string)] = f
	}
	var edges []any
	for i := 0; i < 3; i++ {
		guard := map[string]any{"op": "call", "function": "p", "args": []any{randInt(rng, 2), map[string]any{"op": "=", "left": "y", "right": rng.Intn(4)}}}
		pr := map[string]any{"op": "call", "function": "r", "args": []any{map[string]any{"op": "min", "left": 3, "right": randInt(rng, 1)}}}
		edges = append(edges, map[string]any{"location": "l", "action": "go", "guard": map[string]any{"exp": guard},
			"destinations": []any{
				map[string]any{"location": "l", "probability": map[string]any{"exp": pr}, "assignments": []any{map[string]any{"ref": "x", "value": randInt(rng, 3)}}},
				map[string]any{"location": "l", "probability": map[string]any{"exp": map[string]any{"op": "-", "left": 1, "right": pr}}, "assignments": []any{map[string]any{"ref": "y", "value": randInt(rng, 3)}}},
			}})
	}
	goal := map[string]any{"op": "∧", "left": map[string]any{"op": "=", "left": map[string]any{"op": "call", "function": "h", "args": []any{"x", 3}}, "right": 3}, "right": map[string]any{"op": "call", "function": "p", "args": []any{"y", false}}}
	bounded := map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}
	model := map[string]any{"jani-version": 1, "name": "rf", "type": "mdp", "actions": []any{map[string]any{"name": "go"}},
		"variables": []any{map[string]any{"name": "x", "type": bounded, "initial-value": 0}, map[string]any{"name": "y", "type": bounded, "initial-value": 0}},
		"properties": []any{map[string]any{"name": "g", "expression": map[string]any{"op": "filter", "fun": "max", "states": map[string]any{"op": "initial"},
			"values": map[string]any{"op": "Pmax", "exp": map[string]any{"op": "F", "exp": goal}}}}},
		"automata": []any{map[string]any{"name": "a", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": edges}},
		"system":   map[string]any{"elements": []any{map[string]any{"automaton": "a"}}, "syncs": []any{map[string]any{"synchronise": []any{"go"}, "result": "go"}}},
	}
	inl := inline(model, defs)
	fs := make([]any, len(fnDefs))
	for i, f := range fnDefs {
		fs[i] = f
	}
	model["functions"] = fs
	a, _ := json.Marshal(model)
	b, _ := json.Marshal(inl)
	return a, b
}

// TestS25uFunctionsDifferential: random models whose guards, assignments,
// probabilities and property call functions (nested, with a parameter
// hiding a global) against the same models inlined by substitution: the
// same reachable states and the same exact Pmax, and the same export.
func TestS25uFunctionsDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	for k := 0; k < 40; k++ {
		fn, inl := randModel(rng)
		mf, _, err := jani.Decode("fn.jani", fn, nil)
		if err != nil {
			t.Fatalf("model %d with functions: %v\n%s", k, err, fn)
		}
		mi, _, err := jani.Decode("inl.jani", inl, nil)
		if err != nil {
			t.Fatalf("model %d inlined: %v\n%s", k, err, inl)
		}
		if pf, pi := exactProb(t, mf, "g"), exactProb(t, mi, "g"); pf != pi {
			t.Fatalf("model %d: Pmax %s with functions, %s inlined\n%s", k, pf, pi, fn)
		}
		sf, si := reachCount(t, mf), reachCount(t, mi)
		if sf != si {
			t.Fatalf("model %d: %d states with functions, %d inlined", k, sf, si)
		}
		t.Logf("model %d: %d states, Pmax %s", k, sf, exactProb(t, mf, "g"))
		var ef, ei bytes.Buffer
		if err := jani.Export(&ef, mf, mf.Property("g"), nil); err != nil {
			t.Fatal(err)
		}
		if err := jani.Export(&ei, mi, mi.Property("g"), nil); err != nil {
			t.Fatal(err)
		}
		if ef.String() != ei.String() {
			t.Fatalf("model %d: the exports differ", k)
		}
		if strings.Contains(ef.String(), `"call"`) {
			t.Fatalf("model %d: the export has a call", k)
		}
		// the export reads back with the same answer
		me, _, err := jani.Decode("e.jani", ef.Bytes(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if pe, pf := exactProb(t, me, "g"), exactProb(t, mf, "g"); pe != pf {
			t.Fatalf("model %d: Pmax %s after export, %s before", k, pe, pf)
		}
	}
}

func reachCount(t *testing.T, m *symbolic.Model) int {
	t.Helper()
	g, err := explicit.New(m, m.Property("g"))
	if err != nil {
		t.Fatal(err)
	}
	pm, err := prob.Build(context.Background(), g, prob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return len(pm.Status)
}

// fnModel is a one-automaton model with functions fs (JSON) whose edge
// guard is guard and whose constants are consts.
func fnModel(consts, fs, guard string) []byte {
	return []byte(`{"jani-version": 1, "name": "m", "type": "mdp", "actions": [{"name": "go"}],
 "constants": [` + consts + `],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0}],
 "functions": [` + fs + `],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "action": "go", "guard": {"exp": ` + guard + `},
     "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "min", "left": {"op": "+", "left": "x", "right": 1}, "right": 3}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}], "syncs": [{"synchronise": ["go"], "result": "go"}]}}`)
}

func TestS25uFunctionErrors(t *testing.T) {
	twice := `{"name": "twice", "type": "int", "parameters": [{"name": "v", "type": "int"}], "body": {"op": "+", "left": "v", "right": "v"}}`
	for _, c := range []struct{ name, consts, fs, guard, want string }{
		{"body type", "", `{"name": "f", "type": "int", "parameters": [], "body": true}`, `{"op": "<", "left": {"op": "call", "function": "f", "args": []}, "right": 2}`,
			`fn.jani#functions[0].body:`},
		{"body type msg", "", `{"name": "f", "type": "int", "parameters": [], "body": true}`, `{"op": "<", "left": {"op": "call", "function": "f", "args": []}, "right": 2}`,
			`the body of function "f" is a boolean, but the function's type is int`},
		{"real body of int", "", `{"name": "f", "type": "int", "parameters": [], "body": {"op": "/", "left": "x", "right": 2}}`, `{"op": "<", "left": {"op": "call", "function": "f", "args": []}, "right": 2}`,
			`the body of function "f" is a real, but the function's type is int`},
		{"array result", "", `{"name": "f", "type": {"kind": "array", "base": "int"}, "parameters": [], "body": 1}`, `true`,
			`fn.jani#functions[0].type:`},
		{"array of arrays parameter", "", `{"name": "f", "type": "int", "parameters": [{"name": "a", "type": {"kind": "array", "base": {"kind": "array", "base": "int"}}}], "body": 1}`, `true`,
			`an array of arrays`},
		{"twice declared", "", twice + `, ` + twice, `true`, `function "twice" declared twice`},
		{"parameter twice", "", `{"name": "f", "type": "int", "parameters": [{"name": "v", "type": "int"}, {"name": "v", "type": "int"}], "body": 1}`, `true`,
			`parameter "v" of function "f" declared twice`},
		{"no args member", "", twice, `{"op": "<", "left": {"op": "call", "function": "twice"}, "right": 2}`, `operator "call" needs "args"`},
		{"misspelt member", "", twice, `{"op": "<", "left": {"op": "call", "function": "twice", "arguments": ["x"], "args": ["x"]}, "right": 2}`, `unknown member "arguments" of operator "call"`},
		{"bool for int", "", twice, `{"op": "<", "left": {"op": "call", "function": "twice", "args": [false]}, "right": 2}`, `argument 1 of function "twice" is a boolean`},
	} {
		_, _, err := jani.Decode("fn.jani", fnModel(c.consts, c.fs, c.guard), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestS25uFunctionInConstant: a constant's value may call a model
// function (Storm expands calls in constants too); a parameter hides a
// constant of its name.
func TestS25uFunctionInConstant(t *testing.T) {
	data := fnModel(`{"name": "v", "type": "int", "value": 5}, {"name": "K", "type": "int", "value": {"op": "call", "function": "dec", "args": [3]}}`,
		`{"name": "dec", "type": "int", "parameters": [{"name": "v", "type": "int"}], "body": {"op": "-", "left": "v", "right": 1}}`,
		`{"op": "<", "left": "x", "right": "K"}`)
	m, _, err := jani.Decode("fn.jani", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	// x counts 0, 1, 2 and stops where x < K = dec(3) = 2 fails
	if got := len(m.Commands); got != 1 {
		t.Fatalf("%d commands", got)
	}
	if g := m.CondString(m.Commands[0].Guard); !strings.Contains(g, "< 2") {
		t.Fatalf("guard %s, want x < 2 (K = dec(3) with the parameter v hiding the constant v = 5)", g)
	}
}

// TestS25uBodyErrorOnce: an error in a function's body is reported once,
// not once per call.
func TestS25uBodyErrorOnce(t *testing.T) {
	data := fnModel("", `{"name": "f", "type": "bool", "parameters": [], "body": {"op": "<", "left": "nosuch", "right": 2}}`,
		`{"op": "∧", "left": {"op": "call", "function": "f", "args": []}, "right": {"op": "call", "function": "f", "args": []}}`)
	_, _, err := jani.Decode("fn.jani", data, nil)
	if err == nil {
		t.Fatal("accepted")
	}
	if n := strings.Count(err.Error(), `undeclared identifier "nosuch"`); n != 1 {
		t.Fatalf("reported %d times: %v", n, err)
	}
}
