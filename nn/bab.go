package nn

// Branch and bound over ReLU splits (as in BaBSR, Bunel et al. 2020, and
// alpha-beta-CROWN; anchors.md "Neural networks").
//
// A domain is an input box together with split constraints: some unstable
// neurons are restricted to z >= 0 (the ReLU is the identity) or z <= 0
// (the ReLU is zero). Every input of the box lies in one of the two
// children of a ReLU split, so proving both children proves the parent.
// The bounder applies a split by clamping the neuron's pre-activation
// bounds (bounder.clamp) wherever they are computed; the bounds stay sound
// on the domain, which is a subset of the box, and a domain whose
// constraints contradict the bounds is empty (proved vacuously). Clamping
// alone only makes the split neuron's relaxation exact, while the bound
// still ranges over the whole box; so the final bound of a domain is
// optimised as in beta-CROWN (Wang et al. 2021): for any beta >= 0,
// f(x) >= f(x) - sum_i beta_i s_i z_i(x) on the domain (where s_i z_i >= 0,
// s_i = +1 for z >= 0 and -1 for z <= 0), so the backward pass adds
// -beta_i s_i to the coefficient of each split pre-activation and
// alphaLower ascends the bound in the betas together with the slopes
// (alpha.go). Intermediate bounds keep CROWN without betas.
//
// The neuron to split is ranked BaBSR-style: for the row closest to
// proved (highest lower bound), the backward pass gives each unstable
// neuron's coefficient a; the relaxation's intercept costs the bound up to
// |a|·(-l·u/(u-l)), which a split removes. The top candidates are then
// tried FSB-style: both children are bounded and the split whose worse
// child is best wins; its children are kept. When a domain has no
// unstable neuron left, the network is linear on it and the input box is
// split instead (the most influential input, as in prove.go), so that the
// search always progresses. Witnesses are checked at the centre of every
// box by float64 evaluation, and a projected-gradient search runs on open
// domains periodically.

