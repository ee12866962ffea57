package ppa

// Branch-and-bound over the bounding box of a cube too large to enumerate
// (more than maxCube states), for learned policies: the question "is there
// a state s of the cube C where the policy chooses label l (and, given a
// candidate cube c, s is not terminal and an outcome of l leads from s
// into c)?" is answered without the network's SMT encoding where the box
// can be cut into pieces that each settle it:
//
//   - a sub-box B that misses C (a literal of C is false throughout B, by
//     interval evaluation of the predicate over B) is dropped;
//   - with a candidate c, a B from which no outcome of l can reach c (the
//     guards of l false throughout B, or the successor box of every
//     outcome, by interval evaluation, outside the ranges or missing a
//     literal of c) is dropped;
//   - the policy's certifier (symbolic.Certifiable.Exclude: CROWN with
//     input splitting for networks, the box search for ensembles) is
//     asked whether l is chosen anywhere in B, given the labels whose
//     guard holds throughout B: Excluded drops B. B is a superset of the
//     states of C in it, so an exclusion over B holds on them;
//   - a certifier's witness that lies in C and passes the exact test (the
//     policy's float64 choice and the explicit successor) answers yes;
//   - a B of at most leafStates states whose states in C are few (at most
//     leafCube, listed by enumerate's pruned search within leafNodes
//     partial states) is settled exactly: each is tested;
//   - otherwise B is split along its widest variable: into single values
//     when it has at most splitWays of them (the literals of C over fixed
//     variables then decide, as p[i] != p[j] does for two fixed tiles),
//     else into halves.
//
// Interval evaluation is symbolic.EvalBox and CondBox (symbolic/box.go).
//
// The answer is no only when every piece of the box was dropped by one of
// these sound tests; it is yes only for a state tested exactly. When the
// budget of regionBoxes sub-boxes runs out (a count, so that answers do
// not depend on the machine's load) it is undecided, and the caller falls
// back to the bounded SMT query. Each drop is sound on its own, so the
// union of the dropped pieces, which covers the box, holds no state of C
// that answers yes.
//
// The cube's linear literals are not given to the certifier: on
// np3x3_16x16_safe (cubes of npuzzle's all-different placements, the
// order literals p[1] < p[2] < p[3] linear) the certifier under them
// (RegionCertifiable's ExcludeWithin) took 43 CPU s against 22 s for the
// same answers, and shrinking each box to their consequences
// (AtomRegion.Tighten) 73 s (unknown at 150 s) against 16 s.

