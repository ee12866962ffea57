package prob

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"time"

	"vigil/internal/vigilerr"
)

// Method names a solution method.
type Method string

const (
	// II is interval iteration: lower and upper bounds that meet within
	// epsilon.
	II Method = "ii"
	// Exact is policy iteration in rational arithmetic (exact.go).
	Exact Method = "exact"
)

// ParseMethod reads "ii" or "exact".
func ParseMethod(s string) (Method, error) {
	switch Method(s) {
	case II, Exact:
		return Method(s), nil
	}
	return "", fmt.Errorf("prob: unknown method %q; use ii or exact", s)
}

// DefaultEpsilon is the precision of interval iteration (Storm's default).
const DefaultEpsilon = 1e-6

// DefaultMaxExact is the largest model the exact method solves.
const DefaultMaxExact = 2000

// SolveOptions configure Solve.
type SolveOptions struct {
	Max    bool   // Pmax (true) or Pmin
	Method Method // "" means II
	// Epsilon: interval iteration stops when upper - lower <= Epsilon *
	// lower in every state (or <= Epsilon with Absolute). 0 means
	// DefaultEpsilon.
	Epsilon  float64
	Absolute bool
	// MaxExact bounds the states of a model the exact method takes (0:
	// DefaultMaxExact).
	MaxExact int
	// Progress, if set, is called after every iteration with the
	// iteration count and the largest gap upper - lower.
	Progress func(iter int, gap float64)
	// maxStates bounds the model a reward bound unfolds (0: MaxUnfold).
	maxStates int
}

// Result holds the probabilities of reaching the target from every state.
type Result struct {
	Max          bool
	Method       Method
	Lower, Upper []float64 // per state; equal where the value is known exactly
	// Exact holds the values as rationals (method exact); nil otherwise.
	Exact []*big.Rat
	// Sched is, per state, a choice attaining the value (with method ii,
	// up to epsilon), or -1 where the state has no choice or any choice
	// does.
	Sched []int32
	// Iterations counts interval-iteration sweeps (of the component that
	// needed the most; see iterate); Rounds the exact
	// method's policy-iteration rounds (each an exact solution of a chain).
	Iterations, Rounds int
	// FloatComponents and RationalComponents count the strongly connected
	// components interval iteration solved directly (ii only), in float64
	// intervals (sccf64.go) and in rationals (scc.go).
	FloatComponents, RationalComponents int
	// Zero and One count the states precomputation settled at 0 and 1.
	Zero, One int
	// Inf, for an expected reward (SolveReward), stands for an infinite
	// value (Lower and Upper +Inf, Exact nil) where the filter functions
	// reduce the values: a power of two so large that a reduction (min,
	// max, sum, average over at most all the states) is at least
	// InfAt = Inf / states when an infinite value enters it, and below
	// when none does. nil for probabilities.
	Inf, InfAt *big.Rat
	Elapsed    time.Duration
}

// Value returns the midpoint of state s's bounds (its exact value when
// the bounds meet).
func (r *Result) Value(s uint32) float64 {
	if r.Exact != nil {
		if r.Exact[s] == nil {
			return math.Inf(1) // an infinite expected reward
		}
		f, _ := r.Exact[s].Float64()
		return f
	}
	return mid(r.Lower[s], r.Upper[s])
}

