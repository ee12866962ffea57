package prob

// Bounded properties (JANI "step-bounds", "reward-bounds", "step-instant";
// vigil prob --steps K on a .spec property), as Storm computes them on
// discrete-time models:
//
//   - P(ψ U[l,u] φ), steps l..u: u-l rounds of backward iteration from
//     the goal (value 1 in goal states, 0 in the others), then l rounds
//     in which goal states count only as states of ψ a run goes through
//     (value 0 where ψ fails or a run ends). Each round takes the best
//     choice (Pmax) or the worst (Pmin) of each state, which is the
//     optimum over all schedulers, the step-counting ones included.
//     Method exact iterates in rationals; ii in float64, every update
//     rounding a lower bound down and an upper bound up by the
//     worst-case error of its sum (as ii.go's sweeps), so the bounds hold.
//   - the expected reward of the first k steps (Storm's C<=k): k rounds
//     of V(s) = opt over the choices of reward + Σ p·V, from 0.
//   - P(ψ U φ) with the accumulated reward (integer, non-negative) bounded:
//     the model unfolded with the reward accumulated so far (up to the
//     upper bound, or capped at the lower one), φ counting where the
//     accumulation lies within the bounds, and solved as an unbounded
//     reachability (ii or exact). Its size is the states times the bound;
//     beyond MaxUnfold states it is refused.
//
// A state where the policy is stuck ends a run (vigil's reading
// everywhere). A deadlock does too, except that where Storm's self-loop
// on it would answer otherwise it is read as that self-loop (a goal
// deadlock before a lower step bound stays in the goal) or refused (a
// deadlock's state reward, which the self-loop would keep earning, for
// the reward of the first steps or below a lower reward bound).

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// MaxUnfold is the largest unfolded model (states times the reward
// bound) a reward-bounded property is solved on, unless --max-states is
// larger.
const MaxUnfold = 4_000_000

// MaxUpdates bounds a step bound's rounds times the model's states: a
// guard against bounds no run would finish (--timeout stops the others).
const MaxUpdates = 1 << 36

// NeedsThrough says whether q needs the model with its goal states
// expanded (Options.Through): a lower bound makes runs go past them.
func (q Query) NeedsThrough() bool {
	b := q.Bounds
	if b == nil || b.Instant {
		return false
	}
	if b.Steps {
		lo, _ := b.StepRange()
		return lo.Sign() > 0
	}
	// the accumulations that count start above 0: > 0 is from 1 (a
	// strict lower bound 0 read as no lower bound left the goal states
	// terminal, so a run in one with reward 0 never went on to earn it)
	lo, _, _ := rewardRange(b)
	return lo.Sign() > 0
}

// stepCount is a bound's step count as an int, or an error naming q.
func stepCount(q Query, x *big.Int, n int) (int, error) {
	limit := int64(MaxUpdates) / int64(max(n, 1))
	if !x.IsInt64() || x.Int64() > limit {
		return 0, &FilterError{fmt.Sprintf("prob: %s has a step bound %s that, with the model's %d states, is beyond what vigil prob iterates (%d rounds here); lower the bound", q.who(), x, n, limit)}
	}
	return int(x.Int64()), nil
}

// solveBounded answers a bounded query q on m.
func solveBounded(ctx context.Context, m *Model, q Query, opt SolveOptions, maxStates int) (*Result, error) {
	t0 := time.Now()
	b := q.Bounds
	if opt.Method == Exact && m.Exact == nil {
		return nil, fmt.Errorf("prob: the model was built without exact probabilities")
	}
	var r *Result
	var err error
	switch {
	case b.Instant:
		var rew []*big.Rat
		if rew, err = ChoiceRewards(ctx, m, q.Reward, q.who()); err != nil {
			return nil, err
		}
		if q.Reward.Exit {
			if err := deadlockRewards(ctx, m, q); err != nil {
				return nil, err
			}
		}
		var k int
		if k, err = stepCount(q, b.Upper.Num(), m.NumStates()); err != nil {
			return nil, err
		}
		r, err = cumulative(ctx, m, rew, k, opt)
	case b.Steps:
		lo, hi := b.StepRange()
		var l, h int
		if l, err = stepCount(q, lo, m.NumStates()); err != nil {
			return nil, err
		}
		if h, err = stepCount(q, hi, m.NumStates()); err != nil {
			return nil, err
		}
		r, err = stepBounded(ctx, m, q, l, h, opt)
	default:
		r, err = rewardBounded(ctx, m, q, opt, maxStates)
	}
	if err != nil {
		return nil, err
	}
	r.Elapsed = time.Since(t0)
	return r, nil
}

