package nn

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Session 33 (h-revm): vigil nn bound's bounds hold for float64
// evaluation. Bounds is about exact arithmetic, computed without outward
// rounding; EvalBounds widens it by the certifiers' slack, and the text
// output rounds outward. Here the printed bounds (text, read back) and
// the whole ones (JSON) are compared with Eval at sampled float64 inputs
// of random networks: s33nNet's (every activation, transforms, scales
// 1e-3 to 1e8) and large-magnitude ones (weights and biases 2^30 to
// 2^60 that cancel, boxes a few ulps to 1e-6 wide).

// s33mBigNet draws a ReLU or linear network whose first layer cancels
// large terms: neuron i computes about s (x_a - x_b) + c with s and c up
// to 2^60, so that its value is small against its terms.
func s33mBigNet(rng *rand.Rand) *Network {
	nin := 2 + rng.IntN(3)
	depth := 2 + rng.IntN(3)
	n := &Network{}
	in := nin
	for d := 0; d < depth; d++ {
		out := 1 + rng.IntN(4)
		if d == depth-1 {
			out = 1 + rng.IntN(3)
		}
		l := Layer{In: in, Out: out, W: make([]float64, in*out), B: make([]float64, out)}
		for i := 0; i < out; i++ {
			s := math.Ldexp(1+rng.Float64(), 30+rng.IntN(31))
			if rng.IntN(2) == 0 {
				s = -s
			}
			if d == 0 {
				a, b := rng.IntN(in), rng.IntN(in)
				l.W[i*in+a] += s
				l.W[i*in+b] -= s * (1 + math.Ldexp(rng.NormFloat64(), -40))
				if rng.IntN(2) == 0 {
					l.W[i*in+rng.IntN(in)] += rng.NormFloat64()
				}
				l.B[i] = -s * rng.NormFloat64() * math.Ldexp(1, -rng.IntN(40))
			} else {
				for j := 0; j < in; j++ {
					l.W[i*in+j] = rng.NormFloat64() * []float64{1, 1e-6, math.Ldexp(1, 20)}[rng.IntN(3)]
				}
				if rng.IntN(2) == 0 {
					l.B[i] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(61))
				}
			}
		}
		if d < depth-1 {
			l.Act = []Activation{ActReLU, ActReLU, ActLinear, ActLeakyReLU}[rng.IntN(4)]
			if l.Act == ActLeakyReLU {
				l.Slope = 0.01
			}
		}
		n.Layers = append(n.Layers, l)
		in = out
	}
	return n
}

// s33mBigBox is a box around a centre of magnitude up to 2^20, a point,
// a few ulps, or 1e-12 to 1e-6 wide.
func s33mBigBox(rng *rand.Rand, nin int) Box {
	b := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
	kind := rng.IntN(3)
	c0 := rng.NormFloat64() * math.Ldexp(1, rng.IntN(21))
	for i := range b.Lo {
		c := c0 + rng.NormFloat64()*math.Ldexp(1, -rng.IntN(30))
		b.Lo[i], b.Hi[i] = c, c
		switch kind {
		case 1:
			for k := rng.IntN(8); k > 0; k-- {
				b.Hi[i] = math.Nextafter(b.Hi[i], math.Inf(1))
			}
		case 2:
			w := math.Pow(10, -12+6*rng.Float64())
			b.Lo[i], b.Hi[i] = c-w/2, c+w/2
		}
	}
	return b
}

// s33mPrinted returns the bounds the text output prints, read back.
func s33mPrinted(t *testing.T, lo, hi []float64) (plo, phi []float64) {
	t.Helper()
	var buf bytes.Buffer
	if err := (BoundsReport{Lower: lo, Upper: hi}).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		f := strings.Fields(line)
		l, err1 := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(f[2], "["), ","), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSuffix(f[3], "]"), 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot read back %q", line)
		}
		plo, phi = append(plo, l), append(phi, h)
	}
	return plo, phi
}

// s33mCheck bounds n over b with every method and checks Eval at xs
// against the bounds and the printed bounds; it returns the number of
// comparisons.
func s33mCheck(t *testing.T, n *Network, b Box, xs [][]float64) int {
	t.Helper()
	ys := make([][]float64, len(xs))
	for i, x := range xs {
		ys[i] = n.Eval(append([]float64(nil), x...))
	}
	count := 0
	for _, m := range []Method{IBP, CROWN, Both, Alpha} {
		lo, hi, err := n.EvalBounds(b, m)
		if err != nil {
			t.Fatal(err)
		}
		plo, phi := s33mPrinted(t, lo, hi)
		for j := range lo {
			if !(plo[j] <= lo[j] && phi[j] >= hi[j]) {
				t.Fatalf("%v: output %d: printed [%v, %v] does not hold [%v, %v]", m, j, plo[j], phi[j], lo[j], hi[j])
			}
			for i, y := range ys {
				if math.IsNaN(y[j]) {
					if !math.IsInf(lo[j], -1) || !math.IsInf(hi[j], 1) {
						t.Fatalf("%v: output %d is NaN at %v, bounds [%v, %v]", m, j, xs[i], lo[j], hi[j])
					}
					continue
				}
				count++
				if y[j] < lo[j] || y[j] > hi[j] {
					t.Fatalf("%v: output %d at %v is %v, outside the bounds [%v, %v]\nnetwork %+v\nbox %v", m, j, xs[i], y[j], lo[j], hi[j], *n, b)
				}
			}
		}
	}
	return count
}

