package smt

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestS32iAbandonCheck: a check that does not heed its interrupt (Z3
// 4.8.12 internalizing a large fresh formula: ic3's first check on the
// 14,400-command model went on ~20 s after a stop) is given up
// abandonAfter after its context ends. checkHook stands in for that
// phase: the check's goroutine sleeps before Z3 runs. CheckContext then
// answers Unknown ("canceled") before the check has ended, never the
// check's own answer (sat here); the context is given up: every later
// call fails with an error that wraps ErrStopped or does nothing; Close
// returns at once and the Z3 context is deleted when the check ends,
// whichever comes first.
func TestS32iAbandonCheck(t *testing.T) {
	for _, closeFirst := range []bool{true, false} {
		quiesce(t)
		c0, s0 := LiveContexts()
		release := make(chan struct{})
		entered := make(chan struct{})
		checkHook = func() { close(entered); <-release }
		x, err := NewContext()
		if err != nil {
			t.Fatal(err)
		}
		s, err := x.NewSolver()
		if err != nil {
			t.Fatal(err)
		}
		v := x.IntConst("v")
		if err := s.Assert(x.Gt(v, x.Int(3))); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-entered; cancel() }()
		n := abandoned.Load()
		r, err := s.CheckContext(ctx)
		checkHook = nil
		if err != nil || r != Unknown || s.ReasonUnknown() != "canceled" {
			t.Fatalf("a stopped check Z3 does not return from: %v, %v (%q), want unknown (canceled)", r, err, s.ReasonUnknown())
		}
		if abandoned.Load() != n+1 {
			t.Fatal("the check was not given up")
		}
		if err := x.Err(); !errors.Is(err, ErrStopped) || !errors.Is(err, context.Canceled) {
			t.Fatalf("the context's error after a check given up: %v", err)
		}
		if !x.IntConst("w").IsZero() || s.Assert(x.True()) == nil || s.Push() == nil {
			t.Fatal("a context given up still makes terms or takes assertions")
		}
		if _, err := s.CheckContext(context.Background()); err == nil {
			t.Fatal("a context given up still checks")
		}
		if _, err := x.NewSolver(); err == nil {
			t.Fatal("a context given up still makes solvers")
		}
		x.Release(0)
		s.Close()
		if closeFirst {
			x.Close()
			close(release)
		} else {
			close(release)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			if !closeFirst {
				// the check ends; then Close deletes the context
				time.Sleep(50 * time.Millisecond)
				x.Close()
			}
			if c, sv := LiveContexts(); c == c0 && sv == s0 {
				break
			}
			if time.Now().After(deadline) {
				c, sv := LiveContexts()
				t.Fatalf("closeFirst=%v: %d contexts and %d solvers live, want %d and %d", closeFirst, c, sv, c0, s0)
			}
			time.Sleep(10 * time.Millisecond)
		}
		x.Close() // idempotent
	}
}

// TestS32iNoAbandonWhenZ3Returns: a check that heeds its interrupt is
// not given up: the context stays usable, and a check without a stop
// answers as before.
func TestS32iNoAbandonWhenZ3Returns(t *testing.T) {
	x, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	s, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	v := x.IntConst("v")
	if err := s.Assert(x.Gt(v, x.Int(3))); err != nil {
		t.Fatal(err)
	}
	n := abandoned.Load()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if r, err := s.CheckContext(ctx); err != nil || r != Sat {
		t.Fatalf("check: %v %v", r, err)
	}
	ctx2, cancel2 := context.WithCancel(context.Background())
	release := make(chan struct{})
	checkHook = func() { cancel2(); time.Sleep(10 * time.Millisecond); close(release) }
	r, err := s.CheckContext(ctx2)
	checkHook = nil
	<-release
	if err != nil || r == Unsat {
		t.Fatalf("check under a stop: %v %v", r, err)
	}
	if abandoned.Load() != n {
		t.Fatal("a check that returned at once was given up")
	}
	if err := x.Err(); err != nil {
		t.Fatalf("the context after a stopped check: %v", err)
	}
	if r, err := s.CheckContext(context.Background(), x.Lt(v, x.Int(2))); err != nil || r != Unsat {
		t.Fatalf("the context after a stopped check answers %v %v, want unsat", r, err)
	}
}

// TestS32iCloseLargeAsync: Close hands the deletion of a context with
// closeAsync terms or more to a goroutine (a stopped run spent more than
// a second deleting a large one after its stop); the count of live
// contexts returns to where it was, and calls after Close stay harmless.
func TestS32iCloseLargeAsync(t *testing.T) {
	old := closeAsync
	closeAsync = 10
	defer func() { closeAsync = old }()
	c0, s0 := LiveContexts()
	x, err := NewContext()
	if err != nil {
		t.Fatal(err)
	}
	s, err := x.NewSolver()
	if err != nil {
		t.Fatal(err)
	}
	v := x.IntConst("v")
	for k := range 20 {
		if err := s.Assert(x.Ne(v, x.Add(v, x.Int(int64(k+1))))); err != nil {
			t.Fatal(err)
		}
	}
	if r, err := s.Check(); err != nil || r != Sat {
		t.Fatalf("check: %v %v", r, err)
	}
	x.Close()
	s.Close()
	x.Release(0)
	x.Close()
	if !x.IntConst("w").IsZero() || s.Assert(x.True()) == nil {
		t.Fatal("a closed context still makes terms or takes assertions")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		if c, sv := LiveContexts(); c == c0 && sv == s0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the large context was never deleted")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