// Solve computes Pmax or Pmin of reaching the states marked in target
// (which must have no choices: terminal states) from every state of m.
func Solve(ctx context.Context, m *Model, target []bool, opt SolveOptions) (*Result, error) {
	t0 := time.Now()
	if opt.Epsilon == 0 {
		opt.Epsilon = DefaultEpsilon
	}
	if opt.Method == "" {
		opt.Method = II
	}
	if opt.Method == Exact {
		limit := opt.MaxExact
		if limit == 0 {
			limit = DefaultMaxExact
		}
		if m.NumStates() > limit {
			return nil, fmt.Errorf("prob: the exact method solves models of at most %d states; this one has %d (use --method ii)", limit, m.NumStates())
		}
		if m.Exact == nil {
			return nil, vigilerr.Internalf("prob", "the model was built without exact probabilities")
		}
	}
	if !(opt.Epsilon > 0 && opt.Epsilon < 1) {
		return nil, fmt.Errorf("prob: epsilon %g is not in (0, 1)", opt.Epsilon)
	}
	n := m.NumStates()
	g := newGraph(m)
	r := &Result{Max: opt.Max, Method: opt.Method, Lower: make([]float64, n), Upper: make([]float64, n), Sched: make([]int32, n)}
	var zero, one []bool
	var sched []int32
	if opt.Max {
		zero = g.prob0A(target)
		one, sched = g.prob1E(target)
	} else {
		zero, sched = g.prob0E(target)
		one = g.prob1A(target, zero)
	}
	copy(r.Sched, sched)
	maybe := make([]bool, n)
	for s := 0; s < n; s++ {
		switch {
		case one[s]:
			r.Lower[s], r.Upper[s] = 1, 1
			r.One++
			if !opt.Max && m.RowStart[s+1] > m.RowStart[s] {
				r.Sched[s] = int32(m.RowStart[s])
			}
		case zero[s]:
			r.Zero++
		default:
			maybe[s] = true
		}
	}
	q := newQuotient(g, maybe, opt.Max)
	iters, err := q.iterate(ctx, one, opt)
	r.Iterations = iters
	if opt.Method != Exact {
		r.FloatComponents, r.RationalComponents = q.floatSolved, q.ratSolved
	}
	if err != nil {
		return nil, err
	}
	for s := 0; s < n; s++ {
		if maybe[s] {
			c := q.class[s]
			r.Lower[s], r.Upper[s] = q.lo[c], q.hi[c]
		}
	}
	q.scheduler(r.Sched, one)
	if opt.Method == Exact {
		if err := solveExact(ctx, m, g, r, target, zero); err != nil {
			return nil, err
		}
	}
	r.Elapsed = time.Since(t0)
	return r, nil
}

// quotient is the model on the undecided states with, for max, each
// maximal end component collapsed into one class whose choices are its
// states' choices that leave it.
type quotient struct {
	g        *graph
	max      bool
	class    []int32 // per state: its class, -1 when decided
	members  [][]uint32
	choices  [][]uint32 // per class
	internal []bool     // per choice: inside its end component (max only)
	lo, hi   []float64  // per class
	// floatSolved and ratSolved count the components solved directly.
	floatSolved, ratSolved int
}

func newQuotient(g *graph, maybe []bool, max bool) *quotient {
	m := g.m
	n := m.NumStates()
	q := &quotient{g: g, max: max, class: make([]int32, n)}
	var comp []int32
	k := 0
	if max {
		comp, k, q.internal = g.mecs(maybe)
	}
	q.members = make([][]uint32, k)
	for s := 0; s < n; s++ {
		q.class[s] = -1
		if !maybe[s] {
			continue
		}
		if comp != nil && comp[s] >= 0 {
			q.class[s] = comp[s]
		} else {
			q.class[s] = int32(len(q.members))
			q.members = append(q.members, nil)
		}
		q.members[q.class[s]] = append(q.members[q.class[s]], uint32(s))
	}
	q.choices = make([][]uint32, len(q.members))
	for c, ms := range q.members {
		for _, s := range ms {
			for ch := m.RowStart[s]; ch < m.RowStart[s+1]; ch++ {
				if q.internal != nil && q.internal[ch] {
					continue
				}
				q.choices[c] = append(q.choices[c], ch)
			}
		}
	}
	q.lo = make([]float64, len(q.members))
	q.hi = make([]float64, len(q.members))
	for c := range q.hi {
		q.hi[c] = 1
	}
	return q
}

