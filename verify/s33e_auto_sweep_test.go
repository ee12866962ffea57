package verify

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// s33eRun runs the portfolio with the real bfs under a state limit (its
// depth read as auto reads it), the real IC3 and hunter, and the real
// range and bounded questions.
func s33eRun(q *Prepared, maxStates, workers int, free bool, timeout time.Duration) (*Verdict, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var p *portfolio
	own := *q
	own.BFS.Workers = workers
	p = newPortfolio(ctx, &own, []autoMember{
		{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
			return bfsDepth(ctx, q, maxStates, &p.bfsDepth)
		}},
		{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) { return decideIC3(ctx, q, true) }},
		{"hunt", hunt},
	})
	p.bmcFree = free
	defer p.cancel()
	p.loop()
	p.markStragglers()
	return p.result(time.Second)
}

// TestS33ePortfolioSweep: generated models (s33eModel, with start sets,
// goals, deadlocks, weight-0 outcomes, floor division, values past 2^63;
// s33ePolicySrc's overlapping and stuck rules) through the whole
// portfolio, bfs under a random state limit (1 or 2 workers), against the
// breadth-first reference (s33eDepths): unsafe only where no range error
// lies closer, a range error only where no unsafe state does (or, taking
// every label, one met without a run: counted apart), safe only where
// neither is reachable. S33E_SWEEP=N runs N models of each kind.
func TestS33ePortfolioSweep(t *testing.T) {
	n := 6
	if s := os.Getenv("S33E_SWEEP"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	for _, withPolicy := range []bool{false, true} {
		for _, free := range []bool{false, true} {
			counts := map[string]int{}
			rng := rand.New(rand.NewPCG(33, 6))
			for i := range n {
				src := s33eModel(rng)
				if withPolicy {
					src = s33ePolicySrc(rng, src)
				}
				limit, workers := 1+rng.IntN(10), 1+rng.IntN(2)
				m, diags := lang.LoadSource("g.spec", []byte(src), lang.Options{})
				if diags.HasErrors() {
					t.Fatalf("model %d: %s\n%s", i, diags.Render(), src)
				}
				var pol *symbolic.PolicyDecl
				if withPolicy {
					pol = m.Policies[0]
				}
				q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Policy: pol, Engine: "auto"})
				if err != nil {
					t.Fatalf("model %d: %v\n%s", i, err, src)
				}
				u, r := s33eDepths(t, q.Gen, q.Dec)
				v, err := s33eRun(q, limit, workers, free, 20*time.Second)
				var re *explicit.RangeError
				what, bad := "", false
				switch {
				case err != nil && (errors.As(err, &re) || reachedRangeError(err)):
					what = "range error"
					bad = r < 0 || (u >= 0 && u < r)
					if bad && free && !strings.Contains(err.Error(), "a run that replays") {
						what, bad = "range error unchecked", false
					}
				case err != nil && strings.Contains(err.Error(), "beyond ±2^53"):
					// IC3 refuses w's range, and the others did not decide
					what = "ic3 refused"
					t.Logf("model %d (policy %v, free %v): %v, reference u=%d r=%d", i, withPolicy, free, err, u, r)
				case err != nil:
					t.Errorf("model %d: auto: %v\n%s", i, err, src)
					continue
				case v.Answer == explicit.UnsafeVerdict:
					what = "unsafe by " + v.Engine
					bad = u < 0 || (r >= 0 && r < u)
				case v.Answer == explicit.Safe:
					what = "safe"
					bad = u >= 0 || r >= 0
				default:
					what = "unknown"
					t.Logf("model %d (policy %v, free %v): unknown (%s), reference u=%d r=%d", i, withPolicy, free, v.Reason, u, r)
				}
				if bad {
					t.Errorf("model %d (policy %v, free %v, max states %d, workers %d): auto answers %s (%v), reference u=%d r=%d\n%s", i, withPolicy, free, limit, workers, what, err, u, r, src)
				}
				counts[what]++
			}
			t.Logf("%d models, policy %v, free %v: %v", n, withPolicy, free, fmt.Sprint(counts))
		}
	}
}
