package main

// vigil test: policy testing, run by package fuzz/report. Safety mode
// (paper 000, report.RunSafety) fuzzes for unsafe policy runs with
// Algorithm 1, confirms the bugs on each with the safety deciders and
// finds its faults; goal mode (papers 001 and 003, report.RunGoal) fuzzes
// a pool of test states and confirms bugs with the oracles. Both end in a
// report.Outcome, recorded, drawn and printed the same way.

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"vigil/fuzz"
	"vigil/fuzz/report"
	"vigil/internal/cli"
	"vigil/load"
	"vigil/safety"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "test",
		Summary: "test a policy: fuzz for unsafe runs (or goal-reaching bugs), confirm the bugs with oracles, find the faults",
		Usage:   "vigil test [flags] FILE.spec [--mode safety|goal]",
		Help: `Safety mode (paper 000): runs of paper 000's Algorithm 1 from random start
states steer the policy's non-deterministic outcomes towards the unsafe
condition (--config names the lookahead and successor strategy). Each unsafe
run is a test case: its states that are safe (some policy avoids the unsafe
states from there; --radius r: one within r deviations of the tested policy)
are bugs, confirmed by the safety deciders of --oracle, and its faults are
the decisions that leave the safe region (as vigil faults finds them).
--record writes each unsafe run as a run file for vigil faults --run and
vigil run --replay.

Goal mode (papers 001 and 003): see the goal-mode flags. A bug whose policy
run ends stuck (the policy chooses no label) says why, as vigil run does:
under argmax all the label the policy chose and its score, not applicable;
under argmax applicable that no output label is applicable ("why:" in the
text, "stuck_why" in --json, and in the HTML page and --record's run files).

The mode defaults to goal when the property has a goal and its unsafe
condition is false (nothing can go wrong but missing the goal), and to
safety otherwise. Exit codes: 3 bugs found, 0 none, 4 stopped (by --budget,
--timeout, Ctrl-C or SIGTERM, within a second) before any, or, in goal mode,
none found while some pool states were undecided (the policy's runs from
them visit more states than its evaluation may); the bugs found before a
stop are kept.

Start states are drawn without enumerating them: uniformly when the start
condition is small enough to enumerate, or splits into independent groups of
variables each small enough to enumerate or dense enough for rejection
sampling; a group too sparse for that is drawn from distinct solutions found
by Z3, which is not uniform. The report's "start states:" line says which.`,
		Examples: []string{
			"vigil test specs/oneway_line.spec --policy careful --seed 3",
			"vigil test specs/oneway_line.spec --policy careful --config 1-sampling --runs 300 --workers 2 --json",
			"vigil test specs/oneway_line.spec --policy careful --radius 1 --oracle tarjan,lrtdp --record unsafe-runs --html report.html",
			"vigil test specs/twoway_line.spec --policy shuttle --mode goal --seed 3",
			"vigil test bench/polic3/npuzzle.spec -D R=2 -D C=3 --policy np2x3_16x16_safe --mode goal --config loop --oracle relax,lookahead --json",
		},
		Run: runTest,
	})
}

