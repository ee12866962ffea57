package safety_test

import (
	"testing"

	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic/gen"
)

// TestReview21rWideRadii runs the suite at radii where the pair tables
// leave their dense form (2 up) and where their budget windows are
// narrower than the radius (64 up), on models of up to a few hundred
// states, so that states are reached with many budgets, in both orders,
// and windows regrow towards 0 and towards the radius.
func TestReview21rWideRadii(t *testing.T) {
	for _, algo := range safety.Algorithms {
		if algo == "tarjan-path" {
			continue
		}
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			opt := conformance.Options{
				Models: models(t) / 8, FirstSeed: 210000, Check: checkCert, CertEvery: 5,
				Radii: []safety.Radius{3, 63, 64, 65, 70, 130},
				Gen:   gen.Options{MaxVars: 3, MaxRange: 8, MaxLabels: 4, MaxCommands: 6, MaxOutcomes: 3, MaxDepth: 1},
			}
			conformance.Run(t, decider(t, algo, safety.Options{Order: safety.OrderLearn, Seed: 3}), opt)
		})
	}
}
