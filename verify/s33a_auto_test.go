package verify

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// stand-ins for the bounded question (autobmc.go): one that cannot decide
// anything, one that runs until the portfolio stops
func s33aBMCUndecided(ctx context.Context, q *Prepared, st *bmcState) bmcOutcome {
	return bmcOutcome{why: "no answer"}
}

func s33aBMCLate(ctx context.Context, q *Prepared, st *bmcState) bmcOutcome {
	<-ctx.Done()
	return bmcOutcome{why: "stopped"}
}

// s33aCloser: a's walk x up to the unsafe x == 8 (the hunter's run, 8
// steps); b leaves e's range at x == 5 (a range error 5 steps from the
// start); c, only at x == 0, counts y up to the unsafe y == 2, two steps
// from the start: that unsafe state is the shallowest bad state, bfs's
// answer (unsafe).
const s33aCloser = "model m\nvar x : 0 .. 10 = 0\nvar y : 0 .. 3 = 0\nvar e : 0 .. 1 = 0\n" +
	"action a when x < 10 -> x' = x + 1\n" +
	"action b when x == 5 -> e' = e + 2\n" +
	"action c when x == 0 && y < 3 -> y' = y + 1\n" +
	"property p { unsafe x == 8 || y == 2 }\n"

// a hunter that answers the run of a's up to x == 8
var s33aHunter = autoMember{"hunt", func(ctx context.Context, q *Prepared) (*Verdict, error) {
	var tr []explicit.Step
	for x := range 9 {
		tr = append(tr, explicit.Step{State: symbolic.State{x, 0, 0}, Label: 0, Cmd: 0, Outcome: 0})
	}
	tr[8].Label, tr[8].Cmd, tr[8].Outcome = symbolic.NoLabel, -1, -1
	return &Verdict{Engine: "hunt", Answer: explicit.UnsafeVerdict, Trace: tr, Hunt: &HuntStats{}}, nil
}}

// s33aRangeAt5 is a range question that found b's range error 5 steps
// from the start, on a run that replays.
func s33aRangeAt5(ctx context.Context, q *Prepared) rangeOutcome {
	var tr []explicit.Step
	for x := range 6 {
		tr = append(tr, explicit.Step{State: symbolic.State{x, 0, 0}, Label: 0, Cmd: 0, Outcome: 0})
	}
	tr[5].Label, tr[5].Cmd, tr[5].Outcome = symbolic.NoLabel, -1, -1
	f, err := replayRangeError(q.Gen, nil, tr)
	if err != nil {
		return rangeOutcome{why: err.Error()}
	}
	return rangeOutcome{found: f}
}

// TestS33aRangeErrorWaitsForCloserUnsafe: the range question's replayed
// range error (5 steps) lies closer than the hunter's counterexample (8
// steps), but an unsafe state lies closer still (2 steps). Session 32
// answered the range error at once, as ic3 alone does; the shallowest
// bad state is the unsafe one. With bfs gone, the bounded question finds
// it (its run replays) and answers unsafe in 2 steps; when it cannot
// decide, the portfolio answers unknown rather than the range error.
func TestS33aRangeErrorWaitsForCloserUnsafe(t *testing.T) {
	q := s32aPrepared(t, s33aCloser)
	ref, err := Decide(context.Background(), &Question{Model: q.Model, Property: q.Property, Engine: "bfs"})
	if err != nil || ref.Answer != explicit.UnsafeVerdict || len(ref.Trace) != 3 {
		t.Fatalf("bfs: %v, %v; want unsafe in 2 steps", ref, err)
	}
	v, err := s33aRun(q, []autoMember{s32bGaveWay, s32aIdle, s33aHunter}, s33aRangeAt5, nil, 20*time.Second)
	if err != nil || v.Answer != explicit.UnsafeVerdict || len(v.Trace) != 3 || v.Engine != "bmc" {
		t.Fatalf("got %v, %v; want the bounded question's unsafe in 2 steps", v, err)
	}
	if !strings.Contains(v.Auto.Bounded, "an unsafe state 2 steps from the start") {
		t.Errorf("bounded: %q", v.Auto.Bounded)
	}
	v, err = s33aRun(q, []autoMember{s32bGaveWay, s32aIdle, s33aHunter}, s33aRangeAt5, s33aBMCUndecided, 3*time.Second)
	if err != nil || v.Answer != explicit.Unknown {
		t.Fatalf("undecided: got %v, %v; want unknown", v, err)
	}
	// bfs past layer 5 (no unsafe state in fewer steps than the range
	// error) releases it: here bfs stops with its depth at 5 on a model
	// without c, where the range error is the answer
	noC := strings.Replace(s33aCloser, "action c when x == 0 && y < 3 -> y' = y + 1\n", "", 1)
	deep := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		time.Sleep(150 * time.Millisecond)
		return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "state limit 1", BFS: &explicit.Result{Stats: explicit.Stats{Depth: 5}}}, nil
	}}
	_, err = s33aRun(s32aPrepared(t, noC), []autoMember{deep, s32aIdle, s33aHunter}, s33aRangeAt5, s33aBMCUndecided, 20*time.Second)
	var re *explicit.RangeError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "reachable in 5 steps") {
		t.Fatalf("bfs at layer 5: got %v; want b's range error 5 steps out", err)
	}
}

