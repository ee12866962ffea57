package ic3_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/ic3"
	"vigil/ic3/cert"
	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestDifferPermutations runs PolIC3 with random networks on generated
// permutation models (three variables over 0..3 whose steps swap two of
// them or move one to the free value, which leaves the range unless the
// three differ), where the disequality invariant is found and facts are
// certified within it, against BFS: the same verdicts, every safe
// answer's invariant (with its disequalities) checked by enumeration,
// and its certificate, written and read back, accepted by the checker.
func TestDifferPermutations(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 20
	}
	safe, withPairs, differFacts := 0, 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		u, w := seed%4, (seed/4)%4
		if u == w {
			w = (w + 1) % 4
		}
		src := fmt.Sprintf(`model perm%d
var x0 : 0 .. 3
var x1 : 0 .. 3
var x2 : 0 .. 3
action s01 -> x0' = x1, x1' = x0
action s12 -> x1' = x2, x2' = x1
action f0 -> x0' = 6 - x0 - x1 - x2
action f2 -> x2' = 6 - x0 - x1 - x2
property p {
    start x0 == %d && x1 == %d && x2 == %d
    unsafe x0 == %d && x1 == %d
}
`, seed, seed%3, (seed+1)%3, (seed+2)%3, u, w)
		dir := t.TempDir()
		path := filepath.Join(dir, "perm.spec")
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := lang.Load(path, lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		prop := m.Property("")
		outs := []symbolic.LabelID{0, 1, 2, 3}
		p, pd, err := nn.Random(m, outs, seed, []int{6})
		if err != nil {
			t.Fatal(err)
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := explicit.PolicyDecider(m, p)
		if err != nil {
			t.Fatal(err)
		}
		ctx := context.Background()
		want, err := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true})
		if err != nil {
			t.Fatalf("seed %d: bfs: %v", seed, err)
		}
		lp, err := ic3.Certifier(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: seed%2 == 0, Learned: lp})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		switch {
		case res.Verdict == ic3.Unsafe && want.Verdict == explicit.UnsafeVerdict:
			continue
		case res.Verdict != ic3.Safe || want.Verdict != explicit.Safe:
			t.Fatalf("seed %d: PolIC3 %v (%s), BFS %v", seed, res.Verdict, res.Reason, want.Verdict)
		}
		safe++
		if len(res.Differ) > 0 {
			withPairs++
		}
		if err := checkInvariantPolicy(m, prop, p, res.Invariant, res.Differ...); err != nil {
			t.Fatalf("seed %d: invariant (enumeration): %v", seed, err)
		}
		c := certificate(m, prop, pd, res.Invariant)
		c.Facts = certFacts(m, res.Facts)
		c.Differ = differNames(m, res.Differ)
		for _, f := range res.Facts {
			if f.Differ {
				differFacts++
			}
		}
		if err := cert.CheckWith(ctx, roundTrip(t, seed, c, m, prop, pd), m, prop, pd, p); err != nil {
			t.Fatalf("seed %d: the certificate is rejected: %v", seed, err)
		}
	}
	t.Logf("%d safe answers, %d with disequalities, %d facts within them", safe, withPairs, differFacts)
	if withPairs == 0 {
		t.Error("no safe answer used a disequality invariant")
	}
}
