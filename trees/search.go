package trees

// Box-constrained output search (Veritas, Devos et al. ICML 2021; anchors.md
// "Tree ensembles"). The objective is a minimum of terms, each a signed class
// score or a difference of two class scores:
//
//	max f_C               one term  +f_C
//	min f_C               one term  -f_C (maximised, then negated)
//	margin C              terms f_C - f_c for every c != C
//	decision a vs sure    terms f_a - f_s for s in sure, s != a, each with a
//	                      tie flag: a tie f_a == f_s counts as a win for a
//	                      only when a comes before s in the outputs
//
// Values are compared lexicographically as (value, tie flag).
//
// A search state is a box of integer cells, one interval per feature: cell c
// of feature f is [cuts[f][c-1], cuts[f][c]), so split "x < cuts[f][j]" goes
// left exactly on cells <= j. The bound of a state is, per term, the sum of
// each tree's largest term contribution over the leaves reachable in the box,
// and the minimum over terms; it is admissible (no point of the box scores
// higher), so best-first search that pops the state with the largest bound
// stops with the optimum when it pops a complete state: one in which every
// tree gives every class that occurs in a term the same value on the whole
// box. Expansion picks the tree with the widest spread of the binding term
// and branches on its reachable leaves, intersecting the box with each leaf's
// path box. Every generated state's representative point is evaluated, which
// gives the anytime lower bound and early witnesses for the decision query.
//
// Rounding: evaluation sums class scores in tree order; bounds sum term
// contributions in another order, so partial bounds are padded by the
// ensemble's rounding tolerance, and complete states take the value of their
// evaluated point, which every point of the box shares exactly.

import (
	"container/heap"
	"fmt"
	"math"
	"time"
)

// Interval is the closed interval [Lo, Hi]; infinite ends are allowed.
type Interval struct{ Lo, Hi float64 }

// Box constrains each feature to an interval; features beyond len(Box) are
// unconstrained.
type Box []Interval

// Options are the budgets of a search. Zero values mean the defaults.
type Options struct {
	// MaxNodes bounds the number of expanded states (default 1<<18).
	MaxNodes int
	// MaxMemory bounds, in bytes, the memory of the queued states, which
	// is what a search spends memory on (default DefaultMaxMemory). The
	// search stops with anytime bounds and Stopped = StopMemory when the
	// queue reaches it.
	MaxMemory int64
	// MaxOpen bounds the number of queued states instead of MaxMemory when
	// positive (tests use it to provoke the limit).
	MaxOpen int
	// Timeout bounds the wall-clock time (default none).
	Timeout time.Duration
	// Stop, when closed, ends the search with anytime bounds and Stopped =
	// StopInterrupted: a context's Done channel, so that Ctrl-C stops it.
	Stop <-chan struct{}
}

// stopped reports whether o.Stop is closed.
func (o Options) stopped() bool {
	if o.Stop == nil {
		return false
	}
	select {
	case <-o.Stop:
		return true
	default:
		return false
	}
}

// DefaultMaxMemory is the default budget of the open queue, 512 MiB.
const DefaultMaxMemory = 512 << 20

// Stop names the budget that ended a search early.
type Stop string

const (
	StopNone    Stop = ""        // the search finished (or was settled)
	StopNodes   Stop = "nodes"   // MaxNodes states were expanded
	StopMemory  Stop = "memory"  // the open queue reached MaxMemory (or MaxOpen)
	StopTimeout Stop = "timeout" // Timeout passed
	// StopInterrupted: Options.Stop was closed (Ctrl-C, SIGTERM).
	StopInterrupted Stop = "interrupted"
)

// Stats reports a search's effort.
type Stats struct {
	Nodes     int // states expanded
	Generated int // states generated
	Time      time.Duration
	// Stopped names the budget that ran out, StopNone when none did.
	Stopped Stop
	// MaxOpen is the queue length the memory budget allowed.
	MaxOpen int
}

// queuedBytes estimates the memory of one queued state with nf features:
// the node, its box of two cells per feature and its heap slot.
func queuedBytes(nf int) int64 { return 64 + 8*int64(nf) + 8 }

// Result is the outcome of Max, Min or Margin.
type Result struct {
	// Exact reports that the search finished: Lower == Upper is the optimum
	// and Witness attains it. Otherwise the budget ran out and the optimum
	// lies in [Lower, Upper]; Witness attains Lower.
	Exact        bool
	Lower, Upper float64
	// Witness is an input in the box attaining Lower; WitnessBox is the
	// part of the box in the witness's split cell, on which every tree, and
	// so the objective, is constant.
	Witness    []float64
	WitnessBox Box
	Stats
}

