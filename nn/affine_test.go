package nn

import (
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
