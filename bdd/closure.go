package bdd

import (
	"math"
	"sort"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
)

// Iterative squaring. Backward reachability (Prop-U at r = 0) and forward
// reachability (Verify) add one layer per round, so a model whose states
// form a long chain (a counter, the Fig. 1 family under hasty) takes as
// many rounds as the chain is long, each costing rudd microseconds however
// small the sets. Saturation and chaining (Sylvan's SAT and CHAINING
// strategies, Ciardo's saturation) collapse rounds when several commands
// act on different variables, but on a chain of one command, one successor
// per state, they still fire that command once per state. Iterative
// squaring (Burch, Clarke, Long, McMillan, Dill 1990) does not depend on
// the shape: from the transition relation T it builds
//
//	R_0 = T,  R_{k+1} = R_k ∪ R_k∘R_k   (pairs joined by 1..2^(k+1) steps)
//
// until R_{k+1} = R_k, which is the transitive closure T+ after
// log2(longest shortest path) + 1 compositions. The price is the size of
// the relations: the closure of a counter's increment is a comparison
// (small with interleaved bits), but in general it can be exponentially
// larger than T (Bollig, TCS 447, 2012), and even where the relations
// stay small a composition can cost rudd seconds (the quantified
// disjunctions of a relational product miss its small caches): on Flappy
// Bird a composition of two 2,000-node relations took two seconds, on
// rover (r = 0 under careful) the relation has 70,000 nodes after one
// squaring. Two rules keep squaring where it wins, measured on those
// families (FIGURES.md). Narrow relations only: squaring stops for the
// computation as soon as a relation R_k has more than closureMaxNodes
// nodes. A share of the work: the computations go on with layered rounds
// and run squaring as a resumable side computation (squarer): from round
// squareAfter on, each time the layered rounds' work has doubled, squaring
// resumes with an allowance of 1/closureShare of that work (and of
// closureNodes table nodes). Work is counted in operations and nodes made
// (mgr.work), not in time: a share of elapsed time let a loaded machine
// turn squaring off (a 2·10^5 chain once took every layered round, 13.4 s
// instead of 1.4 s). The relations R_k finished are kept from one
// attempt to the next; an attempt out of work loses only its unfinished
// operation (rudd's operations cannot be interrupted: an attempt overshoots
// its allowance by at most one operation), one out of nodes ends squaring
// for the computation. Squaring thus costs about 2/closureShare of the
// layered work where it never finishes, and where it does, the
// computation ends within about closureShare times the squaring's own
// cost. The answer never depends on it; the number of rounds
// (Stats.Iterations) depends on the work counted only.
//
// Exactness: R_k are exact sets of pairs, so T+ gives the same fixpoint as
// the rounds. Verify needs more than the fixpoint: the depth, the first
// layer with an unsafe state or a range error, and that layer itself (its
// error witness is picked from it). With S = the states reached within d
// steps, S ∪ post(R_k, S) is the set reached within d + 2^k steps, so the
// first depth where a monotone condition fails is found by binary lifting
// over the R_k (lift), in K+1 images instead of one per layer. A
// counterexample walks back through the layers; it needs of layer k only
// the states on shortest runs to the unsafe state, which bisection over
// the R_k finds (slices), so the trace is the layered rounds' own.

// squareAfter is the number of layered rounds after which a computation
// may try squaring (a variable so that tests can set it: 0 tries it at
// once, a negative value never).
var squareAfter = 64

// closureNodes bounds how much the node table may grow while a closure is
// built (a variable so that tests can set it).
var closureNodes = 1 << 20

// closureMaxNodes: squaring stops for good when a relation R_k has more
// nodes (a variable so that tests can set it). Measured (FIGURES.md): the
// closures of the chain and of the Fig. 1 family stay under 450 nodes and
// compose in under a millisecond each; Flappy Bird's grow past 2,000 nodes
// and a composition then takes rudd up to seconds, rover's start at 70,000.
var closureMaxNodes = 1024

// closureShare: an attempt at squaring may do 1/closureShare of the work
// the layered rounds did so far (0: no limit, for tests).
var closureShare = 8

// closure holds the relations R_0 .. R_K of iterative squaring: steps[k]
// relates s to t when t is reached from s in 1 .. 2^k transitions, and
// steps[K] is the transitive closure.
type closure struct {
	steps []Node
}

func (c *closure) plus() Node { return c.steps[len(c.steps)-1] }

