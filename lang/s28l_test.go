package lang

import (
	"strings"
	"testing"
)

// TestS28lFoldFromTheLeft: constant conditions folded where a constant is
// due (a count in a quantifier's bound, a policy's when) evaluate &&, ||
// and => from the left, as expressions do: with N = 2 and G = [1, 2],
// k < N decides k < N && G[k] > 0 for k >= 2, and G[2] is never read.
// Both operands were folded, which was E0803 at G[k].
func TestS28lFoldFromTheLeft(t *testing.T) {
	src := `model q
const N = 3
const G = [1, 2, 3]
var x : 0 .. 5 = 0
action s when exists j in 0 .. (count k in 0 .. 3: k < N && G[k] > 0): x == j -> x' = x + 1
action r when x == 5 -> x' = 0
policy rules p when N < 3 || G[3] > 0 { otherwise -> r }
property p { unsafe x == 4 }
`
	m, diags := LoadSource("q.spec", []byte(src), Options{Defines: map[string]string{"N": "2", "G": "[1,2]"}})
	if m == nil {
		t.Fatalf("does not load:\n%s", diags.Render())
	}
	if len(m.Policies) != 1 {
		t.Errorf("policy p (when N < 3 || ...) has %d policies, want 1", len(m.Policies))
	}
	// the bound is 2: s is applicable where x is 0, 1 or 2
	for x, want := range []bool{true, true, true, false} {
		s := make([]int, len(m.Vars))
		s[0] = x
		if got := m.Commands[0].Guard.Holds(s); got != want {
			t.Errorf("x = %d: guard of s is %v, want %v", x, got, want)
		}
	}
	// a read the left operand does not rule out is made
	_, diags = LoadSource("q.spec", []byte(src), Options{Defines: map[string]string{"G": "[1,2]"}})
	if !strings.Contains(diags.Render(), "E0803") {
		t.Errorf("N = 3, G = [1, 2]: want E0803 at G[2], got:\n%s", diags.Render())
	}
}
