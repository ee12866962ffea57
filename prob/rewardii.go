package prob

import (
	"context"
	"fmt"
	"math"
	"math/big"
)

// iterate is the ii method: value iteration from below and optimistic
// upper bounds (see the file comment of reward.go), topologically: the
// strongly connected components of the classes come sinks first, and each
// is solved once the bounds of everything it leads to are final (as for
// probabilities, ii.go). A component of one class is one Bellman update
// (a class that may return to itself takes the value of repeating its
// choice until it leaves); a larger one is iterated from below until it
// settles, then an upper bound is guessed just above and accepted when one
// Bellman step, every sum rounded up, does not exceed it (T(U) ≤ U on the
// component, with the final upper bounds of what it leads to). By
// Knaster-Tarski U then bounds the least fixpoint of that operator, which
// is at least the component's value (the operator grows with the
// boundary's values). A component that iteration would take very long
// on (haddad-monmege: expected steps of 2^N; a ring left with 1e-18) is
// solved directly (directReward: a linear system for a chain's, policy
// iteration for an MDP's).
func (rs *rewardSolver) iterate(ctx context.Context, r *Result, opt SolveOptions) error {
	m := rs.m
	n := m.NumStates()
	positive := func(c uint32) bool { return rs.rew[c].Sign() > 0 }
	// Zero: the open states of value 0. For Emin, those that reach the
	// goal almost surely by choices of reward 0; for Emax, those that
	// reach no choice of positive reward.
	zero := make([]bool, n)
	if rs.max {
		from := make([]bool, n)
		for c := range uint32(m.NumChoices()) {
			if positive(c) {
				from[rs.g.owner[c]] = true
			}
		}
		through := make([]bool, n)
		for s := range uint32(n) {
			through[s] = rs.open(s)
		}
		pos := rs.g.backward(from, through)
		for s := range uint32(n) {
			zero[s] = rs.open(s) && !pos[s]
		}
	} else {
		free := m.restrict(func(_, c uint32) bool { return rs.ok[c] && !positive(c) })
		one, _ := newGraph(free).prob1E(rs.goal)
		for s := range uint32(n) {
			zero[s] = rs.open(s) && one[s]
		}
	}
	// Classes: the states iterated, each end component of zero reward
	// (Emin) one class.
	in := make([]bool, n)
	for s := range uint32(n) {
		in[s] = rs.open(s) && !zero[s]
	}
	zero = nil
	var internal []bool
	var comp []int32
	ncomp := 0
	if !rs.max {
		comp, ncomp, internal = rs.g.mecsOf(in, func(c uint32) bool { return rs.ok[c] && !positive(c) })
	}
	cls := make([]int32, n)
	k := int32(ncomp)
	for s := range uint32(n) {
		cls[s] = -1
		switch {
		case !in[s]:
		case comp != nil && comp[s] >= 0:
			cls[s] = comp[s]
		default:
			cls[s] = k
			k++
		}
	}
	in, comp = nil, nil
	// The classes' choices, in compressed rows.
	keep := func(c uint32) bool { return rs.ok[c] && (internal == nil || !internal[c]) }
	chStart := make([]uint32, k+1)
	for s := range uint32(n) {
		if i := cls[s]; i >= 0 {
			for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
				if keep(c) {
					chStart[i+1]++
				}
			}
		}
	}
	for i := range k {
		if chStart[i+1] == 0 {
			return fmt.Errorf("prob: internal error: a class of finite expected reward has no choice")
		}
		chStart[i+1] += chStart[i]
	}
	chList := make([]uint32, chStart[k])
	fill := append([]uint32(nil), chStart[:k]...)
	for s := range uint32(n) {
		if i := cls[s]; i >= 0 {
			for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
				if keep(c) {
					chList[fill[i]] = c
					fill[i]++
				}
			}
		}
	}
	fill, internal = nil, nil
	// The components of the classes, sinks first.
	sStart := make([]uint32, k+1)
	var succ []int32
	for i := range k {
		for _, c := range chList[chStart[i]:chStart[i+1]] {
			for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
				if t := cls[m.To[e]]; t >= 0 && t != i {
					succ = append(succ, t)
				}
			}
		}
		sStart[i+1] = uint32(len(succ))
	}
	compStart, order := sccOrder(int(k), sStart, succ)
	sStart, succ = nil, nil
	rd, ru := make([]float64, m.NumChoices()), make([]float64, m.NumChoices())
	for c, v := range rs.rew {
		if v != nil && v.Sign() != 0 {
			rd[c], ru[c] = floatBelow(v), floatAbove(v)
		}
	}
	lo, hi := make([]float64, k), make([]float64, k)
	best := make([]uint32, k)
	val := func(v []float64, t uint32) float64 {
		if c := cls[t]; c >= 0 {
			return v[c]
		}
		return 0 // goal or zero (an allowed choice enters no infinite state)
	}
	// bellman is choice c's value given v, every sum rounded down (or up,
	// with up). Where c may stay in its own class (a self-loop, or back
	// into its end component) it is the value of repeating c until it
	// leaves, (reward + sum over the others) / (probability of leaving),
	// as for probabilities (ii.go): a retry of probability 1 - 1e-6 takes
	// one sweep, not millions. Its fixpoints and prefixpoints are the
	// Bellman operator's (for a leaving probability > 0). A choice that
	// never leaves its class costs its reward for ever: +Inf (only for
	// Emin, where it is never the best; with reward 0 it would lie
	// inside a collapsed component).
	bellman := func(v []float64, c uint32, up bool) float64 {
		own := cls[rs.g.owner[c]]
		sum, leave, self, leaving := 0.0, 0.0, false, false
		// tiny sums the values reached by entries below 2^-1022, whose
		// rationals the float64 holds only within 2^-1075 absolutely
		// (a rational below 2^-1075 is a 0): their products may be off
		// by 2^-1075·v, beyond roundUp's relative margin when v is
		// large (2^-1076 times 2^1023 is 2^-53, lost from a sum of
		// 2^-70: s32q_gap_test.go)
		tiny := 0.0
		from, to := m.EntryStart[c], m.EntryStart[c+1]
		for e := from; e < to; e++ {
			t := m.To[e]
			tc := cls[t]
			if tc == own {
				self = true
				continue
			}
			if tc >= 0 {
				sum += m.P[e] * v[tc]
				if m.P[e] < 0x1p-1022 {
					tiny += v[tc]
				}
			}
			leave += m.P[e]
			leaving = true
		}
		k := int(to - from)
		// slack bounds what the tiny entries' products may be off by
		// (rounded up: tiny carries at most k roundings, and a product
		// below the subnormals' 2^-1074 is covered by the term added)
		slack := 0.0
		if tiny > 0 {
			slack = math.Nextafter(tiny*(1+0x1p-50)*0x1p-1074+0x1p-1073, math.Inf(1))
		}
		withSlack := func(x float64) float64 {
			if slack == 0 {
				return x
			}
			if up {
				return math.Nextafter(x+slack, math.Inf(1))
			}
			return max(math.Nextafter(x-slack, math.Inf(-1)), 0)
		}
		switch {
		case !self:
			// the plain sum below
		case !leaving:
			return math.Inf(1)
		case leave >= 0x1p-900:
			if up {
				return roundUp(withSlack(roundUp(ru[c]+sum, k))/roundDown(leave, k), 1)
			}
			return roundDown(withSlack(roundDown(rd[c]+sum, k))/roundUp(leave, k), 1)
		default:
			// leaving so unlikely that the division's margins could
			// underflow: scaled first (leaveRatio, selfloop.go); before,
			// the plain Bellman sum was iterated, 2^1010 sweeps for a
			// self-loop left with 2^-1010
			iv, _ := leaveRatio(m, c, func(t uint32) bool { return cls[t] != own },
				func(t uint32) float64 { return val(v, t) }, rd[c], ru[c])
			if up {
				return iv.hi
			}
			return min(iv.lo, math.MaxFloat64)
		}
		if up {
			return withSlack(roundUp(ru[c]+sum, k))
		}
		return withSlack(roundDown(rd[c]+sum, k))
	}
	// update is the best choice's bellman value of class i.
	update := func(v []float64, i int32, up bool) (float64, uint32) {
		var x float64
		var b uint32
		for j, c := range chList[chStart[i]:chStart[i+1]] {
			y := bellman(v, c, up)
			if j == 0 || rs.max && y > x || !rs.max && y < x {
				x, b = y, c
			}
		}
		return x, b
	}
	eps, abs := opt.Epsilon, opt.Absolute
	out := func(i int32, x float64) bool {
		gap := x - lo[i]
		return !abs && gap > eps*lo[i] || abs && gap > eps
	}
	overflow := func(i int32) error {
		if math.IsInf(hi[i], 1) || math.IsNaN(hi[i]) || math.IsNaN(lo[i]) {
			return fmt.Errorf("prob: value iteration overflowed float64 (an expected reward near %g); use --method exact", lo[i])
		}
		return nil
	}
	stopped := func(it int) error {
		return fmt.Errorf("prob: value iteration stopped after %d iterations: %w", it, context.Cause(ctx))
	}
	// verify looks for an inductive upper bound of component cs from the
	// guess in hi, in Gauss-Seidel sweeps (decreasing order, as the
	// iteration from below): where T(hi), every sum rounded up, exceeds hi
	// in a class, hi is raised there at once to T(hi) inflated by kappa (a
	// choice of reward 0 that enters no goal has no slack at the fixpoint,
	// T(v) = v there, and only a guess above the fixpoint of the inflated
	// operator leaves T(hi) strictly below it everywhere, rounding
	// included). A sweep that raises nothing has seen one and the same hi
	// throughout, with T(hi) ≤ hi on cs: hi bounds the values, and so does
	// next = T(hi) (T(next) ≤ T(hi) = next), which it keeps when within
	// epsilon of lo. It gives up after budget sweeps, or when hi has grown
	// out of epsilon. (Raising in place carries a raise through the
	// component in one sweep where a Jacobi step carried it one class.)
	vsweeps := 0 // verify's sweeps, for the direct solution's budget
	verify := func(cs []int32, next []float64, kappa float64, budget int, it int) (bool, error) {
		for range budget {
			vsweeps++
			if ctx.Err() != nil {
				return false, stopped(it)
			}
			raised := false
			for j := len(cs) - 1; j >= 0; j-- {
				i := cs[j]
				x, _ := update(hi, i, true)
				next[j] = x
				if x > hi[i] {
					raised = true
					if abs {
						hi[i] = roundUp(x+kappa, 0)
					} else {
						hi[i] = roundUp(x*(1+kappa), 0)
					}
				}
				if out(i, hi[i]) {
					return false, nil
				}
			}
			if raised {
				continue
			}
			for j, i := range cs {
				if out(i, next[j]) {
					return false, nil
				}
			}
			for j, i := range cs {
				hi[i] = next[j]
			}
			return true, nil
		}
		return false, nil
	}
	progressed := 0
	// direct solves component cs directly (directReward)
	// within budget work units (work.go: at least about 10 ms's, no limit
	// beyond about an hour's; units, not time, so that the answer does
	// not depend on the load), setting its bounds when it succeeds.
	direct := func(cs []int32, budget float64) (bool, error) {
		dctx := withWork(ctx, budget)
		// In float64 intervals first (rewardf64.go), in rationals when
		// that declines or its bounds are not within epsilon.
		l, h, ok := rs.directRewardFloat(dctx, cs, cls, chList, chStart, lo, hi)
		for j, i := range cs {
			if !ok {
				break
			}
			if lj := max(lo[i], l[j]); !abs && h[j]-lj > eps*lj || abs && h[j]-lj > eps {
				ok = false
			}
		}
		var err error
		counted := opt.Method != Exact // (exact: the bounds only seed policy iteration)
		if ok && counted {
			r.FloatComponents++
		} else if !ok && dctx.Err() == nil && len(cs) <= maxDirect {
			// (rationals grow with the fill-in: up to maxDirect classes)
			if l, h, ok, err = rs.directReward(dctx, cs, cls, chList, chStart, lo, hi); ok && counted {
				r.RationalComponents++
			}
		}
		if err != nil || !ok {
			return false, err
		}
		for j, i := range cs {
			lo[i], hi[i] = max(lo[i], l[j]), h[j]
		}
		return true, nil
	}
	// solve is a component of more than one class: Gauss-Seidel from below in decreasing order of the
	// classes (the start states first, the goal mostly later), then
	// guesses, each closer than the last.
	solve := func(cs []int32) (int, error) {
		tol, kappa, guess := eps/4, eps/16, eps/2
		next := make([]float64, len(cs))
		chain := true // one choice per class
		for _, i := range cs {
			chain = chain && chStart[i+1]-chStart[i] == 1
		}
		failed := 0 // guesses that were no upper bound
		const checkEvery = 500
		lastDiff, prevDiff, nextTry := 0.0, 0.0, 0
		vsweeps = 0
		sweep := 0.0 // the work units of a sweep: an update per entry
		for _, i := range cs {
			for _, c := range chList[chStart[i]:chStart[i+1]] {
				sweep += float64(m.EntryStart[c+1]-m.EntryStart[c]) * unitsSweepEntry / 2
			}
		}
		it := 0
		for {
			for {
				it++
				if ctx.Err() != nil {
					return it, stopped(it)
				}
				diff := 0.0
				for j := len(cs) - 1; j >= 0; j-- {
					i := cs[j]
					x, b := update(lo, i, false)
					x = max(x, lo[i]) // the iterates only grow (rounding aside)
					d := x - lo[i]
					switch {
					case x == 0 && it <= len(cs)+1:
						d = 1 // every class iterated has a positive value: not there yet
					case x == 0:
						// len(cs) sweeps reach every class from its rewards
						// and the boundary: a value still 0 underflowed
						// (below 2^-1074 with the rounding slack), and 0
						// stays a lower bound
						d = 0
					case !abs:
						d /= x
					}
					diff = max(diff, d)
					lo[i], best[i] = x, b
				}
				// Progress formats a status line: after about every 2^16
				// class updates, not every sweep of a small component
				// (400 components of two classes spent half their time
				// in it).
				if progressed += len(cs); opt.Progress != nil && progressed >= 1<<16 {
					progressed = 0
					opt.Progress(it, diff)
				}
				if math.IsInf(diff, 0) || math.IsNaN(diff) {
					return it, fmt.Errorf("prob: value iteration overflowed float64 (rewards too large); use --method exact")
				}
				// Guess once the change, extrapolated geometrically at the
				// rate of the last two sweeps (the distance to the limit is
				// about diff/(1-rate)), is within tol: a loop that stays
				// with 999/1000 changes by a thousandth of its distance a
				// sweep, and a guess at the first small change failed and
				// cost a verification each time (only when to guess
				// depends on this; the check decides).
				rate := 0.0
				if prevDiff > 0 && diff < prevDiff {
					rate = diff / prevDiff
				} else if prevDiff > 0 {
					rate = 1
				}
				prevDiff = diff
				if diff <= tol && (rate < 1 && diff/(1-rate) <= tol || diff <= tol/1e6) {
					break
				}
				// Every checkEvery sweeps, the shrinking of the change so
				// far predicts the sweeps still needed (as in ii.go); when
				// that is far more than it took already, the component
				// is solved directly, once, with a quarter of
				// the predicted time (rational elimination may fill a
				// component in).
				// A failed attempt (out of time) is tried again after
				// twice the sweeps, with at least the time iterated so far:
				// the attempts cost at most about twice the iteration.
				if it >= nextTry && it%checkEvery == 0 {
					more := 0.0 // the first check only records the change
					switch {
					case lastDiff > 0 && diff >= lastDiff:
						more = math.Inf(1)
					case lastDiff > 0:
						// the change that stops it: diff ≤ tol·(1 - rate),
						// or ≤ tol/10^6 (a change already below tol but
						// shrinking at a rate near 1 predicted a negative
						// count, and an MDP's ring left with 10^-9 iterated
						// until --timeout)
						stop := max(tol*(1-rate), tol/1e6)
						more = checkEvery * math.Log(stop/diff) / math.Log(diff/lastDiff)
					}
					lastDiff = diff
					if more > 20*checkEvery {
						nextTry = 2 * it
						spent := float64(it+vsweeps) * sweep
						if ok, err := direct(cs, max(more/4*sweep, spent)); ok || err != nil {
							return it, err
						}
					}
				}
			}
			for _, i := range cs {
				if abs {
					hi[i] = roundUp(lo[i]+guess, 0)
				} else {
					hi[i] = lo[i] * (1 + guess) // room to raise it in verify
				}
			}
			// Raising hi round a loop of reward 0 converges at the loop's
			// rate (99/100 a round for a retry of 1/100): 64 steps were
			// too few for an Emax the exact method gives.
			ok, err := verify(cs, next, kappa, max(1024, it), it)
			if err != nil {
				return it, err
			}
			if ok {
				return it, nil
			}
			for j, i := range cs {
				if math.IsInf(hi[i], 1) || math.IsInf(next[j], 1) {
					return it, fmt.Errorf("prob: value iteration overflowed float64 (an expected reward near %g); use --method exact", lo[i])
				}
			}
			// No upper bound near the lower one: the change per sweep
			// was small, not the distance to the value (a ring left
			// with probability 1e-18 grows by 2 a sweep), or the guess
			// was just too close. A chain's component is solved directly
			// at once; an MDP's (policy iteration, several systems)
			// after failedMDP guesses: resource-gathering's 9,800
			// components of 94 classes each miss up to 7 guesses before
			// one holds, which take about 3 ms where a direct solution
			// takes 7 (expsteps: 28 s of CPU against 67 s with a direct
			// attempt at the first miss), while a ring's misses take a
			// sweep or two each (and before giving up, below).
			const failedMDP = 12
			if failed++; chain || failed >= failedMDP || tol < 1e-17 {
				if ok, err := direct(cs, 4*float64(it+vsweeps)*sweep); ok || err != nil {
					return it, err
				}
			}
			if tol < 1e-17 {
				return it, fmt.Errorf("prob: value iteration found no upper bound within float64 precision; use --method exact")
			}
			tol /= 4
			kappa /= 2
			guess /= 4
		}
	}
	work := 0
	for ci := 0; ci+1 < len(compStart); ci++ {
		cs := order[compStart[ci]:compStart[ci+1]]
		if work += len(cs); work >= 0x1000 {
			work = 0
			if ctx.Err() != nil {
				return stopped(r.Iterations)
			}
		}
		if len(cs) == 1 {
			i := cs[0]
			lo[i], best[i] = update(lo, i, false)
			hi[i], _ = update(hi, i, true)
			if err := overflow(i); err != nil {
				return err
			}
			r.Iterations = max(r.Iterations, 1)
			continue
		}
		it, err := solve(cs)
		r.Iterations = max(r.Iterations, it)
		if err != nil {
			return err
		}
		for _, i := range cs {
			if err := overflow(i); err != nil {
				return err
			}
		}
	}
	// A component of one class is one update, its bounds the rounding
	// of that update apart (and what they inherit): within epsilon but
	// where rounding is all there is, below 2^-1022 (5e-324 a step has
	// bounds [0, 7e-323]). As a larger component's, they are refused.
	for i := range k {
		if out(i, hi[i]) {
			return fmt.Errorf("prob: value iteration found no upper bound within float64 precision; use --method exact")
		}
	}
	for s := range uint32(n) {
		if c := cls[s]; c >= 0 {
			r.Lower[s], r.Upper[s] = lo[c], hi[c]
		}
	}
	for i := range k {
		r.Sched[rs.g.owner[best[i]]] = int32(best[i])
	}
	return nil
}