// frame returns next_v = cur_v for the bits of variable v.
func (sp *space) frame(v int) Node {
	if sp.frameMemo == nil {
		sp.frameMemo = make([]Node, len(sp.vars))
	}
	if f := sp.frameMemo[v]; f != nil {
		return f
	}
	m := sp.m
	f := m.tru()
	ve := &sp.vars[v]
	for i := range ve.n {
		f = m.and(f, m.iff(m.ithvar(ve.cur[i]), m.ithvar(ve.next[i])))
	}
	sp.frameMemo[v] = f
	return f
}

// outRel returns the relation of outcome o over current and next bits:
// every assigned variable's next value, the others unchanged (not
// restricted to the guard).
func (sp *space) outRel(o *outEnc) Node {
	m := sp.m
	rel := m.tru()
	assigned := make([]bool, len(sp.vars))
	for j, v := range o.vars {
		rel = m.and(rel, o.eq[j])
		assigned[v] = true
	}
	for v := range sp.vars {
		if !assigned[v] {
			rel = m.and(rel, sp.frame(v))
		}
	}
	return rel
}

// policyRelation returns the transition relation of Verify's images: from
// the open states, by the commands of the label the policy chooses (every
// label without a policy); nil as soon as it has more than
// closureMaxNodes nodes.
func (sp *space) policyRelation(p *policyEnc) Node {
	return sp.relationFrom(func(l int) Node { return sp.chosen(p, l, sp.open) })
}

// forcedRelation returns the relation of the open states with exactly one
// applicable label, by that label's commands (Prop-U at r = ∞, propu.go);
// nil when there is no such state, or as soon as it has more than
// closureMaxNodes nodes.
func (sp *space) forcedRelation() Node {
	m := sp.m
	t := sp.relationFrom(func(l int) Node {
		forced := m.and(sp.open, sp.app[l])
		for l2 := range sp.M.Labels {
			if l2 != l {
				forced = m.diff(forced, sp.app[l2])
			}
		}
		return forced
	})
	if t == nil || m.isFalse(t) {
		return nil
	}
	return t
}

// relationFrom returns the transition relation from the states src(l)
// by the commands of each label l (where their guards hold), outcome by
// outcome; nil as soon as it has more than closureMaxNodes nodes.
func (sp *space) relationFrom(src func(l int) Node) Node {
	m := sp.m
	t := m.fls()
	for l := range sp.M.Labels {
		sl := src(l)
		if m.isFalse(sl) {
			continue
		}
		for _, ci := range sp.byLabel[l] {
			sc := m.and(sl, sp.cmds[ci].guard)
			if m.isFalse(sc) {
				continue
			}
			for oi := range sp.cmds[ci].outs {
				if t = m.or(t, m.and(sc, sp.outRel(&sp.cmds[ci].outs[oi]))); m.size(t) > closureMaxNodes {
					return nil
				}
			}
		}
	}
	return t
}

// compose returns the pairs (s, u) with (s, t) in a and (t, u) in b for
// some t: b's current bits become next bits and its next bits the
// auxiliary ones, the next bits are quantified, and the auxiliary bits
// become next bits again (renamings that keep the levels' order).
func (sp *space) compose(a, b Node) Node {
	m := sp.m
	if sp.nextToMid == nil {
		sp.nextToMid = m.replacer(sp.nextLevels, sp.midLevels)
		sp.midToNext = m.replacer(sp.midLevels, sp.nextLevels)
	}
	// rudd's replacers may not map onto a variable they also move, so
	// b moves in two steps: next to auxiliary, then current to next.
	b = sp.curToNextAll(m.replace(b, sp.nextToMid))
	return m.replace(m.relprod(a, b, sp.nextCube), sp.midToNext)
}

// curToNextAll renames current bits to next bits.
func (sp *space) curToNextAll(x Node) Node {
	if sp.toNextAll == nil {
		sp.toNextAll = sp.m.replacer(sp.curLevels, sp.nextLevels)
		sp.toCurAll = sp.m.replacer(sp.nextLevels, sp.curLevels)
	}
	return sp.m.replace(x, sp.toNextAll)
}

// preRel returns the states with an r-successor in x.
func (sp *space) preRel(r, x Node) Node {
	return sp.m.relprod(r, sp.curToNextAll(x), sp.nextCube)
}

// postRel returns the r-successors of the states of x.
func (sp *space) postRel(r, x Node) Node {
	sp.curToNextAll(sp.m.fls()) // the replacers
	return sp.m.replace(sp.m.relprod(r, x, sp.curCube), sp.toCurAll)
}

