package cert

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"vigil/smt"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestReview17EvaluationDifferFacts: the evaluator of small models'
// checks (exhaust.go) agrees with Z3 on learned policies' scripts whose
// invariant conjoins disequalities (vigil.differ) and whose facts
// exclude labels on sub-regions (vigil.inv.<label> within the
// disequalities, sure checks): TestEvaluationDiffer covers the
// disequalities without facts, TestReviewOracle the facts without
// disequalities.
func TestReview17EvaluationDifferFacts(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 17))
	counts := map[string]int{}
	for seed := uint64(0); seed < 60; seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: seed%2 == 0})
		if len(m.Vars) < 2 {
			continue
		}
		prop := m.Properties[0]
		for range 4 {
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
			inv := randomRegions(r, m, 1+r.IntN(3), r.IntN(2) == 0)
			facts := randomFacts(r, m, len(inv))
			q := smtlib.Question{Model: opaque(m), Property: prop, Differ: pairs}
			s, err := smtlib.CertScript(q, smtlib.Boxes(inv), facts.exclusions(), true)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			found, decided := evaluate(m, s)
			if !decided {
				counts["undecided"]++
				continue
			}
			want := z3Posts(t, s, "true")
			got := smt.Unsat
			if found != nil {
				got = smt.Sat
			}
			if got != want {
				t.Errorf("seed %d, pairs %v, %d facts: evaluation %v (state %v), Z3 %v", seed, pairs, len(facts), got, found, want)
			}
			counts[fmt.Sprint(got)]++
		}
	}
	t.Logf("answers: %v", counts)
	if counts["sat"] == 0 || counts["unsat"] == 0 {
		t.Errorf("the test needs both answers: %v", counts)
	}
}
