package verify

// The bounded question of the auto portfolio (auto.go): which kind of bad
// state lies closest to the start, when bfs gave way before it could say.
//
// lang/spec.md ("Range errors") puts the shallowest bad state first: auto
// answers a bad state n steps from the start (a counterexample's unsafe
// state, or a state whose expansion meets a range error) only once no bad
// state of the other kind lies fewer than n steps from the start. A
// counterexample of d steps and a range error of k steps are both answers
// of the right kind then: the shallowest bad state is of the answer's kind
// (or lies as deep as a state of the other kind), though the answer's run
// need not be the shortest (IC3's and the hunter's are not).
//
// bfs settles "none closer than n" once it has expanded every state of
// fewer than n steps. When it gave way sooner, this file asks bounded model
// checking (BMC) over SMT: the model unrolled step by step from its start
// states, each step the transition relation smt.Encoder.Transition builds
// (in range, from a non-terminal state), and at each depth j two queries:
// "an unsafe state j steps from the start" and "a non-terminal state j
// steps from the start where an outcome leaves a range"
// (smt.Encoder.RangeError). Unsat at every depth below n says no bad state
// of that kind lies closer than n. Without a policy, and under a rules or
// table policy (which smt.Encoder.Chosen encodes exactly as the explicit
// engine decides), the relation is the explicit semantics': the first
// depth where a query is sat holds the shallowest bad state, and its run,
// decoded state by state and replayed in the explicit semantics (a
// counterexample through Generator.CheckCounterexample, a range error
// through replayRangeError), is the answer. Under a network or ensemble
// policy, which SMT does not encode, the relation takes every applicable
// label: its runs include the policy's and its range errors include the
// policy's, so an unsat query still rules its kind out, and a sat one
// says nothing (that kind is no longer asked).
//
// Unsat answers are Z3's, as the certificate checks' are (SOUNDNESS.md);
// a witness is never trusted before it replays.

