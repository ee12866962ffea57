package main

// vigil test --mode safety: paper 000's pipeline, run by report.RunSafety
// (fuzz with Algorithm 1, confirm the bugs on every unsafe run with the
// safety deciders, find the faults); here its report is recorded and
// written (text, --json, --html).

import (
	"context"
	"fmt"
	"io"
	"time"

	"vigil/fuzz"
	"vigil/fuzz/report"
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
}

// runSafetyTest runs safety mode (report.RunSafety) and returns the exit
// code: 3 when bugs were found, 0 when none, 4 when stopped before any.
func runSafetyTest(ctx context.Context, e *env, r safetyRun) int {
	lm := r.lm
	if lm.decl == nil {
		fmt.Fprintln(e.stderr, "vigil test: safety mode tests a policy; choose one with --policy (or give --policy-file)")
		return exitError
	}
	rep, err := report.RunSafety(ctx, subject(e, lm, r.workers, r.json), report.SafetyOptions{Budget: r.budget, Seed: r.seed,
		Config: r.config, Runs: r.flags.runs, Limits: fuzz.SafetyLimits{MaxLen: r.flags.maxLen, Expansions: r.flags.expansions},
		Oracles: r.oracles, Radius: r.flags.radius.r})
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	if r.record != "" {
		if err := rep.Record(r.record); err != nil {
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
		err = encodeJSON(e.stdout, rep.JSON())
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
