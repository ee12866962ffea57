package verify

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"vigil/ic3"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// The auto portfolio runs three members at once on the available cores:
//
//   - bfs up to a state budget (AutoStatesWords: what fits in a quarter of
//     the memory, or Limits.MaxStates when smaller): it decides small spaces,
//     and policies whose reachable states are few, exactly, and gives
//     shortest counterexamples;
//   - IC3, or PolIC3 for a learned policy, with generalization: it proves
//     safety of spaces no search can store;
//   - the hunter (hunt.go): random walks of the policy, which find deep
//     counterexamples that IC3 reaches only after many frames.
//
// Every member's answer is checked as a single engine's is (a
// counterexample replays, an invariant goes through ic3/cert); the first
// checked verdict wins and the others are cancelled through their context.
// A member that fails its check, or whose checked verdict contradicts the
// winner's, before the portfolio returns is a bug in vigil (an internal
// error), never a verdict and never hidden as a cancellation.
// IC3 and the hunter start after bfs has had AutoHeadStart to itself, so
// that small models, which bfs decides at once, get its answer every time.
// The portfolio gives up (Unknown) when bfs and IC3 have both ended
// without a verdict: the hunter cannot prove safety.
//
// A range error is an error of the model, and bfs reports the shallowest
// bad state, an unsafe state or a range error (either where both lie
// equally deep): the hunter's walks, which may pass beside a shallower
// range error, do not, nor do IC3's counterexamples (its obligations and
// random walks: ic3 alone answers unsafe in 25 steps where bfs meets a
// range error in 12, s32b_auto_ic3_counterexample_held). So a
// counterexample of d steps, the hunter's or IC3's (the shorter of two),
// is held back while a range error in fewer than d steps is possible. It
// wins once bfs has expanded every state of fewer than d steps, or no
// run meets a range error: smt.CheckBounds finds no outcome that can
// leave a range (asked once, when a counterexample is first held; a
// stopped or undecided check is never clean), or else the range question
// (autorange.go: IC3 with the range-error states as the unsafe ones, the
// original's unsafe states and goals as goals, its invariant checked)
// proves none reachable, or the bounded question (autobmc.go: BMC over
// SMT, asked once bfs gave way or the range question settled) finds no
// range error in fewer than d steps. A range error that question reaches
// on a run that replays in the explicit semantics, in k < d steps, is the
// answer instead, once no unsafe state lies closer than k (bfs expanded
// every state of fewer than k steps, or the bounded question found none;
// session 33: it was answered at once, as ic3 alone answers,
// s33a_auto_unsafe_before_range_error). The bounded question's own
// witness, exact without a policy and under rules and table policies, is
// the shallowest bad state and the answer (its run replays). Nothing else
// releases the counterexample: when bfs gave way and the questions are
// undecided (IC3's own range error, which comes without its run, as
// under a network policy, or a range error d steps or more away, which
// rules out nothing closer), the portfolio answers unknown, naming the
// held counterexample (s32b_auto_policy_range_error: it answered the
// counterexample where bfs and ic3 report a range error). A range error
// the hunter or IC3 meets without such a run waits for the bounded
// question too where it is exact (pend). Meanwhile
// bfs's verdict and IC3's safe one win as usual; IC3's own report of a
// range error never overrides the held counterexample (session 31 let
// it). Before session 31 auto answered unsafe where bfs and ic3 report a
// range error 60 steps from the start
// (bench/adversarial/s31d_auto_range_error.txtar); in session 31 it
// answered unknown where no run meets the range error that the bounds
// check finds (s32a_auto_unreached_range_error.txtar).

// AutoHeadStart is how long bfs runs alone before the other members of
// the portfolio start.
const AutoHeadStart = 100 * time.Millisecond

// autoGrace is how long the portfolio waits for its cancelled members to
// stop before it returns without them.
const autoGrace = time.Second

// AutoStats say how each member of the portfolio ended.
type AutoStats struct {
	Cores int `json:"cores"`
	// Seconds is the portfolio's wall-clock time, from the start of bfs to
	// the verdict (Verdict.Elapsed is the winner's own time).
	Seconds float64      `json:"seconds"`
	Winner  string       `json:"winner,omitempty"` // "" when no member decided
	Members []AutoMember `json:"members"`
	// RangeCheck says how the question "does a range error lie closer
	// to the start than the hunter's counterexample" was settled, when
	// it was asked (autorange.go).
	RangeCheck string `json:"range_check,omitempty"`
	// Bounded says what the bounded question (autobmc.go) established,
	// when it was asked: how far from the start no unsafe state and no
	// range error lies, and how it ended.
	Bounded string `json:"bounded,omitempty"`
}

