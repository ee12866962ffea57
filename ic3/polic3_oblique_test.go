package ic3_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// TestPolIC3ObliqueEnsembles is the PolIC3 conformance suite on
// ensembles whose inputs read two variables (x_v + c x_w): PolIC3 learns
// relational cells for them (relationalPays), trees certifies over the
// cells through its input-space fallback, and every safe answer's
// certificate, whose ensemble facts have splits that are linear atoms,
// goes through ic3/cert; each invariant is checked again by enumeration.
func TestPolIC3ObliqueEnsembles(t *testing.T) {
	dir := t.TempDir()
	learnedSuite(t, 600, 3000, true, gen.Options{MaxVars: 3, MaxRange: 60, MaxLabels: 4}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		p0, d0, err := trees.Random(m, outs, seed, 4, 3)
		if err != nil || len(m.Vars) < 2 {
			return p0, d0, err
		}
		file := filepath.Join(dir, fmt.Sprintf("oblique_%d.json", seed))
		if err := writeVeritas(file, p0.Params().Ensemble); err != nil {
			return nil, nil, err
		}
		d := *d0
		d.File = file
		d.Inputs = nil
		coefs := []symbolic.Rat{{Num: 1, Den: 3}, {Num: -1, Den: 2}, {Num: 1, Den: 1}, {Num: -2, Den: 1}}
		for v, in := range d0.Inputs {
			w := symbolic.VarID((v + 1) % len(m.Vars))
			in.Terms = append(append([]symbolic.AffineTerm(nil), in.Terms...), symbolic.AffineTerm{Coef: coefs[(int(seed)+v)%len(coefs)], Var: w})
			d.Inputs = append(d.Inputs, in)
		}
		p, err := trees.NewPolicy(m, &d)
		return p, &d, err
	})
}

// writeVeritas writes e as Veritas JSON (float64 thresholds and sums).
func writeVeritas(file string, e *symbolic.Ensemble) error {
	type node map[string]any
	var trees []map[string]any
	for _, t := range e.Trees {
		var walk func(i int) node
		walk = func(i int) node {
			n := t.Nodes[i]
			if n.Feature < 0 {
				vals := make([]float64, e.NumClasses)
				if t.Class >= 0 {
					vals[t.Class] = t.Values[n.Leaf]
				} else {
					copy(vals, t.Values[n.Leaf*e.NumClasses:(n.Leaf+1)*e.NumClasses])
				}
				return node{"leaf_value": vals}
			}
			return node{"feat_id": n.Feature, "split_value": n.Threshold, "left": walk(n.Left), "right": walk(n.Right)}
		}
		trees = append(trees, map[string]any{"num_leaf_values": e.NumClasses, "split_type": "LtSplit", "structure": walk(0)})
	}
	data, err := json.Marshal(map[string]any{"at_type": "RAW", "base_scores": e.Base, "trees": trees})
	if err != nil {
		return err
	}
	return os.WriteFile(file, data, 0o644)
}