// Max returns the maximum of class score f_class over the box.
func (e *Ensemble) Max(box Box, class int, opt Options) (Result, error) {
	if err := e.checkClass(class); err != nil {
		return Result{}, err
	}
	return e.optimise(box, []term{{p: class, sp: 1, n: -1}}, opt, false)
}

// Min returns the minimum of class score f_class over the box.
func (e *Ensemble) Min(box Box, class int, opt Options) (Result, error) {
	if err := e.checkClass(class); err != nil {
		return Result{}, err
	}
	return e.optimise(box, []term{{p: class, sp: -1, n: -1}}, opt, true)
}

// Margin returns the maximum over the box of f_class - max_{c != class} f_c.
func (e *Ensemble) Margin(box Box, class int, opt Options) (Result, error) {
	if err := e.checkClass(class); err != nil {
		return Result{}, err
	}
	if e.NumClasses < 2 {
		return Result{}, fmt.Errorf("trees: the margin needs at least two classes; the model has one (use --max or --min)")
	}
	var ts []term
	for c := 0; c < e.NumClasses; c++ {
		if c != class {
			ts = append(ts, term{p: class, sp: 1, n: c, sn: -1})
		}
	}
	return e.optimise(box, ts, opt, false)
}

func (e *Ensemble) checkClass(c int) error {
	if c < 0 || c >= e.NumClasses {
		return fmt.Errorf("trees: class %d out of range: the model has classes 0..%d", c, e.NumClasses-1)
	}
	return nil
}

func (e *Ensemble) optimise(box Box, ts []term, opt Options, negate bool) (Result, error) {
	s, err := e.newSearcher(box, ts, opt)
	if err != nil {
		return Result{}, err
	}
	s.add(s.root)
	s.run(nil)
	r := Result{Exact: s.done, Lower: s.best.v, Upper: s.upper().v, Stats: s.stats}
	if s.done {
		r.Upper = r.Lower
	}
	if s.bestX != nil {
		r.Witness = s.bestX
		r.WitnessBox = s.cellBox(s.bestX)
	}
	if negate {
		r.Lower, r.Upper = -r.Upper, -r.Lower
	}
	return r, nil
}

// term is sp*f[p] + sn*f[n] (n < 0: no second class) with a tie flag.
type term struct {
	p   int
	sp  float64
	n   int
	sn  float64
	tie int8
}

// lex is an objective value: (v, t) ordered lexicographically.
type lex struct {
	v float64
	t int8
}

func (a lex) less(b lex) bool { return a.v < b.v || (a.v == b.v && a.t < b.t) }

var negInf = lex{v: math.Inf(-1)}

type node struct {
	box      []int32 // per feature: lo, hi cell (inclusive)
	bound    lex
	complete bool
	depth    int32
	branch   int32 // tree to branch on
}

type nodeHeap []*node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].bound != h[j].bound {
		return h[j].bound.less(h[i].bound)
	}
	return h[i].depth > h[j].depth
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}

type searcher struct {
	e       *Ensemble
	terms   []term
	classes []int // classes occurring in a term
	nf      int
	lo, hi  []float64 // the real box
	opt     Options
	start   time.Time

	root  *node
	open  nodeHeap
	best  lex
	floor lex // states bounded by the floor are pruned
	// pruned is the largest bound of a state pruned by the floor alone
	// (its bound above the best value then): upper counts it, or a
	// decision proved by pruning reported the best point's value as its
	// bound on the margin, below the margin of other points of the box.
	pruned lex
	bestX  []float64
	done   bool
	stats  Stats
	// within, when set, restricts the search to the states of a region
	// (region.go): boxes without one are dropped, and only its states
	// are candidates.
	within *stateRegion

	// scratch
	stack  []int
	x      []float64
	scores []float64
	ub     []float64
	spread []float64 // per tree, per term
	tmax   []float64
	tmin   []float64
	cmax   []float64
	cmin   []float64
}

