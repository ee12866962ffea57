package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
)

// s31xPolicy binds net to a model of nv variables in lo..hi and three
// labels, each variable read by one input with coefficient coef.
func s31xPolicy(t *testing.T, net *nn.Network, nv, lo, hi int, coef symbolic.Rat) *nn.Policy {
	t.Helper()
	m := testutil.RegionModel(nv, net.Outputs(), lo, hi)
	d := &symbolic.PolicyDecl{Name: "p", Kind: symbolic.KindNN}
	for v := range nv {
		d.Inputs = append(d.Inputs, symbolic.Affine{Terms: []symbolic.AffineTerm{{Coef: coef, Var: symbolic.VarID(v)}}})
	}
	for l := range net.Outputs() {
		d.Outputs = append(d.Outputs, symbolic.LabelID(l))
	}
	p, err := nn.NewPolicyFromNetwork(m, d, net)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestS31xWideRange: a box wider than int64 can count (-9e18..9e18:
// hi-lo overflows; the API allows it, a .spec's E0301 does not) is asked
// about like any (before: a panic in the random samples).
func TestS31xWideRange(t *testing.T) {
	net := &nn.Network{Layers: []nn.Layer{{In: 1, Out: 2, W: []float64{1, 0}, B: []float64{0, 0}}}}
	const lo, hi = -9000000000000000000, 9000000000000000000
	p := s31xPolicy(t, net, 1, lo, hi, symbolic.Rat{Num: 1, Den: 1})
	for _, c := range []struct {
		a    symbolic.LabelID
		sure []symbolic.LabelID
	}{{0, []symbolic.LabelID{1}}, {1, []symbolic.LabelID{0}}} {
		ex, w, err := p.Exclude([]int{lo}, []int{hi}, c.a, c.sure)
		t.Logf("label %d: %v %v %v", c.a, ex, w, err)
		if err != nil {
			t.Fatal(err)
		}
		if ex == symbolic.Excluded {
			t.Errorf("label %d excluded, but it wins at x = %d", c.a, map[symbolic.LabelID]int{0: 1, 1: -1}[c.a])
		}
	}
}

// TestS31xAloneWitness: with no rival, a label wins where its own score
// is neither NaN nor -Inf; the witness must be such a state (before, the
// region's first state was answered unevaluated), and a label whose
// score is NaN everywhere is excluded.
func TestS31xAloneWitness(t *testing.T) {
	// y0 = w x - w x: NaN where w x overflows, else 0; y1 = 0.
	for _, c := range []struct {
		w      float64
		lo, hi int
		want   symbolic.Exclusion
	}{
		{1e308, -10, 10, symbolic.Possible},                 // |x| >= 2 NaN; small: state by state
		{1e300, -1000000000, 1000000000, symbolic.Possible}, // |x| > 1.8e8 NaN; large: random states
		{1e308, 2, 10, symbolic.Excluded},                   // NaN everywhere: never chosen
		{1e308, -7, 7, symbolic.Possible},
	} {
		net := &nn.Network{Layers: []nn.Layer{
			{In: 1, Out: 2, W: []float64{c.w, c.w}, B: []float64{0, 0}},
			{In: 2, Out: 2, W: []float64{1, -1, 0, 0}, B: []float64{0, 0}},
		}}
		p := s31xPolicy(t, net, 1, c.lo, c.hi, symbolic.Rat{Num: 1, Den: 1})
		if c.hi-c.lo <= 20 {
			// over regions too, against enumeration
			r := rand.New(rand.NewPCG(uint64(c.lo), 31))
			for range 50 {
				rc := testutil.RegionCase{Lo: []int{c.lo}, Hi: []int{c.hi}, A: 0}
				rc.Atoms = testutil.RandomAtoms(r, 1, 1+r.IntN(2), rc.Lo, rc.Hi)
				if _, msg := testutil.AskRegion(t, p, rc); msg != "" {
					t.Errorf("x in %d..%d, atoms %v: %s", c.lo, c.hi, rc.Atoms, msg)
				}
			}
		}
		ex, w, err := p.Exclude([]int{c.lo}, []int{c.hi}, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ex != c.want {
			t.Errorf("x in %d..%d: %v (witness %v), want %v", c.lo, c.hi, ex, w, c.want)
			continue
		}
		if ex == symbolic.Possible {
			y := make([]float64, 2)
			if err := p.Scores(w, y); err != nil {
				t.Fatal(err)
			}
			if math.IsNaN(y[0]) || math.IsInf(y[0], -1) {
				t.Errorf("x in %d..%d: witness %v, where label 0's score is %v (never chosen)", c.lo, c.hi, w, y[0])
			}
		}
	}
}
