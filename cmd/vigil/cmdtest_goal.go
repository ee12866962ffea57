package main

// vigil test --mode goal (cmdtest.go dispatches here): goal-reaching policy
// testing (papers 001 and 003). Fuzz a pool of test states, confirm bugs with the oracles, print
// each bug with its evidence: the policy's failing (or longer) run and the
// better plan, a patch of the policy re-checked in the explicit semantics.

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"vigil/fuzz"
	"vigil/fuzz/report"
	"vigil/symbolic"
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

// runGoalTest runs goal mode and returns the exit code: 3 when bugs were
// found, 0 when none, 4 when interrupted before any.
func runGoalTest(ctx context.Context, e *env, r goalRun) int {
	lm := r.lm
	if lm.decl == nil {
		fmt.Fprintln(e.stderr, "vigil test: goal mode tests a policy; choose one with --policy")
		return exitError
	}
	tasks, err := fuzz.NewGoalTasks(lm.m, lm.prop, lm.decl, lm.dec, r.workers)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	if !goalFlagsOK(e, r) {
		return exitUsage
	}
	if r.budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.budget)
		defer cancel()
	}
	o, err := goalTest(ctx, e, r, tasks)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	if r.flags.record != "" {
		if err := fuzz.RecordGoal(r.flags.record, o.Task, o.Result); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --record: %v\n", err)
			return exitFor(err)
		}
	}
	if r.flags.html != "" {
		if err := writeFile(r.flags.html, func(w io.Writer) error { return report.GoalHTML(w, o) }); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --html: %v\n", err)
			return exitFor(err)
		}
	}
	if r.json {
		var rep *report.GoalJSON
		if rep, err = o.JSON(); err == nil {
			enc := json.NewEncoder(e.stdout)
			enc.SetIndent("", "  ")
			err = enc.Encode(rep)
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

// goalTest draws the start states and runs fuzz.GoalTest on the workers'
// tasks, with a progress line.
func goalTest(ctx context.Context, e *env, r goalRun, tasks []*fuzz.GoalTask) (*report.Goal, error) {
	for _, t := range tasks {
		t.Fair = r.flags.outcomes == "fair"
	}
	prog := newProgress(e, r.json)
	began := time.Now()
	ss, err := newStartSampler(ctx, tasks[0].Gen, r.seed, prog)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	o := &report.Goal{Task: tasks[0], Outcomes: r.flags.outcomes, Seed: r.seed, Biases: r.biases, Oracles: r.oracles}
	for _, t := range tasks {
		t.Sampler = ss
	}
	if ss != nil && !ss.Enumerated(func(symbolic.State) bool { return false }) {
		o.Starts = ss.Describe()
	}
	prog.printf("vigil test: fuzzing a pool of up to %d states", r.flags.pool)
	o.Pool, o.Result, err = fuzz.GoalTest(ctx, tasks, fuzz.PoolOptions{MaxPool: r.flags.pool, WalkLen: r.flags.walk, BState: r.flags.bstate,
		BExpansion: r.flags.bexp, MaxSteps: r.flags.steps, Runtime: r.budget, Seed: r.seed, Biases: r.biases},
		fuzz.OracleOptions{Oracles: r.oracles, Depth: r.flags.depth, Progress: func(done, total, bugs int) {
			prog.printf("vigil test: fuzzing, %d pool states checked (of up to %d), %s", done, total, plural(bugs, "bug"))
		}})
	prog.clear()
	if err != nil {
		return nil, err
	}
	// Confirmation runs interleaved with fuzzing: its time is the oracles'
	// and policy evaluations' share of the whole.
	for _, d := range o.Result.Elapsed {
		o.ConfirmTime += d
	}
	o.FuzzTime = max(0, time.Since(began)-o.ConfirmTime)
	o.Complete = ctx.Err() == nil
	o.Stopped = "interrupted"
	if ctx.Err() == context.DeadlineExceeded {
		o.Stopped = "the --budget ran out"
	}
	if len(o.Oracles) == 0 {
		o.Oracles = fuzz.OracleNames
	}
	return o, nil
}
