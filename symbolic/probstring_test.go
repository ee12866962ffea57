package symbolic

import (
	"math/big"
	"testing"
)

func TestProbString(t *testing.T) {
	b := func(k int64) *big.Int { return big.NewInt(k) }
	for _, c := range []struct {
		n, d int64
		want string
	}{
		{-1, 1, "-1"},
		{2, 1, "2"},
		{-3, 3, "-1"},
		{4, 2, "2"},
		{-1, 2, "-1/2"},
		{2, -4, "-1/2"},
		{6, 4, "3/2"},
		{-4, 6, "-2/3"},
		{0, 5, "0"},
		{0, -5, "0"},
		{1, 0, "undefined (division by zero)"},
		{0, 0, "undefined (division by zero)"},
	} {
		if got := ProbString(b(c.n), b(c.d)); got != c.want {
			t.Errorf("ProbString(%d, %d) = %q, want %q", c.n, c.d, got, c.want)
		}
	}
	big1, _ := new(big.Int).SetString("9223372036854775810", 10)
	big2, _ := new(big.Int).SetString("9223372036854775809", 10)
	if got := ProbString(big1, big2); got != "9223372036854775810/9223372036854775809" {
		t.Errorf("a value just above 1 prints as %q", got)
	}
}
