package ic3_test

import (
	"context"
	"fmt"
	"testing"

	"vigil/ic3"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// TestReview15bRebuildEveryRetire runs PolIC3 against BFS with its solver
// rebuilt at every retired literal (46cb331, adc279c made PolIC3 rebuild
// after 500 of them on large runs, which the suites' small models never
// reach): whatever a rebuild must restore (the range-error facts, the
// label and applicability literals, the frames' clauses) is exercised on
// every query, with range errors in the models. verify.Decide checks
// each answer (a counterexample replays, a certificate with its policy
// facts goes through ic3/cert) and the invariants are checked once more by
// enumeration.
func TestReview15bRebuildEveryRetire(t *testing.T) {
	if testing.Short() {
		t.Skip("a PolIC3 conformance suite")
	}
	defer ic3.SetRebuildForTest(1, 0)()
	pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
	rebuilds, safe := 0, 0
	v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		p := pols[pd]
		res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: "polic3"})
		if err != nil {
			return conformance.Answer{}, err
		}
		if res.IC3 != nil {
			rebuilds += res.IC3.Stats.Rebuilds
		}
		switch res.Answer {
		case explicit.UnsafeVerdict:
			return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: res.Trace}, nil
		case explicit.Safe:
			safe++
			if err := checkInvariantPolicy(m, prop, p, res.IC3.Invariant, res.IC3.Differ...); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant (enumeration): %v", err)
			}
			return conformance.Answer{Verdict: explicit.Safe}, nil
		}
		return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
	}
	conformance.Verify(t, v, conformance.Options{Models: 200, FirstSeed: 4000, Gen: gen.Options{RangeErrors: true, InitialStart: true, MaxRange: 16, MaxDepth: 3},
		Policy: testutil.RecordPolicies(pols, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			if seed%2 == 0 {
				return trees.Random(m, outs, seed, 3, 2)
			}
			return nn.Random(m, outs, seed, []int{6})
		})})
	t.Logf("%d safe verdicts, %d solver rebuilds", safe, rebuilds)
	if rebuilds < 100 {
		t.Errorf("only %d rebuilds: the suite does not exercise them", rebuilds)
	}
}
