package cert

import (
	"context"
	"errors"
	"testing"

	"vigil/smt"
)

// TestS29cInconclusive: a check Z3 answers unknown without the context
// ending (here a resource limit of 1, WithRlimit, with the exact
// evaluation of small models turned off so that Z3 decides) is an
// *Inconclusive naming the condition and the limit that was reached,
// neither valid nor a *Failure; without the limit the same valid
// certificate is valid and an invalid one still fails with its *Failure.
func TestS29cInconclusive(t *testing.T) {
	m, prop := counter()
	mk := func(k int) *Cert {
		c := &Cert{Inv: [][]smt.Lit{{{Var: 0, Upper: true, K: k}}}, Vars: []string{"mod"}}
		c.Property, c.Boxes = "p", 1
		c.Hash, _ = ModelHash(m, "p", "")
		return c
	}
	ctx := context.Background()
	noEvaluation(t)
	for _, k := range []int{3, 2} { // valid, invalid: neither can be decided
		err := Check(WithRlimit(ctx, 1), mk(k), m, prop, nil)
		u, ok := errors.AsType[*Inconclusive](err)
		if !ok {
			t.Fatalf("x <= %d under rlimit 1: got %v (%T), want an *Inconclusive", k, err, err)
		}
		if _, failed := errors.AsType[*Failure](err); failed {
			t.Errorf("x <= %d: an undecided check is a *Failure: %v", k, err)
		}
		if u.Condition != "init" || u.Rlimit != 1 || Message(err) != "Z3 answered unknown on the init condition: "+rlimitReached1 {
			t.Errorf("x <= %d: got condition %q reason %q rlimit %d message %q", k, u.Condition, u.Reason, u.Rlimit, Message(err))
		}
	}
	if err := Check(ctx, mk(3), m, prop, nil); err != nil {
		t.Errorf("x <= 3 without the limit: %v", err)
	}
	err := Check(ctx, mk(2), m, prop, nil)
	if f, ok := errors.AsType[*Failure](err); !ok || f.Condition != "consecution" {
		t.Errorf("x <= 2 without the limit: got %v, want consecution to fail", err)
	}
	if _, ok := errors.AsType[*Inconclusive](err); ok {
		t.Errorf("x <= 2 without the limit is inconclusive: %v", err)
	}
}
