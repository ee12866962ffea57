package main

// vigil test --mode safety: paper 000's pipeline. Fuzz with Algorithm 1,
// confirm the bugs on every unsafe run with the safety deciders, find the
// faults, report (text, --json, --html) and record the unsafe runs.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"vigil/fuzz"
	"vigil/fuzz/report"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
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

type safetyJSONBug struct {
	State string `json:"state"`
	Case  int    `json:"unsafe_run"` // 1-based index into unsafe_runs
	Step  int    `json:"step"`
}

type safetyJSONFault struct {
	State   string `json:"state"`
	Label   string `json:"label"`
	Outcome string `json:"unsafe_outcome"`
	Alt     string `json:"safe_alternative"`
	Case    int    `json:"unsafe_run"`
	Step    int    `json:"step"`
}

type safetyJSONCase struct {
	Run      int            `json:"run"` // the fuzzing run's number
	Steps    []goalJSONStep `json:"steps"`
	Analysed bool           `json:"analysed"`
	Bugs     []int          `json:"bug_steps"`
	Faults   []int          `json:"fault_steps"`
	Seconds  float64        `json:"found_at_seconds"`
	File     string         `json:"file,omitempty"`
}

type safetyJSONReport struct {
	Mode       string             `json:"mode"`
	Result     string             `json:"result"` // bugs, none, unknown (not a verdict: none is no proof of safety)
	Model      string             `json:"model"`
	Property   string             `json:"property"`
	Policy     string             `json:"policy"`
	Seed       uint64             `json:"seed"`
	Config     string             `json:"config"`
	Oracles    []string           `json:"oracles"`
	Radius     string             `json:"radius"`
	Runs       int                `json:"runs"`
	Ends       map[string]int     `json:"run_ends"`
	Unsafe     int                `json:"unsafe_runs_found"`
	Duplicates int                `json:"duplicate_unsafe_runs"`
	Bugs       []safetyJSONBug    `json:"bugs"`
	Faults     []safetyJSONFault  `json:"faults"`
	Cases      []safetyJSONCase   `json:"unsafe_runs"`
	Phases     map[string]float64 `json:"seconds"`
	Complete   bool               `json:"complete"`
	Stopped    string             `json:"stopped,omitempty"`
	Starts     string             `json:"start_sampling,omitempty"`
}

// safetySummary is fuzz.SafetyResult.Distinct in report form: distinct
// bugs and faults with the unsafe run (1-based) and step that show them
// first.
type safetySummary struct {
	bugs   []safetyJSONBug
	faults []safetyJSONFault
	// withBugs counts the unsafe runs with a bug; unanalysed those whose
	// analysis the budget or an interrupt cut short.
	withBugs, unanalysed int
}

func summarise(m *symbolic.Model, res *fuzz.SafetyResult) *safetySummary {
	d := res.Distinct()
	s := &safetySummary{bugs: []safetyJSONBug{}, faults: []safetyJSONFault{}, withBugs: d.WithBugs, unanalysed: d.Unanalysed}
	for _, b := range d.Bugs {
		s.bugs = append(s.bugs, safetyJSONBug{State: m.FormatState(b.State), Case: b.Case + 1, Step: b.Step})
	}
	for _, f := range d.Faults {
		jf := safetyJSONFault{State: m.FormatState(f.State), Label: m.Labels[f.Label].Name, Outcome: m.FormatState(f.Outcome), Case: f.Case + 1, Step: f.Step}
		if f.Alt != symbolic.NoLabel {
			jf.Alt = m.Labels[f.Alt].Name
		}
		s.faults = append(s.faults, jf)
	}
	return s
}

