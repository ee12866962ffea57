package nn

import "math"

// EvalBounds returns lower and upper bounds of every output over box that
// hold for the float64 evaluation (Eval, lang/spec.md "How a learned
// policy computes its scores") at every float64 input of box: Bounds'
// bounds, which are about exact arithmetic and computed without outward
// rounding, each widened by the slack with which the certifiers close a
// row of that output (prover.prepare): twice the float64 evaluation
// error E of the output on box (Roundoff), the bound computation's own
// rounding, plus the margin. Rounded to the nearest, 5.68 (5.38 x +
// 2.32) + 5.93 over [23.4, 24.4] had the lower bound 734.17416 (CROWN),
// above the float64 output 734.1741599999998 at x = 23.4. Where float64
// evaluation might overflow on box (Roundoff is not ok) nothing is
// known: the bounds are -Inf and +Inf.
func (n *Network) EvalBounds(box Box, m Method) (lo, hi []float64, err error) {
	lo, hi, err = n.Bounds(box, nil, m)
	if err != nil {
		return nil, nil, err
	}
	e, ok := n.Roundoff(box)
	for j := range lo {
		if !ok {
			lo[j], hi[j] = math.Inf(-1), math.Inf(1)
			continue
		}
		s := n.outputSlack(e[j])
		lo[j] = roundDown(lo[j] - s)
		hi[j] = roundUp(hi[j] + s)
	}
	return lo, hi, nil
}

// outputSlack is prover.prepare's slack of the row of one output whose
// float64 evaluation error is at most ej: margin + 2 E + E wide, each sum
// inflated as prepare inflates it.
func (n *Network) outputSlack(ej float64) float64 {
	nout := n.Outputs()
	wide := 0.0
	if l := len(n.Layers); l > 0 {
		wide = roundUp(gamma(nout+1) / gamma(n.Layers[l-1].In+1))
	}
	return roundUp(margin + 2*inflate(ej, nout) + inflate(ej*wide, nout))
}
