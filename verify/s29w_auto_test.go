package verify

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	invcert "vigil/ic3/cert"
	"vigil/internal/untildone"
	"vigil/lang"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Review of session 29's portfolio checks (wave 2): legitimate runs where
// members decide at nearly the same time, with different evidence, or are
// cut short in their checks after the winner must keep the verdict and
// never become an internal error (exit 70).

// s29wTwoPaths is unsafe by two different runs (a then b, b then a, a a a
// ...), so bfs, ic3 and the hunter find different counterexamples.
const s29wTwoPaths = "model m\nvar x : 0 .. 9 = 0\nvar y : 0 .. 9 = 0\n" +
	"action a when x < 9 -> x' = x + 1\naction b when y < 9 -> y' = y + 1\n" +
	"property p { unsafe x + y == 3 }\n"

// s29wSafe is safe: x stays below 5, and the invariant x <= 4 is
// inductive.
const s29wSafe = "model m\nvar x : 0 .. 9 = 0\n" +
	"action a when x < 4 -> x' = x + 1\naction r when x == 4 -> x' = 0\n" +
	"property p { unsafe x == 7 }\n"

func s29wPrepare(t *testing.T, src string) *Prepared {
	t.Helper()
	m, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// barrier returns members that each decide with run, then wait until all
// n have decided (or ctx ends), so that their outcomes reach the
// portfolio at the same moment.
func barrier(n int) func(name string, run func(context.Context, *Prepared) (*Verdict, error)) autoMember {
	var wg sync.WaitGroup
	wg.Add(n)
	all := make(chan struct{})
	go func() { wg.Wait(); close(all) }()
	return func(name string, run func(context.Context, *Prepared) (*Verdict, error)) autoMember {
		return autoMember{name, func(ctx context.Context, q *Prepared) (*Verdict, error) {
			v, err := run(ctx, q)
			wg.Done()
			<-all
			return v, err
		}}
	}
}

// s29wWant runs the portfolio of members on q (run i of a loop) and
// wants the answer want, with no member ended in error.
func s29wWant(t *testing.T, i int, q *Prepared, members []autoMember, want explicit.Verdict) {
	t.Helper()
	v, err := runPortfolio(q, members)
	if err != nil || v.Answer != want {
		t.Fatalf("run %d: got %v, %v; want %v", i, v, err, want)
	}
	for _, m := range v.Auto.Members {
		if m.Outcome == "error" {
			t.Fatalf("run %d: member %s ended in error: %s", i, m.Engine, m.Reason)
		}
	}
}

func ic3Member(ctx context.Context, q *Prepared) (*Verdict, error) {
	own := *q
	own.IC3.NoWalks = true
	return decideIC3(ctx, &own, true)
}

// TestS29wUnsafeAtOnce: bfs, ic3 and the hunter each find a (different)
// counterexample and report it at the same moment: both later ones are
// "decided too late" (the same answer with other evidence is no
// disagreement), and the portfolio answers unsafe, never an internal
// error.
func TestS29wUnsafeAtOnce(t *testing.T) {
	for i := 0; i < 20; i++ {
		q := s29wPrepare(t, s29wTwoPaths)
		b := barrier(3)
		members := []autoMember{
			b("bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) { return bfs(ctx, q, 0) }),
			b("ic3", ic3Member),
			b("hunt", hunt),
		}
		s29wWant(t, i, q, members, explicit.UnsafeVerdict)
	}
}

// TestS29wSafeAtOnce: bfs (exhaustive) and ic3 (an invariant, whose check
// runs under a context the winner may have cancelled) say safe at the
// same moment: safe, whichever wins, and ic3's check cut short is
// "cancelled", not an error.
func TestS29wSafeAtOnce(t *testing.T) {
	for i := 0; i < 10; i++ {
		q := s29wPrepare(t, s29wSafe)
		b := barrier(2)
		members := []autoMember{
			b("bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) { return bfs(ctx, q, 0) }),
			b("ic3", ic3Member),
			{"hunt", hunt},
		}
		s29wWant(t, i, q, members, explicit.Safe)
	}
}

// TestS29wCheckCutShortAfterWinner: a member whose invariant reaches its
// check only after the winner is known has its check run under the
// cancelled context; the end of ctx never fails a check, so a check cut
// short (here an invariant that would not check) makes the member
// "cancelled", and the winner's verdict stands.
func TestS29wCheckCutShortAfterWinner(t *testing.T) {
	q := s29wPrepare(t, s29wSafe)
	late := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		// an invariant that holds nowhere: its check fails at once
		c := &invcert.Cert{Vars: []string{"x"}, Inv: [][]smt.Lit{}}
		return &Verdict{Answer: explicit.Safe, Engine: "ic3", Invariant: c}, nil
	}}
	idle := autoMember{"hunt", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "hunt", Answer: explicit.Unknown}, nil
	}}
	honest := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) { return bfs(ctx, q, 0) }}
	p := newPortfolio(context.Background(), q, []autoMember{honest, late, idle})
	defer p.cancel()
	p.start(0)
	p.start(1)
	p.start(2)
	for p.running > 0 && p.winner == nil && p.fatal == nil {
		o := <-p.out
		p.record(o)
		if p.cancelled.IsZero() {
			p.decide(o, nil)
		}
	}
	p.waitStopped()
	v, err := p.result(0)
	if err != nil || v.Answer != explicit.Safe || v.Engine != "bfs" {
		t.Fatalf("got %v, %v; want bfs's safe", v, err)
	}
	if m := p.stats.Members[1]; m.Outcome != "cancelled" {
		t.Errorf("the member cut short in its check ended %s (%s); want cancelled", m.Outcome, m.Reason)
	}
}