// AutoMember is one member's outcome.
type AutoMember struct {
	Engine string `json:"engine"` // bfs, ic3 or polic3, hunt
	// won, unknown, cancelled, error, not started, or held (the hunter's
	// counterexample while a shallower range error is not ruled out)
	Outcome string  `json:"outcome"`
	Reason  string  `json:"reason,omitempty"`
	Seconds float64 `json:"seconds"`
	// StopSeconds is how long a cancelled member took to stop once the
	// winner was known.
	StopSeconds float64 `json:"stop_seconds,omitempty"`
	States      int     `json:"states,omitempty"` // bfs: states stored
	// What IC3 reached: its frames (the path-length limit), live
	// clauses and SMT calls.
	Frames   int `json:"frames,omitempty"`
	Clauses  int `json:"clauses,omitempty"`
	SMTCalls int `json:"smt_calls,omitempty"`
	// What the hunter did: its walks and their steps, and whether they
	// were deterministic (each start state walked once).
	Walks         int  `json:"walks,omitempty"`
	Steps         int  `json:"steps,omitempty"`
	Deterministic bool `json:"deterministic,omitempty"`
	// Sampled: the deterministic walks went from sampled start states.
	Sampled bool `json:"sampled,omitempty"`
}

// GaveWay reports whether bfs stopped at its state budget, and after how
// many states.
func (a *AutoStats) GaveWay() (int, bool) {
	for _, m := range a.Members {
		if m.Engine == "bfs" && m.Outcome == "unknown" && strings.HasPrefix(m.Reason, "state limit") {
			return m.States, true
		}
	}
	return 0, false
}

type autoOutcome struct {
	i   int
	v   *Verdict
	err error
	end time.Time
}

// autoMember is one engine of the portfolio.
type autoMember struct {
	name string
	run  func(context.Context, *Prepared) (*Verdict, error)
}

// portfolio is one run of the auto portfolio: its members, the channel
// their outcomes arrive on, and what is known so far.
type portfolio struct {
	ctx      context.Context // the caller's
	ictx     context.Context // the members', cancelled once a verdict is known
	cancel   context.CancelFunc
	q        *Prepared
	members  []autoMember
	parallel bool // false for an in-memory policy: bfs then IC3, no hunter
	progress func(Progress)
	out      chan autoOutcome
	began    []time.Time
	running  int
	stats    *AutoStats
	results  []*Verdict
	errs     []error
	winner   *Verdict
	fatal    error
	// cancelled is when the members were told to stop (zero: not yet).
	cancelled time.Time
	// held is the hunter's counterexample while a shallower range error
	// is not ruled out; bfsDepth the layer bfs expands (every layer
	// before it is expanded); noRangeErr is set once smt.CheckBounds
	// found no outcome that can leave a range, and bounds delivers its
	// answer (nil until asked).
	held       *Verdict
	bfsDepth   atomic.Int64
	noRangeErr bool
	bfsGaveWay bool
	heldBy     int // the member whose counterexample is held (2 the hunter, 1 IC3)
	bounds     chan boundsAnswer
	// The range question (autorange.go), asked once the bounds check
	// found an outcome that can leave a range (or could not decide):
	// rangeRes delivers its answer; rangeSettled is set once the bounds
	// check or the question has answered; rangeFound is a range error
	// whose run replayed.
	rangeRes     chan rangeOutcome
	rangeSettled bool
	rangeFound   *rangeFound
	// rangeAsk answers the range question: askRange (tests put a
	// stand-in in its place, as they do for members).
	rangeAsk func(context.Context, *Prepared) rangeOutcome
	// The bounded question (autobmc.go), asked once bfs gave way while
	// an answer waits for "no bad state of the other kind lies closer":
	// bmc is what it established so far (nil until asked), bmcRes
	// delivers how it ended, bmcSettled is set then.
	bmc        *bmcState
	bmcRes     chan bmcOutcome
	bmcSettled bool
	bmcDrained bool // it ended having asked all its limits needed
	// bmcAsk answers the bounded question: askBounded (tests put a
	// stand-in in its place).
	bmcAsk func(context.Context, *Prepared, *bmcState) bmcOutcome
	// pendingErr is the hunter's or IC3's range error while the bounded
	// question looks for a closer bad state (pend).
	pendingErr error
	// bmcFree makes the bounded question take every label as under a
	// network or ensemble policy (tests of that path with rules
	// policies).
	bmcFree bool
}

// boundsAnswer is smt.CheckBounds's answer for the portfolio: clean
// only when every query was asked and none found an outcome that can
// leave a range; an error, a stop or an undecided query is never clean.
type boundsAnswer struct{ clean, stopped bool }

