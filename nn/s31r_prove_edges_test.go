package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Session 31 review: Prove on small networks whose weights, biases,
// boxes and rows are drawn from a menu of float64 edges (1e300, 2^53,
// subnormals, 1+2^-52, zero-width boxes, one-ulp boxes, rows placed a hair
// above zero at the box's centre), every activation and output function.
// A Proved claim is checked at the box's corners, its centre, the
// neighbouring floats of both, and random points, with each row summed
// in float64 over the outputs the evaluator computes (rowValue, the
// reading Prove decides for policies, whose rows are f[a'] - f[a]): the
// claim is "some row is > 0 (>= 0 where Strict: a witness needs < 0
// there) at every point", so a point where every row is <= 0 (< 0 where
// strict) refutes it. A Refuted witness must lie in the box and make
// every row <= 0 (< 0 where strict). A row that is not a number (Inf -
// Inf) is no witness's, as Prove reads it.

var s31rEdges = []float64{0, 1, -1, 0.5, -0.5, 0.1, 1e300, -1e300, 1e-300, -1e-300,
	5e-324, -5e-324, 1 << 53, -(1 << 53), 1 + 0x1p-52, -(1 + 0x1p-52), 1e150, -1e150, 3, 1e-8, 1e16, -1e16}

func s31rVal(r *rand.Rand) float64 {
	if r.IntN(3) == 0 {
		return r.NormFloat64()
	}
	return s31rEdges[r.IntN(len(s31rEdges))]
}

func s31rNet(r *rand.Rand) *Network {
	nin := 1 + r.IntN(2)
	sizes := []int{nin}
	for range 1 + r.IntN(2) {
		sizes = append(sizes, 1+r.IntN(3))
	}
	sizes = append(sizes, 2+r.IntN(2))
	n := &Network{}
	acts := []Activation{ActReLU, ActReLU, ActTanh, ActSigmoid, ActLeakyReLU, ActClip, ActLinear}
	for i := 1; i < len(sizes); i++ {
		l := Layer{In: sizes[i-1], Out: sizes[i]}
		for range l.In * l.Out {
			l.W = append(l.W, s31rVal(r))
		}
		for range l.Out {
			l.B = append(l.B, s31rVal(r))
		}
		if i < len(sizes)-1 || r.IntN(4) == 0 {
			l.Act = acts[r.IntN(len(acts))]
		}
		switch l.Act {
		case ActLeakyReLU:
			l.Slope = []float64{0, 0.01, 0.5, 1, 1e-300}[r.IntN(5)]
		case ActClip:
			a, b := s31rVal(r), s31rVal(r)
			l.Lo, l.Hi = min(a, b), max(a, b)
			if r.IntN(3) == 0 {
				l.Lo = math.Inf(-1)
			}
		}
		n.Layers = append(n.Layers, l)
	}
	if r.IntN(3) == 0 {
		// Two outputs computed alike: they tie everywhere.
		l := &n.Layers[len(n.Layers)-1]
		i, j := r.IntN(l.Out), r.IntN(l.Out)
		copy(l.W[j*l.In:(j+1)*l.In], l.W[i*l.In:(i+1)*l.In])
		l.B[j] = l.B[i]
	}
	if r.IntN(4) == 0 {
		// The NNet transforms, means possibly infinite (only NaN is
		// refused), ranges positive.
		pos := func() float64 { return []float64{1, 3, 0.1, 1e-300, 1e300, 5e-324, 1 << 53}[r.IntN(7)] }
		mean := func() float64 {
			if r.IntN(8) == 0 {
				return math.Inf(1 - 2*r.IntN(2))
			}
			return s31rVal(r)
		}
		nin, nout := n.Inputs(), n.Outputs()
		if r.IntN(2) == 0 {
			for range nin {
				a, b := mean(), mean()
				n.InMin, n.InMax = append(n.InMin, min(a, b)), append(n.InMax, max(a, b))
			}
		}
		if r.IntN(2) == 0 {
			for range nin {
				n.InMean, n.InRange = append(n.InMean, mean()), append(n.InRange, pos())
			}
		}
		if r.IntN(2) == 0 {
			for range nout {
				n.OutMean, n.OutRange = append(n.OutMean, mean()), append(n.OutRange, pos())
			}
		}
	}
	switch r.IntN(6) {
	case 0:
		n.Out = OutSoftmax
	case 1:
		n.Out = OutLogSoftmax
	}
	return n
}

