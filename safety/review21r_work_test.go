package safety_test

import (
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
)

// TestReview21rManyLabelsWorkWithinBound: 16 self-loop labels (each a
// deviation) on 71 open states, every pair not safe, radius 2^20 (beyond
// the dense bound): every decider must be refused with the pairs error
// after at most 4 times the bound (lowered to 2^16) in expansions plus
// backups. LRTDP raised one value a trial while it expanded and backed up
// many states again: 2.4 million, 37 times the bound (at 2^26, minutes
// without an answer; session 20 refused at once).
func TestReview21rManyLabelsWorkWithinBound(t *testing.T) {
	const bound = 1 << 16
	defer safety.SetMaxPairs(bound)()
	m := testutil.LoadSource(t, "spins.spec", spinsSpec(`action down when x > 0 -> x' = x - 1
action die -> x' = 99
property p { unsafe x == 99 }
policy rules diver { otherwise -> die }
`))
	for _, algo := range safety.Algorithms {
		ok, st, err := decideDiver(t, m, algo, safety.MaxRadius, symbolic.State{70, 0})
		if err == nil || !pairsErr.MatchString(err.Error()) {
			t.Errorf("%s: %v, %v; want the pairs error", algo, ok, err)
			continue
		}
		if w := st.Expanded + st.Backups; w > 4*bound {
			t.Errorf("%s: refused after %d expansions and backups, more than 4 times the bound %d", algo, w, bound)
		}
	}
}
