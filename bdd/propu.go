package bdd

// Prop-U with BDDs (paper 002, Appendix A, Algorithm 5, with the intent of
// its text: see ../shared/papers/README.md). The unsafe region is the least
// fixpoint of
//
//	U = Unsafe ∪ { s open with an applicable label : every applicable
//	                label has an outcome in U }           (r = ∞)
//	U = Unsafe ∪ Stuck ∪ { s open : the policy's label has an outcome
//	                in U }                                  (r = 0)
//
// computed from U = Unsafe (plus, for r = 0, the open states where the
// policy is stuck although some label is applicable: with no budget to
// deviate, no label is available there) in rounds that each add the states
// newly found unsafe. These are the semantics of package safety: goal
// states and deadlocks (open states with no applicable label) are safe.
//
// Each round needs only the pre-image of the states added in the previous
// round (the frontier F), since pre-images distribute over union: per label
// l, bad[l] accumulates guard ∧ pre(F) over l's commands and outcomes, the
// states where l is applicable and has an outcome in U; the round's new
// states are the open ones with an applicable label where every applicable
// label is bad. U only grows and every state in it is unsafe, so a
// computation stopped by a limit still answers "unsafe" for the states it
// has put in U, and "unknown" for the others.
//
// Range errors: the explicit Prop-U fails when the region it explores from
// a query (the states reachable from it through open states, by every
// label for r = ∞ and by the policy's label for r = 0) holds a state where
// some enabled command has an outcome out of range. Decide mirrors that
// with a forward reachability from the queried states, done only when the
// model has such states at all.

