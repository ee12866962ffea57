package smt

import (
	"context"
	"testing"
	"time"

	"vigil/lang"
)

// TestS32yStopNeverClean: CheckBounds, FindDeadlocks and
// StartSatisfiable stopped at any moment (before, during the encoding of
// a query, during its check, between queries) never answer "no range
// error", "no deadlock" or "start unsatisfiable" on a model that has a
// range error (in its last command), a deadlock and a satisfiable start:
// the stopped query is undecided, or the answer is the true one, and
// nothing is an error.
func TestS32yStopNeverClean(t *testing.T) {
	m, diags := lang.LoadSource("s32y.spec", []byte(`model s32y
const N = 30
var a : [0 .. N - 1] of 0 .. 10
var y : 0 .. 10
action inc(i in 0 .. N - 1) when a[i] < 10 && y < 10 -> a[i]' = a[i] + 1
action jump(i in 0 .. N - 1, j in 0 .. N - 1) when i != j && a[i] > 0 && a[j] < 10 && y < 10 -> a[i]' = a[i] - 1, a[j]' = a[j] + 1
action bad when y == 3 && a[0] + a[1] + a[2] == 17 -> y' = y + 20
property p { start a[0] <= 1 && y <= 3 unsafe a[1] == 10 }
`), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	t0 := time.Now()
	full, err := CheckBounds(m, CheckOptions{})
	if err != nil || len(full.Violations) == 0 {
		t.Fatalf("CheckBounds without a stop: %+v, %v, want a violation", full, err)
	}
	dl, err := FindDeadlocks(m, CheckOptions{})
	if err != nil || len(dl.Deadlocks) == 0 {
		t.Fatalf("FindDeadlocks without a stop: %+v, %v, want a deadlock", dl, err)
	}
	span := time.Since(t0)
	steps := 60
	if testing.Short() {
		steps = 15
	}
	stopped := 0
	for i := 0; i <= steps; i++ {
		delay := span * time.Duration(i) / time.Duration(steps)
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(delay, cancel)
		opts := CheckOptions{Context: ctx}
		b, err := CheckBounds(m, opts)
		if err != nil {
			t.Fatalf("CheckBounds stopped after %v: %v", delay, err)
		}
		if len(b.Violations) == 0 && len(b.Undecided) == 0 && !b.Stopped {
			t.Fatalf("CheckBounds stopped after %v: no range error, nothing undecided", delay)
		}
		if b.Stopped {
			stopped++
		}
		d, err := FindDeadlocks(m, opts)
		if err != nil {
			t.Fatalf("FindDeadlocks stopped after %v: %v", delay, err)
		}
		if len(d.Deadlocks) == 0 && len(d.Undecided) == 0 {
			t.Fatalf("FindDeadlocks stopped after %v: no deadlock, nothing undecided", delay)
		}
		r, _, err := StartSatisfiable(m, m.Property("p"), opts)
		if err != nil || r == Unsat {
			t.Fatalf("StartSatisfiable stopped after %v: %v %v, want sat or unknown", delay, r, err)
		}
		cancel()
	}
	t.Logf("%d stops over %v, %d of them cut CheckBounds short", steps+1, span, stopped)
}