func decideAuto(ctx context.Context, q *Prepared) (*Verdict, error) {
	budget := AutoStatesWords(q.Gen.L.W)
	if m := q.Limits.MaxStates; m > 0 && m < budget {
		budget = m
	}
	ic3Name := "ic3"
	if ic3.IsLearned(q.Policy) {
		ic3Name = "polic3"
	}
	var p *portfolio
	p = newPortfolio(ctx, q, []autoMember{
		{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) { return bfsDepth(ctx, q, budget, &p.bfsDepth) }},
		{ic3Name, func(ctx context.Context, q *Prepared) (*Verdict, error) {
			// The hunter walks the policy on a core of its own: PolIC3's
			// own walks (ic3/walks.go) would repeat them.
			own := *q
			own.IC3.NoWalks = true
			return decideIC3(ctx, &own, true)
		}},
		{"hunt", hunt},
	})
	defer p.cancel()
	t0 := time.Now()
	p.loop()
	p.markStragglers()
	p.stats.Seconds = time.Since(t0).Seconds()
	return p.result(time.Since(t0))
}

func newPortfolio(ctx context.Context, q *Prepared, members []autoMember) *portfolio {
	p := &portfolio{ctx: ctx, q: q, members: members,
		stats: &AutoStats{Cores: runtime.GOMAXPROCS(0)},
		out:   make(chan autoOutcome, len(members)), began: make([]time.Time, len(members)),
		results: make([]*Verdict, len(members)), errs: make([]error, len(members)),
		rangeAsk: askRange, bmcAsk: askBounded}
	p.ictx, p.cancel = context.WithCancel(ctx)
	for _, m := range members {
		p.stats.Members = append(p.stats.Members, AutoMember{Engine: m.name, Outcome: "not started"})
	}
	// An in-memory policy (Executable) cannot be instantiated once per
	// goroutine: bfs and then IC3 run one after the other on it, and the
	// hunter does not run.
	p.parallel = q.Executable == nil
	if !p.parallel {
		p.stats.Members[2].Reason = "an in-memory policy is not shared between goroutines"
	}
	// The members report progress through one lock.
	if q.Progress != nil {
		var mu sync.Mutex
		p.progress = func(pr Progress) {
			mu.Lock()
			defer mu.Unlock()
			q.Progress(pr)
		}
	}
	return p
}

// start runs member i in its own goroutine.
func (p *portfolio) start(i int) {
	p.running++
	p.began[i] = time.Now()
	p.stats.Members[i].Outcome = "running"
	// Each member gets its own copy of the question, with its own
	// decider of the policy (deciders keep per-state caches and
	// scratch space), which also checks its answer.
	q := p.q
	qi, qq := *q, *q.Question
	qq.Progress = p.progress
	qi.Question = &qq
	go func() {
		var v *Verdict
		var err error
		if i > 0 && q.Policy != nil && p.parallel {
			qi.Dec, err = q.newDecider()
		}
		if err == nil {
			v, err = p.members[i].run(p.ictx, &qi)
		}
		if err == nil {
			err = qi.check(p.ictx, v)
		}
		p.out <- autoOutcome{i, v, err, time.Now()}
	}()
}

// startOthers starts IC3 and, unless the policy is in memory, the hunter.
func (p *portfolio) startOthers() {
	p.start(1)
	if p.parallel {
		p.start(2)
	}
}

// record notes how member o.i ended.
func (p *portfolio) record(o autoOutcome) {
	p.running--
	m := &p.stats.Members[o.i]
	m.Seconds = o.end.Sub(p.began[o.i]).Seconds()
	p.results[o.i], p.errs[o.i] = o.v, o.err
	if v := o.v; v != nil {
		m.Engine = v.Engine // ic3 is polic3 for a learned policy
		if v.BFS != nil {
			m.States = v.BFS.Stats.States
			if o.i == 0 {
				p.bfsDepth.Store(int64(v.BFS.Stats.Depth))
			}
		}
		if v.IC3 != nil && v.IC3.Result != nil {
			s := v.IC3.Stats
			m.Frames, m.Clauses, m.SMTCalls = s.Frames, s.Clauses, s.SMTCalls
		}
		if h := v.Hunt; h != nil {
			m.Walks, m.Steps, m.Deterministic, m.Sampled = h.Walks, h.Steps, h.Deterministic, h.Sampled
		}
	}
	switch {
	case p.ctx.Err() != nil && (o.v == nil || o.v.Answer == explicit.Unknown):
		// The user's timeout or interrupt stopped every member, whether
		// or not the portfolio had told it to stop already: it is
		// unknown for the same reason as the portfolio.
		if o.err != nil && !errors.Is(o.err, p.ctx.Err()) {
			m.Outcome, m.Reason = "error", o.err.Error()
			var ie *InternalError
			if errors.As(o.err, &ie) && p.fatal == nil && !p.cancelled.IsZero() {
				// A failed check (here of an answer that is no verdict)
				// after the winner, as below: the end of ctx never
				// fails a check, so it is a bug, whatever stopped the
				// members (before the winner, decide makes it fatal).
				p.fatal = o.err
			}
		} else {
			m.Outcome, m.Reason = "unknown", stopReason(p.ctx)
		}
	case !p.cancelled.IsZero():
		m.Outcome, m.StopSeconds = "cancelled", o.end.Sub(p.cancelled).Seconds()
		var ie *InternalError
		switch {
		case errors.As(o.err, &ie):
			// A check that failed after the winner was known (the end
			// of ctx never fails a check: an invariant whose check it
			// cuts short is unknown): a bug in vigil, reported as one,
			// not hidden as a cancellation.
			m.Outcome, m.Reason = "error", o.err.Error()
			if p.fatal == nil {
				p.fatal = o.err
			}
		case o.v != nil && o.v.Answer != explicit.Unknown && o.err == nil:
			m.Outcome, m.Reason = "decided too late", o.v.Answer.String()
			if w := p.winner; w != nil && w.Answer != o.v.Answer && p.fatal == nil {
				// Two checked verdicts that contradict each other: a
				// check is wrong, which is a bug in vigil, whichever
				// came first.
				p.fatal = internal("the members of the portfolio disagree: %s answered %s, %s (checked too) %s", w.Engine, w.Answer, o.v.Engine, o.v.Answer)
			}
		}
	case o.err != nil:
		m.Outcome, m.Reason = "error", o.err.Error()
	case o.v.Answer != explicit.Unknown:
		m.Outcome = "won"
	default:
		m.Outcome, m.Reason = "unknown", o.v.Reason
	}
}

