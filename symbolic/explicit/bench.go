package explicit

// Bench is vigil bench as a library call: the packed search (Search),
// optionally its parallel form and the naive baseline (NaiveSearch), each
// measured Runs times in alternation, with medians, a check that every
// engine found the same states and transitions, and the ratios between
// them.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"vigil/internal/phrase"
	"vigil/internal/vigilerr"
)

// BenchOptions configure Bench.
type BenchOptions struct {
	// NewPolicy builds a fresh decider of the policy for each run and
	// worker; nil explores every applicable label.
	NewPolicy func() (Decider, error)
	Workers   int  // > 1: also run the parallel search on this many goroutines
	Naive     bool // also run NaiveSearch
	Runs      int  // measure each engine this many times (at least 1)
	// CPUProfile, when set, is the file that receives a CPU profile
	// (runtime/pprof) of the first run of the packed search, or with
	// Workers > 1 of the parallel one.
	CPUProfile string
	// Progress, when set, is shown each engine's progress as a line.
	Progress func(line string)
}

// BenchReport is the figures of Bench, in the JSON shape of vigil bench
// --json.
type BenchReport struct {
	Model       string   `json:"model"`
	Policy      string   `json:"policy"`
	StateBytes  int      `json:"packed_state_bytes"`
	Packed      Figures  `json:"packed"`
	Parallel    *Figures `json:"parallel,omitempty"`
	Naive       *Figures `json:"naive,omitempty"`
	Runs        int      `json:"runs"`
	SpeedRatio  float64  `json:"speed_ratio,omitempty"`
	MemoryRatio float64  `json:"memory_ratio,omitempty"`
	// ParallelSpeedup is the parallel search's wall-clock states/s over
	// the sequential one's, measured in the same run.
	ParallelSpeedup float64 `json:"parallel_speedup,omitempty"`
}

// BenchStopped is Bench's error when ctx ended a run: a benchmark needs
// whole explorations, so there are no figures.
type BenchStopped struct {
	Engine string // the engine whose run was stopped
	States int    // the states it had reached
	Err    error  // ctx's error
}

func (s *BenchStopped) Error() string {
	return fmt.Sprintf("%v after %d states of engine %s", s.Err, s.States, s.Engine)
}

func (s *BenchStopped) Unwrap() error { return s.Err }

// Reason says why the run stopped: "timeout" when Err is a deadline,
// else "interrupted".
func (s *BenchStopped) Reason() string {
	if errors.Is(s.Err, context.DeadlineExceeded) {
		return "timeout"
	}
	return "interrupted"
}

// WriteText writes the stop as vigil bench prints it.
func (s *BenchStopped) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%s after %d states of engine %s: no figures (a benchmark needs the whole exploration)\n", phrase.Stopped(s.Reason()), s.States, s.Engine)
	return err
}

// MarshalJSON is the stop in vigil bench --json's shape: an unknown
// verdict with the reason, the engine and its states.
func (s *BenchStopped) MarshalJSON() ([]byte, error) {
	return json.Marshal(map[string]any{"verdict": "unknown", "reason": s.Reason(), "engine": s.Engine, "states": s.States})
}

