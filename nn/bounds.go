package nn

// Output bounds over an input box.
//
// IBP pushes intervals through every layer. CROWN (Zhang et al. 2018, as
// in auto_LiRPA; anchors.md "Neural networks") bounds a linear function
// A·z_k + c of a layer's pre-activations from below by a backward pass:
// at a ReLU with pre-activation bounds l < 0 < u it uses the upper line
// slope u/(u-l), intercept -l*u/(u-l) for negative coefficients and the
// lower line slope alpha (1 if u > -l else 0), intercept 0 for
// non-negative ones; at a dense layer the bias is added and A becomes
// A·W. The result is concretised over the box: lb = sum over inputs of
// A+ lo + A- hi, plus the bias. Upper bounds are minus the lower bounds of
// -A.
//
// Tanh, Sigmoid, LeakyReLU and Clip are relaxed by the lines of relax.go: the
// lower line where the coefficient is non-negative, the upper one where
// it is negative.
//
// Intermediate pre-activation bounds come from IBP; with CROWN (and Both)
// each layer's unstable neurons (l < 0 < u, for Clip l < kink < u; for Tanh and Sigmoid every
// neuron whose interval is not a point) are then tightened by their
// own backward pass, and with Both the result is intersected with IBP.
// Stable neurons need no pass: their relaxation is exact whatever their
// bounds. The first layer's IBP bounds are exact.
//
// The input transform (clip, normalise) is monotone, so a box maps to a
// box; the output transform y*r+m is folded into the specification rows.

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// Box is an axis-aligned box of network inputs, Lo[i] <= x[i] <= Hi[i].
type Box struct {
	Lo, Hi []float64
}

// Method selects how bounds are computed.
type Method int

const (
	Both  Method = iota // CROWN intersected with IBP, at every layer
	IBP                 // interval bound propagation
	CROWN               // backward linear relaxation, intermediate bounds by CROWN on unstable neurons
	Alpha               // Both, with the final lower slopes optimised (alpha-CROWN)
)

func (m Method) String() string {
	switch m {
	case IBP:
		return "ibp"
	case CROWN:
		return "crown"
	case Alpha:
		return "alpha"
	}
	return "both"
}

// ParseMethod reads "ibp", "crown" or "both".
func ParseMethod(s string) (Method, error) {
	switch s {
	case "ibp":
		return IBP, nil
	case "crown":
		return CROWN, nil
	case "both", "":
		return Both, nil
	case "alpha":
		return Alpha, nil
	}
	return 0, fmt.Errorf("nn: unknown bound method %q (want ibp, crown, both or alpha)", s)
}

func (n *Network) checkBox(b Box) error {
	if len(b.Lo) != n.Inputs() || len(b.Hi) != n.Inputs() {
		return fmt.Errorf("nn: the box has %d/%d bounds but the network has %d inputs", len(b.Lo), len(b.Hi), n.Inputs())
	}
	for i := range b.Lo {
		if math.IsNaN(b.Lo[i]) || math.IsNaN(b.Hi[i]) || b.Lo[i] > b.Hi[i] {
			return fmt.Errorf("nn: input %d: the box [%v, %v] is empty or not a number", i, b.Lo[i], b.Hi[i])
		}
		if math.IsInf(b.Lo[i], 0) || math.IsInf(b.Hi[i], 0) {
			return fmt.Errorf("nn: input %d: the box [%v, %v] is unbounded; give finite bounds", i, b.Lo[i], b.Hi[i])
		}
	}
	return nil
}

