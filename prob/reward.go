package prob

// Expected rewards (JANI Emin and Emax with "reach"), as Storm computes
// them: the reward accumulated until the goal is reached, which is
// infinite under a scheduler that misses the goal with positive
// probability. So Emin is infinite where Pmax(F goal) < 1 (no scheduler
// reaches it almost surely) and Emax where Pmin(F goal) < 1 (some
// scheduler misses it); elsewhere Emin is the least expectation over the
// schedulers that reach the goal almost surely, Emax the greatest over
// all (every one reaches it).
//
// Two methods, as for probabilities:
//   - ii: value iteration from 0, every sum rounded down (a lower bound),
//     and optimistic value iteration (Hartmanns and Kaminski, CAV 2020)
//     for the upper bound: a guess U just above the lower bound is
//     accepted only when one Bellman step, every sum rounded up, does not
//     exceed it (T(U) ≤ U), which makes U an upper bound of the least
//     fixpoint. For Emin the least fixpoint is the value only once the
//     end components of zero reward are collapsed (a scheduler may stay
//     in one at no cost, but then misses the goal): each becomes one
//     class whose choices are its states' choices other than those zero
//     reward ones that stay inside (Bertsekas and Tsitsiklis' stochastic
//     shortest path: with every improper scheduler of infinite cost the
//     Bellman equation has one solution). For Emax no end component is
//     left (Pmin = 1).
//   - exact: policy iteration in rationals from a scheduler that reaches
//     the goal almost surely (the Prob1E scheduler for Emin), switching a
//     choice only to a strictly better one, which keeps every scheduler
//     proper; each chain x = r + P x is solved by exact elimination. Its
//     final values satisfy the Bellman equation, and a proper scheduler's
//     values that do are the optimum.

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"time"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// ChoiceRewards returns the reward of each choice of m under r (of the
// property named, with its position, by name, for errors): the
// reward of its state (when r accumulates on exit) plus its command's
// cost (when r's edge rewards are the costs) or the expectation of what
// its outcomes assign to r's variable (when r.Outcomes: each outcome's
// reward times its probability, as Storm folds a destination's reward
// into its choice's; the expected total reward depends on no more); a
// dtmc's fused choice the average over the commands it fuses. A negative
// reward is an error (a FilterError: vigil prob --property all skips the
// property).
func ChoiceRewards(ctx context.Context, m *Model, r *symbolic.Reward, name string) ([]*big.Rat, error) {
	out := make([]*big.Rat, m.NumChoices())
	zero := new(big.Rat)
	x := &explicit.Expansion{}
	var ds *dists
	if r.Steps && r.Outcomes && !r.Edges {
		var err error
		if ds, err = newDists(m.G.M); err != nil {
			return nil, err
		}
	}
	var pbuf []*big.Rat
	// stepReward is command ci's reward in state st: its cost, or its
	// outcomes' expected reward.
	stepReward := func(ci int, st symbolic.State) (*big.Rat, error) {
		cmd := &m.G.M.Commands[ci]
		if ds == nil {
			return big.NewRat(int64(cmd.CostIn(st)), 1), nil
		}
		sum := new(big.Rat)
		var err error
		pbuf, err = ds.eachOutcomeReward(ci, st, r.Name, pbuf, func(o *symbolic.Outcome, or *symbolic.OutcomeReward, p *big.Rat) error {
			if or == nil {
				return nil
			}
			v := or.Value(st)
			if v.Sign() < 0 {
				return &FilterError{fmt.Sprintf("prob: %s: its reward %s is %s in state %s on the outcome at %s (assigned at %s); vigil prob computes expected rewards of non-negative rewards only", name, r.Name, v.RatString(), m.G.M.FormatState(st), o.Pos, or.Pos)}
			}
			sum.Add(sum, v.Mul(v, p))
			return nil
		})
		return sum, err
	}
	err := rewardStates(ctx, m, false, func(s uint32, st symbolic.State) error {
		from, to := m.Choices(s)
		base := zero
		if r.Exit {
			v, part := r.StateValue(st)
			if v.Sign() < 0 {
				where := fmt.Sprintf("the initial value of %s", r.Name)
				if part >= 0 {
					where = fmt.Sprintf("the location's transient value at %s", r.Parts[part].Pos)
				}
				return &FilterError{fmt.Sprintf("prob: %s: its reward %s is %s in state %s (%s); vigil prob computes expected rewards of non-negative rewards only", name, r.Name, v.RatString(), m.G.M.FormatState(st), where)}
			}
			base = v
		}
		for c := from; c < to; c++ {
			v := base
			if r.Steps && (r.Edges || r.Outcomes) {
				cost, err := stepReward(int(m.Cmd[c]), st)
				if err != nil {
					return err
				}
				if IsDTMC(m.G.M) {
					m.G.Applicable(st, x)
					if en := x.Enabled(); len(en) > 1 {
						sum := new(big.Rat)
						for _, ci := range en {
							v, err := stepReward(int(ci), st)
							if err != nil {
								return err
							}
							sum.Add(sum, v)
						}
						cost = sum.Quo(sum, big.NewRat(int64(len(en)), 1))
					}
				}
				if cost.Sign() < 0 {
					return &FilterError{fmt.Sprintf("prob: %s: the cost of command at %s is %s in state %s; vigil prob computes expected rewards of non-negative rewards only", name, m.G.M.Commands[m.Cmd[c]].Pos, cost.RatString(), m.G.M.FormatState(st))}
				}
				v = new(big.Rat).Add(v, cost)
			}
			out[c] = v
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// rewardStates is the state loop of the reward readers (ChoiceRewards,
// stepRewards, deadlockRewards): it calls fn with every state of m that
// has choices (with deadlocks: every one that has none) and its
// symbolic state, and looks at ctx every 4096 states.
func rewardStates(ctx context.Context, m *Model, deadlocks bool, fn func(s uint32, st symbolic.State) error) error {
	for s := range uint32(m.NumStates()) {
		if s&0xfff == 0xfff && ctx.Err() != nil {
			return fmt.Errorf("prob: reading the rewards: %w", context.Cause(ctx))
		}
		if (m.RowStart[s+1] == m.RowStart[s]) != deadlocks {
			continue
		}
		if err := fn(s, m.StateOf(s)); err != nil {
			return err
		}
	}
	return nil
}

// eachOutcomeReward calls fn with every outcome of command ci that has a
// positive probability p in state st, and the reward named name it
// assigns (nil: none). pbuf is scratch space, returned for reuse.
func (d *dists) eachOutcomeReward(ci int, st symbolic.State, name string, pbuf []*big.Rat, fn func(o *symbolic.Outcome, or *symbolic.OutcomeReward, p *big.Rat) error) ([]*big.Rat, error) {
	pbuf, err := d.at(ci, st, pbuf[:0])
	if err != nil {
		return pbuf, err
	}
	cmd := &d.m.Commands[ci]
	for oi := range cmd.Outcomes {
		if pbuf[oi].Sign() == 0 {
			continue
		}
		o := &cmd.Outcomes[oi]
		if err := fn(o, symbolic.OutcomeRewardOf(o, name), pbuf[oi]); err != nil {
			return pbuf, err
		}
	}
	return pbuf, nil
}

// rewardSolver holds what both methods share.
type rewardSolver struct {
	m    *Model
	g    *graph
	goal []bool
	rew  []*big.Rat
	max  bool
	inf  []bool // infinite value
	ok   []bool // per choice: allowed (no successor of infinite value)
}

func newRewardSolver(m *Model, goal []bool, rew []*big.Rat, max bool) *rewardSolver {
	n := m.NumStates()
	rs := &rewardSolver{m: m, g: newGraph(m), goal: goal, rew: rew, max: max, inf: make([]bool, n), ok: make([]bool, m.NumChoices())}
	var fin []bool
	if max {
		zero, _ := rs.g.prob0E(goal)
		fin = rs.g.prob1A(goal, zero)
	} else {
		fin, _ = rs.g.prob1E(goal)
	}
	for s := range n {
		rs.inf[s] = !fin[s] && !goal[s]
	}
	for c := range rs.ok {
		rs.ok[c] = !rs.inf[rs.g.owner[c]]
		for e := m.EntryStart[c]; e < m.EntryStart[c+1] && rs.ok[c]; e++ {
			rs.ok[c] = !rs.inf[m.To[e]]
		}
	}
	return rs
}

// open says whether s is solved by iteration: neither goal nor infinite.
func (rs *rewardSolver) open(s uint32) bool { return !rs.goal[s] && !rs.inf[s] }

// SolveReward computes Emin or Emax (opt.Max) of the reward rew (per
// choice, non-negative) accumulated until goal (states without choices)
// from every state of m. Infinite values are +Inf in Lower and Upper and
// nil in Exact.
func SolveReward(ctx context.Context, m *Model, goal []bool, rew []*big.Rat, opt SolveOptions) (*Result, error) {
	t0 := time.Now()
	if opt.Epsilon == 0 {
		opt.Epsilon = DefaultEpsilon
	}
	if opt.Method == "" {
		opt.Method = II
	}
	if !(opt.Epsilon > 0 && opt.Epsilon < 1) {
		return nil, fmt.Errorf("prob: epsilon %g is not in (0, 1)", opt.Epsilon)
	}
	rs := newRewardSolver(m, goal, rew, opt.Max)
	n := m.NumStates()
	r := &Result{Max: opt.Max, Method: opt.Method, Lower: make([]float64, n), Upper: make([]float64, n), Sched: make([]int32, n)}
	for s := range n {
		r.Sched[s] = -1
		if rs.inf[s] {
			r.Lower[s], r.Upper[s] = math.Inf(1), math.Inf(1)
		}
	}
	if opt.Method == Exact {
		limit := opt.MaxExact
		if limit == 0 {
			limit = DefaultMaxExact
		}
		if n > limit {
			return nil, fmt.Errorf("prob: the exact method solves models of at most %d states; this one has %d (use --method ii)", limit, n)
		}
		if m.Exact == nil && len(m.To) > 0 {
			return nil, fmt.Errorf("prob: internal error: the model was built without exact probabilities")
		}
		if err := rs.exact(ctx, r); err != nil {
			return nil, err
		}
	} else if err := rs.iterate(ctx, r, opt); err != nil {
		return nil, err
	}
	// Inf: above states² times the largest finite value.
	top := 1.0
	for s := range n {
		if !math.IsInf(r.Upper[s], 1) {
			top = max(top, r.Upper[s])
		}
	}
	_, e := math.Frexp(top)
	_, en := math.Frexp(float64(n + 1))
	r.Inf = new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(max(e, 0)+2*en+4)))
	r.InfAt = new(big.Rat).Quo(r.Inf, big.NewRat(int64(n+1), 1))
	r.Elapsed = time.Since(t0)
	return r, nil
}

// exact is policy iteration in rationals (see the file comment).
func (rs *rewardSolver) exact(ctx context.Context, r *Result) error {
	m := rs.m
	n := m.NumStates()
	sched := make([]int32, n)
	if !rs.max {
		_, s1 := rs.g.prob1E(rs.goal)
		copy(sched, s1)
	}
	for s := range uint32(n) {
		if rs.open(s) && (rs.max || sched[s] < 0) {
			sched[s] = -1
			for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
				if rs.ok[c] {
					sched[s] = int32(c)
					break
				}
			}
		}
		if rs.open(s) && sched[s] < 0 {
			return fmt.Errorf("prob: internal error: state %d of finite expected reward has no choice", s)
		}
	}
	q := new(big.Rat)
	for round := 1; round <= maxRounds; round++ {
		x, err := rs.chain(ctx, sched)
		if err != nil {
			return err
		}
		improved := false
		for s := range uint32(n) {
			if !rs.open(s) {
				continue
			}
			best, bestV := sched[s], x[s]
			for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
				if !rs.ok[c] {
					continue
				}
				q.Set(rs.rew[c])
				for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
					if t := x[m.To[e]]; t.Sign() != 0 {
						q.Add(q, new(big.Rat).Mul(m.Exact[e], t))
					}
				}
				if cmp := q.Cmp(bestV); rs.max && cmp > 0 || !rs.max && cmp < 0 {
					best, bestV = int32(c), new(big.Rat).Set(q)
				}
			}
			if best != sched[s] {
				sched[s], improved = best, true
			}
		}
		r.Rounds++
		if !improved {
			r.Exact = make([]*big.Rat, n)
			for s := range uint32(n) {
				if rs.inf[s] {
					continue
				}
				r.Exact[s] = x[s]
				r.Lower[s], r.Upper[s] = floatBelow(x[s]), floatAbove(x[s])
				if math.IsInf(r.Upper[s], 1) {
					// +Inf stands for an infinite value (the reports
					// would print "inf" for it)
					return fmt.Errorf("prob: a finite expected reward, %s, is beyond float64 in state %s; vigil prob reports values up to %g", new(big.Float).SetRat(x[s]).Text('g', 10), m.G.M.FormatState(m.StateOf(s)), math.MaxFloat64)
				}
				if rs.open(s) {
					r.Sched[s] = sched[s]
				}
			}
			return nil
		}
	}
	return fmt.Errorf("prob: the exact method did not converge in %d rounds of policy iteration (use --method ii)", maxRounds)
}

