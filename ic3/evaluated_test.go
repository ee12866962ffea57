package ic3_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"vigil/ic3"
	"vigil/lang"
)

// TestPolIC3Evaluated: on a model of 21 states every start query and
// every question about a box is small enough to answer by evaluation;
// the run says so in Stats.Evaluated and stays safe (up is only enabled
// below 5).
func TestPolIC3Evaluated(t *testing.T) {
	dir := t.TempDir()
	spec := `model two
var x : 0 .. 20 = 0
action up when x < 5 -> x' = x + 1
action down when x > 0 -> x' = x - 1
policy nn net "net.json" {
    inputs  x
    outputs up, down
}
property p {
    start x <= 2
    unsafe x >= 15
}
`
	net := `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[1], [-1]], "bias": [0, 3]}]}`
	for name, src := range map[string]string{"two.spec": spec, "net.json": net} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, diags := lang.Load(filepath.Join(dir, "two.spec"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop, pd := m.Property(""), m.Policy("net")
	for _, gen := range []bool{true, false} {
		res, err := ic3.Check(context.Background(), m, prop, pd, ic3.Options{Generalize: gen})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ic3.Safe {
			t.Fatalf("generalize %v: %v (%s), want safe", gen, res.Verdict, res.Reason)
		}
		if res.Stats.Evaluated == 0 {
			t.Errorf("generalize %v: no question answered by evaluation (%d SMT calls)", gen, res.Stats.SMTCalls)
		}
		t.Logf("generalize %v: %d questions evaluated, %d SMT calls", gen, res.Stats.Evaluated, res.Stats.SMTCalls)
	}
}
