package nn

import "gonum.org/v1/gonum/mat"

// Batch evaluation, kept for BenchmarkBatch: hand-written loops and
// gonum's matrix product (mat.Dense.Mul) over many inputs at once, against
// the Evaluator one input at a time. With the vector kernel
// (affine_amd64.s) the Evaluator is the fastest of the three (2x64: 1.35M
// inputs/s against 0.5M for gonum), and gonum's sums may round
// differently in the last bits, so vigil evaluates with Evaluator only.

// batchLoops is the hand-written variant.
type batchLoops struct {
	net  *Network
	a, b []float64
}

func (e *batchLoops) Eval(xs []float64, out []float64) {
	n := e.net
	nin := n.Inputs()
	k := len(xs) / nin
	w := n.maxWidth()
	if cap(e.a) < k*w {
		e.a, e.b = make([]float64, k*w), make([]float64, k*w)
	}
	cur := e.a[:k*nin]
	copy(cur, xs)
	for s := 0; s < k; s++ {
		n.normalize(cur[s*nin : (s+1)*nin])
	}
	next := e.b
	for li := range n.Layers {
		l := &n.Layers[li]
		next = next[:k*l.Out]
		for s := 0; s < k; s++ {
			affine(l, cur[s*l.In:(s+1)*l.In], next[s*l.Out:(s+1)*l.Out])
		}
		cur, next = next, cur[:cap(cur)]
	}
	copy(out, cur)
	nout := n.Outputs()
	for s := 0; s < k; s++ {
		n.denormalize(out[s*nout : (s+1)*nout])
		applyOut(n.Out, out[s*nout:(s+1)*nout])
	}
}

func evalBatchGonum(n *Network, ws []*mat.Dense, xs []float64, out []float64) {
	nin := n.Inputs()
	k := len(xs) / nin
	x := make([]float64, len(xs))
	copy(x, xs)
	for s := 0; s < k; s++ {
		n.normalize(x[s*nin : (s+1)*nin])
	}
	cur := mat.NewDense(k, nin, x)
	for li, l := range n.Layers {
		var next mat.Dense
		next.Mul(cur, ws[li].T())
		raw := next.RawMatrix()
		for s := 0; s < k; s++ {
			row := raw.Data[s*raw.Stride : s*raw.Stride+l.Out]
			for i := range row {
				row[i] = applyAct(&l, row[i]+l.B[i])
			}
		}
		cur = &next
	}
	raw := cur.RawMatrix()
	nout := n.Outputs()
	for s := 0; s < k; s++ {
		copy(out[s*nout:(s+1)*nout], raw.Data[s*raw.Stride:s*raw.Stride+nout])
		n.denormalize(out[s*nout : (s+1)*nout])
		applyOut(n.Out, out[s*nout:(s+1)*nout])
	}
}

func gonumWeights(n *Network) []*mat.Dense {
	var ws []*mat.Dense
	for _, l := range n.Layers {
		ws = append(ws, mat.NewDense(l.Out, l.In, l.W))
	}
	return ws
}
