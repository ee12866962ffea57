package ppa_test

import (
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/ppa"
	"vigil/symbolic/explicit"
)

// TestS25CompileStops: Check under a context that has ended, while it
// compiles the model or (given it compiled) while it encodes it into Z3,
// answers Unknown with the context's reason, never an error or a verdict.
func TestS25CompileStops(t *testing.T) {
	m := testutil.LoadSource(t, "w.spec", testutil.ArraySpec(300))
	prop := m.Properties[0]
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	for _, compiled := range []*explicit.Generator{nil, g} {
		for _, cause := range []string{"timeout", "interrupted"} {
			ctx, cancel := testutil.EndedContext(cause)
			begin := time.Now()
			res, err := ppa.Check(ctx, m, prop, nil, ppa.Options{Compiled: compiled})
			cancel()
			if err != nil {
				t.Fatalf("compiled %v, %s: error %v, want Unknown", compiled != nil, cause, err)
			}
			if res.Verdict != explicit.Unknown || res.Reason != cause {
				t.Fatalf("compiled %v, %s: %v (%q), want Unknown (%q)", compiled != nil, cause, res.Verdict, res.Reason, cause)
			}
			t.Logf("compiled %v, %s: stopped after %v", compiled != nil, cause, time.Since(begin))
		}
	}
}
