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
	"os"
	"path/filepath"
	"strings"
	"time"

	"vigil/fuzz"
	"vigil/fuzz/report"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
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

// goalJSONStep is one step of a run in the JSON report.
type goalJSONStep struct {
	State string `json:"state"`
	Label string `json:"label,omitempty"`
}

type goalJSONBug struct {
	State       string          `json:"state"`
	Oracle      string          `json:"oracle"`
	Qualitative bool            `json:"qualitative"`
	Policy      string          `json:"policy_outcome"` // reached, fails, beyond
	PolicyCost  int             `json:"policy_cost,omitempty"`
	Why         string          `json:"why,omitempty"`
	PolicyRun   []goalJSONStep  `json:"policy_run"`
	PlanCost    int             `json:"plan_cost"`
	Plan        []goalJSONStep  `json:"plan"`
	Patch       []goalJSONFault `json:"faults"`
}

// goalJSONFault is one decision the evidence changes: in State the policy
// takes PolicyLabel ("" when stuck), the better plan Alternative.
type goalJSONFault struct {
	State       string `json:"state"`
	PolicyLabel string `json:"policy_label"`
	Alternative string `json:"alternative"`
}

type goalJSONReport struct {
	Mode     string             `json:"mode"`
	Outcomes string             `json:"outcomes"`
	Model    string             `json:"model"`
	Property string             `json:"property"`
	Policy   string             `json:"policy"`
	Seed     uint64             `json:"seed"`
	Biases   []string           `json:"biases"`
	Oracles  []string           `json:"oracles"`
	Pool     int                `json:"pool"`
	Stop     string             `json:"stop"`
	Bugs     []goalJSONBug      `json:"bugs"`
	Phases   map[string]float64 `json:"seconds"`
	Complete bool               `json:"complete"`
	Stopped  string             `json:"stopped,omitempty"` // why an incomplete run ended
	Starts   string             `json:"start_sampling,omitempty"`
}

func goalSteps(m *symbolic.Model, run []explicit.Step) []goalJSONStep {
	out := make([]goalJSONStep, 0, len(run))
	for _, st := range run {
		js := goalJSONStep{State: m.FormatState(st.State)}
		if st.Label != symbolic.NoLabel {
			js.Label = m.Labels[st.Label].Name
		}
		out = append(out, js)
	}
	return out
}

// goalOutcome is what a goal-mode test found, for the reports.
type goalOutcome struct {
	task                  *fuzz.GoalTask // the first worker's (its model, policy and fairness)
	pool                  *fuzz.Pool
	res                   *fuzz.GoalResult
	fuzzTime, confirmTime time.Duration
	complete              bool
	why                   string   // why an incomplete test ended
	starts                string   // how start states were drawn, when not enumerated
	oracles               []string // the oracles that ran
}