// stop cancels the members (once).
func (p *portfolio) stop() {
	if p.cancelled.IsZero() {
		p.cancelled = time.Now()
		p.cancel()
	}
}

// loop starts bfs, the others after its head start, and reads outcomes
// until a verdict, a bug or the end of every member; then it waits at most
// autoGrace for the cancelled members to stop.
func (p *portfolio) loop() {
	p.start(0)
	head := time.NewTimer(AutoHeadStart)
	defer head.Stop()
	// The user's timeout or interrupt stops the members through their
	// context; the portfolio waits for them at most autoGrace from then
	// (it waited for every member to end: a member slow to look at its
	// context held `vigil verify --timeout 3s` for 28 s).
	done := p.ctx.Done()
	var grace <-chan time.Time
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for p.running > 0 || p.awaitingRange() {
		var o autoOutcome
		select {
		case <-tick.C:
			// a held counterexample: has bfs passed its depth?
			if p.held != nil && p.cancelled.IsZero() {
				if p.release(); !p.cancelled.IsZero() {
					p.waitStopped()
					return
				}
			}
			continue
		case b := <-p.bounds:
			p.noRangeErr = b.clean
			switch {
			case b.clean:
				p.rangeSettled = true
				p.stats.RangeCheck = "no outcome can leave a range (smt.CheckBounds)"
			case !b.stopped && p.held != nil && p.cancelled.IsZero() && p.ctx.Err() == nil:
				p.askRange()
			}
			if p.held != nil && p.cancelled.IsZero() {
				if p.release(); !p.cancelled.IsZero() {
					p.waitStopped()
					return
				}
			}
			continue
		case r := <-p.rangeRes:
			if p.cancelled.IsZero() && p.ctx.Err() == nil {
				p.rangeSettled = true
				switch {
				case r.bug != nil:
					// a checked answer that failed its check
					p.fatal = r.bug
					p.stop()
					p.waitStopped()
					return
				case r.clean:
					p.noRangeErr = true
					p.stats.RangeCheck = "ic3 proved that no run meets a range error (certificate checked)"
				case r.found != nil:
					p.rangeFound = r.found
					p.stats.RangeCheck = fmt.Sprintf("ic3 found a range error %d steps from the start (the run replays)", r.found.Steps())
				default:
					p.stats.RangeCheck = "undecided: " + r.why
				}
			}
			if p.held != nil && p.cancelled.IsZero() {
				if p.release(); !p.cancelled.IsZero() {
					p.waitStopped()
					return
				}
			}
			continue
		case b := <-p.bmcRes:
			if p.cancelled.IsZero() && p.ctx.Err() == nil {
				p.bmcSettled, p.bmcDrained = true, b.drained
				if p.bmcDone(b); !p.cancelled.IsZero() {
					p.waitStopped()
					return
				}
			}
			continue
		case <-head.C:
			if p.parallel && p.winner == nil && p.fatal == nil && p.cancelled.IsZero() && p.ctx.Err() == nil {
				p.startOthers()
			}
			continue
		case <-done:
			done = nil
			t := time.NewTimer(autoGrace)
			defer t.Stop()
			grace = t.C
			continue
		case <-grace:
			return
		case o = <-p.out:
		}
		p.record(o)
		if !p.cancelled.IsZero() {
			continue
		}
		p.decide(o, head)
		if p.running > 0 && !p.cancelled.IsZero() {
			p.waitStopped()
			return
		}
	}
}

