package verify_test

import (
	"math/rand/v2"
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// TestCertifiersArgMaxAll compares the certifiers of random networks and
// ensembles read `argmax all` with the semantics state by state: under
// argmax all, label a can be chosen in a box (whatever labels are sure to
// be applicable) iff in some state of it a is the arg-max over every
// output. Excluded must mean no such state (soundness: PolIC3, ppa and
// cert check rest on it), Possible must name one. When the policy also
// certifies over regions (symbolic.RegionCertifiable), ExcludeWithin is
// checked the same way on the box cut by one random linear atom.
func TestCertifiersArgMaxAll(t *testing.T) {
	mks := []testutil.MakePolicy{
		func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return nn.Random(m, outs, seed, []int{6})
		},
		func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
			return trees.Random(m, outs, seed, 4, 3)
		},
	}
	asked, excluded, possible, within := 0, 0, 0, 0
	for seed := uint64(1); seed <= 120; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 5, MaxLabels: 4})
		outs := testutil.LabelsReversed(m)
		p, _, err := testutil.ArgMaxAll(mks[seed%2])(m, outs, seed)
		if err != nil {
			t.Fatal(err)
		}
		c := p.(symbolic.Certifiable)
		r := rand.New(rand.NewPCG(seed, 7))
		for q := 0; q < 6; q++ {
			lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
			for v, va := range m.Vars {
				a, b := va.Lo+r.IntN(va.Hi-va.Lo+1), va.Lo+r.IntN(va.Hi-va.Lo+1)
				lo[v], hi[v] = min(a, b), max(a, b)
			}
			var atoms []symbolic.Atom
			if q%2 == 1 {
				var ts []symbolic.Term
				for v := range m.Vars {
					ts = append(ts, symbolic.Term{Coef: r.IntN(5) - 2, Var: symbolic.VarID(v)})
				}
				if f := symbolic.NewForm(ts); f != nil {
					mid := f.Eval(lo)/2 + f.Eval(hi)/2
					atoms = []symbolic.Atom{{Form: f, Upper: r.IntN(2) == 0, K: mid}}
				}
			}
			a := outs[r.IntN(len(outs))]
			var sure []symbolic.LabelID
			for _, l := range outs {
				if l != a && r.IntN(3) == 0 {
					sure = append(sure, l)
				}
			}
			winsAt := func(s symbolic.State) bool {
				sc := make([]float64, len(outs))
				if err := p.Scores(s, sc); err != nil {
					t.Fatal(err)
				}
				return symbolic.Choose(outs, sc, func(symbolic.LabelID) bool { return true }) == a
			}
			in := func(s symbolic.State) bool {
				for _, at := range atoms {
					if !at.Holds(s) {
						return false
					}
				}
				return true
			}
			want := false
			testutil.BoxStates(lo, hi, func(s symbolic.State) { want = want || in(s) && winsAt(s) })
			var got symbolic.Exclusion
			var w symbolic.State
			if atoms == nil {
				got, w, err = c.Exclude(lo, hi, a, sure)
			} else if rc, ok := c.(symbolic.RegionCertifiable); ok {
				within++
				got, w, err = rc.ExcludeWithin(lo, hi, atoms, a, sure)
			} else {
				continue
			}
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			asked++
			switch got {
			case symbolic.Excluded:
				excluded++
				if want {
					t.Errorf("seed %d (%T): label %s excluded in %v..%v (atoms %d) given %v, but it is the arg-max over all outputs in a state there", seed, p, m.Labels[a].Name, lo, hi, len(atoms), sure)
				}
			case symbolic.Possible:
				possible++
				if !in(w) || !winsAt(w) {
					t.Errorf("seed %d (%T): witness %v of label %s is not a state of the region where it is the arg-max over all outputs", seed, p, w, m.Labels[a].Name)
				}
			}
		}
	}
	t.Logf("%d questions (%d over regions): %d excluded, %d possible", asked, within, excluded, possible)
	if excluded == 0 || possible == 0 {
		t.Error("the questions do not exercise both answers")
	}
}
