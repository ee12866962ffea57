package safety

import (
	"context"
	"errors"
	"math/rand/v2"

	"vigil/symbolic/explicit"
)

// vbase is what the value-based deciders share: the cost-value function J
// of paper 000, section 6, over states, initialised at 0 (Theorem 2: the
// iteration from 0 converges to the least fixpoint J*), with the Bellman
// operator B_{pi,r}: U_r at unsafe states, 0 at goals and deadlocks, else
// the minimum over labels of the deviation cost plus the largest J of an
// outcome. Values are capped at U_r (r+1 for finite r, 1 for r = inf):
// every value from U_r up means "not r-safe", and the cap makes the
// values integers in 0..U_r, so the iteration ends after finitely many
// increases. A state is r-safe iff J*(s) <= r (finite r) or J*(s) = 0.
//
// Every increase of J(s) to q proves that s is not (q-1)-safe: each label
// available with budget q-1 has an outcome whose value (a lower bound of
// its J*) exceeds the remaining budget; these proofs, in the order they
// happen, are the ranks of unsafe certificates.
type vbase struct {
	base
	J      []int32
	solved []bool
	U      int32
}

func newVBase(sp *Space, r Radius, name string) vbase {
	u := int32(1)
	if r >= 0 {
		u = int32(searchRadius(sp, r)) + 1
	}
	return vbase{base: newBase(sp, r, name), U: u}
}

// expandScoped expands s for LRTDP and LAO*, which follow the greedy
// graph of their values rather than budgets and may reach a state that
// only more deviations than the radius allows lead to (a finite radius:
// at radius inf every state they reach is in the scope). checkScope has
// found the question's scope clean, so a range error (or a policy error,
// PolicyError) met here is in such a state: it is poisoned instead, J(s) = U_r, solved, with no fact
// recorded, which decides the question as if the state did not err (every
// run through it has spent more than the radius already, so a strategy
// within the radius never visits it). A value or fact that comes to rest
// on it is about a pair whose scope holds its range error, which
// checkScope reports before any question could use it.
func (d *vbase) expandScoped(ctx context.Context, s uint32) (poisoned bool, err error) {
	err = d.expand(ctx, s)
	var re *explicit.RangeError
	var pe *PolicyError
	if err == nil || d.r < 0 || !errors.As(err, &re) && !errors.As(err, &pe) {
		return false, err
	}
	d.syncJ()
	d.J[s], d.solved[s] = d.U, true
	return true, nil
}

func (d *vbase) syncJ() {
	d.sync()
	for len(d.J) < d.sp.Len() {
		d.J = append(d.J, 0)
		d.solved = append(d.solved, false)
	}
}

// value returns J(t), U_r for unsafe states.
func (d *vbase) value(t uint32) int32 {
	if d.sp.status[t] == explicit.Unsafe {
		return d.U
	}
	return d.J[t]
}

// terminal reports whether an expanded or terminal state has a fixed value.
func (d *vbase) terminal(s uint32) bool {
	return d.sp.status[s] != explicit.Open || (d.sp.IsExpanded(s) && d.sp.Deadlock(s))
}

// backup computes B J (s) for an expanded state and a group attaining it.
func (d *vbase) backup(s uint32) (int32, uint32) {
	d.stats.Backups++
	switch d.sp.status[s] {
	case explicit.Unsafe:
		return d.U, 0
	case explicit.Goal:
		return 0, 0
	}
	first, end := d.sp.Groups(s)
	best, bk := d.U, first
	for k := first; k < end; k++ {
		q := d.cost(s, k)
		for _, t := range d.sp.Succ(k) {
			q = max(q, d.cost(s, k)+d.value(t))
			if q >= best {
				break
			}
		}
		if q < best {
			best, bk = q, k
		}
	}
	if first == end {
		return 0, 0 // deadlock
	}
	return best, bk
}

// update raises J(s) to q, recording the proof.
func (d *vbase) update(s uint32, q int32) bool {
	if q <= d.J[s] {
		return false
	}
	d.J[s] = q
	d.f.markUnsafe(s, q-1)
	return true
}

// solve marks s solved (its value final) and, when it is r-safe, records
// the greedy group as its safe choice.
func (d *vbase) solve(s uint32) {
	if d.solved[s] {
		return
	}
	d.solved[s] = true
	if d.terminal(s) || d.J[s] > d.budget() || (d.r < 0 && d.J[s] > 0) {
		return
	}
	q, k := d.backup(s)
	if q == d.J[s] {
		d.f.markSafe(s, d.J[s], k)
	}
}

