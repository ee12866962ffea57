package ppa

// s33g (review of s33d): ppa against bfs on generated models with tree
// ensembles and networks (s32tGen), tie networks and rules policies
// (s24xSpec), under random patterns of lost policy queries (loseQuery,
// seeded) and random stops: at the k-th assertion goroutine, warm-up
// check or policy query of the run, or after a random delay. A verdict
// must be bfs's (a lost query only over-approximates; a rebuilt solver
// must hold what the lost one held), a stop inside the run must end it
// unknown with the stop's reason, and no run may fail.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

var s33gMin = regexp.MustCompile(`min\(x \+ (\d+), \d+\)`)

type s33gCase struct {
	name string
	m    *symbolic.Model
	pd   *symbolic.PolicyDecl
	pol  symbolic.Policy
	want explicit.Verdict // bfs: Safe or Unsafe (a range error: Unsafe)
}

func s33gCases(t *testing.T, seeds []uint64) []s33gCase {
	t.Helper()
	dir := t.TempDir()
	var cs []s33gCase
	bfs := func(m *symbolic.Model, pd *symbolic.PolicyDecl, pol symbolic.Policy) (explicit.Verdict, bool) {
		prop := m.Properties[0]
		var dec explicit.Decider
		var err error
		switch {
		case pd == nil:
		case pol != nil:
			dec, err = explicit.PolicyDecider(m, pol)
		default:
			dec, err = explicit.NewDecider(m, pd)
		}
		if err != nil {
			t.Fatal(err)
		}
		res, err := explicit.Search(context.Background(), testutil.Generator(t, m, prop), explicit.Options{Policy: dec, StopAtUnsafe: true})
		var re *explicit.RangeError
		if errors.As(err, &re) {
			return explicit.UnsafeVerdict, true
		}
		if err != nil {
			return 0, false
		}
		return res.Verdict, true
	}
	for _, seed := range seeds {
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
		if w, ok := bfs(m, pd, pol); ok {
			cs = append(cs, s33gCase{fmt.Sprintf("s32t%d/%v", seed, pd.Kind), m, pd, pol, w})
		}
		// the same model where inc may leave x's range (the range-error
		// part of the bad region: bad()'s bounded policy query)
		if rangy := s33gMin.ReplaceAllString(sp.src, "x + $1"); rangy != sp.src {
			m3 := testutil.LoadSource(t, fmt.Sprintf("s32t%dr.spec", seed), rangy)
			pd3 := m3.Policies[0]
			pol3, err := symbolic.Instantiate(m3, pd3)
			if err != nil {
				t.Fatal(err)
			}
			if w, ok := bfs(m3, pd3, pol3); ok {
				cs = append(cs, s33gCase{fmt.Sprintf("s32t%d/%v/range", seed, pd3.Kind), m3, pd3, pol3, w})
			}
		}
		// the same model under a rules policy (no certifier: no
		// bounded query, but the warm-up and the stops)
		src := s33gRules(sp.src, seed)
		m2 := testutil.LoadSource(t, fmt.Sprintf("s33g%d.spec", seed), src)
		if w, ok := bfs(m2, m2.Policies[0], nil); ok {
			cs = append(cs, s33gCase{fmt.Sprintf("s32t%d/rules", seed), m2, m2.Policies[0], nil, w})
		}
	}
	return cs
}

