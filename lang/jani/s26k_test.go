package jani_test

import (
	"strings"
	"testing"

	"vigil/symbolic"
)

// levelModel is a model whose one edge (guard x == G) assigns x := x + D
// at index 0 and then, at index LEVEL, r := x % M (Storm's truncated
// remainder of the new x) and, unless OFF is "", a[x - OFF] := 1.
func levelModel(guard, delta, level, mod, off string) string {
	elem := ""
	if off != "" {
		elem = `,
        {"ref": {"op": "aa", "exp": "a", "index": {"op": "-", "left": "x", "right": ` + off + `}}, "value": 1, "index": ` + level + `}`
	}
	return `{"jani-version": 1, "name": "lv", "type": "mdp", "actions": [{"name": "go"}],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": -5, "upper-bound": 5}, "initial-value": 0},
               {"name": "r", "type": {"kind": "bounded", "base": "int", "lower-bound": -4, "upper-bound": 4}, "initial-value": 0},
               {"name": "a", "type": {"kind": "array", "base": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1}}, "initial-value": {"op": "av", "elements": [0, 0]}}],
 "automata": [{"name": "au", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "action": "go", "guard": {"exp": {"op": "=", "left": "x", "right": ` + guard + `}}, "destinations": [{"location": "l", "assignments": [
        {"ref": "x", "value": {"op": "+", "left": "x", "right": ` + delta + `}, "index": 0},
        {"ref": "r", "value": {"op": "%", "left": "x", "right": ` + mod + `}, "index": ` + level + `}` + elem + `]}]}]}],
 "system": {"elements": [{"automaton": "au"}]}}`
}

// TestS26kLeveledNarrowing: an assignment at a later index reads the
// values of the earlier ones, which the edge's guard does not bound. The
// import bounded its % sign and its array index by the guard's narrowing
// of the source state (x == 0): r := x % 3 after x := x - 4 was the floor
// modulo (2, where Storm's truncated remainder is -1), and a[x] after
// x := x + 3 wrote a[0] (an index 3 into an array of 2 dropped, no range
// error, where Storm reports the access out of bounds).
func TestS26kLeveledNarrowing(t *testing.T) {
	// r := (0 - 4) % 3 at index 1: Storm's -1
	m, err := loadText(t, levelModel("0", "-4", "1", "3", ""))
	if err != nil {
		t.Fatal(err)
	}
	s := make(symbolic.State, len(m.Vars))
	next := map[string]int{}
	for _, as := range m.Commands[0].Outcomes[0].Assigns {
		next[m.Vars[as.Var].Name] = as.Value.Eval(s)
	}
	if next["x"] != -4 || next["r"] != -1 {
		t.Errorf("x, r after go = %d, %d; want -4, -1 (Storm's -4 %% 3)", next["x"], next["r"])
	}
	// a[x + 1] at index 0 reads the source state, x = 0, and is taken
	if _, err := loadText(t, levelModel("0", "-4", "0", "3", "-1")); err != nil {
		t.Errorf("a[x + 1] at index 0 under x == 0: %v", err)
	}
	// a[x] at index 1 after x := x + 3 (x = 3): refused, not a[0]
	_, err = loadText(t, levelModel("0", "3", "1", "3", "0"))
	if err == nil || !strings.Contains(err.Error(), "may leave its range") {
		t.Errorf("a[x] at index 1 after x := 3: err = %v, want the index refused", err)
	}
	// a negative index elsewhere is performed first: index 0 is leveled too
	neg := strings.Replace(levelModel("0", "3", "0", "3", "0"), `"right": 3}, "index": 0}`, `"right": 3}, "index": -1}`, 1)
	if _, err := loadText(t, neg); err == nil || !strings.Contains(err.Error(), "may leave its range") {
		t.Errorf("a[x] at index 0 after x := 3 at index -1: err = %v, want the index refused", err)
	}
	// without levels the guard still narrows: a[x] under x == 0
	if _, err := loadText(t, levelModel("0", "0", "0", "3", "0")); err != nil {
		t.Errorf("a[x] under x == 0 without levels: %v", err)
	}
}

// TestS26kModuloLargeModulus: a % b where |b| exceeds every value of a is
// a (Storm computes it so); a modulus beyond the ±2^40 vigil keeps beside
// a variable was refused as "needs more than 64 bits" (2^42 does not),
// and -2^63 as a modulus too.
func TestS26kModuloLargeModulus(t *testing.T) {
	for _, k := range []string{"4398046511104", "-4398046511104", "-9223372036854775808", "9223372036854775807", "6"} {
		src := strings.Replace(levelModel("0", "0", "0", "3", ""), `"right": 3}, "index": 0}`, `"right": `+k+`}, "index": 0}`, 1)
		m, err := loadText(t, src)
		if err != nil {
			t.Fatalf("x %% %s: %v", k, err)
		}
		var r *symbolic.Expr
		for _, as := range m.Commands[0].Outcomes[0].Assigns {
			if m.Vars[as.Var].Name == "r" {
				r = as.Value
			}
		}
		for x := -5; x <= 5; x++ {
			s := make(symbolic.State, len(m.Vars))
			s[0] = x
			if got := r.Eval(s); got != x {
				t.Errorf("%d %% %s = %d, want %d", x, k, got, x)
			}
		}
	}
}
