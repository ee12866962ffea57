package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// exactEval evaluates n at x in exact rational arithmetic.
func exactEval(n *Network, x []float64) []*big.Rat {
	r := func(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }
	cur := make([]*big.Rat, len(x))
	for i, v := range x {
		if n.InMin != nil {
			v = min(max(v, n.InMin[i]), n.InMax[i])
		}
		cur[i] = r(v)
		if n.InMean != nil {
			cur[i].Sub(cur[i], r(n.InMean[i]))
			cur[i].Quo(cur[i], r(n.InRange[i]))
		}
	}
	for _, l := range n.Layers {
		next := make([]*big.Rat, l.Out)
		for i := range next {
			s := r(l.B[i])
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				s.Add(s, new(big.Rat).Mul(r(w), cur[j]))
			}
			if l.Act == ActReLU && s.Sign() < 0 {
				s.SetInt64(0)
			}
			if l.Act == ActLeakyReLU && s.Sign() < 0 {
				s.Mul(s, r(l.Slope))
			}
			next[i] = s
		}
		cur = next
	}
	if n.OutMean != nil {
		for i := range cur {
			cur[i].Mul(cur[i], r(n.OutRange[i]))
			cur[i].Add(cur[i], r(n.OutMean[i]))
		}
	}
	return cur
}

// TestRoundoffBoundsEvaluation checks Roundoff against exact evaluation
// at random points of random boxes, on networks whose weights span many
// magnitudes (so that rounding is large), with and without transforms;
// every other network is LeakyReLU, with slopes down to the smallest
// subnormal (whose products round to a few units of 2^-1074).
func TestRoundoffBoundsEvaluation(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	slopes := []float64{0.01, 0.5, 1, 0, 0x1p-1074, 1e-310, 0.3, 1e-200}
	for k := 0; k < 400; k++ {
		nin := 1 + rng.IntN(4)
		n := &Network{}
		in := nin
		for d := 0; d < 1+rng.IntN(3); d++ {
			out := 1 + rng.IntN(5)
			l := Layer{In: in, Out: out, W: make([]float64, in*out), B: make([]float64, out), Act: ActReLU}
			if k%2 == 1 {
				l.Act, l.Slope = ActLeakyReLU, slopes[rng.IntN(len(slopes))]
			}
			for i := range l.W {
				l.W[i] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(80)-40)
			}
			for i := range l.B {
				l.B[i] = rng.NormFloat64() * math.Ldexp(1, rng.IntN(120)-60)
			}
			n.Layers = append(n.Layers, l)
			in = out
		}
		n.Layers[len(n.Layers)-1].Act = ActLinear
		if k%3 == 0 {
			for i := 0; i < nin; i++ {
				n.InMin, n.InMax = append(n.InMin, -50), append(n.InMax, 70)
				n.InMean, n.InRange = append(n.InMean, 0.1*float64(i)+0.3), append(n.InRange, 3+float64(i))
			}
			for i := 0; i < in; i++ {
				n.OutMean, n.OutRange = append(n.OutMean, 1e10/3), append(n.OutRange, 1.0/7)
			}
		}
		if err := n.validate(); err != nil {
			t.Fatal(err)
		}
		box := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
		for i := range box.Lo {
			c, w := rng.NormFloat64()*100, rng.Float64()*100
			box.Lo[i], box.Hi[i] = c-w, c+w
		}
		e, ok := n.Roundoff(box)
		if !ok {
			t.Fatalf("network %d: no bound, but its values stay far below 2^1000", k)
		}
		x := make([]float64, nin)
		for s := 0; s < 50; s++ {
			for i := range x {
				x[i] = box.Lo[i] + rng.Float64()*(box.Hi[i]-box.Lo[i])
			}
			y := n.Eval(x)
			for j, ex := range exactEval(n, x) {
				d := new(big.Rat).Sub(new(big.Rat).SetFloat64(y[j]), ex)
				if d.Abs(d).Cmp(new(big.Rat).SetFloat64(e[j])) > 0 {
					f, _ := d.Float64()
					t.Fatalf("network %d, x = %v, output %d: error %g exceeds the bound %g", k, x, j, f, e[j])
				}
			}
		}
	}
	// Values near 2^1023: no bound.
	n := &Network{Layers: []Layer{{In: 1, Out: 1, W: []float64{0x1p1010}, B: []float64{0}}}}
	if _, ok := n.Roundoff(Box{Lo: []float64{0}, Hi: []float64{1e6}}); ok {
		t.Error("Roundoff gave a bound where evaluation overflows")
	}
}

// tieModel is issue 26's near-tie: bad = 2^60 (x+1), good = bad + 1;
// exactly good wins everywhere, in float64 they tie and bad (first) wins.
func tieModel(t *testing.T) *Policy {
	m := &symbolic.Model{Name: "tie", Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 1000}},
		Labels: []symbolic.Label{{Name: "bad"}, {Name: "good"}}}
	d := &symbolic.PolicyDecl{Name: "tie", Kind: symbolic.KindNN, Outputs: []symbolic.LabelID{0, 1},
		Inputs: []symbolic.Affine{{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: 0}}}}}
	net := &Network{Layers: []Layer{
		{In: 1, Out: 1, W: []float64{0x1p60}, B: []float64{0x1p60}, Act: ActReLU},
		{In: 1, Out: 2, W: []float64{1, 1}, B: []float64{0, 1}},
	}}
	p, err := NewPolicyFromNetwork(m, d, net)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExcludesFloatNearTie: CROWN proves good - bad >= 1 over the box
