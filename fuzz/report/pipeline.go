package report

// The two vigil test pipelines as library calls: build the workers' tasks,
// draw the start states, fuzz and confirm, and return the report that
// WriteText, JSON and the HTML writers print. They live here, not in fuzz,
// because their result is this package's Goal and Safety (which import
// fuzz). cmd/vigil's test command parses its flags into these options,
// calls RunGoal or RunSafety and chooses the writer.

import (
	"context"
	"errors"
	"fmt"
	"time"

	"vigil/fuzz"
	"vigil/internal/phrase"
	"vigil/safety"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Subject is what a test tests: a policy of a model under a property.
type Subject struct {
	Model    *symbolic.Model
	Property *symbolic.Property
	Policy   *symbolic.PolicyDecl // required
	Decider  explicit.Decider     // the policy's decisions in the explicit semantics
	Workers  int                  // fuzz and confirm with this many workers (at least 1)
	// Progress, when set, is shown a one-line status now and then, and ""
	// when the status line should be cleared.
	Progress func(line string)
}

func (s Subject) progress(line string) {
	if s.Progress != nil {
		s.Progress(line)
	}
}

// errNoPolicy is returned when a Subject names no policy.
var errNoPolicy = errors.New("a test tests a policy; none was given")

// StartSampler draws start states of g's property uniformly without
// enumerating them (explicit.StartSampler), with Z3 (smt.StartSolver) for
// start conditions too sparse for rejection sampling: vigil test and vigil
// run draw their start states with it. progress, when set, is shown
// "sampling start states..." while it prepares, then "". how describes
// the sampling for a report ("" when the start states were enumerated).
func StartSampler(ctx context.Context, g *explicit.Generator, seed uint64, progress func(line string)) (ss *explicit.StartSampler, how string, err error) {
	if progress != nil {
		progress("sampling start states...")
	}
	ss, err = g.NewStartSampler(ctx, explicit.SamplerOptions{Seed: seed, Solve: smt.StartSolver(g.M)})
	if progress != nil {
		progress("")
	}
	if ss != nil && !ss.Enumerated(func(symbolic.State) bool { return false }) {
		how = ss.Describe()
	}
	return ss, how, err
}

// GoalOptions are a goal-reaching test's options (vigil test --mode goal).
type GoalOptions struct {
	Budget  time.Duration // fuzzing with interleaved confirmation stops at its end (0: no limit)
	Seed    uint64
	Pool    fuzz.PoolOptions // MaxPool, WalkLen, BState, BExpansion, MaxSteps; Runtime, Seed and Biases are set from the fields here
	Biases  []string         // fuzz.BiasNames
	Oracles []string         // bug oracles tried in order (nil: fuzz.OracleNames)
	Depth   int              // the lookahead oracle's depth
	Fair    bool             // every outcome may happen (else adversarial)
}

// RunGoal runs the goal-reaching test of papers 001 and 003 on s: it fuzzes
// a pool of test states and confirms bugs with the oracles. The report is
// incomplete (Complete false, Stopped saying why) when ctx or the budget
// ended it first; bugs found by then are kept.
func RunGoal(ctx context.Context, s Subject, o GoalOptions) (*Goal, error) {
	if s.Policy == nil {
		return nil, errNoPolicy
	}
	tasks, err := fuzz.NewGoalTasks(s.Model, s.Property, s.Policy, s.Decider, s.Workers)
	if err != nil {
		return nil, err
	}
	outer := ctx // ended by --timeout or a signal; ctx also by the budget
	if o.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, o.Budget)
		defer cancel()
	}
	outcomes := "adversarial"
	if o.Fair {
		outcomes = "fair"
	}
	for _, t := range tasks {
		t.Fair = o.Fair
	}
	began := time.Now()
	ss, starts, err := StartSampler(ctx, tasks[0].Gen, o.Seed, s.Progress)
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	r := &Goal{Task: tasks[0], Outcomes: outcomes, Seed: o.Seed, Biases: o.Biases, Oracles: o.Oracles, Starts: starts}
	for _, t := range tasks {
		t.Sampler = ss
	}
	popt := o.Pool
	popt.Runtime, popt.Seed, popt.Biases = o.Budget, o.Seed, o.Biases
	s.progress(fmt.Sprintf("vigil test: fuzzing a pool of up to %d states", popt.MaxPool))
	sampling := time.Since(began)
	r.Pool, r.Result, err = fuzz.GoalTest(ctx, tasks, popt, fuzz.OracleOptions{Oracles: o.Oracles, Depth: o.Depth,
		Progress: func(done, total, bugs int) {
			s.progress(fmt.Sprintf("vigil test: fuzzing, %d pool states checked (of up to %d), %s", done, total, phrase.Plural(bugs, "bug")))
		}})
	s.progress("")
	if err != nil {
		return nil, err
	}
	// Confirmation runs interleaved with fuzzing. FuzzTime and
	// ConfirmTime are wall-clock time in which some worker fuzzed or
	// confirmed (the start sampling added to fuzzing); with several
	// workers they overlap. The workers' time summed per phase (the
	// oracles' and policy evaluations' share of it is confirmation) is
	// kept apart: reported as the phases' times, it exceeded the wall
	// clock (fuzz 4.1s, confirm 1.2s in a test of 1.1s).
	for _, d := range r.Result.Elapsed {
		r.ConfirmWork += d
	}
	r.FuzzWork = max(0, time.Since(began)-r.Pool.Elapsed+r.Pool.Work-r.ConfirmWork)
	r.FuzzTime, r.ConfirmTime = sampling+r.Pool.Fuzzing, r.Result.Confirming
	r.Elapsed, r.Workers = time.Since(began), len(tasks)
	r.Complete = ctx.Err() == nil
	// As in RunSafety: the budget's end is not the --timeout's (both end
	// ctx with DeadlineExceeded; a --timeout was called the budget).
	switch {
	case outer.Err() == context.DeadlineExceeded:
		r.Stopped = "the --timeout ran out"
	case outer.Err() != nil:
		r.Stopped = "interrupted"
	default:
		r.Stopped = "the --budget ran out"
	}
	if len(r.Oracles) == 0 {
		r.Oracles = fuzz.OracleNames
	}
	return r, nil
}