import (
	"container/heap"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// Branch selects what the branch and bound of Prove and Verify splits.
type Branch int

const (
	BranchAuto  Branch = iota // input splits, then ReLU splits for the rest of the time
	BranchInput               // input splits only
	BranchReLU                // ReLU splits (input splits where no ReLU is unstable)
)

func (b Branch) String() string {
	switch b {
	case BranchInput:
		return "input"
	case BranchReLU:
		return "relu"
	}
	return "auto"
}

// ParseBranch reads "auto", "input" or "relu".
func ParseBranch(s string) (Branch, error) {
	switch s {
	case "auto", "":
		return BranchAuto, nil
	case "input":
		return BranchInput, nil
	case "relu":
		return BranchReLU, nil
	}
	return 0, errString("nn: unknown branching " + `"` + s + `"` + " (want auto, input or relu)")
}

// fsbCandidates is how many BaBSR-ranked neurons are tried by bounding
// both children.
const fsbCandidates = 3

// rsplit restricts neuron Neuron of layer Layer to z >= 0 (Active) or z
// <= 0.
type rsplit struct {
	layer, neuron int32
	active        bool
}

// domain is an open branch: a box, split constraints and its bound.
type domain struct {
	box    Box
	splits []rsplit
	score  float64   // max_k lower bound of the rows: lower is less proved
	row    int       // the row with that bound
	warm   []float64 // the optimised slopes and multipliers of its bound
}

type domainHeap []domain

func (h domainHeap) Len() int           { return len(h) }
func (h domainHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h domainHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *domainHeap) Push(x any)        { *h = append(*h, x.(domain)) }
func (h *domainHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// setSplits installs the split constraints s in the bounder.
func (b *bounder) setSplits(s []rsplit) {
	if b.phase == nil {
		b.phase = make([][]int8, len(b.layers))
		for j := range b.layers {
			b.phase[j] = make([]int8, b.layers[j].Out)
		}
	}
	for _, ph := range b.phase {
		clear(ph)
	}
	for _, sp := range s {
		if sp.active {
			b.phase[sp.layer][sp.neuron] = 1
		} else {
			b.phase[sp.layer][sp.neuron] = -1
		}
	}
}

// boundDomain bounds the rows over d (splits and box) and reports whether
// it is closed, its score and best row. The bounder keeps d's
// intermediate bounds until the next call. warm (may be nil) starts the
// slope optimisation; the optimised parameters are left in p.b.warmOut.
func (p *prover) boundDomain(box Box, splits []rsplit, warm []float64) (closed bool, score float64, row int) {
	p.nodes++
	p.b.setSplits(splits)
	p.b.warmIn, p.b.warmOut, p.b.keepWarm = warm, nil, true
	defer func() { p.b.warmIn, p.b.keepWarm = nil, false }()
	m := p.opt.Method
	if m == Both {
		// Splits pay off only with optimised multipliers (beta-CROWN):
		// without them a split removes one relaxation but the bound
		// still ranges over the whole box.
		m = Alpha
	}
	lb := p.b.lower(box, p.rows, m)
	score = math.Inf(-1)
	for k, v := range lb {
		v += p.off[k]
		if p.proves(k, v) {
			return true, v, k
		}
		if v > score {
			score, row = v, k
		}
	}
	return false, score, row
}

// reluCandidates ranks the unstable, unsplit neurons of the bounder's
// current domain for row r (BaBSR's intercept score) and returns up to n
// of them, best first.
func (p *prover) reluCandidates(r, n int) []rsplit {
	b := p.b
	last := len(b.layers) - 1
	l := &b.layers[last]
	type cand struct {
		s    rsplit
		diff float64
	}
	var cands []cand
	a := make([]float64, l.In)
	for i, c := range b.spec[r*l.Out : (r+1)*l.Out] {
		if c != 0 {
			floats.AddScaled(a, c, l.W[i*l.In:(i+1)*l.In])
		}
	}
	for j := last - 1; j >= 0; j-- {
		lj := &b.layers[j]
		if lj.Act == ActReLU {
			for i := range a {
				li, ui := b.lo[j][i], b.hi[j][i]
				switch {
				case li >= 0:
				case ui <= 0:
					a[i] = 0
				default:
					su := ui / (ui - li)
					if b.phase == nil || b.phase[j][i] == 0 {
						cands = append(cands, cand{rsplit{layer: int32(j), neuron: int32(i)}, math.Abs(a[i]) * (-li * su)})
					}
					if a[i] >= 0 {
						if ui <= -li {
							a[i] = 0
						}
					} else {
						a[i] *= su
					}
				}
			}
		}
		next := make([]float64, lj.In)
		for i, c := range a {
			if c != 0 {
				floats.AddScaled(next, c, lj.W[i*lj.In:(i+1)*lj.In])
			}
		}
		a = next
	}
	slices.SortStableFunc(cands, func(x, y cand) int {
		switch {
		case x.diff > y.diff:
			return -1
		case x.diff < y.diff:
			return 1
		}
		return 0
	})
	var out []rsplit
	for _, c := range cands[:min(n, len(cands))] {
		out = append(out, c.s)
	}
	return out
}

// runReLU decides the disjunction over box by branch and bound over ReLU
// splits (input splits where no ReLU is unstable).
func (p *prover) runReLU(box Box) Result {
	if len(p.d.Rows) == 0 {
		return p.anyPoint(box)
	}
	if !p.prepare(box) {
		return p.unbounded(box)
	}
	closed, score, row := p.boundDomain(box, nil, nil)
	if closed {
		return Result{Verdict: Proved, Nodes: p.nodes}
	}
	if x := p.search(box, p.opt.Samples); x != nil {
		return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
	}
	h := &domainHeap{{box: box, score: score, row: row, warm: p.b.warmOut}}
	return p.reluLoop(h)
}

// reluLoop expands the domains of h until they are all closed, a witness
// turns up or the limits run out.
func (p *prover) reluLoop(h *domainHeap) Result {
	for h.Len() > 0 {
		if p.nodes >= p.opt.MaxNodes || p.expired() {
			for i := 0; i < min(h.Len(), 8) && !p.expired(); i++ {
				if x := p.search((*h)[i].box, p.opt.Samples); x != nil {
					return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
				}
			}
			return Result{Verdict: Unknown, Nodes: p.nodes}
		}
		d := heap.Pop(h).(domain)
		c := center(d.box)
		if p.witness(c) {
			return Result{Verdict: Refuted, Witness: c, Nodes: p.nodes}
		}
		if p.nodes%64 == 0 {
			if x := p.search(d.box, 4); x != nil {
				return Result{Verdict: Refuted, Witness: x, Nodes: p.nodes}
			}
		}
		// Recompute the domain's intermediate bounds to rank its
		// neurons (the heap keeps only boxes and splits).
		if closed, _, _ := p.boundDomain(d.box, d.splits, d.warm); closed {
			continue
		}
		if p.b.warmOut != nil {
			d.warm = p.b.warmOut
		}
		cands := p.reluCandidates(d.row, fsbCandidates)
		if len(cands) == 0 {
			p.splitInput(h, d)
			continue
		}
		// FSB: bound both children of each candidate; keep the split
		// whose worse child is best (a closed child counts +Inf).
		var best [2]domain
		var bestClosed [2]bool
		bestVal := math.Inf(-1)
		for ci, cs := range cands {
			var kids [2]domain
			var kc [2]bool
			worse := math.Inf(1)
			for side := 0; side < 2; side++ {
				s := append(slices.Clip(d.splits), rsplit{cs.layer, cs.neuron, side == 0})
				cl, sc, rw := p.boundDomain(d.box, s, d.warm)
				kids[side] = domain{box: d.box, splits: s, score: sc, row: rw, warm: p.b.warmOut}
				kc[side] = cl
				if !cl {
					worse = min(worse, sc)
				}
			}
			if ci == 0 || worse > bestVal {
				best, bestClosed, bestVal = kids, kc, worse
			}
			if kc[0] && kc[1] {
				break
			}
		}
		for side := 0; side < 2; side++ {
			if !bestClosed[side] {
				heap.Push(h, best[side])
			}
		}
	}
	return Result{Verdict: Proved, Nodes: p.nodes}
}

// splitInput halves d's box along its most influential input, keeping d's
// split constraints in both halves.
func (p *prover) splitInput(h *domainHeap, d domain) {
	// p.b holds d's bounds and b.infl the influence of the rows.
	//
	// Every input of positive width is a candidate, whatever its
	// influence: the influence is not a number where the bound
	// arithmetic overflows (a coefficient 1e290 * 1e300 = +Inf times a
	// bound 0) or on an infinitely wide input (0 * +Inf), and a box
	// whose every influence was NaN was dropped as if it were a point,
	// which answered unsat where a counterexample lay inside it
	// (TestS31rReLUBranchNaNInfluence).
	split, best := -1, math.Inf(-1)
	for i, v := range p.b.infl {
		w := d.box.Hi[i] - d.box.Lo[i]
		if !(w > 0) {
			continue
		}
		v *= w
		if math.IsNaN(v) {
			v = math.Inf(1) // nothing known: as influential as any
		}
		if split < 0 || v > best || (v == best && w > d.box.Hi[split]-d.box.Lo[split]) {
			split, best = i, v
		}
	}
	if split < 0 {
		return // a point that is no witness: the point decides
	}
	mid := lerp(d.box.Lo[split], d.box.Hi[split], 0.5)
	for half := 0; half < 2; half++ {
		nb := Box{Lo: slices.Clone(d.box.Lo), Hi: slices.Clone(d.box.Hi)}
		if half == 0 {
			nb.Hi[split] = mid
		} else {
			nb.Lo[split] = mid
		}
		if cl, sc, rw := p.boundDomain(nb, d.splits, d.warm); !cl {
			heap.Push(h, domain{box: nb, splits: d.splits, score: sc, row: rw, warm: p.b.warmOut})
		}
	}
}

// MarshalText is the branching's name (String), so that a Branch is a
// flag value (flag.TextVar) and a JSON string.
func (b Branch) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText reads a branching's name (ParseBranch).
func (b *Branch) UnmarshalText(text []byte) error {
	v, err := ParseBranch(string(text))
	if err == nil {
		*b = v
	}
	return err
}
