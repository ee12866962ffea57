package verify

// Deciding whether a range error lies closer to the start than the
// hunter's held counterexample (auto.go), when bfs cannot get there.
//
// The portfolio holds the hunter's counterexample of d steps while a
// range error in fewer steps is possible (lang/spec.md, Range errors).
// When smt.CheckBounds finds an outcome that can leave a range, the
// portfolio asks IC3 a second question, rangeQuestion: the same model,
// start states and policy, the original's unsafe states and goals as
// its goals (terminal, as in the original: its runs are the original's),
// and as its unsafe states those of rangeErrCond that are not terminal,
// the states where some command's outcome leaves a range (for a policy,
// a condition no state meets: IC3's own bad region then holds exactly
// the policy's range errors). Its answer is checked as every answer is:
//
//   - safe, with a certificate ic3/cert accepts: no range error is
//     reachable at all. The certificate's range-error checks count every
//     range error of the changed question, whose runs are the original's
//     (until s32b they went on through the original's unsafe states, and
//     a range error beyond one left the question undecided): no run of
//     the original meets one, and the held counterexample is exactly
//     bfs's answer (unsafe).
//   - unsafe, a run that replays in the changed question's explicit
//     semantics into a state of rangeErrCond: replayRangeError replays it
//     again in the original question's semantics (every state before the
//     last open, the policy's choices, the outcomes) and asks the explicit
//     engine for the error of its last state (Generator.ErrorAt). Only
//     then is it a range error of k steps: when k < d it is the answer
//     once no unsafe state lies closer than k (bfs's depth, or the
//     bounded question of autobmc.go; session 32 answered it at once, as
//     ic3's range error is, though the hunter's d bounds only the unsafe
//     states' depth); when k >= d it rules nothing out (IC3's runs are
//     not the shortest) and the counterexample stays held.
//   - anything else (unknown, IC3's own range error without a run, a
//     refusal): nothing is learnt, and the portfolio holds on as before;
//     once bfs gave way, nothing will release the counterexample (a
//     closer range error is not ruled out): the portfolio answers unknown
//     unless IC3's own question decides.
//
// IC3's own report of a range error (ic3.go's "a state reachable in N
// steps ...") comes without its run: it does not override a held
// counterexample, which replayed (before session 32 it did).

