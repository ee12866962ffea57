// Package nn reads feed-forward networks (ONNX, NNet, vigil JSON) whose
// activations are ReLU, LeakyReLU, Clip, Tanh or Sigmoid, optionally ending in
// Softmax or LogSoftmax,
// evaluates them in float64, bounds their outputs over input boxes (IBP,
// CROWN, their intersection, input-split branch and bound) and answers the
// PolIC3 decision query "can label a be the arg-max anywhere in this box?"
// (paper 004, section 3.3.2, Theorem 3).
//
// Every loader produces the same Network: an optional input transform
// (clip to [InMin, InMax], then (x - InMean) / InRange, as NNet defines it),
// a chain of dense layers each optionally followed by an activation, an
// optional output transform y*OutRange + OutMean, and an optional final
// Softmax or LogSoftmax over all outputs. The transforms are kept apart from
// the layers (rather than folded into the weights) so that evaluation
// rounds exactly as the source format defines it.
package nn

import (
	"fmt"
	"math"

	"vigil/symbolic"
)

// Layer is y = act(W x + B), W row-major Out x In: the parameters of a
// dense layer are symbolic's, so that checkers read them without nn.
type Layer = symbolic.Layer

// Activation is the function a layer applies to each of its sums, in
// float64 as lang/spec.md (section Policies) defines it.
type Activation = symbolic.Activation

const (
	ActLinear    = symbolic.ActLinear    // the identity
	ActReLU      = symbolic.ActReLU      // s < 0 becomes 0
	ActTanh      = symbolic.ActTanh      // math.Tanh(s)
	ActSigmoid   = symbolic.ActSigmoid   // 1 / (1 + math.Exp(-s)), each operation rounded
	ActLeakyReLU = symbolic.ActLeakyReLU // s < 0 becomes Slope*s, rounded
	ActClip      = symbolic.ActClip      // s clamped to [Lo, Hi], exact
)

// actIf returns a when cond holds, else ActLinear.
func actIf(cond bool, a Activation) Activation {
	if cond {
		return a
	}
	return ActLinear
}

// applyAct computes l's activation of s in float64 (lang/spec.md,
// Policies). The conversion float64(...) of a product forbids fusing it
// with a sum.
func applyAct(l *Layer, s float64) float64 {
	switch l.Act {
	case ActReLU:
		if s < 0 {
			return 0
		}
	case ActLeakyReLU:
		if s < 0 {
			return float64(l.Slope * s)
		}
	case ActTanh:
		return math.Tanh(s)
	case ActSigmoid:
		return sigmoid(s)
	case ActClip:
		return clip(l, s)
	}
	return s
}

// clip clamps s to [l.Lo, l.Hi] (ONNX Clip, torch.clamp): no rounding;
// NaN stays NaN, as torch.clamp keeps it.
func clip(l *Layer, s float64) float64 {
	if s < l.Lo {
		return l.Lo
	}
	if s > l.Hi {
		return l.Hi
	}
	return s
}

// sigmoid is 1 / (1 + e^-s) with each of exp, the sum and the quotient
// rounded to float64.
func sigmoid(s float64) float64 {
	e := math.Exp(-s)
	d := 1 + e
	return 1 / d
}

// OutAct is a final function of all the outputs together.
type OutAct = symbolic.OutAct

const (
	OutNone       = symbolic.OutNone
	OutSoftmax    = symbolic.OutSoftmax    // y_i = e^(z_i - m) / sum_j e^(z_j - m), m = max_j z_j
	OutLogSoftmax = symbolic.OutLogSoftmax // y_i = (z_i - m) - log(sum_j e^(z_j - m))
)

// applyOut applies o to y in place, in float64 as lang/spec.md defines it:
// m is the maximum of y (NaN if any is NaN), then t_i = y_i - m and
// e_i = exp(t_i), each rounded, S the sum of the e_i in output order,
// and y_i = e_i / S (Softmax) or t_i - log(S) (LogSoftmax), rounded.
func applyOut(o OutAct, y []float64) {
	if o == OutNone || len(y) == 0 {
		return
	}
	m := y[0]
	for _, v := range y[1:] {
		m = max(m, v)
	}
	s := 0.0
	for i := range y {
		y[i] -= m
		s += math.Exp(y[i])
	}
	if o == OutSoftmax {
		for i := range y {
			y[i] = math.Exp(y[i]) / s
		}
		return
	}
	ls := math.Log(s)
	for i := range y {
		y[i] -= ls
	}
}

// Network is a feed-forward network with optional input and output
// normalisation: symbolic.Network's fields (see there; nil slices mean "no
// transform"), with nn's own methods. Being the same struct, it converts
// to and from symbolic.Network without copying the weights
// (Policy.Params).
type Network symbolic.Network

// Inputs is the number of network inputs.
func (n *Network) Inputs() int { return n.Layers[0].In }

// Outputs is the number of network outputs.
func (n *Network) Outputs() int { return n.Layers[len(n.Layers)-1].Out }