func (d *vbase) answer(id uint32) bool {
	if d.r < 0 {
		return d.value(id) == 0
	}
	return d.value(id) <= d.budget()
}

// VI is value iteration: it builds the region reachable from the query
// (stopping at states solved by earlier calls) and sweeps Bellman backups
// over it, in reverse discovery order, until nothing changes.
//
// For a finite radius the region is that of Prop-U's (state, budget)
// pairs: each state is reached with the largest budget b(s) any path from
// the query leaves (a deviation costs 1), and only the groups affordable
// with b(s) are followed, so VI expands the states Prop-U expands and
// meets the range errors Prop-U meets (at radius 0: only the states the
// tested policy reaches), not those of states only reachable by more
// deviations than the radius allows. A state's value is capped at
// b(s)+1 (any value above b(s) says "not b(s)-safe", and the groups
// not followed cost more than b(s)): the capped iteration stays below J*,
// so every increase still proves what update records, and its fixpoint is
// min(J*, b+1), so a value within b(s) is J*(s) (a policy that follows
// the groups attaining the values never exceeds them, nor meets an unsafe
// state). Only exact values (within b(s), or U) are marked solved; a
// capped one is searched again when a later query reaches the state with
// a larger budget.
type VI struct {
	vbase
	stamp []uint32 // per state: the call that put it in the region
	best  []int32  // per state: its budget in the region (when stamped)
	epoch uint32

	allGroups bool // the region under every label (for the figures' baseline)
}

// NewVI returns value iteration for radius r over sp.
func NewVI(sp *Space, r Radius) *VI { return &VI{vbase: newVBase(sp, r, "vi")} }

// Decide reports whether id is r-safe.
func (d *VI) Decide(ctx context.Context, id uint32) (bool, error) {
	if ans, ok, err := d.query(ctx, id); err != nil || ok {
		return ans, err
	}
	d.syncJ()
	if d.solved[id] {
		return d.answer(id), nil
	}
	d.epoch++
	d.grow()
	// The region, breadth first within each budget, budgets from the
	// largest down: a state is taken with the first (largest) budget it
	// is reached with; an entry of a smaller budget met later is stale.
	var region []uint32
	cur, next := []uint32{id}, []uint32(nil)
	d.stamp[id], d.best[id] = d.epoch, d.budget()
	for b := d.budget(); len(cur) > 0; b-- {
		for i := 0; i < len(cur); i++ {
			s := cur[i]
			if d.best[s] != b {
				continue // taken with a larger budget
			}
			region = append(region, s)
			if d.sp.status[s] != explicit.Open {
				continue
			}
			if err := d.expand(ctx, s); err != nil {
				return false, err
			}
			d.syncJ()
			d.grow()
			first, end := d.sp.Groups(s)
			for k := first; k < end; k++ {
				c := d.cost(s, k)
				if d.allGroups {
					c = 0 // the region of every label, every state at budget r
				}
				if c > b {
					continue
				}
				for _, t := range d.sp.Succ(k) {
					if d.solved[t] || d.stamp[t] == d.epoch && d.best[t] >= b-c {
						continue
					}
					d.stamp[t], d.best[t] = d.epoch, b-c
					if c == 0 {
						cur = append(cur, t)
					} else {
						next = append(next, t)
					}
				}
			}
		}
		cur, next = next, cur[:0]
	}
	for changed := true; changed; {
		d.stats.Iters++
		if ctx.Err() != nil {
			return false, context.Cause(ctx)
		}
		if err := d.checkPairs(); err != nil {
			return false, err
		}
		changed = false
		for i := len(region) - 1; i >= 0; i-- {
			s := region[i]
			c := d.valueCap(s)
			if d.terminal(s) || d.J[s] >= c {
				continue
			}
			q, _ := d.backup(s)
			if d.update(s, min(q, c)) {
				changed = true
			}
		}
	}
	for _, s := range region {
		if d.terminal(s) || d.J[s] >= d.U || d.J[s] < d.valueCap(s) {
			d.solve(s)
		}
	}
	return d.answer(id), nil
}

// grow sizes the per-state arrays to the space.
func (d *VI) grow() {
	d.stamp = growU32(d.stamp, d.sp.Len())
	for len(d.best) < len(d.stamp) {
		d.best = append(d.best, 0)
	}
}

