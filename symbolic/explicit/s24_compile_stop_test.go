package explicit_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic/explicit"
)

// TestS24CompileStops: compiling a model of millions of expression nodes
// (a write a[i]' = a[j] lowers to N^2 of them) stops at once when its
// context is done, with the context's error, and compiles in full
// without one.
func TestS24CompileStops(t *testing.T) {
	m, diags := lang.LoadSource("w.spec", []byte(`model w
const N = 300
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. N - 1 = 0
var j : 0 .. N - 1 = 0
action w -> a[i]' = a[j]
property p { start i == 0 unsafe a[0] == 3 }
`), lang.Options{})
	if m == nil {
		t.Fatal(diags.Render())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if _, err := explicit.NewContext(ctx, m, m.Properties[0]); !errors.Is(err, context.Canceled) {
		t.Fatalf("compiling under a cancelled context: %v, want context.Canceled", err)
	}
	t.Logf("stopped after %v", time.Since(start))
	g, err := explicit.NewContext(context.Background(), m, m.Properties[0])
	if err != nil {
		t.Fatal(err)
	}
	if g.Words() == 0 {
		t.Fatal("no layout")
	}
}
