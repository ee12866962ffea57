package main

import (
	"encoding/json"
	"fmt"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func init() {
	register(&command{
		Name:    "explore",
		Summary: "count the reachable states of a model, with or without a policy",
		Usage:   "vigil explore [flags] FILE.spec",
		Examples: []string{
			"vigil explore specs/oneway_line.spec",
			"vigil explore specs/oneway_line.spec --policy careful --json",
			"vigil explore -D L=200 specs/twoway_line.spec --max-states 1000000",
		},
		Run: runExplore,
	})
}

// exploreReport is the --json form of an exploration.
type exploreReport struct {
	Model           string  `json:"model"`
	Property        string  `json:"property"`
	Policy          string  `json:"policy"`
	Complete        bool    `json:"complete"`
	Stopped         string  `json:"stopped,omitempty"`
	States          int     `json:"states"`
	StartStates     int     `json:"start_states"`
	Transitions     int     `json:"transitions"`
	Depth           int     `json:"depth"`
	Unsafe          int     `json:"unsafe"`
	Goal            int     `json:"goal"`
	Deadlocks       int     `json:"deadlocks"`
	Stuck           int     `json:"stuck"`
	Seconds         float64 `json:"seconds"`
	StatesPerSecond float64 `json:"states_per_second"`
	BytesPerState   float64 `json:"bytes_per_state"`
	WordsPerState   int     `json:"words_per_state"`
}

func runExplore(e *env, args []string) int {
	c := commands["explore"]
	fs := newFlags(e, c)
	mf := addModelFlags(fs, "property giving start and terminal states (default: the only one)",
		"restrict each state to the label this policy chooses (default: all applicable labels)")
	maxStates := fs.Int("max-states", 0, "stop after storing this many states (exit code 4); 0 means no limit")
	jsonOut := fs.Bool("json", false, "print the statistics as JSON")
	timeout := timeoutFlag(fs)
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	lm, ok := mf.load(e, "explore", file, false, noPolicy)
	if !ok {
		return exitError
	}
	m, prop, decl, g := lm.m, lm.prop, lm.decl, lm.g
	opts := explicit.Options{MaxStates: *maxStates, Policy: lm.dec}
	ctx, cancel := runContext(*timeout)
	defer cancel()
	prog := newProgress(e, *jsonOut)
	opts.Progress = func(s explicit.Stats) {
		prog.printf("explore: %d states, depth %d, %.0f states/s", s.States, s.Depth, s.StatesPerSecond())
	}
	res, err := explicit.Search(ctx, g, opts)
	prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil explore: %v\n", err)
		return exitError
	}
	rep := newExploreReport(m, prop, decl, res)
	if !rep.Complete {
		rep.Stopped = stopReason(ctx)
		if rep.Stopped == "" {
			rep.Stopped = "state limit"
		}
	}
	if *jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printExplore(e, rep)
	}
	if !rep.Complete {
		return exitUnknown
	}
	return exitOK
}

func newExploreReport(m *symbolic.Model, prop *symbolic.Property, decl *symbolic.PolicyDecl, res *explicit.Result) *exploreReport {
	s := res.Stats
	return &exploreReport{
		Model: m.Name, Property: propertyName(prop), Policy: policyName(decl),
		Complete: res.Verdict != explicit.Unknown,
		States:   s.States, StartStates: s.Starts, Transitions: s.Transitions, Depth: s.Depth,
		Unsafe: s.Unsafe, Goal: s.Goal, Deadlocks: s.Deadlocks, Stuck: s.Stuck,
		Seconds: s.Elapsed.Seconds(), StatesPerSecond: s.StatesPerSecond(),
		BytesPerState: s.BytesPerState(), WordsPerState: s.Words,
	}
}

func printExplore(e *env, r *exploreReport) {
	w := e.stdout
	pol := "all applicable labels"
	if r.Policy != "" {
		pol = "policy " + r.Policy
	}
	fmt.Fprintf(w, "model %s, property %s, %s\n", r.Model, orNone(r.Property), pol)
	if !r.Complete {
		fmt.Fprintf(w, "incomplete: stopped by %s; the figures below are partial\n", r.Stopped)
	}
	fmt.Fprintf(w, "states        %d (%d start)\n", r.States, r.StartStates)
	fmt.Fprintf(w, "transitions   %d\n", r.Transitions)
	fmt.Fprintf(w, "depth         %d\n", r.Depth)
	fmt.Fprintf(w, "terminal      %d unsafe, %d goal\n", r.Unsafe, r.Goal)
	fmt.Fprintf(w, "deadlocks     %d\n", r.Deadlocks)
	if r.Policy != "" {
		fmt.Fprintf(w, "policy stuck  %d\n", r.Stuck)
	}
	fmt.Fprintf(w, "time          %.3fs (%.0f states/s)\n", r.Seconds, r.StatesPerSecond)
	fmt.Fprintf(w, "memory        %.1f bytes/state (%d-word packed states)\n", r.BytesPerState, r.WordsPerState)
}