// valueCap is the cap of a region state's value: b(s)+1 for a finite
// radius, U_r for r = inf (where every budget is 0 and U_r = 1).
func (d *VI) valueCap(s uint32) int32 {
	if d.r < 0 {
		return d.U
	}
	return d.best[s] + 1
}

// LRTDP is labelled real-time dynamic programming (Bonet and Geffner 2003)
// on B_{pi,r} from J = 0: trials follow the greedy label and the outcome of
// largest value (ties: an unsolved one, drawn with Options.Seed), end at solved or
// terminal states or when they close a cycle, and CheckSolved labels a
// state solved only when its whole greedy envelope has zero residual.
// With J initialised at 0 a zero-cost cycle inside the envelope is
// consistent exactly when it is safe (cycling forever avoids unsafe
// states), and J stays a lower bound of J*, so a solved value is final.
type LRTDP struct {
	vbase
	rng    *rand.Rand // ties between outcomes of a trial (Options.Seed)
	inTr   []uint32
	mark   []uint32
	epoch  uint32
	trial  []uint32
	open   []uint32
	closed []uint32
	exp0   int // Expanded when this question began
}

// NewLRTDP returns LRTDP for radius r over sp. Beyond the dense bound (see
// MaxPairs) its expansions in a question count too: a trial may raise one
// value while it walks and backs up many states again, and with 16
// self-loop labels at radius 2^20 on 71 states LRTDP expanded 37 times the
// bound before its proofs reached it (minutes at 2^26; session 20 refused
// at once).
func NewLRTDP(sp *Space, r Radius, opt Options) *LRTDP {
	d := &LRTDP{vbase: newVBase(sp, r, "lrtdp"), rng: rand.New(rand.NewPCG(opt.Seed, 0x6c72746470))}
	d.work = func() int64 { return int64(d.stats.Expanded - d.exp0) }
	return d
}

func (d *LRTDP) syncAll() {
	d.syncJ()
	d.inTr = growU32(d.inTr, d.sp.Len())
	d.mark = growU32(d.mark, d.sp.Len())
}

// Decide reports whether id is r-safe.
func (d *LRTDP) Decide(ctx context.Context, id uint32) (bool, error) {
	if ans, ok, err := d.query(ctx, id); err != nil || ok {
		return ans, err
	}
	d.syncAll()
	d.exp0 = d.stats.Expanded
	for !d.solved[id] {
		d.stats.Iters++
		if err := d.runTrial(ctx, id); err != nil {
			return false, err
		}
	}
	return d.answer(id), nil
}

func (d *LRTDP) runTrial(ctx context.Context, s uint32) error {
	d.epoch++
	d.trial = d.trial[:0]
	for {
		d.trial = append(d.trial, s)
		d.inTr[s] = d.epoch
		if d.solved[s] {
			break
		}
		poisoned, err := d.expandScoped(ctx, s)
		if err != nil {
			return err
		}
		d.syncAll()
		if poisoned {
			break
		}
		if d.terminal(s) {
			d.solve(s)
			break
		}
		q, k := d.backup(s)
		d.update(s, q)
		if d.J[s] >= d.U {
			d.solve(s)
			break
		}
		// The outcome of largest value, an unsolved one among equals,
		// drawn uniformly among the ties (reservoir sampling with the
		// seeded stream: --seed was read and documented as seeding
		// these ties, but the first one was always taken).
		next, best := uint32(0), int32(-1)
		nextSolved, ties := true, 0
		for _, t := range d.sp.Succ(k) {
			v := d.value(t)
			switch {
			case v > best || (v == best && nextSolved && !d.solved[t]):
				next, best, nextSolved, ties = t, v, d.solved[t], 1
			case v == best && nextSolved == d.solved[t]:
				if ties++; d.rng.IntN(ties) == 0 {
					next = t
				}
			}
		}
		if d.inTr[next] == d.epoch {
			break
		}
		s = next
	}
	for i := len(d.trial) - 1; i >= 0; i-- {
		ok, err := d.checkSolved(ctx, d.trial[i])
		if err != nil {
			return err
		}
		if !ok {
			break
		}
	}
	return nil
}

