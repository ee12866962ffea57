package main

// vigil test --mode safety: paper 000's pipeline. Fuzz with Algorithm 1,
// confirm the bugs on every unsafe run with the safety deciders, find the
// faults, report (text, --json, --html) and record the unsafe runs.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"vigil/fuzz"
	"vigil/fuzz/report"
	"vigil/symbolic"
)

// safetyRun is one safety-mode test run's inputs, as cmdtest.go parsed them.
type safetyRun struct {
	lm      *loadedModel
	file    string
	budget  time.Duration
	seed    uint64
	config  fuzz.SafetyConfig
	oracles []string
	json    bool
	workers int
	html    string
	record  string
	flags   *safetyTestFlags
	// starts says how start states were drawn when they were not
	// enumerated ("" when they were).
	starts string
}

// runSafetyTest runs safety mode and returns the exit code: 3 when bugs
// were found, 0 when none, 4 when stopped before any.
func runSafetyTest(ctx context.Context, e *env, r safetyRun) int {
	lm := r.lm
	if lm.decl == nil {
		fmt.Fprintln(e.stderr, "vigil test: safety mode tests a policy; choose one with --policy (or give --policy-file)")
		return exitError
	}
	tasks, err := fuzz.NewSafetyTasks(lm.m, lm.prop, lm.decl, lm.dec, r.workers)
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	prog := newProgress(e, r.json)
	began := time.Now()
	// The start states are sampled within the budget: SafetyTest reports
	// an empty, incomplete result when it ran out here.
	sctx, scancel := context.WithTimeout(ctx, r.budget)
	defer scancel()
	ss, err := newStartSampler(sctx, tasks[0].Gen, r.seed, prog)
	if err != nil && sctx.Err() == nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	for _, t := range tasks {
		t.Sampler = ss
	}
	if ss != nil && !ss.Enumerated(func(symbolic.State) bool { return false }) {
		r.starts = ss.Describe()
	}
	res, err := fuzz.SafetyTest(sctx, tasks, fuzz.SafetyOptions{Config: r.config, Runs: r.flags.runs,
		Limits: fuzz.SafetyLimits{MaxLen: r.flags.maxLen, Expansions: r.flags.expansions}, Seed: r.seed,
		Oracles: r.oracles, Radius: &r.flags.radius.r, Runtime: r.budget,
		OnRun: func(t fuzz.SafetyTally) {
			prog.printf("vigil test: %d/%d runs, %s, %s so far", t.Runs, t.Total, plural(t.Unsafe, "unsafe run"), plural(t.Bugs, "bug"))
		}})
	prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	why := ""
	if !res.Complete {
		why = "interrupted"
		if ctx.Err() == context.DeadlineExceeded {
			why = "the --timeout ran out"
		}
		if ctx.Err() == nil {
			why = "the --budget ran out"
		}
	}
	rep := &report.Safety{Model: lm.m, Property: lm.prop.Name, Policy: lm.decl.Name, Config: r.config.Name(), Seed: r.seed,
		Oracles: r.oracles, Radius: r.flags.radius.r, Result: res, Elapsed: time.Since(began), Stopped: why, Runs: r.flags.runs, Starts: r.starts}
	if r.record != "" {
		if rep.Files, err = fuzz.RecordSafety(r.record, lm.m, lm.prop.Name, lm.decl.Name, res); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --record: %v\n", err)
			return exitFor(err)
		}
	}
	if r.html != "" {
		if err := writeFile(r.html, func(w io.Writer) error { return report.SafetyHTML(w, rep) }); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --html: %v\n", err)
			return exitFor(err)
		}
	}
	if r.json {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		err = enc.Encode(rep.JSON())
	} else {
		err = rep.WriteText(e.stdout)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	switch rep.Verdict() {
	case "bugs":
		return exitUnsafe
	case "unknown":
		return exitUnknown
	}
	return exitOK
}
