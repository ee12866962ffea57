package ic3_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"vigil/lang"
	"vigil/smt"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// TestS32yRlimitNoInternalError: under vigil verify --rlimit 1000, ic3
// and polic3 on bench/polic3's blocks N=4 tree policies failed with
// "smt: internal error: the model takes no label" (exit 70): a check
// that ran out of its resource limit made Z3 4.8.12 drop assertions it
// was preprocessing, the transition relation among them, and a later
// check of the same solver answered sat with a model that took no label.
// Since then a solver whose check ran out answers unknown until it is
// rebuilt: each run gives bfs's verdict or unknown, never an error.
func TestS32yRlimitNoInternalError(t *testing.T) {
	m, diags := lang.Load(filepath.Join("..", "bench", "polic3", "blocks.spec"), lang.Options{Defines: map[string]string{"N": "4", "TLIMIT": "3"}})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Property("")
	for _, pol := range []string{"bl4_trees_safe", "bl4_trees_unsafe"} {
		pd := m.Policy(pol)
		if pd == nil {
			t.Fatalf("blocks.spec: no policy %s", pol)
		}
		want, err := verify.Decide(context.Background(), &verify.Question{Model: m, Property: prop, Policy: pd, Engine: "bfs"})
		if err != nil {
			t.Fatal(err)
		}
		for _, eng := range []string{"ic3", "polic3"} {
			for _, n := range []uint32{300, 1000, 3000} {
				ctx := smt.WithRlimit(context.Background(), n)
				q := &verify.Question{Model: m, Property: prop, Policy: pd, Engine: eng, Limits: verify.Limits{Timeout: 60 * time.Second}}
				v, err := verify.Decide(ctx, q)
				if err != nil {
					t.Fatalf("%s, %s, rlimit %d: %v", pol, eng, n, err)
				}
				if v.Answer != explicit.Unknown && v.Answer != want.Answer {
					t.Fatalf("%s, %s, rlimit %d: %v, bfs says %v", pol, eng, n, v.Answer, want.Answer)
				}
			}
		}
	}
}