// s29wRangeOrUnsafe has both a range error (action b at x == 30) and an
// unsafe state (x == 40) reachable: bfs reports the range error, the
// hunter may find the unsafe run first, ic3 either. No combination is a
// disagreement of checked verdicts, and none is an internal error.
const s29wRangeOrUnsafe = "model m\nvar x : 0 .. 50 = 0\nvar y : 0 .. 3 = 0\n" +
	"action a when x < 50 -> x' = x + 1\naction b when x == 30 -> y' = y + 7\n" +
	"property p { unsafe x == 40 }\n"

func TestS29wRangeErrorIsNoDisagreement(t *testing.T) {
	for _, maxStates := range []int{0, 5} {
		for i := 0; i < 5; i++ {
			m, diags := lang.LoadSource("m.spec", []byte(s29wRangeOrUnsafe), lang.Options{})
			if diags.HasErrors() {
				t.Fatal(diags.Render())
			}
			v, err := Decide(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto", Limits: Limits{MaxStates: maxStates}})
			var ie *InternalError
			var re *explicit.RangeError
			switch {
			case errors.As(err, &ie):
				t.Fatalf("max-states %d: internal error %v", maxStates, err)
			case err != nil && !errors.As(err, &re) && maxStates == 0:
				t.Fatalf("max-states %d: got %v; want bfs's range error", maxStates, err)
			case err == nil && v.Answer != explicit.UnsafeVerdict:
				t.Fatalf("max-states %d: got %s (%s); want unsafe or the range error", maxStates, v.Answer, v.Reason)
			}
		}
	}
}

// TestS29wStragglerKeepsItsDecider: when bfs is still running after
// autoGrace (a slow policy that bfs looks at its context seldom under)
// and another member won, the winner's report explains the
// counterexample with a decider of its own, never with the one bfs is
// still using (Report.why on p.q.Dec raced with the straggler).
func TestS29wStragglerKeepsItsDecider(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte(s29wPolicyUnsafe), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Policy: m.Policies[0], Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	defer close(release)
	straggler := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-release // still deciding with q.Dec long after the winner
		return &Verdict{Engine: "bfs", Answer: explicit.Unknown}, nil
	}}
	idle := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "ic3", Answer: explicit.Unknown}, nil
	}}
	v, err := runPortfolio(q, []autoMember{straggler, idle, {"hunt", hunt}})
	if err != nil || v.Answer != explicit.UnsafeVerdict {
		t.Fatalf("got %v, %v; want the hunter's unsafe", v, err)
	}
	if v.prep == nil || v.prep.Dec == nil || v.prep.Dec == q.Dec {
		t.Fatalf("the winner's report would share bfs's decider (prep %p)", v.prep)
	}
	// the report explains the counterexample with it
	if line := NewReport(q.Question, v).why(v.Trace[0], &explicit.Expansion{}); line == "" {
		t.Errorf("no explanation of the policy's first choice")
	}
}

