package untildone

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// Many abandoned loads (vigil verify --policy all over many policies of a
// large file, each stopped by its --timeout) do not pile up: once
// MaxAbandoned works run on abandoned, Run waits for one to end before
// it starts another, and gives up at its ctx's end without starting f.
// When the abandoned works end, the count and the goroutines go back to
// where they were.
func TestS30xAbandonedBounded(t *testing.T) {
	waitAbandoned(t, 0) // the works earlier tests released
	goroutines := runtime.NumGoroutine()
	release := make(chan struct{})
	var started atomic.Int32
	for i := 0; i < 3*MaxAbandoned; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		_, err := Run(ctx, func() (int, error) {
			started.Add(1)
			<-release
			return 1, nil
		})
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("run %d: %v; want a stop by the deadline", i, err)
		}
	}
	time.Sleep(10 * time.Millisecond)
	if started.Load() != int32(MaxAbandoned) || Abandoned() != MaxAbandoned {
		t.Fatalf("%d works started, %d abandoned; want %d of each (the later Runs wait)", started.Load(), Abandoned(), MaxAbandoned)
	}
	// a Run that waits starts its f as soon as an abandoned one ends
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	go func() { time.Sleep(20 * time.Millisecond); close(release) }()
	if v, err := Run(ctx, func() (int, error) { return 7, nil }); v != 7 || err != nil {
		t.Fatalf("Run after the abandoned works end: %d, %v; want 7, nil", v, err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for (Abandoned() != 0 || runtime.NumGoroutine() > goroutines) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if n, g := Abandoned(), runtime.NumGoroutine(); n != 0 || g > goroutines {
		t.Fatalf("after the works ended: %d abandoned, %d goroutines (%d before)", n, g, goroutines)
	}
}

// A work that ends as Run gives up is not counted as abandoned: over many
// such races the count goes back to 0.
func TestS30xAbandonedRace(t *testing.T) {
	waitAbandoned(t, 0)
	for i := 0; i < 200; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		go cancel()
		Run(ctx, func() (int, error) { runtime.Gosched(); return 1, nil })
		cancel()
	}
	waitAbandoned(t, 0)
}

// waitAbandoned waits (at most 10 s) for Abandoned to be n.
func waitAbandoned(t *testing.T, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for Abandoned() != n && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if got := Abandoned(); got != n {
		t.Fatalf("%d abandoned works; want %d", got, n)
	}
}
