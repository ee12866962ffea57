package main

import (
	"errors"

	"vigil/internal/cli"
	"vigil/internal/vigilerr"
	"vigil/load"
	"vigil/symbolic/explicit"
)

func init() {
	cli.Register(&cli.Command{
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
	cli.Register(&cli.Command{
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

func runBench(e *cli.Env, args []string) int {
	if len(args) > 0 && args[0] == "ic3" {
		return runBenchIC3(e, args[1:])
	}
	fs, c := e.Flags("bench")
	e.AddProgressFlags(fs)
	mf := addModelFlags(fs, "property (default: the only one)", "rules or other policy restricting the labels (default: the only one)")
	naive := fs.Bool("naive", true, "also run the naive baseline (states formatted as strings in a Go map)")
	jsonOut := fs.Bool("json", false, "print the figures as JSON")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the first run of the packed engine (with -j N, of the parallel one) to this file (go tool pprof)")
	workers := fs.Int("j", 1, "also run the parallel search on this many goroutines and compare it with the sequential one (-j 1) in the same run")
	runs := fs.Int("runs", 1, "measure each engine this many times, alternating, and report the medians (1 to 100)")
	cli.TimeoutFlag(fs)
	file, ok := e.ParseModelArg(c, fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if !checkWorkers(e, "bench", *workers, true) {
		return cli.ExitUsage
	}
	if *runs < 1 || *runs > 100 {
		return e.Fail(cli.ExitUsage, "vigil bench: --runs %d: give a number of runs from 1 to 100", *runs)
	}
	lm, ok := mf.load(e, "bench", file, false, load.ThePolicy)
	if !ok {
		return cli.ExitError
	}
	opt := explicit.BenchOptions{Workers: *workers, Naive: *naive, Runs: *runs, CPUProfile: *cpuProfile, NewPolicy: explicit.NewDeciders(lm.m, lm.decl)}
	prog := e.NewProgress(*jsonOut)
	defer prog.Clear()
	opt.Progress = cli.LineTo(prog)
	ctx, cancel := mf.runContext()
	defer cancel()
	rep, err := explicit.Bench(ctx, lm.g, policyName(lm.decl), opt)
	prog.Clear()
	if stop, ok := errors.AsType[*explicit.BenchStopped](err); ok {
		return e.WriteReport("bench", *jsonOut, stop, cli.ExitUnknown) // no figures
	}
	if ie, ok := errors.AsType[*vigilerr.Internal](err); ok {
		return e.InternalError("bench", "%s", ie.Msg)
	}
	if err != nil {
		return e.Fail(cli.ExitFor(err), "vigil bench: %v", err)
	}
	return e.WriteReport("bench", *jsonOut, rep, cli.ExitOK)
}
