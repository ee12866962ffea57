package ic3_test

import (
	"testing"

	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// The learned-policy suite (PolIC3 against BFS, every safe answer's
// certificate re-checked with its policy facts) on the models the other
// suites leave out, where PolIC3's concrete answers (evaluating the states
// of small boxes instead of asking SMT, ic3/concrete.go) must agree with
// the symbolic semantics: unclamped assignments (range errors, in the bad
// region for any label, never a transition), intermediate values beyond
// int64 (exact integers), and ranges wide enough that boxes straddle the
// 64- and 256-state limits of the concrete answers.

func TestPolIC3AdvRangeErrors(t *testing.T) {
	learnedSuite(t, 500, 91000, true, gen.Options{RangeErrors: true, MaxRange: 9}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{8})
	})
}

func TestPolIC3AdvLarge(t *testing.T) {
	learnedSuite(t, 500, 92000, true, gen.Options{Large: true, RangeErrors: true}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 4, 3)
		}
		return nearTieNetwork(m, outs, seed)
	})
}

func TestPolIC3AdvWideBoxes(t *testing.T) {
	learnedSuite(t, 400, 93000, true, gen.Options{MaxVars: 3, MaxRange: 24, RangeErrors: true, MaxLabels: 4}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%3 == 0 {
			return trees.Random(m, outs, seed, 4, 3)
		}
		return nn.Random(m, outs, seed, []int{8})
	})
}