func s31rBox(r *rand.Rand, nin int) Box {
	b := Box{Lo: make([]float64, nin), Hi: make([]float64, nin)}
	for i := range nin {
		c := s31rVal(r)
		switch r.IntN(5) {
		case 0:
			b.Lo[i], b.Hi[i] = c, c
		case 1:
			b.Lo[i], b.Hi[i] = c, math.Nextafter(c, math.Inf(1))
		default:
			w := []float64{1e-300, 1e-9, 1, 1e10, 1e300}[r.IntN(5)] * r.Float64()
			b.Lo[i], b.Hi[i] = c-w, c+w
			if math.IsInf(b.Lo[i], 0) || math.IsInf(b.Hi[i], 0) {
				b.Lo[i], b.Hi[i] = c, c
			}
		}
	}
	return b
}

func TestS31rProveEdges(t *testing.T) {
	trials := 6000
	if testing.Short() {
		trials = 600
	}
	tally := map[Verdict]int{}
	for trial := range trials {
		r := rand.New(rand.NewPCG(uint64(trial), 31))
		n := s31rNet(r)
		if err := n.validate(); err != nil {
			continue
		}
		box := s31rBox(r, n.Inputs())
		ev := NewEvaluator(n)
		y := make([]float64, n.Outputs())
		ev.Eval(center(box), y)
		var d Disjunction
		for range 1 + r.IntN(3) {
			row := make([]float64, n.Outputs())
			if r.IntN(2) == 0 {
				// A policy's row: output i beats output j.
				i, j := r.IntN(len(row)), r.IntN(len(row))
				if i != j {
					row[i], row[j] = 1, -1
					d.Rows, d.Off = append(d.Rows, row), append(d.Off, 0)
					d.Strict = append(d.Strict, r.IntN(2) == 0)
					continue
				}
			}
			for j := range row {
				if r.IntN(2) == 0 {
					row[j] = []float64{1, -1, 1e300, -1e-300, 0.5, 3}[r.IntN(6)]
				}
			}
			off := s31rVal(r)
			if r.IntN(2) == 0 {
				// A hair above zero at the centre.
				v := 0.0
				for j, c := range row {
					v += c * y[j]
				}
				if !math.IsInf(v, 0) && !math.IsNaN(v) {
					off = -v + []float64{0, 1e-12, 1e-300, 5e-324, 1e-6}[r.IntN(5)]
				}
			}
			d.Rows, d.Off = append(d.Rows, row), append(d.Off, off)
			d.Strict = append(d.Strict, r.IntN(2) == 0)
		}
		br := []Branch{BranchInput, BranchReLU}[r.IntN(2)]
		res, err := n.Prove(box, d, Options{Branch: br, MaxNodes: 200, Seed: uint64(trial)})
		if err != nil {
			continue
		}
		tally[res.Verdict]++
		// holds: some row > 0 at x.
		holds := func(x []float64) bool {
			ev.Eval(x, y)
			for k, row := range d.Rows {
				// A row that is not a number is no witness's
				// (prover.violates).
				if g := rowValue(row, d.Off[k], y); g > 0 || (g == 0 && d.Strict[k]) || math.IsNaN(g) {
					return true
				}
			}
			return false
		}
		switch res.Verdict {
		case Refuted:
			x := res.Witness
			for i := range x {
				if !(x[i] >= box.Lo[i] && x[i] <= box.Hi[i]) {
					t.Errorf("trial %d: witness %v outside the box %v", trial, x, box)
				}
			}
			ev.Eval(x, y)
			for k, row := range d.Rows {
				g := rowValue(row, d.Off[k], y)
				if g > 0 || (g == 0 && d.Strict[k]) {
					t.Errorf("trial %d: witness %v (outputs %v) satisfies row %d %v + %v (strict %v)", trial, x, y, k, row, d.Off[k], d.Strict[k])
				}
			}
		case Proved:
			for _, x := range s31rPoints(r, box) {
				if !holds(x) {
					t.Errorf("trial %d (%v): proved over %v, but at %v the outputs %v satisfy no row of %v", trial, br, box, x, y, d)
					break
				}
			}
		}
	}
	t.Logf("verdicts: %v", tally)
}

