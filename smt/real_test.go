package smt

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic(s)
	}
	return r
}

// evalReal checks sat and returns the values of ts.
func evalReal(t *testing.T, s *Solver, ts ...Term) []*big.Rat {
	t.Helper()
	r, err := s.Check()
	must(t, err)
	if r != Sat {
		t.Fatalf("check = %v, want sat", r)
	}
	v, err := s.EvalReal(ts)
	must(t, err)
	return v
}

func TestRealFloatIsExact(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	// 0.1 as a float64 is 3602879701896397 / 2^55, not 1/10.
	tenth := x.RealFloat(0.1)
	want := "3602879701896397/36028797018963968"
	if got := evalReal(t, s, tenth)[0]; got.String() != want {
		t.Errorf("RealFloat(0.1) = %v, want %s", got, want)
	}
	if r, _ := s.Check(); r != Sat {
		t.Fatal(r)
	}
	must(t, s.Push())
	must(t, s.Assert(x.Eq(tenth, x.Real(big.NewRat(1, 10)))))
	if r, _ := s.Check(); r != Unsat {
		t.Errorf("0.1 == 1/10: %v, want unsat", r)
	}
	must(t, s.Pop(1))
	// In float64, 0.1 + 0.2 rounds up above the exact sum of the two
	// doubles (variables: Go folds constant expressions exactly).
	a, b := 0.1, 0.2
	sum := x.Add(x.RealFloat(a), x.RealFloat(b))
	must(t, s.Push())
	must(t, s.Assert(x.Eq(sum, x.RealFloat(a+b))))
	if r, _ := s.Check(); r != Unsat {
		t.Errorf("exact 0.1+0.2 equals the rounded float64 sum: %v", r)
	}
	must(t, s.Pop(1))
	must(t, s.Push())
	must(t, s.Assert(x.Lt(sum, x.RealFloat(a+b))))
	if r, _ := s.Check(); r != Sat {
		t.Errorf("exact 0.1+0.2 < fl(0.1+0.2): %v, want sat", r)
	}
	must(t, s.Pop(1))
	// Extremes: the smallest subnormal, the largest float, negatives, -0.
	for _, f := range []float64{math.SmallestNonzeroFloat64, math.MaxFloat64, -2.5, math.Copysign(0, -1), 1e300, -1e-300} {
		m := x.Mark()
		got := evalReal(t, s, x.RealFloat(f))[0]
		if want := new(big.Rat).SetFloat64(f); got.Cmp(want) != 0 {
			t.Errorf("RealFloat(%g) = %v", f, got)
		}
		x.Release(m)
	}
}

func TestRealArithmetic(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	r, n := x.RealConst("r"), x.IntConst("n")
	// r = 1/3 n - 7/2 with n = 5: r = -11/6, and Linear skips zeros.
	lin := x.Linear(big.NewRat(-7, 2), []*big.Rat{big.NewRat(1, 3), new(big.Rat)}, []Term{x.ToReal(n), r})
	must(t, s.Assert(x.Eq(n, x.Int(5))))
	must(t, s.Assert(x.Eq(r, lin)))
	v := evalReal(t, s, r, n, lin, x.MulRat(big.NewRat(-3, 4), r))
	for i, want := range []string{"-11/6", "5/1", "-11/6", "11/8"} {
		if v[i].String() != want {
			t.Errorf("value %d = %v, want %s", i, v[i], want)
		}
	}
	// Comparisons, Ite and Neg work on reals: max(r, 0) via ite.
	relu := x.Ite(x.Gt(r, x.Real(new(big.Rat))), r, x.Real(new(big.Rat)))
	if got := evalReal(t, s, relu, x.Neg(r), x.Sub(r, x.Real(big.NewRat(1, 6))))[:3]; got[0].Sign() != 0 || got[1].String() != "11/6" || got[2].String() != "-2/1" {
		t.Errorf("relu, neg, sub = %v", got)
	}
	// A real strictly between two integers: x.ToReal(n) < r < n+1 has no
	// integer r, but reals are dense.
	must(t, s.Reset())
	must(t, s.Assert(x.Lt(x.ToReal(n), r)))
	must(t, s.Assert(x.Lt(r, x.Add(x.ToReal(n), x.Real(big.NewRat(1, 1000))))))
	v = evalReal(t, s, r, n)
	if d := new(big.Rat).Sub(v[0], v[1]); d.Sign() <= 0 || d.Cmp(big.NewRat(1, 1000)) >= 0 {
		t.Errorf("r - n = %v, want in (0, 1/1000)", d)
	}
	// Linear of nothing is the constant; of a zero constant and nothing, 0.
	if got := evalReal(t, s, x.Linear(big.NewRat(5, 7), nil, nil), x.Linear(nil, nil, nil)); got[0].String() != "5/7" || got[1].Sign() != 0 {
		t.Errorf("empty linear = %v", got)
	}
}

