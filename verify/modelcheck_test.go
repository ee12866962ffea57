package verify_test

import (
	"context"
	"testing"

	"vigil/lang"
	"vigil/verify"
)

// A Go program runs vigil check --bounds's proof and gets its findings:
// an outcome that leaves a range, with a witness state.
func TestBoundsFindings(t *testing.T) {
	src := "model m\nvar x : 0 .. 3 = 0\naction up when x < 4 -> x' = x + 1\nproperty p { unsafe x == 0 && x == 1 }\n"
	m, diags := lang.LoadSource("m.spec", []byte(src), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	fs, n, err := verify.BoundsFindings(context.Background(), m)
	if err != nil || n != 1 {
		t.Fatalf("BoundsFindings = %v, %d, %v; want one violation", fs, n, err)
	}
	f := fs[0]
	if f.Kind != "range" || f.Variable != "x" || f.Exact != "4" || f.State != "x=3" {
		t.Errorf("finding %+v", f)
	}
	if want := "m.spec:3:8: error: range: action up, outcome 1 sets x' = 4, outside 0..3, in state x=3 (property p)"; f.String() != want {
		t.Errorf("text %q, want %q", f.String(), want)
	}
	ds, n, err := verify.DeadlockFindings(context.Background(), m)
	if err != nil || n != 0 || len(ds) != 0 {
		t.Errorf("DeadlockFindings = %v, %d, %v; want none (up is applicable everywhere)", ds, n, err)
	}
}
