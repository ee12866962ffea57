package cert

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// TestCheckFactObliqueInputs compares CheckFact with enumeration of the
// region on ensembles whose inputs read two or three variables (each
// split is then a linear atom, oblique.go), over boxes with and without
// linear atoms of their own.
func TestCheckFactObliqueInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 27))
	var n, holds, open int
	for seed := uint64(0); seed < 80; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 40})
		if len(m.Vars) < 2 {
			continue
		}
		p, d, err := trees.Random(m, randomOutputs(rng, m), seed, 1+int(seed%4), 1+int(seed%3))
		if err != nil {
			t.Fatal(err)
		}
		for i := range d.Inputs {
			// Another variable with a coefficient of either sign and a
			// denominator that makes the input's values inexact in
			// float64 (1/3, -2/7, ...), and sometimes a constant.
			in := &d.Inputs[i]
			v := symbolic.VarID(rng.IntN(len(m.Vars)))
			if len(in.Terms) > 0 && v == in.Terms[0].Var {
				v = (v + 1) % symbolic.VarID(len(m.Vars))
			}
			num := int64(rng.IntN(5) - 2)
			if num == 0 {
				num = 1
			}
			in.Terms = append(in.Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: num, Den: int64(1 + rng.IntN(7))}, Var: v})
			if rng.IntN(2) == 0 {
				in.Const = symbolic.Rat{Num: int64(rng.IntN(9) - 4), Den: 3}
			}
		}
		for k := 0; k < 5; k++ {
			lo, hi := randomBox(rng, m)
			f := Fact{Lo: lo, Hi: hi, Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: randomSure(rng, m)}
			if k%2 == 1 {
				f.Atoms = randomAtoms(rng, m, lo, hi)
			}
			h, dec := checkRegion(t, "oblique", m, p, f)
			if !dec {
				open++
				continue
			}
			n++
			if h {
				holds++
			}
		}
	}
	t.Logf("%d facts decided (%d hold), %d left open", n, holds, open)
	if holds == 0 || holds == n || open > 0 {
		t.Errorf("want both answers and every fact decided")
	}
}

// TestCheckFactBrakingTrees: braking_trees' ensemble adds 1 to up where
// (d - v - 2) / N >= 0, so up is never chosen on the band 0 <= d - v <=
// 1 given stop (go's 0.5 beats it anyway where go is applicable), which
// is false over the band's bounding box; widened to d - v <= 2 the
// fact fails at a state with d - v = 2. At N = 10^9 the box has 10^18
// states: only the splits as atoms decide it.
func TestCheckFactBrakingTrees(t *testing.T) {
	for _, n := range []string{"1000", "1000000000"} {
		m, p := learnedFamily(t, "braking_trees.spec", n)
		d, v := m.VarIndex("d"), m.VarIndex("v")
		up, stop := m.LabelIndex("up"), m.LabelIndex("stop")
		N := m.Vars[v].Hi
		lo, hi := []int{0, 0}, []int{N, N}
		gap := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: d}, {Coef: -1, Var: v}})
		f := Fact{Lo: lo, Hi: hi, Atoms: []symbolic.Atom{{Form: gap, K: 0}, {Form: gap, Upper: true, K: 1}}, Label: up, Sure: []symbolic.LabelID{stop}}
		if err := CheckFact(context.Background(), m, p, f); err != nil {
			t.Errorf("N=%s: the band's fact is refused: %v", n, err)
		}
		var ff *FactFailure
		box := f
		box.Atoms = nil
		if err := CheckFact(context.Background(), m, p, box); !errors.As(err, &ff) || !ff.Confirmed {
			t.Errorf("N=%s: the fact over the bounding box: got %v, want a confirmed counterexample", n, err)
		}
		wide := f
		wide.Atoms = []symbolic.Atom{{Form: gap, K: 0}, {Form: gap, Upper: true, K: 2}}
		err := CheckFact(context.Background(), m, p, wide)
		if !errors.As(err, &ff) || ff.State[d]-ff.State[v] != 2 || !ff.Confirmed {
			t.Errorf("N=%s: the widened fact: got %v, want a confirmed counterexample with d - v = 2", n, err)
		}
	}
}
