package nn

// Input-split branch and bound for "some row is positive everywhere".
//
// A Disjunction asks: for every x in the box, is some g_k(x) = Rows[k]·f(x)
// + Off[k] strictly positive? Both PolIC3's decision query (g_k = f[a'] -
// f[a] for the surely applicable a') and a VNNLIB counterexample
// description (each constraint g <= 0 negated) are of this form.
//
// Each open box is bounded (IBP ∩ CROWN); a box where some row's lower
// bound exceeds a small margin is closed. Otherwise the box's centre is
// tried as a witness (all g_k <= 0, or < 0 for strict rows, under float64
// evaluation), and the box is split in half along one input: the
// inputs whose CROWN coefficients times width are largest (the "most
// influential") are each tried, bounding both halves, and the split
// whose halves are closest to proved is kept.
// Boxes are expanded least-proved first (lowest max_k lower bound), which
// finds counterexamples early and costs nothing when the answer is a
// proof, since every box must then be closed anyway. A cheap sampling and
// projected-gradient search runs before the split and again when the node
// budget runs out.

import (
	"container/heap"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"time"
)

// Verdict is the answer of a query.
type Verdict int

const (
	Unknown Verdict = iota // neither proved nor refuted within the limits
	Proved                 // every input of the box satisfies some row
	Refuted                // Witness satisfies no row
)

func (v Verdict) String() string {
	switch v {
	case Proved:
		return "proved"
	case Refuted:
		return "refuted"
	}
	return "unknown"
}

// Disjunction is the claim "for all x in the box, some Rows[k]·f(x) +
// Off[k] > 0". A witness against it has every Rows[k]·f(x) + Off[k] <= 0,
// and < 0 where Strict[k].
type Disjunction struct {
	Rows   [][]float64
	Off    []float64
	Strict []bool
}

// Options bound the effort of a query. Zero values select defaults.
type Options struct {
	Method   Method    // bound method per box (default Both)
	MaxNodes int       // boxes bounded before giving up (default 20000)
	Samples  int       // random samples in the first witness search (default 32)
	PGDSteps int       // projected-gradient steps per start (default 20)
	Deadline time.Time // give up (Unknown) after this time; zero: no deadline
	// Stop, when closed, ends the search (Unknown) as Deadline does: a
	// context's Done channel, so that Ctrl-C stops it within a box.
	Stop <-chan struct{}
	Seed uint64 // for sampling
	// Branch selects input or ReLU splits. Prove treats BranchAuto as
	// BranchInput; Verify splits inputs for the first half of its time,
	// then ReLU neurons (the other way round for networks with more than
	// 10 inputs).
	Branch Branch
}

func (o Options) withDefaults() Options {
	if o.MaxNodes <= 0 {
		o.MaxNodes = 20000
	}
	if o.Samples <= 0 {
		o.Samples = 32
	}
	if o.PGDSteps <= 0 {
		o.PGDSteps = 20
	}
	return o
}

// Result is a verdict, a witness input when Refuted, and statistics.
type Result struct {
	Verdict Verdict
	Witness []float64
	Nodes   int // boxes bounded
}

// margin is how far above zero a lower bound must be to count as proved,
// besides the rounding error of float64 evaluation (see slack).
const margin = 1e-9

