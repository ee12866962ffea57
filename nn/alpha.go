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

// alphaLower returns optimised lower bounds of rows·z_k + off.
func (b *bounder) alphaLower(k int, rows, off []float64) []float64 {
	l := &b.layers[k]
	m := len(off)
	out := make([]float64, m)
	// Per layer: alpha, Adam moments, recorded Λ.
	alpha := make([][]float64, k)
	grad := make([][]float64, k)
	m1 := make([][]float64, k)
	m2 := make([][]float64, k)
	rec := make([][]float64, k)
	for j := 0; j < k; j++ {
		n := b.layers[j].Out
		alpha[j], grad[j], m1[j], m2[j], rec[j] = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	}
	// beta-CROWN: a multiplier beta >= 0 per split neuron (b.phase),
	// with its Adam moments.
	var beta, bgrad, bm1, bm2 [][]float64
	if b.phase != nil {
		beta, bgrad, bm1, bm2 = make([][]float64, k), make([][]float64, k), make([][]float64, k), make([][]float64, k)
		for j := 0; j < k; j++ {
			n := b.layers[j].Out
			beta[j], bgrad[j], bm1[j], bm2[j] = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		}
	}
	// The fixed lines of the other activations (relax.go), per layer.
	lines := make([][2][]line, k)
	for j := 0; j < k; j++ {
		lj := &b.layers[j]
		if lj.Act == ActLinear || lj.Act == ActReLU {
			continue
		}
		lines[j] = [2][]line{make([]line, lj.Out), make([]line, lj.Out)}
		for i := range lj.Out {
			lines[j][0][i], lines[j][1][i] = relax(lj, b.lo[j][i], b.hi[j][i])
		}
	}
	w := b.net.maxWidth()
	A, A2, G, G2 := make([]float64, w), make([]float64, w), make([]float64, w), make([]float64, w)
	// Warm starts (b.warmIn) and the best parameters (b.warmOut): per
	// row, every layer's alphas, then every layer's betas.
	nn := 0
	for j := 0; j < k; j++ {
		nn += b.layers[j].Out
	}
	warm := len(b.warmIn) == 2*nn*m
	if b.keepWarm {
		b.warmOut = make([]float64, 2*nn*m)
	} else {
		b.warmOut = nil
	}
	steps := alphaSteps
	if warm {
		steps = alphaStepsWarm
	}
	// save copies the current parameters of row r into dst.
	save := func(dst []float64) {
		pos := 0
		for j := 0; j < k; j++ {
			copy(dst[pos:], alpha[j])
			if beta != nil {
				copy(dst[nn+pos:], beta[j])
			}
			pos += len(alpha[j])
		}
	}
	for r := 0; r < m; r++ {
		row := rows[r*l.Out : (r+1)*l.Out]
		pos := 0
		for j := 0; j < k; j++ {
			for i := range alpha[j] {
				alpha[j][i] = 0
				if b.hi[j][i] > -b.lo[j][i] {
					alpha[j][i] = 1
				}
				if warm {
					alpha[j][i] = min(max(b.warmIn[2*nn*r+pos+i], 0), 1)
				}
				m1[j][i], m2[j][i] = 0, 0
			}
			if beta != nil {
				clear(beta[j])
				clear(bm1[j])
				clear(bm2[j])
				if warm {
					for i, ph := range b.phase[j] {
						if ph != 0 {
							beta[j][i] = max(b.warmIn[2*nn*r+nn+pos+i], 0)
						}
					}
				}
			}
			pos += len(alpha[j])
		}
		best := math.Inf(-1)
		for step := 0; step <= steps; step++ {
			// Backward pass with the current slopes, recording Λ_j.
			bias := off[r]
			a := A[:l.In]
			clear(a)
			for i, c := range row {
				if c != 0 {
					bias += c * l.B[i]
					lw := l.W[i*l.In : (i+1)*l.In]
					for q, wv := range lw {
						a[q] += c * wv
					}
				}
			}
			for j := k - 1; j >= 0; j-- {
				lj := &b.layers[j]
				copy(rec[j], a)
				if lj.Act == ActReLU {
					for i := range a {
						li, ui := b.lo[j][i], b.hi[j][i]
						switch {
						case li >= 0:
						case ui <= 0:
							a[i] = 0
						default:
							if a[i] >= 0 {
								a[i] *= alpha[j][i]
							} else {
								su := ui / (ui - li)
								bias += a[i] * (-li * su)
								a[i] *= su
							}
						}
					}
				} else if lines[j][0] != nil {
					for i := range a {
						ln := lines[j][0][i]
						if a[i] < 0 {
							ln = lines[j][1][i]
						}
						if a[i] != 0 {
							bias += a[i] * ln.c
							a[i] *= ln.k
						}
					}
				}
				if lj.Act == ActReLU {
					if beta != nil {
						// The split constraint s z >= 0 enters with
						// -beta s on z's coefficient.
						for i, ph := range b.phase[j] {
							if ph != 0 {
								a[i] -= beta[j][i] * float64(ph)
							}
						}
					}
				}
				a2 := A2[:lj.In]
				clear(a2)
				for i, c := range a {
					if c != 0 {
						bias += c * lj.B[i]
						lw := lj.W[i*lj.In : (i+1)*lj.In]
						for q, wv := range lw {
							a2[q] += c * wv
						}
					}
				}
				a = a2
				A, A2 = A2, A
			}
			lb := bias
			g := G[:len(a)]
			for i, c := range a {
				if c >= 0 {
					lb += c * b.xlo[i]
					g[i] = b.xlo[i]
				} else {
					lb += c * b.xhi[i]
					g[i] = b.xhi[i]
				}
			}
			if lb > best {
				best = lb
				if b.warmOut != nil {
					save(b.warmOut[2*nn*r : 2*nn*(r+1)])
				}
			}
			if step == steps {
				break
			}
			// Adjoint sweep upwards.
			for j := 0; j < k; j++ {
				lj := &b.layers[j]
				d := G2[:lj.Out]
				for i := 0; i < lj.Out; i++ {
					s := lj.B[i]
					lw := lj.W[i*lj.In : (i+1)*lj.In]
					for q, wv := range lw {
						s += wv * g[q]
					}
					d[i] = s
				}
				gj := grad[j]
				clear(gj)
				if beta != nil && lj.Act == ActReLU {
					for i, ph := range b.phase[j] {
						bgrad[j][i] = -float64(ph) * d[i]
					}
				}
				if lines[j][0] != nil {
					// dΛ = dλ k + c for the line chosen by Λ's sign.
					for i := range d {
						ln := lines[j][0][i]
						if rec[j][i] < 0 {
							ln = lines[j][1][i]
						}
						if rec[j][i] == 0 {
							ln = line{}
						}
						d[i] = d[i]*ln.k + ln.c
					}
				}
				if lj.Act == ActReLU {
					for i := range d {
						li, ui := b.lo[j][i], b.hi[j][i]
						Λ := rec[j][i]
						switch {
						case li >= 0:
						case ui <= 0:
							d[i] = 0
						case Λ >= 0:
							gj[i] = d[i] * Λ
							d[i] *= alpha[j][i]
						default:
							su := ui / (ui - li)
							d[i] = d[i]*su - li*su
						}
					}
				}
				g = G[:lj.Out]
				copy(g, d)
			}
			// Adam ascent step, projected onto [0, 1].
			const lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
			t := float64(step + 1)
			for j := 0; j < k; j++ {
				for i, gv := range grad[j] {
					if gv == 0 {
						continue
					}
					m1[j][i] = b1*m1[j][i] + (1-b1)*gv
					m2[j][i] = b2*m2[j][i] + (1-b2)*gv*gv
					mh := m1[j][i] / (1 - math.Pow(b1, t))
					vh := m2[j][i] / (1 - math.Pow(b2, t))
					alpha[j][i] = min(max(alpha[j][i]+lr*mh/(math.Sqrt(vh)+eps), 0), 1)
				}
				if beta == nil {
					continue
				}
				for i, gv := range bgrad[j] {
					if gv == 0 {
						continue
					}
					bm1[j][i] = b1*bm1[j][i] + (1-b1)*gv
					bm2[j][i] = b2*bm2[j][i] + (1-b2)*gv*gv
					mh := bm1[j][i] / (1 - math.Pow(b1, t))
					vh := bm2[j][i] / (1 - math.Pow(b2, t))
					beta[j][i] = max(beta[j][i]+lr*mh/(math.Sqrt(vh)+eps), 0)
				}
			}
		}
		out[r] = best
	}
	return out
}
