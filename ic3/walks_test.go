package ic3_test

import (
	"testing"

	"vigil/ic3"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// TestPolIC3Walks runs the learned conformance suite with PolIC3's random
// walks from the first obligation on, without their time budget (walks.go):
// every obligation first walks for a slice, so the unsafe answers come
// mostly from walks. verify replays each counterexample in the explicit
// semantics, and the suite compares every verdict with BFS.
func TestPolIC3Walks(t *testing.T) {
	defer ic3.SetWalkAfter(0)()
	learnedSuite(t, 60, 4000, true, gen.Options{}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 3, 2)
		}
		return nn.Random(m, outs, seed, []int{6})
	})
}
