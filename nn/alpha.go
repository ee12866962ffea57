package nn

// alpha-CROWN (Xu et al. 2021; anchors.md "Neural networks"): the lower
// relaxation slope alpha of every unstable ReLU may be any value in [0, 1]
// and the bound stays sound, so optimise the slopes per specification row
// by projected gradient ascent (Adam, a fixed number of steps) on the
// concretised lower bound, keeping the best bound seen. Intermediate
// bounds keep CROWN's adaptive slopes.
//
// The gradient is exact for the piecewise-linear bound: the backward pass
// records the coefficient vector Λ_j on each layer's output, then an
// adjoint sweep runs from the input upwards: with G the derivative of the
// bound with respect to the coefficients on layer j's input, the
// derivative with respect to the relaxed coefficients λ_j is W_j G + b_j;
// through a ReLU with Λ_i >= 0 (λ_i = α_i Λ_i) it gives dα_i = dλ_i Λ_i
// and dΛ_i = dλ_i α_i, with Λ_i < 0 (λ_i = s_i Λ_i, bias Λ_i t_i) dΛ_i =
// dλ_i s_i + t_i.
//
// With ReLU split constraints set (bab.go), each split neuron also gets a
// multiplier beta >= 0 (beta-CROWN): λ_i gains -beta_i s_i, so the
// derivative of the bound with respect to beta_i is -s_i dλ_i, and the
// betas are ascended by the same Adam steps, projected onto beta >= 0.
//
// Tanh, Sigmoid and LeakyReLU keep the fixed lines of relax.go: only
// ReLU slopes are optimised.

import "math"

// alphaSteps is the number of optimisation steps per row; alphaStepsWarm
// when the slopes and multipliers start from a parent domain's (ReLU
// branch and bound reuses them across branches, as alpha-beta-CROWN does).
const (
	alphaSteps     = 20
	alphaStepsWarm = 8
)

// alphaLower returns optimised lower bounds of rows·z_k + off: per row,
// steps of (backward pass, adjoint sweep, Adam step) from the initial or
// warm slopes, keeping the best bound.
func (b *bounder) alphaLower(k int, rows, off []float64) []float64 {
	l := &b.layers[k]
	m := len(off)
	out := make([]float64, m)
	o := newAlphaOpt(b, k, m)
	for r := 0; r < m; r++ {
		row := rows[r*l.Out : (r+1)*l.Out]
		o.start(r)
		best := math.Inf(-1)
		for step := 0; step <= o.steps; step++ {
			lb, g := o.backward(row, off[r])
			if lb > best {
				best = lb
				if b.warmOut != nil {
					o.save(b.warmOut[2*o.nn*r : 2*o.nn*(r+1)])
				}
			}
			if step == o.steps {
				break
			}
			o.adjoint(g)
			o.adam(step)
		}
		out[r] = best
	}
	return out
}

// alphaOpt is the state of alphaLower's optimisation over the k layers
// below the bounded one: per layer j and neuron i, the slope alpha (and
// the beta-CROWN multiplier beta) with its gradient and Adam moments, and
// the coefficient Λ recorded by the last backward pass.
type alphaOpt struct {
	b                     *bounder
	k                     int
	alpha, grad, m1, m2   [][]float64
	rec                   [][]float64 // Λ_j, recorded by backward
	beta, bgrad, bm1, bm2 [][]float64 // nil without split constraints
	// lines: the fixed lines of the other activations (relax.go), per
	// layer: lower and upper, per neuron; nil for ReLU and linear.
	lines        [][2][]line
	A, A2, G, G2 []float64 // scratch
	M, M2        []float64 // scratch: the coefficients' magnitudes (backward's rounding bound)
	nn           int       // neurons of the k layers
	warm         bool      // start from b.warmIn
	steps        int
}

// newAlphaOpt allocates the optimisation of m rows over layer k's input.
func newAlphaOpt(b *bounder, k, m int) *alphaOpt {
	o := &alphaOpt{b: b, k: k}
	o.alpha, o.grad, o.m1, o.m2, o.rec = make([][]float64, k), make([][]float64, k), make([][]float64, k), make([][]float64, k), make([][]float64, k)
	for j := 0; j < k; j++ {
		n := b.layers[j].Out
		o.alpha[j], o.grad[j], o.m1[j], o.m2[j], o.rec[j] = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	}
	// beta-CROWN: a multiplier beta >= 0 per split neuron (b.phase),
	// with its Adam moments.
	if b.phase != nil {
		o.beta, o.bgrad, o.bm1, o.bm2 = make([][]float64, k), make([][]float64, k), make([][]float64, k), make([][]float64, k)
		for j := 0; j < k; j++ {
			n := b.layers[j].Out
			o.beta[j], o.bgrad[j], o.bm1[j], o.bm2[j] = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		}
	}
	o.lines = make([][2][]line, k)
	for j := 0; j < k; j++ {
		lj := &b.layers[j]
		if lj.Act == ActLinear || lj.Act == ActReLU {
			continue
		}
		o.lines[j] = [2][]line{make([]line, lj.Out), make([]line, lj.Out)}
		for i := range lj.Out {
			o.lines[j][0][i], o.lines[j][1][i] = relax(lj, b.lo[j][i], b.hi[j][i])
		}
	}
	w := b.net.maxWidth()
	o.A, o.A2, o.G, o.G2 = make([]float64, w), make([]float64, w), make([]float64, w), make([]float64, w)
	o.M, o.M2 = make([]float64, w), make([]float64, w)
	// Warm starts (b.warmIn) and the best parameters (b.warmOut): per
	// row, every layer's alphas, then every layer's betas.
	for j := 0; j < k; j++ {
		o.nn += b.layers[j].Out
	}
	o.warm = len(b.warmIn) == 2*o.nn*m
	if b.keepWarm {
		b.warmOut = make([]float64, 2*o.nn*m)
	} else {
		b.warmOut = nil
	}
	o.steps = alphaSteps
	if o.warm {
		o.steps = alphaStepsWarm
	}
	return o
}

