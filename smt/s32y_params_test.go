package smt

import (
	"strings"
	"testing"
)

// TestS32yParamsCheckedAtSet: Z3 4.8.12 checks a solver's parameters
// only when it sets the solver up, at the first assertion (or Push, or
// Scopes): SetParams(compact=false) succeeded on a fresh solver, the next
// Assert failed with "unknown parameter 'compact'" and the assertion was
// dropped (a check after it answered sat on false), and a solver
// rebuilt by SetRecycle failed its rebuild the same way ("rebuilding
// the solver") once it had answered n checks. SetParams now refuses such
// a parameter itself, sets nothing, and the solver works on; compact
// (true or false), which Z3's SMT core reads though the simple solver
// does not declare it, is taken, and an assertion after it, and a
// rebuild, keep their meaning.
func TestS32yParamsCheckedAtSet(t *testing.T) {
	x := newCtx(t)
	for _, oneShot := range []bool{false, true} {
		for _, bad := range []Param{{"compact", "5"}, {"no_such_parameter", "1"}, {"relevancy", "fast"}} {
			s := newSolver(t, x)
			if oneShot {
				var err error
				if s, err = x.NewOneShotSolver(); err != nil {
					t.Fatal(err)
				}
			}
			// (Z3's one-shot solver takes what its tactic reads: it
			// must then keep its assertions)
			err := s.SetParams(Param{"arith.solver", "2"}, bad)
			if !oneShot && (err == nil || !strings.Contains(err.Error(), bad.Name)) {
				t.Fatalf("SetParams(%v) = %v, want an error naming it", bad, err)
			}
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("the error carries Z3's list of every parameter: %q", err)
			}
			t.Logf("one-shot %v, %v: %v", oneShot, bad, err)
			if err := s.Assert(x.False()); err != nil {
				t.Fatalf("one-shot %v: the assertion after a refused parameter: %v", oneShot, err)
			}
			if r, err := s.Check(); err != nil || r != Unsat {
				t.Fatalf("one-shot %v: false after a refused parameter: %v %v, want unsat", oneShot, r, err)
			}
		}
	}
	// the parameters vigil sets are taken (ic3's tuning, with compact),
	// the first assertion after them is kept, and a tuned solver recycles
	s := newSolver(t, x)
	must(t, s.SetParams(Param{"arith.solver", "2"}, Param{"relevancy", "0"}, Param{"compact", "false"}, Param{"rlimit", "100000"}))
	s.SetRecycle(2)
	v := x.IntConst("v")
	a := x.BoolConst("a")
	must(t, s.Assert(x.Implies(a, x.False())))
	must(t, s.Assert(x.Gt(v, x.Int(3))))
	for i := 0; i < 5; i++ {
		if r, err := s.Check(x.Lt(v, x.Int(3))); err != nil || r != Unsat {
			t.Fatalf("check %d of a tuned solver that recycles every 2: %v %v", i, r, err)
		}
		if r, err := s.Check(a); err != nil || r != Unsat {
			t.Fatalf("check %d of the first assertion after the tuning: %v %v (dropped?)", i, r, err)
		}
	}
	if s.Recycles == 0 {
		t.Fatal("the solver never recycled")
	}
	o, err := x.NewOneShotSolver()
	must(t, err)
	must(t, o.SetParams(Param{"arith.solver", "2"}, Param{"arith.auto_config_simplex", "true"}, Param{"relevancy", "0"}, Param{"rlimit", "100"}))
}
