package safety_test

import (
	"testing"

	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic/gen"
)

// TestReview16cSelfLoops runs the conformance suite (answers against the
// reference fixpoint, every certificate checked) on tiny models with many
// labels, commands and outcomes, where most groups are self-loops, some
// with a second outcome, and policies are often stuck: the cases
// TarjanSafe's one-step look-ahead settles at once, and VI's capped
// (state, budget) region, at radii 0, 1, 2, 3 and inf.
func TestReview16cSelfLoops(t *testing.T) {
	for _, algo := range safety.Algorithms {
		if algo == "tarjan-path" {
			continue
		}
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, decider(t, algo, safety.Options{Order: safety.OrderLearn, Seed: 5}), conformance.Options{
				Models: models(t) / 2, FirstSeed: 160000, Check: checkCert,
				Radii: []safety.Radius{0, 1, 2, 3, safety.Inf},
				Gen:   gen.Options{MaxVars: 2, MaxRange: 3, MaxLabels: 5, MaxCommands: 8, MaxOutcomes: 3, MaxDepth: 1},
			})
		})
	}
}
