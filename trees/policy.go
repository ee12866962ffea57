package trees

// Ensemble policies in .spec models. A `policy trees NAME "FILE" { inputs
// ...; outputs ... }` feeds input i the affine map Inputs[i] of the state
// and reads class c as the score of Outputs[c].
//
// The decision query over integer state boxes is answered exactly when every
// input that a split reads depends on one variable monotonically (the usual
// scaled inputs such as pos / (L + VMAX)) and the variables' ranges lie
// within ±2^53 (as ic3 and ppa require): each split "input < T" is then
// the same as "var < V" for an integer V found by binary search over the
// variable's range with the very float64 arithmetic of Affine.Eval, so the
// search runs over an ensemble on the state variables whose cells are sets
// of integer states and whose witnesses are states. Otherwise the state box
// is mapped to a real input box (an over-approximation: Proved stays
// sound) and small boxes are settled by enumerating their states.

import (
	"fmt"
	"math"
	"time"

	"vigil/symbolic"
)

func init() {
	symbolic.RegisterKind(symbolic.KindTrees, func(m *symbolic.Model, d *symbolic.PolicyDecl) (symbolic.Policy, error) {
		return NewPolicy(m, d)
	})
}

// Policy is an ensemble policy of a model; it implements symbolic.Policy.
// It is not safe for concurrent use.
type Policy struct {
	Decl *symbolic.PolicyDecl
	Ens  *Ensemble

	vars   []symbolic.Var
	x      []float64
	scores []float64
	// varEns is the ensemble over state variables (nil when some split
	// input is not a monotone function of a single variable).
	varEns *Ensemble
	// whyInput says why varEns is nil.
	whyInput string
	// signs holds, per input, the sign of each variable's coefficient
	// (symbolic.Affine.Signs), for InputBox.
	signs [][]int
	// params is the ensemble's raw parameters, built by Params.
	params *symbolic.Ensemble
	// stop ends every later query (Unknown) once closed, unless its
	// Options bring their own Stop (StopOn).
	stop <-chan struct{}
}

// StopOn makes the policy's certification queries (Exclude,
// ExcludeWithin, Excludes, ExcludesWithin) give up with Unknown once done
// is closed, so that an engine told to stop (Ctrl-C, SIGTERM, its
// timeout) is not held up by a search over one box: the searches check
// it before every expansion and every child (searcher.halted), and the
// input-space fallback before every box. Unknown is the conservative
// answer: the label is kept as possible. PolIC3 and PPA pass their
// context's Done (as for nn.Policy.StopOn); a nil done removes the hook.
func (p *Policy) StopOn(done <-chan struct{}) { p.stop = done }

// withStop is opt with the policy's stop hook when opt brings none.
func (p *Policy) withStop(opt Options) Options {
	if opt.Stop == nil {
		opt.Stop = p.stop
	}
	return opt
}

// EnumerateLimit is the largest state box that the input-space fallback of
// Policy.Excludes settles by evaluating every state.
const EnumerateLimit = 16

// NewPolicy loads the ensemble of a trees policy declaration and checks it
// against the declaration: one input per feature, one output per class.
func NewPolicy(m *symbolic.Model, d *symbolic.PolicyDecl) (*Policy, error) {
	fail := func(format string, args ...any) error {
		return symbolic.ErrorAt(d.Pos, "policy %s: %s", d.Name, fmt.Sprintf(format, args...))
	}
	if d.File == "" {
		return nil, fail("trees: no ensemble file given")
	}
	e, err := LoadShared(d.File) // shared with the other policies of its content
	if err != nil {
		return nil, fail("%v", err)
	}
	if e.NumClasses != len(d.Outputs) {
		hint := ""
		if e.NumClasses == 1 && len(d.Outputs) == 2 {
			// A binary classifier: one margin, no score per label.
			hint = " (a binary classifier computes one margin, not a score per label: train it with a multi-class objective, e.g. XGBoost's multi:softmax with num_class=2)"
		}
		return nil, fail("trees: the ensemble computes %d class scores but outputs lists %d labels; list one label per class, in class order%s", e.NumClasses, len(d.Outputs), hint)
	}
	if e.Declared && e.NumFeatures != len(d.Inputs) {
		return nil, fail("trees: the ensemble has %d features but inputs lists %d expressions; give one input per feature, in order", e.NumFeatures, len(d.Inputs))
	}
	if e.NumFeatures > len(d.Inputs) {
		return nil, fail("trees: a split reads feature %d but inputs lists only %d expressions", e.NumFeatures-1, len(d.Inputs))
	}
	for i, in := range d.Inputs {
		for _, t := range in.Terms {
			if int(t.Var) < 0 || int(t.Var) >= len(m.Vars) {
				return nil, fail("trees: input %d reads variable #%d, which the model does not have", i, t.Var)
			}
		}
	}
	p := &Policy{Decl: d, Ens: e, vars: m.Vars,
		x: make([]float64, max(e.NumFeatures, len(d.Inputs))), scores: make([]float64, e.NumClasses)}
	p.varEns, p.whyInput = p.lift()
	for i := range d.Inputs {
		p.signs = append(p.signs, d.Inputs[i].Signs(len(m.Vars)))
	}
	return p, nil
}