// start sets the parameters for row r: CROWN's adaptive slopes (1 where
// the upper bound outweighs the lower) and no multipliers, or the warm
// start's, and clears the Adam moments.
func (o *alphaOpt) start(r int) {
	b, nn := o.b, o.nn
	pos := 0
	for j := 0; j < o.k; j++ {
		for i := range o.alpha[j] {
			o.alpha[j][i] = 0
			if b.hi[j][i] > -b.lo[j][i] {
				o.alpha[j][i] = 1
			}
			if o.warm {
				o.alpha[j][i] = min(max(b.warmIn[2*nn*r+pos+i], 0), 1)
			}
			o.m1[j][i], o.m2[j][i] = 0, 0
		}
		if o.beta != nil {
			clear(o.beta[j])
			clear(o.bm1[j])
			clear(o.bm2[j])
			if o.warm {
				for i, ph := range b.phase[j] {
					if ph != 0 {
						o.beta[j][i] = max(b.warmIn[2*nn*r+nn+pos+i], 0)
					}
				}
			}
		}
		pos += len(o.alpha[j])
	}
}

// save copies the current parameters into dst: every layer's alphas,
// then every layer's betas.
func (o *alphaOpt) save(dst []float64) {
	pos := 0
	for j := 0; j < o.k; j++ {
		copy(dst[pos:], o.alpha[j])
		if o.beta != nil {
			copy(dst[o.nn+pos:], o.beta[j])
		}
		pos += len(o.alpha[j])
	}
}

// backward is the backward pass of row·z_k + off with the current slopes
// and multipliers, recording Λ_j; it returns the concretised lower bound
// and, per input, the input bound that the coefficient's sign picks (the
// derivative of the bound with respect to the input coefficients).
func (o *alphaOpt) backward(row []float64, off float64) (float64, []float64) {
	b, k := o.b, o.k
	l := &b.layers[k]
	A, A2 := o.A, o.A2
	// Alongside the coefficients a, their magnitudes ma (the same pass
	// over |W|, |slopes|, |betas|) and mag, the sum of the magnitudes of
	// every term the bound adds: the bound is computed in float64 without
	// outward rounding, and its rounding error is at most about
	// gamma(steps) mag. The certifiers' margin covers that error only
	// where the bound's terms are as large as float64 evaluation's (the
	// doubled evaluation error, prove.go); a beta-CROWN multiplier brings
	// in the terms of a split neuron, which the row may not read at all:
	// with z = -2^40 + x1 + x2 + x3 split at 0, betas cancelled 2^40-sized
	// terms to a bound 3e-4 above the row's value 0 (TestS33nBetaRounding).
	M, M2 := o.M, o.M2
	bias := off
	mag := math.Abs(off)
	steps := 4
	a := A[:l.In]
	ma := M[:l.In]
	clear(a)
	clear(ma)
	for i, c := range row {
		if c != 0 {
			bias += c * l.B[i]
			mag += math.Abs(c * l.B[i])
			lw := l.W[i*l.In : (i+1)*l.In]
			for q, wv := range lw {
				a[q] += c * wv
				ma[q] += math.Abs(c * wv)
			}
		}
	}
	steps += len(row) + 2
	for j := k - 1; j >= 0; j-- {
		lj := &b.layers[j]
		copy(o.rec[j], a)
		if lj.Act == ActReLU {
			for i := range a {
				li, ui := b.lo[j][i], b.hi[j][i]
				switch {
				case li >= 0:
				case ui <= 0:
					a[i] = 0
					ma[i] = 0
				default:
					if a[i] >= 0 {
						a[i] *= o.alpha[j][i]
						ma[i] *= o.alpha[j][i]
					} else {
						su := ui / (ui - li)
						bias += a[i] * (-li * su)
						mag += math.Abs(a[i] * (-li * su))
						a[i] *= su
						ma[i] *= su
					}
				}
			}
			if o.beta != nil {
				// The split constraint s z >= 0 enters with -beta s on
				// z's coefficient.
				for i, ph := range b.phase[j] {
					if ph != 0 {
						a[i] -= o.beta[j][i] * float64(ph)
						ma[i] += o.beta[j][i]
					}
				}
			}
		} else if o.lines[j][0] != nil {
			for i := range a {
				ln := o.lines[j][0][i]
				if a[i] < 0 {
					ln = o.lines[j][1][i]
				}
				if a[i] != 0 {
					bias += a[i] * ln.c
					mag += math.Abs(a[i] * ln.c)
					a[i] *= ln.k
					ma[i] *= math.Abs(ln.k)
				}
			}
		}
		a2 := A2[:lj.In]
		ma2 := M2[:lj.In]
		clear(a2)
		clear(ma2)
		for i, c := range a {
			if c != 0 || ma[i] != 0 {
				bias += c * lj.B[i]
				mag += ma[i] * math.Abs(lj.B[i])
				lw := lj.W[i*lj.In : (i+1)*lj.In]
				for q, wv := range lw {
					a2[q] += c * wv
					ma2[q] += ma[i] * math.Abs(wv)
				}
			}
		}
		steps += lj.Out + 4
		a, ma = a2, ma2
		A, A2 = A2, A
		M, M2 = M2, M
	}
	lb := bias
	g := o.G[:len(a)]
	for i, c := range a {
		if c >= 0 {
			lb += c * b.xlo[i]
			g[i] = b.xlo[i]
		} else {
			lb += c * b.xhi[i]
			g[i] = b.xhi[i]
		}
		mag += ma[i] * max(math.Abs(b.xlo[i]), math.Abs(b.xhi[i]))
	}
	steps += len(a)
	// Twice gamma: the magnitudes are themselves float64 sums.
	lb -= 2 * gamma(steps) * mag
	// An overflowed coefficient bounds nothing (bounds.go, noBound).
	return noBound(lb), g
}

