package trees_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// paramScores evaluates an ensemble from its raw parameters alone, as a
// checker that does not import trees would (symbolic.Ensemble's meaning).
func paramScores(e *symbolic.Ensemble, x []float64) []float64 {
	y := append([]float64(nil), e.Base...)
	add := func(s, v float64) float64 {
		if e.Float32 {
			return float64(float32(s) + float32(v))
		}
		return s + v
	}
	for _, t := range e.Trees {
		i := 0
		for t.Nodes[i].Feature >= 0 {
			if n := t.Nodes[i]; x[n.Feature] < n.Threshold {
				i = n.Left
			} else {
				i = n.Right
			}
		}
		l := t.Nodes[i].Leaf
		if t.Class >= 0 {
			y[t.Class] = add(y[t.Class], t.Values[l])
			continue
		}
		for c := range y {
			y[c] = add(y[c], t.Values[l*e.NumClasses+c])
		}
	}
	return y
}

// Params describes the ensemble completely: evaluation from the raw
// parameters gives the policy's scores bit for bit.
func TestParamsReproduceScores(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		m := gen.Model(seed, gen.Options{})
		p, d, err := trees.Random(m, testutil.LabelsReversed(m), seed, 1+int(seed%7), 1+int(seed%4))
		if err != nil {
			t.Fatal(err)
		}
		par := p.Params()
		if par.Decl != d || par.Ensemble == nil || par.Network != nil {
			t.Fatalf("seed %d: Params = %+v", seed, par)
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		lo, hi := testutil.ModelBox(m)
		sc := make([]float64, len(p.Outputs()))
		x := make([]float64, len(d.Inputs))
		for range 200 {
			s := make(symbolic.State, len(lo))
			for v := range s {
				s[v] = lo[v] + rng.IntN(hi[v]-lo[v]+1)
			}
			if err := p.Scores(s, sc); err != nil {
				t.Fatal(err)
			}
			for i := range d.Inputs {
				x[i] = d.Inputs[i].Eval(s)
			}
			got := paramScores(par.Ensemble, x)
			for c := range sc {
				if math.Float64bits(got[c]) != math.Float64bits(sc[c]) {
					t.Fatalf("seed %d state %v class %d: parameters give %v, the policy %v", seed, s, c, got[c], sc[c])
				}
			}
		}
	}
}