// decide acts on a member's outcome that arrived before any cancellation.
func (p *portfolio) decide(o autoOutcome, head *time.Timer) {
	var ie *InternalError
	switch {
	case errors.As(o.err, &ie), o.i == 0 && o.err != nil:
		// A bug, or an error of the model that the explicit
		// semantics (the ground truth) reports.
		p.fatal = o.err
		p.stop()
	case o.err == nil && o.i > 0 && o.v.Answer == explicit.UnsafeVerdict:
		// the hunter's counterexample, or IC3's (whose obligations and
		// random walks do not make it the shortest either: s32b_auto_ic3
		// _counterexample_held, IC3's 25 steps where bfs meets a range
		// error in 12), wins once no range error lies closer to the
		// start (release); of two, the shorter is held
		if p.held == nil || len(o.v.Trace) < len(p.held.Trace) {
			p.held, p.heldBy = o.v, o.i
		}
		p.stats.Members[o.i].Outcome = "held"
		p.stats.Members[o.i].Reason = fmt.Sprintf("a counterexample of %d steps, held while bfs may meet a range error in fewer steps", len(o.v.Trace)-1)
		if p.bounds == nil {
			p.bounds = make(chan boundsAnswer, 1)
			m, ctx := p.q.Model, p.ictx
			go func() { p.bounds <- checkBounds(ctx, m) }()
		}
		p.release()
	case p.held != nil && p.ctx.Err() == nil && o.i == 0 && o.err == nil && o.v.Answer == explicit.Unknown:
		// bfs gave way: it will meet no range error the held
		// counterexample should give way to
		p.bfsGaveWay = true
		p.release()
	case o.err == nil && o.v.Answer != explicit.Unknown && p.held != nil && o.v.Answer != p.held.Answer:
		// A checked verdict that contradicts the held counterexample,
		// which replayed: a bug in vigil, as when the hunter's answer
		// comes second ("decided too late", record). Making it the
		// winner dropped the replayed counterexample unseen.
		p.fatal = internal("the members of the portfolio disagree: %s answered %s while the hunter's counterexample (checked too) was held", o.v.Engine, o.v.Answer)
		p.stop()
	case o.err == nil && o.v.Answer != explicit.Unknown:
		p.winner = o.v
		p.stats.Winner = o.v.Engine
		p.stop()
	case p.pendingErr == nil && p.huntRangeError() != nil:
		// The hunter met a range error on a run of the policy from a
		// start state, and bfs, which reports the errors of the model,
		// gave way before it: the error is the answer, as bfs's would
		// be (the portfolio answered unknown, 'next: a longer
		// --timeout', with the error in the hunter's outcome only),
		// once the bounded question says no unsafe state lies closer
		// (pend).
		p.pend(p.huntRangeError())
	case p.pendingErr == nil && p.held == nil && reachedRangeError(p.errs[1]) && p.stats.Members[0].ended() && p.results[0] != nil && p.results[0].Answer == explicit.Unknown && p.bmcExactQ():
		// IC3's own range error (without its run) after bfs gave way:
		// the bounded question, exact here, finds the shallowest bad
		// state with a run that replays (pend)
		p.pend(p.errs[1])
	case p.stats.Members[0].ended() && p.stats.Members[1].ended() && !p.awaitingRange():
		// bfs and IC3 ended undecided: the hunter cannot prove
		// safety, so the portfolio gives up.
		p.stop()
	case o.i == 0 && p.stats.Members[1].Outcome == "not started":
		// bfs gave way before the others started: start them now.
		if p.ctx.Err() == nil {
			head.Stop()
			p.startOthers()
		} else {
			p.stop()
		}
	}
}

// heldNote begins what the reason of the portfolio's unknown adds about
// a held counterexample (the text report prints it after "before a
// verdict").
const heldNote = "; the hunter found a counterexample of "

// pendNote begins what the reason of the portfolio's unknown adds about
// a range error met without a run and held back (pend).
const pendNote = "; a range error was met "

// reachedRangeError reports whether err is IC3's report of a range error
// on a path from a start state (not a refusal of the question).
func reachedRangeError(err error) bool {
	var re *explicit.RangeError
	return err != nil && (errors.As(err, &re) || strings.HasPrefix(err.Error(), "ic3: a state reachable in "))
}

