package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
)

// Session 33 (adversarial review of nn): the certifiers' closing
// thresholds against float64 evaluation, sampled. For a row g = r·f + off
// the prover closes a box when CROWN's (or IBP's, alpha's) lower bound of
// r·f, plus off, exceeds slack (prepare): the claim is that then
// r·ŷ(x) + off > 0 for the scores ŷ the evaluator computes at every x
// of the box. Equivalently r·ŷ(x) >= lb - slack at every sampled x,
// whatever off is. The networks mix every activation, scales from 1e-3
// to 1e8, input and output transforms, and boxes from a point (and its
// neighbouring floats) to |x| of a thousand, where Tanh and Sigmoid
// saturate.

// s33nNet draws a random network.
func s33nNet(rng *rand.Rand) *Network {
	nin := 1 + rng.IntN(4)
	depth := 1 + rng.IntN(4)
	scales := []float64{1e-3, 0.1, 1, 3, 30, 1e4, 1e8}
	scale := scales[rng.IntN(len(scales))]
	acts := []Activation{ActLinear, ActReLU, ActTanh, ActSigmoid, ActLeakyReLU, ActClip}
	n := &Network{}
	in := nin
	for d := 0; d < depth; d++ {
		out := 1 + rng.IntN(5)
		if d == depth-1 {
			out = 2 + rng.IntN(3)
		}
		l := Layer{In: in, Out: out, W: make([]float64, in*out), B: make([]float64, out)}
		for i := range l.W {
			switch rng.IntN(6) {
			case 0:
				l.W[i] = float64(rng.IntN(5)-2) / 2 // ties
			default:
				l.W[i] = rng.NormFloat64() * scale
			}
		}
		for i := range l.B {
			if rng.IntN(3) > 0 {
				l.B[i] = rng.NormFloat64() * scale
			}
		}
		if d < depth-1 || rng.IntN(3) == 0 {
			l.Act = acts[rng.IntN(len(acts))]
		}
		switch l.Act {
		case ActLeakyReLU:
			l.Slope = []float64{0, float64(float32(0.01)), 0.5, 1, rng.Float64()}[rng.IntN(5)]
		case ActClip:
			a, b := rng.NormFloat64()*scale, rng.NormFloat64()*scale
			l.Lo, l.Hi = min(a, b), max(a, b)
			if rng.IntN(4) == 0 {
				l.Lo = math.Inf(-1)
			}
		}
		n.Layers = append(n.Layers, l)
		in = out
	}
	if rng.IntN(3) == 0 {
		for i := 0; i < nin; i++ {
			n.InMean = append(n.InMean, rng.NormFloat64())
			n.InRange = append(n.InRange, 0.1+rng.Float64()*10)
		}
		if rng.IntN(2) == 0 {
			for i := 0; i < nin; i++ {
				n.InMin = append(n.InMin, -5+rng.NormFloat64())
				n.InMax = append(n.InMax, 5+rng.NormFloat64())
			}
		}
	}
	if rng.IntN(3) == 0 {
		for i := 0; i < n.Outputs(); i++ {
			n.OutMean = append(n.OutMean, rng.NormFloat64()*scale)
			n.OutRange = append(n.OutRange, 0.01+rng.Float64()*100)
		}
	}
	return n
}

// s33nBox draws a box for n: a point, a box a few ulps wide, or a box of
// width 1e-6 to 1e3 around a centre of magnitude up to 1e3.
func s33nBox(rng *rand.Rand, nin int) Box {
	b := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
	kind := rng.IntN(4)
	for i := range b.Lo {
		c := rng.NormFloat64() * []float64{1, 10, 1000}[rng.IntN(3)]
		switch kind {
		case 0:
			b.Lo[i], b.Hi[i] = c, c
		case 1:
			b.Lo[i] = c
			b.Hi[i] = c
			for k := rng.IntN(8); k > 0; k-- {
				b.Hi[i] = math.Nextafter(b.Hi[i], math.Inf(1))
			}
		default:
			w := math.Pow(10, -6+9*rng.Float64())
			b.Lo[i], b.Hi[i] = c-w/2, c+w/2
		}
	}
	return b
}

