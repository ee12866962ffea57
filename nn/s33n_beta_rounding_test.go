package nn

import (
	"math/rand/v2"
	"testing"
)

// s33nBetaNet is the network of TestS33nBetaRounding: z = B + x1 + x2 +
// x3 (a ReLU neuron whose terms are 2^40 in size and cancel to about 0
// on the box) and f = c - relu(x3) + h relu(x3 - x3s) + eps relu(z),
// which is least, 0 in float64 (c chosen so), at x3 = x3s.
func s33nBetaNet(x1, x2, x3s, h, eps float64) *Network {
	const B = -(1 << 40)
	n := &Network{Layers: []Layer{
		{In: 3, Out: 4, W: []float64{1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1}, B: []float64{0, 0, 0, -x3s}, Act: ActReLU},
		{In: 4, Out: 3, W: []float64{1, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1}, B: []float64{B, 0, 0}, Act: ActReLU},
		{In: 3, Out: 1, W: []float64{eps, -1, h}, B: []float64{0}},
	}}
	n.Layers[2].B[0] = -n.Eval([]float64{x1, x2, x3s})[0]
	return n
}

// TestS33nBetaRounding: beta-CROWN's multipliers bring a split neuron's
// terms into a bound of a row that may not read the neuron at all; with
// z = -2^40 + x1 + x2 + x3 split at 0, the bound of f computed in float64
// came out 3e-4 above f's value 0 at x3s, beyond the margin (which
// covers the rounding of f's own evaluation), and ReLU-split branch and
// bound proved f > 0 on the box (nn verify: unsat where Y_0 = 0 at
// X_2 = x3s). The backward pass of alpha.go now lowers its bound by its
// own rounding error.
func TestS33nBetaRounding(t *testing.T) {
	x1, x2, x3s := 0.6283138318080206, 1.0995116276618396e+12, 113.5321044921875
	box := Box{Lo: []float64{x1, x2, 113.5320944921875}, Hi: []float64{x1, x2, 113.5321081921875}}
	d := Disjunction{Rows: [][]float64{{1}}, Off: []float64{0}}
	for _, eps := range []float64{1e-4, 0} {
		n := s33nBetaNet(x1, x2, x3s, 1.5, eps)
		if y := n.Eval([]float64{x1, x2, x3s})[0]; y > 0 {
			t.Fatalf("f(x3s) = %v, want <= 0", y)
		}
		for _, m := range []Method{Both, Alpha} {
			res, err := n.Prove(box, d, Options{Method: m, Branch: BranchReLU, MaxNodes: 300})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict == Proved {
				t.Errorf("eps %v, %v: proved f > 0 on %v, but f(x3 = %v) = 0", eps, m, box, x3s)
			}
		}
		prop, err := ParseVNNLIB("(declare-const X_0 Real)\n(declare-const X_1 Real)\n(declare-const X_2 Real)\n(declare-const Y_0 Real)\n" +
			"(assert (= X_0 0x1.41b259be7ad34p-1))\n(assert (= X_1 1099511627661.8396))\n" +
			"(assert (>= X_2 113.5320944921875))\n(assert (<= X_2 113.5321081921875))\n(assert (<= Y_0 0))\n")
		if err != nil {
			t.Fatal(err)
		}
		for _, br := range []Branch{BranchReLU, BranchAuto} {
			res, err := n.Verify(prop, 0, Options{Branch: br, MaxNodes: 300})
			if err != nil {
				t.Fatal(err)
			}
			if res.Answer == Unsat {
				t.Errorf("eps %v, %v: nn verify unsat, but Y_0 = 0 at X_2 = %v", eps, br, x3s)
			}
		}
	}
	// The family: random x1, x2 on the grid of 2^40, widths, slopes.
	rng := rand.New(rand.NewPCG(6, 6))
	for it := 0; it < 120; it++ {
		x1 := 0.5 + rng.Float64()*0.5
		x2 := float64(1<<40) - float64(rng.IntN(1<<20))*0x1p-12 - 1.5
		x3s := -(-(1 << 40) + x1 + x2)
		n := s33nBetaNet(x1, x2, x3s, []float64{2, 3, 1.5}[rng.IntN(3)], []float64{1e-3, 1e-4, 1e-6}[rng.IntN(3)])
		if n.Eval([]float64{x1, x2, x3s})[0] > 0 {
			continue
		}
		w := []float64{1e-6, 1e-5, 1e-4}[rng.IntN(3)]
		b := Box{Lo: []float64{x1, x2, x3s - w}, Hi: []float64{x1, x2, x3s + 0.37*w}}
		for _, m := range []Method{Both, Alpha} {
			res, err := n.Prove(b, d, Options{Method: m, Branch: BranchReLU, MaxNodes: 300, Seed: uint64(it)})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict == Proved {
				t.Fatalf("it %d, %v: proved f > 0 on %v, but f(x3 = %v) = %v", it, m, b, x3s, n.Eval([]float64{x1, x2, x3s}))
			}
		}
	}
}
