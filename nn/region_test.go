package nn_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
)

// loadBraking loads bench/ic3scaling/learned/braking_net.spec with N = n
// and returns its model and network policy.
func loadBraking(tb testing.TB, n int) (*symbolic.Model, *nn.Policy) {
	tb.Helper()
	m, diags := lang.Load("../bench/ic3scaling/learned/braking_net.spec", lang.Options{Defines: map[string]string{"N": fmt.Sprint(n)}})
	if diags.HasErrors() {
		tb.Fatalf("%s", diags.Render())
	}
	p, err := symbolic.Instantiate(m, m.Policies[0])
	if err != nil {
		tb.Fatal(err)
	}
	return m, p.(*nn.Policy)
}

// labelNamed is m.LabelIndex(name), failing tb when there is none.
func labelNamed(tb testing.TB, m *symbolic.Model, name string) symbolic.LabelID {
	tb.Helper()
	l := m.LabelIndex(name)
	if l == symbolic.NoLabel {
		tb.Fatalf("no label %s", name)
	}
	return l
}

// varNamed is m.VarIndex(name), failing tb when there is none.
func varNamed(tb testing.TB, m *symbolic.Model, name string) symbolic.VarID {
	tb.Helper()
	v := m.VarIndex(name)
	if v < 0 {
		tb.Fatalf("no variable %s", name)
	}
	return v
}

// TestBrakingNetDiagonal is issue 27's case: up and go are never chosen
// where v >= d (down is applicable where v >= 1 and wins there), which
// CROWN cannot prove on the bounding box at any N but proves over the
// region v - d >= 0 at N = 10^3, 10^6 and 10^9, as on cells along the
// diagonal v - d in [k1, k2].
func TestBrakingNetDiagonal(t *testing.T) {
	for _, n := range []int{1000, 1000000, 1000000000} {
		m, p := loadBraking(t, n)
		d, v := varNamed(t, m, "d"), varNamed(t, m, "v")
		down := labelNamed(t, m, "down")
		lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
		for i, va := range m.Vars {
			lo[i], hi[i] = va.Lo, va.Hi
		}
		lo[v] = 1 // down is applicable
		form := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: v}, {Coef: -1, Var: d}})
		for _, name := range []string{"up", "go"} {
			a := labelNamed(t, m, name)
			ex, s, err := p.Exclude(lo, hi, a, []symbolic.LabelID{down})
			if err != nil {
				t.Fatal(err)
			}
			if ex == symbolic.Excluded {
				t.Errorf("N=%d: %s is excluded on the whole bounding box, but it wins where v < d", n, name)
			}
			if ex == symbolic.Possible && s[v] >= s[d] {
				t.Errorf("N=%d: %s possible at %v, in the region v >= d", n, name, s)
			}
			cells := [][2]int{{0, n}, {0, 0}, {0, 3}, {5, 17}, {n / 2, n}}
			for _, c := range cells {
				atoms := []symbolic.Atom{{Form: form, K: c[0]}, {Form: form, Upper: true, K: c[1]}}
				ex, s, err := p.ExcludeWithin(lo, hi, atoms, a, []symbolic.LabelID{down})
				if err != nil {
					t.Fatal(err)
				}
				if ex != symbolic.Excluded {
					t.Errorf("N=%d: %s over v - d in [%d, %d]: %v %v, want excluded", n, name, c[0], c[1], ex, s)
				}
			}
		}
		// Cells of the box that straddle the diagonal, as PolIC3's
		// lemmas cut them: up is excluded over their part v >= d.
		for _, w := range []int{1, 7, 1000, n / 3} {
			c := n / 2
			clo, chi := []int{c, c}, []int{c + w, c + w}
			at := []symbolic.Atom{{Form: form, K: 0}}
			if ex, s, err := p.ExcludeWithin(clo, chi, at, labelNamed(t, m, "up"), []symbolic.LabelID{down}); err != nil || ex != symbolic.Excluded {
				t.Errorf("N=%d: up over the cell %v..%v with v >= d: %v %v %v, want excluded", n, clo, chi, ex, s, err)
			}
		}
		// On the line v = d - 1 every score is 0 and go, the first
		// output, wins; below it up wins: both found on a thin region of
		// a box of N^2 states.
		line := []symbolic.Atom{{Form: form, K: -1}, {Form: form, Upper: true, K: -1}}
		all := []symbolic.LabelID{labelNamed(t, m, "up"), down, labelNamed(t, m, "stop")}
		ex, s, err := p.ExcludeWithin(lo, hi, line, labelNamed(t, m, "go"), all)
		if err != nil {
			t.Fatal(err)
		}
		if ex != symbolic.Possible || s[v] != s[d]-1 {
			t.Errorf("N=%d: go on v = d - 1: %v %v, want possible on the line", n, ex, s)
		}
		below := []symbolic.Atom{{Form: form, Upper: true, K: -2}, {Form: form, K: -3}}
		ex, s, err = p.ExcludeWithin(lo, hi, below, labelNamed(t, m, "up"), []symbolic.LabelID{down, labelNamed(t, m, "go")})
		if err != nil {
			t.Fatal(err)
		}
		if ex != symbolic.Possible || s[v]-s[d] < -3 || s[v]-s[d] > -2 {
			t.Errorf("N=%d: up on v - d in [-3, -2]: %v %v, want possible there", n, ex, s)
		}
		// down itself is possible over the region, at a state of it.
		atoms := []symbolic.Atom{{Form: form, K: 0}}
		ex, s, err = p.ExcludeWithin(lo, hi, atoms, down, []symbolic.LabelID{labelNamed(t, m, "up"), labelNamed(t, m, "go")})
		if err != nil {
			t.Fatal(err)
		}
		if ex != symbolic.Possible || s[v] < s[d] || s[v] < 1 {
			t.Errorf("N=%d: down over v >= d: %v %v, want possible in the region", n, ex, s)
		}
	}
}

