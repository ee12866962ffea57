package smt

import (
	"context"
	"testing"
	"time"
)

// TestS31iInterruptRace: a cancelled CheckContext whose interrupts meet
// the check's end (pigeonhole formulas of 4 to 6 holes, which take Z3
// from microseconds to about a millisecond, cancelled after 0 to 600
// µs) must not leave Z3's cancel flag up: while it was up, Z3 4.8.12
// silently dropped the next assertion, so false asserted at once after
// the check, on the same solver after Reset or on another solver, was
// lost and the check said sat. Each round also asks for the cancelled
// check's answer to be unknown or right (pigeonhole n is unsat).
func TestS31iInterruptRace(t *testing.T) {
	keepChecks(t)
	x := newCtx(t)
	defer x.Close()
	other := newSolver(t, x)
	rounds := 3000
	if testing.Short() {
		rounds = 600
	}
	deadline := time.Now().Add(12 * time.Second)
	f0, cancelled := flushes.Load(), 0
	defer func() { t.Logf("%d checks cancelled, %d cancel flags cleared", cancelled, flushes.Load()-f0) }()
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
		if r == Unknown {
			cancelled++
		}
		var s *Solver
		if i%2 == 0 {
			must(t, hs.Reset())
			s = hs
		} else {
			must(t, other.Push())
			s = other
		}
		must(t, s.Assert(x.False()))
		if r, _ := s.Check(); r != Unsat {
			t.Fatalf("round %d: false asserted after a cancelled check (pigeonhole %d, %v): %v, assertions %q", i, n, delay, r, s.String())
		}
		if s == other {
			must(t, other.Pop(1))
		}
		cancel()
		hs.Close()
		x.Release(m)
	}
}
