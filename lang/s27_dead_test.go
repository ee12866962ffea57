package lang

import (
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestS27DeadConstantIndex: a constant index out of range is E0803 only
// where the read is evaluated (spec.md, "Indexing"): the right of a
// constant-decided &&, || or => and the arm of an if with a constant
// condition are never read, so a model sized by -D loads. A read that is
// evaluated stays an error.
func TestS27DeadConstantIndex(t *testing.T) {
	src := `model dead
const N = 4
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. 3 = 0
action step when forall k in 0 .. 3: k >= N || a[k] == 0 -> i' = min(i + 1, 3)
action both when forall k in 0 .. 3: k < N && a[k] == 0 || k >= N -> i' = 0
action imp when forall k in 0 .. 3: (k < N => a[k] == 0) -> i' = 1
action up when (if N > 3 then a[3] else 0) == 0 -> a[0]' = 1
action down when (if N <= 3 then 0 else a[3]) == 1 -> a[0]' = 0
property p { unsafe i == 3 && a[0] == 1 }
`
	for _, n := range []string{"4", "2", "1"} {
		m, diags := LoadSource("dead.spec", []byte(src), Options{Defines: map[string]string{"N": n}})
		if m == nil {
			t.Fatalf("-D N=%s: does not load:\n%s", n, diags.Render())
		}
		if m2, diags := LoadSource("dead.spec", printModel(m), Options{}); m2 == nil {
			t.Errorf("-D N=%s: the printed model does not load:\n%s", n, diags.Render())
		}
		// every guard is true where the array is all 0 (in range)
		s := make(symbolic.State, len(m.Vars))
		for _, c := range m.Commands {
			name := m.Labels[c.Label].Name
			want := name != "down"
			if got := c.Guard.Holds(s); got != want {
				t.Errorf("-D N=%s: guard of %s in the all-zero state is %v, want %v", n, name, got, want)
			}
		}
	}
	for _, bad := range []string{
		`action step when forall k in 0 .. 3: k <= N || a[k] == 0 -> i' = 1`,
		`action up when (if N > 1 then a[3] else 0) == 0 -> i' = 1`,
		`action up when (if N < 3 then a[3] else 0) == 0 -> i' = 1`,
	} {
		src := "model dead\nconst N = 2\nvar a : [0 .. N - 1] of 0 .. 3 = 0\nvar i : 0 .. 3 = 0\n" + bad + "\nproperty p { unsafe i == 3 }\n"
		m, diags := LoadSource("dead.spec", []byte(src), Options{})
		if m != nil || !strings.Contains(diags.Render(), "E0803") {
			t.Errorf("%s: want E0803 (the read is evaluated), got:\n%s", bad, diags.Render())
		}
	}
}
