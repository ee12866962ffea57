package safety_test

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestConformanceArgMaxAll runs the safety deciders' suite with random
// networks read `argmax all` (PlaJA's policy without applicability
// filtering) as the tested policy: stuck wherever its arg-max over all
// outputs is not applicable, so that the deciders' rule "where the
// tested policy is stuck, every label is a deviation" is exercised in many
// states. Every answer is compared with the reference fixpoint and its
// certificate is checked by the independent checker, which loads the
// network from the file the declaration names.
func TestConformanceArgMaxAll(t *testing.T) {
	policy := testutil.ArgMaxAllFiles(t.TempDir(), func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (any, *symbolic.PolicyDecl, error) {
		p, d, err := nn.Random(m, outs, seed, []int{6})
		if err != nil {
			return nil, nil, err
		}
		return p.Net, d, nil
	})
	n := models(t) / 5
	for _, algo := range safety.Algorithms {
		if algo == "tarjan-path" {
			continue // exponential by design (TestConformance runs it on smaller models)
		}
		t.Run(algo, func(t *testing.T) {
			conformance.Run(t, decider(t, algo, safety.Options{Seed: 7}), conformance.Options{Models: n, FirstSeed: 51000,
				Check: checkCert, Gen: gen.Options{MaxLabels: 4}, Policy: policy})
		})
	}
}