// Outputs lists the output labels in class order.
func (p *Policy) Outputs() []symbolic.LabelID { return p.Decl.Outputs }

// ArgMaxAll reports that the declaration reads `argmax all`
// (symbolic.Unfiltered).
func (p *Policy) ArgMaxAll() bool { return p.Decl.ReadsAll() }

// Scores evaluates the ensemble on the inputs of state s.
func (p *Policy) Scores(s symbolic.State, dst []float64) error {
	if len(s) < len(p.vars) {
		return fmt.Errorf("trees: policy %s: state has %d variables, want %d", p.Decl.Name, len(s), len(p.vars))
	}
	for i := range p.Decl.Inputs {
		p.x[i] = p.Decl.Inputs[i].Eval(s)
	}
	return p.Ens.Scores(p.x, dst)
}

// TotalScores: an ensemble's scores are defined on every state with the
// model's variables.
func (p *Policy) TotalScores() bool { return true }

// OutputIndex returns the index of label l among the outputs, or -1.
func (p *Policy) OutputIndex(l symbolic.LabelID) int {
	for i, o := range p.Decl.Outputs {
		if o == l {
			return i
		}
	}
	return -1
}

// Params returns the declaration and the ensemble's parameters: the
// trees with their normalised splits (go left iff input < Threshold), the
// leaf values, the base scores and whether sums round to float32. The
// parameters are built on the first call and shared by clones.
func (p *Policy) Params() symbolic.Params {
	if p.params == nil {
		p.params = p.Ens.params()
	}
	return symbolic.Params{Decl: p.Decl, Ensemble: p.params}
}

// Exclude is Excludes with labels and the default Options, as
// symbolic.Certifiable asks it.
func (p *Policy) Exclude(lo, hi []int, a symbolic.LabelID, sure []symbolic.LabelID) (symbolic.Exclusion, symbolic.State, error) {
	sure = p.Decl.Rivals(sure) // argmax all: a must beat every output
	ai := p.OutputIndex(a)
	if ai < 0 {
		return symbolic.Excluded, nil, nil // never an output: never chosen
	}
	r, err := p.Excludes(lo, hi, ai, p.sureIndices(sure), Options{})
	return r.exclusion(err)
}

// exclusion is r (and the query's error) as symbolic.Certifiable's
// answer: Exclude and ExcludeWithin map a search result in this one
// place, as nn's StateResult.exclusion does for networks.
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

var _ symbolic.Certifiable = (*Policy)(nil)

// Clone returns an independent copy for another goroutine.
func (p *Policy) Clone() *Policy {
	c := *p
	c.x = make([]float64, len(p.x))
	c.scores = make([]float64, len(p.scores))
	return &c
}

// Exact reports whether Excludes decides state boxes exactly (every split
// input is a monotone function of one variable), and if not, why.
func (p *Policy) Exact() (bool, string) { return p.varEns != nil, p.whyInput }

// inputAt evaluates input i with every term's variable set to v, exactly as
// Affine.Eval does.
func inputAt(a *symbolic.Affine, v int) float64 {
	n := 0
	for _, t := range a.Terms {
		n = max(n, int(t.Var)+1)
	}
	s := make(symbolic.State, n)
	for i := range s {
		s[i] = v
	}
	return a.Eval(s)
}

