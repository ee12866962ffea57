package nn

// Networks as .spec policies, and the decision query over integer state
// boxes that IC3 asks.
//
// A state box (per-variable lo..hi) maps through the policy's affine
// inputs to the box of their float64 values (InputBox); that box is bounded
// as any other. The branch and bound then splits the integer range of the
// state variable with the largest influence (CROWN coefficients times the
// affine coefficients times the range), so that the leaves are single
// states, which float64 evaluation (the policy's semantics) decides.
// Bounds close a box only by more than the rounding error of float64
// evaluation (prover.prepare). With a large enough node budget
// the state query is therefore complete.

import (
	"container/heap"
	"fmt"
	"math"

	"vigil/symbolic"
)

func init() {
	symbolic.RegisterKind(symbolic.KindNN, func(m *symbolic.Model, d *symbolic.PolicyDecl) (symbolic.Policy, error) {
		p, err := NewPolicy(m, d)
		if err != nil {
			return nil, err
		}
		return p, nil
	})
}

// Policy is a network policy of a .spec model.
type Policy struct {
	Net     *Network
	Decl    *symbolic.PolicyDecl
	nvars   int
	inputs  []symbolic.Affine
	coef    [][]float64 // per input, per variable
	sign    [][]int     // per input, per variable: the sign of the exact coefficient
	corner  symbolic.State
	outputs []symbolic.LabelID
	used    []bool // per variable: some input reads it
	ev      *Evaluator
	x       []float64
	pr      *prover // scratch space of Excludes
	y       []float64
	// imap encloses the inputs as affine maps of the state (region.go),
	// built on the first ExcludesWithin; imapBad records that the input
	// transform does not allow it.
	imap    *inputMap
	imapBad bool
	// stop ends every later query (Unknown) once closed, unless its
	// Options bring their own Stop (StopOn).
	stop <-chan struct{}
}

// StopOn makes the policy's certification queries (Exclude,
// ExcludeWithin, Excludes, ...) give up with Unknown once done is closed,
// so that an engine told to stop (Ctrl-C, its timeout) is not held up by a
// branch and bound over one box. Unknown is the conservative answer: the
// label is kept as possible. PolIC3 and PPA pass their context's Done.
func (p *Policy) StopOn(done <-chan struct{}) { p.stop = done }

// NewPolicy loads the network of an `nn` policy declaration and checks
// that its inputs and outputs match the declaration.
func NewPolicy(m *symbolic.Model, d *symbolic.PolicyDecl) (*Policy, error) {
	if d.File == "" {
		return nil, symbolic.ErrorAt(d.Pos, "nn: policy %s names no network file", d.Name)
	}
	// Networks are immutable once loaded: policies instantiated per
	// goroutine, and the --policy-file check of package load before
	// them, share the network of one content (LoadShared).
	net, err := LoadShared(d.File, d.Output)
	if err != nil {
		return nil, symbolic.ErrorAt(d.Pos, "policy %s: %w", d.Name, err)
	}
	return NewPolicyFromNetwork(m, d, net)
}

