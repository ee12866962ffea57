package ic3

import (
	"slices"
	"strings"

	"vigil/smt"
	"vigil/symbolic"
)

// box is a cube of bound literals and linear atoms (relational.go),
// sorted by (variable, form, lower before upper), at most one literal per
// variable or form and side. The clause ¬box excludes its states.
type box []smt.Lit

func litLess(a, b smt.Lit) int {
	if a.Var != b.Var {
		return int(a.Var) - int(b.Var)
	}
	if a.Form != b.Form {
		switch {
		case a.Form == nil:
			return -1
		case b.Form == nil:
			return 1
		}
		return strings.Compare(a.Form.Key(), b.Form.Key())
	}
	switch {
	case a.Upper == b.Upper:
		return a.K - b.K
	case !a.Upper:
		return -1
	}
	return 1
}

func (b box) sorted() box {
	slices.SortFunc(b, litLess)
	return b
}

// point is the box of exactly the state s.
func point(m *symbolic.Model, s symbolic.State) box {
	b := make(box, 0, 2*len(s))
	for i, v := range s {
		b = append(b, smt.Lit{Var: symbolic.VarID(i), K: v}, smt.Lit{Var: symbolic.VarID(i), Upper: true, K: v})
	}
	return b
}

// holds reports whether s is in b.
func (b box) holds(s symbolic.State) bool {
	for _, l := range b {
		if !l.Holds(s) {
			return false
		}
	}
	return true
}

// within reports whether every state of b is in c (b ⊆ c): each literal of
// c is implied by a literal of b on the same variable and side.
func (b box) within(c box) bool {
	for _, l := range c {
		ok := false
		for _, k := range b {
			if k.Var == l.Var && k.Form == l.Form && k.Upper == l.Upper && (l.Upper && k.K <= l.K || !l.Upper && k.K >= l.K) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// without returns b without its i-th literal (a fresh slice).
func (b box) without(i int) box {
	return append(append(box{}, b[:i]...), b[i+1:]...)
}
