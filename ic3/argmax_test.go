package ic3_test

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit/conformance"
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
	readingsDiffer(t, 200, 21000, g, net)
	learnedSuite(t, 150, 22000, true, g, ens)
	readingsDiffer(t, 150, 22000, g, ens)
	learnedSuite(t, 150, 24000, true, gen.Options{MaxLabels: 4}, net)
	learnedSuite(t, 80, 23000, false, gen.Options{}, testutil.ArgMaxAll(func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 3, 2)
		}
		return nn.Random(m, outs, seed, []int{6})
	}))
}

// readingsDiffer fails t unless the readings give different BFS verdicts
// on some of the questions of a suite (conformance.Readings), so that the
// suite can tell an engine that ignores the reading.
func readingsDiffer(t *testing.T, models int, first uint64, g gen.Options, mk testutil.MakePolicy) {
	t.Helper()
	q, d, err := conformance.Readings(conformance.Options{Models: models, FirstSeed: first, Gen: g,
		Policy: testutil.RecordPolicies(map[*symbolic.PolicyDecl]symbolic.Policy{}, mk)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("the readings give different BFS verdicts on %d of %d questions", d, q)
	if d == 0 {
		t.Error("the readings never differ: the suite cannot tell an engine that ignores argmax all")
	}
}