// s33nSamples returns points of b: corners, the centre, neighbouring
// floats of the corners (inside), and uniform points.
func s33nSamples(rng *rand.Rand, b Box, k int) [][]float64 {
	nin := len(b.Lo)
	var xs [][]float64
	for c := 0; c < 1<<nin; c++ {
		x := make([]float64, nin)
		for i := range x {
			x[i] = b.Lo[i]
			if c>>i&1 == 1 {
				x[i] = b.Hi[i]
			}
		}
		xs = append(xs, x)
		y := append([]float64(nil), x...)
		for i := range y {
			if y[i] == b.Lo[i] {
				y[i] = min(math.Nextafter(y[i], math.Inf(1)), b.Hi[i])
			} else {
				y[i] = max(math.Nextafter(y[i], math.Inf(-1)), b.Lo[i])
			}
		}
		xs = append(xs, y)
	}
	xs = append(xs, center(b))
	for s := 0; s < k; s++ {
		x := make([]float64, nin)
		for i := range x {
			x[i] = lerp(b.Lo[i], b.Hi[i], rng.Float64())
		}
		xs = append(xs, x)
	}
	return xs
}

// s33nRows are the unit rows of every output, their negations, and the
// differences of every ordered pair of outputs.
func s33nRows(nout int) [][]float64 {
	var rows [][]float64
	for j := 0; j < nout; j++ {
		r := make([]float64, nout)
		r[j] = 1
		rows = append(rows, r)
		r = make([]float64, nout)
		r[j] = -1
		rows = append(rows, r)
		for k := 0; k < nout; k++ {
			if k != j {
				r = make([]float64, nout)
				r[j], r[k] = 1, -1
				rows = append(rows, r)
			}
		}
	}
	return rows
}

// s33nBelow reports whether r·y < lb - slack, exactly.
func s33nBelow(r, y []float64, lb, slack float64) bool {
	g := new(big.Float).SetPrec(4000)
	for j, c := range r {
		if c != 0 {
			g.Add(g, new(big.Float).SetPrec(4000).Mul(big.NewFloat(c), big.NewFloat(y[j])))
		}
	}
	t := new(big.Float).SetPrec(4000).Sub(big.NewFloat(lb), big.NewFloat(slack))
	return g.Cmp(t) < 0
}

// s33nCheck bounds every row of n over b with method m and compares the
// closing threshold with float64 evaluation at the samples. It returns
// the number of comparisons made.
func s33nCheck(t *testing.T, n *Network, b Box, m Method, xs [][]float64) int {
	t.Helper()
	rows := s33nRows(n.Outputs())
	d := Disjunction{Rows: rows, Off: make([]float64, len(rows))}
	p := newProver(n, d, Options{Method: m})
	if !p.prepare(b) {
		return 0
	}
	lb := p.b.lower(b, p.rows, m)
	ys := make([][]float64, len(xs))
	for i, x := range xs {
		ys[i] = n.Eval(append([]float64(nil), x...))
	}
	count := 0
	for k, r := range rows {
		if math.IsInf(p.slack[k], 1) || math.IsNaN(lb[k]) || math.IsInf(lb[k], -1) {
			continue
		}
		for i, y := range ys {
			if math.IsNaN(y[0]) {
				continue
			}
			bad := false
			for _, v := range y {
				bad = bad || math.IsNaN(v) || math.IsInf(v, 0)
			}
			if bad {
				t.Fatalf("%v: evaluation at %v gives %v on a box prepare accepts", m, xs[i], y)
			}
			count++
			if s33nBelow(r, y, lb[k], p.slack[k]) {
				t.Fatalf("%v: row %v: at %v the scores %v are below the bound %v - slack %v\nnetwork %+v\nbox %v", m, r, xs[i], y, lb[k], p.slack[k], *n, b)
			}
		}
	}
	return count
}

// TestS33nCROWNSampling draws networks and boxes and checks every
// method's thresholds against sampled float64 evaluation.
func TestS33nCROWNSampling(t *testing.T) {
	seed, nets := uint64(1), 150
	if v, err := strconv.Atoi(os.Getenv("S33N_NETS")); err == nil {
		seed, nets = uint64(v), v // a longer hunt: S33N_NETS=5000
	}
	rng := rand.New(rand.NewPCG(33, seed))
	if testing.Short() {
		nets = 60
	}
	total := 0
	for it := 0; it < nets; it++ {
		n := s33nNet(rng)
		if err := n.validate(); err != nil {
			t.Fatal(err)
		}
		for bi := 0; bi < 4; bi++ {
			b := s33nBox(rng, n.Inputs())
			xs := s33nSamples(rng, b, 40)
			for _, m := range []Method{IBP, CROWN, Both, Alpha} {
				total += s33nCheck(t, n, b, m, xs)
			}
		}
	}
	t.Logf("%d comparisons", total)
}