// prepare sets the closing thresholds for the boxes inside root: a row
// k·f + off is proved where its exact lower bound exceeds
// slack[k] = margin + 2 sum_j |k_j| E_j, where E bounds the rounding
// error of float64 evaluation on root (Roundoff): then the row is
// positive for the scores the evaluator computes, which is what the
// policy's arg-max compares (lang/spec.md, Policies). The error term is
// doubled to cover the rounding of the bound computation itself, which
// forms dot products of the same magnitudes. It returns false when
// evaluation might overflow on root: nothing is proved there.
//
// A network ending in Softmax or LogSoftmax is prepared by prepareOut
// (softmax.go).
func (p *prover) prepare(root Box) bool {
	p.rslack = p.rslack[:0]
	if p.net.Out != OutNone {
		return p.prepareOut(root)
	}
	e, ok := p.roundoff(root)
	if p.overflow = !ok; !ok {
		return false
	}
	nout := p.net.Outputs()
	// The doubled error covers the bound's dot products that are as long
	// as evaluation's (a layer's backward sum runs over its outputs, the
	// next layer's inputs), but not the last one, over the row's nout
	// outputs: its error is at most gamma(nout+1) sum_j |k_j| mag_j, with
	// mag_j the absolute magnitude of output j, which E_j bounds by
	// gamma(in+1) mag_j (in: the last layer's inputs). Without it, a row
	// of 8002 outputs 2^60, -1 (8000 times), -2^60 plus 4000 summed to
	// 4000 > 0 while it is -4000 exactly: unsat where every point of the
	// box near x = 0 is a counterexample.
	wide := 0.0
	if l := len(p.net.Layers); l > 0 {
		wide = roundUp(gamma(nout+1) / gamma(p.net.Layers[l-1].In+1))
	}
	p.slack, p.rslack = p.slack[:0], p.rslack[:0]
	for k := range p.off {
		s := 0.0
		for j, c := range p.rows[k*nout : (k+1)*nout] {
			s += math.Abs(c) * e[j]
		}
		p.slack = append(p.slack, margin+2*inflate(s, nout)+inflate(s*wide, nout))
		p.rslack = append(p.rslack, inflate(s, nout))
	}
	return true
}

// roundoff is p.net.Roundoff(root), or the bound of the last box asked
// when root lies inside it: Roundoff is interval arithmetic, so a bound
// over a box holds on every box inside it (a little looser than the
// box's own). PolIC3 asks about several labels of one box in a row (APFT
// certifies each label a witness names), then about sub-boxes of it
// (excludeAround): on be2_64x64_safe of bench/polic3, Roundoff took 2 s
// of the 35 s run.
func (p *prover) roundoff(root Box) ([]float64, bool) {
	if p.roundOK && within(root, p.roundBox) {
		return p.roundErr, true
	}
	e, ok := p.net.Roundoff(root)
	p.roundBox = Box{Lo: append(p.roundBox.Lo[:0], root.Lo...), Hi: append(p.roundBox.Hi[:0], root.Hi...)}
	p.roundErr, p.roundOK = e, ok
	return e, ok
}

// within reports whether box a lies inside box b (same dimensions).
func within(a, b Box) bool {
	if len(a.Lo) != len(b.Lo) || len(a.Hi) != len(b.Hi) {
		return false
	}
	for i := range a.Lo {
		if !(a.Lo[i] >= b.Lo[i] && a.Hi[i] <= b.Hi[i]) {
			return false
		}
	}
	return true
}

// proves reports whether v, a lower bound of bound row k (its offset
// included), proves the row for float64 evaluation.
func (p *prover) proves(k int, v float64) bool { return v > p.slack[k] }

// prover holds the per-query state.
type prover struct {
	net   *Network
	d     Disjunction
	rows  []float64 // flat rows to bound: d's, then any combinations
	off   []float64 // their offsets
	b     *bounder
	ev    *Evaluator
	y     []float64
	grad  *gradient
	rng   *rand.Rand
	opt   Options
	nodes int
	slack []float64 // per bound row: the lower bound that proves it (prepare)
	// rslack is, per bound row, the rounding error of float64 evaluation
	// alone: a rigorous lower bound above it proves the row (region.go).
	rslack []float64
	// overflow reports that evaluation might overflow on the root box:
	// nothing is proved there (prepare).
	overflow bool
	fsb      bool        // resume tries every candidate input split (see runInput)
	runs     [2]inputRun // runInput's two runs
	// found is a witness met while bounding (tryCorner); corner its
	// scratch space.
	found, corner []float64
	// roundBox, roundErr and roundOK remember the last Roundoff
	// (roundoff).
	roundBox Box
	roundErr []float64
	roundOK  bool
	// points, when set, holds the inputs a witness may take (a VNNLIB
	// case's Points: strict bounds exclude the box's faces); a candidate
	// is moved into it before it is tried. Boxes are still proved whole.
	points Box
	pt     []float64 // witness's scratch space
	// exact, when set, must also accept the outputs of a witness (a
	// VNNLIB case's constraints in exact arithmetic).
	exact func(y []float64) bool
}

func newProver(n *Network, d Disjunction, opt Options) *prover {
	p := &prover{net: n, b: newBounder(n), ev: NewEvaluator(n), y: make([]float64, n.Outputs()),
		rng: rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15)), grad: newGradient(n)}
	p.reset(d, opt)
	return p
}

