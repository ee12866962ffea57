package fuzz

import (
	"context"
	"math"
	"testing"
	"time"

	"vigil/lang"
)

// TestS28sShare: the workers' shares of a count sum to it and differ by
// at most one, up to 2^63-1 ((n+k-1-w)/k overflowed there).
func TestS28sShare(t *testing.T) {
	for _, n := range []int{0, 1, 7, 100, math.MaxInt - 1, math.MaxInt} {
		for _, k := range []int{1, 2, 3, 8, 256} {
			sum, lo, hi := 0, math.MaxInt, 0
			for w := range k {
				s := share(n, k, w)
				if s < 0 || sum > math.MaxInt-s {
					t.Fatalf("share(%d, %d, %d) = %d", n, k, w, s)
				}
				sum += s
				lo, hi = min(lo, s), max(hi, s)
			}
			if sum != n || hi-lo > 1 || share(n, k, 0) != hi {
				t.Errorf("n=%d k=%d: shares sum to %d, from %d to %d, first %d", n, k, sum, lo, hi, share(n, k, 0))
			}
		}
	}
}

// TestS28sPoolHuge: --pool 2^63-1 stopped fuzzing before the first walk
// ("no new states": 50 times the pool size overflowed to a negative
// number of idle walks), and the test ended complete, with no bugs; with
// two workers each share was negative ("pool size -4611686018427387904:
// must be positive"). Fuzzing now walks until its step budget.
func TestS28sPoolHuge(t *testing.T) {
	task := goalLineTask(t)
	p, err := task.Fuzz(context.Background(), PoolOptions{MaxPool: math.MaxInt, MaxSteps: 2000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Walks == 0 || p.Stop != "step budget" {
		t.Errorf("pool of %d states after %d walks, stopped by %q; want walks until the step budget", len(p.Entries), p.Walks, p.Stop)
	}
	tasks := []*GoalTask{goalLineTask(t), goalLineTask(t)}
	pool, _, err := GoalTest(context.Background(), tasks, PoolOptions{MaxPool: math.MaxInt, MaxSteps: math.MaxInt, Seed: 1, Runtime: 200 * time.Millisecond}, OracleOptions{})
	if err != nil {
		t.Fatalf("two workers, pool and steps 2^63-1: %v", err)
	}
	if pool.Walks == 0 {
		t.Errorf("two workers: no walks")
	}
}

// TestS28sRunsHugeWorkers: --runs 2^63-1 with two workers, stopped by
// its runtime, merged the runs up to opt.Runs, not up to the runs made
// ((Runs+k-1)/k overflowed to a negative number), and so looped for ever
// after the workers had stopped, deaf to signals.
func TestS28sRunsHugeWorkers(t *testing.T) {
	m, diags := lang.Load("../specs/oneway_line.spec", lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	tasks := []*SafetyTask{safetyTaskOf(t, m, "careful"), safetyTaskOf(t, m, "careful")}
	done := make(chan struct{})
	var res *SafetyResult
	var err error
	go func() {
		defer close(done)
		res, err = SafetyTest(context.Background(), tasks, SafetyOptions{Runs: math.MaxInt, Seed: 1, Runtime: 100 * time.Millisecond})
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("SafetyTest with 2^63-1 runs and two workers did not return a minute after its runtime of 100ms")
	}
	if err != nil {
		t.Fatal(err)
	}
	if res.Complete || res.Runs == 0 {
		t.Errorf("%d runs, complete %v; want some runs, not complete", res.Runs, res.Complete)
	}
}
