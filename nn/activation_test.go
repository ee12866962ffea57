package nn

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vigil/symbolic"
)

// bigExp returns e^x to prec bits: the Taylor series of x / 2^k, squared
// k times.
func bigExp(x float64, prec uint) *big.Float {
	k := 0
	for math.Abs(x)/math.Ldexp(1, k) > 0.5 {
		k++
	}
	y := new(big.Float).SetPrec(prec).SetFloat64(x)
	y.SetMantExp(y, -k)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for n := 1; n < 200; n++ {
		term.Mul(term, y)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(int64(n)))
		sum.Add(sum, term)
	}
	for ; k > 0; k-- {
		sum.Mul(sum, sum)
	}
	return sum
}

// refAct returns the activation's exact value at x to 200 bits.
func refAct(a Activation, x float64) *big.Float {
	const prec = 200
	one := new(big.Float).SetPrec(prec).SetInt64(1)
	if a == ActSigmoid {
		d := new(big.Float).SetPrec(prec).Add(one, bigExp(-x, prec))
		return d.Quo(one, d)
	}
	e := bigExp(2*x, prec)
	num := new(big.Float).SetPrec(prec).Sub(e, one)
	den := new(big.Float).SetPrec(prec).Add(e, one)
	return num.Quo(num, den)
}

// TestTanhSigmoidAccuracy checks the assumption the analyses rest on:
// float64 evaluation of Tanh and Sigmoid is within actRel relative plus
// actAbs absolute of the exact value (roundoff.go), and actDown/actUp
// enclose the exact value.
func TestTanhSigmoidAccuracy(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	worst := map[Activation]float64{}
	for _, a := range []Activation{ActTanh, ActSigmoid} {
		l := &Layer{Act: a}
		for i := 0; i < 1500; i++ {
			var x float64
			switch i % 4 {
			case 0:
				x = r.NormFloat64() * 0.5
			case 1:
				x = r.NormFloat64() * 5
			case 2:
				x = (r.Float64()*2 - 1) * 30
			default:
				x = math.Ldexp(r.Float64()-0.5, -r.IntN(60))
			}
			got := applyAct(l, x)
			want := refAct(a, x)
			diff := new(big.Float).Sub(new(big.Float).SetFloat64(got), want)
			d, _ := diff.Float64()
			w, _ := want.Float64()
			if math.Abs(d) > actRel*math.Abs(w)+actAbs {
				t.Errorf("%v(%v) = %v, exact %v: error %v beyond %v relative", a, x, got, w, d, actRel)
			}
			if w != 0 {
				worst[a] = max(worst[a], math.Abs(d/w)/unit)
			}
			if lo, hi := new(big.Float).SetFloat64(actDown(l, x)), new(big.Float).SetFloat64(actUp(l, x)); lo.Cmp(want) > 0 || hi.Cmp(want) < 0 {
				t.Errorf("%v(%v): [%v, %v] does not enclose %v", a, x, actDown(l, x), actUp(l, x), w)
			}
		}
	}
	t.Logf("worst relative error in units of 2^-53: tanh %.2f, sigmoid %.2f", worst[ActTanh], worst[ActSigmoid])
}

// TestRelaxSound checks the lines of relax.go against the activation on
// random intervals of every kind (negative, positive, straddling,
// narrow, wide), with the exact value's enclosure.
func TestRelaxSound(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	for _, a := range []Activation{ActTanh, ActSigmoid, ActLeakyReLU} {
		l := &Layer{Act: a, Slope: 0.1}
		for i := 0; i < 3000; i++ {
			c := r.NormFloat64() * 3
			w := math.Abs(r.NormFloat64()) * []float64{1e-9, 1e-3, 0.5, 3, 30}[i%5]
			lo, hi := c-w, c+w
			lw, up := relax(l, lo, hi)
			for s := 0; s <= 64; s++ {
				x := lo + (hi-lo)*float64(s)/64
				if s == 64 {
					x = hi
				}
				// LeakyReLU's lines are exact; only their float64
				// evaluation here rounds.
				tol := 0.0
				if a == ActLeakyReLU {
					tol = 4 * unit * (1 + math.Abs(x))
				}
				if vl, vh := lw.k*x+lw.c, up.k*x+up.c; vl > actDown(l, x)+tol || vh < actUp(l, x)-tol {
					t.Fatalf("%v on [%v, %v] at %v: lines %v..%v, activation in [%v, %v]", a, lo, hi, x, vl, vh, actDown(l, x), actUp(l, x))
				}
			}
		}
	}
}

