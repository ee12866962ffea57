package main

import (
	"context"
	"errors"
	"testing"

	"vigil/load"
)

// A loader that does not poll the context (a large network or ensemble
// file) no longer holds the command: untilDone returns an interruption once
// the context is done, while the loader is still running.
func TestS29oUntilDoneStopsBlockedLoader(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	go func() {
		<-started
		cancel() // the signal or --timeout, while the loader is busy
	}()
	_, err := untilDone(ctx, func() int {
		close(started)
		<-release // a parse that ignores ctx
		return 1
	})
	if !errors.Is(err, load.ErrInterrupted) {
		t.Fatalf("untilDone with the loader blocked and ctx cancelled: err %v, want load.ErrInterrupted", err)
	}
}

// A context done before loading starts runs no loader at all.
func TestS29oUntilDonePreCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	_, err := untilDone(ctx, func() int { calls++; return 1 })
	if !errors.Is(err, load.ErrInterrupted) || calls != 0 {
		t.Fatalf("pre-cancelled: err %v, %d loader calls; want load.ErrInterrupted and none", err, calls)
	}
}

// Without a stop the loader's result comes back unchanged, also with no
// context.
func TestS29oUntilDoneResult(t *testing.T) {
	for _, ctx := range []context.Context{nil, context.Background()} {
		v, err := untilDone(ctx, func() int { return 7 })
		if err != nil || v != 7 {
			t.Fatalf("untilDone(%v): %d, %v; want 7, nil", ctx, v, err)
		}
	}
}
