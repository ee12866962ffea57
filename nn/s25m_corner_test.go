package nn

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// cornerNet has n inputs in [0, 1] and the output
// y = sign·((n+2)·relu(x_1 + ... + x_n - (n - 1/2)) - relu(x_1 + ... + x_n)/2),
// whose largest value (sign 1) or least (sign -1) in the box is ±1, at
// the corner 1, ..., 1 only: the bound is met exactly, at a corner, and
// the gradient at the centre points away from it.
func cornerNet(t *testing.T, n int, sign float64) *Network {
	t.Helper()
	ones := strings.TrimSuffix(strings.Repeat("1.0, ", n), ", ")
	src := fmt.Sprintf(`{"format": "vigil-nn", "version": 1, "layers": [
{"weights": [[%s], [%s]], "bias": [%g, 0], "activation": "relu"},
{"weights": [[%g, %g]], "bias": [0], "activation": "linear"}]}`, ones, ones, -(float64(n) - 0.5), sign*float64(n+2), -sign*0.5)
	net, err := ParseJSON([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return net
}

func cornerProp(t *testing.T, n int, cons string) *Property {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(declare-const X_%d Real)\n", i)
	}
	b.WriteString("(declare-const Y_0 Real)\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "(assert (>= X_%d 0))\n(assert (<= X_%d 1))\n", i, i)
	}
	fmt.Fprintf(&b, "(assert %s)\n", cons)
	prop, err := ParseVNNLIB(b.String())
	if err != nil {
		t.Fatal(err)
	}
	return prop
}

// TestS25CornerCheck: where the output's extreme equals the property's
// bound exactly at a corner of the box, branch and bound cannot close the
// boxes around it (a proof needs the bound beaten by the rounding slack)
// and the searches need not meet the corner (IBP bounds have no linear
// bound to point at it; with one box bounded the branch and bound ends
// at once). The non-strict property (>= Y_0 1), (<= Y_0 -1) is violated
// at the corner: sat, with the corner, checked by the network's float64
// evaluation and the property's numbers compared exactly (Verify). The
// strict property (> Y_0 1), (< Y_0 -1) is not violated there: never sat
// at the corner, never unsat with one box bounded.
func TestS25CornerCheck(t *testing.T) {
	for _, n := range []int{2, 6, 12} {
		for _, c := range []struct {
			sign   float64
			cons   string
			strict bool
		}{
			{1, "(>= Y_0 1)", false},
			{1, "(> Y_0 1)", true},
			{-1, "(<= Y_0 -1)", false},
			{-1, "(< Y_0 -1)", true},
		} {
			net, prop := cornerNet(t, n, c.sign), cornerProp(t, n, c.cons)
			for _, br := range []Branch{BranchInput, BranchReLU} {
				for _, m := range []Method{IBP, CROWN} {
					name := fmt.Sprintf("n=%d %s %v %v", n, c.cons, br, m)
					res, err := net.Verify(prop, time.Minute, Options{Method: m, Branch: br, MaxNodes: 1, Samples: 1, PGDSteps: 1})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					corner := slices.Repeat([]float64{1}, n)
					switch {
					case !c.strict && (res.Answer != Sat || !slices.Equal(res.Input, corner)):
						t.Errorf("%s: %s %v, want sat at the corner %v", name, res.Answer, res.Input, corner)
					case c.strict && res.Answer == Unsat:
						t.Errorf("%s: unsat, but with one box bounded nothing can be proved", name)
					case c.strict && res.Answer == Sat && slices.Equal(res.Input, corner):
						t.Errorf("%s: sat at the corner, where y = %v does not satisfy %s", name, c.sign, c.cons)
					}
				}
			}
		}
	}
}
