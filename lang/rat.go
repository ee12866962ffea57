package lang

import (
	"fmt"
	"math/big"
	"strings"

	"vigil/symbolic"
)

// rat is an exact rational used for weights and policy input scaling.
type rat struct {
	num, den int64
	// over is set when an exact value did not fit in int64/int64 and the
	// rational is an approximation (or 0); it propagates through add and
	// mul so that the checker can refuse the result.
	over bool
}

func newRat(n, d int64) rat {
	if d < 0 {
		n, d = -n, -d
	}
	g := gcd(abs64(n), d)
	if g > 1 {
		n, d = n/g, d/g
	}
	return rat{num: n, den: d}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	if a == 0 {
		return 1
	}
	return a
}

func abs64(a int64) int64 {
	if a < 0 {
		return -a
	}
	return a
}

func fromBig(r *big.Rat) rat {
	if !r.Num().IsInt64() || !r.Denom().IsInt64() {
		f, _ := r.Float64()
		b := new(big.Rat)
		b.SetFloat64(f)
		if b.Num().IsInt64() && b.Denom().IsInt64() {
			r := newRat(b.Num().Int64(), b.Denom().Int64())
			r.over = true
			return r
		}
		return rat{num: 0, den: 1, over: true}
	}
	return newRat(r.Num().Int64(), r.Denom().Int64())
}

func (r rat) big() *big.Rat { return big.NewRat(r.num, r.den) }

func (r rat) add(s rat) rat {
	out := fromBig(new(big.Rat).Add(r.big(), s.big()))
	out.over = out.over || r.over || s.over
	return out
}

func (r rat) mul(s rat) rat {
	out := fromBig(new(big.Rat).Mul(r.big(), s.big()))
	out.over = out.over || r.over || s.over
	return out
}
func (r rat) inv() rat      { return newRat(r.den, r.num) }
func (r rat) cmp(s rat) int { return r.big().Cmp(s.big()) }
func (r rat) sym() symbolic.Rat {
	return symbolic.Rat{Num: r.num, Den: r.den}
}

func (r rat) String() string {
	if r.den == 1 {
		return fmt.Sprint(r.num)
	}
	return fmt.Sprintf("%d/%d", r.num, r.den)
}

// parseRat reads "3", "0.25" or "1/3" (non-negative).
func parseRat(s string) (rat, bool) {
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		return rat{}, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() < 0 || !r.Num().IsInt64() || !r.Denom().IsInt64() {
		return rat{}, false
	}
	return newRat(r.Num().Int64(), r.Denom().Int64()), true
}