// release answers the held counterexample (d steps) or the replayed
// range error of the range question (k steps) once no bad state of the
// other kind lies closer to the start (lang/spec.md, Range errors: the
// shallowest bad state first; autobmc.go):
//
//   - the counterexample once no range error lies fewer than d steps
//     from the start: bfs has begun layer d (it expanded every state
//     before), no run meets a range error at all (the bounds check or the
//     range question, autorange.go), or the bounded question found none
//     in fewer than d steps;
//   - the range error, when k < d (or k = d), once no unsafe state lies
//     fewer than k steps from the start: bfs has begun layer k, or the
//     bounded question found none. Until session 33 it was answered at
//     once, as ic3 alone answers it, though an unsafe state closer still
//     was not ruled out (IC3's runs are not the shortest).
//
// When bfs gave way and neither is settled, the bounded question is asked
// (once); its witness, which replayed, is the answer when it comes
// (bmcDone). Otherwise the answer waits: when nothing settles it, the
// portfolio answers unknown unless another member decides
// (s32b_auto_policy_range_error.txtar: a policy's range error 16 steps
// from the start, which IC3 reports without a run, and a counterexample
// of 25 steps were answered unsafe when bfs gave way). An unreplayed
// range error never overrides the counterexample.
func (p *portfolio) release() {
	v := p.held
	if v == nil {
		return
	}
	if p.results[0] != nil && p.errs[0] == nil && p.results[0].Answer == explicit.Unknown && p.ctx.Err() == nil {
		p.bfsGaveWay = true
	}
	d, bd := len(v.Trace)-1, p.bfsDepth.Load()
	clearRange := func(n int) bool {
		return p.noRangeErr || bd >= int64(n) || p.bmc != nil && p.bmc.rangeClear.Load() >= int64(n)
	}
	clearUnsafe := func(n int) bool {
		return bd >= int64(n) || p.bmc != nil && p.bmc.unsafeClear.Load() >= int64(n)
	}
	f := p.rangeFound
	if f != nil && f.Steps() <= d && clearUnsafe(f.Steps()) {
		// the answer ic3 alone gives (a range error it reaches comes
		// first), with a run that replays, closer to the start than the
		// counterexample and than every unsafe state
		p.answerRange(f, d)
		return
	}
	if !clearRange(d) || f != nil && f.Steps() < d {
		if (p.bfsGaveWay || p.rangeSettled) && p.ctx.Err() == nil && p.cancelled.IsZero() {
			p.askBounded()
		}
		return
	}
	p.bmcNote()
	p.held = nil
	p.winner = v
	p.stats.Winner = v.Engine
	p.stats.Members[p.heldBy].Outcome, p.stats.Members[p.heldBy].Reason = "won", ""
	for i := 1; i < len(p.stats.Members); i++ {
		if m := &p.stats.Members[i]; i != p.heldBy && m.Outcome == "held" {
			// the other member's counterexample, no shorter
			m.Outcome, m.Reason = "unsafe too", fmt.Sprintf("a counterexample of %d steps", len(p.results[i].Trace)-1)
		}
	}
	if reachedRangeError(p.errs[1]) {
		// IC3's report of a range error, without a run that replays
		p.stats.Members[1].Outcome = "unconfirmed"
	}
	p.stop()
}

// pend answers err, a range error the hunter or IC3 met (without a run
// the portfolio can measure: a walk's error names only its state), once
// no unsafe state can lie closer. Where the bounded question is exact (no
// policy, a rules or table policy), it is asked without a limit: a range
// error is reachable, so it finds the shallowest bad state, whose run
// replays, and that is the answer (bmcDone). Under a network or ensemble
// policy, or when the question ends without a witness (Z3's unknown,
// its term limit), err is the answer as before session 33: an unsafe
// state closer to the start is then not ruled out (lang/spec.md). When
// the user's timeout or interrupt ends the run first, the answer is
// unknown, whose reason names err (result, pendNote).
func (p *portfolio) pend(err error) {
	if !p.bmcExactQ() || p.bmcSettled && !p.bmcDrained || p.ctx.Err() != nil {
		p.fatal = err
		p.stop()
		return
	}
	p.pendingErr = err
	p.askBounded()
}

// bmcExactQ reports whether the bounded question is exact for the
// portfolio's question.
func (p *portfolio) bmcExactQ() bool { return bmcExact(p.q) && !p.bmcFree }

// answerRange makes the replayed range error f the portfolio's answer in
// place of the held counterexample of d steps.
func (p *portfolio) answerRange(f *rangeFound, d int) {
	p.bmcNote()
	if p.held != nil {
		p.stats.Members[p.heldBy].Reason = fmt.Sprintf("a counterexample of %d steps; a range error lies %d steps from the start", d, f.Steps())
	}
	p.held = nil
	p.fatal = f.Error()
	p.stop()
}

// askBounded asks the bounded question, or tells the one running how far
// each kind is now needed (bmcLimits), or asks it again when it asked all
// it was asked and the limits grew since.
func (p *portfolio) askBounded() {
	u, r := p.bmcLimits()
	if p.bmc == nil {
		p.bmc = &bmcState{free: p.bmcFree}
	}
	st := p.bmc
	st.uLimit.Store(u)
	st.rLimit.Store(r)
	if p.bmcRes != nil && (!p.bmcSettled || !p.bmcDrained) {
		return // running, or ended for good (a stop, Z3's unknown)
	}
	if p.bmcRes != nil && (st.uShut.Load() || st.unsafeClear.Load() >= u) && (st.rShut.Load() || st.rangeClear.Load() >= r) {
		return // nothing more to ask
	}
	p.bmcRes = make(chan bmcOutcome, 1)
	p.bmcSettled, p.bmcDrained = false, false
	p.stats.Bounded = bmcAsked
	q, ctx, ask := p.q, p.ictx, p.bmcAsk
	go func() { p.bmcRes <- ask(ctx, q, st) }()
}

