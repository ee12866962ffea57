package explicit_test

import (
	"errors"
	"math/big"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestReview22pFactorsMatchApply: an outcome whose probability is a
// product of factors (synchronised JANI edges) is in error where some
// factor lies outside [0, 1] or divides by zero, whatever the product:
// -1/2 * -1/2 is 1/4 and still an error. BadProb (the symbolic engines'
// condition) holds exactly where Apply fails, and the error names the
// factor.
func TestReview22pFactorsMatchApply(t *testing.T) {
	m := &symbolic.Model{Name: "p",
		Vars:   []symbolic.Var{{Name: "x", Lo: -3, Hi: 3}, {Name: "y", Lo: -3, Hi: 3}},
		Labels: []symbolic.Label{{Name: "a"}},
	}
	sum := func(a, b *symbolic.Expr) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{a, b}}
	}
	fs := []symbolic.ProbFactor{
		{Num: symbolic.V(0), Den: symbolic.Lit(2)},
		{Num: symbolic.V(1), Den: sum(symbolic.V(0), symbolic.Lit(1))},
		{Num: symbolic.Lit(1), Den: symbolic.Lit(3)},
	}
	m.Commands = []symbolic.Command{{Label: 0, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{ProbFactors: fs}}}}
	g, err := explicit.New(m, nil)
	if err != nil {
		t.Fatal(err)
	}
	o := &m.Commands[0].Outcomes[0]
	bad := o.BadProb()
	negNeg := 0
	for x := -3; x <= 3; x++ {
		for y := -3; y <= 3; y++ {
			s := symbolic.State{x, y}
			want := x < 0 || x > 2 || x+1 == 0 || (x+1 > 0 && (y < 0 || y > x+1)) || (x+1 < 0 && (y > 0 || y < x+1))
			_, err := g.Apply(s, 0, 0)
			var re *explicit.RangeError
			got := errors.As(err, &re) && re.Prob
			if err != nil && !got {
				t.Fatal(err)
			}
			if got != want || bad.Holds(s) != want {
				t.Errorf("x=%d y=%d: Apply's error %v, BadProb %v, want %v", x, y, err, bad.Holds(s), want)
			}
			p, badf := o.ProbAt(s)
			if (badf >= 0) != want || (p == nil) != want {
				t.Errorf("x=%d y=%d: ProbAt %v %d, want error %v", x, y, p, badf, want)
			}
			if got {
				if re.Factor != badf {
					t.Errorf("x=%d y=%d: the error names factor %d, ProbAt %d", x, y, re.Factor+1, badf+1)
				}
				if !strings.Contains(err.Error(), "(a product over synchronised edges), whose factor ") {
					t.Errorf("x=%d y=%d: %v", x, y, err)
				}
				if x < 0 && x+1 < 0 && y > 0 {
					negNeg++ // x/2 < 0 and y/(x+1) < 0: the product is positive
				}
			} else {
				want := new(big.Rat).Mul(big.NewRat(int64(x), 2), big.NewRat(int64(y), int64(x+1)))
				want.Mul(want, big.NewRat(1, 3))
				if p.Cmp(want) != 0 {
					t.Errorf("x=%d y=%d: ProbAt %v, want %v", x, y, p, want)
				}
			}
		}
	}
	if negNeg == 0 {
		t.Fatal("no state with two negative factors")
	}
}

// TestReview22pFactorBeyond64Bits: a factor whose numerator and
// denominator both exceed 2^63 - 1 is compared exactly. The explicit
// engine compiled them to saturating 64-bit arithmetic, so that
// (2x + 2)/(2x + 1) at x = 2^62 (both beyond int64, the quotient above
// 1) read as MaxInt64/MaxInt64 = 1, no error, where the symbolic engines
// (unbounded integers) found one. The product of two factors near 1 is
// computed exactly too.
func TestReview22pFactorBeyond64Bits(t *testing.T) {
	const big62 = 1 << 62
	m := &symbolic.Model{Name: "p",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: big62}},
		Labels: []symbolic.Label{{Name: "a"}},
	}
	lin := func(k, b int) *symbolic.Expr {
		return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{symbolic.V(0)}}, symbolic.Lit(b)}}
	}
	above := symbolic.ProbFactor{Num: lin(2, 2), Den: lin(2, 1)}
	below := symbolic.ProbFactor{Num: lin(2, 1), Den: lin(2, 2)}
	for _, c := range []struct {
		fs   []symbolic.ProbFactor
		want bool
	}{
		{[]symbolic.ProbFactor{above}, true},
		{[]symbolic.ProbFactor{below}, false},
		{[]symbolic.ProbFactor{below, below}, false},
		{[]symbolic.ProbFactor{below, above}, true},
	} {
		m.Commands = []symbolic.Command{{Label: 0, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{ProbFactors: c.fs}}}}
		g, err := explicit.New(m, nil)
		if err != nil {
			t.Fatal(err)
		}
		o := &m.Commands[0].Outcomes[0]
		for _, x := range []int{0, 1, big62 - 1, big62} {
			s := symbolic.State{x}
			want := c.want // (2x+2)/(2x+1) > 1 for every x
			_, err := g.Apply(s, 0, 0)
			if got := err != nil; got != want {
				t.Errorf("%d factors, x=%d: Apply's error %v, want an error %v", len(c.fs), x, err, want)
			}
			if bad := o.BadProb().Holds(s); bad != want {
				t.Errorf("%d factors, x=%d: BadProb %v, want %v", len(c.fs), x, bad, want)
			}
			p, _ := o.ProbAt(s)
			if want {
				continue
			}
			n := new(big.Int).Add(new(big.Int).Mul(big.NewInt(2), big.NewInt(int64(x))), big.NewInt(1))
			d := new(big.Int).Add(n, big.NewInt(1))
			w := new(big.Rat).SetFrac(n, d)
			if len(c.fs) == 2 {
				w.Mul(w, w)
			}
			if p == nil || p.Cmp(w) != 0 {
				t.Errorf("%d factors, x=%d: ProbAt %v, want %v", len(c.fs), x, p, w)
			}
		}
	}
}
