package verify

import (
	"context"
	"errors"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic/explicit"
)

// s29vUnsafe is unsafe: x reaches 3 from 0.
const s29vUnsafe = "model m\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty p { unsafe x == 3 }\n"

func s29vPrepared(t *testing.T) *Prepared {
	t.Helper()
	m, diags := lang.LoadSource("m.spec", []byte(s29vUnsafe), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// forgedSafe claims safe with nothing behind it: the portfolio's check of
// the member refuses it.
func forgedSafe(name string) *Verdict {
	return &Verdict{Answer: explicit.Safe, Engine: name, BFS: &explicit.Result{Verdict: explicit.Safe}}
}

// forgedUnsafe claims unsafe with a counterexample that ends in a safe
// start state: it does not replay.
func forgedUnsafe(q *Prepared, name string) *Verdict {
	s, _ := q.Gen.StartAt(0)
	return &Verdict{Answer: explicit.UnsafeVerdict, Engine: name, Trace: []explicit.Step{{State: s, Label: -1, Cmd: -1}}}
}

func runPortfolio(q *Prepared, members []autoMember) (*Verdict, error) {
	p := newPortfolio(context.Background(), q, members)
	defer p.cancel()
	t0 := time.Now()
	p.loop()
	p.markStragglers()
	return p.result(time.Since(t0))
}

// TestS29vForgedMemberFirst: a member that answers wrongly and at once
// (a safe with nothing to check, or an unsafe whose counterexample does
// not replay) never wins the portfolio: its failed check is an internal
// error (exit 70), whatever the honest members do.
func TestS29vForgedMemberFirst(t *testing.T) {
	q := s29vPrepared(t)
	honestLate := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done() // the honest member answers only after the forger
		return bfs(context.Background(), q, 0)
	}}
	for _, forged := range []func(*Prepared) *Verdict{
		func(q *Prepared) *Verdict { return forgedSafe("ic3") },
		func(q *Prepared) *Verdict { return forgedUnsafe(q, "ic3") },
	} {
		forger := autoMember{"ic3", func(_ context.Context, q *Prepared) (*Verdict, error) { return forged(q), nil }}
		idle := autoMember{"hunt", func(ctx context.Context, q *Prepared) (*Verdict, error) {
			<-ctx.Done()
			return &Verdict{Engine: "hunt", Answer: explicit.Unknown}, nil
		}}
		v, err := runPortfolio(q, []autoMember{honestLate, forger, idle})
		var ie *InternalError
		if !errors.As(err, &ie) {
			t.Errorf("got %+v, %v; want the forger's failed check as an internal error", v, err)
		}
	}
}

// TestS29vForgedMemberAfterWinner: a forger that answers just after (or
// just before) the honest winner never displaces it, and its failed check
// is not hidden as "cancelled": it is the portfolio's internal error (a
// bug in vigil, exit 70), with the member's outcome "error".
func TestS29vForgedMemberAfterWinner(t *testing.T) {
	q := s29vPrepared(t)
	honestDone, forgerStarted := make(chan struct{}), make(chan struct{})
	honest := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		defer close(honestDone)
		<-forgerStarted
		return bfs(ctx, q, 0)
	}}
	forger := autoMember{"ic3", func(_ context.Context, q *Prepared) (*Verdict, error) {
		close(forgerStarted)
		<-honestDone
		return forgedSafe("ic3"), nil
	}}
	idle := autoMember{"hunt", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "hunt", Answer: explicit.Unknown}, nil
	}}
	p := newPortfolio(context.Background(), q, []autoMember{honest, forger, idle})
	defer p.cancel()
	p.loop()
	p.markStragglers()
	v, err := p.result(0)
	var ie *InternalError
	if !errors.As(err, &ie) {
		t.Fatalf("got %+v, %v; want the forger's failed check as an internal error", v, err)
	}
	if m := p.stats.Members[1]; m.Outcome != "error" {
		t.Errorf("the forger ended %s (%s); want error", m.Outcome, m.Reason)
	}
}

// TestS29vMembersDisagree: a member whose checked verdict contradicts the
// winner's (here a broken exhaustive search that says safe about an
// unsafe model, arriving just before or after bfs's checked
// counterexample) makes the portfolio's answer an internal error: two
// checked verdicts that disagree mean a check is wrong. Session 28 recorded it as "decided too
// late" and printed the winner's verdict.
func TestS29vMembersDisagree(t *testing.T) {
	q := s29vPrepared(t)
	honestDone, brokenStarted := make(chan struct{}), make(chan struct{})
	honest := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		defer close(honestDone)
		<-brokenStarted
		return bfs(ctx, q, 0)
	}}
	broken := autoMember{"ic3", func(_ context.Context, q *Prepared) (*Verdict, error) {
		close(brokenStarted)
		<-honestDone
		return &Verdict{Answer: explicit.Safe, Engine: "ic3", exhaustive: q}, nil
	}}
	idle := autoMember{"hunt", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "hunt", Answer: explicit.Unknown}, nil
	}}
	v, err := runPortfolio(q, []autoMember{honest, broken, idle})
	var ie *InternalError
	if !errors.As(err, &ie) {
		t.Fatalf("got %+v, %v; want an internal error for the disagreement", v, err)
	}
	t.Log(err)
}