func (d *LRTDP) checkSolved(ctx context.Context, s0 uint32) (bool, error) {
	if d.solved[s0] {
		return true, nil
	}
	d.epoch++
	rv := true
	d.open, d.closed = append(d.open[:0], s0), d.closed[:0]
	d.mark[s0] = d.epoch
	for len(d.open) > 0 {
		s := d.open[len(d.open)-1]
		d.open = d.open[:len(d.open)-1]
		d.closed = append(d.closed, s)
		poisoned, err := d.expandScoped(ctx, s)
		if err != nil {
			return false, err
		}
		d.syncAll()
		if poisoned || d.terminal(s) {
			continue
		}
		q, k := d.backup(s)
		if q != d.J[s] {
			rv = false
			continue
		}
		if d.J[s] >= d.U {
			continue
		}
		for _, t := range d.sp.Succ(k) {
			if !d.solved[t] && d.mark[t] != d.epoch {
				d.mark[t] = d.epoch
				d.open = append(d.open, t)
			}
		}
	}
	if rv {
		for _, s := range d.closed {
			d.solve(s)
		}
		return true, nil
	}
	for i := len(d.closed) - 1; i >= 0; i-- {
		s := d.closed[i]
		if d.sp.IsExpanded(s) && !d.terminal(s) {
			q, _ := d.backup(s)
			d.update(s, q)
		}
	}
	return false, nil
}

// LAO is LAO* (Hansen and Zilberstein 2001) in its improved form: each
// pass walks the greedy solution graph from the query depth first,
// expanding the states it has not expanded yet and backing up values in
// post order; it ends when a pass neither expands a state nor changes a
// value, which makes the greedy graph complete and consistent (its values
// are lower bounds of J* from J = 0, and the greedy policy attains them).
type LAO struct {
	vbase
	own   []bool // expanded by this decider
	stamp []uint32
	epoch uint32
	stack []lFrame
	seen  []uint32
}

type lFrame struct {
	s uint32
	k uint32
	j int
}

// NewLAO returns LAO* for radius r over sp.
func NewLAO(sp *Space, r Radius) *LAO { return &LAO{vbase: newVBase(sp, r, "lao")} }

func (d *LAO) syncAll() {
	d.syncJ()
	d.stamp = growU32(d.stamp, d.sp.Len())
	for len(d.own) < d.sp.Len() {
		d.own = append(d.own, false)
	}
}

// Decide reports whether id is r-safe.
func (d *LAO) Decide(ctx context.Context, id uint32) (bool, error) {
	if ans, ok, err := d.query(ctx, id); err != nil || ok {
		return ans, err
	}
	d.syncAll()
	for !d.solved[id] {
		d.stats.Iters++
		if ctx.Err() != nil { // a pass may expand nothing, and expand polls
			return false, context.Cause(ctx)
		}
		expandedAny, changed, err := d.pass(ctx, id)
		if err == nil {
			err = d.checkPairs()
		}
		if err != nil {
			return false, err
		}
		if !expandedAny && !changed {
			for _, s := range d.seen {
				d.solve(s)
			}
		}
	}
	return d.answer(id), nil
}

func (d *LAO) pass(ctx context.Context, root uint32) (expandedAny, changed bool, err error) {
	d.epoch++
	d.seen = d.seen[:0]
	visit := func(s uint32) error {
		d.stamp[s] = d.epoch
		d.seen = append(d.seen, s)
		if d.solved[s] || d.sp.status[s] != explicit.Open {
			return nil
		}
		if !d.own[s] {
			poisoned, err := d.expandScoped(ctx, s)
			if err != nil {
				return err
			}
			d.syncAll()
			if poisoned {
				return nil
			}
			d.own[s] = true
			expandedAny = true
		}
		if d.sp.Deadlock(s) || d.J[s] >= d.U {
			return nil
		}
		_, k := d.backup(s)
		d.stack = append(d.stack, lFrame{s: s, k: k})
		return nil
	}
	if err := visit(root); err != nil {
		return false, false, err
	}
	for len(d.stack) > 0 {
		f := &d.stack[len(d.stack)-1]
		succ := d.sp.Succ(f.k)
		if f.j < len(succ) {
			t := succ[f.j]
			f.j++
			if d.stamp[t] != d.epoch {
				if err := visit(t); err != nil {
					d.stack = d.stack[:0]
					return false, false, err
				}
			}
			continue
		}
		s := f.s
		d.stack = d.stack[:len(d.stack)-1]
		q, _ := d.backup(s)
		if d.update(s, q) {
			changed = true
		}
	}
	return expandedAny, changed, nil
}
