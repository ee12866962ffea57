package untildone

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Without a stop, Run returns f's value and error unchanged, on any
// context (nil and Background call f directly).
func TestRunReturnsResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	boom := errors.New("boom")
	for _, c := range []context.Context{nil, context.Background(), ctx} {
		v, err := Run(c, func() (int, error) { return 7, nil })
		if v != 7 || err != nil {
			t.Errorf("Run(%v) = %d, %v; want 7, nil", c, v, err)
		}
		v, err = Run(c, func() (int, error) { return 3, boom })
		if v != 3 || err != boom {
			t.Errorf("Run(%v) with an error = %d, %v; want 3, boom", c, v, err)
		}
	}
}

// A cancel while f is blocked (a read that ignores ctx) returns at once,
// with a *Stopped that wraps ctx's error; f is still running.
func TestRunStopsPromptly(t *testing.T) {
	for _, tc := range []struct {
		name string
		ctx  func() (context.Context, context.CancelFunc)
		want error
	}{
		{"cancel", func() (context.Context, context.CancelFunc) { return context.WithCancel(context.Background()) }, context.Canceled},
		{"deadline", func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}, context.DeadlineExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := tc.ctx()
			defer cancel()
			started, release := make(chan struct{}), make(chan struct{})
			defer close(release)
			at := time.Now()
			go func() {
				<-started
				if tc.want == context.Canceled {
					cancel()
				}
			}()
			v, err := Run(ctx, func() (int, error) {
				close(started)
				<-release
				return 1, nil
			})
			late := time.Since(at)
			var st *Stopped
			if !errors.As(err, &st) || !errors.Is(err, tc.want) || v != 0 {
				t.Fatalf("Run with f blocked: %d, %v; want 0 and a *Stopped wrapping %v", v, err, tc.want)
			}
			if late > 5*time.Second { // generous: a loaded machine; blocked f would never return
				t.Errorf("Run returned %v after it began", late)
			}
		})
	}
}

// A context done before Run runs no f.
func TestRunPreCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	_, err := Run(ctx, func() (int, error) { calls++; return 1, nil })
	if !errors.Is(err, context.Canceled) || calls != 0 {
		t.Fatalf("pre-cancelled: err %v, %d calls; want context.Canceled and none", err, calls)
	}
}

// A panic of f, on Run's goroutine, comes back as a *Panic error with its
// value and stack instead of ending the process.
func TestRunPanic(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	v, err := Run(ctx, func() (int, error) {
		s := []int{1}
		i := len(s) + 2
		return s[i], nil // a runtime panic
	})
	var p *Panic
	if !errors.As(err, &p) || v != 0 {
		t.Fatalf("panicking f: %d, %v; want 0 and a *Panic", v, err)
	}
	if !strings.Contains(err.Error(), "index out of range") || !strings.Contains(string(p.Stack), "TestRunPanic") {
		t.Errorf("panic error %q, stack %q; want the panic's value and the stack of f", err, p.Stack)
	}
	// panic(nil) and runtime.Goexit are not lost either
	_, err = Run(ctx, func() (int, error) { panic(nil) })
	if !errors.As(err, &p) {
		t.Errorf("panic(nil): %v; want a *Panic", err)
	}
	_, err = Run(ctx, func() (int, error) { runtime.Goexit(); return 1, nil })
	if !errors.As(err, &p) {
		t.Errorf("Goexit: %v; want a *Panic", err)
	}
}

// The abandoned f's result is dropped: it finishes later without blocking
// (its goroutine ends) and without changing what Run returned.
func TestRunDropsAbandonedResult(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() { <-started; cancel() }()
	v, err := Run(ctx, func() (*int, error) {
		close(started)
		<-release
		defer close(finished)
		n := 42
		return &n, nil
	})
	if v != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped Run: %v, %v; want nil, context.Canceled", v, err)
	}
	close(release)
	select {
	case <-finished: // the send to the buffered channel did not block
	case <-time.After(10 * time.Second):
		t.Fatal("the abandoned f did not finish")
	}
	if v != nil {
		t.Errorf("the abandoned result reached the caller: %v", *v)
	}
}

// A panic of an abandoned f is dropped with its result: it does not end
// the process.
func TestRunDropsAbandonedPanic(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	started, release, finished := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() { <-started; cancel() }()
	_, err := Run(ctx, func() (int, error) {
		close(started)
		<-release
		defer close(finished)
		panic("late")
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped Run: %v; want context.Canceled", err)
	}
	close(release)
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		t.Fatal("the abandoned f did not finish")
	}
	time.Sleep(10 * time.Millisecond) // the recover runs after the deferred close
}