// s33nOffset returns the largest float64 off with r·y + off <= 0 exactly.
func s33nOffset(r, y []float64) (float64, bool) {
	g := new(big.Float).SetPrec(4000)
	for j, c := range r {
		if c != 0 {
			g.Add(g, new(big.Float).SetPrec(4000).Mul(big.NewFloat(c), big.NewFloat(y[j])))
		}
	}
	g.Neg(g)
	off, acc := g.Float64()
	if acc == big.Above {
		off = math.Nextafter(off, math.Inf(-1))
	}
	if math.IsInf(off, 0) {
		return 0, false
	}
	return off, true
}

// TestS33nProveSampled asks Prove, with every method and branching, to
// prove rows that a sampled point refutes: r·f + off > 0 with off chosen
// so that r·ŷ(x*) + off <= 0 at the sampled x* where r·ŷ is least. Prove
// may answer Refuted or Unknown, never Proved.
func TestS33nProveSampled(t *testing.T) {
	seed, nets := uint64(1), 150
	if v, err := strconv.Atoi(os.Getenv("S33N_NETS")); err == nil {
		seed, nets = uint64(v), v
	}
	rng := rand.New(rand.NewPCG(34, seed))
	if testing.Short() {
		nets = 30
	}
	asked, refuted := 0, 0
	for it := 0; it < nets; it++ {
		n := s33nNet(rng)
		b := s33nBox(rng, n.Inputs())
		xs := s33nSamples(rng, b, 30)
		ys := make([][]float64, len(xs))
		for i, x := range xs {
			ys[i] = n.Eval(append([]float64(nil), x...))
		}
		rows := s33nRows(n.Outputs())
		r := rows[rng.IntN(len(rows))]
		var best []float64
		for _, y := range ys {
			if best == nil || rowValue(r, 0, y) < rowValue(r, 0, best) {
				best = y
			}
		}
		off, ok := s33nOffset(r, best)
		if !ok || math.IsNaN(rowValue(r, 0, best)) {
			continue
		}
		d := Disjunction{Rows: [][]float64{r}, Off: []float64{off}}
		for _, m := range []Method{IBP, CROWN, Both, Alpha} {
			for _, br := range []Branch{BranchInput, BranchReLU} {
				res, err := n.Prove(b, d, Options{Method: m, Branch: br, MaxNodes: 150, Seed: uint64(it)})
				if err != nil {
					t.Fatal(err)
				}
				asked++
				if res.Verdict == Refuted {
					refuted++
				}
				if res.Verdict == Proved {
					t.Fatalf("%v/%v proved %v·f + %v > 0 over %v, which is %v at scores %v\nnetwork %+v", m, br, r, off, b, rowValue(r, off, best), best, *n)
				}
			}
		}
	}
	t.Logf("%d queries, %d refuted", asked, refuted)
}

// s33nPre returns the float64 pre-activations of every layer at x.
func s33nPre(n *Network, x []float64) [][]float64 {
	cur := append([]float64(nil), x...)
	n.normalize(cur)
	var pre [][]float64
	for k := range n.Layers {
		l := &n.Layers[k]
		z, next := make([]float64, l.Out), make([]float64, l.Out)
		for i := 0; i < l.Out; i++ {
			s := l.B[i]
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				s += float64(w * cur[j])
			}
			z[i], next[i] = s, applyAct(l, s)
		}
		pre = append(pre, z)
		cur = next
	}
	return pre
}