import (
	"context"
	"fmt"
	"sync/atomic"

	"vigil/ic3"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// bmcState is what the bounded question has established so far, read by
// the portfolio while it runs: no unsafe state (no range error) lies fewer
// than unsafeClear (rangeClear) steps from the start. The portfolio sets
// how far each kind is needed (uLimit, rLimit: the question asks a kind
// at the depths below its limit); uShut (rShut) says the free relation
// met that kind (sat), so it is asked no more. A question that ended may
// be asked again with the same state when the limits grew (the counters
// stay).
type bmcState struct {
	unsafeClear, rangeClear atomic.Int64
	uLimit, rLimit          atomic.Int64
	uShut, rShut            atomic.Bool
	// free makes the relation take every applicable label even where
	// the policy could be encoded (tests of the learned policies' path).
	free bool
}

// bmcMaxTerms bounds the terms of the unrolling (its memory: Z3 keeps
// every step's transition relation); past it the question ends undecided.
// (a variable: tests lower it)
var bmcMaxTerms = 2_000_000

// bmcNoLimit is a limit the question never reaches.
const bmcNoLimit = int64(1) << 40

// bmcOutcome is how the bounded question ended: a witness of the
// shallowest bad state that replayed (exact relations only), or why it
// stopped (none: it reached its limits, or both kinds were ruled out as
// far as it could tell).
type bmcOutcome struct {
	cex   []explicit.Step // a counterexample that replays
	found *rangeFound     // a range error that replays
	why   string
	bug   error // an exact relation's witness that does not replay
	// drained: it asked every query its limits needed (asked again
	// when they grow)
	drained bool
}

// bmcExact reports whether the transition relation of q encodes its
// policy exactly (none, rules or table).
func bmcExact(q *Prepared) bool { return q.Policy == nil || !ic3.IsLearned(q.Policy) }

// askBounded runs the bounded question of q into st until its limits,
// ctx's end, or a witness; q's decider is not used (a witness replays with
// a decider of its own). Each step of the unrolling is asserted under an
// activation literal, so a query at depth j assumes the first j steps
// only and the kinds are asked in any order: the kind whose clear depth
// is lower first. A witness of one kind at depth j (exact relations) is
// answered once the other kind is clear below j; a witness of the other
// kind met meanwhile, shallower, is answered instead.
func askBounded(ctx context.Context, q *Prepared, st *bmcState) (out bmcOutcome) {
	exact := bmcExact(q) && !st.free
	m, prop := q.Model, q.Property
	x, err := smt.NewContext()
	if err != nil {
		return bmcOutcome{why: err.Error()}
	}
	defer x.Close()
	if ctx.Done() != nil {
		x.StopWhen(ctx)
	}
	e, err := smt.NewEncoder(x, m)
	if err != nil {
		return bmcOutcome{why: err.Error()}
	}
	s, err := x.NewSolver()
	if err != nil {
		return bmcOutcome{why: err.Error()}
	}
	opts := smt.TransOptions{Property: prop}
	if exact {
		opts.Policy = q.Policy
	}
	stepVars := func(j int) []smt.Term {
		vs := make([]smt.Term, len(m.Vars))
		for i := range m.Vars {
			vs[i] = x.IntConst(fmt.Sprintf("%s@%d", m.Vars[i].Name, j))
		}
		return vs
	}
	states := [][]smt.Term{stepVars(0)}
	var acts []smt.Term // acts[i]: step i, from states[i] to states[i+1]
	var start smt.Term
	if prop.Start != nil {
		start = e.Cond(prop.Start, states[0])
	} else {
		init, err := m.InitialState()
		if err != nil {
			return bmcOutcome{why: err.Error()}
		}
		start = e.State(init, states[0])
	}
	if err := s.Assert(x.And(e.InRange(states[0]), start)); err != nil {
		return bmcOutcome{why: err.Error()}
	}
	// upto makes the states and steps up to depth j
	// step is the terms the last step made: the next one makes as many,
	// so it is not begun when they would pass bmcMaxTerms; a step (the
	// first) that passes it is not asserted (a model of 100,000 commands
	// made 3.6 million terms in one step, and Z3 held 2.2 GB solving it)
	step := bmcStepEstimate(m)
	upto := func(j int) error {
		for len(states) <= j {
			before := x.Terms()
			if before+step > bmcMaxTerms {
				return fmt.Errorf("the unrolling to %d steps would hold over %d terms", len(states), bmcMaxTerms)
			}
			i := len(states) - 1
			next := stepVars(i + 1)
			e.Cur, e.Next = states[i], next
			t, err := e.Transition(opts)
			if err != nil {
				return err
			}
			if step = x.Terms() - before; x.Terms() > bmcMaxTerms {
				return fmt.Errorf("the unrolling to %d steps holds %d terms, over %d", len(states), x.Terms(), bmcMaxTerms)
			}
			act := x.BoolConst(fmt.Sprintf("bmc.t%d", i))
			if err := s.Assert(x.Implies(act, t.Formula)); err != nil {
				return err
			}
			states, acts = append(states, next), append(acts, act)
		}
		return nil
	}
	type kind struct {
		name         string
		clear, limit *atomic.Int64
		shut         *atomic.Bool
		at           func(vs []smt.Term) (smt.Term, error)
		witness      []explicit.Step // exact: met at depth len-1, waiting for the other kind
	}
	kinds := []*kind{
		{name: "u", clear: &st.unsafeClear, limit: &st.uLimit, shut: &st.uShut, at: func(vs []smt.Term) (smt.Term, error) {
			return x.And(e.InRange(vs), e.Cond(prop.Unsafe, vs)), x.Err()
		}},
		{name: "r", clear: &st.rangeClear, limit: &st.rLimit, shut: &st.rShut, at: func(vs []smt.Term) (smt.Term, error) {
			rerr, err := e.RangeError(opts, vs)
			if err != nil {
				return smt.Term{}, err
			}
			return x.And(e.InRange(vs), x.Not(e.Terminal(prop, vs)), rerr), x.Err()
		}},
	}
	// a kind that no state within the ranges can meet is clear at every
	// depth: asked once on a state of its own, with no start and no
	// steps (review17b's unsafe condition y == 1000 && y < 999 is
	// false, and its range error, 1,500 steps out, waited for an
	// unrolling that deep)
	anyState := make([]smt.Term, len(m.Vars))
	for i := range m.Vars {
		anyState[i] = x.IntConst(m.Vars[i].Name + "@any")
	}
	for _, k := range kinds {
		cond, err := k.at(anyState)
		if err != nil {
			return bmcOutcome{why: err.Error()}
		}
		act := x.BoolConst("bmc." + k.name + ".any")
		if err := s.Assert(x.Implies(act, cond)); err != nil {
			return bmcOutcome{why: err.Error()}
		}
		res, err := s.CheckContext(ctx, act)
		if err != nil {
			return bmcOutcome{why: err.Error()}
		}
		if res == smt.Unsat {
			k.clear.Store(bmcNoLimit)
		}
	}
	if kinds[0].clear.Load() == bmcNoLimit {
		// no unsafe state anywhere: no counterexample is held, and a
		// range error met without a run (pend) is the shallowest bad
		// state whatever its depth
		return bmcOutcome{why: "no state within the ranges is unsafe", drained: true}
	}
	// need is how deep kind k must be asked: its limit, or the depth of
	// the other kind's witness
	need := func(k, other *kind) int64 {
		n := k.limit.Load()
		if other.witness != nil {
			n = max(n, int64(len(other.witness)-1))
		}
		return n
	}
	for n := 0; ; n++ {
		if ctx.Err() != nil {
			return bmcOutcome{why: stopReason(ctx)}
		}
		// a witness whose other kind is clear below it is the answer
		for i, k := range kinds {
			o := kinds[1-i]
			if k.witness == nil || o.clear.Load() < int64(len(k.witness)-1) {
				continue
			}
			if k.name == "u" {
				own := *q // checked as every member's counterexample is
				if q.Policy != nil {
					if own.Dec, err = q.newDecider(); err != nil {
						return bmcOutcome{why: err.Error()}
					}
				}
				if err := own.check(ctx, &Verdict{Engine: "bmc", Answer: explicit.UnsafeVerdict, Trace: k.witness}); err != nil {
					return bmcOutcome{bug: err}
				}
				return bmcOutcome{cex: k.witness}
			}
			var dec explicit.Decider
			if q.Policy != nil {
				if dec, err = q.newDecider(); err != nil {
					return bmcOutcome{why: err.Error()}
				}
			}
			f, err := replayRangeError(q.Gen, dec, k.witness)
			if err != nil {
				return bmcOutcome{bug: internal("the bounded question's range error does not replay in the explicit semantics: %v", err)}
			}
			return bmcOutcome{found: f}
		}
		// the next query: the open kind, still needed, whose clear
		// depth is lower
		var k *kind
		for i, c := range kinds {
			if c.shut.Load() || c.witness != nil || c.clear.Load() >= need(c, kinds[1-i]) {
				continue
			}
			if k == nil || c.clear.Load() < k.clear.Load() {
				k = c
			}
		}
		if k == nil {
			return bmcOutcome{drained: true}
		}
		j := int(k.clear.Load())
		if err := upto(j); err != nil {
			return bmcOutcome{why: err.Error()}
		}
		cond, err := k.at(states[j])
		if err != nil {
			return bmcOutcome{why: err.Error()}
		}
		act := x.BoolConst(fmt.Sprintf("bmc.%s%d.%d", k.name, j, n))
		if err := s.Assert(x.Implies(act, cond)); err != nil {
			return bmcOutcome{why: err.Error()}
		}
		res, err := s.CheckContext(ctx, append(append([]smt.Term(nil), acts[:j]...), act)...)
		if err != nil {
			return bmcOutcome{why: err.Error()}
		}
		switch res {
		case smt.Unsat:
			k.clear.Store(int64(j + 1))
			continue
		case smt.Unknown:
			why := s.ReasonUnknown()
			if ctx.Err() != nil {
				why = stopReason(ctx)
			}
			return bmcOutcome{why: fmt.Sprintf("%d steps from the start: %s", j, why)}
		}
		if !exact {
			// a run of the relation, not necessarily of the policy
			k.shut.Store(true)
			continue
		}
		if k.witness, err = bmcTrace(q, e, s, states[:j+1]); err != nil {
			return bmcOutcome{bug: internal("the bounded question's run does not replay in the explicit semantics: %v", err)}
		}
	}
}

// bmcTrace decodes the run of the last sat check, its states states[0..]
// up to the last one asked, and finds for each step the command and
// outcome of the policy's label (any label without one) that lead to the
// next state in the explicit semantics.
func bmcTrace(q *Prepared, e *smt.Encoder, s *smt.Solver, states [][]smt.Term) ([]explicit.Step, error) {
	g := q.Gen
	var dec explicit.Decider
	if q.Policy != nil {
		var err error
		if dec, err = q.newDecider(); err != nil {
			return nil, err
		}
	}
	trace := make([]explicit.Step, len(states))
	for i, vs := range states {
		st, err := e.Decode(s, vs)
		if err != nil {
			return nil, err
		}
		trace[i] = explicit.Step{State: st, Label: symbolic.NoLabel, Cmd: -1, Outcome: -1}
	}
	x := &explicit.Expansion{}
	m := g.M
	for i := 0; i+1 < len(trace); i++ {
		s, want := trace[i].State, m.FormatState(trace[i+1].State)
		g.Applicable(s, x)
		label := symbolic.NoLabel
		if dec != nil {
			l, err := dec.Decide(s, x.App)
			if err != nil {
				return nil, err
			}
			label = l
		}
		found := false
		for c := range m.Commands {
			cmd := &m.Commands[c]
			if dec != nil && cmd.Label != label || !g.Guard(s, c) {
				continue
			}
			for o := range cmd.Outcomes {
				t, err := g.Apply(s, c, o)
				if err == nil && m.FormatState(t) == want {
					trace[i].Label, trace[i].Cmd, trace[i].Outcome = cmd.Label, c, o
					found = true
					break
				}
			}
			if found {
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("step %d: no step of the policy leads from %s to %s", i, m.FormatState(s), want)
		}
	}
	return trace, nil
}

// bmcStepEstimate is about the terms one step of the unrolling makes
// (smt.Encoder.Transition): the model's guards and assignments read as
// trees, and a few terms per command, outcome and assignment (the
// 100,000 commands of x == i -> x' = x + 1 | y' = y + 1 are estimated at
// 3.1 million; the step made 3.6 million).
func bmcStepEstimate(m *symbolic.Model) int {
	t := symbolic.NewTreeSizer()
	n := int64(4 * len(m.Vars))
	for c := range m.Commands {
		cmd := &m.Commands[c]
		n += t.Cond(cmd.Guard) + 6
		for _, o := range cmd.Outcomes {
			n += 4
			for _, a := range o.Assigns {
				n += t.Expr(a.Value) + 4
			}
		}
		if n > int64(bmcMaxTerms) {
			break
		}
	}
	return int(min(n, int64(bmcMaxTerms)+1))
}
