package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// leakyLemma checks a LeakyReLU rounding bound err for the exact sum
// interval [sl, sh] and sum error e at the worst placements: computed
// sums s^ (float64) across [sl-e, sh+e], and exact sums s = s^ -/+ e
// (and s^ itself, and the interval's ends) within [sl, sh]; the float64
// activation a*s^ (as the evaluator rounds it) against the exact a*s.
func leakyLemma(t *testing.T, name string, a, sl, sh, e, err float64, rng *rand.Rand) {
	t.Helper()
	r := func(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }
	L, H := r(sl), r(sh)
	bound := r(err)
	exact := func(s *big.Rat) *big.Rat {
		if s.Sign() < 0 {
			return new(big.Rat).Mul(s, r(a))
		}
		return s
	}
	check := func(sh float64, s *big.Rat) {
		if s.Cmp(L) < 0 || s.Cmp(H) > 0 {
			return
		}
		d := new(big.Rat).Sub(r(sh), s)
		if d.Abs(d).Cmp(r(e)) > 0 {
			return
		}
		y := sh
		if sh < 0 {
			y = float64(a * sh)
		}
		diff := new(big.Rat).Sub(r(y), exact(s))
		if diff.Abs(diff).Cmp(bound) > 0 {
			f, _ := diff.Float64()
			t.Fatalf("%s: slope %g, sum in [%g, %g] with error %g: s^ = %g, s = %s: error %g beyond the bound %g", name, a, sl, sh, e, sh, s.FloatString(30), f, err)
		}
	}
	cands := []float64{sl - e, sh + e, sl, sh, 0, math.Copysign(0, -1), math.Nextafter(0, -1), math.Nextafter(0, 1),
		math.Nextafter(sl-e, math.Inf(1)), math.Nextafter(sh+e, math.Inf(-1))}
	for k := 0; k < 200; k++ {
		cands = append(cands, sl-e+rng.Float64()*(sh-sl+2*e))
	}
	for _, c := range cands {
		for _, s := range []*big.Rat{new(big.Rat).Sub(r(c), r(e)), new(big.Rat).Add(r(c), r(e)), r(c), L, H} {
			check(c, s)
		}
	}
}

// TestS27bLeakyActivateLemma: activate's LeakyReLU error bound (the
// slope-scaled one where the computed sum is negative on the whole box,
// exact where it is non-negative) at the worst placements of computed
// and exact sums, for slopes 0, subnormal, 0.01, 0.5, 1, sums near zero,
// subnormal sums and errors, and straddling intervals.
func TestS27bLeakyActivateLemma(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	slopes := []float64{0, 0x1p-1074, 1e-310, 1e-200, 0.01, 0.3, 0.5, 1 - 0x1p-53, 1}
	mags := []float64{0x1p-1074, 1e-320, 1e-300, 1e-20, 1, 1e3, 1e15, 1e300}
	for k := 0; k < 1500; k++ {
		a := slopes[rng.IntN(len(slopes))]
		c := (rng.Float64()*2 - 1) * mags[rng.IntN(len(mags))]
		w := rng.Float64() * mags[rng.IntN(len(mags))]
		sl, sh := c-w, c+w
		e := rng.Float64() * mags[rng.IntN(len(mags))]
		switch k % 4 {
		case 0: // just inside the negative side
			sh = -e * (1 + rng.Float64()*1e-15)
			sl = min(sl, sh)
		case 1: // just inside the non-negative side
			sl = e * (1 + rng.Float64()*1e-15)
			sh = max(sh, sl)
		}
		if !(sl <= sh) || math.IsInf(sl, 0) || math.IsInf(sh, 0) || math.IsInf(sl-e, 0) || math.IsInf(sh+e, 0) {
			continue
		}
		l := &Layer{Act: ActLeakyReLU, Slope: a}
		_, _, err := activate(l, sl, sh, e)
		leakyLemma(t, "nn.activate", a, sl, sh, e, err, rng)
	}
}