// Bounds returns lower and upper bounds over box of every output (C ==
// nil) or of every linear combination C[r]·f(x) (each row has Outputs()
// entries).
//
// The bounds are about the network in exact arithmetic, computed in
// float64 without outward rounding: they may miss the exact value (and the
// float64 evaluation) by rounding errors, which the policy certifiers
// cover with a margin (prove.go, roundoff.go); lower <= upper always. A
// bound the float64 bound arithmetic cannot compute (it overflows on a
// box of huge values) is infinite: -Inf for a lower, +Inf for an upper
// bound, never NaN.
//
// Networks ending in Softmax or LogSoftmax are not bounded (an error):
// the policy engines bound the scores before the function (softmax.go).
func (n *Network) Bounds(box Box, C [][]float64, m Method) (lo, hi []float64, err error) {
	if err := n.checkBox(box); err != nil {
		return nil, nil, err
	}
	if n.Out != OutNone {
		return nil, nil, fmt.Errorf("nn: the network ends in %s, which vigil does not bound; bound a copy of the network without it to see the scores before it", n.Out)
	}
	if C == nil {
		for i := 0; i < n.Outputs(); i++ {
			row := make([]float64, n.Outputs())
			row[i] = 1
			C = append(C, row)
		}
	}
	for r, row := range C {
		if len(row) != n.Outputs() {
			return nil, nil, fmt.Errorf("nn: row %d of the output combination has %d entries, want %d", r, len(row), n.Outputs())
		}
	}
	k := len(C)
	rows := make([]float64, 2*k*n.Outputs())
	for r, row := range C {
		for j, v := range row {
			rows[r*n.Outputs()+j] = v
			rows[(k+r)*n.Outputs()+j] = -v
		}
	}
	b := newBounder(n)
	lb := b.lower(box, rows, m)
	lo, hi = make([]float64, k), make([]float64, k)
	for r := 0; r < k; r++ {
		lo[r], hi[r] = lb[r], -lb[k+r]
		// A bound is not a number when the bound arithmetic overflows
		// float64 on the box (Inf - Inf): nothing is known then.
		if math.IsNaN(lo[r]) {
			lo[r] = math.Inf(-1)
		}
		if math.IsNaN(hi[r]) {
			hi[r] = math.Inf(1)
		}
		// The bounds are computed in float64, each method in its own
		// order of operations: where they meet (a box of one point), the
		// intersection of two methods' bounds can cross by a rounding
		// error. The interval between them holds both.
		if lo[r] > hi[r] {
			lo[r], hi[r] = hi[r], lo[r]
		}
	}
	return lo, hi, nil
}

// bounder holds the scratch space of bound computations for one network.
type bounder struct {
	net    *Network
	layers []Layer
	xlo    []float64 // the normalised input box
	xhi    []float64
	lo, hi [][]float64 // pre-activation bounds per layer
	A, A2  []float64   // backward coefficient buffers
	infl   []float64   // sum of |A| per raw input unit, of the last lower() call
	lastA  []float64   // the input coefficients of the rows of the last lower() call (CROWN)
	passes int         // backward passes done (for figures)

	// ReLU split constraints (see bab.go): phase[j][i] is +1 when neuron
	// i of layer j is restricted to z >= 0, -1 for z <= 0, 0 when free.
	// nil when no split is set. empty records that the last lower()
	// found the split constraints contradict each other over the box.
	phase [][]int8
	empty bool
	// tol: per layer and neuron, the gap beyond 0 at which clamp finds a
	// split domain empty (emptyTol); nil until needed for the box.
	tol [][]float64
	// spec, off: the rows of the last lower() call with the output
	// transform folded in (used to rank ReLU splits).
	spec, off []float64
	wm        []*mat.Dense // the layers' weights for gonum (weights)
	// alpha-CROWN warm starts (alpha.go): with keepWarm, alphaLower
	// leaves its best slopes and multipliers in warmOut and starts from
	// warmIn when it has the right length.
	warmIn, warmOut []float64
	keepWarm        bool
	// postLo, postHi: scratch for the activated bounds of a layer (IBP).
	postLo, postHi []float64
	// reg, when set, bounds linear functions of the inputs over a region
	// of states rather than the input box (region.go): the first
	// layer's pre-activations and every backward pass take the better
	// of the two bounds.
	reg *regionBounds
}

func newBounder(n *Network) *bounder {
	b := &bounder{net: n, layers: n.Layers}
	if n.Layers[len(n.Layers)-1].Act != ActLinear {
		// Bound activated outputs through an identity layer.
		k := n.Outputs()
		id := Layer{In: k, Out: k, W: make([]float64, k*k), B: make([]float64, k)}
		for i := 0; i < k; i++ {
			id.W[i*k+i] = 1
		}
		b.layers = append(append([]Layer(nil), n.Layers...), id)
	}
	b.xlo, b.xhi = make([]float64, n.Inputs()), make([]float64, n.Inputs())
	for _, l := range b.layers {
		b.lo = append(b.lo, make([]float64, l.Out))
		b.hi = append(b.hi, make([]float64, l.Out))
	}
	b.infl = make([]float64, n.Inputs())
	return b
}