// reset prepares p for another query, keeping its scratch space.
func (p *prover) reset(d Disjunction, opt Options) {
	p.d, p.opt, p.nodes, p.found, p.points, p.exact = d, opt.withDefaults(), 0, nil, Box{}, nil
	p.rows = p.rows[:0]
	for _, r := range d.Rows {
		p.rows = append(p.rows, r...)
	}
	p.off = append(p.off[:0], d.Off...)
}

// combine adds bound rows that are convex combinations of pairs of the
// disjunction's rows, and the average of all: if w g_i + (1-w) g_j > 0
// everywhere (0 <= w <= 1), then at every point g_i > 0 or g_j > 0, so a
// box closes when any row or combination is proved positive. Counterexamples of VNNLIB properties need every constraint
// (all g_k <= 0); a box where the constraints cannot all hold although
// none is violated everywhere closes only with such combinations, or
// after many more splits.
//
// The combination is formed exactly (the weights are float64s, exact as
// rationals): its coefficients are rounded to the nearest float64 and its
// offset is lowered by what that rounding can cost where |y_j| <= mag[j]
// (Network.outputMagnitude over the root box), then rounded down, so that
// the row added is at most the exact combination wherever the outputs
// lie. In float64 arithmetic the sum rounded apart: rows 7 y - 7b and
// -3 y + 3b (both 0 at y = b) combined with w = 0.3 gave the coefficient
// 4.4e-16 and the offset 0, which "proved" 740 > 0 around b = 1.67e18,
// an unsat where y = b is a counterexample. A combination whose rounding
// cannot be bounded (an output without a magnitude bound) is left out.
func (p *prover) combine(mag func() []float64) {
	m := len(p.d.Rows)
	if m < 2 || m > 6 {
		return
	}
	nout := p.net.Outputs()
	var bound []float64 // mag(), asked once, when a coefficient rounds
	add := func(ks []int, ws []float64) {
		row := make([]float64, nout)
		off := new(big.Rat)
		loss := new(big.Rat)
		for j := range row {
			exact := new(big.Rat)
			for i, k := range ks {
				if c := p.d.Rows[k][j]; c != 0 {
					exact.Add(exact, new(big.Rat).Mul(new(big.Rat).SetFloat64(ws[i]), new(big.Rat).SetFloat64(c)))
				}
			}
			row[j], _ = exact.Float64()
			if math.IsInf(row[j], 0) {
				return
			}
			d := exact.Sub(exact, new(big.Rat).SetFloat64(row[j]))
			if d.Sign() == 0 {
				continue
			}
			if bound == nil {
				bound = mag()
			}
			if j >= len(bound) || math.IsInf(bound[j], 0) || math.IsNaN(bound[j]) {
				return
			}
			loss.Add(loss, d.Abs(d).Mul(d, new(big.Rat).SetFloat64(bound[j])))
		}
		for i, k := range ks {
			off.Add(off, new(big.Rat).Mul(new(big.Rat).SetFloat64(ws[i]), new(big.Rat).SetFloat64(p.d.Off[k])))
		}
		o := ratFloor(off.Sub(off, loss))
		if math.IsInf(o, 0) {
			return
		}
		p.rows = append(p.rows, row...)
		p.off = append(p.off, o)
	}
	// The best weights depend on the box; a grid of them, finer for two
	// rows, keeps the number of rows small.
	grid := []float64{0.25, 0.5, 0.75}
	if m == 2 {
		grid = []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	}
	all := make([]int, m)
	ws := make([]float64, m)
	for i := 0; i < m; i++ {
		all[i], ws[i] = i, 1/float64(m)
		for j := i + 1; j < m; j++ {
			for _, w := range grid {
				add([]int{i, j}, []float64{w, 1 - w})
			}
		}
	}
	if m > 2 {
		add(all, ws)
	}
}

// Prove decides the disjunction over box by branch and bound.
func (n *Network) Prove(box Box, d Disjunction, opt Options) (Result, error) {
	if err := n.checkBox(box); err != nil {
		return Result{}, err
	}
	if len(d.Off) != len(d.Rows) || (d.Strict != nil && len(d.Strict) != len(d.Rows)) {
		return Result{}, errShape
	}
	for _, r := range d.Rows {
		if len(r) != n.Outputs() {
			return Result{}, errShape
		}
	}
	p := newProver(n, d, opt)
	if opt.Branch == BranchReLU {
		return p.runReLU(box), nil
	}
	return p.runInput(box), nil
}