// bmcLimits is how far the bounded question needs each kind: for a range
// error met without a run (pend), as far as it takes; for the range
// question's range error of k steps, unsafe states below k (no range
// error need be asked: one lies k steps out); for a held counterexample
// of d steps, range errors below d, and where the relation is exact
// unsafe states too (a shorter counterexample, its run replayed).
func (p *portfolio) bmcLimits() (u, r int64) {
	if p.pendingErr != nil {
		return bmcNoLimit, bmcNoLimit
	}
	if p.held == nil {
		return 0, 0
	}
	d := int64(len(p.held.Trace) - 1)
	if f := p.rangeFound; f != nil && int64(f.Steps()) < d {
		return int64(f.Steps()), 0
	}
	if p.bmcExactQ() {
		return d, d
	}
	return 0, d
}

// bmcNote writes what the bounded question established so far into
// AutoStats.Bounded.
func (p *portfolio) bmcNote() {
	if st := p.bmc; st != nil {
		p.stats.Bounded = fmt.Sprintf("no unsafe state in fewer than %d steps, no range error in fewer than %d", st.unsafeClear.Load(), st.rangeClear.Load())
	}
}

// bmcAsked is AutoStats.Bounded while the bounded question runs.
const bmcAsked = "not settled: the bounded question was still asked"

// bmcDone acts on the end of the bounded question: its witness, which
// replayed, is the shallowest bad state and the answer; otherwise what it
// established stays in p.bmc for release.
func (p *portfolio) bmcDone(b bmcOutcome) {
	p.bmcNote()
	switch {
	case b.bug != nil:
		p.fatal = b.bug
		p.stop()
		return
	case b.cex != nil:
		p.stats.Bounded += fmt.Sprintf("; an unsafe state %d steps from the start (the run replays)", len(b.cex)-1)
		v := &Verdict{Engine: "bmc", Answer: explicit.UnsafeVerdict, Trace: b.cex}
		if h := p.held; h != nil {
			p.stats.Members[p.heldBy].Outcome = "unsafe too"
			p.stats.Members[p.heldBy].Reason = fmt.Sprintf("a counterexample of %d steps", len(h.Trace)-1)
		}
		p.held = nil
		p.winner = v
		p.stats.Winner = v.Engine
		p.stop()
		return
	case b.found != nil:
		p.stats.Bounded += fmt.Sprintf("; a range error %d steps from the start (the run replays)", b.found.Steps())
		d := 0
		if p.held != nil {
			d = len(p.held.Trace) - 1
		}
		p.answerRange(b.found, d)
		return
	case b.why != "":
		p.stats.Bounded += "; " + b.why
	}
	if p.held == nil && p.pendingErr != nil {
		// no witness: the range error met before, as it was answered
		// before session 33 (pend)
		p.fatal = p.pendingErr
		p.stop()
		return
	}
	if p.held != nil && p.cancelled.IsZero() {
		p.release()
	}
}

// awaitingRange reports whether the held counterexample waits for the
// bounds check or the range question, which the loop then waits for
// even when no member runs.
func (p *portfolio) awaitingRange() bool {
	if p.held == nil && p.pendingErr == nil || !p.cancelled.IsZero() || p.ctx.Err() != nil {
		return false
	}
	return p.bounds != nil && !p.rangeSettled || p.bmc != nil && !p.bmcSettled
}

// rangeAsked is AutoStats.RangeCheck while the range question runs.
const rangeAsked = "not settled: ic3 was still asked whether a run meets one"

// askRange asks the range question (once), on the hunter's core.
func (p *portfolio) askRange() {
	if p.rangeRes != nil {
		return
	}
	p.rangeRes = make(chan rangeOutcome, 1)
	p.stats.RangeCheck = rangeAsked
	q, ctx, ask := p.q, p.ictx, p.rangeAsk
	go func() { p.rangeRes <- ask(ctx, q) }()
}

// checkBounds asks smt.CheckBounds whether some outcome can leave a
// range; only a complete check that found none is clean (a stop of ctx,
// or the solver's own stop, leaves the question open).
func checkBounds(ctx context.Context, m *symbolic.Model) boundsAnswer {
	res, err := smt.CheckBounds(m, smt.CheckOptions{Context: ctx, First: true})
	if ctx.Err() != nil {
		return boundsAnswer{stopped: true}
	}
	if err != nil || res == nil {
		return boundsAnswer{}
	}
	return boundsAnswer{clean: len(res.Violations) == 0 && len(res.Undecided) == 0 && !res.Stopped}
}

