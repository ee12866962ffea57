package ppa_test

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// The learned-policy suites with policies read `argmax all` (PlaJA's
// policy without applicability filtering), by enumeration of small cubes
// and by SMT (the policy's encoding, where every output is a rival, the
// witnesses and the certifier): verdicts agree with BFS, every safe
// answer's certificate checks and its invariant is re-checked by
// enumeration.
func TestConformanceArgMaxAll(t *testing.T) {
	net := testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{6})
	})
	ens := testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 4, 3)
	})
	learned(t, 100, false, net)
	learned(t, 100, false, ens)
	// One start state out of the unsafe ones: the verdict turns on the
	// policy's choices.
	g := gen.Options{MaxVars: 4, MaxRange: 8, MaxLabels: 5, MaxCommands: 8, InitialStart: true}
	learnedGen(t, 150, 31000, false, g, net)
	learnedGen(t, 150, 32000, true, g, ens)
	testutil.ReadingsDiffer(t, 150, 31000, g, net)
	testutil.ReadingsDiffer(t, 150, 32000, g, ens)
	learned(t, 60, true, net)
	learned(t, 80, true, ens)
}

// learnedGen is learned with generator options g and the first seed.
func learnedGen(t *testing.T, models int, first uint64, noEnum bool, g gen.Options, mk testutil.MakePolicy) {
	pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
	conformance.Verify(t, verifier(pols, noEnum), conformance.Options{Models: models, FirstSeed: first, Gen: g,
		Policy: testutil.RecordPolicies(pols, mk)})
}
