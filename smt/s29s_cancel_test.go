package smt

import (
	"context"
	"testing"
	"time"
)

// TestS29sCancelRace: a context cancelled at any moment around a check
// stops it. Z3 4.8.12 loses an interrupt that arrives just before a check
// or as it starts; with a single interrupt (before session 29) the first
// such check here ran for ever, its own 2 s timeout disabled as well. The
// contexts are cancelled from another goroutine at once, so the interrupt
// lands anywhere from before the check to well inside it.
func TestS29sCancelRace(t *testing.T) {
	keepChecks(t)
	n := 60
	if testing.Short() {
		n = 20
	}
	for i := 0; i < n; i++ {
		x := newCtx(t)
		s := newSolver(t, x)
		must(t, s.Assert(hard(x, 40)))
		if i%2 == 0 {
			must(t, s.SetLimits(Limits{Timeout: 2 * time.Second}))
		}
		ctx, cancel := context.WithCancel(context.Background())
		delay := time.Duration(i%5) * 50 * time.Microsecond
		go func() {
			time.Sleep(delay)
			cancel()
		}()
		watchdog := time.AfterFunc(20*time.Second, func() {
			panic("TestS29sCancelRace: a check whose context was cancelled still runs after 20 s")
		})
		start := time.Now()
		r, err := s.CheckContext(ctx)
		watchdog.Stop()
		must(t, err)
		if r != Unknown {
			t.Fatalf("try %d: a cancelled check of a hard formula answered %v", i, r)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("try %d: the cancelled check took %v (%s)", i, d, s.ReasonUnknown())
		}
		cancel()
		// The solver still works after the interrupts.
		s2 := newSolver(t, x)
		must(t, s2.Assert(x.Gt(x.IntConst("z"), x.Int(3))))
		if r, _ := s2.Check(); r != Sat {
			t.Fatalf("try %d: a check after the cancelled one: %v (%s)", i, r, s2.ReasonUnknown())
		}
		x.Close()
	}
}
