package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestS31rVNNLIBEdges: VNNLIB properties over the float64-edge networks
// of TestS31rProveEdges (weights 1e300, subnormals, 2^53, zero-width and
// one-ulp boxes), with output constraints whose coefficients are 1, -1,
// 3, 1e300 or 1e-300 and whose constants sit a hair from the value at
// the box's centre: an unsat answer must have no counterexample among
// the corners, the centre, their neighbouring floats and random points
// (Property.Check: the constraints as written, in exact arithmetic).
func TestS31rVNNLIBEdges(t *testing.T) {
	trials := 1500
	if testing.Short() {
		trials = 300
	}
	count := map[Answer]int{}
	for trial := range trials {
		r := rand.New(rand.NewPCG(uint64(trial), 3131))
		n := s31rNet(r)
		if err := n.validate(); err != nil {
			continue
		}
		box := s31rBox(r, n.Inputs())
		y := n.Eval(center(box))
		g := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
		var b strings.Builder
		for i := range n.Inputs() {
			fmt.Fprintf(&b, "(declare-const X_%d Real)\n", i)
		}
		for j := range n.Outputs() {
			fmt.Fprintf(&b, "(declare-const Y_%d Real)\n", j)
		}
		for i := range n.Inputs() {
			fmt.Fprintf(&b, "(assert (>= X_%d %s))\n(assert (<= X_%d %s))\n", i, g(box.Lo[i]), i, g(box.Hi[i]))
		}
		var cases []string
		for range 1 + r.IntN(2) {
			var cons []string
			for range 1 + r.IntN(2) {
				var terms []string
				v := 0.0
				for j := range n.Outputs() {
					if r.IntN(2) == 0 && len(terms) > 0 {
						continue
					}
					c := []float64{1, -1, 3, 1e300, 1e-300, 0.5}[r.IntN(6)]
					terms = append(terms, fmt.Sprintf("(* %s Y_%d)", g(c), j))
					v += c * y[j]
				}
				k := v + []float64{0, 1e-12, -1e-12, 5e-324, 1, -1}[r.IntN(6)]
				if math.IsInf(k, 0) || math.IsNaN(k) {
					k = s31rVal(r)
				}
				op := []string{"<=", "<", ">=", ">"}[r.IntN(4)]
				cons = append(cons, fmt.Sprintf("(%s (+ %s) %s)", op, strings.Join(terms, " "), g(k)))
			}
			cases = append(cases, "(and "+strings.Join(cons, " ")+")")
		}
		fmt.Fprintf(&b, "(assert (or %s))\n", strings.Join(cases, " "))
		prop, err := ParseVNNLIB(b.String())
		if err != nil {
			continue // refused (an empty box, a bound beyond float64): not answered
		}
		res, err := n.Verify(prop, 100*time.Millisecond, Options{MaxNodes: 400, Seed: uint64(trial)})
		if err != nil {
			t.Errorf("trial %d: %v\n%s", trial, err, b.String())
			continue
		}
		count[res.Answer]++
		if res.Answer != Unsat {
			continue
		}
		for c := range prop.Cases {
			for _, x := range s31rPoints(r, prop.Cases[c].Box) {
				if prop.Check(n, c, x) {
					t.Errorf("trial %d: unsat, but %v (outputs %v) satisfies case %d of\n%s", trial, x, n.Eval(x), c, b.String())
					break
				}
			}
		}
	}
	t.Logf("answers: %v", count)
}
