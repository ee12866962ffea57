package verify

import (
	"context"
	"strings"
	"testing"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS33ePendingRangeErrorNamed: the hunter's range error (met without a
// run) waits for the bounded question; when the user's timeout ends the
// run first the answer is unknown, and it named neither the error nor
// why it was not answered (it was in the hunter's outcome only; before
// session 33 it was the answer). The unknown's reason now names it, as a
// held counterexample is named, and the text report prints it after the
// stop.
func TestS33ePendingRangeErrorNamed(t *testing.T) {
	hunterErr := autoMember{"hunt", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		return nil, q.Gen.ErrorAt(symbolic.State{5, 0, 0}, nil)
	}}
	v, err := s33aRun(s32aPrepared(t, s33aCloser), []autoMember{s32bGaveWay, s32aIdle, hunterErr}, nil, s33aBMCLate, 500*time.Millisecond)
	if err != nil || v.Answer != explicit.Unknown {
		t.Fatalf("got %v, %v; want unknown", v, err)
	}
	if !strings.Contains(v.Reason, "timeout") || !strings.Contains(v.Reason, pendNote) || !strings.Contains(v.Reason, "action b") {
		t.Fatalf("reason %q: want the timeout, then the range error met (action b)", v.Reason)
	}
	var b strings.Builder
	if err := NewReport(v.checked.Question, v).WriteText(&b, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "before a verdict"+pendNote) {
		t.Fatalf("report:\n%s\nwant the stop, then the range error met", b.String())
	}
}
