package ppa

// A solver of the abstraction that can be rebuilt. Z3 4.8.12 may drop
// assertions during a check that runs out of its time or resource limit,
// so smt marks such a solver lost: it answers Unknown until Reset
// (smt.Solver.lose). A policy query of ppa runs under
// Options.QueryTimeout, and no answer there counts as "may be chosen";
// before this file every later query of that abstraction answered
// Unknown and the iteration ended undecided. solver keeps what was
// asserted (the base, and each open scope's assertions) so that a lost
// solver is replaced by a fresh one in the same state.
//
// It also moves the internalization of the base into a check: Z3
// internalizes the assertions it has not yet seen at the next check or
// Push, and on a large policy encoding that takes seconds (200 trees of
// depth 8: 2.8 CPU s, 12 s wall under load). A Push cannot be given up;
// a check under the run's context can (smt.Solver.CheckContext). So
// build runs one check of the base (under the warm assumptions, which
// make the search trivial) before any Push.

import (
	"vigil/smt"
)

// solver is an smt.Solver with the record of its assertions. Push, Pop
// and Assert go through it (the embedded solver's are shadowed), and
// nothing keeps the embedded pointer across a rebuild.
type solver struct {
	*smt.Solver
	r      *engine
	base   []smt.Term   // the assertions at scope 0
	scopes [][]smt.Term // per open scope, its assertions
	warm   bool         // build runs the warm-up check
	assume []smt.Term   // the assumptions of the warm-up check
}

// newSolver returns a solver holding base, internalized (when warm) by a
// check under the assumptions assume. It returns errUnknown when the
// run's context ended meanwhile.
//
// A warm solver is built at its first Push or Assert (ensure), not here:
// an abstraction whose cubes are all enumerated asks its solvers nothing
// but the start condition's scope, and building the policy's solver
// each iteration cost the warm-up check's internalization of the
// encoding for nothing (session 33 review: the 200-tree stop model with
// ranges of 5 values, 5 iterations, 0 SMT calls before solver.go, 10
// warm-up checks after it, user CPU 2.1 -> 3.2-3.4 s).
func (r *engine) newSolver(base []smt.Term, warm bool, assume ...smt.Term) (*solver, error) {
	s := &solver{r: r, base: append([]smt.Term(nil), base...), warm: warm, assume: assume}
	if warm {
		return s, nil
	}
	if err := s.build(); err != nil {
		return nil, err
	}
	return s, nil
}

// ensure builds a solver that newSolver left unbuilt.
func (s *solver) ensure() error {
	if s.Solver != nil {
		return nil
	}
	return s.build()
}

// build replaces the Z3 solver by a fresh one with the base, the warm-up
// check, and the open scopes with their assertions.
func (s *solver) build() error {
	r := s.r
	t, err := r.x.NewSolver()
	if err != nil {
		return err
	}
	if err := r.assertAll(t, s.base); err != nil {
		s.drop(t)
		return err
	}
	if s.warm {
		if r.opts.beforeWarm != nil {
			r.opts.beforeWarm()
		}
		res, err := r.check(t, s.assume...)
		if err != nil {
			s.drop(t)
			return err
		}
		if res == smt.Unknown {
			if r.ctx.Err() != nil {
				s.drop(t)
				return errUnknown
			}
			// No answer without a stop: a resource limit of the run
			// (--rlimit) spent on the base. The solver is lost; a
			// fresh one internalizes the base at its first Push, as
			// before the warm-up check.
			s.drop(t)
			if t, err = r.x.NewSolver(); err != nil {
				return err
			}
			if err := r.assertAll(t, s.base); err != nil {
				s.drop(t)
				return err
			}
		}
	}
	for _, sc := range s.scopes {
		if err := t.Push(); err != nil {
			s.drop(t)
			return err
		}
		for _, a := range sc {
			if err := t.Assert(a); err != nil {
				s.drop(t)
				return err
			}
		}
	}
	if s.Solver != nil {
		s.drop(s.Solver)
	}
	s.Solver = t
	return nil
}

// assertAll asserts ts in t. Z3 rewrites each assertion as it takes it,
// which on a large policy encoding takes seconds (200 trees of depth 8:
// 0.45 CPU s, 3.7 s wall under load) and hears no stop. Under a run
// context that can end, the assertions run on a goroutine of their own,
// as encodeUnder's encoding does: a stop returns errUnknown at once and
// leaves them running; that goroutine then closes x (r.handedOff), which
// nothing else touches afterwards.
func (r *engine) assertAll(t *smt.Solver, ts []smt.Term) error {
	if r.ctx.Done() == nil {
		for _, a := range ts {
			if err := t.Assert(a); err != nil {
				return err
			}
		}
		return nil
	}
	if r.ctx.Err() != nil {
		return errUnknown
	}
	ch := make(chan error)
	abandoned := make(chan struct{})
	x, hook := r.x, r.opts.beforeAsserts
	go func() {
		if hook != nil {
			hook()
		}
		var err error
		for _, a := range ts {
			if err = t.Assert(a); err != nil {
				break
			}
		}
		select {
		case ch <- err:
		case <-abandoned:
			x.Close()
		}
	}()
	select {
	case err := <-ch:
		return err
	case <-r.ctx.Done():
		select {
		case err := <-ch: // finished at the same time: keep it
			return err
		default:
			close(abandoned)
			r.handedOff = true
			return errUnknown
		}
	}
}

// rebuild replaces a lost solver (see build).
func (s *solver) rebuild() error {
	s.r.stats.Rebuilds++
	return s.build()
}

// drop closes t, unless the run stops: freeing a solver that has
// internalized a large encoding takes a second or more (Z3's dec_ref on
// 200 trees: 0.5 CPU s, 2 s wall under load), which a stopped run would
// spend after its stop; the context's Close frees it (in the background
// for a large context).
func (s *solver) drop(t *smt.Solver) {
	if s.r.ctx.Err() == nil && !s.r.handedOff {
		t.Close()
	}
}

// Close frees the Z3 solver (see drop).
func (s *solver) Close() {
	if s.Solver != nil {
		s.drop(s.Solver)
	}
}

// Assert adds t to the solver, in the innermost open scope. Push, Pop
// and Assert fail with errUnknown once a stop has left the context to
// abandoned assertions (assertAll), which may still run in it: the
// callers that unwind after the stop (policyQuery's Pop) must not touch
// it.
func (s *solver) Assert(t smt.Term) error {
	if s.r.handedOff {
		return errUnknown
	}
	if err := s.ensure(); err != nil {
		return err
	}
	if err := s.Solver.Assert(t); err != nil {
		return err
	}
	if n := len(s.scopes); n > 0 {
		s.scopes[n-1] = append(s.scopes[n-1], t)
	} else {
		s.base = append(s.base, t)
	}
	return nil
}

// Push opens a scope.
func (s *solver) Push() error {
	if s.r.handedOff {
		return errUnknown
	}
	if err := s.ensure(); err != nil {
		return err
	}
	if err := s.Solver.Push(); err != nil {
		return err
	}
	s.scopes = append(s.scopes, nil)
	return nil
}

// Pop closes n scopes.
func (s *solver) Pop(n int) error {
	if s.r.handedOff {
		return errUnknown
	}
	if err := s.ensure(); err != nil {
		return err
	}
	if err := s.Solver.Pop(n); err != nil {
		return err
	}
	s.scopes = s.scopes[:len(s.scopes)-n]
	return nil
}
