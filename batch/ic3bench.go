package batch

// IC3Bench is vigil bench ic3 as a library call: the experiment of
// IC3Algorithms over IC3Instances, written, run and reported like any
// other, with the one disagreement check of Report.Disagreements.

import (
	"context"
	"errors"
	"os"
	"time"
)

// IC3BenchOptions configure IC3Bench.
type IC3BenchOptions struct {
	Files   []string          // the model files
	Defines map[string]string // constants of every file
	Scale   Scale             // the sizes: a row per size when set
	Args    []string          // extra arguments of every run
	// Facts loads a file with constants (IC3Instances).
	Facts func(file string, defs map[string]string) (ModelFacts, error)

	Z3        string        // the z3 binary Spacer runs on
	NoG       bool          // also run ic3-nog (always with Scale)
	MaxStates int           // BFS's state limit
	Limit     time.Duration // CPU-time limit of each run

	// Data is the directory kept for the experiment (its file, runs and
	// report; running again continues it); "" runs it in a temporary
	// directory, removed.
	Data string
	Run  Options // the runner's options (Jobs, Self, Log, Progress)
}

// IC3BenchResult is what IC3Bench ran and found.
type IC3BenchResult struct {
	Experiment    *Experiment
	Summary       Summary
	Report        *Report  // nil when the runs were interrupted
	Disagreements []string // instances whose verdicts contradict each other
}

// ErrNoIC3Instances is IC3Bench's error when no property of the files is
// a safety question ic3 decides.
var ErrNoIC3Instances = errors.New("no property of the files is a safety question ic3 decides")

// IC3Bench writes the IC3 benchmark of o's files, runs it and reports it:
// solved counts, PAR-2 scores and time ratios to Spacer, per domain (per
// size with Scale), with the disagreements between the engines. The
// report's runs are hidden without Data (their directories go with the
// temporary data).
func IC3Bench(ctx context.Context, o IC3BenchOptions) (*IC3BenchResult, error) {
	exp := &Plan{Name: "bench-ic3", Limits: PlanLimits{Time: o.Limit.String()}, Algorithms: IC3Algorithms(o.Z3, o.NoG || len(o.Scale) > 0, o.MaxStates)}
	var err error
	if exp.Instances, err = IC3Instances(o.Files, o.Defines, o.Scale, o.Args, o.Facts); err != nil {
		return nil, err
	}
	if len(exp.Instances) == 0 {
		return nil, ErrNoIC3Instances
	}
	dir := o.Data
	if dir == "" {
		if dir, err = os.MkdirTemp("", "vigil-bench-ic3-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
	}
	res := &IC3BenchResult{}
	if res.Experiment, err = exp.Write(dir, "vigil bench ic3"); err != nil {
		return nil, err
	}
	if res.Summary, err = res.Experiment.Execute(ctx, o.Run); err != nil || res.Summary.Interrupted {
		return res, err
	}
	group := []string{"domain"}
	if len(o.Scale) > 0 {
		group = []string{"size"}
	}
	if res.Report, err = res.Experiment.Fetch(ReportOptions{Attributes: []string{"coverage", "par2", "ratio", "time"}, Group: group, Baseline: "spacer"}); err != nil {
		return nil, err
	}
	res.Report.HideRuns = o.Data == ""
	res.Disagreements, _ = res.Report.Disagreements()
	return res, nil
}