// lift builds the ensemble over state variables, or says why it cannot.
func (p *Policy) lift() (*Ensemble, string) {
	e := p.Ens
	nv := len(p.vars)
	if nv == 0 {
		return nil, "the model has no variables"
	}
	type inputInfo struct {
		v     int // variable, -1 for a constant input
		sign  int // +1 increasing, -1 decreasing, 0 constant
		ok    bool
		why   string
		input *symbolic.Affine
	}
	for _, va := range p.vars {
		// The lifted splits and the search's boxes hold variable values
		// as float64: beyond 2^53 they would round (engines that ask the
		// decision query refuse such ranges; the fallback stays exact).
		if va.Lo < -1<<53 || va.Hi > 1<<53 {
			return nil, fmt.Sprintf("variable %s has range %d..%d, beyond ±2^53", va.Name, va.Lo, va.Hi)
		}
	}
	infos := make([]inputInfo, len(p.Decl.Inputs))
	for i := range p.Decl.Inputs {
		a := &p.Decl.Inputs[i]
		in := inputInfo{v: -1, ok: true, input: a}
		for _, t := range a.Terms {
			c := t.Coef.Float()
			if c == 0 {
				continue
			}
			if in.v >= 0 && int(t.Var) != in.v {
				in.ok, in.why = false, fmt.Sprintf("input %d reads more than one variable", i+1)
				break
			}
			in.v = int(t.Var)
			s := 1
			if c < 0 {
				s = -1
			}
			if in.sign != 0 && in.sign != s {
				in.ok, in.why = false, fmt.Sprintf("input %d is not monotone in its variable", i+1)
				break
			}
			in.sign = s
		}
		infos[i] = in
	}
	b := newBuilder(e.Format, e.NumClasses)
	copy(b.e.Base, e.Base)
	b.e.NumFeatures, b.e.Declared = nv, true
	// Splits of one input at one threshold lift alike: memoised, since
	// an ensemble repeats its thresholds (XGBoost's histogram bins) and
	// each lift is a binary search of up to 54 evaluations (1,000 trees
	// of depth 10 over ranges of ±2^53 took 4.9 s to lift at load).
	type key struct {
		f int
		t float64 // never NaN (builder.finish); 0 and -0 split alike
	}
	type cut struct {
		f    int
		t    float64
		swap bool
	}
	memo := map[key]cut{}
	liftSplit := func(in inputInfo, t float64) cut {
		switch {
		case in.sign == 0: // constant input: the split is decided
			if inputAt(in.input, 0) < t {
				return cut{0, math.Inf(1), false} // always left
			}
			return cut{0, math.Inf(-1), false} // always right
		case in.sign > 0:
			// input(v) < T iff v < V, V the least v with input(v) >= T.
			va := p.vars[in.v]
			lo, hi := va.Lo, va.Hi+1
			for lo < hi {
				m := lo + (hi-lo)/2
				if inputAt(in.input, m) >= t {
					hi = m
				} else {
					lo = m + 1
				}
			}
			return cut{in.v, liftedCut(lo, va.Hi), false}
		default:
			// input(v) < T iff v > W, W the largest v with input(v) >=
			// T; that is !(v < W+1), so the children swap.
			va := p.vars[in.v]
			lo, hi := va.Lo-1, va.Hi
			for lo < hi {
				m := hi - (hi-lo)/2
				if inputAt(in.input, m) >= t {
					lo = m
				} else {
					hi = m - 1
				}
			}
			return cut{in.v, liftedCut(lo+1, va.Hi), true}
		}
	}
	for ti := range e.Trees {
		t := e.Trees[ti]
		nodes := make([]Node, len(t.Nodes))
		for i, n := range t.Nodes {
			if n.Feature < 0 {
				nodes[i] = n
				continue
			}
			in := infos[n.Feature]
			if !in.ok {
				return nil, in.why
			}
			k := key{n.Feature, n.Threshold}
			c, ok := memo[k]
			if !ok {
				c = liftSplit(in, n.Threshold)
				memo[k] = c
			}
			nn := Node{Feature: c.f, Threshold: c.t, Left: n.Left, Right: n.Right}
			if c.swap {
				nn.Left, nn.Right = n.Right, n.Left
			}
			nodes[i] = nn
		}
		t.Nodes = nodes
		b.e.Trees = append(b.e.Trees, t)
	}
	ve, err := b.finish()
	if err != nil {
		return nil, err.Error()
	}
	return ve, ""
}

// liftedCut is the threshold of the lifted split "v < V" over a variable
// whose values are at most hi: V itself, which is exact in float64 for
// |V| <= 2^53, or +Inf when no value reaches V. V = hi + 1 can be
// 2^53 + 1, which float64 rounds to 2^53: the split "v < 2^53" then sent
// the state v = 2^53 right where every state goes left, and Excludes
// proved a label excluded that the policy chose there
// (TestS32tLiftTopOfRange).
func liftedCut(v, hi int) float64 {
	if v > hi {
		return math.Inf(1)
	}
	return float64(v)
}

// StateResult is the answer of Policy.Excludes.
type StateResult struct {
	Verdict Verdict
	// Witness is a state of the box where output a beats every sure output
	// (Refuted only). When the policy is exact (see Exact), WitnessLo and
	// WitnessHi bound a sub-box around it whose states all have the
	// witness's scores, so a beats the sure outputs throughout it: a
	// ready-made generalisation for IC3. Otherwise they equal the witness.
	Witness              symbolic.State
	WitnessLo, WitnessHi []int
	Stats
}

