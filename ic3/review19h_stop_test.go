package ic3_test

import (
	"context"
	"testing"

	"vigil/ic3"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
)

// TestReview19hStopDoesNotOutliveCheck: PolIC3 makes the network
// policy's certification queries give up once its context ends (StopOn,
// fd6f696). A policy given in memory (ic3.Options.Learned, as
// verify.Question.Executable) outlives the run: after a stopped run its
// queries must answer as a fresh policy's do.
func TestReview19hStopDoesNotOutliveCheck(t *testing.T) {
	testutil.StopHookIsPerRun(t, func(ctx context.Context, m *symbolic.Model, p *nn.Policy, d *symbolic.PolicyDecl) (bool, error) {
		res, err := ic3.Check(ctx, m, m.Properties[0], d, ic3.Options{Generalize: true, Learned: p})
		if err == nil && res.Verdict != ic3.Unknown {
			t.Errorf("a run with its context ended answered %v", res.Verdict)
		}
		return err == nil && res.Verdict == ic3.Safe, err
	})
}