// validate checks shapes and finiteness; every loader calls it last.
func (n *Network) validate() error {
	if len(n.Layers) == 0 {
		return fmt.Errorf("nn: the network has no layers")
	}
	for i, l := range n.Layers {
		if l.In <= 0 || l.Out <= 0 {
			return fmt.Errorf("nn: layer %d: empty shape %dx%d", i+1, l.Out, l.In)
		}
		if len(l.W) != l.In*l.Out || len(l.B) != l.Out {
			return fmt.Errorf("nn: layer %d: %d weights and %d biases do not match shape %dx%d", i+1, len(l.W), len(l.B), l.Out, l.In)
		}
		if i > 0 && n.Layers[i-1].Out != l.In {
			return fmt.Errorf("nn: layer %d: shape %dx%d does not match input %d", i+1, l.Out, l.In, n.Layers[i-1].Out)
		}
		for _, v := range l.W {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("nn: layer %d: weight %v is not finite; retrain or re-export the network", i+1, v)
			}
		}
		for _, v := range l.B {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("nn: layer %d: bias %v is not finite; retrain or re-export the network", i+1, v)
			}
		}
		if l.Act > ActClip {
			return fmt.Errorf("nn: layer %d: unknown activation %d", i+1, l.Act)
		}
		if l.Act == ActLeakyReLU && !(l.Slope >= 0 && l.Slope <= 1) {
			return fmt.Errorf("nn: layer %d: LeakyReLU slope %v; vigil reads slopes in [0, 1]", i+1, l.Slope)
		}
		if l.Act == ActClip && !(l.Lo <= l.Hi) {
			return fmt.Errorf("nn: layer %d: Clip bounds [%v, %v]; vigil reads Clip with minimum <= maximum, neither NaN", i+1, l.Lo, l.Hi)
		}
	}
	in, out := n.Inputs(), n.Outputs()
	for _, v := range []struct {
		name string
		s    []float64
		n    int
		pos  bool
	}{{"input minimum", n.InMin, in, false}, {"input maximum", n.InMax, in, false},
		{"input mean", n.InMean, in, false}, {"input range", n.InRange, in, true},
		{"output mean", n.OutMean, out, false}, {"output range", n.OutRange, out, true}} {
		if v.s == nil {
			continue
		}
		if len(v.s) != v.n {
			return fmt.Errorf("nn: %d values for the %s, want %d", len(v.s), v.name, v.n)
		}
		for _, x := range v.s {
			if math.IsNaN(x) || (v.pos && !(x > 0 && !math.IsInf(x, 0))) {
				return fmt.Errorf("nn: %s %v is invalid (want a finite positive number for ranges, no NaN)", v.name, x)
			}
		}
	}
	if (n.InMean == nil) != (n.InRange == nil) || (n.OutMean == nil) != (n.OutRange == nil) || (n.InMin == nil) != (n.InMax == nil) {
		return fmt.Errorf("nn: normalisation needs both mean and range (and both minimum and maximum)")
	}
	for i := range n.InMin {
		if n.InMin[i] > n.InMax[i] {
			return fmt.Errorf("nn: input %d: minimum %v exceeds maximum %v", i, n.InMin[i], n.InMax[i])
		}
	}
	return nil
}

// maxWidth is the widest layer, for scratch buffers.
func (n *Network) maxWidth() int {
	w := n.Inputs()
	for _, l := range n.Layers {
		w = max(w, l.Out)
	}
	return w
}

// normalize applies the input transform to x in place.
func (n *Network) normalize(x []float64) {
	for i := range x {
		if n.InMin != nil {
			x[i] = min(max(x[i], n.InMin[i]), n.InMax[i])
		}
		if n.InMean != nil {
			x[i] = (x[i] - n.InMean[i]) / n.InRange[i]
		}
	}
}

// denormalize applies the output transform to y in place.
func (n *Network) denormalize(y []float64) {
	if n.OutMean == nil {
		return
	}
	for i := range y {
		y[i] = float64(y[i]*n.OutRange[i]) + n.OutMean[i] // not fused
	}
}

// Eval computes the network's outputs at x. It allocates; use an
// Evaluator in loops.
func (n *Network) Eval(x []float64) []float64 {
	out := make([]float64, n.Outputs())
	NewEvaluator(n).Eval(x, out)
	return out
}

// Evaluator evaluates one network with reusable scratch space. It is not
// safe for concurrent use.
type Evaluator struct {
	net  *Network
	a, b []float64
	// packed holds each layer's weights interleaved for the vector kernel
	// (packed16), nil where it is not used.
	packed [][]float64
}

// NewEvaluator returns an evaluator for n. It reads n's weights when it is
// made: a network changed afterwards needs a new evaluator.
func NewEvaluator(n *Network) *Evaluator {
	w := n.maxWidth()
	e := &Evaluator{net: n, a: make([]float64, w), b: make([]float64, w)}
	if hasAffine16 {
		e.packed = make([][]float64, len(n.Layers))
		for i := range n.Layers {
			e.packed[i] = packed16(&n.Layers[i])
		}
	}
	return e
}