// randomActNet is randomNet with random hidden activations.
func randomActNet(r *rand.Rand, sizes ...int) *Network {
	n := randomNet(r, sizes...)
	acts := []Activation{ActTanh, ActSigmoid, ActLeakyReLU, ActReLU, ActTanh}
	for i := range n.Layers[:len(n.Layers)-1] {
		n.Layers[i].Act = acts[r.IntN(len(acts))]
		n.Layers[i].Slope = 0.05
	}
	return n
}

// TestBoundsSoundActivations is TestBoundsSound for networks with Tanh,
// Sigmoid and LeakyReLU layers: every method's bounds hold at sampled
// points, and CROWN is never looser than IBP on average.
func TestBoundsSoundActivations(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 5))
	var wIBP, wCROWN float64
	for trial := 0; trial < 60; trial++ {
		nin := 1 + r.IntN(5)
		n := randomActNet(r, nin, 2+r.IntN(12), 2+r.IntN(12), 1+r.IntN(4))
		if trial%4 == 1 {
			n.Layers[len(n.Layers)-1].Act = ActTanh // ends in a Tanh
		}
		if err := n.validate(); err != nil {
			t.Fatal(err)
		}
		box := randomBox(r, nin, 1.5)
		C := randomSpec(r, 3, n.Outputs())
		wi, wc := checkAllMethods(t, r, n, box, C, 1e-12, false, fmt.Sprintf("trial %d", trial))
		wIBP, wCROWN = wIBP+wi, wCROWN+wc
	}
	t.Logf("summed widths: IBP %.4g, CROWN %.4g", wIBP, wCROWN)
	if wCROWN > wIBP {
		t.Errorf("CROWN is looser than IBP on these networks: %v > %v", wCROWN, wIBP)
	}
}

// TestRoundoffActivations checks Roundoff on Tanh, Sigmoid and LeakyReLU
// networks: float64 evaluation stays within the bound of a 200-bit
// evaluation at random points.
func TestRoundoffActivations(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 40; trial++ {
		nin := 1 + r.IntN(4)
		n := randomActNet(r, nin, 1+r.IntN(6), 1+r.IntN(6), 1+r.IntN(3))
		box := randomBox(r, nin, 2)
		e, ok := n.Roundoff(box)
		if !ok {
			t.Fatalf("trial %d: no bound", trial)
		}
		x := make([]float64, nin)
		y := make([]float64, n.Outputs())
		ev := NewEvaluator(n)
		for s := 0; s < 100; s++ {
			samplePoint(r, box, x)
			ev.Eval(x, y)
			ex := bigEval(n, x)
			for j := range y {
				d, _ := new(big.Float).Sub(new(big.Float).SetFloat64(y[j]), ex[j]).Float64()
				if math.Abs(d) > e[j] {
					t.Fatalf("trial %d output %d at %v: error %v beyond bound %v", trial, j, x, d, e[j])
				}
			}
		}
	}
}

