package nn

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// chosen returns the policy's choice among allowed outputs at y: the
// highest score, ties to the earliest output.
func chosen(y []float64, allowed []int) int {
	best := -1
	for o := range y {
		ok := false
		for _, a := range allowed {
			ok = ok || a == o
		}
		if ok && (best < 0 || y[o] > y[best]) {
			best = o
		}
	}
	return best
}

func TestExcludesSound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	counts := map[Verdict]int{}
	for trial := 0; trial < 150; trial++ {
		nin := 1 + r.IntN(4)
		nout := 2 + r.IntN(4)
		n := randomNet(r, nin, 4+r.IntN(10), 4+r.IntN(10), nout)
		box := randomBox(r, nin, 0.05+r.Float64())
		a := r.IntN(nout)
		var sure []int
		for o := 0; o < nout; o++ {
			if o != a && r.IntN(2) == 0 {
				sure = append(sure, o)
			}
		}
		res, err := n.Excludes(box, a, sure, Options{MaxNodes: 300, Seed: uint64(trial)})
		if err != nil {
			t.Fatal(err)
		}
		counts[res.Verdict]++
		allowed := append([]int{a}, sure...)
		switch res.Verdict {
		case Refuted:
			for i, v := range res.Witness {
				if v < box.Lo[i] || v > box.Hi[i] {
					t.Fatalf("trial %d: witness %v outside the box", trial, res.Witness)
				}
			}
			if got := chosen(n.Eval(res.Witness), allowed); got != a {
				t.Fatalf("trial %d: witness %v chooses %d, not %d", trial, res.Witness, got, a)
			}
		case Proved:
			x := make([]float64, nin)
			ev := NewEvaluator(n)
			y := make([]float64, nout)
			for s := 0; s < 3000; s++ {
				samplePoint(r, box, x)
				ev.Eval(x, y)
				if chosen(y, allowed) == a {
					t.Fatalf("trial %d: excluded, but %d is chosen at %v", trial, a, x)
				}
			}
		}
	}
	t.Logf("verdicts: %v", counts)
	if counts[Proved] == 0 || counts[Refuted] == 0 {
		t.Errorf("want both proofs and witnesses on random instances, got %v", counts)
	}
}

// TestExcludesTies: two identical outputs tie everywhere; the earlier
// one wins, so the later one is excluded and the earlier one is not.
func TestExcludesTies(t *testing.T) {
	n := &Network{Layers: []Layer{{In: 1, Out: 2, W: []float64{1, 1}, B: []float64{0, 0}}}}
	box := Box{Lo: []float64{-1}, Hi: []float64{1}}
	res, err := n.Excludes(box, 0, []int{1}, Options{})
	if err != nil || res.Verdict != Refuted {
		t.Errorf("output 0 against 1: got %v, %v; want refuted (earlier output wins ties)", res.Verdict, err)
	}
	// Proving a tie excluded needs exact evaluation: only single points.
	res, err = n.Excludes(Box{Lo: []float64{0.5}, Hi: []float64{0.5}}, 1, []int{0}, Options{})
	if err != nil || res.Verdict != Proved {
		t.Errorf("output 1 against 0 at a point: got %v, %v; want proved", res.Verdict, err)
	}
}

// lineModel builds a two-variable model and a policy declaration whose
// network reads x/10 and y.
func lineModel(t *testing.T, n *Network) (*symbolic.Model, *Policy) {
	m := &symbolic.Model{
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 10}, {Name: "y", Lo: 0, Hi: 3}, {Name: "z", Lo: 0, Hi: 100}},
		Labels: []symbolic.Label{{Name: "left"}, {Name: "right"}, {Name: "stay"}},
	}
	d := &symbolic.PolicyDecl{Name: "p", Kind: symbolic.KindNN, File: "net.json",
		Inputs: []symbolic.Affine{
			{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 10}, Var: 0}}},
			{Const: symbolic.Rat{Num: -1, Den: 2}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: 1}}},
		},
		Outputs: []symbolic.LabelID{0, 1, 2}}
	p, err := NewPolicyFromNetwork(m, d, n)
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

func TestPolicyExcludesStates(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 40; trial++ {
		n := randomNet(r, 2, 8, 8, 3)
		m, p := lineModel(t, n)
		lo := []int{r.IntN(11), r.IntN(4), 0}
		hi := []int{lo[0] + r.IntN(11-lo[0]), lo[1] + r.IntN(4-lo[1]), 100}
		a := r.IntN(3)
		sure := []int{(a + 1) % 3}
		res, err := p.Excludes(lo, hi, a, sure, Options{MaxNodes: 10000})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict == Unknown {
			t.Fatalf("trial %d: unknown on a box of %d states", trial, (hi[0]-lo[0]+1)*(hi[1]-lo[1]+1))
		}
		// Enumerate the box: the answer is exact.
		found := false
		y := make([]float64, 3)
		for x := lo[0]; x <= hi[0]; x++ {
			for yy := lo[1]; yy <= hi[1]; yy++ {
				s := symbolic.State{x, yy, 0}
				p.Scores(s, y)
				if chosen(y, []int{a, sure[0]}) == a {
					found = true
				}
			}
		}
		if found != (res.Verdict == Refuted) {
			t.Fatalf("trial %d: verdict %v, but enumeration finds a winning state: %v", trial, res.Verdict, found)
		}
		if res.Verdict == Refuted {
			if m.InRange(res.Witness) >= 0 {
				t.Fatalf("witness %v out of range", res.Witness)
			}
			p.Scores(res.Witness, y)
			if chosen(y, []int{a, sure[0]}) != a {
				t.Fatalf("trial %d: witness %v does not choose %d", trial, res.Witness, a)
			}
		}
	}
}