// runSafetyTest runs safety mode and returns the exit code: 3 when bugs
// were found, 0 when none, 4 when stopped before any.
func runSafetyTest(ctx context.Context, e *env, r safetyRun) int {
	lm := r.lm
	if lm.decl == nil {
		fmt.Fprintln(e.stderr, "vigil test: safety mode tests a policy; choose one with --policy (or give --policy-file)")
		return exitError
	}
	tasks, err := workerTasks(lm, r.workers, func(dec explicit.Decider) (*fuzz.SafetyTask, error) {
		return fuzz.NewSafetyTask(lm.m, lm.prop, dec, lm.decl.Name)
	})
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
	elapsed := time.Since(began)
	m := lm.m
	sum := summarise(m, res)
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
	var files []string
	if r.record != "" {
		if files, err = safetyRecord(r.record, lm, res); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --record: %v\n", err)
			return exitFor(err)
		}
	}
	if r.html != "" {
		f, err := os.Create(r.html)
		if err == nil {
			err = report.SafetyHTML(f, &report.Safety{Model: m, Property: lm.prop.Name, Policy: lm.decl.Name, Config: r.config.Name(), Seed: r.seed,
				Oracles: r.oracles, Radius: r.flags.radius.r, Result: res, Elapsed: elapsed, Stopped: why})
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --html: %v\n", err)
			return exitFor(err)
		}
	}
	verdict := "none"
	switch {
	case len(sum.bugs) > 0:
		verdict = "bugs"
	case !res.Complete:
		verdict = "unknown"
	}
	if r.json {
		rep := safetyJSONReport{Mode: "safety", Result: verdict, Model: m.Name, Property: lm.prop.Name, Policy: lm.decl.Name, Seed: r.seed,
			Config: r.config.Name(), Oracles: r.oracles, Radius: r.flags.radius.r.String(), Runs: res.Runs, Ends: res.Ends,
			Unsafe: res.Unsafe(), Duplicates: res.Duplicates, Bugs: sum.bugs, Faults: sum.faults, Cases: []safetyJSONCase{},
			Phases:   map[string]float64{"fuzz": res.Fuzz.Seconds(), "confirm": res.Confirm.Seconds(), "faults": res.Faults.Seconds(), "total": elapsed.Seconds()},
			Complete: res.Complete, Stopped: why, Starts: r.starts}
		for i, c := range res.Cases {
			jc := safetyJSONCase{Run: c.Run.Index, Steps: goalSteps(m, c.Run.Steps), Analysed: c.Analysed, Bugs: c.Bugs, Faults: []int{},
				Seconds: c.Run.At.Seconds()}
			if jc.Bugs == nil {
				jc.Bugs = []int{}
			}
			for _, f := range c.Faults {
				jc.Faults = append(jc.Faults, f.Step)
			}
			if files != nil {
				jc.File = files[i]
			}
			rep.Cases = append(rep.Cases, jc)
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
			return exitFor(err)
		}
	} else {
		printSafetyTest(e, lm, r, res, sum, files, elapsed, why)
	}
	switch verdict {
	case "bugs":
		return exitUnsafe
	case "unknown":
		return exitUnknown
	}
	return exitOK
}

// maxPrintedRuns bounds the unsafe runs the text report shows in full.
const maxPrintedRuns = 5

