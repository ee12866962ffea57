package cert

import (
	"context"
	"testing"

	"vigil/symbolic"
)

// TestReview18DifferCountsRegion: a fact's re-check within the
// disequalities counts the states of its region (its box's states that
// satisfy its atoms), as countDiffer does when it sends a fact not marked
// differ there. It counted every state of the box within the pairs, so a
// true fact whose atoms keep few of them was refused as too large to
// enumerate ("a differ fact must be small enough"), though countDiffer
// had found it small. Here the box 0..2 x 0..2 has 6 states with a != b,
// the atom a + b <= 1 keeps 2 of them; the limit is 4.
func TestReview18DifferCountsRegion(t *testing.T) {
	m := &symbolic.Model{Name: "d", Vars: []symbolic.Var{{Name: "a", Lo: 0, Hi: 2}, {Name: "b", Lo: 0, Hi: 2}}, Labels: []symbolic.Label{{Name: "x"}, {Name: "y"}}}
	fc := NewFactChecker(m, &diagPolicy{})
	pairs := [][2]symbolic.VarID{{0, 1}}
	atom := symbolic.Atom{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: 1, Var: 1}}), Upper: true, K: 1}
	differLimit = 4
	defer func() { differLimit = MaxDifferStates }()
	lo, hi := []int{0, 0}, []int{2, 2}
	if !countDiffer(m, lo, hi, []symbolic.Atom{atom}, pairs, differLimit) {
		t.Fatal("countDiffer: the region's 2 states within a != b exceed the limit 4?")
	}
	f := Fact{Lo: lo, Hi: hi, Atoms: []symbolic.Atom{atom}, Label: 0, Sure: []symbolic.LabelID{1}, Differ: pairs}
	if err := fc.Check(context.Background(), f); err != nil {
		t.Errorf("x never chosen where a != b and a + b <= 1: %v", err)
	}
	// still refused beyond the limit: the whole box within a != b (6)
	f.Atoms = nil
	if err := fc.Check(context.Background(), f); err == nil {
		t.Error("6 states within the pairs, limit 4: accepted")
	}
	// and still refused where the label is chosen: y where a != b
	f = Fact{Lo: lo, Hi: hi, Atoms: []symbolic.Atom{atom}, Label: 1, Sure: []symbolic.LabelID{0}, Differ: pairs}
	if _, ok := fc.Check(context.Background(), f).(*FactFailure); !ok {
		t.Error("y is chosen at a = 0, b = 1: not refused with a FactFailure")
	}
}
