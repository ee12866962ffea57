package fuzz

import (
	"context"
	"errors"
	"testing"
	"time"

	"vigil/symbolic"
)

// TestS24tDuplicateKeepsResult: two workers fuzzed the same state (x=1,
// where the policy detours); the interrupt stopped the first worker's
// check of it while the second had found its bug. The merge kept the
// first worker's entry and read only its result, so the state was
// reported unknown and the bug was lost. Every pool state now keeps the
// result some worker finished, and is unknown only when none did.
func TestS24tDuplicateKeepsResult(t *testing.T) {
	t0, t1 := goalLineTask(t), goalLineTask(t)
	opt, err := OracleOptions{}.withDefaults()
	if err != nil {
		t.Fatal(err)
	}
	pool0 := &Pool{Entries: []PoolEntry{{State: symbolic.State{1}, Parent: -1}, {State: symbolic.State{3}, Parent: -1}, {State: symbolic.State{7}, Parent: -1}}}
	pool1 := &Pool{Entries: []PoolEntry{{State: symbolic.State{1}, Parent: -1}, {State: symbolic.State{7}, Parent: -1}}}
	live := opt
	live.ctx = context.Background()
	stopped := opt
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stopped.ctx = ctx
	check := func(task *GoalTask, p *Pool, i int, o OracleOptions) goalStateResult {
		c, err := task.confirmOne(p, i, o, time.Now())
		if errors.Is(err, errOracleStopped) {
			return goalStateResult{elapsed: c.elapsed, stopped: true}
		}
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	results := []map[int]goalStateResult{
		// worker 0: x=1 stopped by the interrupt, x=3 checked, x=7 stopped
		{0: check(t0, pool0, 0, stopped), 1: check(t0, pool0, 1, live), 2: check(t0, pool0, 2, stopped)},
		// worker 1: x=1 checked (its bug), x=7 never reached
		{0: check(t1, pool1, 0, live)},
	}
	if !results[0][0].stopped || results[1][0].bug == nil {
		t.Fatalf("setup: worker 0's x=1 stopped %v, worker 1's x=1 bug %v", results[0][0].stopped, results[1][0].bug)
	}
	pool, res := mergeGoalResults([]*Pool{pool0, pool1}, results)
	if len(pool.Entries) != 3 || len(res.Values) != 3 {
		t.Fatalf("%d entries, %d values; want 3 of each", len(pool.Entries), len(res.Values))
	}
	if res.Values[0].Outcome == GoalUnknown || len(res.Bugs) != 1 || res.Bugs[0].PoolIndex != 0 {
		t.Errorf("x=1: value %v, bugs %d; want worker 1's result, its bug at pool index 0", res.Values[0], len(res.Bugs))
	}
	if res.Values[2].Outcome != GoalUnknown {
		t.Errorf("x=7, which no worker checked to the end: %v; want unknown", res.Values[2])
	}
	if res.Checked != 2 {
		t.Errorf("checked %d; want 2", res.Checked)
	}
}
