package ic3

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"vigil/lang"
	"vigil/smt"
	"vigil/symbolic"
)

// s31dBig is a model of n*n commands (moves between the elements of an
// array of n counters), whose encoding takes ic3 about a second at
// n = 120 on a loaded machine: 14,400 commands, some 600,000 terms.
func s31dBig(t *testing.T, n int) *symbolic.Model {
	t.Helper()
	src := fmt.Sprintf(`model big
const N = %d
var a : [0 .. N - 1] of 0 .. 10
action move(i in 0 .. N - 1, j in 0 .. N - 1) when i != j && a[i] > 0 && a[j] < 10 -> a[i]' = a[i] - 1, a[j]' = a[j] + 1
property p { start a[0] <= 1 unsafe a[1] == 10 && a[2] == 10 && a[3] == 10 }
`, n)
	m, diags := lang.LoadSource("big.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	return m
}

// TestS31dBuildStops: the solver's encoding polls the run's context. With
// the context done before it starts, building stops with smt.ErrStopped
// (before session 31 it built the whole transition relation, then the
// first check returned unknown); and a run cancelled while it encodes
// answers unknown at once. Before, `vigil verify --engine ic3 --timeout 3s`
// on the 120-counter model stopped 1.5 s late, and an encoding cancelled
// at 1 s ended after 3.5 s (ic3/FIGURES.md, session 31).
func TestS31dBuildStops(t *testing.T) {
	m := s31dBig(t, 60)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var st Stats
	sv := newSolver(ctx, m, smt.TransOptions{Property: m.Properties[0]}, &st, false, func() [][]box { return nil })
	defer sv.close()
	if err := sv.ready(); !errors.Is(err, smt.ErrStopped) || !errors.Is(err, context.Canceled) {
		t.Fatalf("building under a cancelled context: %v, want smt.ErrStopped", err)
	}

	// A run cancelled while it encodes: the cancel lands 20 ms into the
	// run (the encoding of 3,600 commands takes longer); a generous bound,
	// so that the test fails only when the encoding ignores the context.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	res, err := Check(ctx, m, m.Properties[0], nil, Options{Generalize: true})
	d := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Unknown {
		t.Fatalf("a run cancelled after 20 ms answered %v", res.Verdict)
	}
	t.Logf("cancelled after 20 ms, the run returned after %v (%d SMT calls)", d, res.Stats.SMTCalls)
	if d > 10*time.Second {
		t.Errorf("the cancelled run returned after %v", d)
	}
}