// s31rPoints returns the corners, the centre, their neighbouring floats
// within the box, and random points.
func s31rPoints(r *rand.Rand, b Box) [][]float64 {
	n := len(b.Lo)
	var pts [][]float64
	var vals [][]float64
	for i := range n {
		lo, hi := b.Lo[i], b.Hi[i]
		c := lo + (hi-lo)/2
		if math.IsInf(c, 0) || math.IsNaN(c) {
			c = lo/2 + hi/2
		}
		vs := []float64{lo, hi, c, math.Nextafter(lo, hi), math.Nextafter(hi, lo), math.Nextafter(c, hi), math.Nextafter(c, lo)}
		if lo <= 0 && 0 <= hi {
			vs = append(vs, 0, math.Copysign(0, -1), 5e-324, -5e-324)
		}
		var in []float64
		for _, v := range vs {
			if v >= lo && v <= hi {
				in = append(in, v)
			}
		}
		vals = append(vals, in)
	}
	var rec func(i int, x []float64)
	rec = func(i int, x []float64) {
		if i == n {
			pts = append(pts, append([]float64(nil), x...))
			return
		}
		for _, v := range vals[i] {
			rec(i+1, append(x, v))
		}
	}
	rec(0, nil)
	for range 200 {
		x := make([]float64, n)
		samplePoint(r, b, x)
		pts = append(pts, x)
	}
	return pts
}

// TestS31rReLUBranchNaNInfluence: ReLU-split branch and bound once
// dropped a box whose inputs' influences were all NaN (the backward
// coefficient 1e290 * 1e300 overflows to +Inf, times the input bound 0),
// as if it were a point, and answered Proved. The network is 1 near
// x = 3.7e-290 (two ReLUs 1e300 (x - c) cut a spike) plus
// 1e290 relu(1e300 x) - 1e290 relu(1e300 x), 0 in float64 evaluation but
// a NaN in the bound arithmetic: "y >= 0.5 nowhere in [0, 1e-290]" is
// false at x = 3.7e-290, so neither branching may prove it.
func TestS31rReLUBranchNaNInfluence(t *testing.T) {
	n := &Network{Layers: []Layer{
		{In: 1, Out: 5, W: []float64{1e300, 1e300, 1e300, -1e300, 0}, B: []float64{0, 0, -3.7e10, 3.7e10, 1}, Act: ActReLU},
		{In: 5, Out: 1, W: []float64{1e290, -1e290, -1, -1, 1}, B: []float64{0}},
	}}
	if y := n.Eval([]float64{3.7e-290}); y[0] != 1 {
		t.Fatalf("the network's spike: %v, want 1", y)
	}
	box := Box{Lo: []float64{0}, Hi: []float64{1e-290}}
	// The claim "0.5 - y > 0 everywhere" (a witness has y >= 0.5).
	d := Disjunction{Rows: [][]float64{{-1}}, Off: []float64{0.5}}
	for _, br := range []Branch{BranchInput, BranchReLU} {
		for _, m := range []Method{Both, IBP, CROWN, Alpha} {
			res, err := n.Prove(box, d, Options{Branch: br, Method: m, MaxNodes: 300})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict == Proved {
				t.Errorf("%v %v: proved, but x = 3.7e-290 gives y = 1", br, m)
			}
		}
	}
}