// Record writes the bugs' evidence as run files into dir (fuzz.RecordGoal).
func (t *Goal) Record(dir string) error { return fuzz.RecordGoal(dir, t.Task, t.Result) }

// SafetyOptions are a safety test's options (vigil test --mode safety).
type SafetyOptions struct {
	Budget  time.Duration // for sampling start states, fuzzing and confirmation (required)
	Seed    uint64
	Config  fuzz.SafetyConfig
	Runs    int // fuzzing runs of Algorithm 1
	Limits  fuzz.SafetyLimits
	Oracles []string // safety deciders: the first confirms bugs and finds faults, the others re-check (nil: tarjan)
	Radius  safety.Radius
}

// RunSafety runs paper 000's safety test on s: fuzzing with Algorithm 1,
// the bugs on every unsafe run confirmed with the safety deciders, and the
// faults found. The report is incomplete (Stopped saying why) when ctx or
// the budget ended it first.
func RunSafety(ctx context.Context, s Subject, o SafetyOptions) (*Safety, error) {
	if s.Policy == nil {
		return nil, errNoPolicy
	}
	tasks, err := fuzz.NewSafetyTasks(s.Model, s.Property, s.Policy, s.Decider, s.Workers)
	if err != nil {
		return nil, err
	}
	if len(o.Oracles) == 0 {
		o.Oracles = []string{"tarjan"}
	}
	began := time.Now()
	// The start states are sampled within the budget: fuzz.SafetyTest
	// reports an empty, incomplete result when it ran out here.
	sctx, scancel := context.WithTimeout(ctx, o.Budget)
	defer scancel()
	ss, starts, err := StartSampler(sctx, tasks[0].Gen, o.Seed, s.Progress)
	if err != nil && sctx.Err() == nil {
		return nil, err
	}
	for _, t := range tasks {
		t.Sampler = ss
	}
	radius := o.Radius
	res, err := fuzz.SafetyTest(sctx, tasks, fuzz.SafetyOptions{Config: o.Config, Runs: o.Runs, Limits: o.Limits, Seed: o.Seed,
		Oracles: o.Oracles, Radius: &radius, Runtime: o.Budget,
		OnRun: func(t fuzz.SafetyTally) {
			s.progress(fmt.Sprintf("vigil test: %d/%d runs, %s, %s so far", t.Runs, t.Total, phrase.Plural(t.Unsafe, "unsafe run"), phrase.Plural(t.Bugs, "bug")))
		}})
	s.progress("")
	if err != nil {
		return nil, err
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
	return &Safety{Model: s.Model, Property: s.Property.Name, Policy: s.Policy.Name, Config: o.Config.Name(), Seed: o.Seed,
		Oracles: o.Oracles, Radius: o.Radius, Result: res, Elapsed: time.Since(began), Stopped: why, Runs: o.Runs, Starts: starts}, nil
}

// Record writes every unsafe run as a run file into dir
// (fuzz.RecordSafety) and keeps their names in t.Files.
func (t *Safety) Record(dir string) error {
	files, err := fuzz.RecordSafety(dir, t.Model, t.Property, t.Policy, t.Result)
	if err != nil {
		return err
	}
	t.Files = files
	return nil
}
