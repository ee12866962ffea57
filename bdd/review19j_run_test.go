package bdd

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"vigil/lang"
)

// TestReview19jRunAbandonedBeforeStart: when the caller of run abandons
// the manager before the computation's goroutine has taken the lock (the
// context has ended and the grace is used up), the computation must not
// run at all: finish's measuring wrote the figures beside the caller's
// own (a data race under -race, seen in TestReview19jStopSweep).
func TestReview19jRunAbandonedBeforeStart(t *testing.T) {
	m, d := lang.LoadSource("c.spec", []byte("model c\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty p { unsafe x == 3 }\n"), lang.Options{})
	if d.HasErrors() {
		t.Fatal(d.Render())
	}
	// One processor: the goroutine runs only once the caller blocks,
	// and the caller, its grace used up, takes the lock first.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	abandoned, ran := 0, 0
	for range 50 {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		sp, err := newSpace(ctx, m, m.Properties[0], Options{})
		if err != nil {
			t.Fatal(err)
		}
		sp.m.graceUsed, sp.m.graceLeft = true, 0
		var after atomic.Bool
		st, _ := sp.run(func() error {
			if sp.m.abandoned.Load() {
				after.Store(true)
			}
			return nil
		})
		if st == nil || !sp.m.abandoned.Load() {
			continue
		}
		abandoned++
		for end := time.Now().Add(10 * time.Millisecond); time.Now().Before(end) && !after.Load(); {
			time.Sleep(time.Millisecond) // the goroutine's turn
		}
		if after.Load() {
			ran++
		}
	}
	t.Logf("%d runs abandoned before the computation started", abandoned)
	if ran > 0 {
		t.Errorf("the computation ran %d times after the manager was abandoned", ran)
	}
}