// NewPolicyFromNetwork binds an already loaded network (for example an
// NNet file named by a .jani2nnet interface) to a declaration.
func NewPolicyFromNetwork(m *symbolic.Model, d *symbolic.PolicyDecl, net *Network) (*Policy, error) {
	if d.Interface != "" && len(d.Inputs) == 0 {
		return nil, symbolic.ErrorAt(d.Pos, "nn: policy %s: the interface file %s must be resolved into inputs and outputs before the network is bound (lang/jani reads .jani2nnet files)", d.Name, d.Interface)
	}
	if len(d.Inputs) != net.Inputs() {
		return nil, symbolic.ErrorAt(d.Pos, "nn: policy %s lists %d inputs but network %s has %d; list one input expression per network input", d.Name, len(d.Inputs), d.File, net.Inputs())
	}
	if len(d.Outputs) != net.Outputs() {
		return nil, symbolic.ErrorAt(d.Pos, "nn: policy %s lists %d outputs but network %s has %d; list one label per network output", d.Name, len(d.Outputs), d.File, net.Outputs())
	}
	for _, l := range d.Outputs {
		if l < 0 || int(l) >= len(m.Labels) {
			return nil, symbolic.ErrorAt(d.Pos, "nn: policy %s: output label %d does not exist", d.Name, l)
		}
	}
	p := &Policy{Net: net, Decl: d, nvars: len(m.Vars), inputs: d.Inputs, outputs: d.Outputs,
		ev: NewEvaluator(net), x: make([]float64, net.Inputs())}
	for i, a := range d.Inputs {
		row := make([]float64, len(m.Vars))
		for _, t := range a.Terms {
			if t.Var < 0 || int(t.Var) >= len(m.Vars) {
				return nil, fmt.Errorf("%s: nn: policy %s: input %d names variable %d, which does not exist", a.Pos, d.Name, i+1, t.Var)
			}
			row[t.Var] += t.Coef.Float()
		}
		sg := d.Inputs[i].Signs(len(m.Vars))
		p.coef = append(p.coef, row)
		p.sign = append(p.sign, sg)
		if p.used == nil {
			p.used = make([]bool, len(m.Vars))
		}
		for v, c := range sg {
			if c != 0 {
				p.used[v] = true
			}
		}
	}
	return p, nil
}

// Outputs lists the output labels in order.
func (p *Policy) Outputs() []symbolic.LabelID { return p.outputs }

// ArgMaxAll reports that the declaration reads `argmax all`
// (symbolic.Unfiltered).
func (p *Policy) ArgMaxAll() bool { return p.Decl.ReadsAll() }

// Scores evaluates the network at state s.
func (p *Policy) Scores(s symbolic.State, dst []float64) error {
	if len(s) < p.nvars {
		return fmt.Errorf("nn: policy %s: state has %d variables, want %d", p.Decl.Name, len(s), p.nvars)
	}
	for i := range p.inputs {
		p.x[i] = p.inputs[i].Eval(s)
	}
	p.ev.Eval(p.x, dst)
	return nil
}

// TotalScores: a network's scores are defined on every state with the
// model's variables (NaN and -Inf scores are "never choose", not errors).
func (p *Policy) TotalScores() bool { return true }

// Clone returns an independent copy for another goroutine.
func (p *Policy) Clone() *Policy {
	c := *p
	c.ev = NewEvaluator(p.Net)
	c.x = make([]float64, p.Net.Inputs())
	c.pr, c.y, c.corner = nil, nil, nil
	return &c
}

// Params returns the declaration and the network's parameters (shared
// with the policy, not copied).
func (p *Policy) Params() symbolic.Params {
	n := symbolic.Network(*p.Net)
	return symbolic.Params{Decl: p.Decl, Network: &n}
}

// Exclude is ExcludesLabel with the default Options, as
// symbolic.Certifiable asks it.
func (p *Policy) Exclude(lo, hi []int, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	sure = p.Decl.Rivals(sure) // argmax all: a must beat every output
	r, err := p.ExcludesLabel(lo, hi, a, sure, Options{})
	return r.exclusion(err)
}

// ExcludeWithin is ExcludesWithin with labels and the default Options,
// as symbolic.RegionCertifiable asks it: Exclude over the states of the
// box that satisfy every atom.
func (p *Policy) ExcludeWithin(lo, hi []int, atoms []symbolic.Atom, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	sure = p.Decl.Rivals(sure) // argmax all: a must beat every output
	if len(atoms) == 0 {
		return p.Exclude(lo, hi, a, sure)
	}
	if _, err := symbolic.NewAtomRegion(p.nvars, atoms); err != nil {
		return symbolic.Undecided, nil, fmt.Errorf("nn: policy %s: %w", p.Decl.Name, err)
	}
	ai := p.OutputIndex(a)
	if ai < 0 {
		return symbolic.Excluded, nil, nil
	}
	r, err := p.ExcludesWithin(lo, hi, atoms, ai, p.sureIndices(sure), Options{})
	return r.exclusion(err)
}

