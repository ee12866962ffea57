package cert

// Interval branch and bound for network facts: a method of its own (not
// nn's linear bound propagation), in float64 interval arithmetic rounded
// outward after every operation, so that each interval holds the exact
// real value of the network on the box's float64 inputs: inputs are
// bounded exactly in rationals (an affine input is extreme at the box's
// corners) and then rounded outward; every product and sum of a layer is
// rounded outward too. Alongside, a forward error analysis bounds how far
// float64 evaluation, which the policy runs, is from those exact values
// (enclose). A box where every output of Label is beaten by an output of
// Sure over the whole interval, by more than the rounding errors, is
// done; a box of at most intervalExact states is decided state by state
// by float64 evaluation; any other box is split in two on the variable that moves
// the inputs most. Beyond intervalBoxes boxes the caller falls back to
// one SMT query over the whole box.

import (
	"context"
	"math"
	"math/big"

	"vigil/symbolic"
)

// intervalBoxes bounds the boxes one fact's interval search bounds, and
// boxes of at most intervalExact states are evaluated state by state
// (splitting further costs about as much as exact evaluation there).
const (
	intervalBoxes = 200_000
	intervalExact = 16
	// regionLPBoxes bounds the boxes of one fact's search whose first
	// layer is bounded by linear programs over a region (each costs a
	// phase 1 of the exact simplex and two dual bounds per neuron).
	regionLPBoxes = 4096
)

