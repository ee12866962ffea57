package smt

import (
	"fmt"
	"strings"
	"testing"
)

// TestS33zLostReports: Lost says whether a solver is lost, and why: ""
// for a fresh solver and after an answered check, the limit's reason once
// a check ran out of its resource limit (every later check answers
// Unknown with it), "" again after Reset. Callers that go on asking
// (IC3's frames) read it to rebuild instead of answering Unknown to
// every later query.
func TestS33zLostReports(t *testing.T) {
	x := newCtx(t)
	s := newSolver(t, x)
	const n = 300
	var vs []Term
	for i := 0; i <= n; i++ {
		vs = append(vs, x.IntConst(fmt.Sprint("v", i)))
	}
	for i := 0; i < n; i++ {
		must(t, s.Assert(x.Eq(vs[i], x.Add(vs[i+1], x.Int(1)))))
	}
	if s.Lost() != "" {
		t.Fatalf("a fresh solver is lost: %q", s.Lost())
	}
	must(t, s.SetLimits(Limits{Rlimit: 10}))
	r, err := s.Check()
	must(t, err)
	if r != Unknown {
		t.Fatalf("the chain of %d under rlimit 10: %v, want Unknown (Z3 runs out of the limit)", n, r)
	}
	if got := s.Lost(); !strings.Contains(got, "rlimit 10") {
		t.Fatalf("after a check that ran out of rlimit 10: Lost() = %q, want the limit's reason", got)
	}
	must(t, s.SetLimits(Limits{}))
	if r, err := s.Check(); err != nil || r != Unknown || s.Lost() == "" {
		t.Fatalf("a lost solver answered %v %v (Lost %q), want Unknown and still lost", r, err, s.Lost())
	}
	must(t, s.Reset())
	if s.Lost() != "" {
		t.Fatalf("after Reset: Lost() = %q, want \"\"", s.Lost())
	}
	must(t, s.Assert(x.Lt(vs[0], vs[1])))
	if r, err := s.Check(); err != nil || r != Sat || s.Lost() != "" {
		t.Fatalf("after Reset: %v %v (Lost %q), want sat and not lost", r, err, s.Lost())
	}
}