// runGoalTest runs goal mode and returns the exit code: 3 when bugs were
// found, 0 when none, 4 when interrupted before any.
func runGoalTest(ctx context.Context, e *env, r goalRun) int {
	lm := r.lm
	if lm.decl == nil {
		fmt.Fprintln(e.stderr, "vigil test: goal mode tests a policy; choose one with --policy")
		return exitError
	}
	tasks, err := workerTasks(lm, r.workers, func(dec explicit.Decider) (*fuzz.GoalTask, error) {
		return fuzz.NewGoalTask(lm.m, lm.prop, dec, lm.decl.Name)
	})
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
		if err := goalRecord(r.flags.record, o.task, o.res); err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --record: %v\n", err)
			return exitFor(err)
		}
	}
	if r.flags.html != "" {
		f, err := os.Create(r.flags.html)
		if err == nil {
			err = report.GoalHTML(f, &report.Goal{Task: o.task, Outcomes: r.flags.outcomes, Seed: r.seed, Biases: r.biases,
				Pool: o.pool, Result: o.res, FuzzTime: o.fuzzTime, ConfirmTime: o.confirmTime, Complete: o.complete})
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil test: --html: %v\n", err)
			return exitFor(err)
		}
	}
	if r.json {
		err = printGoalJSON(e, r, o)
	} else {
		err = printGoalText(e, r, o)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil test: %v\n", err)
		return exitFor(err)
	}
	switch {
	case len(o.res.Bugs) > 0:
		return exitUnsafe
	case !o.complete:
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
func goalTest(ctx context.Context, e *env, r goalRun, tasks []*fuzz.GoalTask) (*goalOutcome, error) {
	for _, t := range tasks {
		t.Fair = r.flags.outcomes == "fair"
	}
	prog := newProgress(e, r.json)
	began := time.Now()
	ss, err := newStartSampler(ctx, tasks[0].Gen, r.seed, prog)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	o := &goalOutcome{task: tasks[0], oracles: r.oracles}
	for _, t := range tasks {
		t.Sampler = ss
	}
	if ss != nil && !ss.Enumerated(func(symbolic.State) bool { return false }) {
		o.starts = ss.Describe()
	}
	prog.printf("vigil test: fuzzing a pool of up to %d states", r.flags.pool)
	o.pool, o.res, err = fuzz.GoalTest(ctx, tasks, fuzz.PoolOptions{MaxPool: r.flags.pool, WalkLen: r.flags.walk, BState: r.flags.bstate,
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
	for _, d := range o.res.Elapsed {
		o.confirmTime += d
	}
	o.fuzzTime = max(0, time.Since(began)-o.confirmTime)
	o.complete = ctx.Err() == nil
	o.why = "interrupted"
	if ctx.Err() == context.DeadlineExceeded {
		o.why = "the --budget ran out"
	}
	if len(o.oracles) == 0 {
		o.oracles = fuzz.OracleNames
	}
	return o, nil
}

// printGoalJSON prints goal mode's report as JSON.
func printGoalJSON(e *env, r goalRun, o *goalOutcome) error {
	lm, m := r.lm, r.lm.m
	rep := goalJSONReport{Mode: "goal", Outcomes: r.flags.outcomes, Model: m.Name, Property: lm.prop.Name, Policy: lm.decl.Name, Seed: r.seed,
		Biases: goalOrEmpty(r.biases), Oracles: o.oracles, Pool: len(o.pool.Entries), Stop: o.pool.Stop, Bugs: []goalJSONBug{},
		Phases: map[string]float64{"fuzz": o.fuzzTime.Seconds(), "confirm": o.confirmTime.Seconds()}, Complete: o.complete, Starts: o.starts}
	if !o.complete {
		rep.Stopped = o.why
	}
	for _, b := range o.res.Bugs {
		jb := goalJSONBug{State: m.FormatState(b.State), Oracle: b.Oracle, Qualitative: b.Qualitative,
			Policy: b.Policy.Outcome.String(), Why: b.Policy.Why, PolicyRun: goalSteps(m, b.Policy.Run),
			PlanCost: b.Cost, Plan: goalSteps(m, b.Plan)}
		if b.Policy.Outcome != fuzz.GoalFails {
			jb.PolicyCost = b.Policy.Cost
		}
		var err error
		if jb.Patch, err = goalFaults(o.task, b); err != nil {
			return err
		}
		rep.Bugs = append(rep.Bugs, jb)
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// printGoalText prints goal mode's report as text.
func printGoalText(e *env, r goalRun, o *goalOutcome) error {
	lm, m, w := r.lm, r.lm.m, e.stdout
	fmt.Fprintf(w, "goal testing: model %s, property %s, policy %s, %s outcomes, seed %d\n", m.Name, lm.prop.Name, lm.decl.Name, r.flags.outcomes, r.seed)
	fmt.Fprintf(w, "fuzzing: %s (%s), %s, biases: %s\n", plural(len(o.pool.Entries), "pool state"), o.pool.Stop, plural(o.pool.Walks, "walk"), orNone(strings.Join(r.biases, ", ")))
	fmt.Fprintf(w, "oracles: %s\n", strings.Join(o.oracles, ", "))
	if o.starts != "" {
		fmt.Fprintf(w, "start states: %s\n", o.starts)
	}
	for i, b := range o.res.Bugs {
		kind := "costs more than a plan"
		if b.Qualitative {
			kind = "fails where a plan reaches the goal"
		}
		fmt.Fprintf(w, "\nbug %d (%s): %s\n  state: %s\n", i+1, b.Oracle, kind, m.FormatState(b.State))
		fmt.Fprintf(w, "  policy %s: %s\n", lm.decl.Name, b.Policy)
		printGoalRun(e, m, b.Policy.Run)
		if o.task.Fair {
			fmt.Fprintf(w, "  better: reaches the goal with probability 1; a shortest run:\n")
		} else {
			fmt.Fprintf(w, "  better: reaches the goal in %s on every run:\n", plural(b.Cost, "step"))
		}
		printGoalRun(e, m, b.Plan)
		fs, err := goalFaults(o.task, b)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  faults: %s the better plan changes\n", plural(len(fs), "decision"))
		for i, f := range fs {
			if i == 5 {
				fmt.Fprintf(w, "    ... %d more (--json lists them)\n", len(fs)-5)
				break
			}
			fmt.Fprintf(w, "    %s: %s, not %s\n", f.State, f.Alternative, orNone(f.PolicyLabel))
		}
	}
	if !o.complete {
		fmt.Fprintf(w, "\n%s with %d of %d pool states checked; the bugs above were found before\n", o.why, o.res.Checked, len(o.pool.Entries))
	}
	fmt.Fprintf(w, "\n%s\ntime: fuzz %s, confirm %s\n", plural(len(o.res.Bugs), "bug"), o.fuzzTime.Round(time.Millisecond), o.confirmTime.Round(time.Millisecond))
	return nil
}

// goalFaults lists a bug's faults with label names.
func goalFaults(task *fuzz.GoalTask, b *fuzz.GoalBug) ([]goalJSONFault, error) {
	fs, err := task.Faults(b)
	if err != nil {
		return nil, err
	}
	m := task.M
	out := []goalJSONFault{}
	for _, f := range fs {
		jf := goalJSONFault{State: m.FormatState(f.State), Alternative: m.Labels[f.Better].Name}
		if f.Policy != symbolic.NoLabel {
			jf.PolicyLabel = m.Labels[f.Policy].Name
		}
		out = append(out, jf)
	}
	return out, nil
}

func goalOrEmpty(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// printGoalRun prints a run as state, then -> label lines; a run of more
// than 20 steps shows its first and last 8 (--json has every step).
func printGoalRun(e *env, m *symbolic.Model, run []explicit.Step) {
	for i, st := range run {
		if len(run) > 21 && i >= 8 && i < len(run)-9 {
			if i == 8 {
				fmt.Fprintf(e.stdout, "         ... %d more steps (--json lists them) ...\n", len(run)-17)
			}
			continue
		}
		fmt.Fprintf(e.stdout, "    %3d  %s\n", i, m.FormatState(st.State))
		if st.Label != symbolic.NoLabel {
			fmt.Fprintf(e.stdout, "         -> %s\n", m.Labels[st.Label].Name)
		}
	}
}

// goalRecord writes every bug's policy run and better plan as run files.
func goalRecord(dir string, task *fuzz.GoalTask, res *fuzz.GoalResult) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for i, b := range res.Bugs {
		end := b.Policy.Why
		switch b.Policy.Outcome {
		case fuzz.GoalReached:
			end = explicit.EndGoal
		case fuzz.GoalBeyond:
			end = explicit.EndSteps
		}
		pol := explicit.NewRun(task.M, task.Prop.Name, task.PolicyName, end, b.Policy.Run)
		plan := explicit.NewRun(task.M, task.Prop.Name, task.PolicyName+" patched", explicit.EndGoal, b.Plan)
		for _, f := range []struct {
			name string
			run  *explicit.Run
		}{{fmt.Sprintf("bug-%d-policy.json", i+1), pol}, {fmt.Sprintf("bug-%d-plan.json", i+1), plan}} {
			if err := writeRunFile(filepath.Join(dir, f.name), f.run); err != nil {
				return err
			}
		}
	}
	return nil
}
