package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime/pprof"

	"vigil/symbolic/explicit"
)

func init() {
	register(&command{
		Name:    "bench",
		Summary: "measure BFS throughput and memory: packed engine versus a naive baseline",
		Usage:   "vigil bench [flags] FILE.spec | vigil bench ic3 [flags] FILE...",
		Examples: []string{
			"vigil bench -D L=120000 -D P=3 specs/twoway_line.spec",
			"vigil bench --naive=false specs/npuzzle.spec --json",
			"vigil bench -D L=120000 specs/twoway_line.spec -j 2 --runs 3 --naive=false    # parallel BFS against -j 1, medians of 3 alternating runs",
		},
		Run: runBench,
	})
	register(&command{
		Name:    "bench ic3",
		Summary: "ic3 against BFS and z3's Spacer on every model, property and symbolic policy of the files: a vigil batch experiment, run and reported",
		Usage:   "vigil bench ic3 [flags] FILE...",
		Help: `vigil bench ic3 writes a vigil batch experiment (ic3, bfs, and Spacer: the
z3 binary on vigil export --chc; ic3-nog with --nog or --scale), runs it
and prints its report: solved counts, PAR-2 scores and the median time
ratio of each engine to Spacer, every engine a whole process under the
same CPU-time limit. bench/ic3scaling.toml is the scaling benchmark as a
file for vigil batch run and report; --data DIR keeps this command's
experiment, results and report (run the same command again to continue).`,
		Examples: []string{
			"vigil bench ic3 --timeout 60s specs/*.spec    # ic3 vs bfs vs z3 Spacer on the CHC export",
			"vigil bench ic3 --timeout 10s --nog -j 2 --json specs/transport.spec",
			"vigil bench ic3 --timeout 20s --scale N=1000,10^6,10^9 bench/ic3scaling/*.spec    # the scaling benchmark: a row per size",
			"vigil bench ic3 --timeout 20s --scale N=1000,10^6 --vigil ./vigil-main bench/ic3scaling/*.spec    # the same with another build's verify and export",
		},
		Run: runBenchIC3,
	})
}

// benchFigures are one engine's measurements (explicit.Measure).
type benchFigures = explicit.Figures

type benchReport struct {
	Model       string        `json:"model"`
	Policy      string        `json:"policy"`
	StateBytes  int           `json:"packed_state_bytes"`
	Packed      benchFigures  `json:"packed"`
	Parallel    *benchFigures `json:"parallel,omitempty"`
	Naive       *benchFigures `json:"naive,omitempty"`
	Runs        int           `json:"runs"`
	SpeedRatio  float64       `json:"speed_ratio,omitempty"`
	MemoryRatio float64       `json:"memory_ratio,omitempty"`
	// ParallelSpeedup is the parallel search's wall-clock states/s over
	// the sequential one's, measured in the same run.
	ParallelSpeedup float64 `json:"parallel_speedup,omitempty"`
}