// setBox normalises box into xlo/xhi.
func (b *bounder) setBox(box Box) {
	copy(b.xlo, box.Lo)
	copy(b.xhi, box.Hi)
	b.net.normalize(b.xlo)
	b.net.normalize(b.xhi)
}

// ibp computes interval pre-activation bounds of layers from..end, given
// those before from.
func (b *bounder) ibp(from int) { b.ibpTo(from, len(b.layers)) }

// ibpTo computes interval pre-activation bounds of layers from..to-1.
func (b *bounder) ibpTo(from, to int) {
	for k := from; k < to; k++ {
		l := &b.layers[k]
		var plo, phi []float64
		if k == 0 {
			plo, phi = b.xlo, b.xhi
		} else {
			plo, phi = b.lo[k-1], b.hi[k-1]
		}
		var prev *Layer
		if k > 0 && b.layers[k-1].Act != ActLinear {
			prev = &b.layers[k-1]
			b.postLo, b.postHi = b.buf(&b.postLo, len(plo)), b.buf(&b.postHi, len(phi))
			for j := range plo {
				b.postLo[j], b.postHi[j] = postBounds(prev, plo[j], phi[j])
			}
			plo, phi = b.postLo, b.postHi
		}
		for i := 0; i < l.Out; i++ {
			row := l.W[i*l.In : (i+1)*l.In]
			lo, hi := l.B[i], l.B[i]
			for j, w := range row {
				xl, xh := plo[j], phi[j]
				if w == 0 {
					continue
				}
				if w >= 0 {
					lo += w * xl
					hi += w * xh
				} else {
					lo += w * xh
					hi += w * xl
				}
			}
			if k == 0 && b.reg != nil {
				// W and B are exact: the region's bounds are rigorous.
				rl, rh := b.reg.lower(row, row, l.B[i]), b.reg.upper(row, row, l.B[i])
				if rl > rh {
					b.empty = true // no state of the region
				}
				lo, hi = max(lo, rl), min(hi, rh)
				if lo > hi {
					lo, hi = rl, rh
				}
			}
			b.lo[k][i], b.hi[k][i] = lo, hi
		}
		b.clamp(k)
	}
}

// clamp applies the split constraints of layer k to its bounds: z >= 0
// raises the lower bound to 0, z <= 0 lowers the upper bound to 0. This
// is sound on the split domain, a subset of the box. When a bound already
// excludes the constrained side by more than its rounding error can
// explain (emptyTol), the domain is empty.
func (b *bounder) clamp(k int) {
	if b.phase == nil || b.phase[k] == nil {
		return
	}
	lo, hi := b.lo[k], b.hi[k]
	for i, ph := range b.phase[k] {
		switch ph {
		case 1:
			if hi[i] < -b.emptyTol(k, i) {
				b.empty = true
			}
			lo[i], hi[i] = max(lo[i], 0), max(hi[i], 0)
		case -1:
			if lo[i] > b.emptyTol(k, i) {
				b.empty = true
			}
			lo[i], hi[i] = min(lo[i], 0), min(hi[i], 0)
		}
	}
}

// emptyTol is how far beyond 0 a computed bound of neuron i of layer k
// must lie for clamp to find its split domain empty: the margin, plus
// four times gamma of the longest chain of roundings a bound of the
// neuron goes through (IBP's or a backward pass's), times the magnitude
// tol (setTol) of the terms that bound sums. The bounds are computed in
// float64 without outward rounding; with the absolute margin alone, a
// neuron z = b + w·x of terms about 2^41 whose exact value at the box
// (a point) is 3.6e-4 had its computed upper bound below -1e-9, and the
// domain z >= 0 holding that point was dropped as empty, while the
// sibling z <= 0 (bounded with a beta-CROWN term, and the ReLU taken as
// off) does not hold it (TestS33mClampRounding).
func (b *bounder) emptyTol(k, i int) float64 {
	if b.tol == nil {
		b.setTol()
	}
	return b.tol[k][i]
}

