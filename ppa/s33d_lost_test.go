package ppa

// s33d: a bounded policy query that gets no answer (its QueryTimeout, or
// a resource limit) leaves Z3's solver lost (smt answers Unknown on it
// until Reset, since Z3 4.8.12 may drop assertions in such a check).
// Before session 33 every later query of the abstraction then answered
// Unknown and the run ended undecided; the abstraction's solver
// (solver.go) is now rebuilt with its base and its open scopes.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS33dRebuildKeepsScopes: a solver lost by a check under a resource
// limit of 1 answers again after rebuild, with its base and both open
// scopes' assertions in place, and pops as before.
func TestS33dRebuildKeepsScopes(t *testing.T) {
	x, err := smt.NewContext()
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	r := &engine{ctx: context.Background(), x: x}
	const n = 60
	var vs []smt.Term
	for i := 0; i <= n; i++ {
		vs = append(vs, x.IntConst(fmt.Sprint("v", i)))
	}
	var base []smt.Term
	for i := 0; i < n; i++ {
		base = append(base, x.Eq(vs[i], x.Add(vs[i+1], x.Int(1))))
	}
	a := x.BoolConst("a")
	base = append(base, x.Implies(a, x.Lt(vs[0], vs[n]))) // unsat under a
	y, z := x.IntConst("y"), x.IntConst("z")
	s, err := r.newSolver(base, true, x.Not(a))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	want := func(what string, w smt.Result, as ...smt.Term) {
		t.Helper()
		if got, err := r.check(s.Solver, as...); err != nil || got != w {
			t.Fatalf("%s: %v %v (%q), want %v", what, got, err, s.ReasonUnknown(), w)
		}
	}
	must(s.Push())
	must(s.Assert(x.Ge(y, x.Int(5))))
	must(s.Push())
	must(s.Assert(x.Eq(z, x.Add(y, x.Int(1)))))
	must(s.SetLimits(smt.Limits{Rlimit: 1}))
	want("under rlimit 1", smt.Unknown, a)
	must(s.SetLimits(smt.Limits{}))
	want("the lost solver, without a limit", smt.Unknown, a)
	must(s.rebuild())
	if s.Scopes() != 2 || r.stats.Rebuilds != 1 {
		t.Fatalf("after rebuild: %d scopes, %d rebuilds; want 2, 1", s.Scopes(), r.stats.Rebuilds)
	}
	want("the base, rebuilt", smt.Unsat, a)
	want("scope 2, rebuilt", smt.Unsat, x.Le(z, x.Int(5)))
	must(s.Pop(1))
	want("scope 2 popped", smt.Sat, x.Le(z, x.Int(5)))
	want("scope 1, rebuilt", smt.Unsat, x.Le(y, x.Int(4)))
	must(s.Pop(1))
	want("scope 1 popped", smt.Sat, x.Le(y, x.Int(4)))
	want("the base again", smt.Unsat, a)
}