// squarer is the resumable squaring of one computation's relation.
type squarer struct {
	sp     *space
	build  func() Node // the transition relation (nil: wider than closureMaxNodes)
	round  func()      // called after each composition or image
	steps  []Node      // R_0 .. R_k built so far
	closed bool        // steps holds the closure
	off    bool        // out of nodes, or no longer useful: no more attempts
	start  int         // mgr.work at the computation's first round
	spent  int         // work spent in attempts
	next   int         // layered work of the next attempt
}

func (sp *space) newSquarer(build func() Node, round func()) *squarer {
	return &squarer{sp: sp, build: build, round: round, start: sp.m.work()}
}

// due reports whether to attempt squaring after the given number of
// layered rounds.
func (q *squarer) due(rounds int) bool {
	if q.off || squareAfter < 0 || rounds < squareAfter {
		return false
	}
	return closureShare == 0 || q.sp.m.work()-q.start-q.spent >= q.next
}

// try extends the closure within the allowance and, once it is complete,
// runs use with it (within the same allowance). It reports whether use
// ran to its end.
func (q *squarer) try(use func(c *closure)) bool {
	m := q.sp.m
	begin := m.work()
	layered := begin - q.start - q.spent
	q.next = 2 * layered
	limit := 0
	if closureShare > 0 {
		limit = begin + max(layered/closureShare, 1)
	}
	wide := false
	res := m.attempt(closureNodes, limit, func() {
		if q.steps == nil {
			t := q.build()
			if t == nil || m.size(t) > closureMaxNodes {
				wide = true
				return
			}
			q.steps = []Node{t}
		}
		for !q.closed {
			r := q.steps[len(q.steps)-1]
			next := m.or(r, q.sp.compose(r, r))
			q.round()
			if m.equal(next, r) {
				q.closed = true
			} else if m.size(next) > closureMaxNodes {
				wide = true
				return
			} else {
				q.steps = append(q.steps, next)
			}
		}
		use(&closure{steps: q.steps})
	})
	if !m.abandoned.Load() {
		q.spent += m.work() - begin
	}
	if res == attemptNodes || wide {
		q.off, q.steps, q.closed = true, nil, false
	}
	return res == attemptDone && !wide
}

// lift returns the largest d' ≥ d with before(the states reached within
// d' steps) and that set, given s = the states reached within d steps
// with before(s), and a condition that, once false, stays false for
// larger sets, and fails within d + 2^K steps. round is called after each
// image.
func (sp *space) lift(c *closure, s Node, d int, before func(Node) bool, round func()) (Node, int) {
	for k := len(c.steps) - 1; k >= 0; k-- {
		next := sp.m.or(s, sp.postRel(c.steps[k], s))
		round()
		if before(next) {
			s, d = next, d+1<<uint(k)
		}
	}
	return s, d
}

// policyErrors returns the open states where an enabled command of the
// label the policy chooses (of any label without a policy) has an outcome
// out of range: the states rangeError reports.
func (sp *space) policyErrors(p *policyEnc) Node {
	m := sp.m
	e := m.fls()
	for l := range sp.M.Labels {
		sl := sp.chosen(p, l, sp.errAll)
		for _, ci := range sp.byLabel[l] {
			e = m.or(e, m.and(sl, sp.cmds[ci].err))
		}
	}
	return e
}

// squaredUnsafe is what squaring found when an unsafe state comes first:
// the first layer with one (depth), the states reached within that many
// steps, and the unsafe state the layered rounds pick in that layer.
type squaredUnsafe struct {
	c      *closure
	depth  int
	within Node
	u      Node // the cube of the unsafe state
}

