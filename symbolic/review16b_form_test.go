package symbolic

import (
	"math"
	"testing"
)

// TestFitsMinInt: a coefficient of -2^63 has no 64-bit magnitude; Fits
// took -(-2^63), which wraps to -2^63, as a small one and let a form
// through whose Eval wraps (-2^63 * 2 == 0 in int64), so that an
// evaluator and z3 read one atom over different regions (review16b).
func TestFitsMinInt(t *testing.T) {
	m := &Model{Vars: []Var{{Name: "x", Lo: 0, Hi: 3}}}
	if f := NewForm([]Term{{Coef: math.MinInt, Var: 0}}); f != nil && f.Fits(m) {
		t.Errorf("the form -2^63*x over 0..3 fits: its value wraps at x = 2")
	}
	if f := NewForm([]Term{{Coef: -(1 << 57), Var: 0}}); f == nil || !f.Fits(m) {
		t.Errorf("the form -2^57*x over 0..3 does not fit")
	}
}

// TestNewFormOverflow: merging the terms of one variable whose sum
// leaves the 64-bit integers gives no form, rather than the wrapped
// coefficient (2*(2^63-1) would wrap to -2).
func TestNewFormOverflow(t *testing.T) {
	if f := NewForm([]Term{{Coef: math.MaxInt, Var: 0}, {Coef: math.MaxInt, Var: 0}}); f != nil {
		t.Errorf("NewForm merged 2*(2^63-1)*x into %s", f.Key())
	}
	if f := NewForm([]Term{{Coef: math.MaxInt, Var: 0}, {Coef: -math.MaxInt, Var: 0}, {Coef: 1, Var: 1}}); f == nil || f.Key() != "1*v1" {
		t.Errorf("NewForm of cancelling terms: %v", f)
	}
}

// TestFormatMinInt: Format writes the magnitude of -2^63 as such (it
// wrote --9223372036854775808, the negation having wrapped), in the
// messages that refuse such an atom.
func TestFormatMinInt(t *testing.T) {
	m := &Model{Vars: []Var{{Name: "x", Lo: 0, Hi: 3}, {Name: "y", Lo: 0, Hi: 3}}}
	f := &Form{terms: []Term{{Coef: math.MinInt, Var: 0}, {Coef: math.MinInt, Var: 1}}}
	if got, want := f.Format(m), "-9223372036854775808*x - 9223372036854775808*y"; got != want {
		t.Errorf("Format: %q, want %q", got, want)
	}
	g := NewForm([]Term{{Coef: -1, Var: 0}, {Coef: 3, Var: 1}})
	if got, want := g.Format(m), "-x + 3*y"; got != want {
		t.Errorf("Format: %q, want %q", got, want)
	}
}
