package ppa

// s33g: the policy's solver of an abstraction is built at its first Push
// (solver.go's ensure): an abstraction whose cubes are all enumerated
// asks it nothing, and before the fix each iteration still asserted the
// policy's encoding and ran the warm-up check that internalizes it (on
// trees/FIGURES.md's 200-tree model with ranges of 5 values: 10 warm-up
// checks in 5 iterations where no query followed, user CPU 2.1 -> 3.3 s).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

func TestS33gPolicySolverBuiltOnlyWhenAsked(t *testing.T) {
	dir := t.TempDir()
	enumerated := 0
	for seed := uint64(1); seed <= 12; seed++ {
		sp := s32tGen(seed, dir)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("e%d.json", seed)), []byte(sp.ens), 0o644); err != nil {
			t.Fatal(err)
		}
		m := testutil.LoadSource(t, fmt.Sprintf("s32t%d.spec", seed), sp.src)
		pd := m.Policies[0]
		pol, err := symbolic.Instantiate(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		warms := 0
		res, err := Check(context.Background(), m, m.Properties[0], pd, Options{Policy: pol, beforeWarm: func() { warms++ }})
		if err != nil {
			continue // a network ppa refuses
		}
		if res.Stats.SMTCalls != warms {
			continue // some cube went through SMT
		}
		// only warm-up checks: the policy-free solver's, one per
		// iteration (the start condition's scope), not the policy's
		enumerated++
		if warms != res.Stats.Iterations {
			t.Errorf("seed %d: %d warm-up checks in %d iterations without another SMT call: the policy's solver was built for nothing", seed, warms, res.Stats.Iterations)
		}
	}
	if enumerated == 0 {
		t.Fatal("no run enumerated every cube: the test asks nothing")
	}
	t.Logf("%d runs enumerated every cube", enumerated)
}
