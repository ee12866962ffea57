package report

// The text and JSON reports of vigil test --mode safety, next to its
// HTML page: the command prints Safety.WriteText or encodes Safety.JSON.

import (
	"fmt"
	"io"
	"strings"
	"time"

	"vigil/fuzz"
	"vigil/internal/phrase"
	"vigil/symbolic"
)

// SafetyBugJSON is one distinct bug in SafetyJSON: the state, and the
// unsafe run (1-based) and step that show it first.
type SafetyBugJSON struct {
	State string `json:"state"`
	Case  int    `json:"unsafe_run"` // 1-based index into unsafe_runs
	Step  int    `json:"step"`
}

// SafetyFaultJSON is one distinct fault in SafetyJSON.
type SafetyFaultJSON struct {
	State   string `json:"state"`
	Label   string `json:"label"`
	Outcome string `json:"unsafe_outcome"`
	Alt     string `json:"safe_alternative"`
	Case    int    `json:"unsafe_run"`
	Step    int    `json:"step"`
}

// SafetyCaseJSON is one distinct unsafe run in SafetyJSON.
type SafetyCaseJSON struct {
	Run      int     `json:"run"` // the fuzzing run's number
	Steps    []Step  `json:"steps"`
	Analysed bool    `json:"analysed"`
	Bugs     []int   `json:"bug_steps"`
	Faults   []int   `json:"fault_steps"`
	Seconds  float64 `json:"found_at_seconds"`
	File     string  `json:"file,omitempty"`
}

// SafetyJSON is the --json report of vigil test --mode safety.
type SafetyJSON struct {
	Mode       string            `json:"mode"`
	Result     string            `json:"result"` // bugs, none, unknown (not a verdict: none is no proof of safety)
	Model      string            `json:"model"`
	Property   string            `json:"property"`
	Policy     string            `json:"policy"`
	Seed       uint64            `json:"seed"`
	Config     string            `json:"config"`
	Oracles    []string          `json:"oracles"`
	Radius     string            `json:"radius"`
	Runs       int               `json:"runs"`
	Ends       map[string]int    `json:"run_ends"`
	Unsafe     int               `json:"unsafe_runs_found"`
	Duplicates int               `json:"duplicate_unsafe_runs"`
	Bugs       []SafetyBugJSON   `json:"bugs"`
	Faults     []SafetyFaultJSON `json:"faults"`
	Cases      []SafetyCaseJSON  `json:"unsafe_runs"`
	// Phases is the wall-clock time per phase (in which some worker was
	// in it) and in all; WorkerPhases sums the workers' time per phase.
	Phases       map[string]float64 `json:"seconds"`
	WorkerPhases map[string]float64 `json:"worker_seconds"`
	Workers      int                `json:"workers"`
	Complete     bool               `json:"complete"`
	Stopped      string             `json:"stopped,omitempty"`
	Starts       string             `json:"start_sampling,omitempty"`
}

// distinct is fuzz.SafetyResult.Distinct with names: distinct bugs and
// faults with the unsafe run (1-based) and step that show them first.
type distinct struct {
	bugs   []SafetyBugJSON
	faults []SafetyFaultJSON
	// withBugs counts the unsafe runs with a bug; unanalysed those whose
	// analysis the budget or an interrupt cut short.
	withBugs, unanalysed int
}

func named(m *symbolic.Model, res *fuzz.SafetyResult) *distinct {
	d := res.Distinct()
	s := &distinct{bugs: []SafetyBugJSON{}, faults: []SafetyFaultJSON{}, withBugs: d.WithBugs, unanalysed: d.Unanalysed}
	for _, b := range d.Bugs {
		s.bugs = append(s.bugs, SafetyBugJSON{State: m.FormatState(b.State), Case: b.Case + 1, Step: b.Step})
	}
	for _, f := range d.Faults {
		jf := SafetyFaultJSON{State: m.FormatState(f.State), Label: m.Labels[f.Label].Name, Outcome: m.FormatState(f.Outcome), Case: f.Case + 1, Step: f.Step}
		if f.Alt != symbolic.NoLabel {
			jf.Alt = m.Labels[f.Alt].Name
		}
		s.faults = append(s.faults, jf)
	}
	return s
}

// Verdict sums the test up: bugs when it found any, else unknown when it
// stopped early, else none (which is no proof of safety).
func (t *Safety) Verdict() string {
	switch {
	case len(t.Result.Distinct().Bugs) > 0:
		return "bugs"
	case !t.Result.Complete:
		return "unknown"
	}
	return "none"
}

