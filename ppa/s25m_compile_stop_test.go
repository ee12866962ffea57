package ppa_test

import (
	"context"
	"testing"
	"time"

	"vigil/lang"
	"vigil/ppa"
	"vigil/symbolic/explicit"
)

// arraySpec's write a[i]' = a[j] lowers to about N^2 expression nodes:
// compiling it and encoding it into Z3 take a good fraction of a second
// at N = 300, seconds at 1,500 (bench/adversarial/s25m_engine_timeout.txtar).
const arraySpec = `model w
const N = 300
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. N - 1 = 0
var j : 0 .. N - 1 = 0
action w -> a[i]' = a[j]
action mi when i < N - 1 -> i' = i + 1
property p { start i == 0 && a[0] == 0 unsafe a[0] == 3 }
`

// TestS25CompileStops: Check under a context that has ended, while it
// compiles the model or (given it compiled) while it encodes it into Z3,
// answers Unknown with the context's reason, never an error or a verdict.
func TestS25CompileStops(t *testing.T) {
	m, diags := lang.LoadSource("w.spec", []byte(arraySpec), lang.Options{})
	if m == nil || diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Properties[0]
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	for _, compiled := range []*explicit.Generator{nil, g} {
		for _, cause := range []string{"timeout", "interrupted"} {
			var ctx context.Context
			var cancel context.CancelFunc
			if cause == "timeout" {
				ctx, cancel = context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
			} else {
				ctx, cancel = context.WithCancel(context.Background())
				cancel()
			}
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
