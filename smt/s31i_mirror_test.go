package smt

import (
	"context"
	"testing"
	"time"
)

// TestS31iInterruptRaceSat is TestS31iInterruptRace's mirror: after a
// cancelled check whose interrupts meet its end, satisfiable questions
// (pigeonhole n with n holes, on the same solver after Reset, or under a
// Push of another, long-lived solver that has asserted other things
// before) must never come back unsat. Before the fix a push could fail
// ("push canceled") and an assertion be lost, which only weakens; no
// round answered unsat.
func TestS31iInterruptRaceSat(t *testing.T) {
	keepChecks(t)
	x := newCtx(t)
	defer x.Close()
	other := newSolver(t, x)
	y := x.Keep(x.IntConst("s31i_y"))
	must(t, other.Assert(x.Ge(y, x.Int(0))))
	rounds := 3000
	if testing.Short() {
		rounds = 600
	}
	deadline := time.Now().Add(12 * time.Second)
	for i := 0; i < rounds && time.Now().Before(deadline); i++ {
		n := 4 + i%3
		hs := newSolver(t, x)
		m := x.Mark()
		must(t, hs.Assert(hard(x, n)))
		ctx, cancel := context.WithCancel(context.Background())
		delay := time.Duration(i*37%600) * time.Microsecond
		go func() {
			time.Sleep(delay)
			cancel()
		}()
		r, err := hs.CheckContext(ctx)
		must(t, err)
		if r == Sat {
			t.Fatalf("round %d: pigeonhole %d, cancelled after %v: sat", i, n, delay)
		}
		var s *Solver
		if i%2 == 0 {
			must(t, hs.Reset())
			s = hs
		} else {
			must(t, other.Push())
			s = other
		}
		// n pigeons in n holes, and y = i: satisfiable
		v := make([]Term, n)
		var cs []Term
		for j := range v {
			v[j] = x.IntConst("s31i_p" + string(rune('a'+j)))
			cs = append(cs, x.Ge(v[j], x.Int(0)), x.Lt(v[j], x.Int(int64(n))))
			for k := range j {
				cs = append(cs, x.Ne(v[j], v[k]))
			}
		}
		cs = append(cs, x.Eq(y, x.Int(int64(i))))
		must(t, s.Assert(x.And(cs...)))
		if r, _ := s.Check(); r != Sat {
			t.Fatalf("round %d: a satisfiable question after a cancelled check (pigeonhole %d, %v): %v (%s)", i, n, delay, r, s.ReasonUnknown())
		}
		if s == other {
			must(t, other.Pop(1))
		}
		cancel()
		hs.Close()
		x.Release(m)
	}
}
