package explicit

// Runs is vigil run as a library call: several simulated runs, each from
// a given, an indexed or a sampled start state, printed step by step as
// they are made, the first one optionally recorded as a run file.

import (
	"errors"
	"fmt"
	"io"
	"os"

	"vigil/internal/phrase"
	"vigil/symbolic"
)

// RunsOptions configure Runs.
type RunsOptions struct {
	// Sim are the options of every run (Steps, Outcomes, Rand, Ctx);
	// Runs sets OnStep, Discard and Policy.
	Sim  SimOptions
	Runs int // the number of runs (at least 1)
	// Policy chooses the labels (nil: a uniformly random applicable
	// one); the run file names it.
	Policy *symbolic.PolicyDecl
	// The start state of each run: the state From gives (as vigil prints
	// states), else the Index-th start state when Index >= 0, else one
	// drawn from the sampler Sampler prepares at the first run.
	From    string
	Index   int
	Sampler func() (*StartSampler, error)
	// Record, when set, is the run file the first run is written to.
	Record string
	// OnRun, when set, is called with each run as a run file holds it
	// (vigil run --json); every step is then kept.
	OnRun func(*Run)
}

// StartError is Runs' error when no start state could be had.
type StartError struct{ Err error }

func (e *StartError) Error() string { return e.Err.Error() }
func (e *StartError) Unwrap() error { return e.Err }

// Runs simulates the runs of o on g, writing each step to w as it is
// made (WriteStep, then WriteEnd; "run K:" before each when there are
// several), so that a long run shows progress and an interrupt keeps what
// was printed. It stops after a run that o.Sim.Ctx ended, and returns the
// end of the last run made. A start state it cannot find is a
// *StartError.
func Runs(g *Generator, w io.Writer, o RunsOptions) (end string, err error) {
	var sampler *StartSampler
	ctx := o.Sim.Ctx
	policy, property := "", ""
	if o.Policy != nil {
		if o.Sim.Policy, err = NewDecider(g.M, o.Policy); err != nil {
			return "", err
		}
		policy = o.Policy.Name
	}
	if g.Prop != nil {
		property = g.Prop.Name
	}
	for r := 0; r < max(o.Runs, 1); r++ {
		// Between runs too: Simulate looks at the context every 1024
		// steps, so runs shorter than that never saw a Ctrl-C, and 9999
		// runs went on to their end.
		if r > 0 && ctx != nil && ctx.Err() != nil {
			fmt.Fprintf(w, "interrupted after %d of %d runs\n", r, o.Runs)
			return EndStopped, nil
		}
		var start symbolic.State
		switch {
		case o.From != "":
			start, err = ParseState(g.M, o.From)
		case o.Index >= 0:
			start, err = g.StartAtContext(ctx, o.Index)
		default:
			if sampler == nil {
				sampler, err = o.Sampler()
			}
			if err == nil {
				start, err = sampler.Sample(ctx, o.Sim.Rand)
			}
		}
		if err != nil {
			return "", &StartError{err}
		}
		if o.Runs > 1 {
			fmt.Fprintf(w, "run %d:\n", r+1)
		}
		n := 0
		sim := o.Sim
		sim.OnStep = func(i int, st Step) { WriteStep(w, g.M, i, st); n = i }
		sim.Discard = (r > 0 || o.Record == "") && o.OnRun == nil
		var trace []Step
		if trace, end, err = Simulate(g, start, sim); err != nil {
			return "", err
		}
		WriteEnd(w, end, n)
		why := ""
		if end == EndStuck && o.Sim.Policy != nil && len(trace) > 0 {
			if why, err = StuckReason(g, o.Sim.Policy, policy, trace[len(trace)-1].State); err != nil {
				return "", err
			}
			if why != "" {
				fmt.Fprintf(w, "why: %s\n", why)
			}
		}
		if (r == 0 && o.Record != "") || o.OnRun != nil {
			run := NewRun(g.M, property, policy, end, trace)
			run.Why = why
			if r == 0 && o.Record != "" {
				if err := WriteRunFile(o.Record, run); err != nil {
					return "", err
				}
			}
			if o.OnRun != nil {
				o.OnRun(run)
			}
		}
		if end == EndStopped {
			break
		}
	}
	return end, nil
}

// ReadRunFile is ReadRun on the file at path. A mistake in the file is
// an error that names the file: "PATH: step 3: ..." (a RunFileError's
// Detail, which it wraps).
func ReadRunFile(path string, m *symbolic.Model) (*Run, []Step, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	run, steps, err := ReadRun(f, m)
	if re, ok := errors.AsType[*RunFileError](err); ok {
		return nil, nil, &fileError{path + ": " + re.Detail(), err}
	} else if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return run, steps, nil
}

// fileError is an error with its own message that wraps another.
type fileError struct {
	msg string
	err error
}

func (e *fileError) Error() string { return e.msg }
func (e *fileError) Unwrap() error { return e.err }

// Replay reads the run file at path for model m (ReadRunFile) and writes
// it to w as vigil run --replay prints it: a line naming the model,
// property and policy it was recorded with, then the trace.
func Replay(w io.Writer, m *symbolic.Model, path string) error {
	run, steps, err := ReadRunFile(path, m)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "replay of %s: model %s, property %s, policy %s\n", path, run.Model, phrase.OrNone(run.Property), phrase.OrNone(run.Policy))
	WriteTrace(w, m, steps, run.End)
	if run.Why != "" {
		fmt.Fprintf(w, "why: %s\n", run.Why)
	}
	return nil
}