// randomBox returns a random sub-box of the model's ranges.
func randomBox(r *rand.Rand, m *symbolic.Model) ([]int, []int) {
	lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for v, va := range m.Vars {
		a, b := va.Lo+r.IntN(va.Hi-va.Lo+1), va.Lo+r.IntN(va.Hi-va.Lo+1)
		lo[v], hi[v] = min(a, b), max(a, b)
	}
	return lo, hi
}

// randomSure returns a random subset of the outputs other than a.
func randomSure(r *rand.Rand, outs []symbolic.LabelID, a symbolic.LabelID) []symbolic.LabelID {
	var s []symbolic.LabelID
	for _, l := range outs {
		if l != a && r.IntN(3) > 0 {
			s = append(s, l)
		}
	}
	return s
}

// TestExcludeWithinConformance checks ExcludeWithin against enumerating
// box ∧ atoms on random networks, boxes and 1-3 atoms: 0 disagreements.
func TestExcludeWithinConformance(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 1))
	stats := map[symbolic.Exclusion]int{}
	cases := 0
	for net := 0; net < 40; net++ {
		nv := 2 + net%2
		m := testutil.RegionModel(nv, 3, -6, 6)
		if net%4 >= 2 {
			m = testutil.RegionModel(nv, 3, -25, 25) // boxes that bounds, not enumeration, decide
		}
		outs := []symbolic.LabelID{0, 1, 2}
		hidden := [][]int{{4}, {5, 3}, {6}}[net%3]
		p, _, err := nn.Random(m, outs, uint64(net), hidden)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 12; k++ {
			lo, hi := randomBox(r, m)
			a := outs[r.IntN(len(outs))]
			c := testutil.RegionCase{Lo: lo, Hi: hi, Atoms: testutil.RandomAtoms(r, nv, 1+r.IntN(3), lo, hi), A: a, Sure: randomSure(r, outs, a)}
			ex, msg := testutil.AskRegion(t, p, c)
			cases++
			stats[ex]++
			if msg != "" {
				t.Errorf("network %d, box %v..%v, atoms %v: %s", net, lo, hi, c.Atoms, msg)
			}
		}
	}
	t.Logf("%d cases: %v", cases, stats)
	if stats[symbolic.Undecided] > cases/10 {
		t.Errorf("%d of %d cases undecided", stats[symbolic.Undecided], cases)
	}
}