// directReward solves the component cs in rationals, given the final
// bounds of what it leads to, and returns a lower and an upper bound per
// member (in cs's order); ok is false when it declines (an entry below
// 2^-1000, a scheduler that policy iteration cannot start from or that
// does not settle within maxRounds rounds, or the context ended).
//
// A chain's component (one choice per class) is one linear system; an
// MDP's is solved by policy iteration (scc.go's policyIteration), each
// round a system of the same form. Emax's classes have no end component
// (a value is finite where every scheduler reaches the goal almost
// surely), so every scheduler is proper. Emin's may (of positive reward;
// those of reward 0 are collapsed into classes): a choice that never
// leaves its class is left out (it costs its reward for ever), and the
// iteration starts from a proper scheduler, the best choices by the lower
// bounds iterated so far if they are proper, otherwise one that moves,
// class by class, towards the component's exits (an attractor).
//
// Soundness, as for probabilities (scc.go): with the entries that stay in
// their class dropped, a scheduler's values solve L x = r + B v, L the
// Laplacian diag(e) - Off of the entries between different classes (e the
// probability of leaving the class), r the choices' rewards (exact
// rationals here), B the entries into the boundary and v the boundary's
// values. By the all-minors matrix-tree theorem (L⁻¹)ij is a ratio of
// polynomials with non-negative coefficients, homogeneous of degrees n-1
// over n in the entries (n the classes), so moving each entry by a
// relative error of at most η = 2^-53 (the float64 of its rational) moves
// each term of x = L⁻¹(r + B v) by a factor within
// [((1-η)/(1+η))^n, ((1+η)/(1-η))^n] ⊂ [1 - 2nη, 1 + 5nη] (nη ≤ 2^-20;
// O'Cinneide 1993). That holds for every scheduler (the entries' supports,
// and so which schedulers are proper, are the same in both), so for the
// optimum over them. The boundary's lower (upper) bounds give a lower
// (upper) bound, as x grows with v.
func (rs *rewardSolver) directReward(ctx context.Context, cs []int32, cls []int32, chList, chStart []uint32, lo, hi []float64) (l, h []float64, ok bool, err error) {
	m := rs.m
	n := len(cs)
	pos := make(map[int32]uint32, n)
	for j, i := range cs {
		pos[i] = uint32(j)
	}
	rat := func(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }
	choices := make([][]sccChoice, n)
	same := true
	for j, i := range cs {
		for _, c := range chList[chStart[i]:chStart[i+1]] {
			sc := sccChoice{ch: c, off: map[uint32]*big.Rat{}, e: new(big.Rat), bLo: new(big.Rat).Set(rs.rew[c]), bHi: new(big.Rat).Set(rs.rew[c])}
			for x := m.EntryStart[c]; x < m.EntryStart[c+1]; x++ {
				tc := cls[m.To[x]]
				if tc == i {
					continue
				}
				if !(m.P[x] >= 0x1p-1000) {
					return nil, nil, false, nil
				}
				p := rat(m.P[x])
				sc.e.Add(sc.e, p)
				if k, in := pos[tc]; tc >= 0 && in {
					if v, ok := sc.off[k]; ok {
						v.Add(v, p)
					} else {
						sc.off[k] = p
					}
				} else if tc >= 0 {
					sc.bLo.Add(sc.bLo, new(big.Rat).Mul(p, rat(lo[tc])))
					sc.bHi.Add(sc.bHi, new(big.Rat).Mul(p, rat(hi[tc])))
				}
			}
			if sc.e.Sign() == 0 {
				if rs.max {
					return nil, nil, false, nil // an end component: not in Emax's finite region
				}
				continue // repeated for ever at a positive reward: never Emin's choice
			}
			sc.sameLH = sc.bLo.Cmp(sc.bHi) == 0
			same = same && sc.sameLH
			choices[j] = append(choices[j], sc)
		}
		if len(choices[j]) == 0 {
			return nil, nil, false, nil
		}
	}
	if ctx.Err() != nil {
		return nil, nil, false, nil
	}
	// The first scheduler: the best choices by the lower bounds (by
	// floats, only to start from), or an attractor's when not proper.
	sched := make([]int, n)
	for j, i := range cs {
		bestV := 0.0
		for k, sc := range choices[j] {
			v := bellmanOf(m, cls, lo, sc.ch, i, rs.rew[sc.ch])
			if k == 0 || rs.max && v > bestV || !rs.max && v < bestV {
				sched[j], bestV = k, v
			}
		}
	}
	if !proper(choices, sched) && !attractor(choices, sched) {
		return nil, nil, false, nil
	}
	xLo, err := policyIteration(ctx, choices, sched, false, rs.max)
	if xLo == nil || err != nil {
		return nil, nil, false, err
	}
	xHi := xLo
	if !same {
		if xHi, err = policyIteration(ctx, choices, sched, true, rs.max); xHi == nil || err != nil {
			return nil, nil, false, err
		}
	}
	eta := new(big.Rat).SetFrac64(1, 1<<53)
	nn := new(big.Rat).SetInt64(int64(n))
	down := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(new(big.Rat).Mul(nn, eta), big.NewRat(2, 1)))
	up := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(new(big.Rat).Mul(nn, eta), big.NewRat(5, 1)))
	l, h = make([]float64, n), make([]float64, n)
	for j := range cs {
		l[j] = max(floatBelow(new(big.Rat).Mul(xLo[j], down)), 0)
		h[j] = floatAbove(new(big.Rat).Mul(xHi[j], up))
		if math.IsInf(h[j], 1) {
			return nil, nil, false, nil
		}
	}
	return l, h, true, nil
}