// iterate runs interval iteration (Gauss-Seidel sweeps) until the bounds
// of every class are within epsilon; one marks the states of value 1.
func (q *quotient) iterate(ctx context.Context, one []bool, opt SolveOptions) (int, error) {
	m := q.g.m
	val := func(v []float64, t uint32) float64 {
		if c := q.class[t]; c >= 0 {
			return v[c]
		}
		if one[t] {
			return 1
		}
		return 0
	}
	// best is one Bellman update of class c on the bounds v; dir -1
	// rounds a lower bound down, +1 an upper bound up. A choice of k
	// entries sums k non-negative products of probabilities (each within
	// 2^-53 relative of the rational it stands for) and bounds: the float
	// result is within (k+2)·2^-53 of the exact sum, relatively (Higham,
	// Accuracy and Stability of Numerical Algorithms, 3.1), plus what
	// underflow loses; moving it by that much keeps the bounds sound
	// despite rounding.
	// The most entries of a choice of each class, for the rounding margin.
	width := make([]float64, len(q.members))
	for c := range q.members {
		for _, ch := range q.choices[c] {
			width[c] = max(width[c], float64(m.EntryStart[ch+1]-m.EntryStart[ch]+2))
		}
	}
	best := func(v []float64, c int, dir float64) float64 {
		b := math.Inf(1)
		if q.max {
			b = math.Inf(-1)
		}
		for _, ch := range q.choices[c] {
			sum := 0.0
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				sum += m.P[e] * val(v, m.To[e])
			}
			if q.max == (sum > b) && sum != b {
				b = sum
			}
		}
		if len(q.choices[c]) == 0 {
			return 0
		}
		// The margin of the widest choice bounds every choice's, so it
		// covers the optimum whichever choice attains it.
		k := width[c]
		b += dir * (k*0x1p-53*b + k*0x1p-1022) // 2^-1022, the smallest normal number, bounds what underflow loses per product
		return min(max(b, 0), 1)
	}
	// Topological interval iteration (Storm's topological solver): the
	// strongly connected components of the classes come sinks first, so
	// each is iterated once the bounds of everything it leads to are
	// final; a component of one class without a self-loop takes one sweep.
	// A component stops when its bounds are within epsilon, or when a
	// sweep changes nothing (floating point cannot tighten them further);
	// either way the bounds stay sound.
	// direct solves a component of the single class c whose choices may
	// return to c: choosing ch forever reaches the target with b/e, where
	// b sums P·value over the entries that leave c and e their
	// probabilities (the self-loop's 1 - P, computed without cancelling),
	// and the optimum is the best choice's ratio. Iterating instead
	// would take about 1/e sweeps (forever when P rounds to 1). b and e
	// are each within (k+2)·2^-53 relative of their exact sums, their
	// quotient within (2k+6)·2^-53 of it; underflow loses at most
	// k·2^-1022 of b, 2k·2^-1022/e of the quotient. When e is below
	// 2^-900, where this margin would mean nothing, the entries are
	// scaled first (leaveRatio, selfloop.go).
	direct := func(v []float64, c int, dir float64) float64 {
		b := math.Inf(1)
		if q.max {
			b = math.Inf(-1)
		}
		leaves := func(t uint32) bool { return q.class[t] != int32(c) }
		value := func(t uint32) float64 { return val(v, t) }
		for _, ch := range q.choices[c] {
			sum, exit, leaving := 0.0, 0.0, false
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				if q.class[m.To[e]] == int32(c) {
					continue
				}
				sum += m.P[e] * val(v, m.To[e])
				exit += m.P[e]
				leaving = true
			}
			r := 0.0 // a choice that never leaves c never reaches the target
			switch {
			case exit >= 0x1p-900:
				k := float64(m.EntryStart[ch+1] - m.EntryStart[ch])
				r = sum / exit
				r += dir * ((2*k+6)*0x1p-53*r + 2*k*0x1p-1022/exit)
			case leaving:
				// (an entry whose rational underflowed to a float64 0
				// still leaves: before, such a choice counted as never
				// leaving, an upper bound of 0)
				iv, _ := leaveRatio(m, ch, leaves, value, 0, 0)
				if r = iv.lo; dir > 0 {
					r = iv.hi
				}
			}
			if q.max == (r > b) && r != b {
				b = r
			}
		}
		if len(q.choices[c]) == 0 {
			return 0
		}
		return min(max(b, 0), 1)
	}
	selfLoop := func(c int32) bool {
		for _, ch := range q.choices[c] {
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				if q.class[m.To[e]] == c {
					return true
				}
			}
		}
		return false
	}
	iters, done, progressed := 0, 0, 0
	for _, comp := range q.components() {
		if c := comp[0]; len(comp) == 1 && selfLoop(c) {
			l, u := direct(q.lo, int(c), -1), direct(q.hi, int(c), +1)
			q.lo[c], q.hi[c] = max(q.lo[c], l), min(q.hi[c], u)
			iters = max(iters, 1)
			done++
			if done&0xfff == 0 && ctx.Err() != nil {
				return iters, fmt.Errorf("prob: interval iteration stopped: %w", context.Cause(ctx))
			}
			continue
		}
		// Every checkEvery sweeps, the gap's shrinking so far predicts how
		// many more sweeps the component needs; when that is far more
		// than it took already (cycles that stay inside with probability
		// close to 1), the component is solved directly (scc.go), once.
		// The direct solution may cost far more than the sweeps it saves
		// (rational elimination fills a component with chords in: one
		// of 500 classes ran past 30 s where 10,000 sweeps take 0.5 s), so
		// it gets a quarter of the work the sweeps are predicted to take
		// (the prediction from the first sweeps runs high: 100,000 for
		// 65,000), counted in work units (work.go: not in time, so that
		// the answer does not depend on the load), and iteration goes on
		// when that runs out;
		// a component whose sweeps stall or do not shrink the gap waits
		// for it without limit.
		const checkEvery = 500
		lastGap, tried := 0.0, false
		// A class with a choice that leaves it only through entries
		// whose float64 is 0 (kept with 1 - 2^-1100: its exits are
		// 2^-1100 in rationals) cannot move the bound that choice
		// holds: the sweep's sum is the class's own bound (for max, its
		// upper bound never falls; for min, its lower bound never
		// rises), and both direct solutions decline it (no rational to
		// divide by). Such a component was iterated until --timeout;
		// once the direct solutions have declined it and such a class
		// is not within epsilon while the sweeps still change the
		// bounds, the component's convergence leaves such classes out
		// (stuck: their bounds, which hold the value, stay as they are,
		// as when a sweep changes nothing), and when the gap of the
		// others predicts more than 20 checks' sweeps (about 10^4;
		// the others' bounds may hang on the stuck ones' and never
		// meet), interval iteration refuses, naming the exact method
		// (refuseZeroed), instead of running until --timeout.
		zeroed := q.zeroExits(comp)
		var stuck []bool // per class, when the zeroed classes are left out
		rest := comp     // the classes that are not stuck
		sweep := 0       // the entries a sweep visits
		for _, c := range comp {
			for _, ch := range q.choices[c] {
				sweep += int(m.EntryStart[ch+1] - m.EntryStart[ch])
			}
		}
		for it := 1; ; it++ {
			gap, converged, changed := 0.0, true, false
			for i := len(comp) - 1; i >= 0; i-- {
				c := comp[i]
				if l := best(q.lo, int(c), -1); l > q.lo[c] {
					q.lo[c] = l
					changed = true
				}
				if u := best(q.hi, int(c), +1); u < q.hi[c] {
					q.hi[c] = u
					changed = true
				}
				if stuck != nil && stuck[c] {
					continue
				}
				d := q.hi[c] - q.lo[c]
				gap = max(gap, d)
				if opt.Absolute && d > opt.Epsilon || !opt.Absolute && d > opt.Epsilon*q.lo[c] {
					converged = false
				}
			}
			iters = max(iters, it)
			// Progress formats a status line: after about every 2^16
			// class updates, not every sweep of a small component.
			if progressed += len(comp); len(comp) > 1 && opt.Progress != nil && progressed >= 1<<16 {
				progressed = 0
				opt.Progress(it, gap)
			}
			if converged {
				break
			}
			// A sweep that changes nothing cannot be followed by one that
			// does: floating point has stalled (a probability of 1 - 1e-18
			// is 1 in float64), and the direct solution is the way on.
			// (A component of one class has been solved directly above
			// if it has a self-loop, and takes one sweep if not.)
			if !tried && len(comp) > 1 && (!changed || it%checkEvery == 0 || floatFirstTest) {
				more := 0.0 // the sweeps still needed
				switch {
				case !changed:
					more = math.Inf(1)
				case lastGap > 0:
					more = q.sweepsLeft(comp, lastGap, gap, checkEvery, opt)
				}
				if more > 20*checkEvery || floatFirstTest {
					tried = true
					// (in float64: a ring near probability 1 predicts
					// 10^15 sweeps; no limit beyond about an hour's
					// units, at least about 10 ms's)
					dctx := ctx
					if !floatFirstTest {
						dctx = withWork(ctx, more/4*float64(sweep)*unitsSweepEntry)
					}
					// In float64 intervals first (sccf64.go: fixed cost per
					// operation); in rationals when that declines or its
					// bounds are not within epsilon.
					lo, hi, ok := q.solveComponentFloat(dctx, comp, one)
					if ok && !q.within(comp, lo, hi, opt) {
						ok = false
						for i, c := range comp {
							q.lo[c], q.hi[c] = max(q.lo[c], lo[i]), min(q.hi[c], hi[i])
						}
					}
					var err error
					if ok {
						q.floatSolved++
					} else if dctx.Err() == nil {
						if lo, hi, ok, err = q.solveComponent(dctx, comp, one); ok {
							q.ratSolved++
						}
					}
					if err != nil {
						return iters, err
					}
					if !ok && changed && opt.Method != Exact && q.refuseZeroed(zeroed, opt) != nil {
						stuckCountTest++
						stuck = make([]bool, len(q.members))
						for _, c := range zeroed {
							stuck[c] = true
						}
						rest = nil
						for _, c := range comp {
							if !stuck[c] {
								rest = append(rest, c)
							}
						}
						gap = 0 // (the next check records the others' gap)
					}
					if ok {
						converged, changed = true, true
						for i, c := range comp {
							q.lo[c], q.hi[c] = max(q.lo[c], lo[i]), min(q.hi[c], hi[i])
							d := q.hi[c] - q.lo[c]
							if opt.Absolute && d > opt.Epsilon || !opt.Absolute && d > opt.Epsilon*q.lo[c] {
								converged = false
							}
						}
						if converged {
							break
						}
					} else if opt.Method == Exact {
						// The bounds only seed the exact method's policy
						// iteration, which solves the chain whatever they are.
						break
					}
				}
				lastGap = gap
			} else if stuck != nil && changed && it%checkEvery == 0 {
				if lastGap > 0 && len(rest) > 0 && q.sweepsLeft(rest, lastGap, gap, checkEvery, opt) > 20*checkEvery || len(rest) == 0 {
					if err := q.refuseZeroed(zeroed, opt); err != nil {
						return iters, err
					}
				}
				lastGap = gap
			}
			if !changed {
				break
			}
			if ctx.Err() != nil {
				return iters, fmt.Errorf("prob: interval iteration stopped after %d iterations (gap %.3g): %w", it, gap, context.Cause(ctx))
			}
		}
		done += len(comp)
		if done&0xfff < len(comp) && ctx.Err() != nil {
			return iters, fmt.Errorf("prob: interval iteration stopped: %w", context.Cause(ctx))
		}
	}
	return iters, nil
}