// chain solves x = r + P x of the chain sched induces on the open
// states, 0 on goal (the infinite states are never entered).
func (rs *rewardSolver) chain(ctx context.Context, sched []int32) ([]*big.Rat, error) {
	m := rs.m
	n := m.NumStates()
	sys := &chainSystem{x: make([]*big.Rat, n), rows: make([]map[uint32]*big.Rat, n), b: make([]*big.Rat, n), users: make([]map[uint32]bool, n)}
	for s := range uint32(n) {
		if !rs.open(s) {
			sys.x[s] = new(big.Rat)
		}
	}
	for s := range uint32(n) {
		if sys.x[s] != nil {
			continue
		}
		c := sched[s]
		row := map[uint32]*big.Rat{}
		for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
			t := m.To[e]
			if sys.x[t] != nil {
				continue // goal: 0
			}
			if v, ok := row[t]; ok {
				row[t] = new(big.Rat).Add(v, m.Exact[e])
			} else {
				row[t] = m.Exact[e]
			}
			if sys.users[t] == nil {
				sys.users[t] = map[uint32]bool{}
			}
			sys.users[t][s] = true
		}
		sys.rows[s], sys.b[s] = row, new(big.Rat).Set(rs.rew[c])
	}
	return sys.solve(ctx)
}

