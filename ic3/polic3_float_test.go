package ic3_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"vigil/ic3"
	"vigil/lang"
	"vigil/symbolic/explicit"
)

// TestPolIC3FloatNearTieOneState: good - bad = 1 + 2^20 (relu(x - 777) +
// relu(777 - x)) exactly, on scores near 2^60, so only at x = 777 does
// float64 round the 1 away, and bad, the first output, wins the tie. A
// certifier that closes a box around 777 by its exact margin says "bad
// is never chosen" and PolIC3 answers safe (it did before float64 error
// bounds); BFS, which evaluates the policy, finds the run to x = 777.
func TestPolIC3FloatNearTieOneState(t *testing.T) {
	dir := t.TempDir()
	spec := `model one
var x : 0 .. 1000 = 700
var crashed : bool = false
action good when !crashed -> x' = min(x + 1, 1000)
action bad when !crashed -> crashed' = true
policy nn net "net.json" {
    inputs  x
    outputs bad, good
}
property p {
    start !crashed && x == 700
    unsafe crashed
}
`
	net := `{"format": "vigil-nn", "version": 1, "layers": [
 {"weights": [[1], [-1], [0]], "bias": [-777, 777, 1152921504606846976], "activation": "relu"},
 {"weights": [[0, 0, 1], [1048576, 1048576, 1]], "bias": [0, 1]}]}`
	for name, src := range map[string]string{"one.spec": spec, "net.json": net} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, diags := lang.Load(filepath.Join(dir, "one.spec"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop, pd := m.Property(""), m.Policy("net")
	g, err := explicit.New(m, prop)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := explicit.NewDecider(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	bfs, err := explicit.Search(context.Background(), g, explicit.Options{Policy: dec, StopAtUnsafe: true})
	if err != nil {
		t.Fatal(err)
	}
	if bfs.Verdict != explicit.UnsafeVerdict {
		t.Fatalf("bfs: %v, want unsafe", bfs.Verdict)
	}
	for _, gen := range []bool{true, false} {
		res, err := ic3.Check(context.Background(), m, prop, pd, ic3.Options{Generalize: gen})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ic3.Unsafe {
			t.Errorf("polic3 (generalize %v): %v, want unsafe as bfs", gen, res.Verdict)
		}
	}
}
