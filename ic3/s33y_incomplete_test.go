package ic3_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"vigil/ic3"
	"vigil/lang"
	"vigil/smt"
)

// TestS33yIncompleteArithIsTheLimit: under a resource limit, Z3's
// arithmetic gives up as "(incomplete (theory arithmetic))" when the
// limit runs out inside its final check; ic3 on bench/ic3scaling's tank
// with all labels at rlimit 2500 ended unknown with that reason, which
// does not name the limit (h-z3's reproducer). smt now counts a check
// that spent the whole limit (Z3's rlimit count) as the limit: the
// reason is the limit's, at 2500 and around it, and never a verdict.
func TestS33yIncompleteArithIsTheLimit(t *testing.T) {
	m, diags := lang.Load(filepath.Join("..", "bench", "ic3scaling", "tank.spec"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Property("")
	for _, n := range []uint32{2400, 2500, 2600} {
		res, err := ic3.Check(smt.WithRlimit(context.Background(), n), m, prop, nil, ic3.Options{Generalize: true})
		if err != nil {
			t.Fatalf("rlimit %d: %v", n, err)
		}
		if res.Verdict == ic3.Safe {
			t.Fatalf("rlimit %d: safe, but all labels reach level > N - 10", n)
		}
		if res.Verdict == ic3.Unknown && (strings.Contains(res.Reason, "incomplete") || res.Reason != fmt.Sprintf("resource limit (rlimit %d)", n)) {
			t.Errorf("rlimit %d: unknown %q, want the limit's reason", n, res.Reason)
		}
	}
}
