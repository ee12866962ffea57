package bdd_test

import (
	"context"
	"sync/atomic"
	"testing"

	"vigil/bdd"
	"vigil/lang"
	"vigil/safety"
)

// modSpec is /work/r3.spec's kind of model, smaller: modular updates
// whose images need large BDDs (at full size one operation takes
// seconds).
const modSpec = `model mod3
var x : 0 .. 40 = 0
var y : 0 .. 40 = 0
var z : 0 .. 40 = 0
action a when x + y < 60 -> x' = ((x + 3 * y + 7) - 41 * ((x + 3 * y + 7) / 41)), y' = ((y + z) - 41 * ((y + z) / 41))
action b when z > x -> z' = ((z + 2 * x + 1) - 41 * ((z + 2 * x + 1) / 41)), x' = ((x + 5) - 41 * ((x + 5) / 41))
action c when y != z -> y' = ((3 * y + x) - 41 * ((3 * y + x) / 41))
property p {
    start x <= 3 && y <= 3 && z <= 3
    unsafe x == 40 && y == 39 && z == 38
}
`

// withAsync runs f with the figures counted after every layer and hook before
// each (nil: none).
func withAsync(hook func(), f func()) {
	saveT, saveH := *bdd.AsyncTable, *bdd.OpHook
	*bdd.AsyncTable, *bdd.OpHook = 0, hook
	defer func() { *bdd.AsyncTable, *bdd.OpHook = saveT, saveH }()
	f()
}

// canceller returns a hook that, at the first operation after the given
// number of iterations reported to progress, ends the context and holds that
// operation until release is closed, so that the manager must abandon it
// (whatever the machine's speed); the operations before it run as usual.
func canceller(after int64, cancel context.CancelFunc, release <-chan struct{}) (hook func(), progress func(bdd.Progress), ops *atomic.Int64) {
	ops = new(atomic.Int64)
	var iters atomic.Int64
	var fired atomic.Bool
	return func() {
			ops.Add(1)
			if cancel != nil && iters.Load() >= after && fired.CompareAndSwap(false, true) {
				cancel()
				<-release
			}
		}, func(bdd.Progress) {
			iters.Add(1)
		}, ops
}

// TestAbandonedOperation: a context that ends while an operation runs
// stops Verify, Explore and PropU without waiting for the operation, with
// the unknown answer and the figures computed before it (the states of
// the layers counted, the depth, the iterations; the result's size is
// not measured). The run that is not cancelled agrees with the one
// without goroutines.
func TestAbandonedOperation(t *testing.T) {
	m, diags := lang.LoadSource("mod3.spec", []byte(modSpec), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prop := m.Properties[0]
	saveEvery := *bdd.ProgressEvery
	*bdd.ProgressEvery = 0 // every iteration reported
	defer func() { *bdd.ProgressEvery = saveEvery }()
	want, err := bdd.Verify(context.Background(), m, prop, nil, bdd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var full *bdd.Result
	hook, _, ops := canceller(0, nil, nil)
	live, stop := context.WithCancel(context.Background()) // Background cannot end: no goroutines
	defer stop()
	withAsync(hook, func() { full, err = bdd.Verify(live, m, prop, nil, bdd.Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	if full.Verdict != want.Verdict || full.States.Cmp(want.States) != 0 || full.Depth != want.Depth || len(full.Trace) != len(want.Trace) {
		t.Fatalf("on goroutines: %v, %v states, depth %d, trace of %d; without: %v, %v states, depth %d, trace of %d",
			full.Verdict, full.States, full.Depth, len(full.Trace), want.Verdict, want.States, want.Depth, len(want.Trace))
	}
	total := ops.Load()
	if want.Depth < 4 || total < 100 {
		t.Fatalf("depth %d, %d operations: the model is too small for the test", want.Depth, total)
	}
	for _, c := range []struct {
		name  string
		after int64 // progress reports before the cancel
		run   func(ctx context.Context, opt bdd.Options) (reason string, states int64, depth int, setNodes int)
	}{
		{"verify", 3, func(ctx context.Context, opt bdd.Options) (string, int64, int, int) {
			r, err := bdd.Verify(ctx, m, prop, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict != bdd.Unknown || r.Trace != nil || r.Starts.Int64() != want.Starts.Int64() {
				t.Errorf("verify: %v with a trace of %d, %v start states; want unknown without a trace, %v start states", r.Verdict, len(r.Trace), r.Starts, want.Starts)
			}
			return r.Reason, r.States.Int64(), r.Depth, r.Stats.SetNodes
		}},
		{"explore", 3, func(ctx context.Context, opt bdd.Options) (string, int64, int, int) {
			ex, err := bdd.Explore(ctx, m, prop, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			if ex.Complete {
				t.Error("explore: complete")
			}
			return ex.Reason, ex.States.Int64(), ex.Depth, ex.Stats.SetNodes
		}},
		{"propu", 1, func(ctx context.Context, opt bdd.Options) (string, int64, int, int) {
			s, err := bdd.PropU(ctx, m, prop, nil, safety.Inf, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			if s.Complete {
				t.Error("propu: complete")
			}
			return s.Reason, 1, 1, s.Stats.SetNodes
		}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		release := make(chan struct{})
		hook, progress, ops := canceller(c.after, cancel, release)
		reports := 0
		count := func(p bdd.Progress) { reports++; progress(p) }
		var reason string
		var states int64
		var depth, setNodes int
		withAsync(hook, func() { reason, states, depth, setNodes = c.run(ctx, bdd.Options{Progress: count}) })
		stopped := ops.Load()
		close(release) // the abandoned operation runs on to its end
		if reason != "canceled" || states <= 0 || depth <= 0 || setNodes != -1 {
			t.Errorf("%s cancelled during operation %d: reason %q, %d states, depth %d, %d result nodes; want canceled, the states and depth so far, result not measured (-1)",
				c.name, stopped, reason, states, depth, setNodes)
		}
		t.Logf("%s: %d progress reports", c.name, reports)
		if got := ops.Load(); got != stopped {
			t.Errorf("%s: %d operations started after the abandoned one, want none", c.name, got-stopped)
		}
		cancel()
	}
}

// TestCubesStopped: a stop while the unsafe region's cubes are listed
// (after a complete Prop-U) gives no cubes and the reason, not an empty
// cover beside a region that is not empty (`safe --all --json` showed
// `cubes: []`).
func TestCubesStopped(t *testing.T) {
	m, diags := lang.LoadSource("mod3.spec", []byte(modSpec), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prop := m.Properties[0]
	s, err := bdd.PropU(context.Background(), m, prop, nil, safety.Inf, nil, bdd.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Complete || s.Unsafe.Sign() == 0 {
		t.Fatalf("propu: complete %v, %v unsafe states; want a complete, non-empty region", s.Complete, s.Unsafe)
	}
	want, total, why := s.CubesOrStop(5)
	if why != "" || len(want) == 0 || total < 1 {
		t.Fatalf("cubes without a stop: %d of %v, stopped %q", len(want), total, why)
	}
	// The listing is a walk of the region's graph, which a stop that
	// comes during it abandons after the grace: as here, where the
	// manager is abandoned before it starts.
	bdd.Abandon(s, "interrupted")
	cs, total, why := s.CubesOrStop(5)
	if why != "interrupted" || cs != nil || total != 0 {
		t.Errorf("stopped while listing: %d cubes of %v, reason %q; want none, with the reason", len(cs), total, why)
	}

}
