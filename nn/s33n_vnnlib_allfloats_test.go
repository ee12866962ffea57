package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Session 33: nn verify against the exact answer on input boxes small
// enough to evaluate every float64 in them (one input, up to 3000
// consecutive floats; two inputs, 50 by 50). The thresholds of the
// output constraints are scores the network takes at some float of the
// box, so that the answer hinges on float64 rounding: (<= Y_j t) with t
// the least value of Y_j is sat at exactly the floats where Y_j reaches
// it; (< Y_j t) is unsat; (>= (- Y_i Y_j) d) with d the largest
// difference is sat where it is reached. An unsat where the enumeration
// finds a counterexample is a wrong proof; a sat answer's counterexample
// is checked by Verify itself (an internal error otherwise).

// s33nFloats returns every float64 from lo upwards, k of them.
func s33nFloats(lo float64, k int) []float64 {
	xs := make([]float64, k)
	for i := range xs {
		xs[i] = lo
		lo = math.Nextafter(lo, math.Inf(1))
	}
	return xs
}

// s33nNum writes f exactly for VNNLIB (a hexadecimal float).
func s33nNum(f float64) string {
	if f < 0 {
		return "(- " + strconv.FormatFloat(-f, 'x', -1, 64) + ")"
	}
	return strconv.FormatFloat(f, 'x', -1, 64)
}

func TestS33nVNNLIBAllFloats(t *testing.T) {
	seed, nets := uint64(1), 120
	if v, err := strconv.Atoi(os.Getenv("S33N_NETS")); err == nil {
		seed, nets = uint64(v), v
	}
	if testing.Short() {
		nets = 30
	}
	rng := rand.New(rand.NewPCG(36, seed))
	counts := map[string]int{}
	for it := 0; it < nets; it++ {
		var n *Network
		for n == nil || n.Inputs() > 2 {
			n = s33nNet(rng)
		}
		nin, nout := n.Inputs(), n.Outputs()
		// The box: consecutive floats from a random start.
		start := make([]float64, nin)
		var axes [][]float64
		for i := range start {
			start[i] = rng.NormFloat64() * []float64{1, 100, 1e6}[rng.IntN(3)]
			k := 3000
			if nin == 2 {
				k = 50
			}
			axes = append(axes, s33nFloats(start[i], k))
		}
		var pts [][]float64
		if nin == 1 {
			for _, x := range axes[0] {
				pts = append(pts, []float64{x})
			}
		} else {
			for _, a := range axes[0] {
				for _, b := range axes[1] {
					pts = append(pts, []float64{a, b})
				}
			}
		}
		ys := make([][]float64, len(pts))
		finite := true
		for i, x := range pts {
			ys[i] = n.Eval(x)
			for _, v := range ys[i] {
				finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
			}
		}
		if !finite {
			continue
		}
		var head strings.Builder
		for i := 0; i < nin; i++ {
			fmt.Fprintf(&head, "(declare-const X_%d Real)\n", i)
		}
		for j := 0; j < nout; j++ {
			fmt.Fprintf(&head, "(declare-const Y_%d Real)\n", j)
		}
		for i := 0; i < nin; i++ {
			ax := axes[i]
			fmt.Fprintf(&head, "(assert (>= X_%d %s))\n(assert (<= X_%d %s))\n", i, s33nNum(ax[0]), i, s33nNum(ax[len(ax)-1]))
		}
		j := rng.IntN(nout)
		k := (j + 1 + rng.IntN(nout-1)) % nout
		lowest, widest := math.Inf(1), math.Inf(-1)
		for _, y := range ys {
			lowest = min(lowest, y[j])
			widest = max(widest, y[j]-y[k])
		}
		type query struct {
			name, cons string
			holds      func(y []float64) bool
		}
		// y[j] - y[k] >= d, decided exactly in float64 here as the
		// difference is exact or d is a computed difference: compare
		// with the property's exact reading (Check).
		queries := []query{
			{"min", fmt.Sprintf("(assert (<= Y_%d %s))\n", j, s33nNum(lowest)), func(y []float64) bool { return y[j] <= lowest }},
			{"below-min", fmt.Sprintf("(assert (< Y_%d %s))\n", j, s33nNum(lowest)), func(y []float64) bool { return y[j] < lowest }},
			{"diff", fmt.Sprintf("(assert (>= (- Y_%d Y_%d) %s))\n", j, k, s33nNum(widest)), nil},
			{"tie", fmt.Sprintf("(assert (>= Y_%d Y_%d))\n", j, k), func(y []float64) bool { return y[j] >= y[k] }},
			{"strict", fmt.Sprintf("(assert (> Y_%d Y_%d))\n", j, k), func(y []float64) bool { return y[j] > y[k] }},
		}
		for _, q := range queries {
			prop, err := ParseVNNLIB(head.String() + q.cons)
			if err != nil {
				t.Fatal(err)
			}
			exists := false
			for i, x := range pts {
				if q.holds != nil && q.holds(ys[i]) || q.holds == nil && prop.Check(n, 0, x) {
					exists = true
					break
				}
			}
			res, err := n.Verify(prop, 0, Options{MaxNodes: 400, Seed: uint64(it)})
			if err != nil {
				t.Fatalf("%s: %v\nnetwork %+v\n%s", q.name, err, *n, head.String()+q.cons)
			}
			counts[fmt.Sprintf("%s exists=%v %s", q.name, exists, res.Answer)]++
			if res.Answer == Unsat && exists {
				t.Fatalf("%s: unsat, but a float of the box is a counterexample\nnetwork %+v\n%s", q.name, *n, head.String()+q.cons)
			}
			if res.Answer == Sat && !exists {
				t.Fatalf("%s: sat at %v, but no float of the box is a counterexample\nnetwork %+v\n%s", q.name, res.Input, *n, head.String()+q.cons)
			}
		}
	}
	t.Logf("%v", counts)
}
