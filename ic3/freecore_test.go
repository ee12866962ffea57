package ic3_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/ic3"
	"vigil/lang"
	"vigil/nn"
)

// TestPolIC3FreeCore: generalization takes an APFT unsat core that rests
// on no label exclusion without a further query (Stats.FreeCores). jump
// leads from every state to y = 140, from where grow walks into the
// unsafe region; the network chooses jump only where y >= 53. With start
// states up to y = 5 the policy never jumps (safe, and the proof needs
// jump's exclusion: a policy fact); up to y = 60 it does (unsafe). The
// queries at the levels where the frame already blocks y = 140 need no
// exclusion and take their cores without a query; those where y = 140 is
// in the frame need it, and their cores are certified again. (A build
// that took every core as free is caught by the PolIC3 conformance
// suites: invariants whose facts cannot be certified.)
func TestPolIC3FreeCore(t *testing.T) {
	dir := t.TempDir()
	net := `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[0, 0], [0, 0], [0, 1], [0, 0], [0, 0]], "bias": [2, 1, -50, 0, 200]}]}`
	if err := os.WriteFile(filepath.Join(dir, "net.json"), []byte(net), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		start int
		want  ic3.Verdict
	}{{5, ic3.Safe}, {60, ic3.Unsafe}} {
		spec := fmt.Sprintf(`model free
var x : 0 .. 300 = 0
var y : 0 .. 300 = 0
action inc when x < 300 -> x' = x + 1
action rest -> x' = x
action jump -> y' = 140
action dec when y > 0 -> y' = y - 1
action grow when y >= 140 && y < 300 -> y' = y + 1
policy nn net "net.json" {
    inputs  x, y
    outputs inc, rest, jump, dec, grow
}
property p {
    start x <= 5 && y <= %d
    unsafe y >= 150
}
`, c.start)
		path := filepath.Join(dir, fmt.Sprintf("free%d.spec", c.start))
		if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := lang.Load(path, lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		prop, pd := m.Property(""), m.Policy("net")
		p, err := nn.NewPolicy(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ic3.Check(context.Background(), m, prop, pd, ic3.Options{Generalize: true, FreeCores: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != c.want {
			t.Fatalf("start y <= %d: %v (%s), want %v", c.start, res.Verdict, res.Reason, c.want)
		}
		if res.Verdict == ic3.Safe {
			if err := checkInvariantPolicy(m, prop, p, res.Invariant, res.Differ...); err != nil {
				t.Fatalf("start y <= %d: invariant (enumeration): %v", c.start, err)
			}
			if len(res.Facts) == 0 {
				t.Errorf("start y <= %d: no policy fact: the proof must exclude jump", c.start)
			}
		}
		if res.Stats.FreeCores == 0 {
			t.Errorf("start y <= %d: no core taken without a query", c.start)
		}
		t.Logf("start y <= %d: %v, %d free cores, %d SMT calls", c.start, res.Verdict, res.Stats.FreeCores, res.Stats.SMTCalls)
	}
}
