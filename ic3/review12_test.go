package ic3_test

import (
	"os"
	"strconv"
	"testing"

	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// TestReview12WideBoxes runs the learned-policy suite (PolIC3 against BFS,
// every certificate checked, every invariant enumerated) on models of two
// or three variables with wide ranges, so that the boxes PolIC3 blocks
// and certifies hold more than apftSmall (256) states: APFT asks SMT
// there, and its policy-free cores, the level and decision memos and the
// facts computed by evaluation on boxes of 65-256 states all come into
// play. Half the policies read argmax all (stuck where the winner is not
// applicable). A longer run: VIGIL_REVIEW_N=400 go test ./ic3 -run
// Review12.
func TestReview12WideBoxes(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	if k, err := strconv.Atoi(os.Getenv("VIGIL_REVIEW_N")); err == nil && k > 0 {
		n = k
	}
	// The policy-free cores are opt-in (--free-cores); this suite runs
	// with them on.
	learnedIC3.FreeCores = true
	defer func() { learnedIC3.FreeCores = false }()
	learnedSuite(t, n, 12000, true, gen.Options{MaxVars: 3, MaxRange: 40, MaxLabels: 4, InitialStart: true}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%3 == 0 {
			p, d, err := trees.Random(m, outs, seed, 4, 3)
			if err == nil && seed%2 == 0 {
				d.ArgMaxAll = true
			}
			return p, d, err
		}
		p, d, err := nn.Random(m, outs, seed, []int{8})
		if err == nil && seed%2 == 0 {
			d.ArgMaxAll = true
		}
		return p, d, err
	})
}
