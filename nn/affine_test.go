package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// affineRows is affine's definition, one row after the other: s = b, then
// s = s + w_j*x_j for j = 1..In, each product and sum rounded.
func affineRows(l *Layer, x, y []float64) {
	for i := 0; i < l.Out; i++ {
		s := l.B[i]
		for j, w := range l.W[i*l.In : (i+1)*l.In] {
			s += float64(w * x[j])
		}
		y[i] = applyAct(l, s)
	}
}

// TestAffineOrder holds affine (four rows side by side) to the same bits
// as the row-by-row definition, on layers whose row count is and is not a
// multiple of four, with values of mixed magnitude so that a different
// order of summation would round differently.
func TestAffineOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][2]int{{9, 64}, {64, 64}, {64, 5}, {3, 7}, {1, 1}, {5, 3}} {
		for _, act := range []Activation{ActReLU, ActLeakyReLU, ActLinear, ActTanh} {
			l := Layer{In: sz[0], Out: sz[1], W: make([]float64, sz[0]*sz[1]), B: make([]float64, sz[1]), Act: act, Slope: 0.01}
			for i := range l.W {
				l.W[i] = r.NormFloat64() * 1e3
			}
			for i := range l.B {
				l.B[i] = r.NormFloat64()
			}
			x := make([]float64, sz[0])
			got, want := make([]float64, sz[1]), make([]float64, sz[1])
			for range 200 {
				for i := range x {
					x[i] = r.NormFloat64() * 1e5
				}
				affine(&l, x, got)
				affineRows(&l, x, want)
				for i := range got {
					if got[i] != want[i] {
						t.Fatalf("layer %dx%d, %v: output %d = %v, want %v", sz[0], sz[1], act, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// TestAffineKernel holds the evaluator's vector kernel (affinePacked: the
// whole blocks of sixteen rows at once, where the processor has one) to
// the row-by-row definition bit for bit, the sign of zero included (a NaN
// must be a NaN; its payload is no part of the semantics, lang/spec.md,
// and the Go compiler's scalar loops do not keep it either), on row counts around multiples of sixteen, with ordinary and
// special values (±0, ±Inf, NaNs of two payloads, subnormals, sums that
// overflow), for every activation.
func TestAffineKernel(t *testing.T) {
	if !hasAffine16 {
		t.Skip("no vector kernel on this processor: evaluators use the scalar loop that TestAffineOrder checks")
	}
	nan2 := math.Float64frombits(0x7ff8000000000123)
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), nan2,
		5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 0.1, 3}
	r := rand.New(rand.NewPCG(16, 61))
	for _, act := range []Activation{ActReLU, ActLeakyReLU, ActLinear, ActTanh, ActSigmoid} {
		for _, out := range []int{15, 16, 17, 31, 32, 33, 64, 70} {
			for _, in := range []int{1, 3, 16, 64} {
				l := Layer{In: in, Out: out, W: make([]float64, in*out), B: make([]float64, out), Act: act, Slope: 0.01}
				x := make([]float64, in)
				got, want := make([]float64, out), make([]float64, out)
				for rep := range 40 {
					pick := func() float64 {
						if rep%2 == 0 || r.IntN(4) > 0 {
							return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
						}
						return special[r.IntN(len(special))]
					}
					for i := range l.W {
						l.W[i] = pick()
					}
					for i := range l.B {
						l.B[i] = pick()
					}
					for i := range x {
						x[i] = pick()
					}
					p := packed16(&l)
					if out >= 16 && p == nil {
						t.Fatalf("%dx%d: no packed weights", in, out)
					}
					if p == nil {
						affine(&l, x, got)
					} else {
						affinePacked(&l, p, x, got)
					}
					affineRows(&l, x, want)
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
							t.Fatalf("%v %dx%d: output %d = %v (%#x), want %v (%#x)", act, in, out, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
						}
					}
				}
			}
		}
	}
}
