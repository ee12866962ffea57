package smt

import (
	"context"
	"errors"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// s32iProbe is a one-variable model whose command's guard is a
// conjunction of n comparisons followed by one with a nil expression,
// which the encoder rejects ("smt: nil expression"): an encoding that
// runs to its end fails, one that a done context stops (StopWhen polls
// every 64 constructions) never reaches it. The assignment x' = x + 1
// can leave 0..10, so CheckBounds asks Z3 about it.
func s32iProbe(t *testing.T, n int) *symbolic.Model {
	t.Helper()
	m, diags := lang.LoadSource("probe.spec", []byte(`model probe
var x : 0 .. 10
action inc when x < 5 -> x' = x + 1
property p { start x == 0 unsafe x == 10 }
`), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	var args []*symbolic.Cond
	for k := range n {
		args = append(args, &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Le,
			L: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(0), symbolic.Lit(k)}}, R: symbolic.Lit(100000)})
	}
	args = append(args, &symbolic.Cond{Op: symbolic.CCmp, Cmp: symbolic.Le, L: nil, R: symbolic.Lit(0)})
	m.Commands[0].Guard = &symbolic.Cond{Op: symbolic.CAnd, Args: args}
	return m
}

// TestS32iBoundsStopsEncoding: CheckBounds (which verify's portfolio
// runs on a goroutine of its own with the run's context) and
// FindDeadlocks poll the context while they encode a query, as ic3 does
// (smt.Context.StopWhen): a stop there leaves the query undecided with
// the stop as its reason, never an error. Before session 32 they built
// each query to its end (here: the encoder's error on the probe's nil
// expression) before the check noticed the stop.
func TestS32iBoundsStopsEncoding(t *testing.T) {
	m := s32iProbe(t, 5000)
	// without a stop, the encoding reaches the nil expression
	if _, err := CheckBounds(m, CheckOptions{}); err == nil || !strings.Contains(err.Error(), "nil expression") {
		t.Fatalf("CheckBounds without a stop: %v, want the encoder's nil-expression error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := CheckBounds(m, CheckOptions{Context: ctx})
	if err != nil {
		t.Fatalf("CheckBounds under a done context: %v", err)
	}
	if !res.Stopped || len(res.Violations) != 0 || len(res.Undecided) != 1 || res.Undecided[0].Command != 0 {
		t.Fatalf("CheckBounds under a done context: %+v, want one undecided query and Stopped", res)
	}
	if why := res.Undecided[0].Reason; why != stopWhy(ctx) {
		t.Errorf("the undecided query's reason is %q, want %q", why, stopWhy(ctx))
	}
	dl, err := FindDeadlocks(m, CheckOptions{Context: ctx})
	if err != nil {
		t.Fatalf("FindDeadlocks under a done context: %v", err)
	}
	if len(dl.Deadlocks) != 0 || len(dl.Undecided) != 1 || dl.Undecided[0].Reason != stopWhy(ctx) {
		t.Fatalf("FindDeadlocks under a done context: %+v, want the property undecided", dl)
	}
	if _, err := FindDeadlocks(m, CheckOptions{}); err == nil {
		t.Fatal("FindDeadlocks without a stop encoded the nil expression without an error")
	}
	// a stop that is not the context's is still an error
	if err := errors.New("x"); (CheckOptions{Context: ctx}).isStop(err) {
		t.Error("isStop took an unrelated error for a stop")
	}
}