// exclusion is r (and the query's error) as symbolic.Certifiable's
// answer.
func (r StateResult) exclusion(err error) (symbolic.Exclusion, symbolic.State, error) {
	if err != nil {
		return symbolic.Undecided, nil, err
	}
	switch r.Verdict {
	case Proved:
		return symbolic.Excluded, nil, nil
	case Refuted:
		return symbolic.Possible, r.Witness, nil
	}
	return symbolic.Undecided, nil, nil
}

// sureIndices maps labels to output indices, leaving out labels that
// are not outputs.
func (p *Policy) sureIndices(sure []symbolic.LabelID) []int {
	var s []int
	for _, l := range sure {
		if i := p.OutputIndex(l); i >= 0 {
			s = append(s, i)
		}
	}
	return s
}

var (
	_ symbolic.Certifiable       = (*Policy)(nil)
	_ symbolic.RegionCertifiable = (*Policy)(nil)
)

// OutputIndex returns the index of label l among the outputs, or -1.
func (p *Policy) OutputIndex(l symbolic.LabelID) int {
	for i, o := range p.outputs {
		if o == l {
			return i
		}
	}
	return -1
}

// InputBox maps the state box lo..hi (one entry per model variable) to the
// box of network inputs it can produce: the smallest box holding the
// float64 input of every state of lo..hi. An input is its exact affine
// value rounded to the nearest float64 (symbolic.Affine.Eval), a monotone
// function of each variable, so its extremes are its values at the
// corners where each variable is at the end its coefficient's sign picks.
func (p *Policy) InputBox(lo, hi []int) Box {
	b := Box{Lo: make([]float64, len(p.inputs)), Hi: make([]float64, len(p.inputs))}
	if cap(p.corner) < 2*p.nvars {
		p.corner = make(symbolic.State, 2*p.nvars)
	}
	cl, ch := p.corner[:p.nvars], p.corner[p.nvars:2*p.nvars]
	for i := range p.inputs {
		b.Lo[i], b.Hi[i] = p.inputs[i].Range(p.sign[i], lo, hi, cl, ch)
	}
	return b
}

// StateResult is the answer of the decision query over a state box.
type StateResult struct {
	Verdict Verdict
	Witness symbolic.State // when Refuted: a state of the box where a wins
	Nodes   int
}

// Excludes is the decision query over the integer state box lo..hi (one
// entry per model variable, inclusive): Proved if output a is never chosen
// in the box while the outputs in sure are available, Refuted with a state
// where a beats every output of sure, or Unknown when opt's limits run
// out. a and sure are output indices (see OutputIndex).
func (p *Policy) Excludes(lo, hi []int, a int, sure []int, opt Options) (StateResult, error) {
	if err := p.checkBox(lo, hi); err != nil {
		return StateResult{}, err
	}
	return p.excludes(lo, hi, nil, a, sure, opt)
}

// ExcludesWithin is Excludes over the states of the box lo..hi that
// satisfy every atom (symbolic.RegionCertifiable): the bounds are
// minimised over the region (region.go), sub-boxes that cannot meet the
// atoms are dropped, and a witness satisfies them. With no atoms it is
// Excludes. An atom with a nil form or a variable out of range is an
// error.
func (p *Policy) ExcludesWithin(lo, hi []int, atoms []symbolic.Atom, a int, sure []int, opt Options) (StateResult, error) {
	if err := p.checkBox(lo, hi); err != nil {
		return StateResult{}, err
	}
	if len(atoms) == 0 {
		return p.excludes(lo, hi, nil, a, sure, opt)
	}
	reg, err := symbolic.NewAtomRegion(p.nvars, atoms)
	if err != nil {
		return StateResult{}, fmt.Errorf("nn: policy %s: %w", p.Decl.Name, err)
	}
	return p.excludes(lo, hi, reg, a, sure, opt)
}