func (q Query) who() string {
	if q.Where != "" {
		return q.Where + ": property " + q.Name
	}
	return "property " + q.Name
}

// through says whether a run may go on from s in the phase before a
// lower bound: s has choices, is not unsafe, and satisfies ψ (a goal
// state need not).
func through(m *Model, left *symbolic.Cond, s uint32) bool {
	if m.RowStart[s+1] == m.RowStart[s] || m.Status[s] == explicit.Unsafe {
		return false
	}
	return m.Status[s] != explicit.Goal || left == nil || left.Holds(m.StateOf(s))
}

// idles says whether goal state s of a model built with Through is a
// deadlock (no command enabled, not a policy that is stuck) where ψ
// holds: Storm gives a deadlock a self-loop, so a run that reaches it
// before a lower bound stays in the goal until the bound is met (vigil
// ends runs at deadlocks, which no unbounded question tells apart).
func idles(m *Model, left *symbolic.Cond, s uint32) bool {
	if m.Status[s] != explicit.Goal || m.RowStart[s+1] != m.RowStart[s] {
		return false
	}
	st := m.StateOf(s)
	if left != nil && !left.Holds(st) {
		return false
	}
	x := &explicit.Expansion{}
	m.G.Applicable(st, x)
	return len(x.Enabled()) == 0
}

// iterator runs rounds of a Bellman update on float64 bounds or on
// rationals.
type iterator struct {
	m     *Model
	max   bool
	exact bool
	// v holds each state's lower and upper bound side by side (a round
	// reads both of every successor: one cache line, not two, on a
	// model of a million states); nv the next round's, swapped in
	// after it.
	v, nv []bounds
	ex    []*big.Rat
	// work counts the state updates since the context was last checked:
	// a model of a few states iterated for billions of rounds checks it
	// every 4096 updates too, not only at state 4095 of a round (a
	// 4-state model within 10^10 steps ignored --timeout and SIGTERM).
	work int
	// dirty, once track has been called (for probabilities: no reward
	// is added each round), marks the states with a successor whose
	// value changed in the last round: only those can change in the next
	// (a state's update reads nothing but its successors' values and its
	// own fixed value, constant within a phase), and the others keep
	// their values exactly, uncomputed. nil: every state is updated.
	dirty, ndirty []bool
	g             *graph
}

// track turns on the tracking of changed values (see dirty), every state
// dirty; call it again where the fixed states change (a new phase).
func (it *iterator) track() {
	n := it.m.NumStates()
	if it.g == nil {
		it.g = newGraph(it.m)
		it.dirty, it.ndirty = make([]bool, n), make([]bool, n)
	}
	for s := range it.dirty {
		it.dirty[s] = true
	}
}

// changed marks the states with a choice into s dirty for the next round.
func (it *iterator) changed(s uint32) {
	g := it.g
	for _, c := range g.pre.Choice[g.pre.Start[s]:g.pre.Start[s+1]] {
		it.ndirty[g.owner[c]] = true
	}
}

// advance makes the next round's dirty states the current ones.
func (it *iterator) advance() {
	if it.dirty != nil {
		it.dirty, it.ndirty = it.ndirty, it.dirty
		clear(it.ndirty)
	}
}

// stopped says why the iteration must stop (the context ended), checked
// about every 4096 state updates over the rounds.
func (it *iterator) stopped(ctx context.Context, updates int) error {
	it.work += updates
	if it.work < 0x1000 {
		return nil
	}
	it.work = 0
	if ctx.Err() != nil {
		return fmt.Errorf("prob: bounded iteration: %w", context.Cause(ctx))
	}
	return nil
}

