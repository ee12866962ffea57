package fuzz

// Soundness of goal-reaching testing, as the conformance suite of the
// explicit engine asks it (symbolic/explicit/conformance.GoalBugs): on
// 1,000 generated models every bug that each oracle reports (all oracles
// run on every pool state) is re-decided by an independent reference, and
// its evidence replays. No false bug. With the optimal oracle among them,
// no bug in the pool may be missed either.

import (
	"context"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// goalTester runs the fuzzer and every oracle on every pool state, and
// reports each oracle's bugs.
func goalTester(fair bool) conformance.GoalTester {
	return func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, seed uint64) (conformance.GoalAnswer, error) {
		var ans conformance.GoalAnswer
		d, err := explicit.NewDecider(m, pd)
		if err != nil {
			return ans, err
		}
		task, err := NewGoalTask(m, prop, d, pd.Name)
		if err != nil {
			return ans, err
		}
		task.Fair = fair
		biases := []string{[]string{"polqual", "loop", "detour", "surface", "novelty"}[seed%5]}
		pool, err := task.Fuzz(ctx, PoolOptions{MaxPool: 12, Seed: seed, Biases: biases, MaxSteps: 20_000})
		if err != nil {
			return ans, err
		}
		res, err := task.Confirm(ctx, pool, OracleOptions{All: true, Depth: 2, Bound: 1000, MaxStates: 10_000, OptimalStates: 5_000, Expansions: 500})
		if err != nil {
			return ans, err
		}
		for _, e := range pool.Entries {
			ans.Tested = append(ans.Tested, e.State)
		}
		for _, b := range res.Every {
			cb := conformance.GoalBug{State: b.State, Cost: b.Cost, Plan: b.Plan, PolicyRun: b.Policy.Run, Qualitative: b.Qualitative}
			switch b.Policy.Outcome {
			case GoalReached:
				cb.PolicyEnd = "goal"
			case GoalBeyond:
				cb.PolicyEnd = "beyond"
			default:
				cb.PolicyEnd = b.Policy.Why
			}
			for _, o := range b.Patch {
				cb.Patch = append(cb.Patch, conformance.GoalOverride{State: o.State, Label: o.Label})
			}
			ans.Bugs = append(ans.Bugs, cb)
		}
		return ans, nil
	}
}

// Half the models have one outcome per command: adversarial outcomes make
// most states unsolvable, so bugs are rarer there.
func goalGen(seed uint64) gen.Options {
	return gen.Options{MaxOutcomes: 1 + int(seed%2)*2, MaxRange: 8}
}

func TestGoalConformance(t *testing.T) {
	t.Run("adversarial", func(t *testing.T) {
		conformance.GoalBugs(t, goalTester(false), conformance.GoalOptions{Models: 1000, Gen: goalGen, MinBugs: 200, Complete: true})
	})
	t.Run("fair", func(t *testing.T) {
		conformance.GoalBugs(t, goalTester(true), conformance.GoalOptions{Models: 500, Gen: func(uint64) gen.Options { return gen.Options{MaxRange: 8} }, MinBugs: 200, Complete: true, Fair: true})
	})
}
