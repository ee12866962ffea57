package jani_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang/jani"
	"vigil/symbolic"
)

// loadText writes text to a .jani file in a temporary directory and
// loads it.
func loadText(t *testing.T, text string) (*symbolic.Model, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.jani")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return jani.Load(path, nil)
}

// TestS26jModuloTruncated: JANI's a % b is Storm's, the remainder of
// division truncated toward zero (C++ %, as Go's %), with the sign of a,
// for every sign of a and of the constant b, over a variable whose range
// has either sign only or both, and folded on constants too. vigil read
// the floor modulo (-7 % 3 = 2 where Storm has -1) and refused b < 0.
func TestS26jModuloTruncated(t *testing.T) {
	for _, rng := range [][2]int{{-9, 9}, {-9, -1}, {0, 9}, {-9, 0}} {
		for _, b := range []int{1, 2, 3, 5, -1, -4, 7} {
			src := fmt.Sprintf(`{"jani-version": 1, "name": "m", "type": "lts",
 "constants": [{"name": "K", "type": "int", "value": {"op": "%%", "left": -7, "right": %d}}],
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": %d, "upper-bound": %d}, "initial-value": %d},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": -20, "upper-bound": 20}, "initial-value": 0}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "y", "value": {"op": "+", "left": {"op": "%%", "left": "x", "right": %d}, "right": {"op": "*", "left": 10, "right": "K"}}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]}}`, b, rng[0], rng[1], rng[0], b)
			m, err := loadText(t, src)
			if err != nil {
				t.Fatalf("range %v, b=%d: %v", rng, b, err)
			}
			y := m.Commands[0].Outcomes[0].Assigns[0].Value
			for x := rng[0]; x <= rng[1]; x++ {
				want := x%b + 10*(-7%b)
				if got := y.Eval(symbolic.State{x, 0}); got != want {
					t.Errorf("range %v: %d %% %d + 10*(-7 %% %d) = %d, want %d", rng, x, b, b, got, want)
				}
			}
		}
	}
}

// TestS26jModuloZero: a modulus of 0 is an error at the operator, on a
// variable and on constants alike.
func TestS26jModuloZero(t *testing.T) {
	for _, left := range []string{`"x"`, `5`} {
		src := `{"jani-version": 1, "name": "m", "type": "lts",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": -3, "upper-bound": 3}, "initial-value": 0}],
 "automata": [{"name": "a", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [{"location": "l", "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "%", "left": ` + left + `, "right": 0}}]}]}]}],
 "system": {"elements": [{"automaton": "a"}]}}`
		if _, err := loadText(t, src); err == nil {
			t.Errorf("%s %% 0 loaded", left)
		}
	}
}