func newIterator(m *Model, max, exact bool) *iterator {
	n := m.NumStates()
	it := &iterator{m: m, max: max, exact: exact}
	if exact {
		it.ex = make([]*big.Rat, n)
		for i := range it.ex {
			it.ex[i] = new(big.Rat)
		}
	} else {
		it.v, it.nv = make([]bounds, n), make([]bounds, n)
	}
	return it
}

// set gives state s the value v (0 or 1).
func (it *iterator) set(s uint32, v int64) {
	if it.exact {
		it.ex[s].SetInt64(v)
	} else {
		it.v[s] = bounds{float64(v), float64(v)}
	}
}

// round does one round: states where fixed says so keep fix(s) (0 or 1),
// the others take the optimum over their choices of rew (nil: none) plus
// the expectation of the last round's values. prob: the values are
// probabilities (clamped to [0, 1]).
func (it *iterator) round(ctx context.Context, fixed func(s uint32) (int64, bool), rewLo, rewHi []float64, rewEx []*big.Rat, prob bool) error {
	m := it.m
	n := uint32(m.NumStates())
	if it.exact {
		next := make([]*big.Rat, n)
		tmp := new(big.Rat)
		for s := range n {
			// every update: one of rationals of many digits is slow
			if err := it.stopped(ctx, 0x1000); err != nil {
				return err
			}
			if it.dirty != nil && !it.dirty[s] {
				next[s] = it.ex[s]
				continue
			}
			if v, ok := fixed(s); ok {
				next[s] = big.NewRat(v, 1)
				if it.dirty != nil && next[s].Cmp(it.ex[s]) != 0 {
					it.changed(s)
				}
				continue
			}
			var best *big.Rat
			from, to := m.Choices(s)
			for c := from; c < to; c++ {
				sum := new(big.Rat)
				if rewEx != nil {
					sum.Set(rewEx[c])
				}
				for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
					sum.Add(sum, tmp.Mul(m.Exact[e], it.ex[m.To[e]]))
				}
				if best == nil || it.max == (sum.Cmp(best) > 0) && sum.Cmp(best) != 0 {
					best = sum
				}
			}
			if best == nil {
				best = new(big.Rat)
			}
			next[s] = best
			if it.dirty != nil && best.Cmp(it.ex[s]) != 0 {
				it.changed(s)
			}
		}
		it.ex = next
		it.advance()
		return nil
	}
	cur, nv := it.v, it.nv
	for s := range n {
		if err := it.stopped(ctx, 1); err != nil {
			return err
		}
		if it.dirty != nil && !it.dirty[s] {
			nv[s] = cur[s]
			continue
		}
		if v, ok := fixed(s); ok {
			nv[s] = bounds{float64(v), float64(v)}
			if it.dirty != nil && nv[s] != cur[s] {
				it.changed(s)
			}
			continue
		}
		from, to := m.Choices(s)
		if from == to {
			nv[s] = bounds{}
			if it.dirty != nil && cur[s] != (bounds{}) {
				it.changed(s)
			}
			continue
		}
		bl, bh := math.Inf(1), math.Inf(1)
		if it.max {
			bl, bh = math.Inf(-1), math.Inf(-1)
		}
		for c := from; c < to; c++ {
			var sl, sh float64
			pos := false // some term of the upper sum is positive: it may have rounded
			if rewLo != nil {
				sl, sh = rewLo[c], rewHi[c]
				pos = sh > 0
			}
			sure := prob // every successor's probability is exactly 1
			tiny := 0.0  // the upper bounds reached by entries below 2^-1022
			for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
				t := cur[m.To[e]]
				sl += m.P[e] * t.lo
				sh += m.P[e] * t.hi
				pos = pos || t.hi > 0
				sure = sure && t.lo == 1
				if m.P[e] < 0x1p-1022 {
					tiny += t.hi
				}
			}
			if sure {
				// a lower bound 1 of a probability is its value, and the
				// choice's distribution sums to exactly 1 (Build's rows
				// are normalised), so its value is exactly 1: not the
				// 1 - 2^-50 of the rounded sum, which left P>=1 [F<=3 φ]
				// unknown on a chain that surely gets there
				sl, sh = 1, 1
			}
			// Each sum of k products of float64 probabilities (within
			// 2^-53 of their rationals) and bounds is within (k+2)·2^-53
			// of the exact sum relatively, plus what underflow loses
			// (ii.go); one more for the reward added. Each choice's
			// bounds enclose its exact value, so the best of the lower
			// (upper) bounds bounds the best exact value. Where every
			// term is 0 the sum is exactly 0.
			w := float64(m.EntryStart[c+1] - m.EntryStart[c] + 3)
			if !sure {
				sl -= w*0x1p-53*sl + w*0x1p-1022
			}
			if pos && !sure {
				sh += w*0x1p-53*sh + w*0x1p-1022
			}
			// An entry below 2^-1022 holds its rational only within
			// 2^-1075 absolutely (below 2^-1075 it is a 0): its product
			// may be off by 2^-1075 times the bound, beyond the margin
			// above when rewards make the bounds large (s32q_gap_test.go,
			// for SolveReward's sums).
			if tiny > 0 && !sure {
				slack := math.Nextafter(tiny*(1+0x1p-50)*0x1p-1074+0x1p-1073, math.Inf(1))
				sl = math.Nextafter(sl-slack, math.Inf(-1))
				sh = math.Nextafter(sh+slack, math.Inf(1))
			}
			if it.max == (sl > bl) && sl != bl {
				bl = sl
			}
			if it.max == (sh > bh) && sh != bh {
				bh = sh
			}
		}
		bl = max(bl, 0)
		if prob {
			bh = min(bh, 1)
		}
		nv[s] = bounds{bl, bh}
		if it.dirty != nil && nv[s] != cur[s] {
			it.changed(s)
		}
	}
	it.v, it.nv = nv, cur
	it.advance()
	return nil
}