// bigEval evaluates n at x with 200-bit arithmetic and reference
// activations (no input or output transforms).
func bigEval(n *Network, x []float64) []*big.Float {
	const prec = 200
	cur := make([]*big.Float, len(x))
	for i, v := range x {
		cur[i] = new(big.Float).SetPrec(prec).SetFloat64(v)
	}
	for _, l := range n.Layers {
		next := make([]*big.Float, l.Out)
		for i := range next {
			s := new(big.Float).SetPrec(prec).SetFloat64(l.B[i])
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				s.Add(s, new(big.Float).SetPrec(prec).Mul(new(big.Float).SetFloat64(w), cur[j]))
			}
			switch l.Act {
			case ActReLU:
				if s.Sign() < 0 {
					s.SetInt64(0)
				}
			case ActLeakyReLU:
				if s.Sign() < 0 {
					s.Mul(s, new(big.Float).SetFloat64(l.Slope))
				}
			case ActClip:
				if s.Cmp(big.NewFloat(l.Lo)) < 0 {
					s.SetFloat64(l.Lo)
				} else if s.Cmp(big.NewFloat(l.Hi)) > 0 {
					s.SetFloat64(l.Hi)
				}
			case ActTanh, ActSigmoid:
				v, _ := s.Float64()
				// The reference at the float64 nearest s, corrected
				// by the derivative for the difference (second
				// order terms are below 2^-100 here).
				d := new(big.Float).Sub(s, new(big.Float).SetFloat64(v))
				dv, _ := d.Float64()
				s = refAct(l.Act, v)
				s.Add(s, new(big.Float).SetPrec(prec).SetFloat64(dv*deriv(&l, v)))
			}
			next[i] = s
		}
		cur = next
	}
	return cur
}

// TestActivationFixtures loads networks as torch.onnx.export writes them
// with Tanh, Sigmoid, LeakyReLU, Identity, Flatten, Softmax and
// LogSoftmax (nn/testdata/make_act_fixtures.py) and compares float64
// evaluation with torch's float64 outputs.
func TestActivationFixtures(t *testing.T) {
	b, err := os.ReadFile("testdata/expected_act.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]struct{ Inputs, Outputs [][]float64 }
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	wantOut := map[string]OutAct{"acts.onnx": OutLogSoftmax, "softmax.onnx": OutSoftmax}
	for name, e := range exp {
		net, err := LoadONNX(filepath.Join("testdata", name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if net.Out != wantOut[name] {
			t.Errorf("%s: output function %v, want %v", name, net.Out, wantOut[name])
		}
		for k, x := range e.Inputs {
			y := net.Eval(x)
			for j := range y {
				if d := math.Abs(y[j] - e.Outputs[k][j]); d > 1e-12*(1+math.Abs(y[j])) {
					t.Errorf("%s at %v output %d: vigil %v, torch %v", name, x, j, y[j], e.Outputs[k][j])
				}
			}
		}
	}
	net, err := LoadONNX("testdata/acts.onnx")
	if err != nil {
		t.Fatal(err)
	}
	var acts []Activation
	for _, l := range net.Layers {
		acts = append(acts, l.Act)
	}
	if !slices.Equal(acts, []Activation{ActTanh, ActSigmoid, ActLeakyReLU, ActLinear}) || net.Layers[2].Slope != 0.25 {
		t.Errorf("acts.onnx: activations %v, slope %v", acts, net.Layers[2].Slope)
	}
}

// TestProveActivations runs input-split branch and bound (and ReLU-split
// branch and bound, which has no ReLU to split here and falls back on
// input splits) on random Tanh, Sigmoid and LeakyReLU networks, a third
// of them ending in Softmax or LogSoftmax: a
// refutation's witness must violate the disjunction under float64
// evaluation, and no sampled point may violate a proved one.
func TestProveActivations(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	tally := map[Verdict]int{}
	for trial := 0; trial < 40; trial++ {
		nin := 1 + r.IntN(3)
		n := randomActNet(r, nin, 3+r.IntN(6), 3+r.IntN(6), 2+r.IntN(2))
		switch trial % 6 {
		case 1:
			n.Out = OutSoftmax
		case 4:
			n.Out = OutLogSoftmax
		}
		box := randomBox(r, nin, 0.2+r.Float64())
		// "output top beats output j" for the top output at the centre.
		y := n.Eval(center(box))
		top := 0
		for j := range y {
			if y[j] > y[top] {
				top = j
			}
		}
		var d Disjunction
		for j := range y {
			if j == top {
				continue
			}
			row := make([]float64, len(y))
			row[top], row[j] = 1, -1
			d.Rows, d.Off = append(d.Rows, row), append(d.Off, 0)
			if r.IntN(2) == 0 {
				break
			}
		}
		for _, br := range []Branch{BranchInput, BranchReLU} {
			res, err := n.Prove(box, d, Options{Branch: br, MaxNodes: 3000, Seed: uint64(trial)})
			if err != nil {
				t.Fatal(err)
			}
			tally[res.Verdict]++
			ev := NewEvaluator(n)
			out := make([]float64, n.Outputs())
			holds := func(x []float64) bool {
				ev.Eval(x, out)
				for k, row := range d.Rows {
					g := d.Off[k]
					for j, c := range row {
						g += c * out[j]
					}
					if g > 0 {
						return true
					}
				}
				return false
			}
			switch res.Verdict {
			case Refuted:
				if holds(res.Witness) {
					t.Fatalf("trial %d %v: witness %v does not refute", trial, br, res.Witness)
				}
			case Proved:
				x := make([]float64, nin)
				for s := 0; s < 3000; s++ {
					samplePoint(r, box, x)
					if !holds(x) {
						t.Fatalf("trial %d %v: proved, but %v refutes", trial, br, x)
					}
				}
			}
		}
	}
	t.Logf("verdicts: %v proved, %v refuted, %v unknown", tally[Proved], tally[Refuted], tally[Unknown])
	if tally[Proved] == 0 || tally[Refuted] == 0 {
		t.Errorf("the comparison needs both answers: %v", tally)
	}
}

// softmaxPolicy binds net (one input, x of 0..100000, scaled to [0, 1])
// to a model whose labels are bad, good and idle.
func softmaxPolicy(t *testing.T, net *Network) *Policy {
	m := &symbolic.Model{Name: "soft", Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 100000}},
		Labels: []symbolic.Label{{Name: "bad"}, {Name: "good"}, {Name: "idle"}}}
	d := &symbolic.PolicyDecl{Name: "soft", Kind: symbolic.KindNN, Outputs: []symbolic.LabelID{0, 1, 2},
		Inputs: []symbolic.Affine{{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 100000}, Var: 0}}}}}
	p, err := NewPolicyFromNetwork(m, d, net)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExcludesSoftmax: a final Softmax or LogSoftmax is decided on the