// zeroExits returns the classes of comp with a choice that leaves the
// class (some entry enters another class or a decided state) only
// through entries whose float64 is 0: their rationals underflowed
// (below 2^-1075), so the choice's sweep sum is the class's own bound.
func (q *quotient) zeroExits(comp []int32) []int32 {
	m := q.g.m
	var out []int32
	for _, c := range comp {
	choices:
		for _, ch := range q.choices[c] {
			leaves := false
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				if q.class[m.To[e]] == c {
					if q.max && m.P[e] >= 1 {
						// (the sweep's sum is at least 1·hi[c])
						out = append(out, c)
						break choices
					}
					continue
				}
				if m.P[e] != 0 {
					continue choices
				}
				leaves = true
			}
			if leaves {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// refuseZeroed is the error for a component whose direct solutions
// declined and one of whose zeroed classes (zeroExits) is not within
// epsilon: its bound cannot move, so iteration would run until
// --timeout. Nil when every zeroed class is within epsilon.
func (q *quotient) refuseZeroed(zeroed []int32, opt SolveOptions) error {
	for _, c := range zeroed {
		if d := q.hi[c] - q.lo[c]; opt.Absolute && d <= opt.Epsilon || !opt.Absolute && d <= opt.Epsilon*q.lo[c] {
			continue
		}
		where := fmt.Sprintf("state %d", q.members[c][0])
		if len(q.members[c]) > 1 {
			where = fmt.Sprintf("the end component of state %d (%d states)", q.members[c][0], len(q.members[c]))
		}
		return fmt.Errorf("prob: %s has a choice that stays with a probability of 1 in float64 (it leaves with less than 2^-53, or only with probabilities below 2^-1074, which are 0 in float64), and solving its component directly declined: interval iteration cannot bound its value (it stays within [%g, %g]); use --method exact", where, q.lo[c], q.hi[c])
	}
	return nil
}

// stuckCountTest (tests only) counts the components whose zeroed classes
// were left out of the convergence test.
var stuckCountTest int

// floatFirstTest (tests only) solves every component of more than one
// class directly after its first sweep, so that tests compare the float64
// intervals' bounds (sccf64.go) while iteration has barely begun.
var floatFirstTest bool

// within says whether the bounds lo, hi of comp's classes, intersected
// with the current ones, are within epsilon.
func (q *quotient) within(comp []int32, lo, hi []float64, opt SolveOptions) bool {
	for i, c := range comp {
		l, h := max(q.lo[c], lo[i]), min(q.hi[c], hi[i])
		if d := h - l; opt.Absolute && d > opt.Epsilon || !opt.Absolute && d > opt.Epsilon*l {
			return false
		}
	}
	return true
}

// components returns the strongly connected components of the classes
// (an edge leads from a class to the classes its choices may enter), each
// after every component it leads to (Tarjan's order), members ascending.
func (q *quotient) components() [][]int32 {
	m := q.g.m
	n := len(q.members)
	// Class successors, in compressed rows.
	start := make([]uint32, n+1)
	var succ []int32
	for c := 0; c < n; c++ {
		for _, ch := range q.choices[c] {
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				if t := q.class[m.To[e]]; t >= 0 {
					succ = append(succ, t)
				}
			}
		}
		start[c+1] = uint32(len(succ))
	}
	compStart, nodes := sccOrder(n, start, succ)
	out := make([][]int32, len(compStart)-1)
	for i := range out {
		lo, hi := compStart[i], compStart[i+1]
		out[i] = nodes[lo:hi:hi]
	}
	return out
}

// scheduler fills sched for the undecided states: per class the best
// choice by the midpoint of the bounds; within an end component, the
// states that do not own that choice move towards its owner by internal
// choices.
func (q *quotient) scheduler(sched []int32, one []bool) {
	m := q.g.m
	mid := make([]float64, len(q.lo))
	for c := range mid {
		mid[c] = (q.lo[c] + q.hi[c]) / 2
	}
	for c, ms := range q.members {
		bestCh, bestV := int32(-1), 0.0
		for _, ch := range q.choices[c] {
			sum := 0.0
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				t := m.To[e]
				switch {
				case q.class[t] >= 0:
					sum += m.P[e] * mid[q.class[t]]
				case one[t]:
					sum += m.P[e]
				}
			}
			if bestCh < 0 || q.max && sum > bestV || !q.max && sum < bestV {
				bestCh, bestV = int32(ch), sum
			}
		}
		for _, s := range ms {
			sched[s] = -1
		}
		if bestCh < 0 {
			continue
		}
		owner := q.g.owner[bestCh]
		sched[owner] = bestCh
		if len(ms) == 1 {
			continue
		}
		// Backward search within the component towards the owner.
		done := map[uint32]bool{owner: true}
		queue := []uint32{owner}
		for len(queue) > 0 {
			t := queue[0]
			queue = queue[1:]
			for _, ch := range q.g.pre.Choice[q.g.pre.Start[t]:q.g.pre.Start[t+1]] {
				s := q.g.owner[ch]
				if q.class[s] != int32(c) || done[s] || !q.internal[ch] {
					continue
				}
				done[s] = true
				sched[s] = int32(ch)
				queue = append(queue, s)
			}
		}
	}
}

// sweepsLeft predicts how many more sweeps component comp, whose largest
// gap went from lastGap to gap in the last `every` sweeps, needs at that
// rate to reach epsilon (+Inf when the gap did not shrink).
func (q *quotient) sweepsLeft(comp []int32, lastGap, gap float64, every int, opt SolveOptions) float64 {
	if gap >= lastGap {
		return math.Inf(1)
	}
	target := opt.Epsilon
	if !opt.Absolute {
		lo := 1.0
		for _, c := range comp {
			lo = min(lo, q.lo[c])
		}
		target *= max(lo, 1e-300)
	}
	if gap <= target {
		return 0
	}
	return float64(every) * math.Log(target/gap) / math.Log(gap/lastGap)
}
