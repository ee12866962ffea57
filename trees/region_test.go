package trees

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// The conformance of ExcludeWithin against enumerating every state of
// box ∧ atoms, on random ensembles: exact ones (inputs of one variable,
// searched over the state variables), ones whose leaf values are small
// integers (so that classes tie and ties go to the earliest output), and
// ones with an input of two variables (the input-space fallback).

// tieLeaves rounds every leaf value and base score of p's ensemble to an
// integer in -1..1, so that class scores tie often.
func tieLeaves(p *Policy) {
	for ti := range p.Ens.Trees {
		vs := p.Ens.Trees[ti].Values
		for i, v := range vs {
			vs[i] = max(-1, min(1, math.Round(v)))
		}
	}
	for c := range p.Ens.Base {
		p.Ens.Base[c] = 0
	}
	p.varEns, p.whyInput = p.lift()
}

// mixInputs makes input 0 read x0 - x1, so that the ensemble cannot be
// lifted to the state variables and the input-space fallback answers.
func mixInputs(p *Policy, nv int) {
	in := &p.Decl.Inputs[0]
	in.Terms = append(in.Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: -1, Den: 1}, Var: 1})
	p.signs = nil
	for i := range p.Decl.Inputs {
		p.signs = append(p.signs, p.Decl.Inputs[i].Signs(nv))
	}
	p.varEns, p.whyInput = p.lift()
}

func TestExcludeWithinConformance(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 11))
	stats := map[string]int{}
	cases := 0
	for k := 0; k < 60; k++ {
		nv := 2 + k%2
		m := testutil.RegionModel(nv, 3, -6, 6)
		if k%4 >= 2 {
			m = testutil.RegionModel(nv, 3, -20, 20)
		}
		outs := []symbolic.LabelID{0, 1, 2}
		p, d, err := Random(m, outs, uint64(k), 3+k%5, 3)
		if err != nil {
			t.Fatal(err)
		}
		p.Decl = d
		kind := "exact"
		switch k % 3 {
		case 1:
			tieLeaves(p)
			kind = "ties"
		case 2:
			mixInputs(p, nv)
			kind = "fallback"
		}
		if (kind == "fallback") == (p.varEns != nil) {
			t.Fatalf("ensemble %d (%s): lifted %v", k, kind, p.varEns != nil)
		}
		for q := 0; q < 10; q++ {
			lo, hi := make([]int, nv), make([]int, nv)
			for v, va := range m.Vars {
				a, b := va.Lo+r.IntN(va.Hi-va.Lo+1), va.Lo+r.IntN(va.Hi-va.Lo+1)
				lo[v], hi[v] = min(a, b), max(a, b)
			}
			a := outs[r.IntN(3)]
			var sure []symbolic.LabelID
			for _, l := range outs {
				if l != a && r.IntN(3) > 0 {
					sure = append(sure, l)
				}
			}
			c := testutil.RegionCase{Lo: lo, Hi: hi, Atoms: testutil.RandomAtoms(r, nv, 1+r.IntN(3), lo, hi), A: a, Sure: sure}
			ex, msg := testutil.AskRegion(t, p, c)
			cases++
			stats[kind+"/"+ex.String()]++
			if msg != "" {
				t.Errorf("ensemble %d (%s), box %v..%v, atoms %v, label %d, sure %v: %s", k, kind, lo, hi, c.Atoms, a, sure, msg)
			}
		}
	}
	t.Logf("%d cases: %v", cases, stats)
	for _, kind := range []string{"exact", "ties", "fallback"} {
		if stats[kind+"/undecided"] > 0 {
			t.Errorf("%s: %d undecided", kind, stats[kind+"/undecided"])
		}
	}
}

// TestExcludeWithinNoAtoms checks that ExcludeWithin without atoms
// answers as Exclude.
func TestExcludeWithinNoAtoms(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 12))
	m := testutil.RegionModel(2, 3, -8, 8)
	outs := []symbolic.LabelID{0, 1, 2}
	for k := 0; k < 10; k++ {
		p, _, err := Random(m, outs, uint64(200+k), 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 10; q++ {
			lo, hi := []int{-8 + r.IntN(8), -8 + r.IntN(8)}, []int{r.IntN(9), r.IntN(9)}
			a := outs[r.IntN(3)]
			sure := []symbolic.LabelID{(a + 1) % 3}
			e1, s1, _ := p.Exclude(lo, hi, a, sure)
			e2, s2, _ := p.ExcludeWithin(lo, hi, nil, a, sure)
			if e1 != e2 || fmt.Sprint(s1) != fmt.Sprint(s2) {
				t.Errorf("box %v..%v: Exclude %v %v, ExcludeWithin %v %v", lo, hi, e1, s1, e2, s2)
			}
		}
	}
}

func TestExcludeWithinBadAtoms(t *testing.T) {
	m := testutil.RegionModel(2, 3, 0, 4)
	p, _, err := Random(m, []symbolic.LabelID{0, 1, 2}, 1, 3, 2)
	if err != nil {
		t.Fatal(err)
	}
	for name, atoms := range map[string][]symbolic.Atom{
		"nil form":    {{Form: nil, K: 1}},
		"variable 2":  {{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 2}}), K: 1}},
		"variable -1": {{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: -1}}), K: 1}},
		"second atom": {{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}}), K: 1}, {}},
	} {
		for _, a := range []symbolic.LabelID{0, 9} {
			if _, _, err := p.ExcludeWithin([]int{0, 0}, []int{4, 4}, atoms, a, []symbolic.LabelID{1}); err == nil {
				t.Errorf("%s, label %d: no error", name, a)
			}
		}
	}
	if _, _, err := p.ExcludeWithin([]int{0}, []int{4}, []symbolic.Atom{{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}})}}, 0, nil); err == nil {
		t.Errorf("a box of one variable for two: no error")
	}
}