// TestS33aBoundedQuestion: the bounded question alone, exact (no policy,
// a rules policy) and with every label (a learned policy's relation):
// the shallowest bad state's kind and depth, against bfs.
func TestS33aBoundedQuestion(t *testing.T) {
	cases := []struct {
		name, src    string
		policy       bool
		kind         string // "u" unsafe, "r" range error
		depth        int
		uFree, rFree int64 // what the free relation rules out (learned path)
	}{
		{"unsafe first", s33aCloser, false, "u", 2, 2, 5},
		{"range first", s32aShallow, false, "r", 1, 3, 1},
		// the policy never takes c: b's range error (5 steps) is first;
		// the free relation meets c's unsafe state in 2 steps
		{"policy", s33aCloser + "policy rules pi {\n  when x == 5 -> b\n  otherwise -> a\n}\n", true, "r", 5, 2, 5},
		// the policy takes c first: unsafe in 2 steps
		{"policy c", s33aCloser + "policy rules pi {\n  when x == 0 && y < 3 -> c\n  when x == 5 -> b\n  otherwise -> a\n}\n", true, "u", 2, 2, 5},
	}
	for _, c := range cases {
		m, diags := lang.LoadSource("m.spec", []byte(c.src), lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		qq := &Question{Model: m, Property: m.Properties[0], Engine: "auto"}
		if c.policy {
			qq.Policy = m.Policies[0]
		}
		q, err := prepare(context.Background(), qq)
		if err != nil {
			t.Fatal(err)
		}
		st := &bmcState{}
		st.uLimit.Store(20)
		st.rLimit.Store(20)
		out := askBounded(context.Background(), q, st)
		switch {
		case out.bug != nil:
			t.Errorf("%s: %v", c.name, out.bug)
		case c.kind == "u" && (out.cex == nil || len(out.cex)-1 != c.depth):
			t.Errorf("%s: %+v; want an unsafe state %d steps out", c.name, out, c.depth)
		case c.kind == "r" && (out.found == nil || out.found.Steps() != c.depth):
			t.Errorf("%s: %+v; want a range error %d steps out", c.name, out, c.depth)
		}
		// bfs agrees on the kind
		bq := *qq
		bq.Engine = "bfs"
		v, err := Decide(context.Background(), &bq)
		var re *explicit.RangeError
		if c.kind == "u" && (err != nil || v.Answer != explicit.UnsafeVerdict || len(v.Trace)-1 != c.depth) ||
			c.kind == "r" && !errors.As(err, &re) {
			t.Errorf("%s: bfs answers %v, %v", c.name, v, err)
		}
		// the relation with every label rules out only what it can
		free := &bmcState{free: true}
		free.uLimit.Store(20)
		free.rLimit.Store(20)
		out = askBounded(context.Background(), q, free)
		if out.cex != nil || out.found != nil || out.bug != nil {
			t.Errorf("%s, free: a witness %+v from a relation that is not the policy's", c.name, out)
		}
		if u, r := free.unsafeClear.Load(), free.rangeClear.Load(); u != c.uFree || r != c.rFree {
			t.Errorf("%s, free: no unsafe state below %d, no range error below %d; want %d, %d", c.name, u, r, c.uFree, c.rFree)
		}
	}
}

// TestS33aBoundedStops: a stopped bounded question rules out nothing it
// did not ask, and claims no witness.
func TestS33aBoundedStops(t *testing.T) {
	q := s32aPrepared(t, s33aCloser)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	st := &bmcState{}
	st.uLimit.Store(20)
	st.rLimit.Store(20)
	out := askBounded(ctx, q, st)
	if out.cex != nil || out.found != nil || st.unsafeClear.Load() != 0 || st.rangeClear.Load() != 0 {
		t.Errorf("stopped: %+v, clear %d %d", out, st.unsafeClear.Load(), st.rangeClear.Load())
	}
}

// TestS33aHunterRangeErrorWaits: the hunter stops on b's range error (5
// steps out) after bfs gave way; an unsafe state lies 2 steps out. The
// portfolio answered the hunter's error at once; the bounded question
// (exact: no policy) now finds the unsafe state, the shallowest, whose
// run replays. Without a closer unsafe state (no c) the range error is
// the answer, the bounded question's own (its run replays), as before.
func TestS33aHunterRangeErrorWaits(t *testing.T) {
	hunterErr := autoMember{"hunt", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		return nil, q.Gen.ErrorAt(symbolic.State{5, 0, 0}, nil)
	}}
	v, err := s33aRun(s32aPrepared(t, s33aCloser), []autoMember{s32bGaveWay, s32aIdle, hunterErr}, nil, nil, 20*time.Second)
	if err != nil || v.Answer != explicit.UnsafeVerdict || len(v.Trace) != 3 {
		t.Fatalf("got %v, %v; want unsafe in 2 steps", v, err)
	}
	noC := strings.Replace(s33aCloser, "action c when x == 0 && y < 3 -> y' = y + 1\n", "", 1)
	_, err = s33aRun(s32aPrepared(t, noC), []autoMember{s32bGaveWay, s32aIdle, hunterErr}, nil, nil, 20*time.Second)
	var re *explicit.RangeError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "action b") {
		t.Fatalf("no c: got %v; want b's range error", err)
	}
	// a bounded question that cannot decide leaves the hunter's error
	_, err = s33aRun(s32aPrepared(t, noC), []autoMember{s32bGaveWay, s32aIdle, hunterErr}, nil, s33aBMCUndecided, 20*time.Second)
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "action b") {
		t.Fatalf("undecided: got %v; want the hunter's range error", err)
	}
}