// adjoint sweeps from the input upwards (g: the derivative of the bound
// with respect to the input coefficients) and leaves the derivatives
// with respect to the slopes in grad and to the multipliers in bgrad.
func (o *alphaOpt) adjoint(g []float64) {
	b := o.b
	for j := 0; j < o.k; j++ {
		lj := &b.layers[j]
		d := o.G2[:lj.Out]
		for i := 0; i < lj.Out; i++ {
			s := lj.B[i]
			lw := lj.W[i*lj.In : (i+1)*lj.In]
			for q, wv := range lw {
				s += wv * g[q]
			}
			d[i] = s
		}
		gj := o.grad[j]
		clear(gj)
		if o.beta != nil && lj.Act == ActReLU {
			for i, ph := range b.phase[j] {
				o.bgrad[j][i] = -float64(ph) * d[i]
			}
		}
		if o.lines[j][0] != nil {
			// dΛ = dλ k + c for the line chosen by Λ's sign.
			for i := range d {
				ln := o.lines[j][0][i]
				if o.rec[j][i] < 0 {
					ln = o.lines[j][1][i]
				}
				if o.rec[j][i] == 0 {
					ln = line{}
				}
				d[i] = d[i]*ln.k + ln.c
			}
		}
		if lj.Act == ActReLU {
			for i := range d {
				li, ui := b.lo[j][i], b.hi[j][i]
				Λ := o.rec[j][i]
				switch {
				case li >= 0:
				case ui <= 0:
					d[i] = 0
				case Λ >= 0:
					gj[i] = d[i] * Λ
					d[i] *= o.alpha[j][i]
				default:
					su := ui / (ui - li)
					d[i] = d[i]*su - li*su
				}
			}
		}
		g = o.G[:lj.Out]
		copy(g, d)
	}
}

// adam takes an Adam ascent step (the step-th, from 0) on the slopes,
// projected onto [0, 1], and on the multipliers, projected onto >= 0.
func (o *alphaOpt) adam(step int) {
	const lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
	t := float64(step + 1)
	for j := 0; j < o.k; j++ {
		for i, gv := range o.grad[j] {
			if gv == 0 {
				continue
			}
			o.m1[j][i] = b1*o.m1[j][i] + (1-b1)*gv
			o.m2[j][i] = b2*o.m2[j][i] + (1-b2)*gv*gv
			mh := o.m1[j][i] / (1 - math.Pow(b1, t))
			vh := o.m2[j][i] / (1 - math.Pow(b2, t))
			o.alpha[j][i] = min(max(o.alpha[j][i]+lr*mh/(math.Sqrt(vh)+eps), 0), 1)
		}
		if o.beta == nil {
			continue
		}
		for i, gv := range o.bgrad[j] {
			if gv == 0 {
				continue
			}
			o.bm1[j][i] = b1*o.bm1[j][i] + (1-b1)*gv
			o.bm2[j][i] = b2*o.bm2[j][i] + (1-b2)*gv*gv
			mh := o.bm1[j][i] / (1 - math.Pow(b1, t))
			vh := o.bm2[j][i] / (1 - math.Pow(b2, t))
			o.beta[j][i] = max(o.beta[j][i]+lr*mh/(math.Sqrt(vh)+eps), 0)
		}
	}
}
