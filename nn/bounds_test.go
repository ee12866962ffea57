package nn

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// toy is auto_LiRPA's examples/simple/toy.py network.
func toy() *Network {
	return &Network{Layers: []Layer{
		{In: 2, Out: 2, W: []float64{1, -1, 2, -1}, B: []float64{0, 0}, Act: ActReLU},
		{In: 2, Out: 1, W: []float64{1, -1}, B: []float64{0}},
	}}
}

func TestToyBounds(t *testing.T) {
	n := toy()
	box := Box{Lo: []float64{-1, -2}, Hi: []float64{2, 1}}
	for _, c := range []struct {
		m      Method
		lo, hi float64
	}{{IBP, -6, 4}, {CROWN, -3, 3}, {Both, -3, 3}, {Alpha, -3, 2}} { // alpha = 1/3 on the second neuron gives 2
		lo, hi, err := n.Bounds(box, nil, c.m)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(lo[0]-c.lo) > 1e-12 || math.Abs(hi[0]-c.hi) > 1e-12 {
			t.Errorf("%v: got [%v, %v], want [%v, %v]", c.m, lo[0], hi[0], c.lo, c.hi)
		}
	}
}

// randomNet returns a network with the given layer sizes and ReLU after
// every hidden layer.
func randomNet(r *rand.Rand, sizes ...int) *Network {
	n := &Network{}
	for i := 1; i < len(sizes); i++ {
		l := Layer{In: sizes[i-1], Out: sizes[i], Act: actIf(i < len(sizes)-1, ActReLU)}
		sc := 1 / math.Sqrt(float64(l.In))
		for k := 0; k < l.In*l.Out; k++ {
			l.W = append(l.W, r.NormFloat64()*sc*1.5)
		}
		for k := 0; k < l.Out; k++ {
			l.B = append(l.B, r.NormFloat64()*0.3)
		}
		n.Layers = append(n.Layers, l)
	}
	return n
}

func randomBox(r *rand.Rand, n int, width float64) Box {
	b := Box{Lo: make([]float64, n), Hi: make([]float64, n)}
	for i := range b.Lo {
		c := r.NormFloat64()
		w := r.Float64() * width
		b.Lo[i], b.Hi[i] = c-w, c+w
	}
	return b
}

// randomSpec returns rows random linear specifications (rows of C in
// Network.Bounds) over outputs outputs.
func randomSpec(r *rand.Rand, rows, outputs int) [][]float64 {
	C := make([][]float64, rows)
	for i := range C {
		C[i] = make([]float64, outputs)
		for j := range C[i] {
			C[i][j] = r.NormFloat64()
		}
	}
	return C
}

// checkSampled evaluates n at 2000 points of box drawn by samplePoint and
// fails the test if a row of C applied to the outputs leaves [lo, hi] by
// more than the relative tolerance rel; what names the bounds in the
// message.
func checkSampled(t *testing.T, r *rand.Rand, n *Network, box Box, C [][]float64, lo, hi []float64, rel float64, what string) {
	t.Helper()
	x := make([]float64, n.Inputs())
	y := make([]float64, n.Outputs())
	ev := NewEvaluator(n)
	for s := 0; s < 2000; s++ {
		samplePoint(r, box, x)
		ev.Eval(x, y)
		for k, row := range C {
			v := 0.0
			for j, c := range row {
				v += c * y[j]
			}
			tol := rel * (1 + math.Abs(v))
			if v < lo[k]-tol || v > hi[k]+tol {
				t.Fatalf("%s: row %d value %v at %v outside [%v, %v]", what, k, v, x, lo[k], hi[k])
			}
		}
	}
}

func samplePoint(r *rand.Rand, b Box, x []float64) {
	for i := range x {
		switch r.IntN(8) {
		case 0:
			x[i] = b.Lo[i]
		case 1:
			x[i] = b.Hi[i]
		default:
			x[i] = b.Lo[i] + r.Float64()*(b.Hi[i]-b.Lo[i])
		}
	}
}

func TestBoundsSound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 60; trial++ {
		nin := 1 + r.IntN(5)
		n := randomNet(r, nin, 2+r.IntN(12), 2+r.IntN(12), 1+r.IntN(4))
		if trial%3 == 0 {
			n.InMin, n.InMax = make([]float64, nin), make([]float64, nin)
			n.InMean, n.InRange = make([]float64, nin), make([]float64, nin)
			for i := 0; i < nin; i++ {
				n.InMin[i], n.InMax[i] = -1+r.Float64(), 1+r.Float64()
				n.InMean[i], n.InRange[i] = r.NormFloat64(), 0.5+r.Float64()
			}
			n.OutMean, n.OutRange = make([]float64, n.Outputs()), make([]float64, n.Outputs())
			for i := range n.OutMean {
				n.OutMean[i], n.OutRange[i] = r.NormFloat64(), 0.5+r.Float64()
			}
		}
		if trial%4 == 1 {
			n.Layers[len(n.Layers)-1].Act = ActReLU // test_nano ends in a ReLU
		}
		if trial%5 == 2 {
			n.Layers[1].Act = ActLinear // two linear layers in a row (JSON allows it)
		}
		if err := n.validate(); err != nil {
			t.Fatal(err)
		}
		box := randomBox(r, nin, 1.5)
		C := randomSpec(r, 3, n.Outputs())
		for _, m := range []Method{IBP, CROWN, Both, Alpha} {
			lo, hi, err := n.Bounds(box, C, m)
			if err != nil {
				t.Fatal(err)
			}
			checkSampled(t, r, n, box, C, lo, hi, 1e-9, fmt.Sprintf("trial %d %v", trial, m))
		}
	}
}

// checkAllMethods computes every method's bounds of C times n's outputs
// over box, checks them at sampled points (within rel) and, when corners,
// at every corner of the box, and returns the summed widths of IBP's and
// CROWN's bounds.
func checkAllMethods(t *testing.T, r *rand.Rand, n *Network, box Box, C [][]float64, rel float64, corners bool, what string) (wIBP, wCROWN float64) {
	t.Helper()
	for _, m := range []Method{IBP, CROWN, Both, Alpha} {
		lo, hi, err := n.Bounds(box, C, m)
		if err != nil {
			t.Fatal(err)
		}
		for k := range lo {
			switch m {
			case IBP:
				wIBP += hi[k] - lo[k]
			case CROWN:
				wCROWN += hi[k] - lo[k]
			}
		}
		w := fmt.Sprintf("%s %v", what, m)
		checkSampled(t, r, n, box, C, lo, hi, rel, w)
		if corners {
			checkCorners(t, n, box, C, lo, hi, w)
		}
	}
	return wIBP, wCROWN
}