// InputBox maps the state box lo..hi (indexed by VarID) to a box of real
// inputs containing every input vector of its states.
func (p *Policy) InputBox(lo, hi []int) Box {
	box := make(Box, len(p.Decl.Inputs))
	cl, ch := make(symbolic.State, len(lo)), make(symbolic.State, len(lo))
	for i := range p.Decl.Inputs {
		// Each input is its exact affine value rounded to float64
		// (Affine.Eval), monotone in each variable: extreme at corners.
		l, h := p.Decl.Inputs[i].Range(p.signs[i], lo, hi, cl, ch)
		box[i] = Interval{l, h}
	}
	return box
}

// Excludes answers PolIC3's decision query over the integer state box
// lo..hi (inclusive, indexed by VarID): Proved if in every state of the
// box some output in sure, other than a, beats output a (ties go to the
// earlier output); Refuted with a witness state where a beats them all;
// Unknown when the budget runs out. a and sure are output indices.
func (p *Policy) Excludes(lo, hi []int, a int, sure []int, opt Options) (StateResult, error) {
	if err := p.checkBox(lo, hi); err != nil {
		return StateResult{}, err
	}
	opt = p.withStop(opt)
	if p.varEns != nil && p.inRanges(lo, hi) {
		return p.excludesLifted(lo, hi, a, sure, opt, nil)
	}
	return p.excludesBySplitting(lo, hi, a, sure, opt, nil, nil)
}

// inRanges reports whether the box lo..hi lies within the variables'
// ranges, where the lifted ensemble's splits are those of the inputs:
// lift finds each cut by searching the range, so a split whose input
// crosses its threshold outside the range is cut at the range's end, and
// states beyond it went the wrong way: over x : 0 .. 10 the split
// -x < -15.5 became "always right", and Excludes proved bad excluded on
// x = 14 .. 18, where the policy chooses it at 16
// (TestS32tLiftOutsideRange). Boxes beyond the ranges go to the
// input-space fallback.
func (p *Policy) inRanges(lo, hi []int) bool {
	for v := range lo {
		if lo[v] < p.vars[v].Lo || hi[v] > p.vars[v].Hi {
			return false
		}
	}
	return true
}

func (p *Policy) checkBox(lo, hi []int) error {
	if len(lo) != len(p.vars) || len(hi) != len(p.vars) {
		return fmt.Errorf("trees: state box has %d/%d bounds for %d variables", len(lo), len(hi), len(p.vars))
	}
	for v := range lo {
		if lo[v] > hi[v] {
			return fmt.Errorf("trees: state box is empty in variable %s (%d > %d)", p.vars[v].Name, lo[v], hi[v])
		}
	}
	return nil
}

