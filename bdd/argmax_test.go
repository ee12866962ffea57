package bdd_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/safety/conformance"
	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestPropUArgMaxAll: symbolic Prop-U agrees with explicit Prop-U,
// TarjanSafe and the reference (checkPropU) when the tested policy is a
// random network read `argmax all`, stuck wherever its arg-max over all
// outputs is not applicable (every label taken there is a deviation).
func TestPropUArgMaxAll(t *testing.T) {
	dir := t.TempDir()
	policy := func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
		p, d, err := nn.Random(m, testutil.LabelsReversed(m), seed, []int{6})
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(p.Net)
		if err != nil {
			return nil, err
		}
		d.File = filepath.Join(dir, fmt.Sprintf("net%d.json", seed))
		d.ArgMaxAll = true
		return d, os.WriteFile(d.File, b, 0o644)
	}
	n := models(t) / 5
	done, asked := 0, 0
	for seed := uint64(52000); done < n && seed < 52000+4*uint64(n); seed++ {
		tc, err := conformance.GenerateWith(seed, gen.Options{MaxLabels: 4}, policy)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if tc == nil {
			continue
		}
		done++
		k, err := checkPropU(tc, bdd.Order(seed%3))
		asked += k
		if err != nil {
			t.Errorf("seed %d (%s): %v", seed, tc.M.Name, err)
		}
	}
	t.Logf("%d models, %d answers compared (with explicit Prop-U, TarjanSafe and the reference)", done, asked)
	if done < n || asked < 2*done {
		t.Errorf("%d of %d models, %d answers compared: the suite tests too little", done, n, asked)
	}
}
