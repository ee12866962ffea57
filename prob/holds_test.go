package prob

import (
	"math/big"
	"testing"
)

// holds decides a comparison only where every value of the interval
// agrees; equality with a bound strictly inside the interval is unknown.
func TestHolds(t *testing.T) {
	r := func(s string) *big.Rat { x, _ := new(big.Rat).SetString(s); return x }
	for _, c := range []struct {
		lo, hi, cmp, b, want string
	}{
		{"0.4", "0.6", "=", "0.5", "unknown"},
		{"0.4", "0.6", "≠", "0.5", "unknown"},
		{"0.5", "0.5", "=", "0.5", "true"},
		{"0.5", "0.5", "≠", "0.5", "false"},
		{"0.4", "0.45", "=", "0.5", "false"},
		{"0.4", "0.45", "≠", "0.5", "true"},
		{"0.4", "0.5", "<", "0.5", "unknown"},
		{"0.4", "0.5", "≤", "0.5", "true"},
		{"0.5", "0.6", "≥", "0.5", "true"},
		{"0.5", "0.6", ">", "0.5", "unknown"},
		{"0.6", "0.7", ">", "0.5", "true"},
		{"0.6", "0.7", "≤", "0.5", "false"},
		{"1/3", "1/3", ">", "0.3333333333333333", "true"},
	} {
		if got := holds(r(c.lo), r(c.hi), c.cmp, r(c.b)); got != c.want {
			t.Errorf("[%s, %s] %s %s: %s, want %s", c.lo, c.hi, c.cmp, c.b, got, c.want)
		}
	}
}