import (
	"context"
	"fmt"
	"math/big"
	"time"

	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Safety is the outcome of PropU: the unsafe region, complete or, when a
// limit stopped the computation, the part found so far.
type Safety struct {
	sp  *space
	pol *policyEnc
	r   safety.Radius
	opt Options

	// Complete reports whether the fixpoint was reached; Reason says why
	// not.
	Complete bool
	Reason   string
	// Unsafe is the number of states known unsafe (all unsafe states when
	// Complete); Total is the number of states (in-range valuations). Both
	// are nil when a limit stopped the encoding of the model.
	Unsafe, Total *big.Int
	Stats         Stats

	u Node // the states known unsafe (nil: none computed)
	// rangeErr is RangeError's answer, found with the region when it
	// is complete.
	rangeErr error
}

// Answer is a per-state verdict of Decide.
type Answer uint8

const (
	AnswerUnknown Answer = iota
	AnswerSafe
	AnswerUnsafe
)

func (a Answer) String() string { return [...]string{"unknown", "safe", "unsafe"}[a] }

// PropU computes the unsafe region of prop for radius r (safety.Inf, or 0:
// under the policy pd) over all states. Policies other than rules and
// tables are evaluated state by state, so for them r = 0 needs the queried
// states: the region is then computed within the states reachable from
// them under the policy (queries nil: all states).
func PropU(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, r safety.Radius, queries []symbolic.State, opt Options) (*Safety, error) {
	begin := time.Now()
	if prop == nil {
		return nil, fmt.Errorf("bdd: Prop-U needs a property (its unsafe and goal states)")
	}
	switch {
	case r == safety.Inf:
		pd = nil // plain safety ranges over all policies
	case r == 0:
		if pd == nil {
			return nil, fmt.Errorf("bdd: Prop-U with radius 0 needs the tested policy")
		}
	default:
		return nil, fmt.Errorf("bdd: Prop-U decides radius inf or 0, not %v; use --algo propu (explicit) for other radii", r)
	}
	sp, pol, st, err := setup(ctx, m, prop, pd, opt)
	if err != nil {
		return nil, err
	}
	res := &Safety{sp: sp, pol: pol, r: r, opt: opt}
	if st != nil {
		res.Reason = st.reason
		sp.finishStats(&res.Stats, nil, begin)
		return res, nil
	}
	res.Stats.Encode = time.Since(begin)
	st, err = sp.run(func() error {
		mm := sp.m
		res.Total = sp.count(sp.dom)
		res.Unsafe = new(big.Int)
		within := sp.dom
		if pol != nil && pol.lazy {
			within = sp.lazyRegion(pol, queries)
		}
		var err error
		if r == safety.Inf {
			res.u = sp.unsafe
			err = sp.propuInf(res, begin)
		} else {
			res.u = mm.or(mm.and(sp.unsafe, within), sp.stuck(pol, mm.and(within, sp.open)))
			err = sp.propuPolicy(res, within, begin)
		}
		if err != nil {
			return err
		}
		// The region's states, counted before it is complete (as in
		// Verify): a count after run, stopped by a context that ended
		// with the last round, left a complete region of 0 states.
		// The witness of RangeError too: asked after run, its search
		// stopped by a context that had ended meanwhile answered none,
		// and vigil safe --all reported a complete region where the
		// explicit deciders fail.
		if !mm.isFalse(sp.errAll) {
			res.rangeErr = sp.witnessError(sp.pick(sp.errAll), false, 0)
		}
		if answerHook != nil {
			answerHook()
		}
		res.Unsafe = sp.count(res.u)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if st != nil {
		res.Reason = st.reason
		sp.m.relax()
		if res.u != nil {
			// Not after an abandoned operation (the count stops then).
			sp.run(func() error { res.Unsafe = sp.count(res.u); return nil })
		}
	} else {
		res.Complete = true
	}
	sp.finish(&res.Stats, res.u, begin)
	return res, nil
}

// lazyRegion returns the states reachable from the queries (all states
// when there are none) under a lazily evaluated policy, evaluating it on
// them.
func (sp *space) lazyRegion(p *policyEnc, queries []symbolic.State) Node {
	if queries == nil {
		sp.ensure(p, sp.dom)
		return sp.dom
	}
	reach := sp.states(append([]symbolic.State(nil), queries...))
	front := reach
	for !sp.m.isFalse(front) {
		next := sp.m.diff(sp.image(p, front), reach)
		reach = sp.m.or(reach, next)
		front = next
	}
	sp.ensure(p, reach)
	return reach
}

// propuInf iterates the r = ∞ rounds from res.u = Unsafe.
//
// A round is not an image: a state joins U when every applicable label has
// an outcome in U (∀ labels, ∃ command and outcome), which does not
// distribute over unions of paths, so iterative squaring of the whole
// round does not apply. It does on the states with exactly one applicable
// label ("forced" states): there the round is the pre-image by that
// label's commands, and a chain of forced states reaching U joins U in
// one pre-image by the closure of the forced states' relation T_F
// (closure.go). The rounds then take turns with such passes, under the
// rules of squaring at r = 0 (after squareAfter rounds, within its share
// of the time, relations of at most closureMaxNodes nodes), and take as
// many rounds as the chains have states with a choice of label, instead of
// as many as they are long. Exactness: a pass adds only states with a path
// of forced states into U, each of which a round would add (by induction
// from the end of the path), and the rounds go on until one adds nothing,
// so U is the same least fixpoint. A pass need only reach the states added
// since the previous one (fresh): U was closed under the forced
// pre-image after it, so a path of forced states into U that is not yet
// in U enters U at a fresh state.
func (sp *space) propuInf(res *Safety, begin time.Time) error {
	m := sp.m
	bad := make([]Node, len(sp.M.Labels))
	for l := range bad {
		bad[l] = m.fls()
	}
	front := res.u // the states whose pre-images are not yet in bad
	fresh := res.u // the states added since the last pass
	q := sp.newSquarer(sp.forcedRelation, func() {
		res.Stats.Iterations++
		res.Stats.Squarings++
		sp.progress(res.opt, "propu", res.Stats.Iterations, res.u, begin)
	})
	layered := 0
	for {
		if !q.off && (q.closed || q.due(layered)) {
			var add Node
			if q.try(func(c *closure) { add = m.diff(sp.preRel(c.plus(), fresh), res.u); q.round() }) {
				res.u = m.or(res.u, add)
				front = m.or(front, add)
				fresh = m.fls()
			}
		}
		layered++
		res.Stats.Iterations++
		for l := range sp.M.Labels {
			for _, ci := range sp.byLabel[l] {
				c := &sp.cmds[ci]
				for oi := range c.outs {
					bad[l] = m.or(bad[l], m.and(c.guard, sp.pre(&c.outs[oi], front)))
				}
			}
		}
		cand := m.diff(m.and(sp.open, sp.hasApp), res.u)
		for l := range sp.M.Labels {
			// every applicable label is bad: remove states where l is
			// applicable and not bad
			cand = m.diff(cand, m.diff(sp.app[l], bad[l]))
			if m.isFalse(cand) {
				break
			}
		}
		if m.isFalse(cand) {
			return nil
		}
		res.u = m.or(res.u, cand)
		front = cand
		fresh = m.or(fresh, cand)
		sp.progress(res.opt, "propu", res.Stats.Iterations, res.u, begin)
	}
}

// propuPolicy iterates the r = 0 rounds: backward reachability through the
// policy's choices, within the given states.
func (sp *space) propuPolicy(res *Safety, within Node, begin time.Time) error {
	m := sp.m
	p := res.pol
	// The states where the policy chooses a label and one of its commands
	// is enabled do not change from round to round: computed once, so
	// that a round costs one pre-image, one conjunction and one union
	// per outcome (on a chain, where each round adds one state, the
	// operations themselves are what a round costs).
	type part struct {
		states Node // open states of within where the policy chooses c's label and c is enabled
		c      *cmdEnc
	}
	var parts []part
	live := m.and(within, sp.open)
	for l := range sp.M.Labels {
		sl := m.and(live, p.choose[l])
		if m.isFalse(sl) {
			continue
		}
		for _, ci := range sp.byLabel[l] {
			c := &sp.cmds[ci]
			if x := m.and(sl, c.guard); !m.isFalse(x) {
				parts = append(parts, part{x, c})
			}
		}
	}
	front := res.u
	// Long chains: the states that reach the frontier, in log(length)
	// compositions (closure.go), when squaring is cheap enough.
	q := sp.newSquarer(func() Node {
		t := m.fls()
		for _, pt := range parts {
			for oi := range pt.c.outs {
				if t = m.or(t, m.and(pt.states, sp.outRel(&pt.c.outs[oi]))); m.size(t) > closureMaxNodes {
					return nil
				}
			}
		}
		return t
	}, func() {
		res.Stats.Iterations++
		res.Stats.Squarings++
		sp.progress(res.opt, "propu", res.Stats.Iterations, res.u, begin)
	})
	layered := 0
	for {
		if q.due(layered) {
			var u Node
			if q.try(func(c *closure) { u = m.or(res.u, sp.preRel(c.plus(), front)); q.round() }) {
				res.u = u
				return nil
			}
		}
		layered++
		res.Stats.Iterations++
		add := m.fls()
		for _, pt := range parts {
			for oi := range pt.c.outs {
				add = m.or(add, m.and(pt.states, sp.pre(&pt.c.outs[oi], front)))
			}
		}
		add = m.diff(add, res.u)
		if m.isFalse(add) {
			return nil
		}
		res.u = m.or(res.u, add)
		front = add
		sp.progress(res.opt, "propu", res.Stats.Iterations, res.u, begin)
	}
}

// Decide answers for each state (in range): unsafe when it is in the
// region found, safe when it is not and the region is complete, unknown
// otherwise. It returns the explicit engine's range error when one of the
// states reaches a state with an out-of-range outcome (see the package
// notes); a limit hit while checking that makes every answer unknown.
func (s *Safety) Decide(states []symbolic.State) ([]Answer, error) {
	out := make([]Answer, len(states))
	sp := s.sp
	if s.u == nil {
		return out, nil
	}
	st, err := sp.run(func() error {
		return s.regionError(sp.states(append([]symbolic.State(nil), states...)), states)
	})
	if err != nil {
		return nil, err
	}
	if st != nil {
		return out, nil
	}
	st, _ = sp.run(func() error {
		g := sp.m.graph(s.u)
		for i, x := range states {
			bit := sp.bitsOf(x)
			switch {
			case g.eval(*s.u, func(l int32) bool { return bit[l] }):
				out[i] = AnswerUnsafe
			case s.Complete:
				out[i] = AnswerSafe
			}
		}
		return nil
	})
	if st != nil {
		clear(out)
	}
	return out, nil
}

// bitsOf returns the current-bit assignment of state x, by level.
func (sp *space) bitsOf(x symbolic.State) map[int32]bool {
	b := map[int32]bool{}
	for v, ve := range sp.vars {
		u := uint64(x[v] - ve.lo)
		for i, l := range ve.cur {
			b[int32(l)] = u>>uint(i)&1 == 1
		}
	}
	return b
}

// RangeError returns the explicit engine's range error of some state with
// an out-of-range outcome of an enabled command, or nil: with every state
// asked (vigil safe --all), the explicit deciders would fail on it.
func (s *Safety) RangeError() error {
	sp := s.sp
	if s.u == nil {
		return nil // not encoded: nothing known
	}
	if s.Complete {
		return s.rangeErr
	}
	var rerr error
	_, err := sp.run(func() error {
		if !sp.m.isFalse(sp.errAll) {
			rerr = sp.witnessError(sp.pick(sp.errAll), false, 0)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return rerr
}

// Cubes returns up to limit cubes of a disjoint cover of the unsafe
// region found, and the number of cubes of the whole cover.
func (s *Safety) Cubes(limit int) ([]Cube, float64) {
	cs, total, _ := s.CubesOrStop(limit)
	return cs, total
}

// CubesOrStop is Cubes, with why the listing stopped ("" when it did
// not): then the cubes are none, not an empty cover.
func (s *Safety) CubesOrStop(limit int) ([]Cube, float64, string) {
	if s.u == nil {
		return nil, 0, ""
	}
	var cs []Cube
	var total float64
	st, err := s.sp.run(func() error {
		cs, total = s.sp.cubes(s.u, limit)
		return nil
	})
	switch {
	case err != nil:
		return nil, 0, err.Error()
	case st != nil:
		return nil, 0, st.reason
	}
	return cs, total, ""
}

// StartCounts answers for the start states of the property as one set:
// how many there are, how many are known unsafe, and how many are safe
// (nil unless the region is complete). Like Decide, it returns the
// explicit engine's range error when a start state reaches a state with
// an out-of-range outcome; a limit hit on the way gives nil counts.
func (s *Safety) StartCounts() (starts, unsafe, safe *big.Int, err error) {
	sp := s.sp
	if s.u == nil {
		return nil, nil, nil, nil
	}
	st, err := sp.run(func() error {
		q, err := sp.starts()
		if err != nil {
			return err
		}
		if err := s.regionError(q, nil); err != nil {
			return err
		}
		starts = sp.count(q)
		unsafe = sp.count(sp.m.and(q, s.u))
		if s.Complete {
			safe = new(big.Int).Sub(starts, unsafe)
		}
		return nil
	})
	if err != nil {
		return nil, nil, nil, err
	}
	if st != nil {
		return nil, nil, nil, nil
	}
	return starts, unsafe, safe, nil
}

// explicitRegionStates bounds the explicit pass of regionError: past this
// many states, the symbolic search decides (a variable so that tests can
// set it to 0, which leaves every case to the symbolic search).
var explicitRegionStates = 1 << 20

// regionError returns the range error the explicit Prop-U meets when asked
// for the states of q (see the package notes), or nil. qs are q's states
// when the caller has them (nil: regionError enumerates q when it is
// small).
//
// The search is breadth-first, one image per layer, so a model whose
// states form a long chain (a counter over a range of 10^5) needs as many
// images as the chain is long, each costing rudd tens of microseconds even
// on a one-state frontier. An explicit breadth-first search over the same
// layers costs about a microsecond per state, so it runs first and decides
// when the region has at most explicitRegionStates states; otherwise (or
// when the tested policy must be evaluated lazily, or fails) the symbolic
// search decides, as before.
func (s *Safety) regionError(q Node, qs []symbolic.State) error {
	sp := s.sp
	if sp.m.isFalse(sp.errAll) {
		return nil
	}
	if qs == nil && sp.count(q).Cmp(big.NewInt(int64(explicitRegionStates))) <= 0 {
		sp.forEach(q, func(x symbolic.State) bool {
			qs = append(qs, append(symbolic.State(nil), x...))
			return true
		})
	}
	if qs != nil && explicitRegionStates > 0 {
		if err, ok := s.explicitRegionError(qs); ok {
			return err
		}
	}
	var pol *policyEnc
	if s.r == 0 {
		pol = s.pol
	}
	m := sp.m
	// Long chains (closure.go): squaring finds whether the region has a
	// state of errAll and, by binary lifting, the first layer with one,
	// which the witness is picked from as below.
	var sq *squarer
	if pol == nil || !pol.lazy {
		sq = sp.newSquarer(func() Node { return sp.policyRelation(pol) }, func() {})
	}
	reach, front := q, q
	for rounds := 0; !m.isFalse(front); rounds++ {
		if bad := m.and(front, sp.errAll); !m.isFalse(bad) {
			return sp.witnessError(sp.pick(bad), false, 0)
		}
		if sq != nil && sq.due(rounds) {
			var layer Node
			if sq.try(func(c *closure) {
				all := m.or(reach, sp.postRel(c.plus(), front))
				if m.isFalse(m.and(all, sp.errAll)) {
					layer = m.fls()
					return
				}
				s, _ := sp.lift(c, reach, rounds, func(s Node) bool { return m.isFalse(m.and(s, sp.errAll)) }, func() {})
				layer = m.diff(sp.postRel(c.steps[0], s), s)
			}) {
				if bad := m.and(layer, sp.errAll); !m.isFalse(bad) {
					return sp.witnessError(sp.pick(bad), false, 0)
				}
				return nil
			}
		}
		next := m.diff(sp.image(pol, front), reach)
		reach = m.or(reach, next)
		front = next
	}
	return nil
}

// explicitRegionError is regionError's explicit pass: for each state of
// qs in turn, a breadth-first search through open states, by every label
// for r = ∞ and by the tested policy's label for r = 0, which names the
// first state, in the order it takes them, whose expansion fails, with the
// explicit engine's error: the state and error the explicit deciders'
// scope search (safety, base.checkScope) names when asked the states of
// qs in that order (lang/spec.md, "Range errors"). A state reached from
// an earlier state of qs is not taken again: its search found no error
// there, and a state whose scope is clean reaches no erring state (so the
// order in which the erring states are met is the same). ok is false
// when this pass cannot decide: the region has more than
// explicitRegionStates states, or more than the policy evaluation limit
// of a lazily evaluated policy, the policy fails, or the failing state is
// not one of errAll (the encodings disagree; the symbolic search then
// decides, and names a state of the first layer with an error that
// sp.pick chooses).
func (s *Safety) explicitRegionError(qs []symbolic.State) (err error, ok bool) {
	sp := s.sp
	var dec explicit.Decider
	limit := explicitRegionStates
	if s.r == 0 {
		switch {
		case s.pol == nil:
			return nil, false
		case s.pol.lazy:
			dec, limit = s.pol.dec, min(limit, s.pol.limit)
		default:
			d, err := explicit.NewDecider(sp.M, s.pol.decl)
			if err != nil {
				return nil, false
			}
			dec = d
		}
	}
	g := sp.g
	st := explicit.NewStoreFor(g.L, 1024)
	buf := make([]uint64, g.L.W)
	var layer, next []uint32
	x := make(symbolic.State, len(sp.M.Vars))
	var exp explicit.Expansion
	for _, q := range qs {
		g.L.Pack(q, buf)
		id, added, err := st.Intern(buf)
		if err != nil {
			return nil, false
		}
		if !added {
			continue // taken for an earlier state of qs, without error
		}
		layer = append(layer[:0], id)
		for len(layer) > 0 {
			if err := sp.m.ctx.Err(); err != nil {
				return nil, false
			}
			next = next[:0]
			for _, id := range layer {
				src := append(buf[:0], st.Get(id)...)
				g.L.Unpack(src, x)
				if g.Status(x) != explicit.Open {
					continue
				}
				if err := g.Expand(src, x, &exp); err != nil {
					if sp.m.isFalse(sp.m.and(sp.states([]symbolic.State{x}), sp.errAll)) {
						return nil, false
					}
					return err, true
				}
				pick := symbolic.NoLabel
				if dec != nil && len(exp.Labels) > 0 {
					l, err := dec.Decide(x, exp.App)
					if err != nil {
						return nil, false
					}
					pick = l
				}
				for _, grp := range exp.Groups {
					if dec != nil && grp.Label != pick {
						continue
					}
					for i := grp.From; i < grp.To; i++ {
						t, added, err := st.Intern(exp.Target(i))
						if err != nil {
							return nil, false
						}
						if added {
							next = append(next, t)
						}
					}
				}
				if st.Len() > limit {
					return nil, false
				}
			}
			layer, next = next, layer
		}
	}
	return nil, true
}
