package cert

import (
	"context"
	"errors"
	"testing"

	"vigil/smt"
)

// TestS33zOneRlimitKey: the checker's resource limit is smt's
// (smt.WithRlimit, which vigil verify --rlimit sets), not a key of its
// own: WithRlimit is smt.WithRlimit, and a check under smt's key is an
// *Inconclusive with the same reason as under WithRlimit, naming --rlimit
// and the limit, with Rlimit set. Before, cert had a key of its own:
// under verify --rlimit the engine's check of its invariant took the
// limit from smt's key through CheckContext, and said only "resource
// limit (rlimit N)", with Rlimit 0 (no limit of the caller's).
func TestS33zOneRlimitKey(t *testing.T) {
	ctx := context.Background()
	if n := smt.RlimitOf(WithRlimit(ctx, 7)); n != 7 {
		t.Fatalf("smt.RlimitOf(WithRlimit(ctx, 7)) = %d, want 7", n)
	}
	if n := smt.RlimitOf(WithRlimit(smt.WithRlimit(ctx, 7), 0)); n != 0 {
		t.Fatalf("WithRlimit(ctx, 0) over smt's 7: %d, want 0 (no limit)", n)
	}
	m, prop := counter()
	c := &Cert{Inv: [][]smt.Lit{{{Var: 0, Upper: true, K: 3}}}, Vars: []string{"mod"}}
	c.Property, c.Boxes = "p", 1
	c.Hash, _ = ModelHash(m, "p", "")
	noEvaluation(t)
	for _, lctx := range []context.Context{smt.WithRlimit(ctx, 1), WithRlimit(ctx, 1)} {
		err := Check(lctx, c, m, prop, nil)
		u, ok := errors.AsType[*Inconclusive](err)
		if !ok || u.Condition != "init" || u.Rlimit != 1 || u.Reason != rlimitReached1 {
			t.Errorf("under rlimit 1: %v (%T), want the init condition's *Inconclusive with reason %q and Rlimit 1", err, err, rlimitReached1)
		}
	}
	if err := Check(smt.WithRlimit(ctx, 0), c, m, prop, nil); err != nil {
		t.Errorf("under smt's key with 0 (no limit): %v, want valid", err)
	}
}

// TestS33zSmtLimitReason: smt's reason for a check that ran out of the
// context's limit, "resource limit (rlimit N)", is the limit's reason
// here too, with the --rlimit wording, as Z3's own words for it are; a
// reason naming another limit than ctx's, or no limit under none, is
// kept as it is.
func TestS33zSmtLimitReason(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		ctx          context.Context
		reason, want string
		rlimit       uint32
	}{
		{smt.WithRlimit(ctx, 1), "resource limit (rlimit 1)", rlimitReached1, 1},
		{smt.WithRlimit(ctx, 70000), "resource limit (rlimit 70000)", "the resource limit was reached (--rlimit 70000 per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)", 70000},
		{smt.WithRlimit(ctx, 1), "unknown", rlimitReached1, 1},
		{ctx, "resource limit (rlimit 5)", "resource limit (rlimit 5)", 0},
		{ctx, "unknown", "unknown", 0},
	} {
		u := undecided(c.ctx, "init", c.reason)
		if u.Reason != c.want || u.Rlimit != c.rlimit {
			t.Errorf("reason %q under rlimit %d: got %q (rlimit %d), want %q (rlimit %d)", c.reason, smt.RlimitOf(c.ctx), u.Reason, u.Rlimit, c.want, c.rlimit)
		}
	}
}