func runBench(e *env, args []string) int {
	if len(args) > 0 && args[0] == "ic3" {
		return runBenchIC3(e, args[1:])
	}
	c := commands["bench"]
	fs := newFlags(e, c)
	addProgressFlags(e, fs)
	mf := addModelFlags(fs, "property (default: the only one)", "rules or other policy restricting the labels (default: the only one)")
	naive := fs.Bool("naive", true, "also run the naive baseline (states formatted as strings in a Go map)")
	jsonOut := fs.Bool("json", false, "print the figures as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the first run of the packed engine (with -j N, of the parallel one) to this file (go tool pprof)")
	workers := fs.Int("j", 1, "also run the parallel search on this many goroutines and compare it with the sequential one (-j 1) in the same run")
	runs := fs.Int("runs", 1, "measure each engine this many times, alternating, and report the medians (1 to 100)")
	timeout := timeoutFlag(fs)
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	if !checkWorkers(e, "bench", *workers, true) {
		return exitUsage
	}
	if *runs < 1 || *runs > 100 {
		fmt.Fprintf(e.stderr, "vigil bench: --runs %d: give a number of runs from 1 to 100\n", *runs)
		return exitUsage
	}
	lm, ok := mf.load(e, "bench", file, false, thePolicy)
	if !ok {
		return exitError
	}
	m, decl, g := lm.m, lm.decl, lm.g
	newDecider := func() explicit.Decider { return nil }
	if decl != nil {
		newDecider = func() explicit.Decider { d, _ := explicit.NewDecider(m, decl); return d }
	}
	rep := &benchReport{Model: m.Name, Policy: policyName(decl), StateBytes: 8 * g.Words(), Runs: *runs}
	prog := newProgress(e, *jsonOut)
	defer prog.clear()
	ctx, cancel := runContext(*timeout)
	defer cancel()
	stopped := func(engine string, states int) int {
		prog.clear()
		return benchStopped(e, ctx, *jsonOut, engine, states)
	}
	profile := *cpuProfile
	search := func(j int) func() (int, int, any, error) {
		name := "packed"
		if j > 1 {
			name = fmt.Sprintf("packed -j %d", j)
		}
		return func() (int, int, any, error) {
			if profile != "" && (j > 1 || *workers == 1) {
				stop, err := startProfile(profile)
				if err != nil {
					return 0, 0, nil, err
				}
				profile = ""
				defer stop()
			}
			opt := explicit.Options{Policy: newDecider(), Progress: func(s explicit.Stats) {
				prog.printf("bench (%s): %d states, depth %d, %.0f states/s", name, s.States, s.Depth, s.StatesPerSecond())
			}}
			lm.parallel(&opt, j)
			res, err := explicit.Search(ctx, g, opt)
			if err != nil {
				return 0, 0, nil, err
			}
			if ctx.Err() != nil {
				return res.Stats.States, res.Stats.Transitions, res, ctx.Err()
			}
			return res.Stats.States, res.Stats.Transitions, res, nil
		}
	}
	// measureInto measures one run of an engine and adds its figures to
	// runs; code >= 0 is the exit code of a run that ended the command.
	measureInto := func(runs *[]benchFigures, name string, workers int, f func() (int, int, any, error)) (code int) {
		fig, err := explicit.Measure(name, f)
		switch {
		case ctx.Err() != nil:
			return stopped(name, fig.States)
		case err != nil:
			fmt.Fprintf(e.stderr, "vigil bench: %v\n", err)
			return exitFor(err)
		}
		fig.Workers = workers
		*runs = append(*runs, fig)
		return -1
	}
	naiveSearch := func() (int, int, any, error) {
		return explicit.NaiveSearch(ctx, g, newDecider(), func(states, done int) {
			prog.printf("bench (naive): %d states, %d expanded", states, done)
		})
	}
	var seq, par, nai []benchFigures
	for range *runs {
		if code := measureInto(&seq, "packed", 0, search(1)); code >= 0 {
			return code
		}
		if *workers > 1 {
			if code := measureInto(&par, fmt.Sprintf("packed -j %d", *workers), *workers, search(*workers)); code >= 0 {
				return code
			}
		}
		if *naive {
			if code := measureInto(&nai, "naive", 0, naiveSearch); code >= 0 {
				return code
			}
		}
	}
	if err := rep.combine(seq, par, nai); err != nil {
		return internalError(e, "bench", "%v", err)
	}
	prog.clear()
	if *jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
		return exitOK
	}
	rep.print(e.stdout)
	return exitOK
}

// benchStopped reports a search that --timeout or an interrupt ended: a
// benchmark needs whole explorations, so there are no figures.
func benchStopped(e *env, ctx context.Context, jsonOut bool, engine string, states int) int {
	if jsonOut {
		b, _ := json.MarshalIndent(map[string]any{"verdict": "unknown", "reason": stopReason(ctx), "engine": engine, "states": states}, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
		return exitUnknown
	}
	fmt.Fprintf(e.stdout, "%s after %d states of engine %s: no figures (a benchmark needs the whole exploration)\n", stopped(stopReason(ctx)), states, engine)
	return exitUnknown
}

// combine takes the medians of each engine's runs, checks that the
// engines found the same states and transitions, and computes the ratios.
func (rep *benchReport) combine(seq, par, nai []benchFigures) error {
	rep.Packed = explicit.MedianFigures(seq)
	for _, other := range [][]benchFigures{par, nai} {
		if len(other) == 0 {
			continue
		}
		f := explicit.MedianFigures(other)
		if f.States != rep.Packed.States || f.Transitions != rep.Packed.Transitions {
			return fmt.Errorf("the engines disagree (%s: %d/%d states, %d/%d transitions)", f.Engine, rep.Packed.States, f.States, rep.Packed.Transitions, f.Transitions)
		}
		if f.Engine == "naive" {
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
	return nil
}

// print writes the figures as a table with the ratios.
func (rep *benchReport) print(w io.Writer) {
	fmt.Fprintf(w, "model %s, policy %s: %d reachable states, %d transitions; packed state %d bytes\n", rep.Model, orNone(rep.Policy), rep.Packed.States, rep.Packed.Transitions, rep.StateBytes)
	if rep.Runs > 1 {
		fmt.Fprintf(w, "medians of %d alternating runs\n", rep.Runs)
	}
	fmt.Fprintf(w, "%-12s %12s %9s %9s %12s %13s %12s\n", "engine", "states", "wall s", "cpu s", "states/s", "states/cpu-s", "bytes/state")
	for _, f := range []*benchFigures{&rep.Packed, rep.Parallel, rep.Naive} {
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
	switch {
	case rep.Naive != nil && rep.MemoryRatio > 0:
		fmt.Fprintf(w, "packed vs naive: %.1fx states/cpu-s, %.1fx less memory per state\n", rep.SpeedRatio, rep.MemoryRatio)
	case rep.Naive != nil:
		fmt.Fprintf(w, "packed vs naive: %.1fx states/cpu-s; memory too small to measure (-: the run kept less heap than the noise; use a larger model)\n", rep.SpeedRatio)
	}
}

// startProfile starts a CPU profile into file; stop ends it.
func startProfile(file string) (stop func(), err error) {
	fh, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(fh); err != nil {
		fh.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); fh.Close() }, nil
}
