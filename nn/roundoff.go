package nn

// Forward error analysis of float64 evaluation.
//
// A learned policy runs in float64 (Evaluator.Eval, lang/spec.md section
// Policies), while the bounds of bounds.go are about the network in exact
// real arithmetic. roundoff bounds the difference over an input box, so
// that a certifier may conclude "output o beats output a in float64"
// from "o - a > E_o + E_a in exact arithmetic".
//
// For one dense layer with computed input x^ (the float64 values the
// evaluator holds) and exact input x, the evaluator forms
// s = fl(...fl(b + fl(w_1 x^_1)) + ... + fl(w_n x^_n)) sequentially, so
// (Higham, Accuracy and Stability of Numerical Algorithms, 3.1)
//
//	|s - (W x^ + b)| <= gamma_{n+1} (|W| |x^| + |b|),  gamma_m = m u / (1 - m u), u = 2^-53,
//
// plus at most 2^-1074 per operation where a result is subnormal; and
// |W x^ - W x| <= |W| |x^ - x|. ReLU is 1-Lipschitz and exact in float64;
// the other activations are bounded by activate.
// The per-neuron error e therefore propagates as
//
//	e' = gamma_{n+1} (|W| A + |b|) + |W| e + (n+1) 2^-1074,
//
// where A bounds |x^| (the exact activation's interval bound, plus e).
// The exact activations are bounded by interval arithmetic rounded
// outward. Every bound is itself computed in float64 and rounded up (a
// sum of m non-negative terms is inflated by (m+4) 2^-50, more than the
// 2 gamma_m its rounding can lose). The input transform adds
// (x - mean) / range with two roundings, the output transform y*R + M
// with two. When any bound exceeds maxMagnitude, evaluation might
// overflow to an infinity on the box, and no bound is given.

import "math"

// Tanh and Sigmoid are not correctly rounded. vigil assumes (and
// TestTanhSigmoidAccuracy checks against 200-bit references) that
// float64 evaluation is within actRel relative plus actAbs absolute of
// the exact value: Go's math.Tanh is Cephes' (peak relative error about
// 2.5e-16 = 2.3 u), and sigmoid's exp (under 1 ulp), sum and quotient
// give at most about 4 u. actRel = 16 u leaves a wide margin. actAbs
// covers results that underflow: sigmoid(s) for s < -709 is 0 in float64
// (exp(-s) overflows) but up to about 1.4e-308 exactly.
const (
	actRel = 16 * unit
	actAbs = 0x1p-1000
)

// actDown and actUp bound the exact value of a monotone activation f at
// x from below and above, from float64 evaluation f^(x): f^(x) -/+
// actRel |f^(x)| - actAbs, rounded outward and clamped to f's range
// (tanh in [-1, 1], sigmoid in [0, 1]).
func actDown(l *Layer, x float64) float64 {
	v := applyAct(l, x)
	switch l.Act {
	case ActTanh:
		return max(roundDown(v-roundUp(actRel*math.Abs(v))-actAbs), -1)
	case ActSigmoid:
		return max(roundDown(v-roundUp(actRel*math.Abs(v))-actAbs), 0)
	case ActLeakyReLU:
		if x < 0 {
			return roundDown(v)
		}
	}
	return v
}

func actUp(l *Layer, x float64) float64 {
	v := applyAct(l, x)
	switch l.Act {
	case ActTanh:
		return min(roundUp(v+roundUp(actRel*math.Abs(v))+actAbs), 1)
	case ActSigmoid:
		return min(roundUp(v+roundUp(actRel*math.Abs(v))+actAbs), 1)
	case ActLeakyReLU:
		if x < 0 {
			return roundUp(v)
		}
	}
	return v
}

// activate maps a neuron's exact pre-activation interval [sl, sh], and the
// bound e of the rounding error of its float64 sum, through l's
// activation: the exact activation's interval, and the error bound of
// float64 evaluation after it. ReLU and Clip are 1-Lipschitz and exact; LeakyReLU
// with slope a in [0, 1] is 1-Lipschitz and adds the product's rounding,
// u a |s^| + 2^-1074 where the computed sum s^ is negative; Tanh (1-Lipschitz) and Sigmoid (1/4-Lipschitz) add
// their own evaluation error, at most actRel (|f| <= 1) + actAbs.
func activate(l *Layer, sl, sh, e float64) (lo, hi, err float64) {
	switch l.Act {
	case ActReLU:
		return max(sl, 0), max(sh, 0), e
	case ActLeakyReLU:
		// The product a s^ is rounded only where the computed sum s^ is
		// negative, down to sl - e: u a |s^| <= u a (e - sl).
		m := roundUp(l.Slope * roundUp(max(e-sl, 0)))
		if sh+e <= 0 {
			// s and s^ both on the slope a side: a |s^ - s| <= a e
			return actDown(l, sl), actUp(l, sh), inflate(roundUp(l.Slope*e)+roundUp(unit*m), 2) + subnorm
		}
		if sl-e >= 0 {
			// both on the identity side: exact
			return actDown(l, sl), actUp(l, sh), e
		}
		return actDown(l, sl), actUp(l, sh), inflate(e+roundUp(unit*m), 2) + subnorm
	case ActTanh:
		return actDown(l, sl), actUp(l, sh), inflate(e+actRel, 2) + actAbs
	case ActSigmoid:
		return actDown(l, sl), actUp(l, sh), inflate(roundUp(e/4)+actRel, 2) + actAbs
	case ActClip:
		// Exact and 1-Lipschitz, as ReLU.
		return clip(l, sl), clip(l, sh), e
	}
	return sl, sh, e
}

