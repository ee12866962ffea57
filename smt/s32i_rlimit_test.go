package smt

import (
	"context"
	"strings"
	"testing"
)

// TestS32iContextRlimit: a resource limit put in the context
// (WithRlimit, vigil verify --rlimit) bounds every CheckContext of a
// solver without one of its own: a hard query answers Unknown with a
// reason that names the limit, never sat or unsat; an easy one is still
// answered; a solver's own limit (SetLimits) stays its own.
func TestS32iContextRlimit(t *testing.T) {
	x := newCtx(t)
	ctx := WithRlimit(context.Background(), 5000)
	if RlimitOf(ctx) != 5000 || RlimitOf(context.Background()) != 0 {
		t.Fatal("RlimitOf does not read WithRlimit's limit")
	}
	s := newSolver(t, x)
	must(t, s.Assert(hard(x, 40)))
	r, err := s.CheckContext(ctx)
	must(t, err)
	if r != Unknown || !strings.Contains(s.ReasonUnknown(), "rlimit 5000") {
		t.Fatalf("a hard query under --rlimit 5000: %v (%q), want unknown naming the limit", r, s.ReasonUnknown())
	}
	own := newSolver(t, x)
	must(t, own.SetLimits(Limits{Rlimit: 1000}))
	must(t, own.Assert(hard(x, 40)))
	r, err = own.CheckContext(ctx)
	must(t, err)
	if r != Unknown || !strings.Contains(own.ReasonUnknown(), "rlimit 1000") {
		t.Fatalf("a solver's own limit under the context's: %v (%q), want unknown naming its own limit 1000", r, own.ReasonUnknown())
	}
	easy := newSolver(t, x)
	must(t, easy.Assert(x.Gt(x.IntConst("z"), x.Int(3))))
	if r, err := easy.CheckContext(WithRlimit(context.Background(), 1_000_000)); err != nil || r != Sat {
		t.Fatalf("an easy query under a resource limit: %v %v, want sat", r, err)
	}
	// the context's limit goes with the context: a check without it
	// has none
	if r, err := easy.CheckContext(context.Background()); err != nil || r != Sat || easy.limits.Rlimit != 0 {
		t.Fatalf("a check after a limited one, without a limit: %v %v, limit %d", r, err, easy.limits.Rlimit)
	}
}
