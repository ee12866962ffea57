package trees_test

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

func TestRandomIsDeterministic(t *testing.T) {
	m := gen.Model(5, gen.Options{})
	p1, d1, err := trees.Random(m, testutil.LabelsReversed(m), 9, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	p2, d2, err := trees.Random(m, testutil.LabelsReversed(m), 9, 6, 3)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p1.Ens, p2.Ens) || !reflect.DeepEqual(d1, d2) {
		t.Error("the same seed gave two policies")
	}
	if p3, _, _ := trees.Random(m, testutil.LabelsReversed(m), 10, 6, 3); reflect.DeepEqual(p1.Ens, p3.Ens) {
		t.Error("seeds 9 and 10 gave the same ensemble")
	}
	if d1.Kind != symbolic.KindTrees || d1.Name == "" || len(d1.Inputs) != len(m.Vars) || !reflect.DeepEqual(d1.Outputs, testutil.LabelsReversed(m)) {
		t.Errorf("declaration %+v does not describe the policy", d1)
	}
	if len(p1.Ens.Trees) != 6 || p1.Ens.NumClasses != len(m.Labels) {
		t.Errorf("%d trees and %d classes, want 6 and %d", len(p1.Ens.Trees), p1.Ens.NumClasses, len(m.Labels))
	}
}

// TestRandomPolicies checks, on generated models, that random ensembles
// are decided exactly over states (every input reads one variable
// monotonically), that their decisions vary across the states, that the
// explicit engine's decider agrees with symbolic.Decide, that no integer
// state lies on a threshold, and that Excludes agrees with enumeration.
func TestRandomPolicies(t *testing.T) {
	models, varying, queries := 0, 0, 0
	rng := rand.New(rand.NewPCG(1, 2))
	for seed := uint64(0); seed < 60; seed++ {
		m := gen.Model(seed, gen.Options{})
		p, _, err := trees.Random(m, testutil.LabelsReversed(m), seed, len(m.Labels)+int(seed%5), 1+int(seed%4))
		if err != nil {
			t.Fatal(err)
		}
		if ok, why := p.Exact(); !ok {
			t.Fatalf("seed %d: not exact: %s", seed, why)
		}
		lo, hi := testutil.ModelBox(m)
		x := make([]float64, len(m.Vars))
		seen := testutil.DecidersAgree(t, seed, m, p, func(s symbolic.State, _ symbolic.LabelID) {
			for i := range x {
				x[i] = p.Decl.Inputs[i].Eval(s)
			}
			for _, tr := range p.Ens.Trees {
				for _, n := range tr.Nodes {
					if n.Feature >= 0 && x[n.Feature] == n.Threshold {
						t.Fatalf("seed %d: state %v lies on threshold %v of input %d", seed, s, n.Threshold, n.Feature)
					}
				}
			}
		})
		if len(m.Labels) >= 2 {
			models++
			if len(seen) >= 2 {
				varying++
			}
		}
		// Excludes against enumeration on a few random boxes.
		nout := len(p.Outputs())
		for k := 0; k < 5; k++ {
			blo, bhi := make([]int, len(lo)), make([]int, len(lo))
			for v := range lo {
				a, b := lo[v]+rng.IntN(hi[v]-lo[v]+1), lo[v]+rng.IntN(hi[v]-lo[v]+1)
				blo[v], bhi[v] = min(a, b), max(a, b)
			}
			a := rng.IntN(nout)
			var sure []int
			for o := 0; o < nout; o++ {
				if rng.IntN(2) == 0 {
					sure = append(sure, o)
				}
			}
			excluded := true
			sc := make([]float64, nout)
			testutil.BoxStates(blo, bhi, func(s symbolic.State) {
				if err := p.Scores(s, sc); err != nil {
					t.Fatal(err)
				}
				excluded = excluded && !wins(sc, a, sure)
			})
			res, err := p.Excludes(blo, bhi, a, sure, trees.Options{})
			if err != nil {
				t.Fatal(err)
			}
			queries++
			if (res.Verdict == trees.Proved) != excluded || res.Verdict == trees.Unknown {
				t.Errorf("seed %d box %v..%v a=%d sure=%v: Excludes %v, enumeration excluded=%v", seed, blo, bhi, a, sure, res.Verdict, excluded)
			}
		}
	}
	if varying*10 < models*8 {
		t.Errorf("decisions vary on %d of %d models; want at least 80%%", varying, models)
	}
	t.Logf("decisions vary on %d of %d models; %d Excludes queries agree with enumeration", varying, models, queries)
}

func TestRandomErrors(t *testing.T) {
	m := gen.Model(1, gen.Options{})
	for _, c := range []struct {
		name         string
		m            *symbolic.Model
		outputs      []symbolic.LabelID
		ntrees, dpth int
	}{
		{"no outputs", m, nil, 2, 2},
		{"no trees", m, testutil.LabelsReversed(m), 0, 2},
		{"negative depth", m, testutil.LabelsReversed(m), 2, -1},
		{"unknown label", m, []symbolic.LabelID{symbolic.LabelID(len(m.Labels))}, 2, 2},
		{"no variables", &symbolic.Model{Name: "empty", Labels: m.Labels}, testutil.LabelsReversed(m), 2, 2},
	} {
		if _, _, err := trees.Random(c.m, c.outputs, 1, c.ntrees, c.dpth); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
}
