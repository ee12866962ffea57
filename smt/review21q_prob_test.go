package smt

import (
	"errors"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// onlyLabel is a decider that expands label l wherever it is applicable.
type onlyLabel symbolic.LabelID

func (l onlyLabel) Decide(_ symbolic.State, app []bool) (symbolic.LabelID, error) {
	if app[l] {
		return symbolic.LabelID(l), nil
	}
	return symbolic.NoLabel, nil
}

// TestReview21qRangeErrorProbabilities: the encoder's range errors
// include a state-dependent probability outside [0, 1] or dividing by
// zero, exactly where the explicit engine reports one. Before review
// 21q they did not, so IC3 and PolIC3 answered safe where BFS failed with
// a probability error. On random small models (cross_test.go's randModel,
// whose assignments may also leave ranges) with random probabilities
// (a*x + b) / (c*y + d), every in-range state is asked: Z3 finds
// RangeError (all labels) and RangeErrors[l] (label l) true in it iff
// the explicit engine's expansion of it (of every label, of label l)
// fails with a range error.
func TestReview21qRangeErrorProbabilities(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 60
	}
	probErrs := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 21))
		m := randModel(r)
		gen.StateProbs(m, r, 2)
		g, err := explicit.New(m, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		x, err := NewContext()
		if err != nil {
			t.Fatal(err)
		}
		e, err := NewEncoder(x, m)
		if err != nil {
			t.Fatal(err)
		}
		all, err := e.RangeError(TransOptions{}, e.Cur)
		if err != nil {
			t.Fatal(err)
		}
		per, err := e.RangeErrors(TransOptions{}, e.Cur)
		if err != nil {
			t.Fatal(err)
		}
		sv, err := x.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		holds := func(term Term, s symbolic.State) bool {
			res, err := sv.Check(term, e.State(s, e.Cur))
			if err != nil || res == Unknown {
				t.Fatalf("seed %d: %v %v", seed, res, err)
			}
			return res == Sat
		}
		isRange := func(err error) bool {
			var re *explicit.RangeError
			if err != nil && !errors.As(err, &re) {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if err != nil && re.Prob {
				probErrs++
			}
			return err != nil
		}
		eachState(m, func(s symbolic.State) {
			if want, got := isRange(g.ErrorAt(s, nil)), holds(all, s); want != got {
				t.Errorf("seed %d: state %s: explicit error %v, RangeError %v", seed, m.FormatState(s), want, got)
			}
			for l := range m.Labels {
				if want, got := isRange(g.ErrorAt(s, onlyLabel(l))), holds(per[l], s); want != got {
					t.Errorf("seed %d: state %s, label %s: explicit error %v, RangeErrors %v", seed, m.FormatState(s), m.Labels[l].Name, want, got)
				}
			}
		})
		sv.Close()
		x.Close()
	}
	if probErrs == 0 {
		t.Fatal("no probability error: the test tests nothing")
	}
	t.Logf("%d probability errors", probErrs)
}
