package bdd_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"vigil/bdd"
	"vigil/lang"
	"vigil/safety"
)

// TestReview19jAbandonStress: contexts that end at random times, with the
// figures counted after every layer (so that the caller abandons the
// computation at once, in whatever operation it is): Verify, Explore and
// Prop-U never report an answer they did not establish nor counts beyond
// the complete ones, run under -race without a data race, and every
// computation's goroutine ends (none is left blocked on the manager's
// lock). A few seconds.
func TestReview19jAbandonStress(t *testing.T) {
	m, diags := lang.LoadSource("mod3.spec", []byte(smallMod), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prop := m.Properties[0]
	bg := context.Background()
	base := runtime.NumGoroutine()
	var want *bdd.Result
	var wantEx *bdd.Exploration
	var wantPU *bdd.Safety
	var full time.Duration
	withAsync(nil, func() {
		begin := time.Now()
		var err error
		if want, err = bdd.Verify(bg, m, prop, nil, bdd.Options{}); err != nil {
			t.Fatal(err)
		}
		full = time.Since(begin)
		if wantEx, err = bdd.Explore(bg, m, prop, nil, bdd.Options{}); err != nil {
			t.Fatal(err)
		}
	})
	r := rand.New(rand.NewPCG(19, 10))
	deadline := time.Now().Add(3 * time.Second)
	runs, stopped := 0, 0
	for time.Now().Before(deadline) {
		after := time.Duration(r.Int64N(int64(full) + 1))
		ctx, cancel := context.WithTimeout(bg, after)
		withAsync(nil, func() {
			switch runs % 3 {
			case 0:
				got, err := bdd.Verify(ctx, m, prop, nil, bdd.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if got.Verdict == bdd.Unknown {
					stopped++
				}
				if got.Verdict != bdd.Unknown && (got.Verdict != want.Verdict || got.States.Cmp(want.States) != 0 || len(got.Trace) != len(want.Trace)) ||
					got.States.Cmp(want.States) > 0 || got.Starts.Sign() != 0 && got.Starts.Cmp(want.Starts) != 0 {
					t.Errorf("stop after %v: Verify %v, %v states (%v start), %d steps; complete %v, %v (%v), %d", after, got.Verdict, got.States, got.Starts, len(got.Trace), want.Verdict, want.States, want.Starts, len(want.Trace))
				}
			case 1:
				got, err := bdd.Explore(ctx, m, prop, nil, bdd.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !got.Complete {
					stopped++
				}
				if got.Complete && (got.States.Cmp(wantEx.States) != 0 || got.Transitions != nil && got.Transitions.Cmp(wantEx.Transitions) != 0 || got.Deadlocks.Cmp(wantEx.Deadlocks) != 0) ||
					got.States.Cmp(wantEx.States) > 0 {
					t.Errorf("stop after %v: Explore complete %v, %v states, %v transitions; complete %v, %v", after, got.Complete, got.States, got.Transitions, wantEx.States, wantEx.Transitions)
				}
			case 2:
				got, err := bdd.PropU(ctx, m, prop, nil, safety.Inf, nil, bdd.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !got.Complete {
					stopped++
					break
				}
				if wantPU == nil {
					wantPU = got
				} else if got.Unsafe.Cmp(wantPU.Unsafe) != 0 {
					t.Errorf("stop after %v: complete Prop-U %v unsafe states, another run %v", after, got.Unsafe, wantPU.Unsafe)
				}
				if _, err := got.Decide(nil); err != nil {
					t.Fatal(err)
				}
			}
		})
		cancel()
		runs++
	}
	t.Logf("%d runs, %d stopped (a complete run %v)", runs, stopped, full)
	// The abandoned operations end on their own (each within a complete
	// run's time); then no goroutine of a computation is left.
	for end := time.Now().Add(30 * time.Second); runtime.NumGoroutine() > base && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > base {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left (%d before):\n%s", n, base, buf[:runtime.Stack(buf, true)])
	}
}

// smallMod is modSpec over 0..10: a complete run takes milliseconds.
var smallMod = strings.NewReplacer("40", "10", "41", "11", "60", "15", "39", "9", "38", "8").Replace(modSpec)