// bellmanOf is choice c's value (of class own) on the values v, its own
// class left out and the rest renormalised, in floats: only to rank
// choices.
func bellmanOf(m *Model, cls []int32, v []float64, c uint32, own int32, rew *big.Rat) float64 {
	r, _ := rew.Float64()
	sum, leave := r, 0.0
	for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
		tc := cls[m.To[e]]
		if tc == own {
			continue
		}
		if tc >= 0 {
			sum += m.P[e] * v[tc]
		}
		leave += m.P[e]
	}
	if leave == 0 {
		return math.Inf(1)
	}
	return sum / leave
}

// attractor sets sched to a proper scheduler of the component, if there
// is one: classes whose choice may leave the component first, then, round
// by round, classes with a choice that may enter a class already chosen
// for. Under it every class has a path out, of positive probability.
func attractor(choices [][]sccChoice, sched []int) bool {
	n := len(choices)
	done := make([]bool, n)
	left := n
	for left > 0 {
		var round []int
		for i := range choices {
			if done[i] {
				continue
			}
			for k := range choices[i] {
				sc := &choices[i][k]
				sum, moves := new(big.Rat), false
				for j, p := range sc.off {
					sum.Add(sum, p)
					moves = moves || done[j]
				}
				if moves || sum.Cmp(sc.e) < 0 {
					sched[i] = k
					round = append(round, i)
					break
				}
			}
		}
		if len(round) == 0 {
			return false
		}
		for _, i := range round {
			done[i] = true
		}
		left -= len(round)
	}
	return true
}