import (
	"math"
	"slices"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Budgets of one region search.
const (
	// regionBoxes bounds the sub-boxes a search handles.
	regionBoxes = 1 << 14
	// leafStates bounds the states of a sub-box whose states in the cube
	// are listed (searchWithin), within leafCube of them and leafNodes
	// partial states; where they are listed, the box is settled by
	// testing each, else it is split further.
	leafStates = 1 << 16
	leafCube   = 1 << 12
	leafNodes  = 1 << 16
	// leafNoCert bounds the states of a box that is enumerated without
	// asking the certifier first.
	leafNoCert = 1 << 12
	// certShrink is the factor by which the boxes the certifier is asked
	// about shrink after it answered undecided.
	certShrink = 1 << 8
	// splitWays is the widest range split into single values.
	splitWays = 16
)

// regionAnswer is the answer of a region search.
type regionAnswer uint8

const (
	regionUndecided regionAnswer = iota // the budget ran out
	regionNone                          // no state of the cube answers yes
	regionFound                         // a state answers yes (tested exactly)
)

func (a regionAnswer) String() string {
	return [...]string{"undecided", "none", "found"}[a]
}

// regionQuery is one search: label l over the cube vals, with the
// candidate cubes targets, each answered on its own (none: "l is chosen
// somewhere in the cube", terminal states included, as nd.never records
// it), or for a range error of l (rangeErr). The candidates of one
// (cube, label) share one search (regionSearchAll): the certifier's
// exclusions and the leaves' states serve all of them, where a search per
// candidate repeated them.
type regionQuery struct {
	r       *engine
	vals    []bool
	l       symbolic.LabelID
	targets [][]bool
	// rangeErr asks, instead of a candidate, for a state not terminal
	// where an outcome of l leaves a variable's range.
	rangeErr bool
	boxes    int // sub-boxes handled
	// certMax bounds the states of a box the certifier is asked about
	// (it shrinks after an undecided answer, which costs the certifier's
	// whole budget).
	certMax float64
	xp      explicit.Expansion
	// Per question (per target, or the one question without targets):
	// found is the state that answered yes, nil until one did; undecided
	// marks a question pending in a box that could not be settled.
	found     []symbolic.State
	undecided []bool
	open      int // questions not answered yes
	hits      []int
}

// questions is the number of questions of q: one per target, or one.
func (q *regionQuery) questions() int { return max(len(q.targets), 1) }

// regionSearch answers the question of regionQuery over the cube vals,
// whose bounding box is lo..hi, for the candidate target (nil: none).
func (r *engine) regionSearch(vals []bool, lo, hi []int, l symbolic.LabelID, target []bool) (regionAnswer, symbolic.State) {
	var targets [][]bool
	if target != nil {
		targets = [][]bool{target}
	}
	ans, found := r.runRegion(&regionQuery{r: r, vals: vals, l: l, targets: targets}, lo, hi)
	return ans[0], found[0]
}

// regionSearchAll answers regionSearch for every candidate of targets
// (at least one) in one search.
func (r *engine) regionSearchAll(vals []bool, lo, hi []int, l symbolic.LabelID, targets [][]bool) ([]regionAnswer, []symbolic.State) {
	return r.runRegion(&regionQuery{r: r, vals: vals, l: l, targets: targets}, lo, hi)
}

// regionSearchErr asks the region search whether some state of the cube
// vals (box lo..hi), not terminal, chooses l where an outcome of l leaves
// a variable's range (the bad region's range errors).
func (r *engine) regionSearchErr(vals []bool, lo, hi []int, l symbolic.LabelID) (regionAnswer, symbolic.State) {
	ans, found := r.runRegion(&regionQuery{r: r, vals: vals, l: l, rangeErr: true}, lo, hi)
	return ans[0], found[0]
}

// regionBox is a box of the search with the questions still pending in
// it.
type regionBox struct {
	lo, hi  []int
	pending []int
}

// runRegion runs the search of q over the box lo..hi: an answer and the
// state found per question.
func (r *engine) runRegion(q *regionQuery, lo, hi []int) ([]regionAnswer, []symbolic.State) {
	n := q.questions()
	q.certMax = math.Inf(1)
	q.found, q.undecided, q.open = make([]symbolic.State, n), make([]bool, n), n
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	stack := []regionBox{{append([]int(nil), lo...), append([]int(nil), hi...), all}}
	out := func(budget bool) ([]regionAnswer, []symbolic.State) {
		ans := make([]regionAnswer, n)
		for i := range ans {
			switch {
			case q.found[i] != nil:
				ans[i] = regionFound
				r.stats.RegionFound++
			case budget || q.undecided[i]:
				ans[i] = regionUndecided
				r.stats.RegionUnknown++
			default:
				ans[i] = regionNone
				r.stats.RegionNone++
			}
		}
		return ans, q.found
	}
	for len(stack) > 0 && q.open > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if q.boxes++; q.boxes > regionBoxes || r.ctx.Err() != nil {
			return out(true)
		}
		pending, more := q.box(b.lo, b.hi, b.pending)
		if len(pending) == 0 {
			continue
		}
		if !more {
			for _, i := range pending {
				q.undecided[i] = true
			}
			continue
		}
		for _, c := range split(b.lo, b.hi) {
			stack = append(stack, regionBox{c[0], c[1], pending})
		}
	}
	return out(false)
}

