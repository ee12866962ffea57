package verify

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"time"

	"vigil/symbolic/explicit"
)

// The auto portfolio runs three members at once on the available cores:
//
//   - bfs up to a state budget (AutoStates, or Limits.MaxStates when
//     smaller): it decides small spaces exactly and gives shortest
//     counterexamples;
//   - IC3, or PolIC3 for a learned policy, with generalization: it proves
//     safety of spaces no search can store;
//   - the hunter (hunt.go): random walks of the policy, which find deep
//     counterexamples that IC3 reaches only after many frames.
//
// Every member's answer is checked as a single engine's is (a
// counterexample replays, an invariant goes through ic3/cert); the first
// checked verdict wins and the others are cancelled through their context.
// IC3 and the hunter start after bfs has had AutoHeadStart to itself, so
// that small models, which bfs decides at once, get its answer every time.
// The portfolio gives up (Unknown) when bfs and IC3 have both ended
// without a verdict: the hunter cannot prove safety.

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
}

// AutoMember is one member's outcome.
type AutoMember struct {
	Engine  string  `json:"engine"`  // bfs, ic3 or polic3, hunt
	Outcome string  `json:"outcome"` // won, unknown, cancelled, error, not started
	Reason  string  `json:"reason,omitempty"`
	Seconds float64 `json:"seconds"`
	// StopSeconds is how long a cancelled member took to stop once the
	// winner was known.
	StopSeconds float64 `json:"stop_seconds,omitempty"`
	States      int     `json:"states,omitempty"` // bfs: states stored
	Walks       int     `json:"walks,omitempty"`  // hunt: random walks made
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

func decideAuto(ctx context.Context, q *Prepared) (*Verdict, error) {
	budget := q.Limits.MaxStates
	if budget == 0 || budget > AutoStates {
		budget = AutoStates
	}
	ictx, cancel := context.WithCancel(ctx)
	defer cancel()
	members := []struct {
		name string
		run  func(context.Context, *Prepared) (*Verdict, error)
	}{
		{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) { return bfs(ctx, q, budget) }},
		{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) { return decideIC3(ctx, q, true) }},
		{"hunt", hunt},
	}
	t0 := time.Now()
	stats := &AutoStats{Cores: runtime.GOMAXPROCS(0)}
	defer func() { stats.Seconds = time.Since(t0).Seconds() }()
	running := 0
	for _, m := range members {
		stats.Members = append(stats.Members, AutoMember{Engine: m.name, Outcome: "not started"})
	}
	// An in-memory policy (Executable) cannot be instantiated once per
	// goroutine: bfs and then IC3 run one after the other on it, and the
	// hunter does not run.
	parallel := q.Executable == nil
	if !parallel {
		stats.Members[2].Reason = "an in-memory policy is not shared between goroutines"
	}
	// The members report progress through one lock.
	var progMu sync.Mutex
	progress := q.Progress
	if progress != nil {
		progress = func(p Progress) {
			progMu.Lock()
			defer progMu.Unlock()
			q.Progress(p)
		}
	}
	out := make(chan autoOutcome, len(members))
	began := make([]time.Time, len(members))
	start := func(i int) {
		began[i] = time.Now()
		stats.Members[i].Outcome = "running"
		// Each member gets its own copy of the question, with its own
		// decider of the policy (deciders keep per-state caches and
		// scratch space), which also checks its answer.
		qi, qq := *q, *q.Question
		qq.Progress = progress
		qi.Question = &qq
		go func() {
			var v *Verdict
			var err error
			if i > 0 && q.Policy != nil && parallel {
				qi.Dec, err = q.newDecider()
			}
			if err == nil {
				v, err = members[i].run(ictx, &qi)
			}
			if err == nil {
				err = qi.check(ictx, v)
			}
			out <- autoOutcome{i, v, err, time.Now()}
		}()
	}
	startOthers := func() {
		start(1)
		running++
		if parallel {
			start(2)
			running++
		}
	}
	start(0)
	running = 1
	head := time.NewTimer(AutoHeadStart)
	defer head.Stop()
	results := make([]*Verdict, len(members))
	errs := make([]error, len(members))
	var winner *Verdict
	var fatal error
	var cancelled time.Time
	record := func(o autoOutcome) {
		running--
		m := &stats.Members[o.i]
		m.Seconds = o.end.Sub(began[o.i]).Seconds()
		results[o.i], errs[o.i] = o.v, o.err
		if v := o.v; v != nil {
			m.Engine = v.Engine // ic3 is polic3 for a learned policy
			if v.BFS != nil {
				m.States = v.BFS.Stats.States
			}
			if v.Hunt != nil {
				m.Walks = v.Hunt.Walks
			}
		}
		switch {
		case !cancelled.IsZero():
			m.Outcome, m.StopSeconds = "cancelled", o.end.Sub(cancelled).Seconds()
			if o.v != nil && o.v.Answer != explicit.Unknown && o.err == nil {
				m.Outcome, m.Reason = "decided too late", o.v.Answer.String()
			}
		case o.err != nil:
			m.Outcome, m.Reason = "error", o.err.Error()
		case o.v.Answer != explicit.Unknown:
			m.Outcome = "won"
		default:
			m.Outcome, m.Reason = "unknown", o.v.Reason
		}
	}
	stop := func() {
		if cancelled.IsZero() {
			cancelled = time.Now()
			cancel()
		}
	}
	for running > 0 {
		var o autoOutcome
		select {
		case <-head.C:
			if parallel && winner == nil && fatal == nil && cancelled.IsZero() && ctx.Err() == nil {
				startOthers()
			}
			continue
		case o = <-out:
		}
		record(o)
		if !cancelled.IsZero() {
			continue
		}
		var ie *InternalError
		switch {
		case errors.As(o.err, &ie), o.i == 0 && o.err != nil:
			// A bug, or an error of the model that the explicit
			// semantics (the ground truth) reports.
			fatal = o.err
			stop()
		case o.err == nil && o.v.Answer != explicit.Unknown:
			winner = o.v
			stats.Winner = o.v.Engine
			stop()
		case stats.Members[0].ended() && stats.Members[1].ended():
			// bfs and IC3 ended undecided: the hunter cannot prove
			// safety, so the portfolio gives up.
			stop()
		case o.i == 0 && stats.Members[1].Outcome == "not started":
			// bfs gave way before the others started: start them now.
			if ctx.Err() == nil {
				head.Stop()
				startOthers()
			} else {
				stop()
			}
		}
		if running > 0 && !cancelled.IsZero() {
			// Wait for the others to stop, at most autoGrace.
			deadline := time.NewTimer(autoGrace)
		wait:
			for running > 0 {
				select {
				case o := <-out:
					record(o)
				case <-deadline.C:
					break wait
				}
			}
			deadline.Stop()
			break
		}
	}
	for i := range stats.Members {
		if stats.Members[i].Outcome == "running" {
			stats.Members[i].Outcome = "cancelled"
			stats.Members[i].StopSeconds = time.Since(cancelled).Seconds()
			stats.Members[i].Reason = fmt.Sprintf("still running after %s", autoGrace)
		}
	}
	if fatal != nil {
		return nil, fatal
	}
	if winner != nil {
		winner.Auto = stats
		return winner, nil
	}
	// No verdict: IC3's answer (or its error) speaks for the portfolio,
	// as it did when auto was bfs, then ic3.
	if errs[1] != nil {
		return nil, errs[1]
	}
	v := results[1]
	if v == nil {
		v = results[0]
	}
	if v == nil {
		v = &Verdict{Engine: "auto"}
	}
	v.Answer = explicit.Unknown
	if r := stopReason(ctx); r != "" {
		v.Reason = r
	}
	v.Auto = stats
	return v, nil
}

// ended reports whether the member has started and ended.
func (m AutoMember) ended() bool { return m.Outcome != "running" && m.Outcome != "not started" }
