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

// s32bPolicy: the policy walks x up to the unsafe 25, s counting one
// outcome of a; only where x == 20 and s == 20 (one run in 2^20) does it
// choose b, whose outcome leaves e's range: bfs (and ic3) answer that
// range error, 20 steps from the start; the hunter's walks miss it and
// find the unsafe state in 25 steps.
const s32bPolicy = "model r\nvar x : 0 .. 30 = 0\nvar s : 0 .. 30 = 0\nvar e : 0 .. 1 = 0\n" +
	"action a when x < 30 -> x' = x + 1 | x' = x + 1, s' = s + 1\n" +
	"action b when x < 30 -> e' = e + 2\n" +
	"policy rules pi {\n  when x == 20 && s == 20 -> b\n  otherwise -> a\n}\n" +
	"property p { unsafe x == 25 }\n"

// bfs that gives way at once (a state limit), after the hunter's answer
var s32bGaveWay = autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
	time.Sleep(150 * time.Millisecond)
	return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "state limit 1", BFS: &explicit.Result{}}, nil
}}

// TestS32bGaveWayNeedsProof: once bfs gave way, the held counterexample
// is released only when the range question proves every range error
// unreachable. An undecided question, IC3's report of a range error
// without its run, or a replayed range error of d steps or more (IC3's
// runs are not the shortest) rules out no closer range error: the
// portfolio answers unknown, naming the counterexample (it answered the
// counterexample, where bfs answers b's range error one step from the
// start).
func TestS32bGaveWayNeedsProof(t *testing.T) {
	deep := &rangeFound{Trace: make([]explicit.Step, 6), Err: errors.New("a range error")}
	for name, r := range map[string]rangeOutcome{
		"undecided":   {why: "no answer"},
		"claim":       {why: "ic3: a state reachable in 1 steps has an outcome that leaves a variable's range: x=1 y=0"},
		"found later": {found: deep},
	} {
		ask := func(ctx context.Context, q *Prepared) rangeOutcome { return r }
		// the bounded question (session 33) decides this model: a
		// stand-in that cannot stands for it (s33a_auto_test.go)
		v, err := s33aRun(s32aPrepared(t, s32aShallow), []autoMember{s32bGaveWay, s32aIdle, s32aHunter}, ask, s33aBMCUndecided, 3*time.Second)
		if err != nil || v.Answer != explicit.Unknown || !strings.Contains(v.Reason, heldNote) {
			t.Errorf("%s: got %v, %v; want unknown, the counterexample held", name, v, err)
		}
	}
	// a proof releases it
	clean := func(ctx context.Context, q *Prepared) rangeOutcome { return rangeOutcome{clean: true} }
	v, err := s32aRun(s32aPrepared(t, s31dHeld), []autoMember{s32bGaveWay, s32aIdle, {"hunt", hunt}}, clean, 20*time.Second)
	if err != nil || v.Answer != explicit.UnsafeVerdict || v.Engine != "hunt" {
		t.Errorf("clean: got %v, %v; want the hunter's unsafe", v, err)
	}
}

