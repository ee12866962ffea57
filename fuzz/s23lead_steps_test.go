package fuzz

import (
	"context"
	"testing"
)

// TestGoalWorkersShareSteps: the step budget is shared among the workers
// in shares that sum to it, so a worker whose share is 0 fuzzes nothing:
// --steps 1 --workers 4 spends what one worker spends on a budget of 1
// (each worker took at least one step's expansion, four times as much).
// A worker stops at the first walk step after its share is spent, so
// its own spending may pass its share by one expansion.
func TestGoalWorkersShareSteps(t *testing.T) {
	spent := func(workers int) int {
		var tasks []*GoalTask
		for range workers {
			tasks = append(tasks, loadGoalTask(t, "../specs/twoway_line.spec", nil, "shuttle", ""))
		}
		pool, _, err := GoalTest(context.Background(), tasks, PoolOptions{MaxPool: 30, Seed: 7, MaxSteps: 1}, OracleOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return pool.Steps
	}
	if one, four := spent(1), spent(4); four > one {
		t.Errorf("a budget of 1 step: one worker spent %d steps, four spent %d", one, four)
	}
}
