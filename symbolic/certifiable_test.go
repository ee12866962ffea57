package symbolic

import (
	"slices"
	"testing"
)

// A rules or table policy's Exclude agrees with the arg-max rule applied
// state by state: Possible (with a witness in the box where the label
// wins) exactly when some state of the box lets it win over sure.
func TestExcludeRulesAndTableAgreeWithChoose(t *testing.T) {
	x, y := V(0), V(1)
	rules := &PolicyDecl{Kind: KindRules, Rules: []Rule{
		{Cond: Compare(x, Gt, y), Label: 1},
		{Cond: Compare(x, Gt, Lit(2)), Label: 0},
		{Cond: True(), Label: 2},
	}}
	m := &Model{Vars: []Var{{Name: "x", Lo: 0, Hi: 4}, {Name: "y", Lo: 0, Hi: 4}},
		Labels: []Label{{Name: "a"}, {Name: "b"}, {Name: "c"}}}
	table := &PolicyDecl{Kind: KindTable, Outputs: []LabelID{0, 1, 2}, Table: &Table{
		Rows:   []State{{1, 1}, {3, 0}, {3, 0}, {4, 4}},
		Labels: []LabelID{0, 1, 2, 1},
	}}
	for _, p := range []Certifiable{NewRulesPolicy(rules), NewTablePolicy(m, table)} {
		if p.Params().Decl == nil {
			t.Fatalf("%T: Params has no declaration", p)
		}
		sc := make([]float64, len(p.Outputs()))
		for _, box := range [][4]int{{0, 4, 0, 4}, {0, 2, 0, 0}, {3, 4, 0, 1}, {0, 0, 1, 4}, {4, 4, 4, 4}} {
			lo, hi := []int{box[0], box[2]}, []int{box[1], box[3]}
			for a := LabelID(0); a < 3; a++ {
				for _, sure := range [][]LabelID{nil, {0}, {1, 2}, {0, 1, 2}} {
					avail := func(l LabelID) bool { return l == a || slices.Contains(sure, l) }
					want := false
					for s0 := lo[0]; s0 <= hi[0]; s0++ {
						for s1 := lo[1]; s1 <= hi[1]; s1++ {
							if err := p.Scores(State{s0, s1}, sc); err != nil {
								t.Fatal(err)
							}
							want = want || Choose(p.Outputs(), sc, avail) == a
						}
					}
					got, w, err := p.Exclude(lo, hi, a, sure)
					if err != nil {
						t.Fatal(err)
					}
					if (got == Possible) != want || got == Undecided {
						t.Errorf("%T box %v label %d sure %v: %v, want possible=%t", p, box, a, sure, got, want)
					}
					if got == Possible {
						if !inBox(w, lo, hi) {
							t.Fatalf("witness %v outside the box", w)
						}
						p.Scores(w, sc)
						if Choose(p.Outputs(), sc, avail) != a {
							t.Errorf("%T: witness %v does not choose %d", p, w, a)
						}
					}
				}
			}
		}
	}
}

// A box larger than the enumeration limit is undecided, never guessed.
func TestExcludeByEnumerationLimit(t *testing.T) {
	p := NewRulesPolicy(&PolicyDecl{Kind: KindRules, Rules: []Rule{{Cond: True(), Label: 0}}})
	if v, _, err := ExcludeByEnumeration(p, []int{0}, []int{99}, 0, nil, 10); err != nil || v != Undecided {
		t.Errorf("got %v, %v; want undecided", v, err)
	}
	if _, _, err := p.Exclude([]int{3}, []int{2}, 0, nil); err == nil {
		t.Errorf("an empty box is not reported")
	}
}