// TestS32bPolicyRangeErrorGaveWay: the real range question under a
// policy (IC3 reaches b's range error, 20 steps from the start, and
// reports it without its run) and the real hunter (25 steps): with bfs
// gone, the portfolio answered the hunter's unsafe.
func TestS32bPolicyRangeErrorGaveWay(t *testing.T) {
	m, diags := lang.LoadSource("m.spec", []byte(s32bPolicy), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Policy: m.Policies[0], Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	r := askRangeOf(context.Background(), q, false)
	if r.clean || r.found != nil || !strings.Contains(r.why, "reachable in 20 steps") {
		t.Fatalf("range question: %+v; want IC3's report of the range error 20 steps from the start", r)
	}
	// session 33: asked again for a run, with every label's range
	// errors as the unsafe states, IC3 meets b's in the start state,
	// where the policy chooses a: no run (s32a's TestS32aRangeQuestionPolicy
	// has one)
	if r := askRange(context.Background(), q); r.found != nil || !strings.Contains(r.why, "asked for its run: the explicit engine meets no range error") {
		t.Fatalf("range question asked for its run: %+v; want undecided", r)
	}
	first := func(ctx context.Context, q *Prepared) rangeOutcome { return askRangeOf(ctx, q, false) }
	v, err := s33aRun(q, []autoMember{s32bGaveWay, s32aIdle, {"hunt", hunt}}, first, s33aBMCUndecided, 5*time.Second)
	if err != nil || v.Answer != explicit.Unknown || !strings.Contains(v.Reason, heldNote) {
		t.Fatalf("got %v, %v; want unknown, the counterexample held", v, err)
	}
	// session 33: asked again for a run, with every label's range
	// errors as the unsafe states, IC3 meets b's in the start state,
	// where the policy chooses a: no run (s32a's TestS32aRangeQuestionPolicy
	// has one)
	if r := askRange(context.Background(), q); r.found != nil || !strings.Contains(r.why, "asked for its run: the explicit engine meets no range error") {
		t.Fatalf("range question asked for its run: %+v; want undecided", r)
	}
	// session 33: the bounded question encodes the rules policy exactly
	// and finds b's range error 20 steps from the start, whose run
	// replays: bfs's answer
	_, err = s32aRun(q, []autoMember{s32bGaveWay, s32aIdle, {"hunt", hunt}}, nil, 20*time.Second)
	if err == nil || !strings.Contains(err.Error(), "reachable in 20 steps (a run that replays") || !strings.Contains(err.Error(), "action b") {
		t.Fatalf("with the bounded question: got %v; want b's range error 20 steps from the start", err)
	}
}

// TestS32bStopDuringQuestion: a range question still running when the
// time runs out gives no verdict, even when it answers (clean, a range
// error, or a failed check) after the stop: unknown, the counterexample
// named.
func TestS32bStopDuringQuestion(t *testing.T) {
	near := &rangeFound{Trace: make([]explicit.Step, 2), Err: errors.New("a range error")}
	for name, r := range map[string]rangeOutcome{
		"clean": {clean: true},
		"found": {found: near},
		"bug":   {bug: internal("a certificate that does not check")},
	} {
		late := func(ctx context.Context, q *Prepared) rangeOutcome {
			<-ctx.Done()
			return r
		}
		v, err := s33aRun(s32aPrepared(t, s32aShallow), []autoMember{s32bGaveWay, s32aIdle, s32aHunter}, late, s33aBMCLate, time.Second)
		if err != nil || v.Answer != explicit.Unknown || !strings.Contains(v.Reason, "timeout") || !strings.Contains(v.Reason, heldNote) {
			t.Errorf("%s after the stop: got %v, %v; want unknown at the timeout, the counterexample held", name, v, err)
		}
	}
}

// TestS32bIC3CounterexampleHeld: IC3's counterexample (its obligations
// and random walks do not make it the shortest) is held as the hunter's:
// b's range error one step from the start, which the range question
// replays, is the answer, bfs's; IC3's 3-step counterexample won at once.
// With no range error reachable (s31dHeld) IC3's counterexample wins once
// the question proves it.
func TestS32bIC3CounterexampleHeld(t *testing.T) {
	ic3cex := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		v, err := s32aHunter.run(ctx, q)
		if v != nil {
			v.Engine, v.Hunt = "ic3", nil
		}
		return v, err
	}}
	idleHunt := autoMember{"hunt", s32aIdle.run}
	_, err := s32aRun(s32aPrepared(t, s32aShallow), []autoMember{s32aSearching, ic3cex, idleHunt}, nil, 20*time.Second)
	if err == nil || !strings.Contains(err.Error(), "reachable in 1 steps (a run that replays") || !strings.Contains(err.Error(), "action b") {
		t.Fatalf("got %v; want the range error of b one step from the start", err)
	}
	ic3real := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) { return decideIC3(ctx, q, true) }}
	v, err := s32aRun(s32aPrepared(t, s31dHeld), []autoMember{s32bGaveWay, ic3real, idleHunt}, nil, 20*time.Second)
	if err != nil || v.Answer != explicit.UnsafeVerdict || v.Engine != "ic3" || !strings.Contains(v.Auto.RangeCheck, "no run meets a range error") && !strings.Contains(v.Auto.Bounded, "no range error in fewer than 3") {
		t.Fatalf("no range error reachable: got %v, %v; want ic3's unsafe once the question proves it", v, err)
	}
}

// TestS32bRangeQuestionRunsEndAsQs: the range question's runs end where
// q's do (its unsafe states and goals are the question's goals): b's
// range error lies beyond the unsafe x == 1, where every run of q ends,
// so no run meets it, and a goal with a range error is none either. The
// question went on through x == 1, reached b's range error, and its run
// did not replay: undecided.
func TestS32bRangeQuestionRunsEndAsQs(t *testing.T) {
	for _, src := range []string{
		"model m\nvar x : 0 .. 3 = 0\nvar y : 0 .. 1 = 0\naction a when x < 3 -> x' = x + 1\naction b when x == 2 -> y' = y + 2\nproperty p { unsafe x == 1 }\n",
		"model m\nvar x : 0 .. 3 = 0\nvar y : 0 .. 1 = 0\naction a when x < 3 -> x' = x + 1\naction b when x == 2 -> y' = y + 2\nproperty p { unsafe x == 3\n goal x == 2 }\n",
	} {
		r := askRange(context.Background(), s32aPrepared(t, src))
		if !r.clean || r.bug != nil {
			t.Errorf("got %+v; want clean\n%s", r, src)
		}
	}
	// the range error before the unsafe state is still found
	r := askRange(context.Background(), s32aPrepared(t, s32aShallow))
	if r.found == nil || r.found.Steps() != 1 {
		t.Errorf("s32aShallow: got %+v; want b's range error one step from the start", r)
	}
}
