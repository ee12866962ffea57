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

// TestS32yRlimitSureDisjunction: vigil verify --engine ppa --rlimit 10000
// on bench/polic3's blocks N=4 bl4_trees_safe was an internal error
// (exit 70): ic3/cert asks its 200 "sure" checks as one disjunction
// first, the disjunction ran out of the resource limit, each check alone
// was unsat, and the checker took that for Z3 contradicting itself.
// Each check unsat proves the disjunction; only a sat one contradicts
// them (found by h-revz).
func TestS32yRlimitSureDisjunction(t *testing.T) {
	m, diags := lang.Load(filepath.Join("..", "bench", "polic3", "blocks.spec"), lang.Options{Defines: map[string]string{"N": "4", "TLIMIT": "3"}})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Property("")
	pd := m.Policy("bl4_trees_safe")
	if pd == nil {
		t.Fatal("blocks.spec: no policy bl4_trees_safe")
	}
	for _, n := range []uint32{10000, 30000} {
		ctx := smt.WithRlimit(context.Background(), n)
		q := &verify.Question{Model: m, Property: prop, Policy: pd, Engine: "ppa", Limits: verify.Limits{Timeout: 60 * time.Second}}
		v, err := verify.Decide(ctx, q)
		if err != nil {
			t.Fatalf("rlimit %d: %v", n, err)
		}
		if v.Answer != explicit.Unknown && v.Answer != explicit.Safe {
			t.Fatalf("rlimit %d: %v, bfs says safe", n, v.Answer)
		}
	}
}
