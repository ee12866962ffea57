package smt

import (
	"context"
	"testing"
	"time"
)

// s29rMidHard is a pigeonhole formula that is unsat and takes Z3 some
// milliseconds: long enough to meet a stale interrupt (Z3 polls its
// cancellation flag while it searches), short enough to repeat.
const s29rMidHard = 7

// TestS29rStaleInterrupt: interrupts that arrive while no check runs
// (the ones interruptUntil sends between a check's return and the close
// of finished) do not turn the next real check's answer into unknown,
// on the same solver or another one of the context, with or without a
// context. Before the last check of each round, a cancelled CheckContext
// whose interrupt loop ran (delays from 0 to 3 ms) returned.
func TestS29rStaleInterrupt(t *testing.T) {
	x := newCtx(t)
	defer x.Close()
	s := newSolver(t, x)
	must(t, s.Assert(hard(x, s29rMidHard)))
	start := time.Now()
	if r, err := s.Check(); err != nil || r != Unsat {
		t.Fatalf("pigeonhole %d: %v, %v", s29rMidHard, r, err)
	}
	t.Logf("pigeonhole %d: %v", s29rMidHard, time.Since(start))
	// idle interrupts, many of them
	for range 20 {
		x.Interrupt()
	}
	if r, _ := s.Check(); r != Unsat {
		t.Fatalf("after idle interrupts: %v (%s)", r, s.ReasonUnknown())
	}
	n := 40
	if testing.Short() {
		n = 12
	}
	for i := range n {
		hs := newSolver(t, x)
		must(t, hs.Assert(hard(x, 40)))
		ctx, cancel := context.WithCancel(context.Background())
		delay := time.Duration(i%4) * time.Millisecond
		go func() {
			time.Sleep(delay)
			cancel()
		}()
		r, err := hs.CheckContext(ctx)
		must(t, err)
		if r != Unknown {
			t.Fatalf("round %d: a cancelled check of a hard formula: %v", i, r)
		}
		cancel()
		// the same solver, reset, and the other solver, at once after
		switch i % 3 {
		case 0:
			must(t, hs.Reset())
			must(t, hs.Assert(hard(x, s29rMidHard)))
			if r, _ := hs.Check(); r != Unsat {
				t.Fatalf("round %d: the same solver's next check: %v (%s)", i, r, hs.ReasonUnknown())
			}
		case 1:
			if r, _ := s.Check(); r != Unsat {
				t.Fatalf("round %d: another solver's next check: %v (%s)", i, r, s.ReasonUnknown())
			}
		default:
			c2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
			r, _ := s.CheckContext(c2)
			cancel2()
			if r != Unsat {
				t.Fatalf("round %d: another solver's next CheckContext: %v (%s)", i, r, s.ReasonUnknown())
			}
		}
		hs.Close()
	}
}