// box settles what it can of the sub-box lo..hi for the questions
// pending there: it returns the questions left open in the box (none
// when the box is settled: each pending question excluded there or
// answered yes), and whether splitting the box may help (false only for
// a box of one state whose enumeration hit its bounds, which does not
// happen).
func (q *regionQuery) box(lo, hi []int, pending []int) ([]int, bool) {
	r := q.r
	// Does B meet the cube?
	for p, want := range q.vals {
		if t := symbolic.CondBox(r.preds.list[p].c, lo, hi); t != symbolic.BoxMaybe && (t == symbolic.BoxTrue) != want {
			return nil, false
		}
	}
	if q.rangeErr && !q.mayErr(lo, hi) {
		return nil, false
	}
	// The questions not yet answered yes whose candidate B may reach.
	var left []int
	for _, i := range pending {
		if q.found[i] == nil && (len(q.targets) == 0 || q.mayStep(lo, hi, q.targets[i])) {
			left = append(left, i)
		}
	}
	if len(left) == 0 {
		return nil, false
	}
	// The certifier over B, given the labels applicable throughout B.
	size := boxSize(lo, hi)
	leaf, noCert, cube := float64(leafStates), float64(leafNoCert), leafCube
	if r.opts.leafLimit > 0 {
		leaf = float64(r.opts.leafLimit)
		noCert = min(noCert, leaf/2)
		cube = r.opts.leafLimit
	}
	if size > noCert && size <= q.certMax {
		sure := surely(r.m, lo, hi)
		r.stats.CertCalls++
		ex, w, err := r.cert.Exclude(lo, hi, q.l, sure)
		if ex == symbolic.Undecided {
			// The certifier spent its whole budget: ask it again only
			// on much smaller boxes.
			q.certMax = size / certShrink
		}
		if err == nil {
			switch ex {
			case symbolic.Excluded:
				return nil, false
			case symbolic.Possible:
				if w != nil && inBox(w, lo, hi) {
					q.test(w, left)
					if left = q.unanswered(left); len(left) == 0 {
						return nil, false
					}
				}
			}
		}
	}
	// Small enough to settle state by state: a box whose states in the
	// cube are few (cheap to list by the pruned search where the cube is
	// sparse in its box, as npuzzle's all-different placements are).
	if size <= leaf {
		sts, ok := r.searchWithin(q.vals, lo, hi, cube, leafNodes)
		if !ok {
			return left, !onePoint(lo, hi)
		}
		for _, s := range sts {
			if q.test(s, left); q.open == 0 {
				break
			}
		}
		return nil, false
	}
	return left, true
}

// unanswered returns the questions of pending not answered yes.
func (q *regionQuery) unanswered(pending []int) []int {
	var out []int
	for _, i := range pending {
		if q.found[i] == nil {
			out = append(out, i)
		}
	}
	return out
}

// test tests the state s exactly for the questions pending (not yet
// answered yes), and records it as the answer of those it answers yes:
// s lies in the cube, the policy's float64 choice is l, and (with
// candidates) s is not terminal and an outcome of l leads into the
// candidate.
func (q *regionQuery) test(s symbolic.State, pending []int) {
	r, g, m := q.r, q.r.g, q.r.m
	if !r.inCube(s, q.vals) {
		return
	}
	// The cheap tests first, the policy's evaluation last.
	if q.rangeErr && !q.errs(s) {
		return
	}
	q.hits = q.hits[:0]
	if len(q.targets) == 0 {
		if q.found[0] == nil {
			q.hits = append(q.hits, 0)
		}
	} else {
		if g.Status(s) != explicit.Open {
			return
		}
		for ci := range m.Commands {
			c := &m.Commands[ci]
			if c.Label != q.l || !g.Guard(s, ci) {
				continue
			}
			for oi := range c.Outcomes {
				t, err := g.Apply(s, ci, oi)
				if err != nil {
					continue
				}
				for _, i := range pending {
					if q.found[i] == nil && !slices.Contains(q.hits, i) && r.inCube(t, q.targets[i]) {
						q.hits = append(q.hits, i)
					}
				}
			}
		}
	}
	if len(q.hits) == 0 {
		return
	}
	g.Applicable(s, &q.xp)
	if !q.xp.App[q.l] {
		return // a label that is not applicable is not chosen
	}
	l, err := r.dec.Decide(s, q.xp.App)
	if err != nil || l != q.l {
		return
	}
	st := append(symbolic.State(nil), s...)
	for _, i := range q.hits {
		q.found[i] = st
		q.open--
	}
}

// errs reports whether s is not terminal and an outcome of a command of
// label l whose guard holds in s leaves a variable's range (or fails
// otherwise: the explicit semantics' error, bad as in expandStates).
func (q *regionQuery) errs(s symbolic.State) bool {
	g, m := q.r.g, q.r.m
	if g.Status(s) != explicit.Open {
		return false
	}
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if c.Label != q.l || !g.Guard(s, ci) {
			continue
		}
		for oi := range c.Outcomes {
			if _, err := g.Apply(s, ci, oi); err != nil {
				return true
			}
		}
	}
	return false
}

