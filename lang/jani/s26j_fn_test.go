package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/symbolic"
)

// loadString writes text to a .jani file in a temporary directory and
// loads it.
func loadString(t *testing.T, text string) (*symbolic.Model, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.jani")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(path, nil)
}

// arrFnJANI calls functions whose parameters are arrays: at(arr, k) reads
// an int array, flag(f, k) a bool array, and twice(arr) passes its own
// array parameter on to at. FN is replaced by a further function.
const arrFnJANI = `{"jani-version": 1, "name": "arrfn", "type": "mdp", "features": ["arrays", "functions"],
 "actions": [{"name": "step"}],
 "variables": [{"name": "a", "type": {"kind": "array", "base": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}}, "initial-value": {"op": "av", "elements": [0, 1, 2]}},
               {"name": "b", "type": {"kind": "array", "base": "bool"}, "initial-value": {"op": "av", "elements": [true, true]}},
               {"name": "i", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 2}, "initial-value": 0}],
 "functions": [{"name": "at", "type": "int", "parameters": [{"name": "arr", "type": {"kind": "array", "base": "int"}}, {"name": "k", "type": "int"}],
                "body": {"op": "aa", "exp": "arr", "index": "k"}},
               {"name": "flag", "type": "bool", "parameters": [{"name": "f", "type": {"kind": "array", "base": "bool"}}, {"name": "k", "type": "int"}],
                "body": {"op": "aa", "exp": "f", "index": {"op": "-", "left": "k", "right": 1}}},
               {"name": "twice", "type": "int", "parameters": [{"name": "arr", "type": {"kind": "array", "base": "int"}}],
                "body": {"op": "+", "left": {"op": "call", "function": "at", "args": ["arr", "i"]}, "right": {"op": "call", "function": "at", "args": ["arr", 0]}}}FN],
 "automata": [{"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "action": "step", "guard": {"exp": {"op": "∧", "left": {"op": "<", "left": {"op": "call", "function": "twice", "args": ["a"]}, "right": 5}, "right": {"op": "call", "function": "flag", "args": ["b", {"op": "min", "left": {"op": "+", "left": "i", "right": 1}, "right": 2}]}}},
     "destinations": [{"location": "l", "assignments": [{"ref": "i", "value": {"op": "min", "left": {"op": "+", "left": "i", "right": 1}, "right": 2}}, {"ref": {"op": "aa", "exp": "a", "index": "i"}, "value": {"op": "min", "left": 3, "right": {"op": "+", "left": {"op": "call", "function": "at", "args": [ARG, "i"]}, "right": 1}}}]}]}]}],
 "system": {"elements": [{"automaton": "m"}]}}`

// TestS26jFunctionArrays: an array parameter takes the name of an array
// variable (or of the caller's array parameter), and its body reads the
// elements as the caller's array: the model has the states of the same
// model written without functions (a[i] for at(a, i)). An argument that
// is no array, an array of the other element type, an array value or an
// undeclared name is an error at the argument. (Array parameters were
// refused.)
func TestS26jFunctionArrays(t *testing.T) {
	src := func(fn, arg string) string {
		return strings.NewReplacer("FN", fn, "ARG", arg).Replace(arrFnJANI)
	}
	m, err := loadString(t, src("", `"a"`))
	if err != nil {
		t.Fatal(err)
	}
	if n, err := reachable(m, 100); err != nil || n != 4 {
		t.Errorf("reachable = %d, %v; want 4 (i = 0, 1, 2 while a[i] + a[0] < 5)", n, err)
	}
	for arg, want := range map[string]string{
		`"i"`:                              `argument 1 of function "at" is "i", not an array`,
		`"b"`:                              `argument 1 of function "at" is an array of bool, but parameter "arr" is an array of int`,
		`{"op": "av", "elements": [1, 2]}`: `not an array value or another expression`,
		`"nope"`:                           `undeclared identifier "nope"`,
	} {
		_, err := loadString(t, src("", arg))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("at(%s, i): %v, want an error with %q", arg, err, want)
		}
	}
}

