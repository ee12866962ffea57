package ppa_test

import (
	"context"
	"flag"
	"syscall"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/ppa"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
	"vigil/trees"
)

var firstSeeds = flag.Int("ppa.seeds", 0, "TestRefinementConverges: run the first N seeds of TestEnginesArgMaxAll's generator (41000 on) rather than the listed ones, and log the unknown answers and the CPU time (ppa/FIGURES.md)")

// divergedSeeds are the seeds of TestEnginesArgMaxAll's generator (first
// 400 from 41000, and 41400-42899 for the question without a policy)
// where ppa's refinement diverged before predicates were keyed by their
// truth table: 100+ spurious paths to the timeout, the weakest
// preconditions repeating a predicate in ever longer forms.
var divergedSeeds = []uint64{41008, 41033, 41079, 41095, 41140, 41226, 41230, 41350, 41362, 41367, 41376, 41434, 41722, 41778, 41779, 41851, 42330, 42352, 42655, 42779}

// TestRefinementConverges asks ppa the questions of TestEnginesArgMaxAll
// (random networks and ensembles under both readings, the model's rules
// policy and every label) on the models where its refinement used to
// diverge: each must be decided, as BFS decides it, within 20 CEGAR
// iterations (most take 2 or 3, seed 41851 11: its weakest preconditions
// grow one step of the path per iteration).
func TestRefinementConverges(t *testing.T) {
	seeds := divergedSeeds
	if *firstSeeds > 0 {
		seeds = nil
		for s := uint64(41000); s < 41000+uint64(*firstSeeds); s++ {
			seeds = append(seeds, s)
		}
	}
	g := gen.Options{MaxVars: 4, MaxRange: 8, MaxLabels: 5, MaxCommands: 8, InitialStart: true}
	netMk := func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{6})
	}
	ensMk := func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 4, 3)
	}
	policies := []struct {
		name string
		mk   testutil.MakePolicy // nil: the model's rules (rules) or none
	}{
		{"nn/all", testutil.ArgMaxAll(netMk)}, {"nn/filter", netMk},
		{"trees/all", testutil.ArgMaxAll(ensMk)}, {"trees/filter", ensMk},
		{"rules", nil}, {"none", nil},
	}
	var questions, unknown, maxIt int
	var cpu time.Duration
	for _, seed := range seeds {
		m := gen.Model(seed, g)
		prop := m.Properties[0]
		gg := testutil.Generator(t, m, prop)
		for _, p := range policies {
			var exec symbolic.Policy
			var pd *symbolic.PolicyDecl
			var err error
			switch {
			case p.mk != nil:
				if exec, pd, err = testutil.RecordPolicies(map[*symbolic.PolicyDecl]symbolic.Policy{}, p.mk)(m, seed); err != nil {
					t.Fatal(err)
				}
			case p.name == "rules":
				pd = m.Policies[0]
			}
			var dec explicit.Decider
			switch {
			case exec != nil:
				dec, err = explicit.PolicyDecider(m, exec)
			case pd != nil:
				dec, err = explicit.NewDecider(m, pd)
			}
			if err != nil {
				t.Fatal(err)
			}
			want, err := explicit.Search(context.Background(), gg, explicit.Options{Policy: dec, StopAtUnsafe: true})
			if err != nil {
				continue // no start state
			}
			questions++
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			c0 := cpuTime()
			res, err := ppa.Check(ctx, m, prop, pd, ppa.Options{Policy: exec})
			cpu += cpuTime() - c0
			cancel()
			if err != nil {
				t.Errorf("seed %d, %s: %v", seed, p.name, err)
				continue
			}
			s := res.Stats
			maxIt = max(maxIt, s.Iterations)
			switch {
			case res.Verdict == explicit.Unknown:
				unknown++
				t.Errorf("seed %d, %s: unknown (%s) after %d iterations, %d predicates, %d abstract states (bfs: %v)", seed, p.name, res.Reason, s.Iterations, s.Predicates, s.AbstractStates, want.Verdict)
			case res.Verdict != want.Verdict:
				t.Errorf("seed %d, %s: ppa says %v, bfs %v", seed, p.name, res.Verdict, want.Verdict)
			case res.Verdict == explicit.UnsafeVerdict:
				if err := gg.CheckCounterexample(dec, res.Trace); err != nil {
					t.Errorf("seed %d, %s: %v", seed, p.name, err)
				}
			}
			if *firstSeeds == 0 && s.Iterations > 20 {
				t.Errorf("seed %d, %s: %d CEGAR iterations (%d predicates), want at most 20", seed, p.name, s.Iterations, s.Predicates)
			}
		}
	}
	t.Logf("%d seeds, %d questions: %d unknown, at most %d CEGAR iterations, %.2f CPU s", len(seeds), questions, unknown, maxIt, cpu.Seconds())
}

// cpuTime is the process's CPU time (Z3's threads included).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