// squareReach is the squaring step of forward reachability at depth d
// (layers 0..d checked: no state of stopAt, no range error; reached holds
// them, front is layer d). It returns done when it decided: all states
// reachable (*reached) and the depth of the last layer, a range error
// (err), or a state of stopAt in the first layer with one or a range
// error (unsafe: the layered rounds check stopAt first). Otherwise (out of
// its allowance) the layered rounds go on.
func (sp *space) squareReach(q *squarer, p *policyEnc, reached *Node, front Node, d int, stopAt Node) (done bool, depth int, unsafe *squaredUnsafe, err error) {
	m := sp.m
	var complete bool
	var all Node
	var rerr error
	ok := q.try(func(c *closure) {
		all = m.or(*reached, sp.postRel(c.plus(), front))
		q.round()
		bad := m.and(all, stopAt)
		errs := m.and(all, sp.policyErrors(p))
		if m.isFalse(bad) && m.isFalse(errs) {
			complete, depth = true, d
			if !m.equal(all, *reached) {
				_, last := sp.lift(c, *reached, d, func(s Node) bool { return !m.equal(s, all) }, q.round)
				depth = last + 1
			}
			return
		}
		// An answer, or an error layer, once the lifting below ends (the
		// computation ends then). Not off before: an attempt that runs
		// out of its allowance inside the lifting is tried again with a
		// larger one (it was turned off for good here, so a chain whose
		// lifting missed its first allowance took every layered round:
		// 200,020 rounds, 15 s instead of 6,351 and 0.4 s).
		//
		// The first layer with a state of stopAt or a range error; the
		// layered loop checks stopAt first.
		s, last := sp.lift(c, *reached, d, func(s Node) bool { return m.isFalse(m.and(s, errs)) && m.isFalse(m.and(s, bad)) }, q.round)
		layer := m.diff(sp.postRel(c.steps[0], s), s)
		q.round()
		if b := m.and(layer, bad); !m.isFalse(b) {
			unsafe = &squaredUnsafe{c: c, depth: last + 1, within: m.or(s, layer), u: sp.cube(sp.pick(b))}
			return
		}
		rerr = sp.rangeError(p, m.and(layer, sp.open))
		if rerr == nil {
			rerr = vigilerr.Internalf("bdd", "no range error in the layer squaring found one in")
		}
	})
	switch {
	case !ok:
		return false, 0, nil, nil
	case complete:
		*reached = all
		return true, depth, nil, nil
	case unsafe != nil:
		*reached = unsafe.within
		return true, unsafe.depth, unsafe, nil
	case rerr != nil:
		return true, 0, nil, rerr
	}
	return false, 0, nil, nil
}

// slices returns, for the unsafe state u first found at depth D, sets X_k
// (k = 0..D) that the trace can walk back through as through the layers.
// They derive from S_k, the states at step k of some shortest run from a state
// of start to u: S_k = (reached within k steps) ∩ (reaching u within D-k
// steps), so S_k ⊆ layer k (a state of S_k is at least D - (D-k) = k deep),
// and a predecessor p of a state of S_{k+1} is in layer k exactly when it
// is in S_k (p in layer k reaches u within 1 + D-k-1 steps). trace
// therefore picks from the slices the same predecessors as from the
// layers. They are built by bisection: S_m = post≤(m-a)(S_a) ∩
// pre≤(b-m)(S_b) for a < m < b (a state of that set is within m steps of
// a start and D-m of u, and a shortest run through a state of S_m passes
// through S_a and S_b), down to windows of at most w = window(D) steps. Within a
// window from a to b the sets are built forward, one image by T a step:
// X_a = S_a, X_k = post(T, X_{k-1}) ∩ (reaching S_b within b-a steps).
// X_k holds S_k (a shortest run through S_k passes through S_{k-1}) and
// lies in the states reached within k steps, so for a predecessor p of a
// state of S_{k+1} (at least k deep), p ∈ X_k exactly when p ∈ S_k: the
// trace picks the same predecessors from X_k as from layer k. The cost is
// one image of a small set a step plus a few dozen images a window,
// against one layered round (an image by every command, the unsafe and
// range-error checks) a step.
//
// Only the slices at the windows' ends are kept (about 2D/w handles); a
// window's slices are built when the trace asks for one of them, and
// dropped when it moves to the window below (the trace walks from D down
// to 0). Each rudd handle registers a Go finalizer and holds its nodes in
// the table, and with one handle per step (10^5 and more) registering them
// took a quarter of the time (FIGURES.md). Windows of √D steps (at least
// 64) balance the handles held (2D/w ends and w sets of a window) and
// keep the bisection's images, about 2 log D per end, below the D steps.
func (sp *space) slices(c *closure, p *policyEnc, start Node, u Node, depth int, round func()) *sliceSets {
	m := sp.m
	s := &sliceSets{sp: sp, c: c, p: p, round: round, ends: map[int]Node{depth: u}, d: depth}
	if traceStates > 0 {
		s.step = sp.newStepper(p)
	}
	s.ends[0] = m.and(start, sp.within(c, u, depth, true, round))
	w := sliceWindow(depth)
	var fill func(a, b int)
	fill = func(a, b int) {
		if b-a <= w {
			s.cuts = append(s.cuts, a)
			return
		}
		mid := a + (b-a)/2
		s.ends[mid] = m.and(sp.within(c, s.ends[a], mid-a, false, round), sp.within(c, s.ends[b], b-mid, true, round))
		fill(a, mid)
		fill(mid, b)
	}
	fill(0, depth)
	s.cuts = append(s.cuts, depth)
	return s
}