// TestS33nSplitSampling is TestS33nCROWNSampling on ReLU split domains:
// splits set at the signs of a sampled point's pre-activations, bounds
// with alpha-beta-CROWN (as boundDomain) and CROWN, compared with the
// samples whose pre-activations have the split signs (clearly: the float64
// value at least 1e-6 relative away from 0 on the split side).
func TestS33nSplitSampling(t *testing.T) {
	seed, nets := uint64(1), 400
	if v, err := strconv.Atoi(os.Getenv("S33N_NETS")); err == nil {
		seed, nets = uint64(v), v
	}
	rng := rand.New(rand.NewPCG(35, seed))
	if testing.Short() {
		nets = 80
	}
	total, domains := 0, 0
	for it := 0; it < nets; it++ {
		n := s33nNet(rng)
		for k := range n.Layers[:len(n.Layers)-1] {
			if rng.IntN(3) > 0 {
				n.Layers[k].Act = ActReLU
			}
		}
		b := s33nBox(rng, n.Inputs())
		xs := s33nSamples(rng, b, 200)
		pres := make([][][]float64, len(xs))
		for i, x := range xs {
			pres[i] = s33nPre(n, x)
		}
		x0 := rng.IntN(len(xs))
		var splits []rsplit
		for j := range n.Layers[:len(n.Layers)-1] {
			if n.Layers[j].Act != ActReLU {
				continue
			}
			for i, z := range pres[x0][j] {
				if z != 0 && rng.IntN(2) == 0 {
					splits = append(splits, rsplit{layer: int32(j), neuron: int32(i), active: z > 0})
				}
			}
		}
		if len(splits) == 0 {
			continue
		}
		var in [][]float64
		for i, x := range xs {
			ok := true
			for _, sp := range splits {
				z := pres[i][sp.layer][sp.neuron]
				tol := 1e-6 * (1 + math.Abs(z))
				if sp.active && !(z > tol) || !sp.active && !(z < -tol) {
					ok = false
				}
			}
			if ok {
				in = append(in, x)
			}
		}
		rows := s33nRows(n.Outputs())
		for _, m := range []Method{CROWN, Alpha} {
			p := newProver(n, Disjunction{Rows: rows, Off: make([]float64, len(rows))}, Options{Method: m})
			if !p.prepare(b) {
				continue
			}
			domains++
			p.b.setSplits(splits)
			lb := p.b.lower(b, p.rows, m)
			if p.b.empty && len(in) > 0 {
				t.Fatalf("%v: splits %v found empty, but %v meets them\nnetwork %+v\nbox %v", m, splits, in[0], *n, b)
			}
			for _, x := range in {
				y := n.Eval(append([]float64(nil), x...))
				for k, r := range rows {
					if math.IsInf(lb[k], 0) || math.IsNaN(lb[k]) {
						continue
					}
					total++
					if s33nBelow(r, y, lb[k], p.slack[k]) {
						t.Fatalf("%v: splits %v: row %v at %v: scores %v below %v - %v\nnetwork %+v\nbox %v", m, splits, r, x, y, lb[k], p.slack[k], *n, b)
					}
				}
			}
		}
	}
	t.Logf("%d domains, %d comparisons", domains, total)
}