// TestS31rBackwardOverflow: CROWN's backward pass multiplies weights
// before it meets the box, so a coefficient overflowed (1e300 * 1e16)
// where the network's values stay small (x_1 is about 1e-316), and the
// concretised lower bound came out +Inf: Bounds gave the output an upper
// bound below its values, and Prove "proved" y < 1.5 over a box where
// y = 2 at x = (0.37, 1e-316) (vigil nn verify answered unsat). The
// network is a spike 1 - |1e10 (x_0 - 0.37)| plus 2 - 1e300 (1e16 x_1).
func TestS31rBackwardOverflow(t *testing.T) {
	n := &Network{Layers: []Layer{
		{In: 2, Out: 3, W: []float64{1e10, 0, -1e10, 0, 0, 1e16}, B: []float64{-3.7e9, 3.7e9, 0}, Act: ActReLU},
		{In: 3, Out: 2, W: []float64{-1, -1, 0, 0, 0, -1}, B: []float64{1, 0}},
		{In: 2, Out: 1, W: []float64{1, 1e300}, B: []float64{2}},
	}}
	x := []float64{0.37, 1e-316}
	if y := n.Eval(x); !(y[0] >= 1.5) {
		t.Fatalf("the network at %v: %v, want >= 1.5", x, y)
	}
	box := Box{Lo: []float64{0, 1e-316}, Hi: []float64{1, 2e-316}}
	for _, m := range []Method{Both, IBP, CROWN, Alpha} {
		lo, hi, err := n.Bounds(box, nil, m)
		if err != nil {
			t.Fatal(err)
		}
		if y := n.Eval(x); !(lo[0] <= y[0] && y[0] <= hi[0]) {
			t.Errorf("%v: bounds [%v, %v] miss the output %v at %v", m, lo[0], hi[0], y[0], x)
		}
		for _, br := range []Branch{BranchInput, BranchReLU} {
			d := Disjunction{Rows: [][]float64{{-1}}, Off: []float64{1.5}}
			res, err := n.Prove(box, d, Options{Branch: br, Method: m, MaxNodes: 300})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict == Proved {
				t.Errorf("%v %v: proved y < 1.5, but y(%v) = %v", m, br, x, n.Eval(x))
			}
		}
	}
	// The small network of the review's generator (trial 1058): the
	// coefficient -1e300 * -1e16 overflows; the row's value is about
	// -2.3e300 at every point of the box, and it was "proved" positive.
	n = &Network{Layers: []Layer{
		{In: 2, Out: 2, W: []float64{-1e16, -1, -0.7095523270484905, -1e16}, B: []float64{0.5555632937700714, -1.6295431542618002}, Act: ActClip, Lo: math.Inf(-1), Hi: 0.6276663010314314},
		{In: 2, Out: 3, W: []float64{-9.007199254740992e+15, -1e+300, 1e-300, 2.0062093312137064, 1.0000000000000002, -1.0000000000000002}, B: []float64{-1e+150, -0.012307957658316493, -1e+150}},
	}}
	box = Box{Lo: []float64{0.9999999995409558, -1.3275632515833749e-300}, Hi: []float64{1.0000000004590446, -6.724367484166252e-301}}
	d := Disjunction{Rows: [][]float64{{-1, 0, -1}}, Off: []float64{2.3390954813102908e+300}}
	for _, m := range []Method{Both, CROWN, Alpha} {
		for _, br := range []Branch{BranchInput, BranchReLU} {
			res, err := n.Prove(box, d, Options{Branch: br, Method: m, MaxNodes: 300})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict == Proved {
				t.Errorf("trial 1058, %v %v: proved, but the row is about -2.3e300 at %v", m, br, box.Lo)
			}
		}
	}
}

// TestS31rBoundsEdges: every method's bounds (Network.Bounds) on the
// float64-edge networks hold at the corners, centre, neighbouring floats
// and random points of the box, up to the rounding error of evaluation
// (Roundoff) and of the bound arithmetic (as much again, plus 2^-40
// relative, plus 1e-12 for underflow): a bound that misses by more is
// wrong, not rounded.
func TestS31rBoundsEdges(t *testing.T) {
	trials := 3000
	if testing.Short() {
		trials = 500
	}
	checked := 0
	for trial := range trials {
		r := rand.New(rand.NewPCG(uint64(trial), 3133))
		n := s31rNet(r)
		n.Out = OutNone
		if err := n.validate(); err != nil {
			continue
		}
		box := s31rBox(r, n.Inputs())
		e, ok := n.Roundoff(box)
		if !ok {
			continue
		}
		for _, m := range []Method{IBP, CROWN, Both, Alpha} {
			lo, hi, err := n.Bounds(box, nil, m)
			if err != nil {
				t.Fatal(err)
			}
			checked++
			for _, x := range s31rPoints(r, box) {
				y := n.Eval(x)
				for j := range y {
					// 1e-12 absolute: a backward coefficient that
					// underflows (5e-324 * 0.1 = 0) drops a term of
					// at most 2^-1074 times a value below 2^1024 per
					// neuron, far below prove.go's margin of 1e-9.
					tol := 2*e[j] + 0x1p-40*math.Abs(y[j]) + 1e-12
					if y[j] < lo[j]-tol || y[j] > hi[j]+tol {
						t.Errorf("trial %d %v: output %d = %v at %v, outside [%v, %v] (error bound %v); network %+v, box %v", trial, m, j, y[j], x, lo[j], hi[j], e[j], n.Layers, box)
					}
				}
			}
		}
	}
	t.Logf("%d bounds checked", checked)
}