// scores before it with a wider margin (softmax.go). Logits -800 and -790
// both underflow to 0 under Softmax and tie (bad, first, wins), so
// excluding bad over a box too large to enumerate must not be proved
// (unknown, or refuted if the witness search finds a state),
// although good's logit is 10 higher; under LogSoftmax they stay apart
// and the exclusion is proved. Logits 1 apart are proved under both.
func TestExcludesSoftmax(t *testing.T) {
	mk := func(out OutAct, bad, good float64) *Policy {
		return softmaxPolicy(t, &Network{Out: out, Layers: []Layer{
			{In: 1, Out: 1, W: []float64{1}, B: []float64{0}, Act: ActTanh},
			{In: 1, Out: 3, W: []float64{0.5, 0, 0}, B: []float64{bad, good, 0}},
		}})
	}
	for _, c := range []struct {
		out       OutAct
		bad, good float64
		want      Verdict
	}{
		{OutSoftmax, -800, -790, Unknown}, // no bound counts; too many states to evaluate
		{OutLogSoftmax, -800, -790, Proved},
		{OutSoftmax, -3, -1, Proved},
		{OutLogSoftmax, -3, -1, Proved},
	} {
		p := mk(c.out, c.bad, c.good)
		r, err := p.Excludes([]int{0}, []int{100000}, 0, []int{1}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != c.want && !(c.want == Unknown && r.Verdict == Refuted) {
			t.Errorf("%v, logits bad %v good %v: %v, want %v", c.out, c.bad, c.good, r.Verdict, c.want)
		}
		if r.Verdict == Refuted {
			y := make([]float64, 3)
			p.Scores(r.Witness, y)
			if y[0] < y[1] {
				t.Errorf("%v: witness %v scores %v: bad does not win", c.out, r.Witness, y)
			}
		}
	}
}