// adversarialNet builds braking_net's kind of policy over variables x, y
// with first-layer pre-activations that are exactly 0 on the boundary of
// atoms over the same forms, and outputs that tie there: inputs
// (c·s - k)/D for integer c and k, an identity ReLU layer, and outputs
// that are 0, an input's ReLU, or a difference of two of them.
func adversarialNet(r *rand.Rand, m *symbolic.Model, den int64) (*nn.Policy, []*symbolic.Form, []int) {
	nin := 3
	d := &symbolic.PolicyDecl{Name: "adversarial", Kind: symbolic.KindNN, Outputs: []symbolic.LabelID{0, 1, 2, 3}}
	var forms []*symbolic.Form
	var ks []int
	for i := 0; i < nin; i++ {
		var f *symbolic.Form
		var ts []symbolic.Term
		for f == nil {
			ts = ts[:0]
			for v := range m.Vars {
				if c := r.IntN(5) - 2; c != 0 {
					ts = append(ts, symbolic.Term{Coef: c, Var: symbolic.VarID(v)})
				}
			}
			f = symbolic.NewForm(ts)
		}
		k := r.IntN(7) - 3
		a := symbolic.Affine{Const: symbolic.Rat{Num: int64(-k), Den: den}}
		for _, t := range f.Terms() {
			a.Terms = append(a.Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: int64(t.Coef), Den: den}, Var: t.Var})
		}
		d.Inputs = append(d.Inputs, a)
		forms, ks = append(forms, f), append(ks, k)
	}
	hid := nn.Layer{In: nin, Out: nin, W: make([]float64, nin*nin), B: make([]float64, nin), Act: nn.ActReLU}
	for i := 0; i < nin; i++ {
		hid.W[i*nin+i] = 1
	}
	out := nn.Layer{In: nin, Out: 4, W: make([]float64, 4*nin), B: make([]float64, 4)}
	for o := 1; o < 4; o++ { // output 0 is constantly 0
		out.W[o*nin+r.IntN(nin)] = 1
		if r.IntN(2) == 0 {
			out.W[o*nin+r.IntN(nin)] -= 1
		}
	}
	p, err := nn.NewPolicyFromNetwork(m, d, &nn.Network{Layers: []nn.Layer{hid, out}})
	if err != nil {
		panic(err)
	}
	return p, forms, ks
}

// TestExcludeWithinAdversarial checks ExcludeWithin against enumeration
// where atoms make first-layer pre-activations exactly 0 on their
// boundary and outputs tie there (ties go to the earliest output), with
// inputs scaled by 1, 3, 7 (inexact in float64) and 10^9.
func TestExcludeWithinAdversarial(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 2))
	stats := map[symbolic.Exclusion]int{}
	cases := 0
	for net := 0; net < 60; net++ {
		m := testutil.RegionModel(2, 4, -5, 5)
		den := []int64{1, 3, 7, 1000000000}[net%4]
		p, forms, ks := adversarialNet(r, m, den)
		outs := p.Outputs()
		for k := 0; k < 8; k++ {
			lo, hi := randomBox(r, m)
			var atoms []symbolic.Atom
			for n := 1 + r.IntN(2); len(atoms) < n; {
				i := r.IntN(len(forms))
				// The boundary form = k is where input i is exactly 0.
				atoms = append(atoms, symbolic.Atom{Form: forms[i], Upper: r.IntN(2) == 0, K: ks[i] + r.IntN(3) - 1})
			}
			if r.IntN(4) == 0 {
				atoms = append(atoms, testutil.RandomAtoms(r, 2, 1, lo, hi)...)
			}
			a := outs[r.IntN(len(outs))]
			c := testutil.RegionCase{Lo: lo, Hi: hi, Atoms: atoms, A: a, Sure: randomSure(r, outs, a)}
			ex, msg := testutil.AskRegion(t, p, c)
			cases++
			stats[ex]++
			if msg != "" {
				t.Errorf("network %d (D=%d), box %v..%v, atoms %v: %s", net, den, lo, hi, c.Atoms, msg)
			}
		}
	}
	t.Logf("%d cases: %v", cases, stats)
}

// TestExcludeWithinNoAtomsIsExclude checks that ExcludeWithin without
// atoms answers as Exclude (the same verdict, and a witness of the box).
func TestExcludeWithinNoAtomsIsExclude(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	m := testutil.RegionModel(2, 3, -6, 6)
	outs := []symbolic.LabelID{0, 1, 2}
	for net := 0; net < 10; net++ {
		p, _, err := nn.Random(m, outs, uint64(100+net), []int{5})
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 10; k++ {
			lo, hi := randomBox(r, m)
			a := outs[r.IntN(3)]
			sure := randomSure(r, outs, a)
			e1, s1, err1 := p.Exclude(lo, hi, a, sure)
			e2, s2, err2 := p.ExcludeWithin(lo, hi, nil, a, sure)
			// The witnesses may differ: the sampling goes on from one
			// query to the next.
			if e1 != e2 || (err1 == nil) != (err2 == nil) {
				t.Errorf("box %v..%v: Exclude %v %v %v, ExcludeWithin %v %v %v", lo, hi, e1, s1, err1, e2, s2, err2)
			}
			if msg := testutil.RegionDisagreement(p, testutil.RegionCase{Lo: lo, Hi: hi, A: a, Sure: sure}, e2, s2); msg != "" {
				t.Errorf("box %v..%v: %s", lo, hi, msg)
			}
		}
	}
}