// TestS33nEmptySibling: a ReLU split domain that the bounder finds empty
// (bounder.clamp: a bound beyond the margin on the wrong side) loses its
// inputs unless they really are none; its sibling must then cover them.
// Over random splits on large-magnitude networks (where the bounds'
// rounding exceeds the margin), whenever one side of the last split is
// empty, the other side's bound must hold at every sample that meets
// the other splits, whichever side of the last one it lies on.
func TestS33nEmptySibling(t *testing.T) {
	seed, nets := uint64(1), 400
	if v, err := strconv.Atoi(os.Getenv("S33N_NETS")); err == nil {
		seed, nets = uint64(v), v
	}
	if testing.Short() {
		nets = 80
	}
	rng := rand.New(rand.NewPCG(37, seed))
	empties, total := 0, 0
	for it := 0; it < nets; it++ {
		n := s33nNet(rng)
		if len(n.Layers) < 2 {
			continue
		}
		for k := range n.Layers[:len(n.Layers)-1] {
			n.Layers[k].Act = ActReLU
			for i := range n.Layers[k].B {
				n.Layers[k].B[i] *= 1e8 // large pre-activations, small differences
			}
		}
		b := s33nBox(rng, n.Inputs())
		xs := s33nSamples(rng, b, 200)
		pres := make([][][]float64, len(xs))
		for i, x := range xs {
			pres[i] = s33nPre(n, x)
		}
		rows := s33nRows(n.Outputs())
		var unstable []rsplit
		{
			p := newProver(n, Disjunction{Rows: rows, Off: make([]float64, len(rows))}, Options{Method: Alpha})
			if !p.prepare(b) {
				continue
			}
			p.b.lower(b, p.rows, Alpha)
			for j := range n.Layers[:len(n.Layers)-1] {
				for i := range n.Layers[j].B {
					if p.b.lo[j][i] < 0 && p.b.hi[j][i] > 0 {
						unstable = append(unstable, rsplit{layer: int32(j), neuron: int32(i)})
					}
				}
			}
		}
		if len(unstable) == 0 {
			continue
		}
		for trial := 0; trial < 4; trial++ {
			var splits []rsplit
			for _, u := range unstable {
				if rng.IntN(2) == 0 {
					u.active = rng.IntN(2) == 0
					splits = append(splits, u)
				}
			}
			if len(splits) == 0 {
				continue
			}
			last := len(splits) - 1
			for _, m := range []Method{CROWN, Alpha} {
				p := newProver(n, Disjunction{Rows: rows, Off: make([]float64, len(rows))}, Options{Method: m})
				if !p.prepare(b) {
					continue
				}
				flip := slices.Clone(splits)
				flip[last].active = !flip[last].active
				p.b.setSplits(flip)
				p.b.lower(b, p.rows, m)
				if !p.b.empty {
					continue
				}
				empties++
				p.b.setSplits(splits)
				lb := p.b.lower(b, p.rows, m)
				if p.b.empty {
					continue // both empty: the earlier splits contradict
				}
				for i, x := range xs {
					ok := true
					for _, sp := range splits[:last] {
						z := pres[i][sp.layer][sp.neuron]
						tol := 1e-6 * (1 + math.Abs(z))
						if sp.active && !(z > tol) || !sp.active && !(z < -tol) {
							ok = false
						}
					}
					if !ok {
						continue
					}
					y := n.Eval(append([]float64(nil), x...))
					for k, r := range rows {
						if math.IsInf(lb[k], 0) || math.IsNaN(lb[k]) {
							continue
						}
						total++
						if s33nBelow(r, y, lb[k], p.slack[k]) {
							t.Fatalf("%v: splits %v (the other side of the last is empty): row %v at %v (pre-activation %v): scores %v below %v - %v\nnetwork %+v\nbox %v", m, splits, r, x, pres[i][splits[last].layer][splits[last].neuron], y, lb[k], p.slack[k], *n, b)
						}
					}
				}
			}
		}
	}
	t.Logf("%d empty siblings, %d comparisons", empties, total)
}

// TestS33nSoftmaxProved: past a final Softmax or LogSoftmax a difference
// row f[a] - f[b] is closed (prepareOut's wider threshold) only where
// float64 evaluation puts a strictly above b; checked at the samples of
// every box where some method closes it, scores far apart included
// (underflow to 0 under Softmax ties them).
func TestS33nSoftmaxProved(t *testing.T) {
	seed, nets := uint64(1), 300
	if v, err := strconv.Atoi(os.Getenv("S33N_NETS")); err == nil {
		seed, nets = uint64(v), v
	}
	if testing.Short() {
		nets = 60
	}
	rng := rand.New(rand.NewPCG(38, seed))
	proved, checked := 0, 0
	for it := 0; it < nets; it++ {
		n := s33nNet(rng)
		n.Out = []OutAct{OutSoftmax, OutLogSoftmax}[rng.IntN(2)]
		nout := n.Outputs()
		var rows [][]float64
		for a := 0; a < nout; a++ {
			for b := 0; b < nout; b++ {
				if a != b {
					r := make([]float64, nout)
					r[a], r[b] = 1, -1
					rows = append(rows, r)
				}
			}
		}
		for bi := 0; bi < 4; bi++ {
			b := s33nBox(rng, n.Inputs())
			xs := s33nSamples(rng, b, 40)
			for _, m := range []Method{IBP, CROWN, Both, Alpha} {
				p := newProver(n, Disjunction{Rows: rows, Off: make([]float64, len(rows))}, Options{Method: m})
				if !p.prepare(b) {
					continue
				}
				lb := p.b.lower(b, p.rows, m)
				for k, r := range rows {
					if !p.proves(k, lb[k]) {
						continue
					}
					proved++
					ai, bj, _ := difference(r, 0)
					for _, x := range xs {
						y := n.Eval(append([]float64(nil), x...))
						checked++
						if !(y[ai] > y[bj]) {
							t.Fatalf("%v %v: output %d proved above %d over %v, but at %v the outputs are %v\nnetwork %+v", m, n.Out, ai, bj, b, x, y, *n)
						}
					}
				}
			}
		}
	}
	t.Logf("%d rows closed, %d samples checked", proved, checked)
}
