package cert

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestEvaluationDiffer: the evaluator of small models' checks (exhaust.go)
// decides certificates whose vigil.inv conjoins vigil.differ, and agrees
// with Z3 on them.
func TestEvaluationDiffer(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 5))
	counts := map[string]int{}
	for seed := uint64(0); seed < 40; seed++ {
		m := gen.Model(seed, gen.Options{})
		if len(m.Vars) < 2 {
			continue
		}
		prop := m.Properties[0]
		for range 3 {
			var pairs [][2]symbolic.VarID
			for range 1 + r.IntN(3) {
				i, j := r.IntN(len(m.Vars)), r.IntN(len(m.Vars))
				if i != j {
					pairs = append(pairs, [2]symbolic.VarID{symbolic.VarID(i), symbolic.VarID(j)})
				}
			}
			if len(pairs) == 0 {
				continue
			}
			inv := randomRegions(r, m, 1+r.IntN(3), false)
			q := smtlib.Question{Model: opaque(m), Property: prop, Policy: m.Policies[0], Differ: pairs}
			s, err := smtlib.CertScript(q, smtlib.Boxes(inv), nil, false)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if !strings.Contains(s.Defs, "vigil.differ") {
				t.Fatalf("seed %d: no vigil.differ in the script", seed)
			}
			what := fmt.Sprintf("seed %d, pairs %v", seed, pairs)
			found, decided := evaluate(m, s)
			if !decided {
				t.Errorf("%s: evaluation does not decide", what)
				continue
			}
			want := z3Posts(t, s, "true")
			got := smt.Unsat
			if found != nil {
				got = smt.Sat
			}
			if got != want {
				t.Errorf("%s: evaluation %v, Z3 %v", what, got, want)
			}
			counts[fmt.Sprint(got)]++
		}
	}
	t.Logf("answers: %v", counts)
	if counts["sat"] == 0 {
		t.Errorf("the test decides too little: %v", counts)
	}
}

// TestEnumerateDiffer: a fact checked within the disequalities counts only
// the states where the pairs differ, refuses a state that chooses the
// label, and refuses a region beyond the budget with a message.
func TestEnumerateDiffer(t *testing.T) {
	m := &symbolic.Model{Name: "d", Vars: []symbolic.Var{{Name: "a", Lo: 0, Hi: 2}, {Name: "b", Lo: 0, Hi: 2}}, Labels: []symbolic.Label{{Name: "x"}, {Name: "y"}}}
	// x wins exactly where a == b: excluded within a != b, not outside.
	p := &diagPolicy{}
	fc := NewFactChecker(m, p)
	pairs := [][2]symbolic.VarID{{0, 1}}
	f := Fact{Lo: []int{0, 0}, Hi: []int{2, 2}, Label: 0, Sure: []symbolic.LabelID{1}}
	if err := fc.Check(context.Background(), Fact{Lo: f.Lo, Hi: f.Hi, Label: 0, Sure: f.Sure, Differ: pairs}); err != nil {
		t.Errorf("within a != b: %v", err)
	}
	if err := fc.Check(context.Background(), f); err == nil {
		t.Error("over the whole box: the fact is false where a == b, but it was accepted")
	}
	// y wins where a != b: refused within the pairs.
	err := fc.Check(context.Background(), Fact{Lo: f.Lo, Hi: f.Hi, Label: 1, Sure: []symbolic.LabelID{0}, Differ: pairs})
	if _, ok := err.(*FactFailure); !ok {
		t.Errorf("label y within a != b: got %v, want a FactFailure", err)
	}
	differLimit = 4
	defer func() { differLimit = MaxDifferStates }()
	err = fc.Check(context.Background(), Fact{Lo: f.Lo, Hi: f.Hi, Label: 0, Sure: f.Sure, Differ: pairs})
	if err == nil || !strings.Contains(err.Error(), "more than 4 states") {
		t.Errorf("beyond the budget: got %v", err)
	}
}

// diagPolicy scores label x 1 where a == b and 0 elsewhere, label y 0.5.
type diagPolicy struct{}

func (diagPolicy) Outputs() []symbolic.LabelID { return []symbolic.LabelID{0, 1} }
func (diagPolicy) Scores(s symbolic.State, dst []float64) error {
	dst[0], dst[1] = 0, 0.5
	if s[0] == s[1] {
		dst[0] = 1
	}
	return nil
}
