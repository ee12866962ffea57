package ppa_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/ppa"
	"vigil/symbolic/explicit"
)

// TestS25WStopStress: many checks stopped at every moment (before, during
// and after the Z3 encoding, which an abandoned goroutine finishes) give
// the uninterrupted verdict or Unknown, never another verdict or an
// error, and leave no goroutine behind once the abandoned encodings end.
func TestS25WStopStress(t *testing.T) {
	m := testutil.LoadSource(t, "w.spec", testutil.ArraySpec(40))
	prop := m.Properties[0]
	begin := time.Now()
	want, err := ppa.Check(context.Background(), m, prop, nil, ppa.Options{})
	whole := time.Since(begin)
	if err != nil {
		t.Fatal(err)
	}
	if want.Verdict == explicit.Unknown {
		t.Fatalf("uninterrupted: Unknown (%s)", want.Reason)
	}
	base := runtime.NumGoroutine()
	n := 60
	if testing.Short() {
		n = 15
	}
	stopped := 0
	for i := 0; i < n; i++ {
		d := whole * time.Duration(i%20) / 15 // from at once to past the answer
		ctx, cancel := context.WithTimeout(context.Background(), d)
		res, err := ppa.Check(ctx, m, prop, nil, ppa.Options{})
		cancel()
		if err != nil {
			t.Fatalf("stop after %v: error %v", d, err)
		}
		switch res.Verdict {
		case explicit.Unknown:
			stopped++
		case want.Verdict:
		default:
			t.Fatalf("stop after %v: %v, want %v or Unknown", d, res.Verdict, want.Verdict)
		}
	}
	t.Logf("%d of %d stopped (an uninterrupted check: %v)", stopped, n, whole)
	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > base {
		t.Fatalf("%d goroutines left, %d before", g, base)
	}
}

// TestS25WEndedNoEncoding: a check whose context has ended before the
// Z3 encoding starts answers Unknown without starting the encoding on a
// goroutine of its own (it went on for seconds on a large model, on a
// core of a process that had nothing left to do).
func TestS25WEndedNoEncoding(t *testing.T) {
	m := testutil.LoadSource(t, "w.spec", testutil.ArraySpec(300))
	prop := m.Properties[0]
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	base := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := ppa.Check(ctx, m, prop, nil, ppa.Options{Compiled: g})
	if err != nil || res.Verdict != explicit.Unknown {
		t.Fatalf("%v, %v; want Unknown", res, err)
	}
	if n := runtime.NumGoroutine(); n > base {
		t.Fatalf("%d goroutines after the check, %d before: the encoding was started", n, base)
	}
}