func (p *Policy) checkBox(lo, hi []int) error {
	if len(lo) != p.nvars || len(hi) != p.nvars {
		return fmt.Errorf("nn: policy %s: the state box has %d/%d bounds, want %d", p.Decl.Name, len(lo), len(hi), p.nvars)
	}
	for v := range lo {
		if lo[v] > hi[v] {
			return fmt.Errorf("nn: policy %s: the state box is empty in variable %d", p.Decl.Name, v)
		}
	}
	return nil
}

// findBudget is the node budget of a search for a state of the region
// (symbolic.AtomRegion.Find) where one decides a box; findNear the
// smaller one for a state near a box's middle, to try as a witness.
const (
	findBudget = 1 << 12
	findNear   = 32
)

// excludes is Excludes over the states of lo..hi that satisfy reg (nil:
// every state of the box).
func (p *Policy) excludes(lo, hi []int, reg *symbolic.AtomRegion, a int, sure []int, opt Options) (StateResult, error) {
	d, err := p.Net.exclusion(a, sure)
	if err != nil {
		return StateResult{}, err
	}
	if opt.Stop == nil {
		opt.Stop = p.stop
	}
	if p.pr == nil {
		p.pr = newProver(p.Net, d, opt)
	} else {
		p.pr.reset(d, opt)
	}
	pr := p.pr
	if reg != nil {
		lo, hi = append([]int(nil), lo...), append([]int(nil), hi...)
		if !reg.Tighten(lo, hi) {
			return StateResult{Verdict: Proved}, nil // no state satisfies the atoms
		}
	}
	if p.y == nil {
		p.y = make([]float64, p.Net.Outputs())
	}
	q := stateQuery{p: p, pr: pr, a: a, sure: sure, reg: reg}
	if len(d.Rows) == 0 {
		// Nothing competes with a: a state of the region is a witness
		// where a's own score is neither NaN nor -Inf (never chosen).
		return q.alone(lo, hi), nil
	}
	// A box whose states all give the same network input is decided by
	// one float64 evaluation.
	point := true
	for v := range lo {
		point = point && (lo[v] == hi[v] || !p.used[v])
	}
	if point {
		if q.isWitness(lo) {
			return q.regionState(lo, hi, lo), nil
		}
		return StateResult{Verdict: Proved}, nil
	}
	// The closing thresholds cover float64 rounding on the whole box
	// (prover.prepare); where evaluation might overflow, nothing is
	// proved by bounds, and only a box small enough to evaluate state by
	// state is decided.
	if !pr.prepare(p.InputBox(lo, hi)) {
		return q.enumerate(lo, hi, maxEnumerate), nil
	}
	if reg != nil {
		q.rb = newRegionBounds(p, reg)
		pr.b.reg = q.rb
		defer func() { pr.b.reg = nil }()
	}
	return q.search(lo, hi), nil
}

// regionState answers for a box whose states all let a win: Refuted with
// a state of the region (near the state near), Proved when the box holds
// none, Unknown when the search for one runs out of budget.
func (q *stateQuery) regionState(lo, hi []int, near []int) StateResult {
	if q.reg == nil || q.reg.Holds(near) {
		return StateResult{Verdict: Refuted, Witness: append(symbolic.State(nil), near...), Nodes: q.pr.nodes}
	}
	s, r := q.reg.Find(lo, hi, near, findBudget)
	switch r {
	case symbolic.FindFound:
		return StateResult{Verdict: Refuted, Witness: s, Nodes: q.pr.nodes}
	case symbolic.FindEmpty:
		return StateResult{Verdict: Proved, Nodes: q.pr.nodes}
	}
	return StateResult{Verdict: Unknown, Nodes: q.pr.nodes}
}

