package ic3_test

import (
	"context"
	"testing"

	"vigil/ic3"
	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/trees"
)

// TestS32uTreesStopIsPerRun: PolIC3 gives a tree policy its context's
// Done (trees.Policy.StopOn, as for networks), and only for the run: a
// run with its context ended answers unknown, and the policy given in
// memory answers afterwards as a fresh one does. Before, trees.Policy
// had no StopOn and a tree query ran on after SIGTERM or --timeout.
func TestS32uTreesStopIsPerRun(t *testing.T) {
	testutil.StopHookIsPerRunOf(t, randomTrees, func(ctx context.Context, m *symbolic.Model, p *trees.Policy, d *symbolic.PolicyDecl) (bool, error) {
		res, err := ic3.Check(ctx, m, m.Properties[0], d, ic3.Options{Generalize: true, Learned: p})
		if err == nil && res.Verdict != ic3.Unknown {
			t.Errorf("a run with its context ended answered %v", res.Verdict)
		}
		return err == nil && res.Verdict == ic3.Safe, err
	})
}

func randomTrees(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (*trees.Policy, *symbolic.PolicyDecl, error) {
	return trees.Random(m, outs, seed, 12, 4)
}
