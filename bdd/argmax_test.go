package bdd_test

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestPropUArgMaxAll: symbolic Prop-U agrees with explicit Prop-U,
// TarjanSafe and the reference (checkPropU) when the tested policy is a
// random network read `argmax all`, stuck wherever its arg-max over all
// outputs is not applicable (every label taken there is a deviation).
func TestPropUArgMaxAll(t *testing.T) {
	policy := testutil.ArgMaxAllFiles(t.TempDir(), func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (any, *symbolic.PolicyDecl, error) {
		p, d, err := nn.Random(m, outs, seed, []int{6})
		if err != nil {
			return nil, nil, err
		}
		return p.Net, d, nil
	})
	conformPropU(t, 52000, models(t)/5, gen.Options{MaxLabels: 4}, policy)
}
