package verify

import (
	"context"
	"testing"
	"time"

	"vigil/lang"
)

// TestS33hBoundedNeverUnsafe: a kind that no state within the ranges can
// meet is clear at every depth, asked once before the unrolling. The
// hunter's range error 1,500 steps out (review17b_auto_hunt_range: its
// unsafe condition y == 1000 && y < 999 is false) waited for an unrolling
// that deep, and auto answered unknown at its timeout where it had
// answered the range error before session 33. Where the unsafe condition
// can hold, the question still unrolls (clear only as far as it asked),
// and a range error that no state can meet is clear at every depth.
func TestS33hBoundedNeverUnsafe(t *testing.T) {
	for _, c := range []struct {
		name, unsafe     string
		uNever, rNever   bool
		drainedWithoutIt bool
	}{
		{"false unsafe", "y == 1000 && y < 999", true, false, true},
		{"unsafe beyond the ranges", "x > 3000", true, false, true},
		{"reachable unsafe", "y == 1000", false, false, false},
	} {
		src := "model m\nconst N = 3000\nvar x : 0 .. N = 0\nvar y : 0 .. 1000 = 0\n" +
			"action up when x < N -> x' = x + 1 | x' = x + 2\n" +
			"action side when y < 1000 -> y' = y + 1\n" +
			"property p { start x == 0 unsafe " + c.unsafe + " }\n"
		m, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Engine: "auto"})
		if err != nil {
			t.Fatal(err)
		}
		st := &bmcState{}
		st.uLimit.Store(bmcNoLimit)
		st.rLimit.Store(bmcNoLimit)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		out := askBounded(ctx, q, st)
		cancel()
		if got := st.unsafeClear.Load() == bmcNoLimit; got != c.uNever {
			t.Errorf("%s: unsafe clear at every depth %v, want %v (clear below %d)", c.name, got, c.uNever, st.unsafeClear.Load())
		}
		t.Logf("%s: %+v; clear u<%d r<%d", c.name, out, st.unsafeClear.Load(), st.rangeClear.Load())
		if c.drainedWithoutIt && (!out.drained || out.cex != nil || out.found != nil) {
			t.Errorf("%s: ended %+v, want drained without a witness (no unsafe state anywhere: a range error met is the answer)", c.name, out)
		}
		if !c.uNever && out.found == nil && out.cex == nil && ctx.Err() == nil && out.why == "" {
			t.Errorf("%s: ended %+v, want a witness or a stop", c.name, out)
		}
	}
}