// Eval writes the outputs at x (len Inputs) into out (len Outputs).
func (e *Evaluator) Eval(x, out []float64) {
	n := e.net
	cur := e.a[:len(x)]
	copy(cur, x)
	n.normalize(cur)
	next := e.b
	for i := range n.Layers {
		l := &n.Layers[i]
		next = next[:l.Out]
		if e.packed != nil && e.packed[i] != nil {
			affinePacked(l, e.packed[i], cur, next)
		} else {
			affine(l, cur, next)
		}
		cur, next = next, cur[:cap(cur)]
	}
	copy(out, cur)
	n.denormalize(out)
	applyOut(n.Out, out)
}

// affine computes y = act(W x + b) in the order lang/spec.md defines
// (section Policies): s = b, then s = s + w_j*x_j for j = 1..In, every
// product and sum rounded to float64 on its own. The conversions
// float64(...) forbid the compiler to fuse a product and a sum (Go fuses
// x*y + z on some architectures unless the product is converted), so
// every platform computes the same bits, and the forward error bound of
// roundoff.go holds.
//
// Four rows are summed side by side, each in that order: the sums of a row
// depend on one another (a chain of additions, each waiting for the last),
// the rows do not, so the processor overlaps them (the same bits, about
// twice as fast on 64x64 layers).
func affine(l *Layer, x, y []float64) { affineFrom(l, x, y, 0) }

// affineFrom is affine on the rows from first on.
func affineFrom(l *Layer, x, y []float64, first int) {
	n := l.In
	if len(x) < n { // callers pass In values; never read stale scratch past len(x)
		panic("nn: affine input shorter than the layer")
	}
	x = x[:n]
	i := first
	for ; i+4 <= l.Out; i += 4 {
		w0 := l.W[i*n : (i+1)*n]
		w1 := l.W[(i+1)*n : (i+2)*n]
		w2 := l.W[(i+2)*n : (i+3)*n]
		w3 := l.W[(i+3)*n : (i+4)*n]
		s0, s1, s2, s3 := l.B[i], l.B[i+1], l.B[i+2], l.B[i+3]
		for j, xj := range x {
			s0 += float64(w0[j] * xj)
			s1 += float64(w1[j] * xj)
			s2 += float64(w2[j] * xj)
			s3 += float64(w3[j] * xj)
		}
		y[i], y[i+1], y[i+2], y[i+3] = applyAct(l, s0), applyAct(l, s1), applyAct(l, s2), applyAct(l, s3)
	}
	for ; i < l.Out; i++ {
		s := l.B[i]
		for j, w := range l.W[i*n : (i+1)*n] {
			s += float64(w * x[j])
		}
		y[i] = applyAct(l, s)
	}
}

// packed16 interleaves the weights of each whole block of sixteen rows of
// l for affine16: row 16k+r has its weight of input j at k*16*In + 16*j +
// r. It returns nil where the layer has fewer than sixteen rows or no
// inputs (the scalar loop does all).
func packed16(l *Layer) []float64 {
	n, blocks := l.In, l.Out/16
	if n == 0 || blocks == 0 {
		return nil
	}
	p := make([]float64, blocks*16*n)
	for k := range blocks {
		for r := range 16 {
			row := l.W[(16*k+r)*n : (16*k+r+1)*n]
			for j, w := range row {
				p[k*16*n+16*j+r] = w
			}
		}
	}
	return p
}

// affinePacked is affine with the whole blocks of sixteen rows summed by
// the vector kernel on p (packed16 of l), the remaining rows by the scalar
// loop: the same bits.
func affinePacked(l *Layer, p []float64, x, y []float64) {
	n := l.In
	// The kernel reads sixteen biases, inputs and weights through pointers:
	// make sure they are there.
	if len(x) < n || len(p) != l.Out/16*16*n || len(y) < l.Out || len(l.B) < l.Out {
		panic("nn: affinePacked: input, weights or output do not fit the layer")
	}
	blocks := l.Out / 16
	relu := l.Act == ActReLU // the kernel applies ReLU itself
	for k := range blocks {
		affine16(&p[k*16*n], &x[0], n, &l.B[16*k], &y[16*k], relu)
		if !relu {
			for r := 16 * k; r < 16*k+16; r++ {
				y[r] = applyAct(l, y[r])
			}
		}
	}
	affineFrom(l, x, y, 16*blocks)
}

// Clone returns a deep copy of n.
func (n *Network) Clone() *Network {
	c := &Network{Out: n.Out}
	for _, l := range n.Layers {
		c.Layers = append(c.Layers, Layer{In: l.In, Out: l.Out, W: append([]float64(nil), l.W...), B: append([]float64(nil), l.B...), Act: l.Act, Slope: l.Slope, Lo: l.Lo, Hi: l.Hi})
	}
	cp := func(s []float64) []float64 {
		if s == nil {
			return nil
		}
		return append([]float64(nil), s...)
	}
	c.InMin, c.InMax, c.InMean, c.InRange = cp(n.InMin), cp(n.InMax), cp(n.InMean), cp(n.InRange)
	c.OutMean, c.OutRange = cp(n.OutMean), cp(n.OutRange)
	return c
}
