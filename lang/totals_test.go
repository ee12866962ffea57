package lang

import (
	"fmt"
	"strings"
	"testing"
)

// A short file may not make the front end build millions of state
// variables, quantifier terms or commands: the model-wide totals
// (MaxArrayElements, MaxQuantTotal, MaxExpansionTotal) are positioned
// errors, reported once, where each declaration alone is within its own
// limit.
func TestModelTotals(t *testing.T) {
	many := func(n int, format string) string {
		var b strings.Builder
		b.WriteString("model big\nvar x : 0 .. 9 = 0\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, format+"\n", i)
		}
		return b.String() + "property p { unsafe false }\n"
	}
	for _, c := range []struct{ name, src, want string }{
		{"arrays", many(3, "var r%d : [1 .. 100000] of bool = false"),
			"big.spec:5:11: error[E0802]: array r2 brings the model's array variables to 300000 elements, more than the 250000 vigil takes in all; shrink the arrays"},
		{"quantifiers", many(6, "pred p%d = forall i in 1 .. 100000 : x + i > 0"),
			"big.spec:8:11: error[E0704]: the quantifiers of the model expand to more than 500000 terms and assignments in all (this one brings them to 600000); narrow their ranges"},
		{"forall assignments", "model big\nvar r : [1 .. 1000] of 0 .. 9 = 0\naction a -> forall k in 1 .. 1000 : r[k]' = min(9, (count i in 1 .. 99999 : r[k] > 0))\nproperty p { unsafe false }\n",
			"error[E0704]: the quantifiers of the model expand to more than 500000 terms and assignments in all"},
		{"schemas", many(3, "action a%d(k in 1 .. 100000) when x < 9 -> x' = x + 1"),
			"big.spec:5:8: error[E0701]: action a2 brings the commands of the model's action schemas to 300000, more than the limit of 250000 in all; narrow the parameter ranges"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := LoadSource("big.spec", []byte(c.src), Options{})
			out := diags.Render()
			if !strings.Contains(out, c.want) {
				t.Fatalf("want %q in\n%s", c.want, out)
			}
			if n := strings.Count(out, "in all"); n != 1 {
				t.Errorf("the total is reported %d times:\n%s", n, out)
			}
		})
	}
}
