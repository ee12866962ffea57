package symbolic

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestAffineEvalRounding checks that an affine input is its exact value
// rounded once to the nearest float64, on the int64 path and on the
// big.Rat path, against big.Rat.
func TestAffineEvalRounding(t *testing.T) {
	third := Affine{Terms: []AffineTerm{{Coef: Rat{1, 3}, Var: 0}}}
	if got := third.Eval(State{1}); got != 1.0/3 {
		t.Errorf("x/3 at 1 = %v, want %v", got, 1.0/3)
	}
	// 2^53 + 1 is halfway between two float64 values: ties to even.
	id := Affine{Terms: []AffineTerm{{Coef: Rat{1, 1}, Var: 0}}}
	if got := id.Eval(State{1<<53 + 1}); got != 1<<53 {
		t.Errorf("x at 2^53+1 = %v, want 2^53", got)
	}
	// x/10 + 10^-18: the tiny constant is rounded away at x = 1 (one
	// rounding of the exact sum, not a sum of rounded terms).
	tiny := Affine{Const: Rat{1, 1_000_000_000_000_000_000}, Terms: []AffineTerm{{Coef: Rat{1, 10}, Var: 0}}}
	if got := tiny.Eval(State{1}); got != 0.1 {
		t.Errorf("x/10 + 1e-18 at 1 = %v, want 0.1", got)
	}
	r := rand.New(rand.NewPCG(7, 7))
	for k := 0; k < 20000; k++ {
		a := Affine{Const: Rat{r.Int64N(2001) - 1000, 1 + r.Int64N(50)}}
		s := make(State, 3)
		for v := range s {
			switch r.IntN(3) {
			case 0:
				s[v] = r.IntN(2001) - 1000
			case 1:
				s[v] = int(r.Int64N(1<<62)) - 1<<61
			default:
				s[v] = int(r.Int64N(1<<54)) - 1<<53
			}
			num := r.Int64N(2001) - 1000
			if r.IntN(4) == 0 {
				num = r.Int64N(1<<62) - 1<<61
			}
			a.Terms = append(a.Terms, AffineTerm{Coef: Rat{num, 1 + r.Int64N(1<<uint(r.IntN(40)))}, Var: VarID(v)})
		}
		want := big.NewRat(a.Const.Num, a.Const.Den)
		for _, tm := range a.Terms {
			want.Add(want, new(big.Rat).Mul(big.NewRat(tm.Coef.Num, tm.Coef.Den), new(big.Rat).SetInt64(int64(s[tm.Var]))))
		}
		w, _ := want.Float64()
		if got := a.Eval(s); got != w && !(math.IsNaN(got) && math.IsNaN(w)) {
			t.Fatalf("%v at %v = %v, want %v", a, s, got, w)
		}
	}
}

// TestAffineRange checks that Range bounds Eval over a box by its corners.
func TestAffineRange(t *testing.T) {
	a := Affine{Const: Rat{1, 7}, Terms: []AffineTerm{{Coef: Rat{2, 3}, Var: 0}, {Coef: Rat{-5, 11}, Var: 1}, {Coef: Rat{1, 11}, Var: 1}}}
	signs := a.Signs(2)
	if signs[0] != 1 || signs[1] != -1 {
		t.Fatalf("signs %v, want [1 -1]", signs)
	}
	lo, hi := []int{-4, -3}, []int{5, 6}
	l, h := a.Range(signs, lo, hi, make(State, 2), make(State, 2))
	for x := lo[0]; x <= hi[0]; x++ {
		for y := lo[1]; y <= hi[1]; y++ {
			if v := a.Eval(State{x, y}); v < l || v > h {
				t.Errorf("Eval(%d, %d) = %v outside [%v, %v]", x, y, v, l, h)
			}
		}
	}
}