// sliceSets are the slices of slices: the ends of the windows, and the
// slices of the window the trace is in.
type sliceSets struct {
	sp    *space
	c     *closure
	p     *policyEnc
	step  *stepper // nil: windows with BDDs only
	round func()
	ends  map[int]Node // the slices at the windows' ends
	cuts  []int        // the windows' ends, ascending: window i is cuts[i]..cuts[i+1]
	d     int
	a, b  int       // the window built (b = 0: none)
	win   []stepSet // its sets, a .. b
}

func (s *sliceSets) depth() int { return s.d }

func (s *sliceSets) set(k int) stepSet {
	if x, ok := s.ends[k]; ok {
		return stepSet{x: x}
	}
	if s.b == 0 || k <= s.a || k >= s.b {
		i := sort.SearchInts(s.cuts, k) // cuts[i-1] < k < cuts[i]
		s.window(s.cuts[i-1], s.cuts[i])
	}
	return s.win[k-s.a]
}

// window builds the sets of the window from a to b. With BDDs, they are
// the slices X_k: the states reached from S_a in exactly k-a steps that
// reach S_b within b-a steps, which hold S_k and are in layer k (see
// slices), one image a step. When S_a has few states, the window is
// first built explicitly, without the second condition: Y_a = S_a, Y_k =
// the successors of Y_{k-1} (stepper.successors), as long as each has at
// most traceStates states. Y_k too holds S_k (a shortest run through S_k
// passes through S_{k-1}) and lies in the states reached within k steps,
// which is all the trace needs to pick from Y_k what it picks from X_k
// (see slices). On a chain each Y_k is one state and a step costs no BDD
// operation.
func (s *sliceSets) window(a, b int) {
	sp, m := s.sp, s.sp.m
	clear(s.win) // the previous window's handles, for the collector
	s.win = s.win[:0]
	// The windows above are no longer needed: the trace walks down.
	for _, k := range s.cuts {
		if k > b && k < s.d {
			delete(s.ends, k)
		}
	}
	s.a, s.b = a, b
	if s.step != nil && s.step.enumerate(s.ends[a]) {
		ys := append([]symbolic.State(nil), s.step.states...)
		s.win = append(s.win, stepSet{x: s.ends[a]})
		for k := a + 1; k < b; k++ {
			var ok bool
			if ys, ok = s.step.successors(ys); !ok {
				break
			}
			s.win = append(s.win, stepSet{states: ys})
		}
		if len(s.win) == b-a {
			s.win = append(s.win, stepSet{x: s.ends[b]})
			explicitWindows++
			return
		}
		clear(s.win)
		s.win = s.win[:0]
	}
	cone := sp.within(s.c, s.ends[b], b-a, true, s.round)
	s.win = append(s.win, stepSet{x: s.ends[a]})
	x := s.ends[a]
	for k := a + 1; k < b; k++ {
		x = m.and(sp.postRel(s.c.steps[0], x), cone)
		s.round()
		s.win = append(s.win, stepSet{x: x})
	}
	s.win = append(s.win, stepSet{x: s.ends[b]})
}

// explicitWindows counts the windows built explicitly (for tests).
var explicitWindows int

// sliceWindow returns the width of the windows of a counterexample of
// depth steps: √depth, at least 64.
func sliceWindow(depth int) int {
	return max(64, int(math.Sqrt(float64(depth))))
}

// within returns the states reached from x in at most n steps (backward:
// the states reaching x in at most n steps), by the R_k of the bits of n
// (x ∪ post(R_k, x) is the set reached within 2^k steps; R_k is the
// closure for k ≥ K).
func (sp *space) within(c *closure, x Node, n int, backward bool, round func()) Node {
	m := sp.m
	for k := 0; n > 0; k, n = k+1, n>>1 {
		if n&1 == 0 {
			continue
		}
		r := c.steps[min(k, len(c.steps)-1)]
		if backward {
			x = m.or(x, sp.preRel(r, x))
		} else {
			x = m.or(x, sp.postRel(r, x))
		}
		round()
	}
	return x
}