func runTest(e *cli.Env, args []string) int {
	fs, c := e.Flags("test")
	e.AddProgressFlags(fs)
	mf := addModelFlags(fs, "property to test against (default: the only one)", "policy to test (default: the only one)")
	mode := fs.String("mode", "", "what to test: safety (avoid the unsafe states where some policy does) or goal (reach the goal where some plan does, as cheaply); default: goal when the property's unsafe condition is false and it has a goal, else safety")
	budget := cli.AddDurationFlag(fs, "budget", 60*time.Second, "time for fuzzing and bug confirmation, which run interleaved (`DURATION`: 10s, 2m, or bare seconds); bugs found when it runs out are kept")
	cli.TimeoutFlag(fs)
	seed := fs.Uint64("seed", 1, "random seed: the same seed, budgets and --workers give the same report")
	config := fs.String("config", "", "safety mode: the fuzzing configuration, one of "+strings.Join(fuzz.SafetyConfigNames, ", ")+" or D-greedy, D-sampling for a lookahead depth D (default inf-greedy); goal mode: fuzzing biases, comma-separated: "+strings.Join(fuzz.BiasNames, ", ")+" (none: uniform walks; default polqual,novelty)")
	oracles := fs.String("oracle", "", "safety mode: safety deciders, comma-separated: the first confirms bugs and finds faults, the others re-check each (default tarjan; "+strings.Join(safety.Algorithms, ", ")+"); goal mode: bug oracles, tried in order (default "+strings.Join(fuzz.OracleNames, ",")+")")
	workers := fs.Int("workers", 1, "fuzz and confirm with this many workers")
	jsonOut := fs.Bool("json", false, "print the report as JSON")
	html := fs.String("html", "", "also write the report as a self-contained HTML page to `FILE` (safety mode: every distinct unsafe run, those without a bug saying why)")
	mf.writes("html", html)
	record := fs.String("record", "", "write the evidence as run files into `DIR` that vigil run --replay reads (safety: unsafe-N.json, also for vigil faults --run; goal: bug-N-policy.json, bug-N-plan.json; files of those names an earlier record left for higher N are removed)")
	// Safety mode's flags.
	so := report.SafetyOptions{Radius: safety.Inf}
	fs.IntVar(&so.Runs, "runs", 1000, "safety mode: fuzzing runs of Algorithm 1 (a reproducible budget)")
	fs.IntVar(&so.Limits.MaxLen, "max-len", 1000, "safety mode: policy steps per run before it counts as failed")
	fs.IntVar(&so.Limits.Expansions, "expansions", 100_000, "safety mode: policy-graph states the lookahead may visit per run")
	fs.Var(&so.Radius, "radius", "safety mode: bugs and faults for r-safety: a policy may deviate from the tested one at most r times along a run (a number, or inf for plain safety)")
	// Goal mode's flags.
	var goal report.GoalOptions
	p := &goal.Pool
	fs.IntVar(&p.MaxPool, "pool", 100, "goal mode: maximal pool size N")
	fs.IntVar(&p.WalkLen, "walk", 5, "goal mode: maximal random-walk length L")
	fs.IntVar(&p.BState, "bstate", 50, "goal mode: policy steps per partial run (B_state)")
	fs.IntVar(&p.BExpansion, "bexpansion", 200, "goal mode: policy steps per walk step (B_expansion)")
	fs.IntVar(&p.MaxSteps, "steps", 1_000_000, "goal mode: total successor and policy steps of fuzzing (a reproducible budget)")
	fs.IntVar(&goal.Depth, "depth", 2, "goal mode: lookahead oracle depth")
	outcomes := fs.String("outcomes", "adversarial", "goal mode: adversarial (a policy's value is its worst run; bugs: fails or costs more) or fair (every outcome of positive probability may happen, one of weight 0 never; bugs: fails to reach the goal with probability 1)")
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if *mode != "" && *mode != "safety" && *mode != "goal" {
		return e.Fail(cli.ExitUsage, "vigil test: --mode %q: want safety or goal", *mode)
	}
	if *budget <= 0 {
		return e.Fail(cli.ExitUsage, "vigil test: --budget %v: must be positive (e.g. 30s)", *budget)
	}
	if !outputDirOK(e, "html", *html) {
		return cli.ExitUsage
	}
	if *workers < 1 || *workers > maxWorkers {
		return e.Fail(cli.ExitUsage, "vigil test: --workers %d: give a number of workers from 1 to %d", *workers, maxWorkers)
	}
	lm, ok := mf.load(e, "test", file, true, load.ThePolicy)
	if !ok {
		return cli.ExitError
	}
	how := "--mode " + *mode
	if *mode == "" {
		*mode = report.Mode(lm.prop)
		how = "the default for its property"
	}
	if f := otherModeFlag(fs, *mode); f != "" {
		return e.Fail(cli.ExitUsage, "vigil test: --%s is a flag of %s mode, but this test runs in %s mode (%s); drop it or give --mode %s", f, otherMode(*mode), *mode, how, otherMode(*mode))
	}
	ctx, stop := mf.runContext()
	defer stop()
	subject := func() report.Subject {
		return report.Subject{Model: lm.m, Property: lm.prop, Policy: lm.decl, Decider: lm.dec, Workers: *workers, Progress: cli.LineTo(e.NewProgress(*jsonOut))}
	}
	var rep report.Outcome
	var err error
	if *mode == "goal" {
		if lm.decl == nil {
			return e.Fail(cli.ExitError, "vigil test: goal mode tests a policy; choose one with --policy")
		}
		goal.Budget, goal.Seed, goal.Fair = *budget, *seed, *outcomes == "fair"
		if goal.Biases = cli.SplitList(*config); *config == "" {
			goal.Biases = []string{fuzz.BiasPolicyQuality, fuzz.BiasNovelty}
		}
		if goal.Oracles = cli.SplitList(*oracles); !goalFlagsOK(e, goal, *outcomes) {
			return cli.ExitUsage
		}
		if msg := goalIdleFlag(fs, goal); msg != "" {
			return e.Fail(cli.ExitUsage, "vigil test: %s", msg)
		}
		rep, err = report.RunGoal(ctx, subject(), goal)
	} else {
		cfgName := *config
		if cfgName == "" {
			cfgName = "inf-greedy"
		}
		if so.Config, err = fuzz.ParseSafetyConfig(cfgName); err != nil {
			return e.Fail(cli.ExitUsage, "vigil test: --config: %v", err)
		}
		if !positive(e, map[string]int{"--runs": so.Runs, "--max-len": so.Limits.MaxLen, "--expansions": so.Limits.Expansions}, "--runs", "--max-len", "--expansions") {
			return cli.ExitUsage
		}
		if err := fuzz.CheckSafetyOracles(cli.SplitList(*oracles)); err != nil {
			return e.Fail(cli.ExitUsage, "vigil test: --oracle: %v", err)
		}
		if lm.decl == nil {
			return e.Fail(cli.ExitError, "vigil test: safety mode tests a policy; choose one with --policy (or give --policy-file)")
		}
		so.Budget, so.Seed, so.Oracles = *budget, *seed, cli.SplitList(*oracles) // nil: tarjan
		rep, err = report.RunSafety(ctx, subject(), so)
	}
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil test: %v", err)
	}
	// An output that cannot be written does not cost the report: it is
	// printed all the same, then the error (exit 1). The report of a long
	// test that found bugs was lost to a mistyped --html directory.
	// Nor does one output cost the other: a --record that failed skipped
	// the --html page.
	var outErr error
	if *record != "" {
		if err := rep.Record(*record); err != nil {
			outErr = fmt.Errorf("--record: %w", err)
		}
	}
	if *html != "" {
		if err := writeFile(*html, rep.HTML); err != nil {
			outErr = errors.Join(outErr, fmt.Errorf("--html: %w", err))
		}
	}
	code := map[string]int{"bugs": cli.ExitUnsafe, "unknown": cli.ExitUnknown}[rep.Verdict()]
	code = e.WriteReport("test", *jsonOut, rep, code)
	if outErr != nil {
		return e.Fail(cli.ExitFor(outErr), "vigil test: %v (the report is printed above)", outErr)
	}
	return code
}