// waitStopped waits for the cancelled members, at most autoGrace.
func (p *portfolio) waitStopped() {
	deadline := time.NewTimer(autoGrace)
	defer deadline.Stop()
	for p.running > 0 {
		select {
		case o := <-p.out:
			p.record(o)
		case <-deadline.C:
			return
		}
	}
}

// markStragglers records the members still running after autoGrace.
func (p *portfolio) markStragglers() {
	for i := range p.stats.Members {
		m := &p.stats.Members[i]
		if m.Outcome != "running" {
			continue
		}
		m.Seconds = time.Since(p.began[i]).Seconds()
		m.Outcome, m.Reason = "cancelled", fmt.Sprintf("still running after %s", autoGrace)
		if r := stopReason(p.ctx); r != "" {
			m.Outcome, m.Reason = "unknown", fmt.Sprintf("%s; still running after %s", r, autoGrace)
		}
		if !p.cancelled.IsZero() {
			m.StopSeconds = time.Since(p.cancelled).Seconds()
		}
	}
}

// result is the portfolio's verdict: the winner's, a bug, IC3's refusal,
// or the portfolio's own unknown (engine auto), whose AutoStats name what
// each member reached; elapsed is the portfolio's time.
func (p *portfolio) result(elapsed time.Duration) (*Verdict, error) {
	if p.fatal != nil {
		return nil, p.fatal
	}
	if p.winner != nil {
		p.winner.Auto, p.winner.checked = p.stats, p.q
		p.ownSemantics(p.winner)
		return p.winner, nil
	}
	// IC3's refusal (an unsafe condition that folds to false, a range
	// beyond ±2^53) speaks for the portfolio only when bfs gave way on its
	// own: after a timeout or an interrupt the answer is unknown, as it
	// was when auto ran bfs, then ic3 (the refusal stays in the members'
	// outcomes).
	if p.errs[1] != nil && stopReason(p.ctx) == "" && p.held == nil {
		return nil, p.errs[1]
	}
	// The reason: the user's timeout or interrupt, else IC3's (which
	// ends undecided only for a cause of its own), else bfs's.
	v := &Verdict{Engine: "auto", Answer: explicit.Unknown, Reason: stopReason(p.ctx), Elapsed: elapsed, Auto: p.stats, checked: p.q}
	for _, i := range []int{1, 0} {
		if r := p.results[i]; v.Reason == "" && r != nil {
			v.Reason = r.Reason
		}
	}
	if v.Reason == "" {
		v.Reason = "no member of the portfolio decided"
	}
	if h := p.held; h != nil {
		note := heldNote
		if p.heldBy != 2 {
			note = strings.Replace(note, "the hunter", p.stats.Members[p.heldBy].Engine, 1)
		}
		v.Reason += fmt.Sprintf("%s%d steps, held back while bfs searched: a range error in fewer steps (the answer of bfs and ic3, an error of the model) is not ruled out", note, len(h.Trace)-1)
	} else if e := p.pendingErr; e != nil {
		// the range error the hunter or IC3 met, held back while the
		// bounded question asked whether an unsafe state lies closer
		// (pend): named as a held counterexample is (it was in the
		// members' outcomes only, and before session 33 it was the
		// answer)
		v.Reason += fmt.Sprintf("%s(%v), held back while the bounded question asked whether an unsafe state lies closer to the start", pendNote, e)
	}
	return v, nil
}

// ownSemantics gives v, the winner, a question of its own for its
// report when a member still runs after autoGrace: bfs decides with the
// question's own decider (p.q.Dec), which the report's explanations of
// the counterexample (Report.why) would use at the same time; a
// decider keeps scratch space and is not safe for concurrent use (a
// network's or ensemble's garbled the scores the report printed, a race).
// The straggler's decider is never touched again from here.
func (p *portfolio) ownSemantics(v *Verdict) {
	if p.running == 0 || p.q.Dec == nil {
		return
	}
	own := *p.q
	own.Dec = nil // no explanations rather than a shared decider
	if p.parallel {
		if d, err := p.q.newDecider(); err == nil {
			own.Dec = d
		}
	}
	v.prep = &own
}

// ended reports whether the member has started and ended.
func (m AutoMember) ended() bool { return m.Outcome != "running" && m.Outcome != "not started" }

// huntRangeError returns the range error the hunter stopped on once bfs
// has ended without a verdict or an error (nil otherwise).
func (p *portfolio) huntRangeError() error {
	var re *explicit.RangeError
	if len(p.errs) < 3 || !errors.As(p.errs[2], &re) {
		return nil
	}
	if r := p.results[0]; r == nil || r.Answer != explicit.Unknown || p.errs[0] != nil {
		return nil
	}
	return p.errs[2]
}