type errString string

func (e errString) Error() string { return string(e) }

const errShape = errString("nn: the rows of a disjunction must have one entry per network output and one offset each")

// witness reports whether x refutes the disjunction (float64 evaluation).
// With p.points set, x is first moved into it (and left there when it is
// a witness); no x is a witness when p.points is empty.
func (p *prover) witness(x []float64) bool {
	if p.points.Lo != nil {
		p.pt = append(p.pt[:0], x...)
		if !p.points.clamp(p.pt) {
			return false
		}
		p.ev.Eval(p.pt, p.y)
		if !p.violates(p.y) {
			return false
		}
		copy(x, p.pt)
		return true
	}
	p.ev.Eval(x, p.y)
	return p.violates(p.y)
}

// clampPoint returns x moved into p.points, or nil when p.points is
// empty; x itself without p.points.
func (p *prover) clampPoint(x []float64) []float64 {
	if p.points.Lo != nil && !p.points.clamp(x) {
		return nil
	}
	return x
}

// clamp moves x into b, coordinate by coordinate; false when b is empty.
func (b Box) clamp(x []float64) bool {
	for i := range x {
		if !(b.Lo[i] <= b.Hi[i]) {
			return false
		}
		x[i] = min(max(x[i], b.Lo[i]), b.Hi[i])
	}
	return true
}

// searchBox is box within p.points (nil Lo when that is empty), the box
// the witness searches draw from.
func (p *prover) searchBox(box Box) Box {
	if p.points.Lo == nil {
		return box
	}
	b := Box{Lo: slices.Clone(box.Lo), Hi: slices.Clone(box.Hi)}
	for i := range b.Lo {
		b.Lo[i], b.Hi[i] = max(b.Lo[i], p.points.Lo[i]), min(b.Hi[i], p.points.Hi[i])
		if !(b.Lo[i] <= b.Hi[i]) {
			return Box{}
		}
	}
	return b
}

// violates reports whether the outputs y satisfy every row (<= 0, or < 0
// where strict): y refutes the disjunction.
//
// With p.exact set (a VNNLIB case), a row whose float64 value is within
// its rounding error of zero is left to p.exact, which decides every
// candidate exactly: (< (* 3 Y_0) 1) holds at Y_0 = 0.3333333333333333, where
// float64 computes 3 Y_0 = 1; a point box decided by this test would
// otherwise be closed where the property is violated.
func (p *prover) violates(y []float64) bool {
	for k, row := range p.d.Rows {
		g := rowValue(row, p.d.Off[k], y)
		if p.exact != nil {
			// The rounding of the sum and of the file's coefficients
			// to float64, generously.
			mag := math.Abs(p.d.Off[k])
			for j, c := range row {
				if c != 0 {
					mag += math.Abs(c * y[j])
				}
			}
			if math.IsNaN(g) || math.IsInf(mag, 0) || math.Abs(g) <= float64(4*(len(row)+2))*unit*mag {
				continue
			}
		}
		if math.IsNaN(g) || g > 0 || (g == 0 && p.d.Strict != nil && p.d.Strict[k]) {
			return false
		}
	}
	// The exact constraints decide every candidate the float64 rows let
	// through, not only those with a row near zero: a VNNLIB case's rows
	// may have lowered offsets (Case.provable), under which a row far
	// below zero says nothing about the row as written.
	return p.exact == nil || p.exact(y)
}

// rowValue is row·y + off in float64, skipping the outputs the row does
// not mention: 0 * Inf is NaN, and an output that overflows must not hide
// that the constraints on the others hold (a VNNLIB row has a zero for
// every output its constraint does not name).
func rowValue(row []float64, off float64, y []float64) float64 {
	g := off
	for j, c := range row {
		if c != 0 {
			g += c * y[j]
		}
	}
	return g
}

// worst returns max_k g_k(y) and its row.
func (p *prover) worst(y []float64) (float64, int) {
	best, arg := math.Inf(-1), 0
	for k, row := range p.d.Rows {
		g := rowValue(row, p.d.Off[k], y)
		if g > best {
			best, arg = g, k
		}
	}
	return best, arg
}

