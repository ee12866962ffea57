package verify

import (
	"context"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic/explicit"
)

// s31dHeld: x walks up to the unsafe 3 in three steps; the action b would
// leave y's range where x == 2 and y == 1, a state no run reaches (y stays
// 0), but vigil check --bounds finds it, so a range error in fewer than
// three steps is not ruled out while bfs searches.
const s31dHeld = "model m\nvar x : 0 .. 3 = 0\nvar y : 0 .. 1 = 0\n" +
	"action a when x < 3 -> x' = x + 1\naction b when x == 2 && y == 1 -> y' = y + 1\n" +
	"property p { unsafe x == 3 }\n"

// TestS31dHuntHeldWhileBFSSearches: the hunter's counterexample (3
// steps) waits while bfs may still meet a range error in fewer steps: it
// wins once bfs gives way (here at layer 1), and while bfs searches on
// the portfolio answers unknown when the time runs out, naming the held
// counterexample. Auto answered the hunter's unsafe at once where bfs and
// ic3 report a shallower range error
// (bench/adversarial/s31d_auto_range_error.txtar).
func TestS31dHuntHeldWhileBFSSearches(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte(s31dHeld), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prep := func(ctx context.Context) *Prepared {
		q, err := prepare(ctx, &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		return q
	}
	idle := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "ic3", Answer: explicit.Unknown}, nil
	}}
	// bfs that gives way at layer 1, after the hunter has answered
	gaveWay := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		select {
		case <-time.After(500 * time.Millisecond):
		case <-ctx.Done():
		}
		return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "state limit 1",
			BFS: &explicit.Result{Stats: explicit.Stats{Depth: 1}}}, nil
	}}
	// bfs that searches until the end of its context, short of layer 3
	searching := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		<-ctx.Done()
		return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "timeout",
			BFS: &explicit.Result{Stats: explicit.Stats{Depth: 2}}}, nil
	}}

	v, err := runPortfolio(prep(context.Background()), []autoMember{gaveWay, idle, {"hunt", hunt}})
	if err != nil || v.Answer != explicit.UnsafeVerdict || v.Engine != "hunt" {
		t.Fatalf("bfs gave way: got %v, %v; want the hunter's unsafe", v, err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	p := newPortfolio(ctx, prep(ctx), []autoMember{searching, idle, {"hunt", hunt}})
	p.rangeAsk = undecidedRange // the question of autorange.go, which decides this model, left open
	defer p.cancel()
	p.loop()
	p.markStragglers()
	v, err = p.result(time.Second)
	if err != nil || v.Answer != explicit.Unknown {
		t.Fatalf("bfs still searching: got %v, %v; want unknown", v, err)
	}
	if !strings.Contains(v.Reason, "counterexample of 3 steps, held back") {
		t.Errorf("the reason does not name the held counterexample: %q", v.Reason)
	}
	if o := v.Auto.Members[2].Outcome; o != "held" {
		t.Errorf("the hunter's outcome is %q, want held", o)
	}
}

// undecidedRange stands in for the range question (autorange.go) that
// cannot decide: it answers nothing before the end of ctx.
func undecidedRange(ctx context.Context, q *Prepared) rangeOutcome {
	<-ctx.Done()
	return rangeOutcome{why: "stopped"}
}