// TestS33aBoundedOneKind: asked for one kind only (the range question's
// range error needs unsafe states ruled out below it, nothing more), the
// bounded question still answers a witness of that kind only once the
// other kind is clear below it: the unsafe state 3 steps out of
// s32aShallow waits, and b's range error one step out is the answer.
func TestS33aBoundedOneKind(t *testing.T) {
	for _, c := range []struct {
		src  string
		kind string
		at   int
	}{{s32aShallow, "r", 1}, {s33aCloser, "u", 2}} {
		q := s32aPrepared(t, c.src)
		st := &bmcState{}
		st.uLimit.Store(20)
		out := askBounded(context.Background(), q, st)
		switch {
		case c.kind == "u" && (out.cex == nil || len(out.cex)-1 != c.at),
			c.kind == "r" && (out.found == nil || out.found.Steps() != c.at):
			t.Errorf("%q: %+v; want %s at %d", c.src, out, c.kind, c.at)
		}
		// limits met: it ends drained, having ruled out what it asked
		st = &bmcState{}
		st.uLimit.Store(int64(c.at))
		if out := askBounded(context.Background(), q, st); !out.drained || st.unsafeClear.Load() != int64(c.at) || st.rangeClear.Load() != 0 {
			t.Errorf("%q: %+v, clear %d %d; want drained, unsafe clear below %d", c.src, out, st.unsafeClear.Load(), st.rangeClear.Load(), c.at)
		}
	}
}
