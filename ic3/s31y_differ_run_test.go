package ic3_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"vigil/ic3"
	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
)

// TestS31yPolIC3StoppedInDiffer: a PolIC3 run whose context ends while
// the disequality search encodes the model answers unknown, not an
// error. Since the term constructors poll the run's context
// (smt.Context.StopWhen, session 31), the stop surfaced there as
// "smt: encoding stopped: context canceled" from ic3.Check, and
// `vigil verify --engine polic3 --timeout T` failed with exit 1 where
// the timeout landed in that encoding.
func TestS31yPolIC3StoppedInDiffer(t *testing.T) {
	src := `model perm
var x0 : 0 .. 3
var x1 : 0 .. 3
var x2 : 0 .. 3
action s01 -> x0' = x1, x1' = x0
action s12 -> x1' = x2, x2' = x1
property p {
    start x0 == 0 && x1 == 1 && x2 == 2
    unsafe x0 == x1
}
`
	path := filepath.Join(t.TempDir(), "perm.spec")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(path, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	p, pd, err := nn.Random(m, []symbolic.LabelID{0, 1}, 1, []int{4})
	if err != nil {
		t.Fatal(err)
	}
	lp, err := ic3.Certifier(p)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, gen := range []bool{false, true} {
		res, err := ic3.Check(ctx, m, m.Property(""), pd, ic3.Options{Generalize: gen, Learned: lp})
		if err != nil {
			t.Fatalf("generalize %v: a run stopped in the disequality search failed: %v", gen, err)
		}
		if res.Verdict != ic3.Unknown {
			t.Fatalf("generalize %v: a cancelled run answered %v", gen, res.Verdict)
		}
	}
}