// TestS33mEvalBoundsSampled draws networks and boxes and checks that
// every output evaluated in float64 at the samples lies within
// EvalBounds' bounds and the text output's.
func TestS33mEvalBoundsSampled(t *testing.T) {
	seed, nets := uint64(1), 300
	if v, err := strconv.Atoi(os.Getenv("S33M_NETS")); err == nil {
		seed, nets = uint64(v), v // a longer hunt: S33M_NETS=5000
	}
	if testing.Short() {
		nets = 100
	}
	rng := rand.New(rand.NewPCG(332, seed))
	total := 0
	for it := 0; it < nets; it++ {
		for _, big := range []bool{false, true} {
			var n *Network
			var b Box
			if big {
				n = s33mBigNet(rng)
			} else {
				n = s33nNet(rng)
			}
			if err := n.validate(); err != nil {
				t.Fatal(err)
			}
			for bi := 0; bi < 3; bi++ {
				if big {
					b = s33mBigBox(rng, n.Inputs())
				} else {
					b = s33nBox(rng, n.Inputs())
				}
				total += s33mCheck(t, n, b, s33nSamples(rng, b, 30))
			}
		}
	}
	t.Logf("%d comparisons", total)
}

// TestS33mEvalBoundsLinear: y = 5.68 (5.38 x + 2.32) + 5.93 over
// [23.4, 24.4] is 734.1741599999998 in float64 at x = 23.4, which
// CROWN's exact-arithmetic lower bound 734.17416 excluded (and the text
// output, rounded to the nearest, printed even IBP's 734.1741599999998
// as 734.17416).
func TestS33mEvalBoundsLinear(t *testing.T) {
	n := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{5.38}, B: []float64{2.32}}, {In: 1, Out: 1, W: []float64{5.68}, B: []float64{5.93}}}}
	b := Box{Lo: []float64{23.4}, Hi: []float64{24.4}}
	y := n.Eval([]float64{23.4})[0]
	for _, m := range []Method{IBP, CROWN, Both, Alpha} {
		lo, hi, err := n.EvalBounds(b, m)
		if err != nil {
			t.Fatal(err)
		}
		if lo[0] > y {
			t.Errorf("%v: lower bound %v above the output %v at 23.4", m, lo[0], y)
		}
		var buf bytes.Buffer
		if err := (BoundsReport{Lower: lo, Upper: hi}).WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		if got := strings.TrimSpace(buf.String()); got != "y0 in [734.17415, 764.73257]" {
			t.Errorf("%v: printed %q, want y0 in [734.17415, 764.73257]", m, got)
		}
	}
	// Where evaluation might overflow, nothing is known.
	big := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{1e308}, B: []float64{0}}}}
	lo, hi, err := big.EvalBounds(Box{Lo: []float64{2}, Hi: []float64{3}}, Both)
	if err != nil || !math.IsInf(lo[0], -1) || !math.IsInf(hi[0], 1) {
		t.Errorf("1e308 x over [2, 3]: [%v, %v] (%v), want [-Inf, +Inf]", lo, hi, err)
	}
}

// TestS33mBoundText: the text output rounds outward: a printed lower
// bound reads back at or below the bound, an upper one at or above;
// exact 8-digit values are written as they are.
func TestS33mBoundText(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 2))
	for i := 0; i < 200000; i++ {
		x := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		if i%5 == 0 {
			x = math.Float64frombits(rng.Uint64())
		}
		if math.IsNaN(x) {
			continue
		}
		for _, up := range []bool{false, true} {
			s := boundText(x, up)
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || up && v < x || !up && v > x {
				t.Fatalf("boundText(%v, up=%v) = %q", x, up, s)
			}
			if len(s) > 14 && !strings.Contains(s, "e") {
				// 8 digits, a sign, a point and up to 4 zeros after it
				t.Logf("boundText(%v, up=%v) = %q written in full", x, up, s)
			}
		}
	}
	for _, x := range []float64{-3, 3, -2e16, 0.5, 0, math.Inf(1), math.Inf(-1), 734.17416, math.MaxFloat64, -math.MaxFloat64, 5e-324} {
		for _, up := range []bool{false, true} {
			if s, want := boundText(x, up), strconv.FormatFloat(x, 'g', 8, 64); s != want {
				if v, _ := strconv.ParseFloat(want, 64); v == x {
					t.Errorf("boundText(%v, %v) = %q, want %q", x, up, s, want)
				}
			}
		}
	}
	for _, c := range []struct {
		x    float64
		up   bool
		want string
	}{
		{734.1741599999998, false, "734.17415"},
		{734.1741599999998, true, "734.17416"},
		{-3.0000000010000183, false, "-3.0000001"},
		{3.0000000010000187, true, "3.0000001"},
		{99999999.5, true, "1e+08"},
		{99999999.2, true, "1e+08"},
		{-99999999.2, true, "-99999999"},
		{99999999.5, false, "99999999"},
		{-99999999.5, false, "-1e+08"},
		{1.00000001e8, false, "1e+08"},
		{1.000000001e8, true, "1.0000001e+08"},
		{1.00000004e8, false, "1e+08"},
	} {
		if got := boundText(c.x, c.up); got != c.want {
			t.Errorf("boundText(%v, up=%v) = %q, want %q", c.x, c.up, got, c.want)
		}
	}
}
