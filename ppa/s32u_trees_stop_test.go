package ppa_test

import (
	"context"
	"testing"

	"vigil/internal/testutil"
	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/trees"
)

// TestS32uPPATreesStopIsPerRun: ppa gives a tree policy its context's
// Done (trees.Policy.StopOn), and only for the run: a run with its
// context ended answers unknown, and the policy given in memory answers
// afterwards as a fresh one does.
func TestS32uPPATreesStopIsPerRun(t *testing.T) {
	random := func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (*trees.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 12, 4)
	}
	testutil.StopHookIsPerRunOf(t, random, func(ctx context.Context, m *symbolic.Model, p *trees.Policy, d *symbolic.PolicyDecl) (bool, error) {
		res, err := ppa.Check(ctx, m, m.Properties[0], d, ppa.Options{Policy: p})
		if err == nil && res.Verdict != explicit.Unknown {
			t.Errorf("a run with its context ended answered %v", res.Verdict)
		}
		return err == nil && res.Verdict == explicit.Safe, err
	})
}
