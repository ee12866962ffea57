package main

// vigil bench ic3: a convenience that writes a vigil batch experiment
// (ic3, ic3-nog, bfs as whole vigil verify processes, Spacer as the z3
// binary on vigil export --chc) for the files given, runs it and prints
// its report: solved counts, PAR-2 scores and the median time ratios to
// Spacer. It is not a runner of its own: batch.IC3Bench writes, runs and
// reports the experiment, bench/ic3scaling.toml is the same experiment
// written down, and vigil batch runs both.

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"vigil/batch"
	"vigil/internal/cli"
	"vigil/smt/smtlib"
	"vigil/verify"
)

func runBenchIC3(e *cli.Env, args []string) int {
	fs, c := e.Flags("bench ic3")
	e.AddProgressFlags(fs)
	defs := cli.Defines{}
	fs.Var(defs, "D", "override a constant in every file: -D `NAME=VALUE` (repeatable)")
	timeout := cli.TimeoutFlagDefault(fs, time.Minute, "CPU-time limit per engine and instance: `DURATION`")
	maxStates := cli.AddCountFlag(fs, "max-states", 20_000_000, "BFS gives up (unknown) after storing this many states")
	nog := fs.Bool("nog", false, "also run ic3-nog (always with --scale)")
	scale := batch.Scale{}
	fs.Var(&scale, "scale", "run every file at each of the values of constant NAME it declares, `NAME=V1,V2,...` (repeatable; a file declaring none runs once); adds ic3-nog and a row per size; at most 10000 sizes per file")
	vigilBin := fs.String("vigil", "", "the vigil binary whose verify and export the runs use (default: this one), e.g. a build of another commit to compare")
	jobs := fs.Int("j", 1, "runs at once (each is one process; keep it at most the idle cores)")
	data := fs.String("data", "", "keep the experiment in `DIR` (its file, runs and report; rerunning continues it); default: a temporary directory, removed")
	plaja := addPlajaFlags(fs)
	jsonOut := fs.Bool("json", false, "print every run's properties and the disagreements as JSON instead of the report")
	files, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(files) == 0 {
		return e.Fail(cli.ExitUsage, "vigil bench ic3: want model files\nusage: %s", c.Usage)
	}
	if *timeout <= 0 || *maxStates <= 0 || *jobs < 1 {
		return e.Fail(cli.ExitUsage, "vigil bench ic3: --timeout, --max-states and -j must be positive")
	}
	if *plaja.policyFile != "" || plaja.argmax.Val != "" {
		return e.Fail(cli.ExitUsage, "vigil bench ic3: --policy-file, --argmax: learned policies are measured by bench/polic3-*.toml; give --start and --unsafe only")
	}
	z3, err := smtlib.Z3Path()
	if err != nil {
		return e.Fail(cli.ExitError, "vigil bench ic3: %v (Spacer is the peer)", err)
	}
	self := *vigilBin
	if self == "" {
		self = batch.Self()
	} else if self, err = filepath.Abs(self); err != nil {
		return e.Fail(cli.ExitUsage, "vigil bench ic3: --vigil: %v", err)
	}
	var extra []string // instance args: the PlaJA conditions
	if *plaja.start != "" {
		extra = append(extra, "--start", *plaja.start)
	}
	if *plaja.unsafe != "" {
		extra = append(extra, "--unsafe", *plaja.unsafe)
	}
	ctx, cancel := cli.RunContext(0)
	defer cancel()
	prog := e.NewProgress(*jsonOut)
	res, err := batch.IC3Bench(ctx, batch.IC3BenchOptions{Files: files, Defines: defs, Scale: scale, Args: extra,
		Facts: func(file string, defs map[string]string) (batch.ModelFacts, error) {
			return ic3Facts(e, file, defs, plaja)
		},
		Z3: z3, NoG: *nog, MaxStates: *maxStates, Limit: *timeout, Data: *data,
		Run: batch.Options{Jobs: *jobs, Self: self, Log: lineWriter{e, prog}, Progress: func(p batch.Progress) {
			prog.Printf("bench ic3: %d/%d runs done, %d failed%s", p.Done, p.Total, p.Failed, batch.LimitCounts(p.Errors))
		}}})
	prog.Clear()
	var stale *batch.StaleError
	switch {
	case err == errPrinted:
		return cli.ExitError
	case errors.As(err, &stale):
		// bench ic3 has no --rerun: say what this command can do.
		return e.Fail(cli.ExitError, "vigil bench ic3: --data %s holds %s made with other settings (--timeout, --max-states, -D, --start/--unsafe or another --vigil binary): give another --data directory to keep both, or remove %s to measure again under these settings", *data, verify.Plural(len(stale.IDs), "finished run"), *data)
	case err != nil:
		return e.Fail(cli.ExitError, "vigil bench ic3: %v", err)
	case res.Summary.Interrupted:
		s := res.Summary
		keep := "(they are dropped with the temporary directory; --data DIR keeps them, and the same command continues)"
		if *data != "" {
			keep = fmt.Sprintf("(kept in %s: the same command continues)", *data)
		}
		return e.Fail(cli.ExitUnknown, "vigil bench ic3: interrupted after %d of %d runs, %d failed%s %s", s.Done, s.Total, s.Failed, batch.LimitCounts(s.Errors), keep)
	}
	rep, list, s := res.Report, res.Disagreements, res.Summary
	if *jsonOut {
		e.WriteJSON("bench ic3", map[string]any{"limit_seconds": timeout.Seconds(), "runs": rep.Runs, "disagreements": append([]string{}, list...)}, cli.ExitOK)
	} else {
		rep.Markdown(e.Stdout)
		if *data != "" {
			dir := filepath.Join(res.Experiment.Data, "report")
			if _, err := rep.Write(dir); err != nil {
				return e.Fail(cli.ExitError, "vigil bench ic3: %v", err)
			}
			fmt.Fprintf(e.Stderr, "vigil bench ic3: the experiment and its runs are in %s, the report in %s; the same command with --data %s again continues it\n", *data, dir, *data)
		}
	}
	if s.Failed > 0 {
		fmt.Fprintf(e.Stderr, "vigil bench ic3: %s failed (crash, bad input or an export z3 cannot read); see the runs' stderr\n", verify.Plural(s.Failed, "run"))
	}
	if len(list) > 0 {
		return e.InternalError("bench ic3", "the engines disagree on %s: %s", verify.Plural(len(list), "instance"), strings.Join(list, "; "))
	}
	if s.Failed > 0 {
		return cli.ExitError
	}
	return cli.ExitOK
}

// errPrinted is the error of a step that printed its own message.
var errPrinted = errors.New("(printed)")

// ic3Facts loads file with defs and the PlaJA conditions, and says which
// of its properties ic3 decides and which policies are rules or tables
// (verify.BenchFacts).
func ic3Facts(e *cli.Env, file string, defs map[string]string, plaja *plajaFlags) (batch.ModelFacts, error) {
	m := loadModel(e, file, defs)
	if m == nil {
		return batch.ModelFacts{}, errPrinted
	}
	var prop, pol string
	if !plaja.apply(e, m, &prop, &pol, false) {
		return batch.ModelFacts{}, errPrinted
	}
	return verify.BenchFacts(m), nil
}
