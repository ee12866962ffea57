package explicit

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// TestS26wLoadStops: the walks before a model's compilation poll the
// context too. Validate walked the whole model at once (a write a[i]' =
// a[j] at 1,500 elements: 11 million nodes, 0.3 s of CPU, 0.65 s late
// on a loaded machine) without looking at Ctrl-C or --timeout, and the
// interval analysis of a value (symbolic.Model.Fits) walks all of it
// before compiling it (a single value of millions of nodes). Under a
// done context each returns with its error; without one, they answer
// as they did.
func TestS26wLoadStops(t *testing.T) {
	const N = 200
	m, diags := lang.LoadSource("w.spec", []byte(fmt.Sprintf(`model w
const N = %d
var a : [0 .. N - 1] of 0 .. 3 = 0
var i : 0 .. N - 1 = 0
var j : 0 .. N - 1 = 0
action w -> a[i]' = a[j]
property p { start i == 0 unsafe a[0] == 3 }
`, N)), lang.Options{})
	if m == nil {
		t.Fatal(diags.Render())
	}
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Validate(m); err != nil {
		t.Fatal(err)
	}
	if err := validate(m, &stopper{ctx: done}); !errors.Is(err, context.Canceled) {
		t.Fatalf("validate under a cancelled context: %v, want context.Canceled", err)
	}
	// one value of 20,000 nodes (a JANI expression can be that large):
	// max(a[0], max(a[1], ...))
	big := &symbolic.Expr{Op: symbolic.OpVar, Var: 0}
	for k := 1; k < 10000; k++ {
		big = &symbolic.Expr{Op: symbolic.OpMax, Args: []*symbolic.Expr{{Op: symbolic.OpVar, Var: symbolic.VarID(k % N)}, big}}
	}
	if !m.Fits(big) {
		t.Fatal("the value does not fit without a context")
	}
	if !m.FitsContext(context.Background(), big) {
		t.Fatal("FitsContext without a deadline differs from Fits")
	}
	if m.FitsContext(done, big) {
		t.Fatal("FitsContext under a cancelled context analysed the whole value")
	}
	cp := newCompiler(done, m)
	cp.expr(big)
	if !errors.Is(cp.err, context.Canceled) {
		t.Fatalf("compiling under a cancelled context: %v, want context.Canceled", cp.err)
	}
}