// setTol sets b.tol for the current box: with P the magnitude of the
// normalised inputs, each layer's P_k = |W_k| Q_(k-1) + |b_k|, where Q is
// P through the activation's relaxation (slope at most 1, intercept at
// most P or 1, a clip's bounds), so that P_k bounds the sum of the
// magnitudes of the terms of any bound of layer k's neurons.
func (b *bounder) setTol() {
	q := make([]float64, len(b.xlo))
	for i := range q {
		q[i] = max(math.Abs(b.xlo[i]), math.Abs(b.xhi[i]))
	}
	b.tol = make([][]float64, len(b.layers))
	chain := 0
	for k := range b.layers {
		l := &b.layers[k]
		chain += 3 * (l.In + l.Out + 4)
		g := 4 * gamma(chain)
		t := make([]float64, l.Out)
		next := make([]float64, l.Out)
		for i := range t {
			p := math.Abs(l.B[i])
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				p += math.Abs(w) * q[j]
			}
			p = inflate(p, l.In+1)
			t[i] = margin + g*p
			if !(t[i] <= math.MaxFloat64) {
				t[i] = math.Inf(1) // never empty
			}
			switch l.Act {
			case ActLinear:
				next[i] = p
			case ActClip:
				c := 0.0
				for _, v := range []float64{l.Lo, l.Hi} {
					if !math.IsInf(v, 0) {
						c = max(c, math.Abs(v))
					}
				}
				next[i] = 2*p + 1 + c
			default:
				next[i] = 2*p + 1
			}
		}
		b.tol[k], q = t, next
	}
}

// lower returns lower bounds of rows·f(x) over box (rows is m x Outputs,
// flat) and leaves the per-input influence of the rows in b.infl.
func (b *bounder) lower(box Box, rows []float64, m Method) []float64 {
	b.setBox(box)
	b.tol = nil
	n := b.net
	nout := n.Outputs()
	mr := len(rows) / nout
	// Fold the output transform into the rows.
	spec := make([]float64, len(rows))
	off := make([]float64, mr)
	copy(spec, rows)
	if n.OutMean != nil {
		for r := 0; r < mr; r++ {
			for j := 0; j < nout; j++ {
				c := rows[r*nout+j]
				spec[r*nout+j] = c * n.OutRange[j]
				off[r] += c * n.OutMean[j]
			}
		}
	}
	b.spec, b.off = spec, off
	b.lastA = b.lastA[:0]
	last := len(b.layers) - 1
	b.empty = false
	if m == IBP {
		b.ibp(0)
	} else {
		// Each layer's IBP bounds are needed only once the layers
		// before it are tightened.
		b.ibpTo(0, min(2, len(b.layers)))
		for k := 1; k < last && !b.empty; k++ {
			b.tighten(k, m != CROWN)
			b.clamp(k)
			b.ibpTo(k+1, k+2)
		}
	}
	lb := make([]float64, mr)
	if b.empty {
		// No input of the box meets the split constraints: every
		// bound holds vacuously.
		for r := range lb {
			lb[r] = math.Inf(1)
		}
		return lb
	}
	if m != CROWN {
		// Interval bound of the rows over the last pre-activations.
		for r := 0; r < mr; r++ {
			s := off[r]
			for j := 0; j < nout; j++ {
				c := spec[r*nout+j]
				if c >= 0 {
					s += c * b.lo[last][j]
				} else {
					s += c * b.hi[last][j]
				}
			}
			lb[r] = s
		}
		for i := range b.infl {
			b.infl[i] = 1 // no sensitivities from IBP: split the widest input
		}
	}
	if m == IBP {
		return lb
	}
	cb := b.backward(last, spec, off, true)
	for r := range lb {
		if m == CROWN || cb[r] > lb[r] {
			lb[r] = cb[r]
		}
	}
	if m == Alpha {
		ab := b.alphaLower(last, spec, off)
		for r := range lb {
			lb[r] = max(lb[r], ab[r])
		}
	}
	return lb
}