func TestS33gLoseAndStopAgainstBFS(t *testing.T) {
	// the s32tGen models whose runs ask bounded policy queries (with
	// NoEnumeration), a few without
	seeds := []uint64{1, 2, 3, 11, 13, 18, 23, 27, 38, 44, 46, 50, 55, 58, 59, 64, 71, 76, 77, 80}
	if testing.Short() {
		seeds = seeds[:8]
	}
	cs := s33gCases(t, seeds)
	tally := map[string]int{}
	for ci, c := range cs {
		for trial := 0; trial < 6; trial++ {
			rr := rand.New(rand.NewPCG(uint64(ci), uint64(trial)))
			p := []float64{0, 0.2, 0.5, 1}[rr.IntN(4)]
			stopAt := []string{"", "", "asserts", "warm", "query", "timer"}[rr.IntN(6)]
			k := rr.IntN(5)
			ctx, cancel := context.WithCancel(context.Background())
			var stopped bool
			stop := func() { stopped = true; cancel() }
			lost := 0
			calls := map[string]int{}
			hook := func(at string) {
				if stopAt == at {
					if calls[at]++; calls[at] == k+1 {
						stop()
					}
				}
			}
			o := Options{Policy: c.pol, NoEnumeration: rr.IntN(5) != 0, MaxIterations: 40,
				loseQuery: func(q int) bool {
					hook("query")
					if rr.Float64() < p {
						lost++
						return true
					}
					return false
				},
				beforeWarm:    func() { hook("warm") },
				beforeAsserts: func() { hook("asserts") },
			}
			var tm *time.Timer
			if stopAt == "timer" {
				d := time.Duration(rr.IntN(40)) * time.Millisecond
				tm = time.AfterFunc(d, cancel)
			}
			deadline, dcancel := context.WithTimeout(ctx, 20*time.Second)
			res, err := Check(deadline, c.m, c.m.Properties[0], c.pd, o)
			dcancel()
			if tm != nil {
				tm.Stop()
			}
			cancel()
			where := fmt.Sprintf("%s trial %d (lose p=%v, stop %s k=%d)", c.name, trial, p, stopAt, k)
			if err != nil && strings.Contains(err.Error(), "range error:") {
				// ppa reports a reachable range error as bfs does (an
				// error); bfs may have met an unsafe state first
				if c.want != explicit.UnsafeVerdict {
					t.Errorf("%s: ppa %v, bfs %v", where, err, c.want)
				}
				tally["range error"]++
				if stopped {
					t.Errorf("%s: stopped inside the run, got %v", where, err)
				}
				continue
			}
			if err != nil {
				if strings.Contains(err.Error(), "--engine polic3 or bfs") || strings.Contains(err.Error(), "not linear") {
					tally["refused"]++
					break
				}
				t.Fatalf("%s: error %v", where, err)
			}
			key := res.Verdict.String()
			if lost > 0 {
				key += " after loss"
			}
			if stopped {
				key += " stopped"
			} else if res.Verdict == explicit.Unknown {
				key += " (" + res.Reason + ")"
			}
			tally[key]++
			if res.Verdict != explicit.Unknown && res.Verdict != c.want {
				t.Errorf("%s: ppa %v, bfs %v (%d queries lost, %d rebuilds)", where, res.Verdict, c.want, lost, res.Stats.Rebuilds)
			}
			if res.Stats.Rebuilds > 0 {
				tally["runs with rebuilds"]++
			}
			if stopped && (res.Verdict != explicit.Unknown || res.Reason != "interrupted") {
				t.Errorf("%s: stopped inside the run, got %v (%q)", where, res.Verdict, res.Reason)
			}
		}
	}
	t.Logf("%d cases: %v", len(cs), tally)
}

// s33gRules replaces the learned policy of an s32tGen model by rules
// over x and y.
func s33gRules(src string, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 0x72756c))
	i := strings.Index(src, "policy ")
	j := i + strings.Index(src[i:], "}\n") + 2
	var labels []string
	for _, l := range []string{"inc", "dec", "crash"} {
		if strings.Contains(src, "action "+l) {
			labels = append(labels, l)
		}
	}
	var sb strings.Builder
	sb.WriteString("policy rules pi {\n")
	for k := 0; k < 1+r.IntN(3); k++ {
		fmt.Fprintf(&sb, "    when %s %s %d -> %s\n", []string{"x", "y"}[r.IntN(2)], []string{"<", ">=", "=="}[r.IntN(3)], r.IntN(9)-3, labels[r.IntN(len(labels))])
	}
	fmt.Fprintf(&sb, "    otherwise -> %s\n}\n", labels[r.IntN(len(labels))])
	return src[:i] + sb.String() + src[j:]
}