// exactly, but the policy runs in float64, where bad wins every tie; the
// exclusion must not be proved, and a state where bad wins is found.
func TestExcludesFloatNearTie(t *testing.T) {
	p := tieModel(t)
	r, err := p.Excludes([]int{0}, []int{1000}, 0, []int{1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Refuted {
		t.Fatalf("verdict %v, want refuted (float64 ties choose bad)", r.Verdict)
	}
	y := make([]float64, 2)
	p.Scores(r.Witness, y)
	if y[0] != y[1] {
		t.Errorf("witness %v: scores %v, want a tie", r.Witness, y)
	}
	// good is never chosen over bad: it only ties.
	if r, _ := p.Excludes([]int{0}, []int{1000}, 1, []int{0}, Options{}); r.Verdict != Proved {
		t.Errorf("excluding good: %v, want proved", r.Verdict)
	}
}

// TestExcludesOverflow: where evaluation overflows, +Inf ties with +Inf
// and the first output wins; no bound is trusted, small boxes are
// evaluated, and large ones stay unknown unless a witness turns up.
func TestExcludesOverflow(t *testing.T) {
	p := tieModel(t)
	p.Net = &Network{Layers: []Layer{
		{In: 1, Out: 1, W: []float64{1}, B: []float64{0}, Act: ActReLU},
		{In: 1, Out: 2, W: []float64{0x1p1023, 0x1p1023}, B: []float64{0x1p1023, 0x1p1023 * 1.5}},
	}}
	p.ev, p.pr = NewEvaluator(p.Net), nil
	// x = 0: bad 2^1023, good 1.5 2^1023: good wins; from x = 1 both +Inf.
	if r, _ := p.Excludes([]int{0}, []int{0}, 0, []int{1}, Options{}); r.Verdict != Proved {
		t.Errorf("x = 0: %v, want proved", r.Verdict)
	}
	r, _ := p.Excludes([]int{0}, []int{100}, 0, []int{1}, Options{})
	if r.Verdict != Refuted || r.Witness[0] < 1 {
		t.Errorf("x in 0..100: %v %v, want refuted at x >= 1", r.Verdict, r.Witness)
	}
	// good is never chosen where bad ties it at +Inf, but no bound says
	// so: proved only by evaluating the states.
	if r, _ := p.Excludes([]int{1}, []int{100}, 1, []int{0}, Options{}); r.Verdict != Proved {
		t.Errorf("excluding good on 1..100: %v, want proved by evaluation", r.Verdict)
	}
	if r, _ := p.Excludes([]int{1}, []int{1000}, 1, []int{0}, Options{}); r.Verdict != Unknown && r.Verdict != Proved {
		t.Errorf("excluding good on 1..1000: %v, want unknown or proved", r.Verdict)
	}
}

// TestRoundoffLeakyNegativeSide: where a LeakyReLU neuron's sum is
// negative on the whole box (with its rounding), the error its sum
// carries is scaled by the slope, not passed on whole: a slope of 0.01
// gives about a hundredth of slope 1's bound, and the bound still holds
// at sampled points.
func TestRoundoffLeakyNegativeSide(t *testing.T) {
	mk := func(a float64) *Network {
		return &Network{Layers: []Layer{
			{In: 2, Out: 2, W: []float64{0.1, 1.0 / 3, 1.0 / 7, 0.3}, B: []float64{-1e3, -2e3}, Act: ActLeakyReLU, Slope: a},
			{In: 2, Out: 1, W: []float64{1, -1}, B: []float64{0}},
		}}
	}
	box := Box{Lo: []float64{-50, 0}, Hi: []float64{50, 100}}
	one, ok1 := mk(1).Roundoff(box)
	small, ok2 := mk(0.01).Roundoff(box)
	if !ok1 || !ok2 {
		t.Fatal("no bound")
	}
	if small[0] > 0.02*one[0] {
		t.Errorf("slope 0.01 on a negative box: bound %g, slope 1: %g; want the slope to scale it", small[0], one[0])
	}
	rng := rand.New(rand.NewPCG(27, 1))
	n := mk(0.01)
	x := make([]float64, 2)
	for s := 0; s < 2000; s++ {
		for i := range x {
			x[i] = box.Lo[i] + rng.Float64()*(box.Hi[i]-box.Lo[i])
		}
		d := new(big.Rat).Sub(new(big.Rat).SetFloat64(n.Eval(x)[0]), exactEval(n, x)[0])
		if d.Abs(d).Cmp(new(big.Rat).SetFloat64(small[0])) > 0 {
			t.Fatalf("x = %v: error beyond the bound %g", x, small[0])
		}
	}
}