func printSafetyTest(e *env, lm *loadedModel, r safetyRun, res *fuzz.SafetyResult, sum *safetySummary, files []string, elapsed time.Duration, why string) {
	w := e.stdout
	m := lm.m
	what := radiusWords(r.flags.radius.r.String())
	fmt.Fprintf(w, "safety testing: model %s, property %s, policy %s, configuration %s, seed %d\n", m.Name, lm.prop.Name, lm.decl.Name, r.config.Name(), r.seed)
	var ends []string
	for _, k := range []string{fuzz.SafetyEndUnsafe, fuzz.SafetyEndExhausted, fuzz.SafetyEndLength, fuzz.SafetyEndBudget} {
		if n := res.Ends[k]; n > 0 {
			ends = append(ends, fmt.Sprintf("%d %s", n, k))
		}
	}
	fmt.Fprintf(w, "fuzzing: %s (%s); distinct unsafe runs: %d\n", plural(res.Runs, "run"), orNone(strings.Join(ends, ", ")), len(res.Cases))
	fmt.Fprintf(w, "oracles: %s, radius %s\n", strings.Join(r.oracles, ", "), r.flags.radius.r)
	if r.starts != "" {
		fmt.Fprintf(w, "start states: %s\n", r.starts)
	}
	shown := 0
	for ci, c := range res.Cases {
		if !c.Analysed || len(c.Bugs) == 0 {
			continue
		}
		if shown == maxPrintedRuns {
			fmt.Fprintf(w, "\n... %d more unsafe runs with bugs (--json lists them)\n", sum.withBugs-shown)
			break
		}
		shown++
		fmt.Fprintf(w, "\nunsafe run %d (fuzzing run %d): %s, %s, %s\n", ci+1, c.Run.Index, plural(len(c.Run.Steps)-1, "step"), plural(len(c.Bugs), "bug"), plural(len(c.Faults), "fault"))
		if files != nil {
			fmt.Fprintf(w, "  recorded: %s\n", files[ci])
		}
		bug := map[int]bool{}
		for _, i := range c.Bugs {
			bug[i] = true
		}
		fault := map[int]bool{}
		for _, f := range c.Faults {
			fault[f.Step] = true
		}
		run := c.Run.Steps
		for i, st := range run {
			if len(run) > 25 && i >= 6 && i < len(run)-13 && !fault[i] {
				if i == 6 {
					fmt.Fprintf(w, "         ... (--json lists every step)\n")
				}
				continue
			}
			mark := ""
			switch {
			case i == len(run)-1:
				mark = "  unsafe"
			case fault[i]:
				mark = "  bug, fault"
			case bug[i]:
				mark = "  bug"
			}
			fmt.Fprintf(w, "    %3d  %s%s\n", i, m.FormatState(st.State), mark)
			if st.Label != symbolic.NoLabel {
				fmt.Fprintf(w, "         -> %s\n", m.Labels[st.Label].Name)
			}
		}
		for _, f := range c.Faults {
			fmt.Fprintf(w, "  fault at step %d: %s\n    policy takes %s, which may lead to %s (not %s)\n", f.Step, m.FormatState(f.State), m.Labels[f.Label].Name, m.FormatState(f.Outcome), what)
			if f.Alt != symbolic.NoLabel {
				fmt.Fprintf(w, "    %s keeps it %s\n", m.Labels[f.Alt].Name, what)
			}
		}
	}
	if n := len(res.Cases) - sum.withBugs - sum.unanalysed; n > 0 {
		fmt.Fprintf(w, "\n%s without a bug: no state on them is %s, the unsafety is unavoidable\n", plural(n, "unsafe run"), what)
	}
	if why != "" {
		fmt.Fprintf(w, "\n%s after %d of %d runs", why, res.Runs, r.flags.runs)
		if sum.unanalysed > 0 {
			fmt.Fprintf(w, " (%s not analysed)", plural(sum.unanalysed, "unsafe run"))
		}
		fmt.Fprintf(w, "; the bugs below were found before\n")
	}
	fmt.Fprintf(w, "\n%s, %s on %s\n", plural(len(sum.bugs), "bug"), plural(len(sum.faults), "fault"), plural(sum.withBugs, "unsafe run"))
	fmt.Fprintf(w, "time: fuzz %s, confirm %s, faults %s, total %s\n", res.Fuzz.Round(time.Millisecond), res.Confirm.Round(time.Millisecond), res.Faults.Round(time.Millisecond), elapsed.Round(time.Millisecond))
}

// safetyRecord writes every distinct unsafe run as DIR/unsafe-N.json.
func safetyRecord(dir string, lm *loadedModel, res *fuzz.SafetyResult) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for i, c := range res.Cases {
		path := filepath.Join(dir, fmt.Sprintf("unsafe-%d.json", i+1))
		if err := writeRunFile(path, explicit.NewRun(lm.m, lm.prop.Name, lm.decl.Name, explicit.EndUnsafe, c.Run.Steps)); err != nil {
			return nil, err
		}
		files = append(files, path)
	}
	return files, nil
}

// workerTasks makes a fuzzing task per worker (at least one), each with a
// policy decider of its own (deciders keep state between calls; the first
// task takes the one loaded with the model).
func workerTasks[T any](lm *loadedModel, workers int, mk func(explicit.Decider) (T, error)) ([]T, error) {
	tasks := make([]T, max(1, workers))
	for i := range tasks {
		dec := lm.dec
		if i > 0 {
			var err error
			if dec, err = explicit.NewDecider(lm.m, lm.decl); err != nil {
				return nil, err
			}
		}
		t, err := mk(dec)
		if err != nil {
			return nil, err
		}
		tasks[i] = t
	}
	return tasks, nil
}