// TestS26jUncalledFunction: a function that nothing calls is checked as
// Storm's parser checks every body, by its types: an undeclared name or
// an operand of the wrong type is an error, also for an argument of a
// call inside it; a body of another type than the function's is a note
// (Storm warns); what vigil supports only for some arguments (a division
// by a parameter) is no error. They loaded without a word.
func TestS26jUncalledFunction(t *testing.T) {
	for _, c := range []struct{ fn, err, note string }{
		{`{"name": "u", "type": "int", "parameters": [{"name": "p", "type": "int"}], "body": {"op": "+", "left": "p", "right": "nosuch"}}`,
			`undeclared identifier "nosuch" (in the body of function "u", which nothing calls`, ""},
		{`{"name": "u", "type": "bool", "parameters": [{"name": "p", "type": "int"}], "body": {"op": "∧", "left": "p", "right": true}}`,
			`"∧" expects a boolean, got int`, ""},
		{`{"name": "u", "type": "int", "parameters": [], "body": {"op": "call", "function": "at", "args": ["b", 1]}}`,
			`argument 1 of function "at" must name an array of int`, ""},
		{`{"name": "u", "type": "int", "parameters": [], "body": {"op": "call", "function": "flag", "args": ["b", true]}}`,
			`argument 2 of function "flag" is bool, but parameter "k" is int`, ""},
		{`{"name": "u", "type": "int", "parameters": [{"name": "q", "type": {"kind": "array", "base": "int"}}], "body": {"op": "aa", "exp": "q", "index": {"op": "ite", "if": "i", "then": 0, "else": 1}}}`,
			`"ite" expects a boolean, got int`, ""},
		{`{"name": "u", "type": "bool", "parameters": [{"name": "p", "type": "int"}], "body": {"op": "+", "left": "p", "right": 1}}`,
			"", `the body of function "u" is int, but the function's type is bool`},
		{`{"name": "u", "type": "real", "parameters": [{"name": "p", "type": "int"}], "body": {"op": "/", "left": "i", "right": "p"}}`, "", ""},
		{`{"name": "u", "type": "bool", "parameters": [{"name": "q", "type": {"kind": "array", "base": "bool"}}, {"name": "k", "type": "int"}], "body": {"op": "call", "function": "flag", "args": ["q", "k"]}}`, "", ""},
	} {
		path := filepath.Join(t.TempDir(), "m.jani")
		if err := os.WriteFile(path, []byte(strings.NewReplacer("FN", ", "+c.fn, "ARG", `"a"`).Replace(arrFnJANI)), 0o644); err != nil {
			t.Fatal(err)
		}
		_, notes, err := LoadNotes(path, nil)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.fn, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want an error with %q", c.fn, err, c.err)
		}
		found := false
		for _, n := range notes {
			found = found || (c.note != "" && strings.Contains(n.Msg, c.note))
		}
		if c.note != "" && !found {
			t.Errorf("%s: notes %v, want one with %q", c.fn, notes, c.note)
		}
	}
}

// TestS26jExactBounds: exactBounds is the least and greatest value of an
// expression over the variables' ranges where they have few
// combinations (a brute-force evaluation agrees), and m.Bounds' interval
// where they have many.
func TestS26jExactBounds(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "x", Lo: -3, Hi: 3}, {Name: "y", Lo: 0, Hi: 2}, {Name: "big", Lo: 0, Hi: 1 << 20}}}
	x, y, big := symbolic.V(0), symbolic.V(1), symbolic.V(2)
	sub := func(a, b *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{a, b}}
	}
	add := func(a, b *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{a, b}}
	}
	mul := func(k int, a *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{a}}
	}
	div := func(a *symbolic.Expr, k int) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpDiv, K: k, Args: []*symbolic.Expr{a}}
	}
	yp1 := add(y, symbolic.Lit(1))
	bounds := exactBounds(m)
	for _, c := range []struct {
		e      *symbolic.Expr
		lo, hi int
	}{
		{sub(yp1, mul(3, div(yp1, 3))), 0, 2},              // (y + 1) % 3
		{sub(x, x), 0, 0},                                  // intervals: -6..6
		{add(mul(2, x), mul(-1, y)), -8, 6},                // exact anyway
		{sub(big, mul(2, div(big, 2))), -1 << 20, 1 << 20}, // too many values: the interval
	} {
		lo, hi := bounds(c.e)
		if lo != c.lo || hi != c.hi {
			ilo, ihi := m.Bounds(c.e)
			t.Errorf("%s: %d..%d, want %d..%d (intervals: %d..%d)", m.ExprString(c.e), lo, hi, c.lo, c.hi, ilo, ihi)
		}
	}
}