// roundUp and roundDown widen a sum of k non-negative products computed
// in float64 from probabilities that are themselves rounded (each within
// 2^-53 of its rational) so that it encloses the exact sum.
// The slack is scaled before it is multiplied: x*(k+4) overflows
// float64 for x above MaxFloat64/(k+4), which made roundDown 0 (the
// iteration never converged) and roundUp +Inf. Each operation whose
// result is subnormal errs by up to 2^-1075 absolutely, which the
// relative slack (0 there) does not cover: (k+4)·2^-1074 does (a lower
// bound 4.0004e-320 of 4e-320 came out without it).
func roundUp(x float64, k int) float64 {
	return x + x*0x1p-52*float64(k+4) + 0x1p-1074*float64(k+4)
}

func roundDown(x float64, k int) float64 {
	return max(0, x-x*0x1p-52*float64(k+4)-0x1p-1074*float64(k+4))
}

// coverBound raises r.Inf (and r.InfAt) above twice the bound b of a
// comparison, so that an infinite value compares above it.
func (r *Result) coverBound(b *big.Rat) {
	twice := new(big.Rat).Abs(b)
	twice.Add(twice, twice)
	step := new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 64))
	for r.InfAt.Cmp(twice) <= 0 {
		r.Inf = new(big.Rat).Mul(r.Inf, step)
		r.InfAt = new(big.Rat).Mul(r.InfAt, step)
	}
}
