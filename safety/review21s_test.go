package safety_test

import (
	"regexp"
	"testing"

	"vigil/internal/testutil"
	"vigil/safety"
	"vigil/symbolic"
)

// TestReview21sWorkWithinBound: on the walker's model every (x, b) pair is
// reached and not safe, and nPI's iterations each mark a pair or two while
// they walk a path of a hundred pairs or more again: at radius 2^20 it
// iterated for minutes (a billion expansions) with its records far below
// the bound. Every decider must be refused (with the pairs error) after
// work proportional to the bound, here lowered to 2^16: at most 4 times
// as many expansions and backups (at radius 30000 nPI expanded 511,793
// pairs before its revisits counted; at the real bound, a billion).
var pairsErr14 = regexp.MustCompile(`^radius [0-9]+: the search (holds|holds or revisits) more than 16384 \(state, remaining budget\) pairs \([0-9]+ states so far\); use a smaller radius or --radius inf$`)

var pairsErr = regexp.MustCompile(`^radius [0-9]+: the search (holds|holds or revisits) more than 65536 \(state, remaining budget\) pairs \([0-9]+ states so far\); use a smaller radius or --radius inf$`)

func TestReview21sWorkWithinBound(t *testing.T) {
	const bound = 1 << 16
	defer safety.SetMaxPairs(bound)()
	m := testutil.LoadSource(t, "h.spec", walkerSpec)
	for _, algo := range safety.Algorithms {
		for _, r := range []safety.Radius{30000, safety.MaxRadius} {
			ok, st, err := decideDiver(t, m, algo, r, symbolic.State{0, 0})
			exp := st.Expanded + st.Backups
			if err == nil || !pairsErr.MatchString(err.Error()) {
				t.Errorf("%s, radius %v: %v, %v after %d expansions; want the pairs error", algo, r, ok, err, exp)
				continue
			}
			if exp > 4*bound {
				t.Errorf("%s, radius %v: refused after %d expansions and backups, more than 4 times the bound %d", algo, r, exp, bound)
			}
			t.Logf("%s, radius %v: %d expansions and backups: %v", algo, r, exp, err)
		}
	}
}
