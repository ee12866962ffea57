package safety_test

import (
	"regexp"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
)

// TestReview21rDenseFloor: on the walker's model every (x, b) pair is
// reached and not safe. With the bound at 2^22, radius 30000 gives 101
// states times 30001 budgets, 3.03 million pairs: below the bound, so the
// dense tables of session 20 answered (as at full scale radius 300000,
// 30 million pairs under 2^26: tarjan, ipi and propu answered in 7-13 s).
// Counting records, half the window budgets and the proofs (each pair is
// proven not safe: about 2.5 times the pairs) refused tarjan, ipi and
// propu. Every decider must answer not safe, except that nPI, whose
// iterations walk the same pairs again and again, may be refused for its
// revisits (more than the bound).
func TestReview21rDenseFloor(t *testing.T) {
	const bound = 1 << 22
	defer safety.SetMaxPairs(bound)()
	m := testutil.LoadSource(t, "h.spec", walkerSpec)
	for _, algo := range safety.Algorithms {
		ok, _, err := decideDiver(t, m, algo, 30000, symbolic.State{0, 0})
		switch {
		case algo == "npi" && err != nil && pairsErr22.MatchString(err.Error()):
		case err != nil || ok:
			t.Errorf("%s, radius 30000: %v, %v; want not safe (101 states times 30001 budgets are below the bound %d)", algo, ok, err, bound)
		}
	}
}

var pairsErr22 = regexp.MustCompile(`^radius 30000: the search holds or revisits more than 4194304 \(state, remaining budget\) pairs \(101 states so far\); use a smaller radius or --radius inf$`)
