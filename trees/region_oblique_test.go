package trees

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/symbolic"
)

// TestExcludeWithinInputBounds: the input-space fallback with atoms on
// the form of an input over several variables (x0 - x1 and its
// multiples, either sign), which narrow that input's box (inputBounds),
// agrees with enumeration of the region.
func TestExcludeWithinInputBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 13))
	stats := map[string]int{}
	for k := 0; k < 60; k++ {
		nv := 2 + k%2
		m := testutil.RegionModel(nv, 3, -20, 20)
		outs := []symbolic.LabelID{0, 1, 2}
		p, d, err := Random(m, outs, uint64(k), 3+k%5, 3)
		if err != nil {
			t.Fatal(err)
		}
		p.Decl = d
		mixInputs(p, nv)
		if k%2 == 1 {
			tieLeaves(p)
		}
		n0, _, _ := scaledForm(&p.Decl.Inputs[0])
		if len(n0) < 2 {
			continue // input 0 read x1 already: x1 - x1
		}
		var base []symbolic.Term
		for v, c := range n0 {
			base = append(base, symbolic.Term{Coef: int(c.Int64()), Var: v})
		}
		for q := 0; q < 10; q++ {
			lo, hi := make([]int, nv), make([]int, nv)
			for v, va := range m.Vars {
				a, b := va.Lo+r.IntN(va.Hi-va.Lo+1), va.Lo+r.IntN(va.Hi-va.Lo+1)
				lo[v], hi[v] = min(a, b), max(a, b)
			}
			// Input 0 reads x0 - x1 or so (mixInputs): atoms on a
			// multiple c of its form, <= K or >= K around a state's value.
			var atoms []symbolic.Atom
			for n := 1 + r.IntN(2); n > 0; n-- {
				c := []int{1, 2, -1, -3}[r.IntN(4)]
				var ts []symbolic.Term
				for _, b := range base {
					ts = append(ts, symbolic.Term{Coef: c * b.Coef, Var: b.Var})
				}
				f := symbolic.NewForm(ts)
				s := make(symbolic.State, nv)
				for v := range s {
					s[v] = lo[v] + r.IntN(hi[v]-lo[v]+1)
				}
				atoms = append(atoms, symbolic.Atom{Form: f, Upper: r.IntN(2) == 0, K: f.Eval(s) + r.IntN(3) - 1})
			}
			if p.inputBounds(atoms) == nil {
				t.Fatalf("ensemble %d: atoms %v bound no input", k, atoms)
			}
			a := outs[r.IntN(3)]
			var sure []symbolic.LabelID
			for _, l := range outs {
				if l != a && r.IntN(3) > 0 {
					sure = append(sure, l)
				}
			}
			c := testutil.RegionCase{Lo: lo, Hi: hi, Atoms: atoms, A: a, Sure: sure}
			ex, msg := testutil.AskRegion(t, p, c)
			stats[ex.String()]++
			if msg != "" {
				t.Errorf("ensemble %d, box %v..%v, atoms %v, label %d, sure %v: %s", k, lo, hi, atoms, a, sure, msg)
			}
		}
	}
	t.Logf("%v", stats)
	if stats["undecided"] > 0 || stats["excluded"] == 0 || stats["possible"] == 0 {
		t.Errorf("want both answers and none undecided: %v", stats)
	}
}

// TestExcludeWithinBrakingTrees: over the band 0 <= d - v <= 1 of
// braking_trees at N = 10^9, up is never chosen given stop; the input
// (d - v - 2) / N is below 0 there, which only the atoms tell (the
// band's bounding box is the whole state space). Without inputBounds
// the fallback splits down to single states and runs out of budget.
func TestExcludeWithinBrakingTrees(t *testing.T) {
	file := filepath.Join("..", "bench", "ic3scaling", "learned", "braking_trees.spec")
	m, diags := lang.Load(file, lang.Options{Defines: map[string]string{"N": "1000000000"}})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", file, diags.Render())
	}
	p, err := NewPolicy(m, m.Policies[0])
	if err != nil {
		t.Fatal(err)
	}
	d, v := m.VarIndex("d"), m.VarIndex("v")
	up, stop := m.LabelIndex("up"), m.LabelIndex("stop")
	N := m.Vars[v].Hi
	gap := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: d}, {Coef: -1, Var: v}})
	band := []symbolic.Atom{{Form: gap, K: 0}, {Form: gap, Upper: true, K: 1}}
	ex, _, err := p.ExcludeWithin([]int{0, 0}, []int{N, N}, band, up, []symbolic.LabelID{stop})
	if err != nil || ex != symbolic.Excluded {
		t.Errorf("up over the band: %v, %v; want excluded", ex, err)
	}
	wide := []symbolic.Atom{{Form: gap, K: 0}, {Form: gap, Upper: true, K: 2}}
	ex, w, err := p.ExcludeWithin([]int{0, 0}, []int{N, N}, wide, up, []symbolic.LabelID{stop})
	if err != nil || ex == symbolic.Excluded || ex == symbolic.Possible && w[d]-w[v] != 2 {
		t.Errorf("up over the widened band: %v at %v, %v; want possible at d - v = 2 (or undecided)", ex, w, err)
	}
}
