package ic3_test

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// TestPolIC3ArgMaxAll runs the learned-policy suite (PolIC3 against BFS,
// every safe answer's certificate and policy facts re-checked by
// ic3/cert, the certifier compared with BFS's decisions) on policies read
// `argmax all`, PlaJA's policy without applicability filtering: with all
// labels as outputs and random guards, the arg-max is often a label that
// is not applicable, where the policy is stuck.
func TestPolIC3ArgMaxAll(t *testing.T) {
	net := testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{8})
	})
	ens := testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 4, 3)
	})
	// One start state out of the unsafe ones: the verdict turns on the
	// policy's choices (about one question in twenty gets another BFS
	// verdict under the other reading).
	g := gen.Options{MaxVars: 4, MaxRange: 8, MaxLabels: 5, MaxCommands: 8, InitialStart: true}
	learnedSuite(t, 200, 21000, true, g, net)
	testutil.ReadingsDiffer(t, 200, 21000, g, net)
	learnedSuite(t, 150, 22000, true, g, ens)
	testutil.ReadingsDiffer(t, 150, 22000, g, ens)
	learnedSuite(t, 150, 24000, true, gen.Options{MaxLabels: 4}, net)
	learnedSuite(t, 80, 23000, false, gen.Options{}, testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 3, 2)
		}
		return nn.Random(m, outs, seed, []int{6})
	}))
}