// bounds is a lower and an upper bound of a value.
type bounds struct{ lo, hi float64 }

// result makes a Result of the iterator's values.
func (it *iterator) result(max bool, method Method, rounds int) *Result {
	n := it.m.NumStates()
	r := &Result{Max: max, Method: method, Sched: make([]int32, n), Iterations: rounds}
	for i := range r.Sched {
		r.Sched[i] = -1 // a step-bounded optimum counts steps: no memoryless scheduler
	}
	if it.exact {
		r.Exact = it.ex
		r.Lower, r.Upper = make([]float64, n), make([]float64, n)
		for s, x := range it.ex {
			r.Lower[s], r.Upper[s] = floatBelow(x), floatAbove(x)
		}
	} else {
		r.Lower, r.Upper = make([]float64, n), make([]float64, n)
		for s, b := range it.v {
			r.Lower[s], r.Upper[s] = b.lo, b.hi
		}
	}
	return r
}

func boundedMethod(opt SolveOptions) Method {
	if opt.Method == "" {
		return II
	}
	return opt.Method
}

// stepBounded is P(ψ U[l,h] φ) (q.Target's states as φ; unsafe ones, and
// runs that end, as leaving ψ).
func stepBounded(ctx context.Context, m *Model, q Query, l, h int, opt SolveOptions) (*Result, error) {
	exact := opt.Method == Exact
	it := newIterator(m, opt.Max, exact)
	target := m.Target(q.Target)
	for s, t := range target {
		if t {
			it.set(uint32(s), 1)
		}
	}
	// Phase one: within h-l steps, φ counts (terminal, 1), a state
	// without choices or unsafe is 0.
	phase1 := func(s uint32) (int64, bool) {
		switch {
		case target[s]:
			return 1, true
		case m.RowStart[s+1] == m.RowStart[s] || m.Status[s] != explicit.Open:
			return 0, true
		}
		return 0, false
	}
	it.track()
	rounds := 0
	for range h - l {
		if err := it.round(ctx, phase1, nil, nil, nil, true); err != nil {
			return nil, err
		}
		rounds++
		if opt.Progress != nil {
			opt.Progress(rounds, 0)
		}
	}
	var left *symbolic.Cond
	if q.Bounds != nil {
		left = q.Bounds.Left
	}
	// Phase two: the l steps before, where a run must go on through ψ.
	if l > 0 {
		go1, stay := make([]bool, m.NumStates()), make([]bool, m.NumStates())
		for s := range go1 {
			if s&0xfff == 0xfff && ctx.Err() != nil {
				return nil, fmt.Errorf("prob: bounded iteration: %w", context.Cause(ctx))
			}
			go1[s] = through(m, left, uint32(s))
			stay[s] = !go1[s] && idles(m, left, uint32(s))
		}
		phase2 := func(s uint32) (int64, bool) {
			switch {
			case stay[s]:
				return 1, true // a goal deadlock: its self-loop stays in the goal
			case !go1[s]:
				return 0, true
			}
			return 0, false
		}
		it.track() // the fixed states change
		for range l {
			if err := it.round(ctx, phase2, nil, nil, nil, true); err != nil {
				return nil, err
			}
			rounds++
			if opt.Progress != nil {
				opt.Progress(rounds, 0)
			}
		}
	}
	return it.result(opt.Max, boundedMethod(opt), rounds), nil
}