type node struct {
	box   Box
	score float64 // max_k lower bound: lower is less proved
	split []int   // inputs to try splitting, most influential first; none for a point
}

type nodeHeap []node

func (h nodeHeap) Len() int           { return len(h) }
func (h nodeHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h nodeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)        { *h = append(*h, x.(node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

func (p *prover) expired() bool {
	if p.opt.Stop != nil {
		select {
		case <-p.opt.Stop:
			return true
		default:
		}
	}
	return !p.opt.Deadline.IsZero() && time.Now().After(p.opt.Deadline)
}

// inputRestart is the node budget of runInput's first two turns.
const inputRestart = 2000

// runInput decides the disjunction over box by input-split branch and
// bound, alternating between two runs that choose the input to split in
// two ways, each resumed where it stopped with a node budget that doubles
// every round: the most influential input (fast where one input
// dominates, as on ACAS Xu properties 1 to 3), and the best of the
// candidates after bounding both halves of each (p.fsb: five times the
// bounds per split, but ACAS Xu 4_5 prop_10 closes in about 2300 boxes
// where the first way stays open after 40000). Neither is better
// everywhere (the second needs more than 20000 boxes on 1_1 prop_2,
// which the first closes in 781), and the turns cost at most about
// twice the better run's nodes.
func (p *prover) runInput(box Box) Result {
	p.runs = [2]inputRun{}
	total := 0
	for budget := inputRestart; ; budget *= 2 {
		r, done := p.inputRound(box, budget, &total)
		if r.Verdict != Unknown || done {
			return r
		}
	}
}

// inputRun is the open boxes of one of runInput's runs.
type inputRun struct {
	h       nodeHeap
	started bool
}

// inputRound resumes both runs of runInput (p.runs), each for budget
// more nodes, within what *used leaves of p.opt.MaxNodes, and adds the
// nodes bounded to *used (r.Nodes is the new total). done reports that
// the node limit or the deadline leaves no further round.
func (p *prover) inputRound(box Box, budget int, used *int) (r Result, done bool) {
	limit := p.opt.MaxNodes
	defer func() { p.opt.MaxNodes, p.fsb = limit, false }()
	for i, fsb := range []bool{false, true} {
		left := limit - *used
		if left <= 0 || p.expired() {
			return Result{Verdict: Unknown, Nodes: *used}, true
		}
		p.fsb, p.nodes, p.opt.MaxNodes = fsb, 0, min(budget, left)
		r = p.resume(box, &p.runs[i])
		*used += p.nodes
		r.Nodes = *used
		if r.Verdict != Unknown || p.overflow {
			return r, true
		}
		if budget >= left {
			return r, true
		}
	}
	return r, p.expired()
}

// unbounded is the answer on a box where evaluation might overflow: a
// witness if the search finds one, else Unknown (never Proved).
func (p *prover) unbounded(box Box) Result {
	if x := p.search(box, p.opt.Samples); x != nil {
		return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
	}
	return Result{Verdict: Unknown, Nodes: p.nodes}
}

// anyPoint answers a disjunction of no rows, which nothing satisfies:
// any input is a witness, here the centre of box, moved into p.points;
// Unknown when p.points is empty (a VNNLIB bound such as X_0 = 1/7 that
// no float64 input meets).
func (p *prover) anyPoint(box Box) Result {
	if x := p.clampPoint(center(box)); x != nil {
		return Result{Verdict: Refuted, Witness: x}
	}
	return Result{Verdict: Unknown}
}

func (p *prover) run(box Box) Result {
	var st inputRun
	return p.resume(box, &st)
}

// resume runs (or, once started, continues) the input-split branch and
// bound of st over box until it decides, or p.opt.MaxNodes more boxes
// are bounded, or the deadline.
func (p *prover) resume(box Box, st *inputRun) Result {
	if len(p.d.Rows) == 0 {
		return p.anyPoint(box)
	}
	// bound returns (closed, score, split candidates).
	bound := func(bx Box) (bool, float64, []int) {
		p.nodes++
		lb := p.b.lower(bx, p.rows, p.opt.Method)
		score, row := math.Inf(-1), 0
		for k, v := range lb {
			v += p.off[k]
			if p.proves(k, v) {
				return true, v, nil
			}
			if v > score {
				score, row = v, k
			}
		}
		p.tryCorner(bx, row, len(lb))
		return false, score, p.splitCandidates(bx)
	}
	if !st.started {
		if !p.prepare(box) {
			return p.unbounded(box)
		}
		st.started = true
		closed, score, split := bound(box)
		if closed {
			return Result{Verdict: Proved, Nodes: p.nodes}
		}
		if x := p.search(box, p.opt.Samples); x != nil {
			return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
		}
		st.h = nodeHeap{{box: box, score: score, split: split}}
	}
	h := &st.h
	for h.Len() > 0 {
		if p.found != nil {
			break
		}
		if p.nodes >= p.opt.MaxNodes || p.expired() {
			// Last try: search the least-proved open boxes.
			for i := 0; i < min(h.Len(), 8) && !p.expired(); i++ {
				if x := p.search((*h)[i].box, p.opt.Samples); x != nil {
					return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
				}
			}
			return Result{Verdict: Unknown, Nodes: p.nodes}
		}
		nd := heap.Pop(h).(node)
		c := center(nd.box)
		if p.witness(c) {
			return Result{Verdict: Refuted, Witness: c, Nodes: p.nodes}
		}
		if len(nd.split) == 0 {
			// A single point that is not a witness and not proved: the
			// bound is loose only by rounding; the point itself decides.
			continue
		}
		// With p.fsb, try each candidate input: bound both halves and
		// keep the split whose halves are closest to proved, by the sum
		// of their bounds' negative parts (a closed half counts 0): this
		// prefers a split that closes one half, or nearly, to one that
		// improves both a little. Otherwise split the most influential
		// input.
		var best [2]node
		var bestClosed [2]bool
		bestVal := math.Inf(-1)
		for ci, d := range nd.split {
			var kids [2]node
			var kc [2]bool
			val := 0.0
			for half := 0; half < 2; half++ {
				nb := Box{Lo: slices.Clone(nd.box.Lo), Hi: slices.Clone(nd.box.Hi)}
				if half == 0 {
					nb.Hi[d] = c[d]
				} else {
					nb.Lo[d] = c[d]
				}
				cl, sc, sp := bound(nb)
				kids[half], kc[half] = node{box: nb, score: sc, split: sp}, cl
				if !cl {
					val += min(sc, 0)
				}
			}
			if ci == 0 || val > bestVal {
				best, bestClosed, bestVal = kids, kc, val
			}
			if kc[0] && kc[1] || !p.fsb {
				break
			}
		}
		for half := 0; half < 2; half++ {
			if !bestClosed[half] {
				heap.Push(h, best[half])
			}
		}
		if p.nodes%64 == 0 {
			if x := p.search(nd.box, 4); x != nil {
				return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
			}
		}
	}
	if x := p.found; x != nil {
		p.found = nil
		return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
	}
	return Result{Verdict: Proved, Nodes: p.nodes}
}

// tryCorner evaluates the corner of bx where the CROWN linear lower
// bound of row (of m bounded by the last lower() call; the one with the
// highest bound) is least, each input at the end its coefficient's sign
// picks, and records a witness in p.found. Counterexamples of ACAS Xu prop_7 lie at
// faces of the box, where the centres of boxes never are.
func (p *prover) tryCorner(bx Box, row, m int) {
	nin := len(bx.Lo)
	if p.found != nil || len(p.b.lastA) != m*nin {
		return
	}
	if cap(p.corner) < nin {
		p.corner = make([]float64, nin)
	}
	x := p.corner[:nin]
	for i, a := range p.b.lastA[row*nin : (row+1)*nin] {
		x[i] = bx.Lo[i]
		if a < 0 {
			x[i] = bx.Hi[i]
		}
	}
	if p.witness(x) {
		p.found = slices.Clone(x)
	}
}

// fsbInputs is how many inputs, ranked by influence, an input split
// tries (all of ACAS Xu's 5).
const fsbInputs = 5

// splitCandidates ranks the inputs of bx by influence (the bound's
// coefficients times the width, from p.b.infl) and returns up to
// fsbInputs of them with positive width, best first. run tries each
// (as FSB does for ReLU splits): on ACAS Xu 4_5 prop_10 this took the
// proof from unknown after 40000 boxes to about 2300 bounded boxes
// (nn/FIGURES.md), since the most influential input alone is often one
// whose halves bound no better than the whole.
func (p *prover) splitCandidates(bx Box) []int {
	var ds []int
	score := make([]float64, len(bx.Lo))
	for i, v := range p.b.infl {
		w := bx.Hi[i] - bx.Lo[i]
		if w <= 0 {
			continue
		}
		// Ties (IBP gives no influence) go to the wider input.
		score[i] = v*w + w*1e-12
		ds = append(ds, i)
	}
	slices.SortStableFunc(ds, func(a, b int) int {
		switch {
		case score[a] > score[b]:
			return -1
		case score[a] < score[b]:
			return 1
		}
		return 0
	})
	return ds[:min(len(ds), fsbInputs)]
}

// lerp is the point lo + t (hi - lo) for t in [0, 1], within [lo, hi]
// even where hi - lo overflows: the centre of [-1.7e308, 1.7e308] was
// +Inf, outside the box, and came back as a counterexample.
func lerp(lo, hi, t float64) float64 {
	x := lo + t*(hi-lo)
	if w := hi - lo; math.IsInf(w, 0) {
		x = lo*(1-t) + hi*t
	}
	return min(max(x, lo), hi)
}

func center(b Box) []float64 {
	c := make([]float64, len(b.Lo))
	for i := range c {
		c[i] = lerp(b.Lo[i], b.Hi[i], 0.5)
	}
	return c
}

// search tries random points and projected gradient descent on max_k g_k
// from the best of them. It returns a witness or nil.
func (p *prover) search(box Box, samples int) []float64 {
	if box = p.searchBox(box); box.Lo == nil {
		return nil
	}
	nin := len(box.Lo)
	x := make([]float64, nin)
	type start struct {
		x []float64
		v float64
	}
	var starts []start
	for s := 0; s < samples; s++ {
		if s%32 == 31 && p.expired() {
			break // the time limit (or Ctrl-C): the samples so far
		}
		for i := range x {
			switch {
			case s == 0:
				x[i] = lerp(box.Lo[i], box.Hi[i], 0.5)
			case s < 3 && p.rng.IntN(2) == 0:
				x[i] = box.Lo[i]
			case s < 3:
				x[i] = box.Hi[i]
			default:
				x[i] = lerp(box.Lo[i], box.Hi[i], p.rng.Float64())
			}
		}
		p.ev.Eval(x, p.y)
		if p.violates(p.y) {
			return append([]float64(nil), x...)
		}
		v, _ := p.worst(p.y)
		if len(starts) < 3 {
			starts = append(starts, start{append([]float64(nil), x...), v})
		} else {
			wi := 0
			for i := range starts {
				if starts[i].v > starts[wi].v {
					wi = i
				}
			}
			if v < starts[wi].v {
				starts[wi] = start{append([]float64(nil), x...), v}
			}
		}
	}
	g := make([]float64, nin)
	for _, st := range starts {
		copy(x, st.x)
		for step := 0; step < p.opt.PGDSteps; step++ {
			if step%8 == 7 && p.expired() {
				return nil
			}
			p.ev.Eval(x, p.y)
			if p.violates(p.y) {
				return append([]float64(nil), x...)
			}
			_, k := p.worst(p.y)
			p.grad.of(x, p.d.Rows[k], g)
			// Signed step, shrinking from a quarter of the box.
			eta := 0.25 * (1 - float64(step)/float64(p.opt.PGDSteps))
			for i := range x {
				w := box.Hi[i] - box.Lo[i]
				switch {
				case g[i] > 0:
					x[i] -= eta * w
				case g[i] < 0:
					x[i] += eta * w
				}
				x[i] = min(max(x[i], box.Lo[i]), box.Hi[i])
			}
		}
		p.ev.Eval(x, p.y)
		if p.violates(p.y) {
			return append([]float64(nil), x...)
		}
	}
	return nil
}

// gradient computes d(c·f)/dx by backpropagation.
type gradient struct {
	net *Network
	z   [][]float64 // pre-activations per layer
	g   []float64
	g2  []float64
	x   []float64
}

func newGradient(n *Network) *gradient {
	gr := &gradient{net: n, x: make([]float64, n.Inputs())}
	for _, l := range n.Layers {
		gr.z = append(gr.z, make([]float64, l.Out))
	}
	w := n.maxWidth()
	gr.g, gr.g2 = make([]float64, w), make([]float64, w)
	return gr
}

// of writes the gradient of c·f at x into out.
func (gr *gradient) of(x, c, out []float64) {
	n := gr.net
	copy(gr.x, x)
	n.normalize(gr.x)
	in := gr.x
	for k := range n.Layers {
		l := &n.Layers[k]
		z := gr.z[k]
		for i := 0; i < l.Out; i++ {
			s := l.B[i]
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				v := in[j]
				if k > 0 {
					v = applyAct(&n.Layers[k-1], v)
				}
				s += w * v
			}
			z[i] = s
		}
		in = z
	}
	g := gr.g[:n.Outputs()]
	for j := range g {
		g[j] = c[j]
		if n.OutRange != nil {
			g[j] *= n.OutRange[j]
		}
	}
	for k := len(n.Layers) - 1; k >= 0; k-- {
		l := &n.Layers[k]
		switch l.Act {
		case ActReLU:
			for i := range g {
				if gr.z[k][i] <= 0 {
					g[i] = 0
				}
			}
		case ActLeakyReLU:
			for i := range g {
				if gr.z[k][i] < 0 {
					g[i] *= l.Slope
				}
			}
		case ActTanh, ActSigmoid:
			for i := range g {
				g[i] *= deriv(l, gr.z[k][i])
			}
		case ActClip:
			for i := range g {
				if z := gr.z[k][i]; !(z > l.Lo && z < l.Hi) {
					g[i] = 0
				}
			}
		}
		g2 := gr.g2[:l.In]
		clear(g2)
		for i, gi := range g {
			if gi == 0 {
				continue
			}
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				g2[j] += gi * w
			}
		}
		gr.g, gr.g2 = gr.g2, gr.g
		g = g2
	}
	for i := range out {
		out[i] = g[i]
		if n.InMin != nil && (x[i] < n.InMin[i] || x[i] > n.InMax[i]) {
			out[i] = 0
		}
		if n.InRange != nil {
			out[i] /= n.InRange[i]
		}
	}
}

// attack is the falsification phase run before a proof: projected
// gradient descent on the input box from random starts (PGD, as attacks
// on classifiers do), minimising the sum of the rows that are not yet
// satisfied, with signed steps that shrink from a fifth of the box to a
// thousandth. Every iterate is checked by float64 evaluation. It stops at
// the first witness, after restarts starts, or at until.
func (p *prover) attack(box Box, restarts int, until time.Time) []float64 {
	if box = p.searchBox(box); box.Lo == nil {
		return nil
	}
	nin := len(box.Lo)
	nout := p.net.Outputs()
	const steps = 60
	x := make([]float64, nin)
	g := make([]float64, nin)
	c := make([]float64, nout)
	for s := 0; s < restarts; s++ {
		if !until.IsZero() && time.Now().After(until) {
			return nil
		}
		for i := range x {
			x[i] = lerp(box.Lo[i], box.Hi[i], p.rng.Float64())
		}
		for step := 0; step < steps; step++ {
			// The property's own time limit too: until is a share of
			// it per case, checked per start, and one start of a large
			// network times a VNNLIB disjunction of many boxes is
			// seconds.
			if step%8 == 7 && p.expired() {
				return nil
			}
			p.ev.Eval(x, p.y)
			if p.violates(p.y) {
				return slices.Clone(x)
			}
			// Descend on the sum of the rows above zero (the strict
			// ones at zero too): all must end at or below zero.
			clear(c)
			for k, row := range p.d.Rows {
				v := rowValue(row, p.d.Off[k], p.y)
				if v >= 0 {
					for j, cj := range row {
						c[j] += cj
					}
				}
			}
			p.grad.of(x, c, g)
			eta := 0.2 * math.Pow(0.005, float64(step)/float64(steps-1))
			for i := range x {
				w := box.Hi[i] - box.Lo[i]
				switch {
				case g[i] > 0:
					x[i] -= eta * w
				case g[i] < 0:
					x[i] += eta * w
				}
				x[i] = min(max(x[i], box.Lo[i]), box.Hi[i])
			}
		}
		p.ev.Eval(x, p.y)
		if p.violates(p.y) {
			return slices.Clone(x)
		}
	}
	return nil
}
