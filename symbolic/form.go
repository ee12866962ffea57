package symbolic

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
)

// Form is a linear form sum Coef * Var over the variables of a model,
// without a constant: the left-hand side of a relational lemma atom
// Form <= K or Form >= K (package ic3). Forms are interned: NewForm
// returns the same pointer for the same terms, so a literal that holds a
// *Form compares with == and serves as a map key.
type Form struct {
	terms []Term // sorted by Var, no zero coefficient, each Var once
	key   string
}

var forms sync.Map // key -> *Form

// NewForm returns the interned form of ts (terms of one variable are
// merged, zero coefficients dropped), or nil when no term is left or a
// merged coefficient leaves the 64-bit integers (a wrapped sum would be
// another form: 2*(2^63-1) wraps to -2).
func NewForm(ts []Term) *Form {
	coef := map[VarID]int{}
	for _, t := range ts {
		c, ok := add64(coef[t.Var], t.Coef)
		if !ok {
			return nil
		}
		coef[t.Var] = c
	}
	var out []Term
	for v, c := range coef {
		if c != 0 {
			out = append(out, Term{Coef: c, Var: v})
		}
	}
	if len(out) == 0 {
		return nil
	}
	sortTerms(out)
	parts := make([]string, len(out))
	for i, t := range out {
		parts[i] = strconv.Itoa(t.Coef) + "*v" + strconv.Itoa(int(t.Var))
	}
	key := strings.Join(parts, "+")
	if f, ok := forms.Load(key); ok {
		return f.(*Form)
	}
	f, _ := forms.LoadOrStore(key, &Form{terms: out, key: key})
	return f.(*Form)
}

// Terms returns the form's terms (sorted by variable; do not modify).
func (f *Form) Terms() []Term { return f.terms }

// Key is a text that names the form uniquely, e.g. "1*v0+-1*v2".
func (f *Form) Key() string { return f.key }

// Eval returns the form's value in s. Callers keep forms whose value
// cannot overflow an int over the model's ranges (see Fits).
func (f *Form) Eval(s State) int {
	v := 0
	for _, t := range f.terms {
		v += t.Coef * s[t.Var]
	}
	return v
}

// Range returns the least and greatest values of f over m's variable
// ranges.
func (f *Form) Range(m *Model) (lo, hi int) {
	for _, t := range f.terms {
		a, b := t.Coef*m.Vars[t.Var].Lo, t.Coef*m.Vars[t.Var].Hi
		lo += min(a, b)
		hi += max(a, b)
	}
	return lo, hi
}

// RangeIn returns the least and greatest values of f over the box
// lo..hi (per variable, inclusive; lo and hi index f's variables). Like
// Range, it cannot overflow when the box lies within the ranges of a
// model f Fits. The engine (ic3) and the checker (ic3/cert) both bound
// forms over boxes with it, as the shared IR.
func (f *Form) RangeIn(lo, hi []int) (least, greatest int) {
	for _, t := range f.terms {
		a, b := t.Coef*lo[t.Var], t.Coef*hi[t.Var]
		least += min(a, b)
		greatest += max(a, b)
	}
	return least, greatest
}

// Fits reports whether every variable of f is one of m's and the sum of
// |Coef| * max(|Lo|, |Hi|) stays below 2^60, so that Eval and Range
// cannot overflow.
func (f *Form) Fits(m *Model) bool {
	const limit = 1 << 60
	total := 0
	for _, t := range f.terms {
		if int(t.Var) < 0 || int(t.Var) >= len(m.Vars) {
			return false
		}
		c := t.Coef
		if c == math.MinInt {
			return false // -c would wrap to itself, a negative "magnitude"
		}
		if c < 0 {
			c = -c
		}
		v := &m.Vars[t.Var]
		x := max(abs(v.Lo), abs(v.Hi))
		if c > limit || x > limit || (x > 0 && c > limit/x) {
			return false
		}
		total += c * x
		if total >= limit {
			return false
		}
	}
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Format writes f with m's variable names, e.g. "x - 2*y".
func (f *Form) Format(m *Model) string {
	var b strings.Builder
	for i, t := range f.terms {
		name := fmt.Sprintf("v%d", t.Var)
		if m != nil && int(t.Var) < len(m.Vars) {
			name = m.Vars[t.Var].Name
		}
		c := uint64(t.Coef) // the magnitude, also of -2^63
		switch {
		case i == 0 && t.Coef < 0:
			b.WriteString("-")
			c = -c
		case i > 0 && t.Coef < 0:
			b.WriteString(" - ")
			c = -c
		case i > 0:
			b.WriteString(" + ")
		}
		if c != 1 {
			fmt.Fprintf(&b, "%d*", c)
		}
		b.WriteString(name)
	}
	return b.String()
}
