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

// s32bDepths is s32aDepths under a policy (dec, nil: every label): the
// depth of the first unsafe state and of the first open state whose
// expansion under the policy meets a range error (-1: none).
func s32bDepths(g *explicit.Generator, dec explicit.Decider) (u, r int) {
	m := g.M
	u, r = -1, -1
	init, err := m.InitialState()
	if err != nil {
		return
	}
	seen := map[string]bool{m.FormatState(init): true}
	layer := []symbolic.State{init}
	x := &explicit.Expansion{}
	for d := 0; len(layer) > 0; d++ {
		var next []symbolic.State
		for _, s := range layer {
			switch g.Status(s) {
			case explicit.Unsafe:
				if u < 0 {
					u = d
				}
				continue
			case explicit.Goal:
				continue
			}
			if g.ErrorAt(s, dec) != nil {
				if r < 0 {
					r = d
				}
				continue
			}
			g.Applicable(s, x)
			chosen := symbolic.NoLabel
			if dec != nil {
				if chosen, err = dec.Decide(s, x.App); err != nil || chosen == symbolic.NoLabel {
					continue
				}
			}
			for c := range m.Commands {
				if !g.Guard(s, c) || (dec != nil && m.Commands[c].Label != chosen) {
					continue
				}
				for o := range m.Commands[c].Outcomes {
					t, err := g.Apply(s, c, o)
					if err != nil {
						continue
					}
					if k := m.FormatState(t); !seen[k] {
						seen[k] = true
						next = append(next, t)
					}
				}
			}
		}
		if u >= 0 || r >= 0 {
			return
		}
		layer = next
	}
	return
}

// s32bPolicySrc appends a rules policy over the model's actions a0..aN-1
// (one or two guarded rules, then otherwise).
func s32bPolicySrc(rng *rand.Rand, src string) string {
	n := strings.Count(src, "\naction ")
	vars := []string{"x", "y", "z"}
	var b strings.Builder
	b.WriteString(src)
	b.WriteString("policy rules pi {\n")
	for range 1 + rng.IntN(2) {
		fmt.Fprintf(&b, "  when %s %s %d -> a%d\n", vars[rng.IntN(3)], []string{"<", "==", ">"}[rng.IntN(3)], rng.IntN(5), rng.IntN(n))
	}
	fmt.Fprintf(&b, "  otherwise -> a%d\n}\n", rng.IntN(n))
	return b.String()
}

// TestS32bSweepRealMembers: generated models (s32aModel), with and
// without a rules policy, through the portfolio with the real IC3 (its
// random walks on, as auto runs it: its counterexamples are not the
// shortest) and the real hunter, bfs giving way at once: every answer
// must be the reference's kind (unsafe only where no range error lies
// closer, a range error only where no unsafe state does, safe only where
// neither is reachable) or unknown. S32B_SWEEP=N runs N of each.
func TestS32bSweepRealMembers(t *testing.T) {
	n := 10
	if s := os.Getenv("S32B_SWEEP"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatal(err)
		}
	}
	gaveWay := autoMember{"bfs", func(ctx context.Context, q *Prepared) (*Verdict, error) {
		select {
		case <-time.After(100 * time.Millisecond):
		case <-ctx.Done():
		}
		return &Verdict{Engine: "bfs", Answer: explicit.Unknown, Reason: "state limit 1", BFS: &explicit.Result{}}, nil
	}}
	ic3m := autoMember{"ic3", func(ctx context.Context, q *Prepared) (*Verdict, error) { return decideIC3(ctx, q, true) }}
	for _, withPolicy := range []bool{false, true} {
		counts := map[string]int{}
		rng := rand.New(rand.NewPCG(32, 2))
		for i := range n {
			src := s32aModel(rng)
			if withPolicy {
				src = s32bPolicySrc(rng, src)
			}
			m, diags := lang.LoadSource("g.spec", []byte(src), lang.Options{})
			if diags.HasErrors() {
				counts["invalid"]++
				continue
			}
			var pol *symbolic.PolicyDecl
			if withPolicy {
				pol = m.Policies[0]
			}
			q, err := prepare(context.Background(), &Question{Model: m, Property: m.Properties[0], Policy: pol, Engine: "auto"})
			if err != nil {
				counts["invalid"]++
				continue
			}
			u, r := s32bDepths(q.Gen, q.Dec)
			v, err := s32aRun(q, []autoMember{gaveWay, ic3m, {"hunt", hunt}}, nil, 10*time.Second)
			var re *explicit.RangeError
			what := ""
			bad := false
			switch {
			case err != nil && (errors.As(err, &re) || reachedRangeError(err)):
				what = "range error"
				bad = r < 0 || (u >= 0 && u < r)
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
			}
			if bad {
				// IC3's own verdicts (not the portfolio's range
				// question) are logged apart: auto answers them as the
				// single engine would
				if v != nil && v.Engine == "ic3" {
					what += " (ic3's, not bfs's)"
					t.Logf("model %d (policy %v): %s, reference u=%d r=%d\n%s", i, withPolicy, what, u, r, src)
				} else {
					t.Errorf("model %d (policy %v): auto answers %s (%v), reference u=%d r=%d\n%s", i, withPolicy, what, err, u, r, src)
				}
			}
			counts[what]++
		}
		t.Logf("%d models, policy %v: %v", n, withPolicy, counts)
	}
}