func (e *Ensemble) newSearcher(box Box, ts []term, opt Options) (*searcher, error) {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = 1 << 18
	}
	if opt.MaxOpen <= 0 {
		if opt.MaxMemory <= 0 {
			opt.MaxMemory = DefaultMaxMemory
		}
		opt.MaxOpen = int(max(1, opt.MaxMemory/queuedBytes(e.NumFeatures)))
	}
	s := &searcher{e: e, terms: ts, nf: e.NumFeatures, opt: opt, best: negInf, floor: negInf, pruned: negInf, start: time.Now()}
	s.stats.MaxOpen = opt.MaxOpen
	seen := map[int]bool{}
	for _, t := range ts {
		for _, c := range []int{t.p, t.n} {
			if c >= 0 && !seen[c] {
				seen[c] = true
				s.classes = append(s.classes, c)
			}
		}
	}
	if len(box) > s.nf {
		for f := s.nf; f < len(box); f++ {
			if iv := box[f]; iv.Lo > iv.Hi || math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
				return nil, fmt.Errorf("trees: box: feature %d: empty interval [%v, %v]", f, iv.Lo, iv.Hi)
			}
		}
	}
	s.lo = make([]float64, s.nf)
	s.hi = make([]float64, s.nf)
	root := &node{box: make([]int32, 2*s.nf)}
	for f := 0; f < s.nf; f++ {
		iv := Interval{math.Inf(-1), math.Inf(1)}
		if f < len(box) {
			iv = box[f]
		}
		if iv.Lo > iv.Hi || math.IsNaN(iv.Lo) || math.IsNaN(iv.Hi) {
			return nil, fmt.Errorf("trees: box: feature %d: empty interval [%v, %v]", f, iv.Lo, iv.Hi)
		}
		s.lo[f], s.hi[f] = iv.Lo, iv.Hi
		root.box[2*f] = int32(e.cellOf(f, iv.Lo))
		root.box[2*f+1] = int32(e.cellOf(f, iv.Hi))
	}
	nt, nk := len(e.Trees), len(ts)
	s.x = make([]float64, s.nf)
	s.scores = make([]float64, e.NumClasses)
	s.ub = make([]float64, nk)
	s.spread = make([]float64, nt*nk)
	s.tmax = make([]float64, nk)
	s.tmin = make([]float64, nk)
	s.cmax = make([]float64, len(s.classes))
	s.cmin = make([]float64, len(s.classes))
	s.root = root
	return s, nil
}

// singleCell reports whether the root box lies within one split cell.
func (s *searcher) singleCell() bool {
	b := s.root.box
	for f := 0; f < s.nf; f++ {
		if b[2*f] != b[2*f+1] {
			return false
		}
	}
	return true
}