// cumulative is the expected reward (rew per choice) of the first k
// steps.
func cumulative(ctx context.Context, m *Model, rew []*big.Rat, k int, opt SolveOptions) (*Result, error) {
	exact := opt.Method == Exact
	it := newIterator(m, opt.Max, exact)
	var rl, rh []float64
	if !exact {
		rl, rh = make([]float64, len(rew)), make([]float64, len(rew))
		for c, x := range rew {
			if x != nil {
				rl[c], rh[c] = floatBelow(x), floatAbove(x)
			}
		}
	}
	ex := rew
	for c, x := range ex {
		if x == nil {
			ex[c] = new(big.Rat)
		}
	}
	none := func(uint32) (int64, bool) { return 0, false }
	for i := range k {
		if err := it.round(ctx, none, rl, rh, ex, false); err != nil {
			return nil, err
		}
		if opt.Progress != nil {
			opt.Progress(i+1, 0)
		}
	}
	if !exact {
		for s, x := range it.v {
			if math.IsInf(x.hi, 1) {
				return nil, fmt.Errorf("prob: the expected reward of the first %d steps is beyond float64 in state %s; use --method exact", k, m.G.M.FormatState(m.StateOf(uint32(s))))
			}
		}
	}
	return it.result(opt.Max, boundedMethod(opt), k), nil
}