// maxMagnitude is the largest value the analysis lets an evaluation
// reach; beyond it an intermediate result might overflow (float64's
// largest finite value is just under 2^1024).
const maxMagnitude = 0x1p1000

const (
	unit    = 0x1p-53   // unit roundoff of float64
	subnorm = 0x1p-1074 // the absolute error a subnormal result may add
)

// gamma is Higham's gamma_m = m u / (1 - m u), rounded up.
func gamma(m int) float64 {
	mu := float64(m) * unit
	return roundUp(roundUp(mu / (1 - mu)))
}

func roundUp(x float64) float64   { return math.Nextafter(x, math.Inf(1)) }
func roundDown(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }

// inflate returns an upper bound of the exact sum of m non-negative terms
// whose float64 sum is s.
func inflate(s float64, m int) float64 {
	return roundUp(s*(1+float64(m+4)*0x1p-50)) + float64(m+1)*subnorm
}

// Roundoff bounds the rounding error of float64 evaluation over box:
// for every input x of box (raw, before the input transform) and every
// output j, |Eval(x)_j - f_j(x)| <= err[j], where f is the network in
// exact real arithmetic. ok is false when an intermediate value might
// exceed 2^1000 in magnitude on the box (evaluation might overflow);
// err is nil then.
//
// A final Softmax or LogSoftmax is not analysed: ok is false for such
// networks (prover.prepare handles them in softmax.go).
func (n *Network) Roundoff(box Box) (err []float64, ok bool) {
	if n.Out != OutNone {
		return nil, false
	}
	_, _, err, ok = n.roundoff(box)
	return err, ok
}

// roundoff is Roundoff without a final Softmax or LogSoftmax (the scores
// before it, whatever n.Out is), with outward-rounded intervals lo..hi
// of the exact scores over box.
func (n *Network) roundoff(box Box) (lo, hi, e []float64, ok bool) {
	nin := n.Inputs()
	if len(box.Lo) != nin || len(box.Hi) != nin {
		return nil, nil, nil, false
	}
	// Exact input intervals after the transform, and the error of the
	// transform's two roundings.
	lo, hi = make([]float64, nin), make([]float64, nin)
	e = make([]float64, nin)
	for i := range lo {
		l, h := box.Lo[i], box.Hi[i]
		if math.IsNaN(l) || math.IsNaN(h) || math.IsInf(l, 0) || math.IsInf(h, 0) {
			return nil, nil, nil, false
		}
		if n.InMin != nil {
			l, h = min(max(l, n.InMin[i]), n.InMax[i]), min(max(h, n.InMin[i]), n.InMax[i])
		}
		if n.InMean != nil {
			l = roundDown(roundDown(l-n.InMean[i]) / n.InRange[i])
			h = roundUp(roundUp(h-n.InMean[i]) / n.InRange[i])
			// fl(fl(x - m) / r) = (x - m)(1+d1)(1+d2) / r: error at most
			// gamma_2 |(x - m) / r|, plus subnormal results.
			e[i] = roundUp(gamma(2)*max(math.Abs(l), math.Abs(h))) + 2*subnorm
		}
		lo[i], hi[i] = l, h
	}
	for k := range n.Layers {
		l := &n.Layers[k]
		nlo, nhi, ne := make([]float64, l.Out), make([]float64, l.Out), make([]float64, l.Out)
		g := gamma(l.In + 1)
		for i := 0; i < l.Out; i++ {
			b := l.B[i]
			sl, sh := b, b
			mag, prop := math.Abs(b), 0.0
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				p, q := w*lo[j], w*hi[j]
				if p > q {
					p, q = q, p
				}
				sl, sh = roundDown(sl+roundDown(p)), roundUp(sh+roundUp(q))
				aw := math.Abs(w)
				a := roundUp(max(math.Abs(lo[j]), math.Abs(hi[j])) + e[j])
				mag += aw * a
				prop += aw * e[j]
			}
			mag, prop = inflate(mag, l.In+1), inflate(prop, l.In)
			if !(mag <= maxMagnitude) || !(sh <= maxMagnitude) || !(sl >= -maxMagnitude) {
				return nil, nil, nil, false
			}
			ei := inflate(roundUp(g*mag)+prop, 2) + float64(l.In+1)*subnorm
			nlo[i], nhi[i], ne[i] = activate(l, sl, sh, ei)
		}
		lo, hi, e = nlo, nhi, ne
	}
	if n.OutMean != nil {
		for i := range e {
			r, m := math.Abs(n.OutRange[i]), math.Abs(n.OutMean[i])
			a := roundUp(max(math.Abs(lo[i]), math.Abs(hi[i])) + e[i])
			mag := inflate(a*r+m, 2)
			if !(mag <= maxMagnitude) {
				return nil, nil, nil, false
			}
			// fl(fl(y^ R) + M) against y R + M: |R| e from the input's
			// error, gamma_2 (|y^| |R| + |M|) from the two roundings.
			e[i] = inflate(roundUp(r*e[i])+roundUp(gamma(2)*mag), 2) + 2*subnorm
			// The range is positive: the transform is increasing.
			lo[i] = roundDown(roundDown(lo[i]*n.OutRange[i]) + n.OutMean[i])
			hi[i] = roundUp(roundUp(hi[i]*n.OutRange[i]) + n.OutMean[i])
		}
	}
	for _, v := range e {
		if !(v <= maxMagnitude) {
			return nil, nil, nil, false
		}
	}
	return lo, hi, e, true
}
