package ic3_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"vigil/lang"
	"vigil/smt"
	"vigil/verify"
)

// TestS29mEnginesCloseContexts checks that a decision leaves no Z3
// context or solver alive once Decide returns, with each SMT engine
// (ic3, polic3 on networks and tree ensembles, ppa, and the auto
// portfolio, whose losers are cancelled) and with a run cut short by
// its context: a long-lived process (vigil verify --policy all, a
// benchmark, a campaign in one process) asks many questions one after
// the other, and each Z3 context left alive costs some 16 MB
// (smt.LiveContexts). Whatever the limits cut, the count must return:
// at once for most runs, and for a run cut short, once the work it left
// behind ends (ppa leaves an encoding it gave up on to close its context
// on its own goroutine, auto waits only so long for cancelled members),
// which a small model's encoding does in milliseconds; the test waits for
// that up to a minute, a bound on a stuck goroutine, not on speed.
func TestS29mEnginesCloseContexts(t *testing.T) {
	m, diags := lang.Load(filepath.Join("..", "bench", "polic3", "blocks.spec"), lang.Options{Defines: map[string]string{"N": "4", "TLIMIT": "3"}})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Property("")
	c0, s0 := smt.LiveContexts()
	asked, later := 0, 0
	for _, pol := range []string{"bl4_16x16_safe", "bl4_trees_safe", "bl4_32x32_unsafe", "bl4_trees_unsafe"} {
		pd := m.Policy(pol)
		if pd == nil {
			t.Fatalf("blocks.spec: no policy %s", pol)
		}
		for _, eng := range []string{"ic3", "polic3", "polic3-nog", "ppa", "auto"} {
			for _, cut := range []time.Duration{0, 3 * time.Millisecond} {
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if cut > 0 {
					ctx, cancel = context.WithTimeout(ctx, cut)
				}
				q := &verify.Question{Model: m, Property: prop, Policy: pd, Engine: eng, Limits: verify.Limits{Timeout: 20 * time.Second}}
				_, err := verify.Decide(ctx, q)
				cancel()
				if err != nil {
					t.Logf("%s, %s, cut %v: %v", pol, eng, cut, err)
				}
				asked++
				c, s := smt.LiveContexts()
				for wait := time.Now(); (c != c0 || s != s0) && time.Since(wait) < time.Minute; c, s = smt.LiveContexts() {
					later++
					time.Sleep(5 * time.Millisecond)
				}
				if c != c0 || s != s0 {
					t.Fatalf("%s, engine %s, cut %v: %d Z3 contexts and %d solvers alive a minute after Decide, %d and %d before", pol, eng, cut, c, s, c0, s0)
				}
			}
		}
	}
	t.Logf("%d decisions, no Z3 context left alive (%d polls for one closed after Decide returned)", asked, later)
}