// TestExcludeWithinBadAtoms checks that malformed atoms are errors.
func TestExcludeWithinBadAtoms(t *testing.T) {
	m := testutil.RegionModel(2, 3, 0, 4)
	p, _, err := nn.Random(m, []symbolic.LabelID{0, 1, 2}, 1, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := []int{0, 0}, []int{4, 4}
	for name, atoms := range map[string][]symbolic.Atom{
		"nil form":      {{Form: nil, K: 1}},
		"variable 2":    {{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 2}}), K: 1}},
		"variable -1":   {{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: -1}}), K: 1}},
		"second atom":   {{Form: symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}}), K: 1}, {}},
		"not an output": {{Form: nil}},
	} {
		a := symbolic.LabelID(0)
		if name == "not an output" {
			a = 7
		}
		if _, _, err := p.ExcludeWithin(lo, hi, atoms, a, []symbolic.LabelID{1}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestRoundingSteps checks the bit-step rounding of region.go against
// math.Nextafter at zeros, subnormals, the largest values and infinities.
func TestRoundingSteps(t *testing.T) {
	for _, x := range []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 1, -1, 0.1, -0.1, 2.2250738585072014e-308, -2.2250738585072014e-308,
		math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), 1e300, -1e-300} {
		if u, w := nn.RoundUpForTest(x), math.Nextafter(x, math.Inf(1)); u != w && !(math.IsInf(u, 1) && math.IsInf(w, 1)) {
			t.Errorf("up(%g) = %g, want %g", x, u, w)
		}
		if d, w := nn.RoundDownForTest(x), math.Nextafter(x, math.Inf(-1)); d != w && !(math.IsInf(d, -1) && math.IsInf(w, -1)) {
			t.Errorf("down(%g) = %g, want %g", x, d, w)
		}
	}
}

// TestExcludeWithinTransforms is the conformance suite on networks with
// every transform a network file may declare: inputs clipped (the clip
// reached inside the boxes), normalised by inexact ranges, outputs
// scaled, sometimes a final Softmax, and hidden activations ReLU, Tanh,
// LeakyReLU or Sigmoid.
func TestExcludeWithinTransforms(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 7))
	acts := []nn.Activation{nn.ActReLU, nn.ActTanh, nn.ActLeakyReLU, nn.ActSigmoid}
	stats := map[symbolic.Exclusion]int{}
	cases := 0
	for k := 0; k < 100; k++ {
		nv := 2 + k%2
		m := testutil.RegionModel(nv, 3, -12, 12)
		outs := []symbolic.LabelID{0, 1, 2}
		p0, d, err := nn.RandomWith(m, outs, uint64(300+k), []int{5, 4}, acts[k%4])
		if err != nil {
			t.Fatal(err)
		}
		net := *p0.Net
		nin, nout := net.Inputs(), net.Outputs()
		net.InMin, net.InMax = make([]float64, nin), make([]float64, nin)
		net.InMean, net.InRange = make([]float64, nin), make([]float64, nin)
		for i := 0; i < nin; i++ {
			net.InMin[i], net.InMax[i] = 0.1+0.3*r.Float64(), 0.6+0.3*r.Float64()
			net.InMean[i], net.InRange[i] = r.Float64()-0.5, 0.3+r.Float64()
		}
		net.OutMean, net.OutRange = make([]float64, nout), make([]float64, nout)
		for j := 0; j < nout; j++ {
			net.OutMean[j], net.OutRange[j] = 0.1*r.NormFloat64(), 0.5+r.Float64()
		}
		if k%5 == 4 {
			net.Out = nn.OutSoftmax
		}
		p, err := nn.NewPolicyFromNetwork(m, d, &net)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 10; q++ {
			lo, hi := randomBox(r, m)
			a := outs[r.IntN(3)]
			c := testutil.RegionCase{Lo: lo, Hi: hi, Atoms: testutil.RandomAtoms(r, nv, 1+r.IntN(3), lo, hi), A: a, Sure: randomSure(r, outs, a)}
			ex, msg := testutil.AskRegion(t, p, c)
			cases++
			stats[ex]++
			if msg != "" {
				t.Errorf("network %d (%v, out %v), box %v..%v, atoms %v: %s", k, acts[k%4], net.Out, lo, hi, c.Atoms, msg)
			}
		}
	}
	t.Logf("%d cases: %v", cases, stats)
	if stats[symbolic.Undecided] > cases/10 {
		t.Errorf("%d of %d cases undecided", stats[symbolic.Undecided], cases)
	}
}