// s29wPolicyUnsafe: the rules policy walks x up to the unsafe 3.
const s29wPolicyUnsafe = "model m\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\n" +
	"policy rules up {\n    when true -> a\n}\nproperty p { unsafe x == 3 }\n"

// TestS29wAbandonedLoadEnds: a policy load that Decide stopped waiting for
// (the end of its context) runs on and ends on its own; when it then
// panics, the panic is caught in its goroutine, not a crash of vigil after
// the verdict was printed, and no goroutine is left behind.
func TestS29wAbandonedLoadEnds(t *testing.T) {
	const kind symbolic.PolicyKind = "s29w-slow-panic"
	release := make(chan struct{})
	var started sync.WaitGroup
	symbolic.RegisterKind(kind, func(m *symbolic.Model, d *symbolic.PolicyDecl) (symbolic.Policy, error) {
		started.Done()
		<-release
		panic("a loader that fails after the question stopped waiting")
	})
	m, diags := lang.LoadSource("m.spec", []byte(s29vUnsafe), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	before := runtime.NumGoroutine()
	// as many as untildone lets run on abandoned at once: the next load
	// would wait for one of them to end, and this test's contexts end
	// only once a load has started
	n := untildone.MaxAbandoned
	for i := 0; i < n; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		started.Add(1)
		go func() { started.Wait(); cancel() }()
		decl := &symbolic.PolicyDecl{Name: "slow", Kind: kind, File: "slow.bin", Outputs: []symbolic.LabelID{0}}
		v, err := Decide(ctx, &Question{Model: m, Property: m.Properties[0], Policy: decl, Engine: "auto"})
		if err != nil || v.Answer != explicit.Unknown || !strings.Contains(v.Reason, "while loading the policy") {
			t.Fatalf("got %v, %v; want unknown while loading the policy", v, err)
		}
		cancel()
	}
	close(release) // every abandoned load panics now
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > before {
		t.Errorf("%d goroutines after the abandoned loads ended; %d before", g, before)
	}
}

// TestS29wNoVerdictAfterTimeoutAndWinner: a member that answers nothing
// (no verdict, no error) after the winner and after the user's timeout is
// still a failed check, a bug (exit 70), as it is before either: session
// 29's record() made it the member's "error" outcome and kept the
// winner's verdict when the user's context had ended too.
func TestS29wNoVerdictAfterTimeoutAndWinner(t *testing.T) {
	q := s29wPrepare(t, s29wSafe)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	won := make(chan struct{})
	honest := autoMember{"bfs", func(c context.Context, q *Prepared) (*Verdict, error) {
		defer close(won)
		return bfs(c, q, 0)
	}}
	broken := autoMember{"ic3", func(c context.Context, q *Prepared) (*Verdict, error) {
		<-c.Done() // the winner is known
		cancel()   // and the user's timeout ends too
		return nil, nil
	}}
	idle := autoMember{"hunt", func(c context.Context, q *Prepared) (*Verdict, error) {
		<-c.Done()
		return &Verdict{Engine: "hunt", Answer: explicit.Unknown}, nil
	}}
	p := newPortfolio(ctx, q, []autoMember{honest, broken, idle})
	defer p.cancel()
	p.start(1)
	p.start(2)
	p.start(0)
	<-won
	for p.winner == nil {
		o := <-p.out
		p.record(o)
		if p.cancelled.IsZero() {
			p.decide(o, nil)
		}
	}
	p.waitStopped()
	v, err := p.result(0)
	var ie *InternalError
	if !errors.As(err, &ie) {
		t.Fatalf("got %v, %v; want the member's answer of nothing as an internal error", v, err)
	}
}
