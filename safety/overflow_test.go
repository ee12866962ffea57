package safety_test

import (
	"testing"

	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic/gen"
)

// TestConformanceLarge runs the safety deciders' suite on models whose
// expressions leave int64 (gen.Options.Large). The graph comes from the
// compiled explicit engine; every certificate is checked by the JSON
// checker, which evaluates the model with symbolic's exact Eval/Holds: the
// two evaluators must agree on every successor.
func TestConformanceLarge(t *testing.T) {
	n := models(t) / 5
	for _, algo := range safety.Algorithms {
		if algo == "tarjan-path" {
			continue // exponential: kept to the small models
		}
		t.Run(algo, func(t *testing.T) {
			t.Parallel()
			conformance.Run(t, func(sp *safety.Space, r safety.Radius) safety.Decider {
				d, err := safety.New(algo, sp, r, safety.Options{Order: safety.OrderLearn, Seed: 5})
				if err != nil {
					t.Fatal(err)
				}
				return d
			}, conformance.Options{Models: n, FirstSeed: 70000, Check: checkCert, Gen: gen.Options{Large: true}})
		})
	}
}
