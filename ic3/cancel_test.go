package ic3_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"vigil/ic3"
	"vigil/lang"
)

// A limit can hit anywhere: inside a check, a push of the current-state
// solver, an assertion, certification. Wherever it hits, Check answers
// Unknown (or a verdict found in time), never an error. The bench/polic3
// run that found this had "smt: push: push canceled" as an error.
func TestCancelAnywhere(t *testing.T) {
	m, diags := lang.Load(filepath.Join("..", "bench", "polic3", "blocks.spec"), lang.Options{Defines: map[string]string{"N": "6", "TLIMIT": "3"}})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop, pd := m.Property(""), m.Policy("bl6_16x16_safe")
	if prop == nil || pd == nil {
		t.Fatal("blocks.spec: want one property and policy bl6_16x16_safe")
	}
	unknown := 0
	for d := 2 * time.Millisecond; d < 1200*time.Millisecond; d = d * 3 / 2 {
		for _, g := range []bool{true, false} {
			ctx, cancel := context.WithTimeout(context.Background(), d)
			res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: g})
			cancel()
			if err != nil {
				t.Fatalf("limit %v, generalize %v: error %v, want an unknown answer", d, g, err)
			}
			if res.Verdict == ic3.Unsafe {
				t.Fatalf("limit %v: unsafe; BFS says safe", d)
			}
			if res.Verdict == ic3.Unknown {
				unknown++
				if res.Reason != "timeout" {
					t.Errorf("limit %v: reason %q, want timeout", d, res.Reason)
				}
			}
		}
	}
	if unknown == 0 {
		t.Error("no run was cut short: the limits are too long to test anything")
	}
}