// outputDirOK checks, before any work, that the directory of the file an
// output flag names exists, printing what is wrong.
func outputDirOK(e *cli.Env, flagName, path string) bool {
	if path == "" {
		return true
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		fmt.Fprintf(e.Stderr, "vigil test: --%s %s: the directory %s does not exist; create it or name another file\n", flagName, path, dir)
		return false
	}
	return true
}

// The flags of one mode only: given in the other mode they were accepted
// and ignored, so that --mode safety --outcomes fair (or a safety test
// defaulted to by the property) ran as if the flag were absent.
var (
	goalOnlyFlags   = []string{"pool", "walk", "bstate", "bexpansion", "steps", "depth", "outcomes"}
	safetyOnlyFlags = []string{"runs", "max-len", "expansions", "radius"}
)

// otherModeFlag is the first flag given that belongs to the mode other
// than mode, or "".
func otherModeFlag(fs *flag.FlagSet, mode string) string {
	other := goalOnlyFlags
	if mode == "goal" {
		other = safetyOnlyFlags
	}
	found := ""
	fs.Visit(func(f *flag.Flag) {
		if found == "" && slices.Contains(other, f.Name) {
			found = f.Name
		}
	})
	return found
}

func otherMode(mode string) string {
	if mode == "goal" {
		return "safety"
	}
	return "goal"
}

// positive checks that the flags named are positive, printing the first
// that is not.
func positive(e *cli.Env, vals map[string]int, names ...string) bool {
	for _, name := range names {
		if vals[name] <= 0 {
			fmt.Fprintf(e.Stderr, "vigil test: %s %d: must be positive\n", name, vals[name])
			return false
		}
	}
	return true
}

// goalIdleFlag says which goal-mode flag given does nothing with the
// oracles and biases chosen ("" when none): --depth without the lookahead
// oracle, --bstate or --bexpansion without a bias that runs the policy.
// They were accepted and ignored.
func goalIdleFlag(fs *flag.FlagSet, o report.GoalOptions) string {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if given["depth"] && len(o.Oracles) > 0 && !slices.Contains(o.Oracles, fuzz.OracleLookahead) {
		return fmt.Sprintf("--depth sets the lookahead oracle's depth, but --oracle %s does not run it: drop --depth or add lookahead to --oracle", strings.Join(o.Oracles, ","))
	}
	for _, f := range []string{"bstate", "bexpansion"} {
		if given[f] && !fuzz.BiasesRunPolicy(o.Biases) {
			return fmt.Sprintf("--%s budgets the policy runs of the biases polqual, loop, detour and surface, but --config %s runs none: drop --%s or add one of them to --config", f, strings.Join(o.Biases, ","), f)
		}
	}
	return ""
}

// goalFlagsOK checks goal mode's flags, printing what is wrong.
func goalFlagsOK(e *cli.Env, o report.GoalOptions, outcomes string) bool {
	p := o.Pool
	if !positive(e, map[string]int{"--pool": p.MaxPool, "--walk": p.WalkLen, "--bstate": p.BState, "--bexpansion": p.BExpansion, "--steps": p.MaxSteps, "--depth": o.Depth},
		"--pool", "--walk", "--bstate", "--bexpansion", "--steps", "--depth") {
		return false
	}
	if err := fuzz.CheckBiases(o.Biases); err != nil {
		fmt.Fprintf(e.Stderr, "vigil test: --config: %v\n", err)
		return false
	}
	if err := fuzz.CheckOracles(o.Oracles); err != nil {
		fmt.Fprintf(e.Stderr, "vigil test: --oracle: %v\n", err)
		return false
	}
	if outcomes != "adversarial" && outcomes != "fair" {
		fmt.Fprintf(e.Stderr, "vigil test: --outcomes %q: want adversarial or fair\n", outcomes)
		return false
	}
	return true
}