// tighten improves the bounds of layer k's unstable neurons by backward
// passes; with intersect it keeps the better of the old and new bounds.
func (b *bounder) tighten(k int, intersect bool) {
	l := &b.layers[k]
	var idx []int
	curved := l.Act == ActTanh || l.Act == ActSigmoid
	for i := 0; i < l.Out; i++ {
		// A curved activation's relaxation improves with any narrower
		// interval; a piecewise-linear one only where it is unstable.
		lo, hi := b.lo[k][i], b.hi[k][i]
		kinked := l.Act == ActClip && (lo < l.Lo && hi > l.Lo || lo < l.Hi && hi > l.Hi)
		if lo < 0 && hi > 0 || kinked || curved && hi-lo >= relaxFlat {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	m := len(idx)
	rows := make([]float64, 2*m*l.Out)
	for r, i := range idx {
		rows[r*l.Out+i] = 1
		rows[(m+r)*l.Out+i] = -1
	}
	lb := b.backward(k, rows, make([]float64, 2*m), false)
	for r, i := range idx {
		lo, hi := lb[r], -lb[m+r]
		if intersect {
			lo, hi = max(lo, b.lo[k][i]), min(hi, b.hi[k][i])
		}
		if lo > hi { // rounding on a (nearly) flat neuron
			lo, hi = min(lo, hi), max(lo, hi)
		}
		b.lo[k][i], b.hi[k][i] = lo, hi
	}
}

// backward returns lower bounds of rows·z_k + off over the box, where z_k
// is layer k's pre-activation (for k == last, its output). rows is m x
// Out_k, flat. With influence it records the sum over rows of |A| per raw
// (unnormalised) input unit in b.infl.
func (b *bounder) backward(k int, rows, off []float64, influence bool) []float64 {
	b.passes++
	m := len(off)
	l := &b.layers[k]
	// A·z_k = A·(W h + b): bias += A b, A = A W.
	bias := append([]float64(nil), off...)
	A := b.buf(&b.A, m*l.In)
	for r := 0; r < m; r++ {
		ar := A[r*l.In : (r+1)*l.In]
		clear(ar)
		src := rows[r*l.Out : (r+1)*l.Out]
		for i, c := range src {
			if c == 0 {
				continue
			}
			bias[r] += c * l.B[i]
			floats.AddScaled(ar, c, l.W[i*l.In:(i+1)*l.In])
		}
	}
	width := l.In
	for j := k - 1; j >= 0; j-- {
		lj := &b.layers[j]
		b.relaxBack(j, A, width, bias)
		// Through the dense layer j: bias += A b_j, A = A W_j.
		A2 := b.buf(&b.A2, m*lj.In)
		if m >= gemmRows {
			// Many rows (a layer's unstable neurons, both signs): one
			// matrix product for all of them.
			for r := 0; r < m; r++ {
				bias[r] += floats.Dot(A[r*width:(r+1)*width], lj.B)
			}
			out := mat.NewDense(m, lj.In, A2)
			out.Mul(mat.NewDense(m, width, A[:m*width]), b.weights(j))
			b.A, b.A2 = b.A2, b.A
			A = A2
			width = lj.In
			continue
		}
		for r := 0; r < m; r++ {
			ar := A[r*width : (r+1)*width]
			out := A2[r*lj.In : (r+1)*lj.In]
			clear(out)
			for i, a := range ar {
				if a == 0 {
					continue
				}
				bias[r] += a * lj.B[i]
				floats.AddScaled(out, a, lj.W[i*lj.In:(i+1)*lj.In])
			}
		}
		b.A, b.A2 = b.A2, b.A
		A = A2
		width = lj.In
	}
	// Concretise over the normalised input box.
	if influence {
		clear(b.infl)
		b.lastA = append(b.lastA[:0], A[:m*width]...)
	}
	for r := 0; r < m; r++ {
		s := bias[r]
		ar := A[r*width : (r+1)*width]
		rs := math.Inf(-1)
		if b.reg != nil && finiteAll(s, ar) {
			// The region's bound, taken where it is better.
			rs = b.reg.lower(ar, ar, s)
		}
		for i, a := range ar {
			if a >= 0 {
				s += a * b.xlo[i]
			} else {
				s += a * b.xhi[i]
			}
			if influence {
				b.infl[i] += math.Abs(a)
			}
		}
		bias[r] = max(noBound(s), rs)
	}
	if influence && b.net.InRange != nil {
		for i := range b.infl {
			b.infl[i] /= b.net.InRange[i]
		}
	}
	return bias
}

// noBound is s as a lower bound computed by the backward pass: -Inf (no
// bound) where s is +Inf or not a number. The pass multiplies weights
// before it meets the box, so a coefficient can overflow where the
// network's values do not: 1e300 (weight) * -1e16 (weight) = -Inf times
// the input bound -6.7e-301 made a lower bound +Inf where the row's
// value is about -2.3e300, and branch and bound proved the row positive
// (TestS31rBackwardOverflow). An overflowed coefficient or bias stays
// infinite or becomes NaN through the rest of the pass (nothing in it
// turns an infinity back into a finite number: a ReLU that is off zeroes
// a coefficient, and its term is 0 exactly), so the bound ends +Inf, NaN,
// or -Inf, which is no claim.
func noBound(s float64) float64 {
	if !(s < math.Inf(1)) {
		return math.Inf(-1)
	}
	return s
}

// finiteAll reports whether s and every a are finite.
func finiteAll(s float64, a []float64) bool {
	if math.IsInf(s, 0) || math.IsNaN(s) {
		return false
	}
	for _, v := range a {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return false
		}
	}
	return true
}

// relaxBack carries the rows A (len(bias) rows of width layer j's
// outputs) back through layer j's activation: each coefficient takes the
// slope of the activation's lower linear bound where it is non-negative
// and of the upper one where it is negative, adding the intercepts to
// bias.
func (b *bounder) relaxBack(j int, A []float64, width int, bias []float64) {
	m := len(bias)
	lj := &b.layers[j]
	if lj.Act == ActReLU {
		lo, hi := b.lo[j], b.hi[j]
		for i := 0; i < lj.Out; i++ {
			li, ui := lo[i], hi[i]
			switch {
			case li >= 0:
				continue
			case ui <= 0:
				for r := 0; r < m; r++ {
					A[r*width+i] = 0
				}
			default:
				su := ui / (ui - li)
				tu := -li * su
				sl := 0.0
				if ui > -li {
					sl = 1
				}
				for r := 0; r < m; r++ {
					a := A[r*width+i]
					if a >= 0 {
						A[r*width+i] = a * sl
					} else {
						A[r*width+i] = a * su
						bias[r] += a * tu
					}
				}
			}
		}
	} else if lj.Act != ActLinear {
		// Lower line where the coefficient is non-negative, upper
		// line where it is negative (relax.go).
		lo, hi := b.lo[j], b.hi[j]
		for i := 0; i < lj.Out; i++ {
			lw, up := relax(lj, lo[i], hi[i])
			for r := 0; r < m; r++ {
				a := A[r*width+i]
				switch {
				case a > 0:
					A[r*width+i] = a * lw.k
					bias[r] += a * lw.c
				case a < 0:
					A[r*width+i] = a * up.k
					bias[r] += a * up.c
				}
			}
		}
	}
}

// gemmRows is the fewest rows for which backward multiplies through a
// dense layer with gonum's matrix product rather than row by row (which
// skips zero coefficients).
const gemmRows = 16

// weights returns layer j's weights as a gonum matrix (cached).
func (b *bounder) weights(j int) *mat.Dense {
	if b.wm == nil {
		b.wm = make([]*mat.Dense, len(b.layers))
	}
	if b.wm[j] == nil {
		l := &b.layers[j]
		b.wm[j] = mat.NewDense(l.Out, l.In, l.W)
	}
	return b.wm[j]
}

func (b *bounder) buf(p *[]float64, n int) []float64 {
	if cap(*p) < n {
		*p = make([]float64, n)
	}
	*p = (*p)[:n]
	return *p
}

// MarshalText is the method's name (String), so that a Method is a flag
// value (flag.TextVar) and a JSON string.
func (m Method) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalText reads a method's name (ParseMethod).
func (m *Method) UnmarshalText(b []byte) error {
	v, err := ParseMethod(string(b))
	if err == nil {
		*m = v
	}
	return err
}
