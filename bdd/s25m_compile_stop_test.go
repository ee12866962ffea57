package bdd_test

import (
	"context"
	"testing"
	"time"

	"vigil/bdd"
	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/safety"
	"vigil/symbolic/explicit"
)

// TestS25CompileStops: Verify under a context that has ended (a
// --timeout that ran out while the model compiled) answers Unknown with
// the context's reason, not an error, and at once; a compiled model
// given in Options.Compiled is not compiled again, and one of another
// model is not used.
func TestS25CompileStops(t *testing.T) {
	m := testutil.LoadSource(t, "w.spec", testutil.ArraySpec(300))
	prop := m.Properties[0]
	for _, cause := range []string{"timeout", "canceled"} {
		ctx, cancel := testutil.EndedContext(cause)
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
	ctx, cancel := testutil.EndedContext("canceled")
	defer cancel()
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
