package verify

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic/explicit"
)

// TestS31yHeldContradicted: a member's safe verdict that arrives while
// the hunter's counterexample is held (checked: it replays) contradicts
// it, which is a bug in vigil (an internal error), as when the two
// arrive the other way round. Since session 31 the safe verdict won and
// the held counterexample was dropped unseen: a wrong safe of bfs (here
// a stand-in that claims safe after the hunter answered) went out
// although the portfolio had a replayed counterexample in hand.
func TestS31yHeldContradicted(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte(s31dHeld), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	idle := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "ic3", Answer: explicit.Unknown}, nil
	}}
	// bfs that claims safe (passing its check as an exhaustive search
	// does) once the hunter has had time to answer, short of layer 3
	wrongSafe := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "canceled"}, nil
		}
		return &Verdict{Engine: "bfs", Answer: explicit.Safe, exhaustive: q,
			BFS: &explicit.Result{Verdict: explicit.Safe, Stats: explicit.Stats{Depth: 1}}}, nil
	}}
	pf := newPortfolio(context.Background(), q, []autoMember{wrongSafe, idle, {"hunt", hunt}})
	pf.rangeAsk = undecidedRange // the range question would release the counterexample first
	defer pf.cancel()
	pf.loop()
	pf.markStragglers()
	v, err := pf.result(time.Second)
	var ie *InternalError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "disagree") {
		t.Fatalf("bfs's safe beside a held counterexample: got %v, %v; want an internal error (the members disagree)", v, err)
	}
}

// TestS31yHeldReasonText: the text of the portfolio's unknown with a held
// counterexample says "stopped by the timeout before a verdict" and then
// the note; it read "stopped by the timeout; the hunter found ... is not
// ruled out before a verdict".
func TestS31yHeldReasonText(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte(s31dHeld), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 1500*time.Millisecond)
	defer cancel()
	qq := &Question{Model: m, Property: m.Properties[0], Engine: "auto"}
	q, err := prepare(ctx, qq)
	if err != nil {
		t.Fatal(err)
	}
	searching := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "timeout",
			BFS: &explicit.Result{Stats: explicit.Stats{Depth: 2}}}, nil
	}}
	idle := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "ic3", Answer: explicit.Unknown, Reason: "timeout"}, nil
	}}
	p := newPortfolio(ctx, q, []autoMember{searching, idle, {"hunt", hunt}})
	p.rangeAsk = undecidedRange
	defer p.cancel()
	p.loop()
	p.markStragglers()
	v, err := p.result(time.Second)
	if err != nil || v.Answer != explicit.Unknown {
		t.Fatalf("got %v, %v; want unknown", v, err)
	}
	v.prep = q
	var b strings.Builder
	if err := NewReport(qq, v).WriteText(&b, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "unknown: stopped by the timeout before a verdict; the hunter found a counterexample of 3 steps, held back while bfs searched"
	if !strings.HasPrefix(b.String(), want) {
		t.Errorf("text:\n%s\nwant it to begin with\n%s", b.String(), want)
	}
}