func TestRealErrorsAreValues(t *testing.T) {
	for _, c := range []struct {
		name string
		make func(x *Context) Term
		want string
	}{
		{"NaN", func(x *Context) Term { return x.RealFloat(math.NaN()) }, "not a finite number"},
		{"Inf", func(x *Context) Term { return x.RealFloat(math.Inf(-1)) }, "not a finite number"},
		{"int in linear", func(x *Context) Term {
			return x.Linear(nil, []*big.Rat{big.NewRat(1, 2)}, []Term{x.IntConst("n")})
		}, "ToReal"},
		{"mismatched linear", func(x *Context) Term {
			return x.Linear(nil, []*big.Rat{big.NewRat(1, 2)}, nil)
		}, "coefficients"},
		{"nil rational", func(x *Context) Term { return x.Real(nil) }, "nil"},
		{"bool to real", func(x *Context) Term { return x.ToReal(x.BoolConst("p")) }, ""},
		{"real plus bool", func(x *Context) Term { return x.Add(x.RealConst("r"), x.BoolConst("p")) }, ""},
	} {
		x := newCtx(t)
		got := c.make(x)
		if !got.IsZero() || x.Err() == nil {
			t.Errorf("%s: term %v, err %v; want an error", c.name, x.String(got), x.Err())
			x.Close()
			continue
		}
		if msg := x.Err().Error(); !strings.HasPrefix(msg, "smt: ") || !strings.Contains(msg, c.want) {
			t.Errorf("%s: error %q, want the smt: prefix and %q", c.name, msg, c.want)
		}
		// The error is sticky, and asserting is refused.
		if !x.RealConst("z").IsZero() {
			t.Errorf("%s: constructor after an error returned a term", c.name)
		}
		s := newSolver(t, x)
		if err := s.Assert(x.True()); err == nil {
			t.Errorf("%s: assert after an error: no error", c.name)
		}
		x.Close()
	}
	x := newCtx(t)
	s := newSolver(t, x)
	if _, err := s.EvalReal([]Term{x.RealConst("r")}); err == nil {
		t.Error("EvalReal before a check: no error")
	}
	must(t, s.Assert(x.Lt(x.RealConst("r"), x.Real(big.NewRat(0, 1)))))
	must(t, s.Assert(x.Gt(x.RealConst("r"), x.Real(big.NewRat(0, 1)))))
	if r, _ := s.Check(); r != Unsat {
		t.Fatal(r)
	}
	if _, err := s.EvalReal([]Term{x.RealConst("r")}); err == nil {
		t.Error("EvalReal after unsat: no error")
	}
}

// TestRealNoLeaks builds and releases many real terms: the arena returns
// to its mark, and terms made before the mark stay usable.
func TestRealNoLeaks(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	r := x.RealConst("r")
	keep := x.Ge(r, x.RealFloat(0.25))
	base := x.Terms()
	for i := 0; i < 2000; i++ {
		m := x.Mark()
		w := []*big.Rat{big.NewRat(int64(i), 7), rat("-1/3")}
		tmp := x.Lt(x.Linear(big.NewRat(1, int64(i+1)), w, []Term{r, x.ToReal(x.IntConst("n"))}), x.RealFloat(float64(i)*0.1))
		if tmp.IsZero() {
			t.Fatal(x.Err())
		}
		x.Release(m)
	}
	if x.Terms() != base {
		t.Errorf("arena holds %d terms after release, want %d", x.Terms(), base)
	}
	must(t, s.Assert(keep))
	must(t, s.Assert(x.Le(r, x.Real(rat("1/4")))))
	if v := evalReal(t, s, r); v[0].String() != "1/4" {
		t.Errorf("r = %v, want 1/4", v[0])
	}
	for i := 0; i < 200; i++ {
		if _, err := s.EvalReal([]Term{r, keep}); err == nil {
			t.Fatal("EvalReal of a Boolean: no error")
		}
		if _, err := s.EvalReal([]Term{r}); err != nil {
			t.Fatal(err)
		}
	}
}
