package ic3_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/lang"
	"vigil/symbolic/explicit"
)

// s27aNet: LeakyReLU with slope 2^-1074 on -x/4 and -3x/8; its outputs
// differ by x/8 * 2^-1074 (exactly; float64 rounds each to a whole
// subnormal and ties them at x = 0, 1, 3 and 6). No bound proves such a
// margin (the prover closes a box only by more than 1e-9), so the
// certifier decides a box by evaluating its states, within a node budget
// of about 10,000 states.
const s27aNet = `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[-0.25], [-0.375]], "bias": [0, 0], "activation": "leaky_relu", "slope": 5e-324}, {"weights": [[1, 0], [0, 1]], "bias": [0, 0], "activation": "linear"}]}`

func s27aModel(t *testing.T, hi int, outputs string) string {
	t.Helper()
	dir := t.TempDir()
	spec := fmt.Sprintf(`model lk
var x : 0 .. %d = %d
var crashed : bool = false
action good when !crashed -> x' = max(x - 1, 0)
action bad when !crashed -> crashed' = true
policy nn net "net.json" {
    inputs  x
    outputs %s
}
property p { unsafe crashed }
`, hi, hi, outputs)
	for name, src := range map[string]string{"lk.spec": spec, "net.json": s27aNet} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "lk.spec")
}

// TestSplitUndecidedCertification: over x in 0..hi the policy never
// chooses bad (good is listed first and wins the ties), and one policy
// fact, bad excluded for every x, is the whole proof. The certifier is
// undecided over 0..20000 and more (its budget enumerates about 10,000
// states), which left PolIC3 unknown after 30 s (33 frames, ~90,000 SMT
// calls); APFT now splits the undecided region (split.go) into parts the
// certifier decides, each recorded as a policy fact over its part, and
// the independent checker accepts the certificate. With bad listed first
// the ties at x = 6 go to bad: unsafe, as bfs says.
func TestSplitUndecidedCertification(t *testing.T) {
	for _, hi := range []int{5000, 20000, 40000} {
		file := s27aModel(t, hi, "good, bad")
		m, diags := lang.Load(file, lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		prop, pd := m.Property(""), m.Policy("net")
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: true})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ic3.Safe {
			t.Fatalf("x in 0..%d: %v (%s), want safe", hi, res.Verdict, res.Reason)
		}
		if hi > 5000 && (res.Stats.SplitCalls == 0 || len(res.Facts) < 2) {
			t.Errorf("x in 0..%d: %d split calls, %d facts: the undecided region was not split", hi, res.Stats.SplitCalls, len(res.Facts))
		}
		for _, f := range res.Facts {
			if hi > 5000 && f.Within == nil {
				t.Errorf("x in 0..%d: a fact over the whole box %d, not over a part", hi, f.Box)
			}
		}
		c := certificate(m, prop, pd, res.Invariant)
		c.Facts = certFacts(m, res.Facts)
		back := roundTrip(t, 0, c, m, prop, pd)
		if err := cert.Check(context.Background(), back, m, prop, pd); err != nil {
			t.Errorf("x in 0..%d: the certificate of %d boxes and %d facts is rejected: %v", hi, len(res.Invariant), len(res.Facts), err)
		}
	}
	// bad first: the tie at x = 6 goes to bad, 34 steps from x = 40 (and
	// 19,995 from 20000: bench/adversarial/s27n_nn_leaky_subnormal_tie).
	file := s27aModel(t, 40, "bad, good")
	m, diags := lang.Load(file, lang.Options{})
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
	res, err := ic3.Check(context.Background(), m, prop, pd, ic3.Options{Generalize: true})
	if err != nil {
		t.Fatal(err)
	}
	if bfs.Verdict != explicit.UnsafeVerdict || res.Verdict != ic3.Unsafe {
		t.Errorf("bad first: bfs %v, polic3 %v, want unsafe", bfs.Verdict, res.Verdict)
	}
}