// alone answers for a query without rivals: a wins wherever its score
// qualifies (mayChoose). The first state of the region is tried, then
// the states of a small box one by one; in a larger box whose first
// state does not qualify (an overflow to NaN or -Inf), random states,
// else Unknown. Before session 31 the first state was the witness
// unevaluated.
func (q *stateQuery) alone(lo, hi []int) StateResult {
	r := q.regionState(lo, hi, lo)
	if r.Verdict != Refuted || q.isWitness(r.Witness) {
		return r
	}
	if q.usedStates(lo, hi) <= maxEnumerate {
		return q.enumerate(lo, hi, maxEnumerate)
	}
	pr := q.pr
	s := make([]int, len(lo))
	for k := 0; k < pr.opt.Samples; k++ {
		for v := range s {
			s[v] = lo[v] + int(pr.rng.Uint64N(width(lo[v], hi[v])+1))
		}
		if (q.reg == nil || q.reg.Holds(s)) && q.isWitness(s) {
			return StateResult{Verdict: Refuted, Witness: append(symbolic.State(nil), s...), Nodes: pr.nodes}
		}
	}
	return StateResult{Verdict: Unknown, Nodes: pr.nodes}
}

// stateQuery is one decision query of Excludes over state boxes: output
// a against the outputs of sure, with the prover pr set up for it, over
// the states that satisfy reg (nil: all of them).
type stateQuery struct {
	p    *Policy
	pr   *prover
	a    int
	sure []int
	h    stateHeap // the open boxes, lowest bound first
	reg  *symbolic.AtomRegion
	rb   *regionBounds // bounds over reg (nil without reg, or when the input transform forbids)
	// unsure records a box that was neither decided nor split: the
	// search for a state of the region in it ran out of budget.
	unsure bool
	// found is a witness met while queueing boxes (small boxes are
	// enumerated in push).
	found symbolic.State
}

// isWitness reports whether float64 evaluation lets a win in state s:
// the arg-max rule of symbolic.Choose, given the outputs of sure.
func (q *stateQuery) isWitness(s []int) bool {
	q.p.Scores(s, q.p.y)
	return mayChoose(q.p.y, q.a, q.sure)
}

// bound bounds the box lo..hi: closed when a row's lower bound proves
// it, else the best lower bound and the variable to split (the one of
// largest influence: CROWN coefficients times the affine coefficients
// times the range; -1 when every variable that an input reads is fixed).
func (q *stateQuery) bound(lo, hi []int) (closed bool, score float64, split int) {
	p, pr := q.p, q.pr
	pr.nodes++
	in := p.InputBox(lo, hi)
	if q.rb != nil {
		q.rb.setBox(lo, hi, in)
	}
	lb := pr.b.lower(in, pr.rows, pr.opt.Method)
	score = math.Inf(-1)
	for k, v := range lb {
		if pr.proves(k, v) {
			return true, v, -1
		}
		score = max(score, v)
	}
	if q.rb != nil && len(pr.rslack) == len(pr.off) {
		// Where the network is affine on the region, a rigorous bound
		// closes by the rounding error of evaluation alone.
		if ex, ok := q.rb.exactLower(pr.rows, pr.off); ok {
			for k, v := range ex {
				if v > pr.rslack[k] {
					return true, v, -1
				}
			}
		}
	}
	split, best := -1, -1.0
	for v := range lo {
		w := float64(width(lo[v], hi[v]))
		if w == 0 || !p.used[v] {
			continue // fixed, or no input reads it: splitting cannot help
		}
		s := 0.0
		for i, row := range p.coef {
			s += pr.b.infl[i] * math.Abs(row[v])
		}
		s *= w
		if s > best {
			split, best = v, s
		}
	}
	return false, score, split
}

// width is hi - lo for lo <= hi, exact in uint64: a box handed to the
// policy's API may be wider than int64 counts (-9e18..9e18), where
// hi - lo wrapped to a negative width (a panic of the random samples).
// A .spec variable has at most 2^40 values (E0301), so vigil's own
// commands never ask such a box.
func width(lo, hi int) uint64 { return uint64(hi) - uint64(lo) }

// middle is the state halfway from lo to hi (lo <= hi), rounded down,
// without overflow.
func middle(lo, hi int) int { return lo + int(width(lo, hi)/2) }

// smallRegionBox is the most states (of the variables the inputs read)
// of a box that push decides by evaluating them, over a region.
const smallRegionBox = 16