// TestS33dLostPolicyQueryAgainstBFS: the tree-ensemble and network models
// of s32t, with every cube through SMT (NoEnumeration, so that policy
// queries are asked), the first, every other, or every bounded policy
// query lost (a resource limit of 1), against bfs. A lost query counts
// as "may be chosen", so a verdict may need more refinement, but none
// may differ from bfs, and runs that lost queries must still decide:
// before the rebuild, every one of them ended unknown.
func TestS33dLostPolicyQueryAgainstBFS(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 10
	}
	dir := t.TempDir()
	tally := map[string]int{}
	decidedAfterLoss := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		sp := s32tGen(seed, dir)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("e%d.json", seed)), []byte(sp.ens), 0o644); err != nil {
			t.Fatal(err)
		}
		m := testutil.LoadSource(t, fmt.Sprintf("s32t%d.spec", seed), sp.src)
		prop, pd := m.Properties[0], m.Policies[0]
		pol, err := symbolic.Instantiate(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := explicit.PolicyDecider(m, pol)
		if err != nil {
			t.Fatal(err)
		}
		want, err := explicit.Search(context.Background(), testutil.Generator(t, m, prop), explicit.Options{Policy: dec, StopAtUnsafe: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, lose := range []struct {
			name string
			f    func(int) bool
		}{
			{"first", func(q int) bool { return q == 0 }},
			{"even", func(q int) bool { return q%2 == 0 }},
			{"all", func(int) bool { return true }},
		} {
			forced := 0
			o := Options{Policy: pol, NoEnumeration: true, MaxIterations: 60, loseQuery: func(q int) bool {
				f := lose.f(q)
				if f {
					forced++
				}
				return f
			}}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			begin := time.Now()
			res, err := Check(ctx, m, prop, pd, o)
			cancel()
			if d := time.Since(begin); d > time.Second {
				t.Logf("seed %d, lose %s: %v (%s), %v", seed, lose.name, res.Verdict, res.Reason, d)
			}
			if err != nil {
				if strings.Contains(err.Error(), "--engine polic3 or bfs") {
					tally["refused (network)"]++
					break
				}
				t.Fatalf("seed %d, lose %s: %v", seed, lose.name, err)
			}
			tally[fmt.Sprintf("%v (rebuilds %v)", res.Verdict, res.Stats.Rebuilds > 0)]++
			if forced > 0 && lose.name == "first" {
				// ppa/FIGURES.md's table
				t.Logf("seed %d, first query lost: bfs %v, ppa %v %s (%d policy queries unanswered, %d SMT calls, %d iterations)",
					seed, want.Verdict, res.Verdict, res.Reason, res.unanswered, res.Stats.SMTCalls, res.Stats.Iterations)
			}
			if res.Verdict != explicit.Unknown && res.Verdict != want.Verdict {
				t.Errorf("seed %d, lose %s: ppa %v, bfs %v\n%s\n%s", seed, lose.name, res.Verdict, want.Verdict, sp.src, sp.ens)
			}
			if res.Stats.Rebuilds > 0 && res.Verdict != explicit.Unknown {
				decidedAfterLoss++
			}
			if res.Verdict == explicit.Unknown && ctx.Err() != nil {
				continue // stopped: its last query's answer was not read
			}
			if res.Stats.Rebuilds != forced {
				t.Errorf("seed %d, lose %s: %d rebuilds after %d lost queries", seed, lose.name, res.Stats.Rebuilds, forced)
			}
			if res.unanswered != forced {
				// the queries after a lost one answered Unknown (and
				// counted as "chosen") until the end of the abstraction
				t.Errorf("seed %d, lose %s: %d policy queries without an answer, %d lost on purpose", seed, lose.name, res.unanswered, forced)
			}
			if res.Verdict == explicit.Unknown && strings.Contains(res.Reason, "rlimit 1") {
				t.Errorf("seed %d, lose %s: unknown for the lost query's reason (%s)", seed, lose.name, res.Reason)
			}
		}
	}
	t.Logf("%d models: %v", n, tally)
	if decidedAfterLoss == 0 {
		t.Fatalf("no run lost a policy query and decided: the test asks nothing (%v)", tally)
	}
}

// TestS33dStopAtWarmUp: a stop that lands as a solver of the abstraction
// takes the policy's encoding (its assertions, which the stop abandons on
// their goroutine) or internalizes it (the warm-up check, which the stop
// gives up; before, the first Push did this work and heard no stop) ends
// the run with Unknown and the stop's reason, never an error; so does a
// stop a little later. No goroutine is left once abandoned assertions end.
func TestS33dStopAtWarmUp(t *testing.T) {
	dir := t.TempDir()
	sp := s32tGen(3, dir)
	if err := os.WriteFile(filepath.Join(dir, "e3.json"), []byte(sp.ens), 0o644); err != nil {
		t.Fatal(err)
	}
	m := testutil.LoadSource(t, "s32t3.spec", sp.src)
	prop, pd := m.Properties[0], m.Policies[0]
	pol, err := symbolic.Instantiate(m, pd)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := Check(context.Background(), m, prop, pd, Options{Policy: pol, NoEnumeration: true})
	if err != nil || whole.Verdict == explicit.Unknown {
		t.Fatalf("uninterrupted: %v %v", whole, err)
	}
	base := runtime.NumGoroutine()
	handedOff := 0
	for _, at := range []string{"asserts", "warm-up"} {
		for k := 0; k < 6; k++ {
			for _, delay := range []time.Duration{0, time.Millisecond, 20 * time.Millisecond} {
				ctx, cancel := context.WithCancel(context.Background())
				calls := 0
				o := Options{Policy: pol, NoEnumeration: true}
				if at == "asserts" {
					// on the assertions' goroutine: the stop, then
					// assertions that take delay (the run returns
					// meanwhile, leaving them the context to close)
					o.beforeAsserts = func() {
						if calls++; calls == k+1 {
							cancel()
							time.Sleep(delay)
						}
					}
				} else {
					o.beforeWarm = func() {
						if calls++; calls == k+1 {
							if delay == 0 {
								cancel()
							} else {
								time.AfterFunc(delay, cancel)
							}
						}
					}
				}
				res, err := Check(ctx, m, prop, pd, o)
				cancel()
				if err != nil {
					t.Fatalf("stop at %s %d (+%v): error %v", at, k, delay, err)
				}
				if calls <= k {
					continue // fewer than k+1 calls: the run ended first
				}
				if res.handedOff {
					handedOff++
				}
				if delay == 0 && (res.Verdict != explicit.Unknown || res.Reason != "interrupted") {
					t.Fatalf("stop at %s %d: %v (%q), want unknown (interrupted)", at, k, res.Verdict, res.Reason)
				}
				if res.Verdict != explicit.Unknown && res.Verdict != whole.Verdict {
					t.Fatalf("stop at %s %d (+%v): %v, want %v or unknown", at, k, delay, res.Verdict, whole.Verdict)
				}
			}
		}
	}
	if handedOff == 0 {
		t.Fatalf("no stop abandoned assertions: the test asks nothing of assertAll's goroutine")
	}
	// assertions left running close the context and end
	deadline := time.Now().Add(20 * time.Second)
	for runtime.NumGoroutine() > base && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > base {
		buf := make([]byte, 1<<20)
		t.Fatalf("%d goroutines left, %d before\n%s", g, base, buf[:runtime.Stack(buf, true)])
	}
	t.Logf("%d runs abandoned assertions; goroutines back to %d after %v", handedOff, base, time.Since(deadline.Add(-20*time.Second)))
}

// TestS33dStopAtRebuild: a stop that lands while a lost solver is
// rebuilt, during the assertions of its base (which it abandons), ends
// the run with Unknown and the stop's reason (before, the lost query's
// "resource limit (rlimit 1)"); the policy query that asked unwinds (its
// Pop fails with errUnknown rather than call Z3 in the context the
// abandoned assertions still use: Z3 calls are C memory, which the race
// detector does not see, so this is by construction, not by -race).
func TestS33dStopAtRebuild(t *testing.T) {
	dir := t.TempDir()
	stopped := 0
	for _, seed := range []uint64{3, 11, 13, 18} {
		sp := s32tGen(seed, dir)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("e%d.json", seed)), []byte(sp.ens), 0o644); err != nil {
			t.Fatal(err)
		}
		m := testutil.LoadSource(t, fmt.Sprintf("s32t%d.spec", seed), sp.src)
		prop, pd := m.Properties[0], m.Policies[0]
		pol, err := symbolic.Instantiate(m, pd)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		armed := false
		o := Options{Policy: pol, NoEnumeration: true,
			loseQuery: func(q int) bool { armed = q == 0; return armed },
			beforeAsserts: func() {
				if armed { // the rebuild's assertions
					cancel()
					time.Sleep(20 * time.Millisecond)
				}
			}}
		res, err := Check(ctx, m, prop, pd, o)
		cancel()
		if err != nil {
			t.Fatalf("seed %d: error %v", seed, err)
		}
		if !armed {
			continue // no policy query lost: no rebuild
		}
		if res.Verdict != explicit.Unknown || res.Reason != "interrupted" {
			t.Fatalf("seed %d: %v (%q), want unknown (interrupted)", seed, res.Verdict, res.Reason)
		}
		stopped++
	}
	if stopped == 0 {
		t.Fatal("no run rebuilt a solver: the test asks nothing")
	}
}
