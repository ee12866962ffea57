package report

import (
	"context"
	"testing"
	"time"

	"vigil/fuzz"
	"vigil/internal/testutil"
	"vigil/symbolic/explicit"
)

// TestS23tGoalStopped: a goal test that --timeout ended said "the --budget
// ran out" (both end the context with DeadlineExceeded; safety mode told
// them apart); and with two workers its fuzzing time was 0 (the wall time
// less the confirmation times summed over both workers). The stop names
// what ended it, and fuzzing's time is the workers' time less
// confirmation's, as with one worker.
func TestS23tGoalStopped(t *testing.T) {
	m := testutil.LoadSource(t, "big.spec", `model big
var x : 0 .. 1000000 = 0
var y : 0 .. 1000000 = 0
action incx when x < 1000000 -> x' = x + 1
action incy when y < 1000000 -> y' = y + 1
action decx when x > 0 -> x' = x - 1
policy rules p { when x - 2 * (x / 2) == 1 -> decx  otherwise -> incx }
property g { unsafe false  goal x == 1000000 && y == 1000000 }
`)
	pd := m.Policy("p")
	d, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	opt := GoalOptions{Seed: 1, Pool: fuzz.PoolOptions{MaxPool: 1 << 30, WalkLen: 5, BState: 50, BExpansion: 200, MaxSteps: 1 << 60},
		Biases: []string{fuzz.BiasPolicyQuality, fuzz.BiasNovelty}, Depth: 2}
	run := func(ctx context.Context, budget time.Duration, workers int) *Goal {
		t.Helper()
		o := opt
		o.Budget = budget
		g, err := RunGoal(ctx, Subject{Model: m, Property: m.Property("g"), Policy: pd, Decider: d, Workers: workers}, o)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	timeout, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if g := run(timeout, time.Hour, 1); g.Complete || g.Stopped != "the --timeout ran out" {
		t.Errorf("--timeout: complete %v, stopped %q; want the --timeout ran out", g.Complete, g.Stopped)
	}
	g := run(context.Background(), 300*time.Millisecond, 1)
	if g.Complete || g.Stopped != "the --budget ran out" {
		t.Errorf("--budget: complete %v, stopped %q; want the --budget ran out", g.Complete, g.Stopped)
	}
	// --json says the result and how many pool states were checked, as
	// the text does ("with 0 of 1 pool states checked")
	if j, err := g.JSON(); err != nil || j.Result != "unknown" || j.Checked != g.Result.Checked || j.Pool != len(g.Pool.Entries) {
		t.Errorf("--json of a stopped test: %+v, %v; want result unknown and %d checked", j, err, g.Result.Checked)
	}
	interrupted, stop := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, stop)
	if g := run(interrupted, time.Hour, 1); g.Complete || g.Stopped != "interrupted" {
		t.Errorf("Ctrl-C: complete %v, stopped %q; want interrupted", g.Complete, g.Stopped)
	}
	began := time.Now()
	g = run(context.Background(), 500*time.Millisecond, 2)
	wall := time.Since(began)
	if g.FuzzWork <= 0 || g.ConfirmWork <= 0 || g.FuzzWork+g.ConfirmWork < wall || g.FuzzWork+g.ConfirmWork > 2*wall+time.Second {
		t.Errorf("two workers for %v: fuzz %v, confirm %v of work; want both positive, summing to the two workers' time", wall, g.FuzzWork, g.ConfirmWork)
	}
	// s24t: the phases' own times are wall clock (they summed the
	// workers' time, exceeding the test's), each at most the whole test
	if g.FuzzTime <= 0 || g.ConfirmTime <= 0 || g.FuzzTime > g.Elapsed || g.ConfirmTime > g.Elapsed || g.Elapsed > wall || g.Workers != 2 {
		t.Errorf("two workers for %v: fuzz %v, confirm %v, total %v of wall clock, %d workers; want both positive, at most the total, at most %v", wall, g.FuzzTime, g.ConfirmTime, g.Elapsed, g.Workers, wall)
	}
}