import (
	"context"
	"errors"
	"fmt"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// rangeErrCond is the condition "some command is enabled and one of its
// outcomes gives a variable a value outside its range" (the explicit
// semantics' range errors of assignments, array accesses included, which
// lowering carries on an element one above its range). Probability
// errors are not in it (IC3 reports them without a run). It is False when
// the model has no assignment.
func rangeErrCond(m *symbolic.Model) *symbolic.Cond {
	var errs []*symbolic.Cond
	for ci := range m.Commands {
		c := &m.Commands[ci]
		var leaves []*symbolic.Cond
		for oi := range c.Outcomes {
			for _, a := range c.Outcomes[oi].Assigns {
				v := &m.Vars[a.Var]
				leaves = append(leaves,
					symbolic.Compare(a.Value, symbolic.Lt, symbolic.Lit(v.Lo)),
					symbolic.Compare(a.Value, symbolic.Gt, symbolic.Lit(v.Hi)))
			}
		}
		if len(leaves) > 0 {
			errs = append(errs, symbolic.And(c.Guard, symbolic.Or(leaves...)))
		}
	}
	return symbolic.Or(errs...)
}

// neverCond is a condition no state of m meets (its first variable below
// its range) that constant folding does not turn into false, which IC3
// refuses; nil when m has no variable.
func neverCond(m *symbolic.Model) *symbolic.Cond {
	if len(m.Vars) == 0 {
		return nil
	}
	return symbolic.Compare(symbolic.V(0), symbolic.Lt, symbolic.Lit(m.Vars[0].Lo))
}

// rangeQuestionOf is q with its unsafe condition replaced as the file's
// comment says; nil when there is no such question to ask. The states
// the property calls unsafe or goals are the question's goals: terminal
// as in q, so that the question's runs are q's (a run that went on
// through an unsafe state of q, as the question's runs did before s32b,
// reached range errors beyond it, whose runs did not replay, and the
// question was undecided where bfs meets an unsafe state first), and
// the range-error states among them are no range errors (a run ends
// there). With every, the unsafe states are those of rangeErrCond under
// a policy too (rangeRun).
func rangeQuestionOf(q *Prepared, every bool) *Question {
	m := q.Model
	term := q.Property.Unsafe
	if g := q.Property.Goal; g != nil {
		term = symbolic.Or(term, g)
	}
	unsafe := symbolic.And(rangeErrCond(m), symbolic.Not(term))
	if q.Policy != nil && !every || unsafe.Op == symbolic.CFalse || unsafe.Op == symbolic.CTrue {
		// A policy chooses among the enabled commands: rangeErrCond
		// counts the range errors of labels it never chooses, IC3's own
		// bad region only the chosen ones.
		unsafe = neverCond(m)
	}
	if unsafe == nil {
		return nil
	}
	prop := *q.Property
	prop.Unsafe, prop.Goal = unsafe, term
	mm := *m
	mm.Properties = append([]*symbolic.Property(nil), m.Properties...)
	found := false
	for i, mp := range mm.Properties {
		if mp == q.Property {
			mm.Properties[i], found = &prop, true
		}
	}
	if !found {
		mm.Properties = append(mm.Properties, &prop)
	}
	qq := *q.Question
	qq.Model, qq.Property = &mm, &prop
	qq.Start, qq.Unsafe = nil, nil
	qq.Compiled, qq.Progress, qq.Certificate, qq.Tamper = nil, nil, false, nil
	qq.Engine = "ic3"
	return &qq
}

// rangeFound is a range error that replayed: the run to the erring state
// (Trace, its last state the one whose expansion errs) and the explicit
// engine's error there.
type rangeFound struct {
	Trace []explicit.Step
	Err   error
}

// Steps is the erring state's distance from the start along the run.
func (r *rangeFound) Steps() int { return len(r.Trace) - 1 }

// Error is what the portfolio reports.
func (r *rangeFound) Error() error {
	return fmt.Errorf("a state reachable in %d steps (a run that replays in the explicit semantics) has a range error: %w", r.Steps(), r.Err)
}

// rangeOutcome is the answer of the range question: none (nothing
// learnt, why says), no range error reachable (clean), or one that
// replayed (found).
type rangeOutcome struct {
	clean bool
	found *rangeFound
	why   string
	bug   error // an answer that failed its check: a bug in vigil
}

// askRange asks the range question of q and checks the answer: IC3 on
// rangeQuestion, its verdict checked in the changed question, a run
// replayed again in q's own semantics with a decider of its own.
func askRange(ctx context.Context, q *Prepared) rangeOutcome {
	r := askRangeOf(ctx, q, false)
	if q.Policy != nil && r.why != "" && reachedRangeError(errors.New(r.why)) && ctx.Err() == nil {
		// IC3 reached one of the policy's range errors in its own bad
		// region, without its run: ask again for a run (rangeRun)
		if r2 := askRangeOf(ctx, q, true); r2.found != nil || r2.bug != nil {
			return r2
		} else if r2.why != "" {
			r.why += "; asked for its run: " + r2.why
		}
	}
	return r
}

// askRangeOf asks rangeQuestionOf(q, every). With every under a policy
// (rangeRun), the unsafe states are all those where some enabled
// command's outcome leaves a range, whatever the policy chooses there:
// IC3's counterexample then comes with its run (its own bad region's
// range errors come without), which counts only when the policy's choice
// in its last state errs (replayRangeError); a state where only another
// label errs ends the question undecided. A safe answer says nothing
// more than the first question's (it is not asked otherwise).
func askRangeOf(ctx context.Context, q *Prepared, every bool) rangeOutcome {
	qq := rangeQuestionOf(q, every)
	if qq == nil {
		return rangeOutcome{why: "no question to ask"}
	}
	p, err := prepare(ctx, qq)
	if err != nil {
		return rangeOutcome{why: err.Error()}
	}
	v, err := decideIC3(ctx, p, true)
	if err == nil {
		err = p.check(ctx, v)
	}
	if err != nil {
		var ie *InternalError
		if errors.As(err, &ie) {
			return rangeOutcome{bug: err}
		}
		return rangeOutcome{why: err.Error()}
	}
	switch v.Answer {
	case explicit.Safe:
		return rangeOutcome{clean: true}
	case explicit.UnsafeVerdict:
		var dec explicit.Decider
		if q.Policy != nil {
			if dec, err = q.newDecider(); err != nil {
				return rangeOutcome{why: err.Error()}
			}
		}
		f, err := replayRangeError(q.Gen, dec, v.Trace)
		if err != nil {
			return rangeOutcome{why: err.Error()}
		}
		return rangeOutcome{found: f}
	}
	return rangeOutcome{why: v.Reason}
}

// replayRangeError replays trace in g's semantics as a run of the policy
// dec (nil: any enabled command) from a start state to a state whose
// expansion meets a range error (the explicit engine's, Generator.ErrorAt),
// every state before it open (neither unsafe nor a goal: a run ends
// there). It returns the error of the last state, or why the trace is no
// such run.
func replayRangeError(g *explicit.Generator, dec explicit.Decider, trace []explicit.Step) (*rangeFound, error) {
	if len(trace) == 0 {
		return nil, errors.New("an empty run")
	}
	// the checks of Generator.CheckCounterexample, but for the end
	m := g.M
	for i, st := range trace {
		if len(st.State) != len(m.Vars) || m.InRange(st.State) >= 0 {
			return nil, fmt.Errorf("step %d: not a state of model %s", i, m.Name)
		}
	}
	if err := isStart(g, trace[0].State); err != nil {
		return nil, err
	}
	x := &explicit.Expansion{}
	for i, st := range trace[:len(trace)-1] {
		s := st.State
		if status := g.Status(s); status != explicit.Open {
			return nil, fmt.Errorf("step %d: %s is %s, a run ends there", i, m.FormatState(s), status)
		}
		if st.Cmd < 0 || st.Cmd >= len(m.Commands) {
			return nil, fmt.Errorf("step %d: no command %d", i, st.Cmd)
		}
		c := &m.Commands[st.Cmd]
		if c.Label != st.Label || st.Outcome < 0 || st.Outcome >= len(c.Outcomes) || !g.Guard(s, st.Cmd) {
			return nil, fmt.Errorf("step %d: not a step of command %s", i, c.Pos)
		}
		if dec != nil {
			g.Applicable(s, x)
			l, err := dec.Decide(s, x.App)
			if err != nil {
				return nil, err
			}
			if l != st.Label {
				return nil, fmt.Errorf("step %d: the policy does not choose %s in %s", i, m.Labels[st.Label].Name, m.FormatState(s))
			}
		}
		t, err := g.Apply(s, st.Cmd, st.Outcome)
		if err != nil {
			// the run's own step leaves a range: the error of state i
			// (ErrorAt names the first of its expansion)
			trace = trace[:i+1]
			break
		}
		if m.FormatState(t) != m.FormatState(trace[i+1].State) {
			return nil, fmt.Errorf("step %d leads to %s, not %s", i, m.FormatState(t), m.FormatState(trace[i+1].State))
		}
	}
	last := trace[len(trace)-1].State
	err := g.ErrorAt(last, dec)
	var re *explicit.RangeError
	if !errors.As(err, &re) {
		return nil, fmt.Errorf("the explicit engine meets no range error in %s (%v)", m.FormatState(last), err)
	}
	return &rangeFound{Trace: trace, Err: err}, nil
}

// isStart reports why s is not a start state of g's property (nil when
// it is), as CheckCounterexample checks a counterexample's first state.
func isStart(g *explicit.Generator, s symbolic.State) error {
	if g.Prop == nil || g.Prop.Start == nil {
		init, err := g.M.InitialState()
		if err != nil {
			return err
		}
		if g.M.FormatState(init) != g.M.FormatState(s) {
			return fmt.Errorf("the run starts in %s, not in the initial state %s", g.M.FormatState(s), g.M.FormatState(init))
		}
		return nil
	}
	if !g.Prop.Start.Holds(s) {
		return fmt.Errorf("the run starts in %s, which violates the start condition", g.M.FormatState(s))
	}
	return nil
}
