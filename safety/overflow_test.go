package safety_test

import (
	"testing"

	"vigil/safety/conformance"
	"vigil/symbolic/gen"
)

// TestConformanceLarge runs the safety deciders' suite on models whose
// expressions leave int64 (gen.Options.Large). The graph comes from the
// compiled explicit engine; every certificate is checked by the JSON
// checker, which evaluates the model with symbolic's exact Eval/Holds: the
// two evaluators must agree on every successor.
func TestConformanceLarge(t *testing.T) {
	runLarge(t, 5, conformance.Options{Models: models(t) / 5, FirstSeed: 70000, Check: checkCert, Gen: gen.Options{Large: true}})
}