func down(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
func up(x float64) float64   { return math.Nextafter(x, math.Inf(1)) }

// ratDown and ratUp round a rational outward to float64.
func ratDown(r *big.Rat) float64 {
	f, exact := r.Float64()
	if exact {
		return f
	}
	return down(f)
}

func ratUp(r *big.Rat) float64 {
	f, exact := r.Float64()
	if exact {
		return f
	}
	return up(f)
}

// mulIv is an outward-rounded enclosure of w * [lo, hi] for a float w.
func mulIv(w, lo, hi float64) (float64, float64) {
	a, b := w*lo, w*hi
	if a > b {
		a, b = b, a
	}
	return down(a), up(b)
}

// inputBounds returns outward-rounded bounds of the network's float64
// inputs over the state box lo..hi, before clipping and normalisation: an
// input is its exact affine value rounded to the nearest float64
// (Affine.Eval), so it lies between the exact extremes (at the box's
// corners) rounded outward.
func (ev *exactNet) inputBounds(lo, hi []int) (xl, xh []float64) {
	t := new(big.Rat)
	for i, row := range ev.coef {
		l, h := new(big.Rat).Set(ev.konst[i]), new(big.Rat).Set(ev.konst[i])
		for v, c := range row {
			if c == nil {
				continue
			}
			a, b := lo[v], hi[v]
			if c.Sign() < 0 {
				a, b = b, a
			}
			l.Add(l, t.Mul(c, t.SetInt64(int64(a))))
			h.Add(h, t.Mul(c, t.SetInt64(int64(b))))
		}
		xl, xh = append(xl, ratDown(l)), append(xh, ratUp(h))
	}
	return xl, xh
}

// Rounding error of float64 evaluation (lang/spec.md, Policies), bounded
// independently of nn's analysis. A dense layer's sum
// s = fl(..fl(b + fl(w_1 x_1)) + .. + fl(w_n x_n)) of computed inputs x^
// differs from the exact W x^ + b by at most
// gamma_{n+1} (|W| |x^| + |b|) (gamma_m = m u / (1 - m u), u = 2^-53), plus
// 2^-1074 per operation for subnormal results, and W x^ from W x by
// |W| |x^ - x|; ReLU does not increase a difference. Each bound is a sum
// of non-negative terms computed in float64 and inflated by
// (m+4) 2^-50, more than its own rounding can lose.
const (
	unitRound = 0x1p-53
	tinyErr   = 0x1p-1074
	// maxMag is the largest magnitude a value may reach on a box for the
	// analysis to hold: beyond it evaluation might overflow to an
	// infinity, and only evaluation state by state decides.
	maxMag = 0x1p1000
)

func gammaUp(m int) float64 {
	mu := float64(m) * unitRound
	return up(up(mu / (1 - mu)))
}

func sumUp(s float64, m int) float64 {
	return up(s*(1+float64(m+4)*0x1p-50)) + float64(m+1)*tinyErr
}

// Tanh and Sigmoid are not correctly rounded in float64. The checker
// assumes what nn's tests check against 200-bit references
// (TestTanhSigmoidAccuracy): math.Tanh and sigmoid's 1/(1+math.Exp(-s))
// are within 16 u relative plus 2^-1000 absolute of the exact function
// (the measured worst cases are about 1.7 u and 2.2 u).
const (
	fnRel = 16 * unitRound
	fnAbs = 0x1p-1000
)

// fnEval is the activation as float64 evaluation computes it
// (lang/spec.md, Policies), written here again rather than taken from nn.
func fnEval(l *symbolic.Layer, x float64) float64 {
	switch l.Act {
	case symbolic.ActTanh:
		return math.Tanh(x)
	case symbolic.ActSigmoid:
		e := math.Exp(-x)
		d := 1 + e
		return 1 / d
	}
	return x
}

// activation maps the exact pre-activation interval [sl, sh] and the
// error bound e of the float64 sum through l's activation. Every
// activation is monotone: the exact interval is the ends' values,
// enclosed outward (Tanh and Sigmoid by fnRel and fnAbs, clamped to their
// ranges). The float64 activation of the computed sum differs from the
// exact activation of the exact sum by the function's Lipschitz constant
// times e (ReLU, Clip, LeakyReLU with slope in [0, 1] and Tanh: 1; Sigmoid:
// 1/4) plus its own rounding: none for ReLU and Clip, u a |s^| for LeakyReLU's
// product where the computed sum s^ is negative, fnRel + fnAbs for Tanh and Sigmoid (|f| <= 1). ok is false for
// an activation the checker does not know.
func activation(l *symbolic.Layer, sl, sh, e float64) (lo, hi, err float64, ok bool) {
	switch l.Act {
	case symbolic.ActLinear:
		return sl, sh, e, true
	case symbolic.ActReLU:
		return max(sl, 0), max(sh, 0), e, true
	case symbolic.ActClip:
		// Exact in float64 and 1-Lipschitz, as ReLU.
		if !(l.Lo <= l.Hi) {
			return 0, 0, 0, false
		}
		return min(max(sl, l.Lo), l.Hi), min(max(sh, l.Lo), l.Hi), e, true
	case symbolic.ActLeakyReLU:
		a := l.Slope
		if !(a >= 0 && a <= 1) {
			return 0, 0, 0, false
		}
		lo, hi = sl, sh
		if sl < 0 {
			lo = down(a * sl)
		}
		if sh < 0 {
			hi = up(a * sh)
		}
		// a s^ is rounded only where the computed sum s^ is negative,
		// down to sl - e: u a |s^| <= u a (e - sl)
		m := up(a * up(max(e-sl, 0)))
		switch {
		case up(sh+e) <= 0:
			// the exact and the computed sum both on the slope a side:
			// a |s^ - s| <= a e
			return lo, hi, sumUp(up(a*e)+up(unitRound*m), 2) + tinyErr, true
		case down(sl-e) >= 0:
			// both on the identity side: exact
			return lo, hi, e, true
		}
		return lo, hi, sumUp(e+up(unitRound*m), 2) + tinyErr, true
	case symbolic.ActTanh, symbolic.ActSigmoid:
		floor, lip := -1.0, 1.0
		if l.Act == symbolic.ActSigmoid {
			floor, lip = 0, 0.25
		}
		vl, vh := fnEval(l, sl), fnEval(l, sh)
		lo = max(down(vl-up(fnRel*math.Abs(vl))-fnAbs), floor)
		hi = min(up(vh+up(fnRel*math.Abs(vh))+fnAbs), 1)
		return lo, hi, sumUp(up(lip*e)+fnRel, 2) + fnAbs, true
	}
	return 0, 0, 0, false
}

// enclosure is the result of propagating a box through the network:
// intervals holding the exact network's values on the box's float64
// inputs, and bounds on how far float64 evaluation is from them.
type enclosure struct {
	cl, ch   []float64 // the last layer's inputs (exact activations)
	outLo    []float64 // per output: the exact score's interval
	outHi    []float64
	err      []float64 // per output: |float64 score - exact score| <= err
	finite   bool      // false: evaluation might overflow on the box
	lastDiff bool      // the last layer has no ReLU and no output transform
}

// enclose propagates the input box xl..xh (float64 inputs before the
// input transform) through net.
//
// A final Softmax or LogSoftmax is not enclosed: the enclosure is of the
// scores before it, and beaten accounts for it (outFunction).
//
// pre, when not nil, bounds the first layer's sums (their exact values on
// the float64 inputs) more tightly than intervals do, over a region with
// linear atoms (preBounds); each sum's interval is intersected with it.
func (ev *exactNet) enclose(net *symbolic.Network, xl, xh []float64, pre *preBounds) enclosure {
	n := len(xl)
	cl, ch, e := make([]float64, n), make([]float64, n), make([]float64, n)
	for i := range xl {
		l, h := xl[i], xh[i]
		if math.IsInf(l, 0) || math.IsInf(h, 0) || math.IsNaN(l) || math.IsNaN(h) {
			return enclosure{}
		}
		rl, rh := floatRat(l), floatRat(h)
		ev.clipNormalise(i, rl)
		ev.clipNormalise(i, rh)
		if rl.Cmp(rh) > 0 {
			rl, rh = rh, rl
		}
		cl[i], ch[i] = ratDown(rl), ratUp(rh)
		if ev.mean[i] != nil {
			// fl(fl(x - mean) / range): two roundings of (x - mean) / range.
			e[i] = up(gammaUp(2)*max(math.Abs(cl[i]), math.Abs(ch[i]))) + 2*tinyErr
		}
	}
	last := len(net.Layers) - 1
	var outLo, outHi, err []float64
	for k, l := range net.Layers {
		nl, nh, ne := make([]float64, l.Out), make([]float64, l.Out), make([]float64, l.Out)
		g := gammaUp(l.In + 1)
		for i := 0; i < l.Out; i++ {
			sl, sh := l.B[i], l.B[i]
			mag, prop := math.Abs(l.B[i]), 0.0
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				a, b := mulIv(w, cl[j], ch[j])
				sl, sh = down(sl+a), up(sh+b)
				mag += math.Abs(w) * up(max(math.Abs(cl[j]), math.Abs(ch[j]))+e[j])
				prop += math.Abs(w) * e[j]
			}
			mag, prop = sumUp(mag, l.In+1), sumUp(prop, l.In)
			if k == 0 && pre != nil && max(sl, pre.lo[i]) <= min(sh, pre.hi[i]) {
				sl, sh = max(sl, pre.lo[i]), min(sh, pre.hi[i])
			}
			if !(mag <= maxMag && sh <= maxMag && sl >= -maxMag) {
				return enclosure{}
			}
			ei := sumUp(up(g*mag)+prop, 2) + float64(l.In+1)*tinyErr
			var ok bool
			if nl[i], nh[i], ne[i], ok = activation(&l, sl, sh, ei); !ok {
				return enclosure{}
			}
		}
		if k == last {
			outLo, outHi, err = nl, nh, ne
			break
		}
		cl, ch, e = nl, nh, ne
	}
	l := net.Layers[last]
	if ev.omul != nil {
		for i := range err {
			ml, mh := ratDown(ev.omul[i]), ratUp(ev.omul[i])
			al, ah := ratDown(ev.oadd[i]), ratUp(ev.oadd[i])
			sl, sh := outLo[i], outHi[i]
			p := []float64{ml * sl, ml * sh, mh * sl, mh * sh}
			r, m := math.Abs(mh), math.Abs(ah)
			y := up(max(math.Abs(sl), math.Abs(sh)) + err[i])
			mag := sumUp(r*y+m, 2)
			if !(mag <= maxMag) {
				return enclosure{}
			}
			// fl(fl(y^ R) + M) against y R + M.
			err[i] = sumUp(up(r*err[i])+up(gammaUp(2)*mag), 2) + 2*tinyErr
			outLo[i] = down(down(min(p[0], p[1], p[2], p[3])) + al)
			outHi[i] = up(up(max(p[0], p[1], p[2], p[3])) + ah)
		}
	}
	for _, v := range err {
		if !(v <= maxMag) {
			return enclosure{}
		}
	}
	return enclosure{cl: cl, ch: ch, outLo: outLo, outHi: outHi, err: err, finite: true,
		lastDiff: ev.omul == nil && l.Act == symbolic.ActLinear}
}