// mayErr reports whether some outcome of a command of label l whose guard
// may hold somewhere in lo..hi may leave a variable's range, by interval
// evaluation (false only when none can).
func (q *regionQuery) mayErr(lo, hi []int) bool {
	m := q.r.m
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if c.Label != q.l || symbolic.CondBox(c.Guard, lo, hi) == symbolic.BoxFalse {
			continue
		}
		for _, o := range c.Outcomes {
			if o.StateProb() {
				return true // a probability may fail its check in Apply
			}
			for _, as := range o.Assigns {
				iv := symbolic.EvalBox(as.Value, lo, hi)
				v := &m.Vars[as.Var]
				if iv.Top || iv.Lo < int64(v.Lo) || iv.Hi > int64(v.Hi) {
					return true
				}
			}
		}
	}
	return false
}

// mayStep reports whether some outcome of a command of label l whose
// guard may hold somewhere in lo..hi may lead into the candidate cube,
// by interval evaluation (false only when none can).
func (q *regionQuery) mayStep(lo, hi []int, target []bool) bool {
	r, m := q.r, q.r.m
	nlo, nhi := make([]int, len(lo)), make([]int, len(hi))
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if c.Label != q.l || symbolic.CondBox(c.Guard, lo, hi) == symbolic.BoxFalse {
			continue
		}
	outcomes:
		for oi := range c.Outcomes {
			copy(nlo, lo)
			copy(nhi, hi)
			for _, as := range c.Outcomes[oi].Assigns {
				iv := symbolic.EvalBox(as.Value, lo, hi)
				v := &m.Vars[as.Var]
				if iv.Top {
					nlo[as.Var], nhi[as.Var] = v.Lo, v.Hi
					continue
				}
				a, b := max(iv.Lo, int64(v.Lo)), min(iv.Hi, int64(v.Hi))
				if a > b {
					continue outcomes // every value leaves the range: no transition
				}
				nlo[as.Var], nhi[as.Var] = int(a), int(b)
			}
			ok := true
			for p, want := range target {
				if t := symbolic.CondBox(r.preds.list[p].c, nlo, nhi); t != symbolic.BoxMaybe && (t == symbolic.BoxTrue) != want {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
	}
	return false
}

// surely returns the labels with a command whose guard holds throughout
// lo..hi (by interval evaluation): applicable in every state of the box.
func surely(m *symbolic.Model, lo, hi []int) []symbolic.LabelID {
	seen := make([]bool, len(m.Labels))
	var out []symbolic.LabelID
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if !seen[c.Label] && symbolic.CondBox(c.Guard, lo, hi) == symbolic.BoxTrue {
			seen[c.Label] = true
			out = append(out, c.Label)
		}
	}
	return out
}

// split cuts lo..hi along its widest variable: into one box per value
// when it has at most splitWays values (so that the cube's literals over
// fixed variables decide at once), else into halves. The boxes are
// returned last first (a stack pops the first one next).
func split(lo, hi []int) [][2][]int {
	v := widest(lo, hi)
	w := hi[v] - lo[v] + 1
	n := 2
	if w <= splitWays {
		n = w
	}
	out := make([][2][]int, 0, n)
	for k := n - 1; k >= 0; k-- {
		l, h := append([]int(nil), lo...), append([]int(nil), hi...)
		l[v] = lo[v] + k*w/n
		h[v] = lo[v] + (k+1)*w/n - 1
		out = append(out, [2][]int{l, h})
	}
	return out
}

// widest returns the variable of lo..hi with the widest range.
func widest(lo, hi []int) int {
	v, w := 0, -1
	for i := range lo {
		if d := hi[i] - lo[i]; d > w {
			v, w = i, d
		}
	}
	return v
}

func onePoint(lo, hi []int) bool {
	for v := range lo {
		if lo[v] != hi[v] {
			return false
		}
	}
	return true
}

func boxSize(lo, hi []int) float64 {
	n := 1.0
	for v := range lo {
		n *= float64(hi[v] - lo[v] + 1)
	}
	return n
}

func inBox(s symbolic.State, lo, hi []int) bool {
	if len(s) != len(lo) {
		return false
	}
	for v := range s {
		if s[v] < lo[v] || s[v] > hi[v] {
			return false
		}
	}
	return true
}
