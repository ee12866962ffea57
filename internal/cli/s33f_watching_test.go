package cli

import (
	"context"
	"testing"
)

// TestS33fWatching: Watching reports what the process's signal handling
// has reached, which cmd/vigil's stop tests wait for before they signal a
// subprocess (a fixed delay from its start lost the race on a loaded
// machine): nothing before HandleSignals; installed once it ran; watched
// once a command loads (LoadContext) or runs (RunContext) under it.
// Without the handler, LoadContext and RunContext mark nothing watched.
func TestS33fWatching(t *testing.T) {
	sigs.mu.Lock()
	saved := struct {
		installed, watched bool
		ctx                context.Context
		cancel             context.CancelFunc
	}{sigs.installed, sigs.watched, sigs.ctx, sigs.cancel}
	sigs.installed, sigs.watched = false, false
	sigs.mu.Unlock()
	defer func() {
		sigs.mu.Lock()
		sigs.installed, sigs.watched, sigs.ctx, sigs.cancel = saved.installed, saved.watched, saved.ctx, saved.cancel
		sigs.mu.Unlock()
	}()

	if inst, w := Watching(); inst || w {
		t.Fatalf("before the handler: installed %v, watched %v; want neither", inst, w)
	}
	_ = LoadContext() // no handler: nothing to watch
	_, stop := RunContext(0)
	stop()
	if inst, w := Watching(); inst || w {
		t.Fatalf("loads and runs without the handler: installed %v, watched %v; want neither", inst, w)
	}

	// the handler, as HandleSignals installs it (without its signal.Notify,
	// which would take this test process's signals)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs.mu.Lock()
	sigs.installed, sigs.ctx, sigs.cancel = true, ctx, cancel
	sigs.mu.Unlock()
	if inst, w := Watching(); !inst || w {
		t.Fatalf("handler installed, nothing loading: installed %v, watched %v; want installed only", inst, w)
	}
	if LoadContext() != ctx {
		t.Fatal("LoadContext under the handler is not the process context")
	}
	if inst, w := Watching(); !inst || !w {
		t.Fatalf("after LoadContext: installed %v, watched %v; want both", inst, w)
	}

	// RunContext marks it watched too
	sigs.mu.Lock()
	sigs.watched = false
	sigs.mu.Unlock()
	_, stop = RunContext(0)
	defer stop()
	if _, w := Watching(); !w {
		t.Fatal("after RunContext: not watched")
	}
}
