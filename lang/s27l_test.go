package lang

import (
	"testing"

	"vigil/symbolic"
)

// TestS27lBoolArrayConstVariableIndex: an array constant of conditions
// read at a variable index (B[i - 1], spec.md "Arrays": an element of an
// array constant, at a constant index or one that reads variables) was
// split into an if over its elements, as an integer array is, and the
// model was refused with "the branches of if must be integers, but true is
// a condition" at the constant's declaration. It splits into the
// disjunction of a Boolean array now, in guards, policy rules and
// properties, with its -D value.
func TestS27lBoolArrayConstVariableIndex(t *testing.T) {
	src := `model kb
const B = [true, false, true]
var i : 0 .. 3 = 0
var y : 0 .. 3 = 0
action r when i < 3 -> i' = i + 1
action h when i >= 1 && B[i - 1] -> y' = i
policy rules pi { when i < 3 && B[i] -> r  otherwise -> h }
property p { unsafe i < 3 && !B[i] && y == 1 }
`
	for _, tc := range []struct {
		define string
		want   [4]bool // h's guard at i = 0 .. 3
	}{
		{"", [4]bool{false, true, false, true}},
		{"[false,true,true]", [4]bool{false, false, true, true}},
	} {
		opts := Options{}
		if tc.define != "" {
			opts.Defines = map[string]string{"B": tc.define}
		}
		m, diags := LoadSource("kb.spec", []byte(src), opts)
		if m == nil {
			t.Fatalf("-D B=%s: does not load:\n%s", tc.define, diags.Render())
		}
		if m2, diags := LoadSource("kb.spec", printModel(m), Options{}); m2 == nil {
			t.Errorf("-D B=%s: the printed model does not load:\n%s", tc.define, diags.Render())
		}
		var h *symbolic.Command
		for k := range m.Commands {
			if m.Labels[m.Commands[k].Label].Name == "h" {
				h = &m.Commands[k]
			}
		}
		if h == nil {
			t.Fatal("no command h")
		}
		for i := 0; i <= 3; i++ {
			if got := h.Guard.Holds(symbolic.State{i, 0}); got != tc.want[i] {
				t.Errorf("-D B=%s: guard of h at i=%d is %v, want %v", tc.define, i, got, tc.want[i])
			}
		}
	}
}