// push bounds lo..hi and queues it unless it is closed. Over a region,
// the box is first shrunk to the atoms' consequences (closed when none
// of its states satisfies them), and a small box is decided state by
// state (a witness is left in q.found).
func (q *stateQuery) push(lo, hi []int) bool {
	if q.reg != nil {
		if !q.reg.Tighten(lo, hi) {
			return true
		}
		if q.usedStates(lo, hi) <= smallRegionBox {
			r := q.enumerate(lo, hi, smallRegionBox)
			switch {
			case r.Verdict == Refuted && q.found == nil:
				q.found = r.Witness
			case r.Verdict == Unknown:
				q.unsure = true
			}
			return true
		}
	}
	closed, sc, split := q.bound(lo, hi)
	if !closed {
		heap.Push(&q.h, stateNode{lo: lo, hi: hi, score: sc, split: split})
	}
	return closed
}

// usedStates is the number of states of lo..hi counted over the
// variables some input reads (saturating above 2^30).
func (q *stateQuery) usedStates(lo, hi []int) int {
	n := 1
	for v := range lo {
		if q.p.used[v] {
			w := hi[v] - lo[v] + 1
			if w <= 0 || w > 1<<30 || n > (1<<30)/w {
				return 1 << 30
			}
			n *= w
		}
	}
	return n
}

// search is the branch and bound over the state box lo..hi: a few
// random states first (cheap witnesses), then the open box of lowest
// bound is evaluated at its middle state and split in halves on its
// split variable, until every box is closed, a witness is found, or the
// prover's limits run out. Over a region, only states of the region
// are tried as witnesses: the middle state, else one near it.
func (q *stateQuery) search(lo, hi []int) StateResult {
	p, pr := q.p, q.pr
	witness := func(s []int) StateResult {
		return StateResult{Verdict: Refuted, Witness: append(symbolic.State(nil), s...), Nodes: pr.nodes}
	}
	if q.push(lo, hi) {
		if q.found != nil {
			return witness(q.found)
		}
		return q.proved()
	}
	s := make([]int, p.nvars)
	for k := 0; k < pr.opt.Samples; k++ {
		for v := range s {
			s[v] = lo[v] + int(pr.rng.Uint64N(width(lo[v], hi[v])+1))
		}
		if (q.reg == nil || q.reg.Holds(s)) && q.isWitness(s) {
			return witness(s)
		}
	}
	mid := make([]int, p.nvars)
	for q.h.Len() > 0 {
		if q.found != nil {
			return witness(q.found)
		}
		if pr.nodes >= pr.opt.MaxNodes || pr.expired() {
			return StateResult{Verdict: Unknown, Nodes: pr.nodes}
		}
		nd := heap.Pop(&q.h).(stateNode)
		for v := range mid {
			mid[v] = middle(nd.lo[v], nd.hi[v])
		}
		cand, known := []int(mid), true
		if q.reg != nil && !q.reg.Holds(mid) {
			st, r := q.reg.Find(nd.lo, nd.hi, mid, findNear)
			switch r {
			case symbolic.FindEmpty:
				continue // no state of the region in the box
			case symbolic.FindFound:
				cand = st
			default:
				known = false
			}
		}
		if known && q.isWitness(cand) {
			return witness(cand)
		}
		if nd.split < 0 {
			// Every state of the box gives the network the same input,
			// so one evaluation decides the whole box: the one above,
			// or, with no state of the region at hand, one now.
			if !known && q.isWitness(mid) {
				switch r := q.regionState(nd.lo, nd.hi, mid); r.Verdict {
				case Refuted:
					return r
				case Unknown:
					q.unsure = true
				}
			}
			continue
		}
		v := nd.split
		m := middle(nd.lo[v], nd.hi[v])
		l1, h1 := append([]int(nil), nd.lo...), append([]int(nil), nd.hi...)
		l2, h2 := append([]int(nil), nd.lo...), append([]int(nil), nd.hi...)
		h1[v], l2[v] = m, m+1
		q.push(l1, h1)
		q.push(l2, h2)
	}
	if q.found != nil {
		return witness(q.found)
	}
	return q.proved()
}

