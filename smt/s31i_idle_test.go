package smt

import "testing"

// TestS31iIdleInterruptKeepsAssertions: Z3_interrupt while no check runs
// used to leave the manager's cancel flag set until the next check began,
// and Z3 4.8.12's smt::context::assert_expr silently drops an assertion
// while that flag is set: false asserted after an idle interrupt was lost
// and the check said sat.
func TestS31iIdleInterruptKeepsAssertions(t *testing.T) {
	x := newCtx(t)
	defer x.Close()
	s := newSolver(t, x)
	x.Interrupt()
	must(t, s.Assert(x.False()))
	if r, _ := s.Check(); r != Unsat {
		t.Fatalf("false asserted after an idle interrupt: %v, want unsat (assertions: %q)", r, s.String())
	}
}