// beaten reports whether, over the float64 input box xl..xh, every output
// of the fact's label is beaten by some output of sure in float64
// evaluation: the exact scores' bounds, widened by the rounding errors,
// leave the sure output strictly higher throughout. Where evaluation
// might overflow nothing is beaten (small boxes are then evaluated state
// by state).
func (q *question) beaten(net *symbolic.Network, ev *exactNet, xl, xh []float64, pre *preBounds) bool {
	en := ev.enclose(net, xl, xh, pre)
	if !en.finite {
		return false
	}
	cl, ch := en.cl, en.ch
	l := net.Layers[len(net.Layers)-1]
	// score(j) - score(i) over the last layer's input box: the difference
	// of the two rows, each weight difference enclosed.
	diff := func(j, i int) float64 {
		if !en.lastDiff {
			return math.Inf(-1) // bounded per output below
		}
		s := down(l.B[j] - l.B[i])
		for k := 0; k < l.In; k++ {
			dl, dh := down(l.W[j*l.In+k]-l.W[i*l.In+k]), up(l.W[j*l.In+k]-l.W[i*l.In+k])
			p := min(dl*cl[k], dl*ch[k], dh*cl[k], dh*ch[k])
			s = down(s + down(p))
		}
		return s
	}
	extra, usable := outFunction(net, en)
	for _, i := range q.label {
		ih := up(up(en.outHi[i]+en.err[i]) + extra)
		ok := false
		for _, j := range q.sure {
			if j == i || !usable(j) {
				continue
			}
			slack := up(up(en.err[i]+en.err[j]) + extra)
			if d := diff(j, i); d > slack {
				ok = true
				break
			}
			if jl := down(en.outLo[j] - en.err[j]); jl > ih {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// outFunction returns what a final Softmax or LogSoftmax adds to the
// margin by which a score must beat another before the function for it
// to beat it after, in float64, and which outputs may beat others at all
// (derived in nn/softmax.go's terms, written here again). With Z bounding
// every float64 score before the function, u = 2^-53 and n outputs:
// LogSoftmax subtracts the maximum and then log of the sum, each rounded
// (at most u (2 Z + log n + 1) each), so 16 u (Z + log n + 1) covers
// both scores' errors twice over. Softmax exponentiates (2 u relative)
// and divides by the same sum; when the winner's exponent t >= -700 its
// exponential is far from the subnormal range, and a gap of 1e-9 in t
// survives the relative errors: 16 u Z + 1e-9, for outputs whose score
// is at least the largest score minus 690 over the whole box.
func outFunction(net *symbolic.Network, en enclosure) (extra float64, usable func(j int) bool) {
	all := func(int) bool { return true }
	if net.Out == symbolic.OutNone {
		return 0, all
	}
	z, top := 0.0, math.Inf(-1)
	for j := range en.err {
		z = max(z, up(max(math.Abs(en.outLo[j]), math.Abs(en.outHi[j]))+en.err[j]))
		top = max(top, up(en.outHi[j]+en.err[j]))
	}
	if net.Out == symbolic.OutLogSoftmax {
		return up(16 * unitRound * up(z+math.Log(float64(len(en.err)))+1)), all
	}
	return up(up(16*unitRound*z) + 1e-9), func(j int) bool {
		return down(down(en.outLo[j]-en.err[j])-top) >= -690
	}
}

// intervalProof decides the fact on lo..hi by interval branch and bound
// (see the top of this file): done with a nil error when it holds, a
// *FactFailure from the exact evaluation of a small box when it does not,
// and not done when the search ran out of boxes.
func (q *question) intervalProof(ctx context.Context, net *symbolic.Network, ev *exactNet, lo, hi []int) (done bool, err error) {
	if len(q.label) == 0 {
		return true, nil
	}
	type item struct{ lo, hi []int }
	stack := []item{{append([]int(nil), lo...), append([]int(nil), hi...)}}
	lps := 0
	for n := 0; len(stack) > 0; n++ {
		if n == intervalBoxes {
			return false, nil
		}
		if n%256 == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		xl, xh := ev.inputBounds(b.lo, b.hi)
		// Over a region with atoms: a part of the box without a point of
		// the region is dropped, and where intervals over the box do not
		// decide, the first layer's sums are bounded over the region's
		// real relaxation (preBounds), for at most regionLPBoxes boxes of
		// the search (intervals alone after that, which is sound too).
		var cut []symbolic.Atom
		if len(q.atoms) > 0 {
			var empty bool
			if cut, empty = cutAtoms(b.lo, b.hi, q.atoms); empty {
				continue
			}
		}
		if q.beaten(net, ev, xl, xh, nil) {
			continue
		}
		if len(cut) > 0 && lps < regionLPBoxes {
			lps++
			poly, ok := newPolytope(b.lo, b.hi, cut)
			if !ok || q.beaten(net, ev, xl, xh, ev.preBounds(net, poly, xl, xh)) {
				continue
			}
		}
		if boxSize(b.lo, b.hi) <= intervalExact {
			err := q.evaluate(ctx, ev, b.lo, b.hi)
			if err != nil {
				return true, err
			}
			continue
		}
		// Split the variable that moves the inputs most.
		best, score := -1, 0.0
		for v := range b.lo {
			if b.hi[v] == b.lo[v] {
				continue
			}
			s := 0.0
			for _, row := range ev.coef {
				if c := row[v]; c != nil {
					f, _ := c.Float64()
					s += math.Abs(f)
				}
			}
			if s *= float64(b.hi[v] - b.lo[v]); best < 0 || s > score {
				best, score = v, s
			}
		}
		mid := b.lo[best] + (b.hi[best]-b.lo[best])/2
		l, h := append([]int(nil), b.hi...), append([]int(nil), b.lo...)
		l[best], h[best] = mid, mid+1
		stack = append(stack, item{b.lo, l}, item{h, b.hi})
	}
	return true, nil
}

// preBounds are bounds on the first layer's sums (exact values on the
// float64 inputs), one interval per neuron.
type preBounds struct{ lo, hi []float64 }

// preBounds bounds each sum of the first layer over the real points of
// poly (a region's relaxation within a box whose float64 inputs lie in
// xl..xh). An input whose clipping may act on the box enters as its
// interval (as enclose computes it); any other is affine in the state,
// clipNormalise(x) = (x - mean) / range, so the sum restricted to those
// inputs is an affine function of the state, bounded by weak duality
// (polytope.upperBound: exact arithmetic, multipliers from a float64
// simplex), then widened by the rounding of each input to float64
// (|fl(x) - x| <= 2^-53 |x| + 2^-1075, times |w| / range).
func (ev *exactNet) preBounds(net *symbolic.Network, poly *polytope, xl, xh []float64) *preBounds {
	l := net.Layers[0]
	n := len(ev.coef)
	nv := poly.n
	affine := make([]bool, n)
	scale, shift := make([]*big.Rat, n), make([]*big.Rat, n) // norm(x) = scale*x + shift
	cl, ch := make([]float64, n), make([]float64, n)
	for j := range n {
		rl, rh := floatRat(xl[j]), floatRat(xh[j])
		affine[j] = (ev.lo[j] == nil || rl.Cmp(ev.lo[j]) >= 0) && (ev.hi[j] == nil || rh.Cmp(ev.hi[j]) <= 0)
		scale[j], shift[j] = big.NewRat(1, 1), new(big.Rat)
		if ev.mean[j] != nil {
			scale[j].Set(ev.inv[j])
			shift[j].Neg(new(big.Rat).Mul(ev.mean[j], ev.inv[j]))
		}
		ev.clipNormalise(j, rl)
		ev.clipNormalise(j, rh)
		if rl.Cmp(rh) > 0 {
			rl, rh = rh, rl
		}
		cl[j], ch[j] = ratDown(rl), ratUp(rh)
	}
	pb := &preBounds{lo: make([]float64, l.Out), hi: make([]float64, l.Out)}
	t := new(big.Rat)
	for i := 0; i < l.Out; i++ {
		konst := floatRat(l.B[i])
		c := make([]*big.Rat, nv)
		widen, nl, nh := 0.0, 0.0, 0.0
		for j, w := range l.W[i*l.In : (i+1)*l.In] {
			if w == 0 {
				continue
			}
			if !affine[j] {
				a, b := mulIv(w, cl[j], ch[j])
				nl, nh = down(nl+a), up(nh+b)
				continue
			}
			ws := new(big.Rat).Mul(floatRat(w), scale[j])
			// w * (scale * (konst_j + sum coef x) + shift)
			konst.Add(konst, t.Mul(ws, ev.konst[j]))
			konst.Add(konst, t.Mul(floatRat(w), shift[j]))
			for v, cv := range ev.coef[j] {
				if cv == nil {
					continue
				}
				if c[v] == nil {
					c[v] = new(big.Rat)
				}
				c[v].Add(c[v], t.Mul(ws, cv))
			}
			mag := up(max(math.Abs(xl[j]), math.Abs(xh[j])))
			widen += up(math.Abs(ratUp(new(big.Rat).Abs(ws))) * up(unitRound*mag+tinyErr))
		}
		widen = sumUp(widen, l.In)
		lo, hi := poly.lowerBound(konst, c), poly.upperBound(konst, c)
		pb.lo[i] = down(down(ratDown(lo)-widen) + nl)
		pb.hi[i] = up(up(ratUp(hi)+widen) + nh)
	}
	return pb
}