// JSON is the report in its --json shape.
func (t *Safety) JSON() *SafetyJSON {
	m, res := t.Model, t.Result
	sum := named(m, res)
	rep := &SafetyJSON{Mode: "safety", Result: t.Verdict(), Model: m.Name, Property: t.Property, Policy: t.Policy, Seed: t.Seed,
		Config: t.Config, Oracles: t.Oracles, Radius: t.Radius.String(), Runs: res.Runs, Ends: res.Ends,
		Unsafe: res.Unsafe(), Duplicates: res.Duplicates, Bugs: sum.bugs, Faults: sum.faults, Cases: []SafetyCaseJSON{},
		Phases:       map[string]float64{"fuzz": res.Fuzz.Seconds(), "confirm": res.Confirm.Seconds(), "faults": res.Faults.Seconds(), "total": t.Elapsed.Seconds()},
		WorkerPhases: map[string]float64{"fuzz": res.FuzzWork.Seconds(), "confirm": res.ConfirmWork.Seconds(), "faults": res.FaultsWork.Seconds()},
		Workers:      max(1, res.Workers),
		Complete:     res.Complete, Stopped: t.Stopped, Starts: t.Starts}
	for i, c := range res.Cases {
		jc := SafetyCaseJSON{Run: c.Run.Index, Steps: Steps(m, c.Run.Steps), Analysed: c.Analysed, Bugs: c.Bugs, Faults: []int{},
			Seconds: c.Run.At.Seconds()}
		if jc.Bugs == nil {
			jc.Bugs = []int{}
		}
		for _, f := range c.Faults {
			jc.Faults = append(jc.Faults, f.Step)
		}
		if t.Files != nil {
			jc.File = t.Files[i]
		}
		rep.Cases = append(rep.Cases, jc)
	}
	return rep
}

// maxPrintedRuns bounds the unsafe runs the text report shows in full.
const maxPrintedRuns = 5

// WriteText writes the report as vigil test --mode safety prints it: the
// setup, the first unsafe runs with bugs (bugs and faults marked), then
// the counts and times.
func (t *Safety) WriteText(w io.Writer) error {
	m, res := t.Model, t.Result
	sum := named(m, res)
	what := radiusWords(t.Radius)
	fmt.Fprintf(w, "safety testing: model %s, property %s, policy %s, configuration %s, seed %d\n", m.Name, t.Property, t.Policy, t.Config, t.Seed)
	var ends []string
	for _, k := range []string{fuzz.SafetyEndUnsafe, fuzz.SafetyEndExhausted, fuzz.SafetyEndLength, fuzz.SafetyEndBudget} {
		if n := res.Ends[k]; n > 0 {
			ends = append(ends, fmt.Sprintf("%d %s", n, k))
		}
	}
	fmt.Fprintf(w, "fuzzing: %s (%s); distinct unsafe runs: %d\n", plural(res.Runs, "run"), phrase.OrNone(strings.Join(ends, ", ")), len(res.Cases))
	fmt.Fprintf(w, "oracles: %s, radius %s\n", strings.Join(t.Oracles, ", "), t.Radius)
	if t.Starts != "" {
		fmt.Fprintf(w, "start states: %s\n", t.Starts)
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
		if t.Files != nil {
			fmt.Fprintf(w, "  recorded: %s\n", t.Files[ci])
		}
		writeUnsafeRun(w, m, c, what)
	}
	if n := len(res.Cases) - sum.withBugs - sum.unanalysed; n > 0 {
		fmt.Fprintf(w, "\n%s without a bug: no state on them is %s, %s\n", plural(n, "unsafe run"), what, unavoidable(t.Radius, t.Policy, "them"))
	}
	if t.Stopped != "" {
		fmt.Fprintf(w, "\n%s after %d of %d runs", t.Stopped, res.Runs, t.Runs)
		if sum.unanalysed > 0 {
			fmt.Fprintf(w, " (%s not analysed)", plural(sum.unanalysed, "unsafe run"))
		}
		fmt.Fprintf(w, "; the bugs below were found before\n")
	}
	fmt.Fprintf(w, "\n%s, %s on %s", plural(len(sum.bugs), "bug"), plural(len(sum.faults), "fault"), plural(sum.withBugs, "unsafe run"))
	if n := len(res.Cases); n > sum.withBugs {
		// the bugs lie on some of the distinct unsafe runs only: say of how
		// many, so that "on 0 unsafe runs" does not read as none found
		fmt.Fprintf(w, " (of %s)", plural(n, "distinct unsafe run"))
	}
	fmt.Fprintln(w)
	_, err := fmt.Fprintf(w, "time: %s\n", safetyTime(res, t.Elapsed))
	return err
}

// safetyTime says where the test's time went: wall-clock time per phase
// and in all and, with several workers, whose phases overlap, the
// workers' time summed per phase, labelled as such.
func safetyTime(res *fuzz.SafetyResult, elapsed time.Duration) string {
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	s := fmt.Sprintf("fuzz %s, confirm %s, faults %s, total %s", ms(res.Fuzz), ms(res.Confirm), ms(res.Faults), ms(elapsed))
	if res.Workers > 1 {
		s += fmt.Sprintf(" (wall clock; the %d workers' time summed: fuzz %s, confirm %s, faults %s)", res.Workers, ms(res.FuzzWork), ms(res.ConfirmWork), ms(res.FaultsWork))
	}
	return s
}

// writeUnsafeRun writes one unsafe run with its bugs and faults marked (a
// long run shows its first 6 and last 13 steps, and every fault), then
// each fault with the label that avoids it.
func writeUnsafeRun(w io.Writer, m *symbolic.Model, c *fuzz.SafetyCase, what string) {
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
