package bdd_test

import (
	"context"
	"testing"
	"time"

	"vigil/bdd"
	"vigil/lang"
	"vigil/safety"
	"vigil/symbolic/explicit"
)

// arraySpec's write a[i]' = a[j] lowers to about N^2 expression nodes:
// at N = 300 the compile and the encoding take a good fraction of a
// second, at 1,500 (bench/adversarial/s24l_load_timeout.txtar) seconds.
const arraySpec = `model w
const N = 300
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. N - 1 = 0
var j : 0 .. N - 1 = 0
action w -> a[i]' = a[j]
action mi when i < N - 1 -> i' = i + 1
property p { start i == 0 && a[0] == 0 unsafe a[0] == 3 }
`

// TestS25CompileStops: Verify under a context that has ended (a
// --timeout that ran out while the model compiled) answers Unknown with
// the context's reason, not an error, and at once; a compiled model
// given in Options.Compiled is not compiled again, and one of another
// model is not used.
func TestS25CompileStops(t *testing.T) {
	m, diags := lang.LoadSource("w.spec", []byte(arraySpec), lang.Options{})
	if m == nil || diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Properties[0]
	for _, cause := range []string{"timeout", "canceled"} {
		var ctx context.Context
		var cancel context.CancelFunc
		if cause == "timeout" {
			ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
		} else {
			ctx, cancel = context.WithCancel(context.Background())
			cancel()
		}
		begin := time.Now()
		res, err := bdd.Verify(ctx, m, prop, nil, bdd.Options{})
		cancel()
		if err != nil {
			t.Fatalf("%s: error %v, want Unknown", cause, err)
		}
		if res.Verdict != bdd.Unknown || res.Reason != cause {
			t.Fatalf("%s: %v (%q), want Unknown (%q)", cause, res.Verdict, res.Reason, cause)
		}
		t.Logf("%s: stopped after %v", cause, time.Since(begin))
	}
	// Explore and PropU stop there too, with an answer that knows nothing
	// (no space was made), which their methods read without a panic.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ex, err := bdd.Explore(ctx, m, prop, nil, bdd.Options{})
	if err != nil || ex.Reason != "canceled" {
		t.Fatalf("Explore: %v, %+v, want stopped (canceled)", err, ex)
	}
	s, err := bdd.PropU(ctx, m, prop, nil, safety.Inf, nil, bdd.Options{})
	if err != nil || s.Reason != "canceled" || s.Complete {
		t.Fatalf("PropU: %v, %+v, want stopped (canceled)", err, s)
	}
	if cs, _, why := s.CubesOrStop(10); cs != nil || why != "" {
		t.Fatalf("PropU stopped: cubes %v (%q)", cs, why)
	}
	if starts, _, _, err := s.StartCounts(); starts != nil || err != nil {
		t.Fatalf("PropU stopped: start counts %v, %v", starts, err)
	}
	if err := s.RangeError(); err != nil {
		t.Fatalf("PropU stopped: %v", err)
	}
	// Given compiled, the engine does not compile: it then stops in the
	// encoding (with a space, so with its figures).
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	res, err := bdd.Verify(ctx, m, prop, nil, bdd.Options{Compiled: g})
	if err != nil || res.Verdict != bdd.Unknown || res.Stats.BDDVars == 0 {
		t.Fatalf("compiled given: %v, %+v, want Unknown after the space was made", err, res)
	}
	// A generator of another model is ignored, not trusted.
	other, diags := lang.LoadSource("x.spec", []byte("model x\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty p { start x == 0 unsafe x == 3 }\n"), lang.Options{})
	if other == nil || diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	og, err := explicit.New(other, other.Properties[0])
	if err != nil {
		t.Fatal(err)
	}
	small, diags := lang.LoadSource("y.spec", []byte("model y\nvar x : 0 .. 3 = 0\naction a when x < 2 -> x' = x + 1\nproperty p { start x == 0 unsafe x == 3 }\n"), lang.Options{})
	if small == nil || diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	res, err = bdd.Verify(context.Background(), small, small.Properties[0], nil, bdd.Options{Compiled: og})
	if err != nil || res.Verdict != bdd.Safe {
		t.Fatalf("another model's generator: %v, %v, want safe (x stops at 2)", err, res.Verdict)
	}
}
