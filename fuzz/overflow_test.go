package fuzz

import (
	"testing"

	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
)

// TestGoalConformanceLarge runs the goal-testing suite on models whose
// expressions leave int64 (gen.Options.Large), where the relaxation's
// interval arithmetic (goal_relax.go) must stay sound: a distance it
// calls infinite must be one, or bugs are missed.
func TestGoalConformanceLarge(t *testing.T) {
	conformance.GoalBugs(t, goalTester(false), conformance.GoalOptions{Models: 300, FirstSeed: 70000,
		Gen: func(seed uint64) gen.Options {
			return gen.Options{MaxOutcomes: 1 + int(seed%2)*2, MaxRange: 8, Large: true}
		}, MinBugs: 40, Complete: true})
}
