package ic3

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/smt"
)

// TestS33zRestoreLostSolver: a query of IC3 that runs out of Z3's
// resource limit (verify --rlimit) leaves the transition solver lost
// (smt.Solver.Lost: Z3 may have dropped assertions, and every later check
// answers Unknown). When that query was one of generalization or
// propagation, whose Unknown only keeps a literal or a clause where it
// is, the run went on with the lost solver, and its next main query
// answered Unknown: the run's answer was unknown though only one
// optional query had no answer. The run now rebuilds the solver from its
// frames (restore) and goes on. Here the k-th check of the transition
// solver, for each k, runs under a resource limit of 1 (checkHook) on
// bench/ic3scaling's counters (safe): every answer is safe or unknown by
// that limit, never unsafe or an error; with restores, some k give safe
// after one restore, and without them (restoreBase 0: the code before)
// every k that is not the run's last check gives unknown.
func TestS33zRestoreLostSolver(t *testing.T) {
	m, diags := lang.Load(filepath.Join("..", "bench", "ic3scaling", "counters.spec"), lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	prop := m.Property("")
	opts := Options{Generalize: true}
	full, err := Check(context.Background(), m, prop, nil, opts)
	if err != nil || full.Verdict != Safe {
		t.Fatalf("without a limit: %v %v, want safe", full, err)
	}
	calls := full.Stats.SMTCalls
	defer func() { checkHook = nil }()
	// run reports the answer, and whether the k-th check left its solver
	// lost (some checks need no work of Z3's, and fit within a limit of 1).
	run := func(k int) (*Result, bool) {
		t.Helper()
		n := 0
		var limited *smt.Solver
		checkHook = func(s *smt.Solver) {
			n++
			var err error
			switch n {
			case k:
				limited = s
				err = s.SetLimits(smt.Limits{Rlimit: 1})
			case k + 1:
				err = s.SetLimits(smt.Limits{})
			}
			if err != nil {
				t.Error(err)
			}
		}
		res, err := Check(context.Background(), m, prop, nil, opts)
		if err != nil {
			t.Fatalf("check %d under rlimit 1: %v", k, err)
		}
		if res.Verdict != Safe && (res.Verdict != Unknown || !strings.Contains(res.Reason, "rlimit 1")) {
			t.Fatalf("check %d under rlimit 1: %v (%s), want safe or unknown by the limit", k, res.Verdict, res.Reason)
		}
		return res, limited != nil && limited.Lost() != ""
	}
	restored, lostRuns, safeWithout := 0, 0, 0
	for k := 1; k <= calls; k++ {
		res, lost := run(k)
		if lost {
			lostRuns++
		}
		if lost && res.Verdict == Safe && res.Stats.Restores > 0 {
			restored++
		}
	}
	func() {
		defer func(b int) { restoreBase = b }(restoreBase)
		restoreBase = 0
		for k := 1; k <= calls; k++ {
			res, lost := run(k)
			if res.Stats.Restores != 0 {
				t.Fatalf("restores off: %d restores", res.Stats.Restores)
			}
			if lost && res.Verdict == Safe && res.Stats.SMTCalls > k {
				safeWithout++
			}
		}
	}()
	t.Logf("%d checks, %d of them lost under a limit of 1: safe after a restore for %d; without restores, safe past the lost check for %d", calls, lostRuns, restored, safeWithout)
	if restored == 0 {
		t.Errorf("no run was safe after a restore")
	}
	if safeWithout != 0 {
		t.Errorf("without restores %d runs went on past a lost check to safe", safeWithout)
	}
}
