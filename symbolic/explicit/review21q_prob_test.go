package explicit_test

import (
	"errors"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestReview21qBadProbMatchesApply: the symbolic engines' condition for a
// probability error (symbolic.Outcome.BadProb) holds in a state exactly
// where the explicit engine's Apply fails with a RangeError whose Prob is
// set, for every numerator and denominator in -4..4 (x/y over two
// variables, and x over each constant denominator), and ErrorAt reports
// it only for a label it expands.
func TestReview21qBadProbMatchesApply(t *testing.T) {
	for _, constDen := range []int{-3, -1, 0, 1, 2, 100} {
		for _, varDen := range []bool{true, false} {
			m := &symbolic.Model{Name: "p",
				Vars:   []symbolic.Var{{Name: "x", Lo: -4, Hi: 4}, {Name: "y", Lo: -4, Hi: 4}},
				Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}},
			}
			den := symbolic.Lit(constDen)
			if varDen {
				den = symbolic.V(1)
			}
			m.Commands = []symbolic.Command{
				{Label: 0, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{ProbFactors: []symbolic.ProbFactor{{Num: symbolic.V(0), Den: den}}}}},
				{Label: 1, Guard: symbolic.True(), Outcomes: []symbolic.Outcome{{}}},
			}
			g, err := explicit.New(m, nil)
			if err != nil {
				t.Fatal(err)
			}
			bad := m.Commands[0].Outcomes[0].BadProb()
			for x := -4; x <= 4; x++ {
				for y := -4; y <= 4; y++ {
					s := symbolic.State{x, y}
					_, err := g.Apply(s, 0, 0)
					var re *explicit.RangeError
					isErr := errors.As(err, &re) && re.Prob
					if err != nil && !isErr {
						t.Fatalf("%v: %v", s, err)
					}
					if got := bad.Holds(s); got != isErr {
						t.Errorf("x=%d y=%d den %v: BadProb %v, Apply's error %v", x, y, m.ExprString(den), got, err)
					}
					if aerr := g.ErrorAt(s, nil); (aerr != nil) != isErr {
						t.Errorf("x=%d y=%d: ErrorAt %v, Apply %v", x, y, aerr, err)
					}
					if berr := g.ErrorAt(s, onlyB{}); berr != nil {
						t.Errorf("x=%d y=%d: ErrorAt under label b: %v", x, y, berr)
					}
				}
			}
		}
	}
}

// onlyB chooses label b.
type onlyB struct{}

func (onlyB) Decide(symbolic.State, []bool) (symbolic.LabelID, error) { return 1, nil }
