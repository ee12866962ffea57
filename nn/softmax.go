package nn

// Deciding the arg-max of a network that ends in Softmax or LogSoftmax.
//
// Both preserve the order of the scores in exact arithmetic, but not in
// float64 (lang/spec.md, Policies): scores far below the largest underflow
// to the same 0 under Softmax, and close scores may round to the same
// value. A difference row f[a'] - f[a] is therefore proved positive from
// the scores z before the function (which the bounds of bounds.go are
// about, since the bounder ignores Network.Out) with a larger threshold.
// Let ẑ be the float64 scores, |ẑ_j - z_j| <= E_j (roundoff), Z >= max_j
// |ẑ_j| over the box, n the number of outputs, u = 2^-53, and t_j =
// fl(ẑ_j - m) with m = max_j ẑ_j, so |t_j - (ẑ_j - m)| <= 2 u Z.
//
//   - LogSoftmax: q_j = fl(t_j - L) with L = fl(log S) in [0, log n + 1]
//     (S = sum of exp(t_j) <= n, as exp(t) <= 1 for t <= 0 within an
//     ulp). Each subtraction errs by at most u |t_j - L| <= u (2 Z (1 +
//     u) + log n + 1), so q_a' > q_a when z_a' - z_a > E_a' + E_a +
//     u (8 Z + 2 log n + 2): the threshold adds 16 u (Z + log n + 1).
//   - Softmax: p_j = fl(e_j / S) with e_j = exp(t_j) within 2 u relative
//     (Go's math.Exp errs by less than an ulp) plus 2^-1074 absolute, and
//     1 <= S <= 2 n. When t_a' >= -700 (e_a' >= 9.8e-305, far from the
//     subnormal range) and t_a' - t_a >= 1e-9, e_a' (1 - u) exceeds
//     e_a (1 + u) by more than e_a' 4e-10, far more than the 2 S 2^-1075
//     the quotients' rounding can take, so p_a' > p_a. The threshold adds
//     16 u Z + 1e-9, and a row counts only when the intervals of the
//     scores over the root box give z_a' - max_j z_j >= -690 (which keeps
//     t_a' >= -700 whatever the rounding).
//
// Rows that are not such differences (VNNLIB constraints on the
// probabilities) are never proved.

import "math"

// prepareOut is prover.prepare for a network with a final Softmax or
// LogSoftmax. It returns false (with p.overflow set, so that callers
// decide the box by evaluating its states) when no row can be proved.
func (p *prover) prepareOut(root Box) bool {
	lo, hi, e, ok := p.net.roundoff(root)
	p.overflow = true
	if !ok {
		return false
	}
	nout := p.net.Outputs()
	z, top := 0.0, math.Inf(-1)
	for j := range e {
		z = max(z, roundUp(max(math.Abs(lo[j]), math.Abs(hi[j]))+e[j]))
		top = max(top, roundUp(hi[j]+e[j]))
	}
	extra := roundUp(16 * unit * (z + math.Log(float64(nout)) + 1))
	if p.net.Out == OutSoftmax {
		extra = roundUp(roundUp(16*unit*z) + 1e-9)
	}
	p.slack = p.slack[:0]
	usable := false
	for k := range p.off {
		s := math.Inf(1)
		if i, j, ok := difference(p.rows[k*nout:(k+1)*nout], p.off[k]); ok {
			if p.net.Out == OutLogSoftmax || roundDown(lo[i]-e[i])-top >= -690 {
				s = margin + 2*inflate(e[i]+e[j]+extra, 3)
				usable = true
			}
		}
		p.slack = append(p.slack, s)
	}
	p.overflow = !usable
	return usable
}

// difference reports whether row + off is f[i] - f[j] for some i != j.
func difference(row []float64, off float64) (i, j int, ok bool) {
	i, j = -1, -1
	for k, c := range row {
		switch {
		case c == 0:
		case c == 1 && i < 0:
			i = k
		case c == -1 && j < 0:
			j = k
		default:
			return 0, 0, false
		}
	}
	return i, j, off == 0 && i >= 0 && j >= 0
}
