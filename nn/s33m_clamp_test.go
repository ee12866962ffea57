package nn

import (
	"math"
	"math/big"
	"testing"
)

// Session 33 (h-revm): bounder.clamp found a split domain empty when a
// computed bound excluded the constrained side by more than the absolute
// margin 1e-9, but the bounds are computed in float64 without outward
// rounding, and at large magnitudes their rounding error is far larger.
// z = b + w·x with four terms about 2^41 at the point x below is
// 3.6e-4 exactly, while its IBP upper bound (the float64 sum, in
// evaluation's order) is -4.9e-4: the domain z >= 0, which holds x, was
// dropped as empty, and the sibling z <= 0, bounded with the ReLU off and
// a beta-CROWN term -beta·(-z), does not hold x. The gap must now exceed
// the bound's own rounding error (emptyTol).
func TestS33mClampRounding(t *testing.T) {
	w := []float64{-1.6463515857771125e+12, -1.9329647360260422e+12, 1.2895471250785525e+12, -2.0448510926115264e+12}
	x := []float64{1.5085826267916898, 1.9690801948173768, 1.4879220269245095, 1.6326084313002982}
	b := 7.70951554127323e+12
	exact := new(big.Rat).SetFloat64(b)
	fl := b
	for i := range w {
		exact.Add(exact, new(big.Rat).Mul(new(big.Rat).SetFloat64(w[i]), new(big.Rat).SetFloat64(x[i])))
		fl += w[i] * x[i]
	}
	if exact.Sign() <= 0 || fl >= -margin {
		t.Fatalf("the example no longer shows the gap: exact %v, float64 %v", exact.FloatString(6), fl)
	}
	n := &Network{Layers: []Layer{{In: 4, Out: 1, W: w, B: []float64{b}, Act: ActReLU}, {In: 1, Out: 1, W: []float64{1}, B: []float64{0}}}}
	for _, m := range []Method{IBP, CROWN, Both, Alpha} {
		bd := newBounder(n)
		bd.setSplits([]rsplit{{layer: 0, neuron: 0, active: true}})
		lb := bd.lower(Box{Lo: x, Hi: x}, []float64{1}, m)
		if bd.empty {
			t.Errorf("%v: the domain z >= 0 holding x (z = %s exactly, %v in float64) was found empty (lower bound %v)", m, exact.FloatString(6), fl, lb[0])
		}
	}
	// A domain whose constraint is far out of reach is still empty:
	// z = x - 2 >= 0 over [0, 1], and z = x + 2 <= 0.
	for _, c := range []struct {
		b      float64
		active bool
	}{{-2, true}, {2, false}} {
		n := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{1}, B: []float64{c.b}, Act: ActReLU}, {In: 1, Out: 1, W: []float64{1}, B: []float64{0}}}}
		for _, m := range []Method{IBP, CROWN, Both, Alpha} {
			bd := newBounder(n)
			bd.setSplits([]rsplit{{layer: 0, neuron: 0, active: c.active}})
			lb := bd.lower(Box{Lo: []float64{0}, Hi: []float64{1}}, []float64{1}, m)
			if !bd.empty || !math.IsInf(lb[0], 1) {
				t.Errorf("%v: z = x + %v, active %v over [0, 1]: empty %v, bound %v", m, c.b, c.active, bd.empty, lb[0])
			}
		}
	}
}