// proved is the answer once every box is closed: Proved, or Unknown when
// a box was left undecided (unsure).
func (q *stateQuery) proved() StateResult {
	if q.unsure {
		return StateResult{Verdict: Unknown, Nodes: q.pr.nodes}
	}
	return StateResult{Verdict: Proved, Nodes: q.pr.nodes}
}

// maxEnumerate is the largest state box Excludes evaluates state by
// state when bounds cannot decide it (evaluation might overflow).
const maxEnumerate = 1 << 12

// enumerate decides the box state by state with float64 evaluation when
// it has at most limit states (of the variables the inputs read), else
// answers Unknown. Over a region, a state where a wins is a witness when
// it satisfies the atoms, or when a state of the region has the same
// values of the variables the inputs read (and so the same scores).
func (q *stateQuery) enumerate(lo, hi []int, limit int) StateResult {
	p, pr := q.p, q.pr
	if q.usedStates(lo, hi) > limit {
		return StateResult{Verdict: Unknown, Nodes: pr.nodes}
	}
	s := append([]int(nil), lo...)
	var l2, h2 []int
	unsure := false
	for {
		pr.nodes++
		if q.isWitness(s) {
			if q.reg == nil || q.reg.Holds(s) {
				return StateResult{Verdict: Refuted, Witness: append(symbolic.State(nil), s...), Nodes: pr.nodes}
			}
			l2, h2 = append(l2[:0], lo...), append(h2[:0], hi...)
			for v := range s {
				if p.used[v] {
					l2[v], h2[v] = s[v], s[v]
				}
			}
			switch r := q.regionState(l2, h2, s); r.Verdict {
			case Refuted:
				return r
			case Unknown:
				unsure = true
			}
		}
		v := 0
		for v < len(s) && (s[v] == hi[v] || !p.used[v]) {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			if unsure {
				return StateResult{Verdict: Unknown, Nodes: pr.nodes}
			}
			return StateResult{Verdict: Proved, Nodes: pr.nodes}
		}
		s[v]++
	}
}

// mayChoose reports whether the arg-max rule (symbolic.Choose) can pick
// output a with scores y when the outputs of sure are applicable: a's
// score is neither NaN nor -Inf, and no output of sure beats it (a
// higher score, or an equal one earlier in the output order, neither
// NaN nor -Inf). Unlike a row test y[o] - y[a] > 0, it is right at
// infinities: +Inf ties with +Inf.
func mayChoose(y []float64, a int, sure []int) bool {
	if !qualifies(y[a]) {
		return false
	}
	for _, o := range sure {
		if o != a && qualifies(y[o]) && (y[o] > y[a] || y[o] == y[a] && o < a) {
			return false
		}
	}
	return true
}

// qualifies reports whether the arg-max rule considers a score at all.
func qualifies(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, -1) }

type stateNode struct {
	lo, hi []int
	score  float64
	split  int
}

type stateHeap []stateNode

func (h stateHeap) Len() int           { return len(h) }
func (h stateHeap) Less(i, j int) bool { return h[i].score < h[j].score }
func (h stateHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stateHeap) Push(x any)        { *h = append(*h, x.(stateNode)) }
func (h *stateHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// ExcludesLabel is Excludes with labels instead of output indices: a label
// that is not among the policy's outputs is never chosen (Proved), and
// labels of sure that are not outputs are ignored.
func (p *Policy) ExcludesLabel(lo, hi []int, a symbolic.LabelID, sure []symbolic.LabelID, opt Options) (StateResult, error) {
	ai := p.OutputIndex(a)
	if ai < 0 {
		return StateResult{Verdict: Proved}, nil
	}
	var s []int
	for _, l := range sure {
		if i := p.OutputIndex(l); i >= 0 {
			s = append(s, i)
		}
	}
	return p.Excludes(lo, hi, ai, s, opt)
}