// stepRewards returns each choice's reward for a reward bound: an integer
// of at least 0 that does not depend on the outcome taken (an unfolding
// counts the reward of the step taken, not its expectation).
func stepRewards(ctx context.Context, m *Model, q Query) ([]int64, error) {
	r := q.Bounds.Reward
	rew, err := ChoiceRewards(ctx, m, r, q.who())
	if err != nil {
		return nil, err
	}
	if r.Steps && (r.Outcomes || r.Edges) {
		// the reward of each outcome (or each command of a dtmc's fused
		// choice) must be the same: ChoiceRewards gave their expectation
		x := &explicit.Expansion{}
		var ds *dists
		if r.Outcomes {
			if ds, err = newDists(m.G.M); err != nil {
				return nil, err
			}
		}
		var pbuf []*big.Rat
		err := rewardStates(ctx, m, false, func(_ uint32, st symbolic.State) error {
			m.G.Applicable(st, x)
			var first *big.Rat
			var firstCmd int
			for _, ci := range x.Enabled() {
				cmd := &m.G.M.Commands[ci]
				if !IsDTMC(m.G.M) {
					first = nil // one choice per command: compare within it
				}
				vals := []*big.Rat{}
				if r.Edges {
					vals = append(vals, big.NewRat(int64(cmd.CostIn(st)), 1))
				} else {
					var err error
					pbuf, err = ds.eachOutcomeReward(int(ci), st, r.Name, pbuf, func(_ *symbolic.Outcome, or *symbolic.OutcomeReward, _ *big.Rat) error {
						v := new(big.Rat)
						if or != nil {
							v = or.Value(st)
						}
						vals = append(vals, v)
						return nil
					})
					if err != nil {
						return err
					}
				}
				for _, v := range vals {
					if first == nil {
						first, firstCmd = v, int(ci)
					} else if v.Cmp(first) != 0 {
						where := fmt.Sprintf("the command at %s", cmd.Pos)
						if int(ci) != firstCmd {
							where = fmt.Sprintf("the commands at %s and %s, fused in a dtmc", m.G.M.Commands[firstCmd].Pos, cmd.Pos)
						}
						return &FilterError{fmt.Sprintf("prob: %s has a reward bound on %s, which is %s on one outcome and %s on another in state %s (%s); vigil prob unfolds a reward that each step gives whatever its outcome", q.who(), r.Name, first.RatString(), v.RatString(), m.G.M.FormatState(st), where)}
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	out := make([]int64, len(rew))
	for c, x := range rew {
		if x == nil {
			continue
		}
		if !x.IsInt() || !x.Num().IsInt64() {
			s := m.owner()[c]
			return nil, &FilterError{fmt.Sprintf("prob: %s has a reward bound on %s, which is %s on a step of state %s (command at %s); vigil prob unfolds integer rewards only", q.who(), r.Name, x.RatString(), m.G.M.FormatState(m.StateOf(s)), m.G.M.Commands[m.Cmd[c]].Pos)}
		}
		out[c] = x.Num().Int64()
	}
	return out, nil
}

// rewardRange is a reward bound's integer range of accumulated rewards:
// at least lo; at most hi when hasHi.
func rewardRange(b *symbolic.PathBounds) (lo, hi *big.Int, hasHi bool) {
	lo = new(big.Int)
	if b.Lower != nil {
		// ≥ L: from ceil(L); > L: from floor(L)+1
		f := new(big.Int).Quo(b.Lower.Num(), b.Lower.Denom()) // floor (L ≥ 0)
		lo.Set(f)
		if b.LowerStrict || !b.Lower.IsInt() {
			lo.Add(f, big.NewInt(1))
		}
	}
	if b.Upper != nil {
		// ≤ U: up to floor(U); < U: up to ceil(U)-1
		f := new(big.Int).Quo(b.Upper.Num(), b.Upper.Denom())
		hi = f
		if b.UpperStrict && b.Upper.IsInt() {
			hi = new(big.Int).Sub(f, big.NewInt(1))
		}
		hasHi = true
	}
	return lo, hi, hasHi
}

// rewardBounded is P(ψ U φ) with the accumulated reward within q's
// bounds, on the model unfolded with the accumulation.
func rewardBounded(ctx context.Context, m *Model, q Query, opt SolveOptions, maxStates int) (*Result, error) {
	rew, err := stepRewards(ctx, m, q)
	if err != nil {
		return nil, err
	}
	b := q.Bounds
	lo, hi, hasHi := rewardRange(b)
	n := m.NumStates()
	res := func() *Result {
		r := &Result{Max: opt.Max, Method: boundedMethod(opt), Lower: make([]float64, n), Upper: make([]float64, n), Sched: make([]int32, n)}
		for i := range r.Sched {
			r.Sched[i] = -1
		}
		if opt.Method == Exact {
			r.Exact = make([]*big.Rat, n)
			for i := range r.Exact {
				r.Exact[i] = new(big.Rat)
			}
		}
		return r
	}
	if hasHi && (hi.Sign() < 0 || hi.Cmp(lo) < 0) {
		return res(), nil // no accumulation lies within the bounds: 0
	}
	capAt := lo
	if hasHi {
		capAt = hi
	}
	limit := max(MaxUnfold, maxStates) // --max-states bounds the model; the unfolding may be larger
	if !capAt.IsInt64() || capAt.Int64() >= int64(limit) {
		return nil, &FilterError{fmt.Sprintf("prob: %s has a reward bound (%s) that unfolds the model's %d states over %s values of the accumulated reward, beyond %d states (raise --max-states, or lower the bound)", q.who(), b.Text, n, new(big.Int).Add(capAt, big.NewInt(1)), limit)}
	}
	C, L := capAt.Int64(), lo.Int64()
	target := m.Target(q.Target)
	goes := make([]bool, n)
	for s := range goes {
		if s&0xfff == 0xfff && ctx.Err() != nil {
			return nil, fmt.Errorf("prob: unfolding the reward bound: %w", context.Cause(ctx))
		}
		goes[s] = through(m, b.Left, uint32(s))
	}
	// The unfolded states: (s, a) with id; (s, 0) is s for the roots,
	// the start states (all states under a filter over a state formula,
	// which reduces the values of others).
	type pair struct {
		s uint32
		a int64
	}
	// ids: in a dense table of n × (C+1) ids (0: none yet, else id+1)
	// where that is at most 4 bytes for each of 16 unfolded states
	// allowed (a map took about 100 bytes an entry: eajs.4's 872,410
	// states times 10 values filled gigabytes before the refusal);
	// else in a map. The table is paged: a page of 2^12 ids is made when
	// the first id on it is stored, so an unfolding that reaches few
	// (state, reward) pairs costs what it reaches, not the table's
	// bound (up to 256 MB reserved at once before).
	const pageBits = 12
	var pages [][]uint32
	var ids map[pair]uint32
	// n·(C+1) and 16·limit are products in 128 bits: under --max-states
	// near 2^62 both wrapped int64 round to 0, and a table of no pages
	// was indexed (a panic).
	if wHi, w := bits.Mul64(uint64(n), uint64(C)+1); wHi == 0 && w <= 1<<40 && w <= sat16(limit) {
		pages = make([][]uint32, (w+1<<pageBits-1)>>pageBits)
	} else {
		ids = map[pair]uint32{}
	}
	lookup := func(p pair) (uint32, bool) {
		if pages != nil && p.s != math.MaxUint32 {
			i := int64(p.s)*(C+1) + p.a
			pg := pages[i>>pageBits]
			if pg == nil {
				return 0, false
			}
			id := pg[i&(1<<pageBits-1)]
			return id - 1, id != 0
		}
		id, ok := ids[p]
		return id, ok
	}
	store := func(p pair, id uint32) {
		if pages != nil && p.s != math.MaxUint32 {
			i := int64(p.s)*(C+1) + p.a
			pg := pages[i>>pageBits]
			if pg == nil {
				pg = make([]uint32, 1<<pageBits)
				pages[i>>pageBits] = pg
			}
			pg[i&(1<<pageBits-1)] = id + 1
			return
		}
		if ids == nil {
			ids = map[pair]uint32{}
		}
		ids[p] = id
	}
	var states []pair
	roots := m.Starts
	if q.FilterStates != nil {
		roots = n
	}
	for s := range uint32(roots) {
		store(pair{s, 0}, s)
		states = append(states, pair{s, 0})
	}
	pm := &Model{G: m.G, Starts: m.Starts, RowStart: []uint32{0}, EntryStart: []uint32{0}}
	if opt.Method == Exact {
		pm.Exact = []*big.Rat{}
	}
	var ptarget []bool
	sink := func() uint32 { // (dead): the accumulation went past the upper bound
		p := pair{math.MaxUint32, -1}
		if id, ok := lookup(p); ok {
			return id
		}
		id := uint32(len(states))
		store(p, id)
		states = append(states, p)
		return id
	}
	for i := 0; i < len(states); i++ {
		if i&0xfff == 0xfff && ctx.Err() != nil {
			return nil, fmt.Errorf("prob: unfolding the reward bound: %w", context.Cause(ctx))
		}
		if len(states) > limit {
			return nil, &FilterError{fmt.Sprintf("prob: %s has a reward bound (%s) that unfolds the model's %d states over up to %d values of the accumulated reward: more than %d states (raise --max-states, or lower the bound)", q.who(), b.Text, n, C+1, limit)}
		}
		p := states[i]
		win := p.a >= 0 && p.s != math.MaxUint32 && target[p.s] && p.a >= L
		ptarget = append(ptarget, win)
		status := explicit.Open
		if win {
			status = explicit.Goal
		}
		pm.Status = append(pm.Status, status)
		// a goal state below the lower bound goes on (through ψ); any
		// other target state is terminal
		open := !win && p.s != math.MaxUint32 && (target[p.s] && goes[p.s] || !target[p.s] && m.Status[p.s] == explicit.Open)
		if !win && p.s != math.MaxUint32 && target[p.s] && b.Reward.Exit && idles(m, b.Left, p.s) {
			// Storm's self-loop on a deadlock earns its state reward
			// each step, which might reach the lower bound there
			if v, _ := b.Reward.StateValue(m.StateOf(p.s)); v.Sign() > 0 {
				return nil, &FilterError{fmt.Sprintf("prob: %s has a lower reward bound (%s), and goal state %s is a deadlock of state reward %s below it, which Storm's self-loop there would keep earning; vigil prob ends runs at deadlocks and does not compute it", q.who(), b.Text, m.G.M.FormatState(m.StateOf(p.s)), v.RatString())}
			}
		}
		if open {
			from, to := m.Choices(p.s)
			for c := from; c < to; c++ {
				// p.a ≤ C: compared as rew[c] > C - p.a, a reward near
				// 2^63 does not wrap p.a + rew[c] round to a negative
				// accumulation (the dense table's index panicked; a map
				// had counted the run as within the bound)
				a := p.a + rew[c]
				beyond := rew[c] > C-p.a
				over := hasHi && beyond
				if !hasHi && beyond {
					a = C
				}
				for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
					var t uint32
					if over {
						t = sink()
					} else {
						np := pair{m.To[e], a}
						id, ok := lookup(np)
						if !ok {
							id = uint32(len(states))
							store(np, id)
							states = append(states, np)
						}
						t = id
					}
					pm.To = append(pm.To, t)
					pm.P = append(pm.P, m.P[e])
					if pm.Exact != nil {
						pm.Exact = append(pm.Exact, m.Exact[e])
					}
				}
				pm.EntryStart = append(pm.EntryStart, uint32(len(pm.To)))
				pm.Label = append(pm.Label, m.Label[c])
				pm.Cmd = append(pm.Cmd, m.Cmd[c])
			}
		}
		pm.RowStart = append(pm.RowStart, uint32(len(pm.Cmd)))
	}
	opt.MaxExact = max(opt.MaxExact, 0)
	pr, err := Solve(ctx, pm, ptarget, opt)
	if err != nil {
		return nil, err
	}
	r := res()
	r.Iterations, r.Rounds = pr.Iterations, pr.Rounds
	for s := roots; s < n; s++ {
		// not solved (no root): only the bounds every probability has
		r.Upper[s] = 1
		if r.Exact != nil {
			r.Exact[s] = nil
		}
	}
	copy(r.Lower, pr.Lower[:roots])
	copy(r.Upper, pr.Upper[:roots])
	if r.Exact != nil {
		copy(r.Exact, pr.Exact[:roots])
		for s, x := range r.Exact[:roots] {
			// the float64 bounds enclose the rational
			r.Lower[s], r.Upper[s] = floatBelow(x), floatAbove(x)
		}
	}
	return r, nil
}

// deadlockRewards refuses the reward of the first steps where a reachable
// deadlock has a state reward: Storm's self-loop there earns it every
// step, where vigil ends the run.
func deadlockRewards(ctx context.Context, m *Model, q Query) error {
	x := &explicit.Expansion{}
	return rewardStates(ctx, m, true, func(_ uint32, st symbolic.State) error {
		m.G.Applicable(st, x)
		if len(x.Enabled()) > 0 {
			return nil // a stuck policy: its run ends
		}
		if v, _ := q.Reward.StateValue(st); v.Sign() > 0 {
			return &FilterError{fmt.Sprintf("prob: %s is the reward of the first %s steps, and state %s is a deadlock of state reward %s, which Storm's self-loop there would keep earning; vigil prob ends runs at deadlocks and does not compute it", q.who(), q.Bounds.Upper.RatString(), m.G.M.FormatState(st), v.RatString())}
		}
		return nil
	})
}

// sat16 is 16·limit, saturated at the largest uint64.
func sat16(limit int) uint64 {
	if hi, lo := bits.Mul64(16, uint64(limit)); hi == 0 {
		return lo
	}
	return math.MaxUint64
}
