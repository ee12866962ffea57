package main

// vigil test --mode goal (cmdtest.go dispatches here): goal-reaching policy
// testing (papers 001 and 003), run by report.RunGoal: fuzz a pool of test
// states, confirm bugs with the oracles. Here its report is recorded and
// printed: each bug with its evidence: the policy's failing (or longer) run and the
// better plan, a patch of the policy re-checked in the explicit semantics.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"vigil/fuzz"
	"vigil/fuzz/report"
)

// goalFlags are the flags only goal mode reads (html and record are
// cmdtest.go's --html and --record, which both modes share).
type goalFlags struct {
	pool, walk, bstate, bexp, steps, depth int
	outcomes, html, record                 string
}

func addGoalFlags(fs *flag.FlagSet) *goalFlags {
	gf := &goalFlags{}
	fs.IntVar(&gf.pool, "pool", 100, "goal mode: maximal pool size N")
	fs.IntVar(&gf.walk, "walk", 5, "goal mode: maximal random-walk length L")
	fs.IntVar(&gf.bstate, "bstate", 50, "goal mode: policy steps per partial run (B_state)")
	fs.IntVar(&gf.bexp, "bexpansion", 200, "goal mode: policy steps per walk step (B_expansion)")
	fs.IntVar(&gf.steps, "steps", 1_000_000, "goal mode: total successor and policy steps of fuzzing (a reproducible budget)")
	fs.IntVar(&gf.depth, "depth", 2, "goal mode: lookahead oracle depth")
	fs.StringVar(&gf.outcomes, "outcomes", "adversarial", "goal mode: adversarial (a policy's value is its worst run; bugs: fails or costs more) or fair (every outcome may happen; bugs: fails to reach the goal with probability 1)")
	return gf
}

// goalRun is one goal-mode test run's inputs, as cmdtest.go parsed them.
type goalRun struct {
	lm      *loadedModel
	budget  time.Duration // fuzzing with interleaved confirmation stops at its end (0: no limit)
	seed    uint64
	biases  []string // --config in goal mode
	oracles []string // --oracle
	json    bool
	workers int // at least 1
	flags   *goalFlags
}

// runGoalTest runs goal mode (report.RunGoal) and returns the exit code:
// 3 when bugs were found, 0 when none, 4 when interrupted before any.
func runGoalTest(ctx context.Context, e *env, r goalRun) int {
	lm := r.lm
	if lm.decl == nil {
		fmt.Fprintln(e.stderr, "vigil test: goal mode tests a policy; choose one with --policy")
		return exitError
	}
	if !goalFlagsOK(e, r) {
		return exitUsage
	}
	f := r.flags
	o, err := report.RunGoal(ctx, subject(e, lm, r.workers, r.json), report.GoalOptions{Budget: r.budget, Seed: r.seed,
		Pool:   fuzz.PoolOptions{MaxPool: f.pool, WalkLen: f.walk, BState: f.bstate, BExpansion: f.bexp, MaxSteps: f.steps},
		Biases: r.biases, Oracles: r.oracles, Depth: f.depth, Fair: f.outcomes == "fair"})
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	if f.record != "" {
		if err := o.Record(f.record); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --record: %v\n", err)
			return exitFor(err)
		}
	}
	if f.html != "" {
		if err := writeFile(f.html, func(w io.Writer) error { return report.GoalHTML(w, o) }); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --html: %v\n", err)
			return exitFor(err)
		}
	}
	if r.json {
		var rep *report.GoalJSON
		if rep, err = o.JSON(); err == nil {
			err = encodeJSON(e.stdout, rep)
		}
	} else {
		err = o.WriteText(e.stdout)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	switch {
	case len(o.Result.Bugs) > 0:
		return exitUnsafe
	case !o.Complete:
		return exitUnknown
	}
	return exitOK
}

// subject is the policy vigil test tests, with its status line on the
// progress line of e.
func subject(e *env, lm *loadedModel, workers int, json bool) report.Subject {
	prog := newProgress(e, json)
	return report.Subject{Model: lm.m, Property: lm.prop, Policy: lm.decl, Decider: lm.dec, Workers: workers,
		Progress: func(line string) {
			if line == "" {
				prog.clear()
				return
			}
			prog.printf("%s", line)
		}}
}

// goalFlagsOK checks goal mode's flags, printing what is wrong.
func goalFlagsOK(e *env, r goalRun) bool {
	for _, f := range []struct {
		name string
		v    int
	}{{"--pool", r.flags.pool}, {"--walk", r.flags.walk}, {"--bstate", r.flags.bstate}, {"--bexpansion", r.flags.bexp}, {"--steps", r.flags.steps}, {"--depth", r.flags.depth}} {
		if f.v <= 0 {
			fmt.Fprintf(e.stderr, "vigil test: %s %d: must be positive\n", f.name, f.v)
			return false
		}
	}
	if err := fuzz.CheckBiases(r.biases); err != nil {
		fmt.Fprintf(e.stderr, "vigil test: --config: %v\n", err)
		return false
	}
	if err := fuzz.CheckOracles(r.oracles); err != nil {
		fmt.Fprintf(e.stderr, "vigil test: --oracle: %v\n", err)
		return false
	}
	if r.flags.outcomes != "adversarial" && r.flags.outcomes != "fair" {
		fmt.Fprintf(e.stderr, "vigil test: --outcomes %q: want adversarial or fair\n", r.flags.outcomes)
		return false
	}
	return true
}
