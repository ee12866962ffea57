package safety_test

import (
	"testing"

	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic/gen"
)

// TestReview20tRadiusAboveStates asks every decider for radii at and above
// the number of the model's states (at most 9 here), where the deciders
// search with that number instead (cert.BudgetCap): the answers must match
// the reference computed with the full radius, and the unsafe
// certificates, whose budgets stop at the number of states, must check.
func TestReview20tRadiusAboveStates(t *testing.T) {
	for _, algo := range safety.Algorithms {
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			opt := conformance.Options{
				Models: models(t) / 4, FirstSeed: 200000, Check: checkCert,
				Radii: []safety.Radius{2, 3, 8, 9, 10, 17},
				Gen:   gen.Options{MaxVars: 2, MaxRange: 3, MaxLabels: 4, MaxCommands: 6, MaxOutcomes: 3, MaxDepth: 1},
			}
			conformance.Run(t, decider(t, algo, safety.Options{Order: safety.OrderLearn, Seed: 3}), opt)
		})
	}
}
