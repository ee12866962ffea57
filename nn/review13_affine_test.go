package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAffineSpecialValues holds affine (four rows side by side) to the
// row-by-row definition bit for bit (math.Float64bits: NaN payloads and
// the sign of zero included) where weights, biases and inputs take
// special values: ±0, ±Inf, NaN, subnormals, the largest finite values
// (sums that overflow), for every activation, on row counts around
// multiples of four.
func TestAffineSpecialValues(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(),
		5e-324, -5e-324, math.MaxFloat64, -math.MaxFloat64, 1e308, 0.1, 3}
	r := rand.New(rand.NewPCG(13, 31))
	pick := func() float64 {
		if r.IntN(3) == 0 {
			return r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
		}
		return special[r.IntN(len(special))]
	}
	for _, act := range []Activation{ActReLU, ActLeakyReLU, ActLinear, ActTanh, ActSigmoid} {
		for out := 1; out <= 9; out++ {
			for _, in := range []int{1, 2, 5} {
				l := Layer{In: in, Out: out, W: make([]float64, in*out), B: make([]float64, out), Act: act, Slope: 0.01}
				x := make([]float64, in)
				got, want := make([]float64, out), make([]float64, out)
				for range 50 {
					for i := range l.W {
						l.W[i] = pick()
					}
					for i := range l.B {
						l.B[i] = pick()
					}
					for i := range x {
						x[i] = pick()
					}
					affine(&l, x, got)
					affineRows(&l, x, want)
					for i := range got {
						if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
							t.Fatalf("%v %dx%d, W %v, B %v, x %v: output %d = %v (%#x), want %v (%#x)", act, in, out, l.W, l.B, x, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
						}
					}
				}
			}
		}
	}
}
