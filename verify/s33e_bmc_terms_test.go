package verify

import (
	"context"
	"strings"
	"testing"
	"time"

	"vigil/lang"
)

// TestS33eBoundedStepTooLarge: the unrolling's bound on its terms
// (bmcMaxTerms, its memory) held between steps only: a step was begun
// whatever its size, and a model of 100,000 commands made 3.6 million
// terms in its first step (2.2 GB in Z3, the bound 2 million). A step
// that the estimate (bmcStepEstimate) or the last step says would pass
// the bound is not begun; one that passes it anyway is not asserted.
// Here the bound is lowered to below one step of 500 commands.
func TestS33eBoundedStepTooLarge(t *testing.T) {
	src := "model big\nvar x : 0 .. 500 = 0\nvar y : 0 .. 3 = 0\n" +
		"action m(i in 0 .. 499) when x == i -> x' = x + 1 | y' = y + 1\n" +
		"property p { unsafe x == 500 }\n"
	m, diags := lang.LoadSource("big.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	est := bmcStepEstimate(m)
	defer func(n int) { bmcMaxTerms = n }(bmcMaxTerms)
	// the estimate is near the step's own size: a bound a little above
	// it lets the first step be made, one below it does not
	for _, c := range []struct {
		limit int
		want  string
	}{
		{est / 2, "would hold over"},
		{est*3/2 + 10_000, "would hold over"}, // the second step (and the queries) pass it
	} {
		bmcMaxTerms = c.limit
		st := &bmcState{}
		st.uLimit.Store(bmcNoLimit)
		st.rLimit.Store(bmcNoLimit)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		out := askBounded(ctx, q, st)
		cancel()
		if !strings.Contains(out.why, c.want) {
			t.Errorf("bound %d (estimate %d): ended with %q, want %q", c.limit, est, out.why, c.want)
		}
		t.Logf("bound %d (estimate %d): %s; clear u<%d r<%d", c.limit, est, out.why, st.unsafeClear.Load(), st.rangeClear.Load())
		if c.limit < est && st.unsafeClear.Load() > 1 {
			t.Errorf("bound %d below the estimate %d: a step was made (clear u<%d)", c.limit, est, st.unsafeClear.Load())
		}
		if c.limit > est && st.unsafeClear.Load() < 2 {
			t.Errorf("bound %d above the estimate %d: the first step was not made (clear u<%d)", c.limit, est, st.unsafeClear.Load())
		}
	}
}
