package verify

import (
	"context"
	"testing"
	"time"

	"vigil/lang"
)

// TestS33eBoundedStopsWhileUnrolling: the bounded question stops soon
// after its context's end (within a second on an idle machine) while it unrolls a model whose every step
// is large (8,000 commands, each step's relation built in Go and Z3
// without a solver call in between).
func TestS33eBoundedStopsWhileUnrolling(t *testing.T) {
	src := "model big\nvar x : 0 .. 8000 = 0\nvar y : 0 .. 3 = 0\n" +
		"action m(i in 0 .. 7999) when x == i -> x' = x + 1 | y' = y + 1\n" +
		"property p { unsafe x == 8000 }\n"
	m, diags := lang.LoadSource("big.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	for _, after := range []time.Duration{300 * time.Millisecond, 1500 * time.Millisecond} {
		st := &bmcState{}
		st.uLimit.Store(bmcNoLimit)
		st.rLimit.Store(bmcNoLimit)
		ctx, cancel := context.WithTimeout(context.Background(), after)
		begin := time.Now()
		out := askBounded(ctx, q, st)
		late := time.Since(begin) - after
		cancel()
		t.Logf("stop after %v: returned %v late (%s; clear u<%d r<%d)", after, late, out.why, st.unsafeClear.Load(), st.rangeClear.Load())
		if late > 5*time.Second { // the aim is a second; 5 s spares a loaded machine
			t.Errorf("stop after %v: the bounded question returned %v late", after, late)
		}
	}
}
