package prob

import (
	"math/big"
	"testing"
)

// TestDirectedDigits: a lower bound is printed rounded down, an upper one
// rounded up, to 10 significant digits; a value that 10 digits would
// round to exactly 0 or 1 is printed in full.
func TestDirectedDigits(t *testing.T) {
	for _, c := range []struct {
		x         float64
		low, high string
	}{
		{0.9999999999999987, "0.9999999999", "1"},
		// s24v: 10 digits that parse back to x but lie on the wrong
		// side of it (the float64 0.1 is 0.1000000000000000055...,
		// 0.3 is 0.29999999999999998889...)
		{0.1, "0.1", "0.1000000001"},
		{0.3, "0.2999999999", "0.3"},
		{1e-5, "1e-05", "1.000000001e-05"},
		// s24v: subnormal, where the float64 nearest the 10 digits has
		// fewer (upperDigits(5e-324) read 4.940656458e-324, below it)
		{5e-324, "4.940656458e-324", "4.940656459e-324"},
		{1e-320, "9.999888671e-321", "9.999888672e-321"},
		{2.5e-310, "2.5e-310", "2.500000001e-310"},
		{0.12499999999999997, "0.1249999999", "0.125"},
		{0.12500000000000003, "0.125", "0.1250000001"},
		{0.5, "0.5", "0.5"},
		{0, "0", "0"},
		{1, "1", "1"},
		{1.0 / 3, "0.3333333333", "0.3333333334"},
		{8.881784197001252e-16, "8.881784197e-16", "8.881784198e-16"},
		{0.99999999995, "0.9999999999", "1"},
	} {
		lo, hi := lowerDigits(c.x), upperDigits(c.x)
		if lo != c.low || hi != c.high {
			t.Errorf("%v: [%s, %s], want [%s, %s]", c.x, lo, hi, c.low, c.high)
		}
		// as decimals, not as the float64 they parse to
		x := new(big.Rat).SetFloat64(c.x)
		if l, _ := new(big.Rat).SetString(lo); l.Cmp(x) > 0 {
			t.Errorf("%v: lower %s above it", c.x, lo)
		}
		if h, _ := new(big.Rat).SetString(hi); h.Cmp(x) < 0 {
			t.Errorf("%v: upper %s below it", c.x, hi)
		}
	}
	for x, want := range map[float64]string{0.9999999999999991: "0.9999999999999991", 1e-300: "1e-300", 0.25: "0.25", 0.99999999994: "0.9999999999"} {
		if got := valueDigits(x); got != want {
			t.Errorf("valueDigits(%v) = %s, want %s", x, got, want)
		}
	}
}

// TestApproxNearOne: an exact value closer to 1 than 20 digits show is
// written as its distance to 1 (999...9/10^36 read "≈ 1"); one that 10
// digits show stays as it was.
func TestApproxNearOne(t *testing.T) {
	for r, want := range map[string]string{
		"999999999999999999999999999999999999/1000000000000000000000000000000000000":  "1 - 1e-36",
		"1000000000000000000000000000000000001/1000000000000000000000000000000000000": "1 + 1e-36",
		"1125899906842623/1125899906842624":                                           "0.99999999999999911182",
		"1/1000000000000000000000000000000000000":                                     "1e-36",
		"1/2": "0.5",
		"1":   "1",
	} {
		if got := approx(r, "?"); got != want {
			t.Errorf("approx(%s) = %s, want %s", r, got, want)
		}
	}
}