// cellOf returns the cell of value v: the number of thresholds <= v.
func (e *Ensemble) cellOf(f int, v float64) int {
	c := e.cuts[f]
	lo, hi := 0, len(c)
	for lo < hi {
		m := (lo + hi) / 2
		if c[m] <= v {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// point writes a representative point of the cell box into s.x.
func (s *searcher) point(box []int32) {
	for f := 0; f < s.nf; f++ {
		s.x[f] = s.e.cellPoint(f, int(box[2*f]), s.lo[f], s.hi[f])
	}
}

// cellPoint returns a value in cell c of feature f that lies in [lo, hi]
// (which must meet the cell): the smallest such value where finite.
func (e *Ensemble) cellPoint(f, c int, lo, hi float64) float64 {
	cuts := e.cuts[f]
	if c > 0 {
		return max(lo, cuts[c-1])
	}
	if !math.IsInf(lo, -1) {
		return lo
	}
	// Unbounded below: something under the first threshold, preferring 0.
	v := min(0.0, hi)
	if len(cuts) > 0 && v >= cuts[0] {
		v = cuts[0] - 1
		if v >= cuts[0] {
			v = math.Nextafter(cuts[0], math.Inf(-1))
		}
	}
	if math.IsInf(v, -1) {
		v = -math.MaxFloat64
	}
	return v
}

// cellBox returns the part of the search box in x's split cell.
func (s *searcher) cellBox(x []float64) Box {
	cell := make([]int32, 2*s.nf)
	for f := 0; f < s.nf; f++ {
		c := int32(s.e.cellOf(f, x[f]))
		cell[2*f], cell[2*f+1] = c, c
	}
	return s.realBox(cell)
}

// realBox turns a cell box into the real box of its points within s's box.
func (s *searcher) realBox(box []int32) Box {
	b := make(Box, s.nf)
	for f := 0; f < s.nf; f++ {
		lo, hi := s.lo[f], s.hi[f]
		cuts := s.e.cuts[f]
		if c := box[2*f]; c > 0 {
			lo = max(lo, cuts[c-1])
		}
		if c := int(box[2*f+1]); c < len(cuts) {
			hi = min(hi, math.Nextafter(cuts[c], math.Inf(-1)))
		}
		b[f] = Interval{lo, hi}
	}
	return b
}

// evaluate computes the bound of n's box and whether it is complete, and
// returns the tree to branch on (-1 when complete).
func (s *searcher) evaluate(n *node) int {
	e := s.e
	nk := len(s.terms)
	for k, t := range s.terms {
		s.ub[k] = t.sp * e.Base[t.p]
		if t.n >= 0 {
			s.ub[k] += t.sn * e.Base[t.n]
		}
	}
	complete := true
	for ti := range e.Trees {
		tr := &e.Trees[ti]
		for k := 0; k < nk; k++ {
			s.tmax[k], s.tmin[k] = math.Inf(-1), math.Inf(1)
		}
		for j := range s.classes {
			s.cmax[j], s.cmin[j] = math.Inf(-1), math.Inf(1)
		}
		s.stack = append(s.stack[:0], 0)
		for len(s.stack) > 0 {
			i := s.stack[len(s.stack)-1]
			s.stack = s.stack[:len(s.stack)-1]
			nd := &tr.Nodes[i]
			if nd.Feature >= 0 {
				f := nd.Feature
				if int32(nd.cut) >= n.box[2*f] {
					s.stack = append(s.stack, nd.Left)
				}
				if int32(nd.cut)+1 <= n.box[2*f+1] {
					s.stack = append(s.stack, nd.Right)
				}
				continue
			}
			for k, t := range s.terms {
				v := t.sp * tr.leafValue(nd.Leaf, t.p, e.NumClasses)
				if t.n >= 0 {
					v += t.sn * tr.leafValue(nd.Leaf, t.n, e.NumClasses)
				}
				s.tmax[k] = max(s.tmax[k], v)
				s.tmin[k] = min(s.tmin[k], v)
			}
			for j, c := range s.classes {
				v := tr.leafValue(nd.Leaf, c, e.NumClasses)
				s.cmax[j] = max(s.cmax[j], v)
				s.cmin[j] = min(s.cmin[j], v)
			}
		}
		for k := 0; k < nk; k++ {
			s.ub[k] += s.tmax[k]
			s.spread[ti*nk+k] = s.tmax[k] - s.tmin[k]
		}
		for j := range s.classes {
			if s.cmax[j] != s.cmin[j] {
				complete = false
			}
		}
	}
	kb := 0
	for k := 1; k < nk; k++ {
		if (lex{s.ub[k], s.terms[k].tie}).less(lex{s.ub[kb], s.terms[kb].tie}) {
			kb = k
		}
	}
	n.complete = complete
	n.bound = lex{s.ub[kb] + e.tol, s.terms[kb].tie}
	if complete {
		return -1
	}
	// Branch on the widest spread of the binding term, else of any term,
	// else on any tree whose involved classes vary.
	bt, bw := -1, 0.0
	for ti := range e.Trees {
		if w := s.spread[ti*nk+kb]; w > bw {
			bt, bw = ti, w
		}
	}
	if bt < 0 {
		for ti := range e.Trees {
			for k := 0; k < nk; k++ {
				if w := s.spread[ti*nk+k]; w > bw {
					bt, bw = ti, w
				}
			}
		}
	}
	if bt < 0 {
		bt = s.varyingTree(n)
	}
	return bt
}

// varyingTree finds a tree with two reachable leaves that differ on an
// involved class (complete is false, so one exists).
func (s *searcher) varyingTree(n *node) int {
	e := s.e
	for ti := range e.Trees {
		tr := &e.Trees[ti]
		first := -1
		s.stack = append(s.stack[:0], 0)
		for len(s.stack) > 0 {
			i := s.stack[len(s.stack)-1]
			s.stack = s.stack[:len(s.stack)-1]
			nd := &tr.Nodes[i]
			if nd.Feature >= 0 {
				if int32(nd.cut) >= n.box[2*nd.Feature] {
					s.stack = append(s.stack, nd.Left)
				}
				if int32(nd.cut)+1 <= n.box[2*nd.Feature+1] {
					s.stack = append(s.stack, nd.Right)
				}
				continue
			}
			if first < 0 {
				first = nd.Leaf
				continue
			}
			for _, c := range s.classes {
				if tr.leafValue(nd.Leaf, c, e.NumClasses) != tr.leafValue(first, c, e.NumClasses) {
					return ti
				}
			}
		}
	}
	return 0
}

// value evaluates the objective at s.x.
func (s *searcher) value() lex {
	_ = s.e.Scores(s.x, s.scores)
	v := lex{v: math.Inf(1), t: 1}
	for _, t := range s.terms {
		var l lex
		if t.n >= 0 {
			// f_p - f_n is 0 exactly when f_p == f_n, so the sign is exact.
			l = lex{s.scores[t.p] - s.scores[t.n], t.tie}
		} else {
			l = lex{t.sp * s.scores[t.p], t.tie}
		}
		if l.less(v) {
			v = l
		}
	}
	return v
}

// add evaluates a new state, records its point as a candidate, and queues
// it unless nothing in it can beat the best point or the floor. A complete
// state's value is its point's, so it never needs queueing.
//
// Over a region (s.within), a state whose box holds no state of the
// region is dropped, and the point is moved into the region (or is no
// candidate when none is found).
func (s *searcher) add(n *node) {
	s.stats.Generated++
	if s.within != nil && !s.within.admit(s, n) {
		return
	}
	n.branch = int32(s.evaluate(n))
	s.point(n.box)
	candidate := true
	if s.within != nil {
		var empty bool
		candidate, empty = s.within.pick(s, n)
		if empty {
			return
		}
	}
	if candidate {
		v := s.value()
		if s.best.less(v) {
			s.best = v
			s.bestX = append(s.bestX[:0], s.x...)
		}
	}
	if n.complete || !s.best.less(n.bound) {
		return
	}
	if !s.floor.less(n.bound) {
		if s.pruned.less(n.bound) {
			s.pruned = n.bound
		}
		return
	}
	heap.Push(&s.open, n)
}

// upper is the anytime upper bound: the largest open or pruned bound, or
// the best value when it is larger.
func (s *searcher) upper() lex {
	u := s.best
	if u.less(s.pruned) {
		u = s.pruned
	}
	if len(s.open) > 0 && u.less(s.open[0].bound) {
		u = s.open[0].bound
	}
	return u
}

// run searches until done (nothing open can beat the best point), a
// budget runs out, or stop (if non-nil) says the question is settled.
func (s *searcher) run(stop func() bool) {
	defer func() { s.stats.Time = time.Since(s.start) }()
	for {
		if stop != nil && stop() {
			return
		}
		if len(s.open) == 0 || !s.best.less(s.open[0].bound) {
			s.done = true
			return
		}
		if s.stats.Nodes >= s.opt.MaxNodes {
			s.stats.Stopped = StopNodes
			return
		}
		if len(s.open) >= s.opt.MaxOpen {
			s.stats.Stopped = StopMemory
			return
		}
		if s.halted() {
			return
		}
		top := heap.Pop(&s.open).(*node)
		s.stats.Nodes++
		if !s.expand(top, int(top.branch)) {
			// Stopped half-way: the children added so far cover only
			// part of top's box, so top goes back to the queue and
			// keeps the anytime upper bound sound.
			heap.Push(&s.open, top)
			return
		}
	}
}

// halted reports whether the timeout passed or Options.Stop was closed,
// and records which in s.stats.Stopped. It is checked before every
// expansion and before every child an expansion generates: one child's
// bound walks every tree's reachable leaves, and one expansion of a
// wide tree generates a child per leaf, so an expansion of a large
// ensemble (1,000 trees of depth 10) took minutes, and a search checked
// its budgets only between expansions (the timeout every 64th):
// Ctrl-C, SIGTERM and --timeout went unheard (s29t_trees_stop_latency).
func (s *searcher) halted() bool {
	if s.stats.Stopped != StopNone {
		return true
	}
	if s.opt.Timeout > 0 && time.Since(s.start) > s.opt.Timeout {
		s.stats.Stopped = StopTimeout
		return true
	}
	if s.opt.stopped() {
		s.stats.Stopped = StopInterrupted
		return true
	}
	return false
}

// expand adds one child per leaf of tree ti reachable in n's box. It
// reports false when a budget stopped it before every child was added
// (see halted).
func (s *searcher) expand(n *node, ti int) bool {
	tr := &s.e.Trees[ti]
	box := append([]int32(nil), n.box...)
	complete := true
	var walk func(i int)
	walk = func(i int) {
		if !complete {
			return
		}
		nd := &tr.Nodes[i]
		if nd.Feature < 0 {
			if s.halted() {
				complete = false
				return
			}
			s.add(&node{box: append([]int32(nil), box...), depth: n.depth + 1})
			return
		}
		f := nd.Feature
		lo, hi := box[2*f], box[2*f+1]
		c := int32(nd.cut)
		if c >= lo {
			box[2*f+1] = min(hi, c)
			walk(nd.Left)
			box[2*f+1] = hi
		}
		if c+1 <= hi {
			box[2*f] = max(lo, c+1)
			walk(nd.Right)
			box[2*f] = lo
		}
	}
	walk(0)
	return complete
}
