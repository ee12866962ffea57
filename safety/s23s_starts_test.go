package safety_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
)

// TestS23sStartsErrorUnderDeadline: under a deadline DecideStates shares
// the time among the states in slices; the first state's range error lies
// at the end of a chain of 2*10^6 states, longer than its first slice,
// and the second state errs at once. The answer is the first state's
// error, as without a deadline (the states are asked in order); before,
// the second state's error ended the run when the first one's slice ran
// out.
func TestS23sStartsErrorUnderDeadline(t *testing.T) {
	m := testutil.LoadSource(t, "chain.spec", `model chain
var x : 0 .. 2000000 = 0
var y : 0 .. 1 = 0
action up when x < 2000000 && y == 0 -> x' = x + 1
action boom when x == 2000000 && y == 0 -> y' = y + 5
action down when y == 1 -> x' = x - 1
property p { unsafe x == 1 && y == 1 }
`)
	for _, algo := range []string{"tarjan", "propu"} {
		for _, timed := range []bool{false, true} {
			g, dec, err := testutil.Explicit(m, m.Property(""), nil)
			if err != nil {
				t.Fatal(err)
			}
			sp := safety.NewSpace(g, dec)
			d, err := safety.New(algo, sp, safety.Inf, safety.Options{})
			if err != nil {
				t.Fatal(err)
			}
			out := s23sDecisions(t, sp, symbolic.State{0, 0}, symbolic.State{0, 1})
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if timed {
				// slices of 20 s / 128 = 156 ms: the chain takes longer
				ctx, cancel = context.WithTimeout(ctx, 20*time.Second)
			}
			err = safety.DecideStates(ctx, d, out)
			cancel()
			if err == nil || !strings.Contains(err.Error(), "action boom") {
				t.Errorf("%s (deadline %v): %v; want the first state's error (action boom)", algo, timed, err)
			}
		}
	}
}

// TestS23sSliceErrorReturned: under a deadline, a range error returned
// within a state's time slice is the answer at once. DecideStates read
// the slice's context after cancelling it, so it took every error for the
// slice's end and asked the state again, pass after pass, doubling the
// slice; it returned the error only when the doubled slice overflowed
// (about 38 passes: fast here, since the error comes at once, which is
// why this test passed before too; on the chain above the first state's
// error was lost to the second's).
func TestS23sSliceErrorReturned(t *testing.T) {
	m := testutil.LoadSource(t, "two.spec", `model two
var x : 0 .. 3 = 0
var y : 0 .. 1 = 0
action stay when y == 0 -> skip
action down when y == 1 -> x' = x - 1
property p { unsafe x == 3 && y == 1 }
`)
	g, dec, err := testutil.Explicit(m, m.Property(""), nil)
	if err != nil {
		t.Fatal(err)
	}
	sp := safety.NewSpace(g, dec)
	d, err := safety.New("tarjan", sp, safety.Inf, safety.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := s23sDecisions(t, sp, symbolic.State{0, 0}, symbolic.State{0, 1})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	begin := time.Now()
	err = safety.DecideStates(ctx, d, out)
	if err == nil || !strings.Contains(err.Error(), "action down") || time.Since(begin) > time.Second {
		t.Fatalf("%v after %v (verdicts %v, %v); want the range error of x=0 y=1 at once", err, time.Since(begin), out[0].Verdict, out[1].Verdict)
	}
}

// s23sDecisions interns states in sp, in order, as the questions of
// DecideStates.
func s23sDecisions(t *testing.T, sp *safety.Space, states ...symbolic.State) []safety.StateDecision {
	t.Helper()
	var out []safety.StateDecision
	for _, s := range states {
		id, err := sp.Intern(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, safety.StateDecision{ID: id})
	}
	return out
}