// Bench measures g's exploration under o (see BenchOptions) and returns
// the medians and ratios; policy names the policy for the report. A run
// that ctx stops ends it with a *BenchStopped; engines that disagree on
// the states or transitions are an internal error (vigilerr.Internal).
func Bench(ctx context.Context, g *Generator, policy string, o BenchOptions) (*BenchReport, error) {
	runs := max(o.Runs, 1)
	rep := &BenchReport{Model: g.M.Name, Policy: policy, StateBytes: 8 * g.Words(), Runs: runs}
	progress := func(format string, args ...any) {
		if o.Progress != nil {
			o.Progress(fmt.Sprintf(format, args...))
		}
	}
	newDecider := func() (Decider, error) {
		if o.NewPolicy == nil {
			return nil, nil
		}
		return o.NewPolicy()
	}
	var profile io.Writer
	if o.CPUProfile != "" {
		f, err := os.Create(o.CPUProfile)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		profile = f
	}
	search := func(name string, j int) func() (int, int, any, error) {
		return func() (int, int, any, error) {
			if profile != nil && (j > 1 || o.Workers <= 1) {
				if err := pprof.StartCPUProfile(profile); err != nil {
					return 0, 0, nil, err
				}
				profile = nil
				defer pprof.StopCPUProfile()
			}
			dec, err := newDecider()
			if err != nil {
				return 0, 0, nil, err
			}
			res, err := Search(ctx, g, Options{Policy: dec, Workers: j, NewPolicy: o.NewPolicy, Progress: func(s Stats) {
				progress("bench (%s): %d states, depth %d, %.0f states/s", name, s.States, s.Depth, s.StatesPerSecond())
			}})
			if err != nil {
				return 0, 0, nil, err
			}
			return res.Stats.States, res.Stats.Transitions, res, ctx.Err()
		}
	}
	naive := func() (int, int, any, error) {
		dec, err := newDecider()
		if err != nil {
			return 0, 0, nil, err
		}
		return NaiveSearch(ctx, g, dec, func(states, done int) {
			progress("bench (naive): %d states, %d expanded", states, done)
		})
	}
	type engine struct {
		name    string
		workers int
		run     func() (int, int, any, error)
		figs    []Figures
	}
	engines := []*engine{{name: "packed", run: search("packed", 1)}}
	if o.Workers > 1 {
		name := fmt.Sprintf("packed -j %d", o.Workers)
		engines = append(engines, &engine{name: name, workers: o.Workers, run: search(name, o.Workers)})
	}
	if o.Naive {
		engines = append(engines, &engine{name: "naive", run: naive})
	}
	for range runs {
		for _, en := range engines {
			fig, err := Measure(en.name, en.run)
			switch {
			case ctx.Err() != nil:
				return nil, &BenchStopped{Engine: en.name, States: fig.States, Err: ctx.Err()}
			case err != nil:
				return nil, err
			}
			fig.Workers = en.workers
			en.figs = append(en.figs, fig)
		}
	}
	rep.Packed = MedianFigures(engines[0].figs)
	for _, en := range engines[1:] {
		f := MedianFigures(en.figs)
		if f.States != rep.Packed.States || f.Transitions != rep.Packed.Transitions {
			return nil, vigilerr.Internalf("explicit", "the engines disagree (%s: %d/%d states, %d/%d transitions)", f.Engine, rep.Packed.States, f.States, rep.Packed.Transitions, f.Transitions)
		}
		if en.name == "naive" {
			rep.Naive = &f
			rep.SpeedRatio = rep.Packed.StatesPerSec / f.StatesPerSec
			if !f.Unmeasured && !rep.Packed.Unmeasured {
				rep.MemoryRatio = f.BytesPerState / rep.Packed.BytesPerState
			}
		} else {
			rep.Parallel = &f
			rep.ParallelSpeedup = f.StatesPerWallSec / rep.Packed.StatesPerWallSec
		}
	}
	return rep, nil
}

// WriteText writes the figures as a table with the ratios.
func (rep *BenchReport) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "model %s, policy %s: %d reachable states, %d transitions; packed state %d bytes\n", rep.Model, phrase.OrNone(rep.Policy), rep.Packed.States, rep.Packed.Transitions, rep.StateBytes)
	if rep.Runs > 1 {
		fmt.Fprintf(w, "medians of %d alternating runs\n", rep.Runs)
	}
	fmt.Fprintf(w, "%-12s %12s %9s %9s %12s %13s %12s\n", "engine", "states", "wall s", "cpu s", "states/s", "states/cpu-s", "bytes/state")
	for _, f := range []*Figures{&rep.Packed, rep.Parallel, rep.Naive} {
		if f != nil {
			mem := fmt.Sprintf("%12.1f", f.BytesPerState)
			if f.Unmeasured {
				mem = fmt.Sprintf("%12s", "-")
			}
			fmt.Fprintf(w, "%-12s %12d %9.2f %9.2f %12.0f %13.0f %s\n", f.Engine, f.States, f.WallSeconds, f.CPUSeconds, f.StatesPerWallSec, f.StatesPerSec, mem)
		}
	}
	if p := rep.Parallel; p != nil {
		fmt.Fprintf(w, "packed -j %d vs -j 1: %.2fx states/s (wall clock), %.2fx states per cpu-second\n", p.Workers, rep.ParallelSpeedup, p.StatesPerSec/rep.Packed.StatesPerSec)
	}
	var err error
	switch {
	case rep.Naive != nil && rep.MemoryRatio > 0:
		_, err = fmt.Fprintf(w, "packed vs naive: %.1fx states/cpu-s, %.1fx less memory per state\n", rep.SpeedRatio, rep.MemoryRatio)
	case rep.Naive != nil:
		_, err = fmt.Fprintf(w, "packed vs naive: %.1fx states/cpu-s; memory too small to measure (-: the run kept less heap than the noise; use a larger model)\n", rep.SpeedRatio)
	}
	return err
}
