package cert

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// TestS27bLeakyActivationLemma: the checker's LeakyReLU error bound
// (activation: slope-scaled where the computed sum is negative on the
// whole box, exact where it is non-negative) at the worst placements of
// computed sums s^ in [sl-e, sh+e] and exact sums s = s^ -/+ e in
// [sl, sh], the float64 product a*s^ against the exact a*s; slopes 0,
// subnormal, 0.01 .. 1, sums and errors from subnormal to 1e300.
func TestS27bLeakyActivationLemma(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 3))
	r := func(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }
	slopes := []float64{0, 0x1p-1074, 1e-310, 1e-200, 0.01, 0.3, 0.5, 1 - 0x1p-53, 1}
	mags := []float64{0x1p-1074, 1e-320, 1e-300, 1e-20, 1, 1e3, 1e15, 1e300}
	for k := 0; k < 1500; k++ {
		a := slopes[rng.IntN(len(slopes))]
		c := (rng.Float64()*2 - 1) * mags[rng.IntN(len(mags))]
		w := rng.Float64() * mags[rng.IntN(len(mags))]
		sl, sh := c-w, c+w
		e := rng.Float64() * mags[rng.IntN(len(mags))]
		switch k % 4 {
		case 0:
			sh = -e * (1 + rng.Float64()*1e-15)
			sl = min(sl, sh)
		case 1:
			sl = e * (1 + rng.Float64()*1e-15)
			sh = max(sh, sl)
		}
		if !(sl <= sh) || math.IsInf(sl-e, 0) || math.IsInf(sh+e, 0) {
			continue
		}
		_, _, bound, ok := activation(&symbolic.Layer{Act: symbolic.ActLeakyReLU, Slope: a}, sl, sh, e)
		if !ok {
			t.Fatalf("slope %g: no bound", a)
		}
		L, H, B, E := r(sl), r(sh), r(bound), r(e)
		cands := []float64{sl - e, sh + e, sl, sh, 0, math.Copysign(0, -1), math.Nextafter(0, -1), math.Nextafter(0, 1)}
		for i := 0; i < 100; i++ {
			cands = append(cands, sl-e+rng.Float64()*(sh-sl+2*e))
		}
		for _, cs := range cands {
			for _, s := range []*big.Rat{new(big.Rat).Sub(r(cs), E), new(big.Rat).Add(r(cs), E), r(cs), L, H} {
				if s.Cmp(L) < 0 || s.Cmp(H) > 0 {
					continue
				}
				if d := new(big.Rat).Sub(r(cs), s); d.Abs(d).Cmp(E) > 0 {
					continue
				}
				y, ex := cs, s
				if cs < 0 {
					y = float64(a * cs)
				}
				if s.Sign() < 0 {
					ex = new(big.Rat).Mul(s, r(a))
				}
				if d := new(big.Rat).Sub(r(y), ex); d.Abs(d).Cmp(B) > 0 {
					t.Fatalf("slope %g, sum in [%g, %g] with error %g: s^ = %g, s = %s: beyond the bound %g", a, sl, sh, e, cs, s.FloatString(20), bound)
				}
			}
		}
	}
}