// excludesLifted answers over the ensemble on state variables, within
// the states within admits (nil: all of the box).
func (p *Policy) excludesLifted(lo, hi []int, a int, sure []int, opt Options, within *stateRegion) (StateResult, error) {
	box := make(Box, len(p.vars))
	for v := range box {
		box[v] = Interval{float64(lo[v]), float64(hi[v])}
	}
	d, err := p.varEns.excludes(box, a, sure, opt, within)
	if err != nil {
		return StateResult{}, err
	}
	sd := StateResult{Verdict: d.Verdict, Stats: d.Stats}
	if d.Verdict == Refuted {
		s := make(symbolic.State, len(p.vars))
		for v := range s {
			s[v] = int(d.Witness[v])
		}
		if !p.wins(s, a, sure) || (within != nil && !within.reg.Holds(s)) {
			// Cannot happen when lift is right; never claim a witness
			// that is not one.
			return StateResult{Verdict: Unknown, Stats: d.Stats}, nil
		}
		sd.Witness = s
		sd.WitnessLo, sd.WitnessHi = make([]int, len(s)), make([]int, len(s))
		for v, iv := range d.WitnessBox {
			sd.WitnessLo[v], sd.WitnessHi[v] = int(math.Ceil(iv.Lo)), int(math.Floor(iv.Hi))
		}
	}
	return sd, nil
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

// excludesBySplitting is the input-space fallback: each state box is
// mapped to its input box and searched there; Proved settles the box, any
// other answer splits it in half along its widest variable (depth first, so
// witnesses surface early), and boxes of at most EnumerateLimit states are
// settled by evaluating their states. Single states are thus always
// decided, and the answer is exact unless the budget runs out.
//
// Over a region (reg non-nil), each box is first shrunk to the atoms'
// consequences and dropped when no state satisfies them, and only
// states of the region count as witnesses; bounds (inputBounds) narrow
// the input boxes of inputs over several variables to the region.
func (p *Policy) excludesBySplitting(lo, hi []int, a int, sure []int, opt Options, reg *symbolic.AtomRegion, bounds []*inputBound) (StateResult, error) {
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = 1 << 18
	}
	start := time.Now()
	var sd StateResult
	type box struct{ lo, hi []int }
	stack := []box{{append([]int(nil), lo...), append([]int(nil), hi...)}}
	for len(stack) > 0 {
		// Stop is checked on every box: sd.Nodes grows by a search's
		// nodes at a time, so "every 64th" (sd.Nodes&63 == 0) could
		// miss it for good, and each box's search, stopped at once,
		// answered Unknown, which split the box: a stopped fallback
		// went on enumerating every state of the box.
		if sd.Nodes >= opt.MaxNodes || (opt.Timeout > 0 && time.Since(start) > opt.Timeout) || opt.stopped() {
			sd.Verdict, sd.Time = Unknown, time.Since(start)
			return sd, nil
		}
		bx := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if reg != nil && !reg.Tighten(bx.lo, bx.hi) {
			continue
		}
		// Widths as uint64: hi - lo overflows an int beyond 2^63 (a box
		// -2^62 .. 2^62), and a negative width made the box's size
		// negative, "at most EnumerateLimit", and winsIn enumerated its
		// 2^63 states, deaf to budget and Stop (TestS32uFallbackWideBox).
		size, widest, wmax := 1.0, -1, uint64(0)
		for v := range bx.lo {
			w := uint64(bx.hi[v] - bx.lo[v]) // exact: hi >= lo
			size *= float64(w) + 1
			if w > wmax {
				widest, wmax = v, w
			}
		}
		if size <= EnumerateLimit {
			sd.Nodes++
			if s, ok := p.winsIn(bx.lo, bx.hi, a, sure, reg); ok {
				sd.Verdict, sd.Witness, sd.Time = Refuted, s, time.Since(start)
				sd.WitnessLo, sd.WitnessHi = append([]int(nil), s...), append([]int(nil), s...)
				return sd, nil
			}
			continue
		}
		sub := opt
		sub.MaxNodes = opt.MaxNodes - sd.Nodes
		if opt.Timeout > 0 {
			// what is left of it, not a fresh timeout per box
			sub.Timeout = max(opt.Timeout-time.Since(start), time.Nanosecond)
		}
		ib := p.InputBox(bx.lo, bx.hi)
		if !narrow(ib, bounds) {
			continue // no state of the region in the box
		}
		if fallbackSearchHook != nil {
			fallbackSearchHook(sub)
		}
		d, err := p.Ens.Excludes(ib, a, sure, sub)
		if err != nil {
			return StateResult{}, err
		}
		sd.Nodes += max(d.Nodes, 1)
		sd.Generated += d.Generated
		if d.Verdict == Proved {
			continue
		}
		mid := bx.lo[widest] + int(wmax/2)
		left := box{append([]int(nil), bx.lo...), append([]int(nil), bx.hi...)}
		right := box{append([]int(nil), bx.lo...), append([]int(nil), bx.hi...)}
		left.hi[widest], right.lo[widest] = mid, mid+1
		stack = append(stack, right, left)
	}
	sd.Verdict, sd.Time = Proved, time.Since(start)
	return sd, nil
}

// fallbackSearchHook, when set (by tests), sees the options of each box's
// search in excludesBySplitting just before it runs.
var fallbackSearchHook func(sub Options)

// winsIn returns a state of the box lo..hi (that satisfies reg, when
// non-nil) where output a beats every sure output, if there is one.
func (p *Policy) winsIn(lo, hi []int, a int, sure []int, reg *symbolic.AtomRegion) (symbolic.State, bool) {
	s := append(symbolic.State(nil), lo...)
	for {
		if (reg == nil || reg.Holds(s)) && p.wins(s, a, sure) {
			return s, true
		}
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			return nil, false
		}
		s[v]++
	}
}

// wins reports whether output a beats every sure output in state s.
func (p *Policy) wins(s symbolic.State, a int, sure []int) bool {
	if err := p.Scores(s, p.scores); err != nil {
		return false
	}
	for _, c := range sure {
		if c == a || c < 0 || c >= len(p.scores) {
			continue
		}
		if p.scores[c] > p.scores[a] || (p.scores[c] == p.scores[a] && c < a) {
			return false
		}
	}
	return true
}
