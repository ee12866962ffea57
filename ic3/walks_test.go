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
// walks from its first obligation on, 4,096 steps per unit of work
// (walks.go), so that most unsafe
// answers come from walks. verify replays each counterexample in the
// explicit semantics, and the suite compares every verdict with BFS.
func TestPolIC3Walks(t *testing.T) {
	defer ic3.SetWalks(0, 1<<12)()
	learnedSuite(t, 60, 4000, true, gen.Options{}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 3, 2)
		}
		return nn.Random(m, outs, seed, []int{6})
	})
}

// TestPolIC3DetWalks is TestPolIC3Walks on models of one outcome per
// command and about one command per label, most of them deterministic
// (walks.go: the walker that ends a walk on a state walked before and
// continues cut walks), some with range errors (which end a walk, not
// the walks): every verdict is BFS's, every counterexample replays.
func TestPolIC3DetWalks(t *testing.T) {
	defer ic3.SetWalks(0, 1<<12)()
	g := gen.Options{MaxOutcomes: 1, MaxCommands: 3, MaxLabels: 3, RangeErrors: true}
	learnedSuite(t, 200, 9000, true, g, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 3, 2)
		}
		return nn.Random(m, outs, seed, []int{6})
	})
}
