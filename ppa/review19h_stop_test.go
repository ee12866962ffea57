package ppa_test

import (
	"context"
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestReview19hPPAStopDoesNotOutliveCheck: PPA makes the network
// policy's certification queries give up once its context ends (StopOn,
// fd6f696). A policy given in memory (ppa.Options.Policy, as
// verify.Question.Executable) outlives the run: after a stopped run its
// queries must answer as a fresh policy's do.
func TestReview19hPPAStopDoesNotOutliveCheck(t *testing.T) {
	testutil.StopHookIsPerRun(t, func(ctx context.Context, m *symbolic.Model, p *nn.Policy, d *symbolic.PolicyDecl) (bool, error) {
		res, err := ppa.Check(ctx, m, m.Properties[0], d, ppa.Options{Policy: p})
		return err == nil && res.Verdict == explicit.Safe, err
	})
}
