package main

import (
	"flag"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"vigil/batch"
	"vigil/internal/cli"
	"vigil/internal/phrase"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "batch",
		Summary: "run an experiment: many vigil runs under limits, resumable, locally or as a Slurm array; report tables and plots",
		Usage:   "vigil batch (run|status|slurm|report) [flags] EXPERIMENT.toml",
		Help: batch.Reference + `

Exit codes: 0 all done (run: every run recorded; status: none missing),
1 input error (or runs that could not be recorded), 2 usage, 3 report:
algorithms disagree on a verdict (one of them is wrong), 4 runs missing or
interrupted.`,
		Examples: []string{
			"vigil batch run bench/batch-smoke.toml -j 2",
			"vigil batch status bench/batch-smoke.toml",
			"vigil batch slurm bench/polic3-tables.toml --parallel 50; sbatch bench/data/polic3-tables/slurm/job.sh",
			"vigil batch report bench/polic3-tables.toml --filter algorithm=bfs,polic3 --attributes coverage,time,memory",
		},
		Run: func(e *cli.Env, args []string) int { return e.RunSubcommands("batch", args) },
	})
	for _, c := range []*cli.Command{
		{Name: "batch run", Summary: "run what is not finished (kill it any time; run again to go on)",
			Usage: "vigil batch run [-j N] [--tasks N --task I] [--only REGEXP] [--rerun OUTCOMES] [--json] [--progress|--quiet] EXPERIMENT.toml", Run: batchRun},
		{Name: "batch status", Summary: "how many runs are finished, by outcome, and which are missing",
			Usage: "vigil batch status [--json] EXPERIMENT.toml", Run: batchStatus},
		{Name: "batch slurm", Summary: "write a Slurm array job script that runs the experiment",
			Usage: "vigil batch slurm [--max-array-size N] [--parallel K] [--partition P] EXPERIMENT.toml", Run: batchSlurm},
		{Name: "batch report", Summary: "tables (Markdown, HTML) and SVG plots of the results",
			Usage: "vigil batch report [--filter ATTR=V1,V2]... [--attributes A,B] [--group A,B] [--agree A,B] [--higher A,B] [--baseline ALGO] [--scatter X:Y,...] [--out DIR] [--format md|html|csv|none] EXPERIMENT.toml", Run: batchReport},
	} {
		cli.Register(c)
	}
}

// batchFlags returns the flag set of the batch sub-command name with
// --data, which overrides the experiment's data directory.
func batchFlags(e *cli.Env, name string) (*flag.FlagSet, *cli.Command, *string) {
	fs, c := e.Flags("batch " + name)
	return fs, c, fs.String("data", "", "the data directory (default: the experiment's data = \"...\", else data/NAME beside the experiment file)")
}

// loadExperiment parses the flags and loads the one experiment file args
// name, its data directory overridden by data; the exit code is nonzero
// when it cannot.
func loadExperiment(e *cli.Env, c *cli.Command, fs *flag.FlagSet, args []string, data *string, check func() bool) (*batch.Experiment, int) {
	file, ok := e.ParseOneArg(c, fs, args, "experiment file")
	if !ok || check != nil && !check() {
		return nil, cli.ExitUsage
	}
	x, err := batch.Load(file)
	if err != nil {
		e.PrintErr(err)
		return nil, cli.ExitError
	}
	if *data != "" {
		x.Data = *data
	}
	return x, cli.ExitOK
}

func batchRun(e *cli.Env, args []string) int {
	fs, c, data := batchFlags(e, "run")
	jobs := fs.Int("j", 1, "runs at once")
	tasks := fs.Int("tasks", 0, "split the runs into this many shuffled shares (Slurm array tasks) and run one")
	task := fs.Int("task", 0, "the share to run, 1..--tasks (the Slurm script passes $SLURM_ARRAY_TASK_ID)")
	asJSON := fs.Bool("json", false, "print the summary as JSON (and no progress line)")
	rerun := fs.String("rerun", "", "run again the finished runs with these outcomes (comma-separated: crash, input-error, timeout, ..., or stale for runs whose command changed)")
	only := fs.String("only", "", "run only the runs whose id (ALGORITHM/DOMAIN/PROBLEM[/REP]) matches this regular expression")
	e.AddProgressFlags(fs)
	var onlyRE *regexp.Regexp
	x, code := loadExperiment(e, c, fs, args, data, func() bool {
		var err error
		switch {
		case *jobs < 1:
			fmt.Fprintln(e.Stderr, "vigil batch run: -j must be at least 1")
		case (*tasks > 0) != (*task > 0):
			fmt.Fprintln(e.Stderr, "vigil batch run: give --tasks and --task together")
		case *tasks < 0 || *task > *tasks:
			fmt.Fprintf(e.Stderr, "vigil batch run: --task %d is not in 1..%d (--tasks)\n", *task, *tasks)
		case batch.CheckRerun(cli.SplitList(*rerun)) != nil:
			fmt.Fprintf(e.Stderr, "vigil batch run: --rerun: %v\n", batch.CheckRerun(cli.SplitList(*rerun)))
		case *only != "":
			if onlyRE, err = regexp.Compile(*only); err != nil {
				fmt.Fprintf(e.Stderr, "vigil batch run: --only %q: %v\n", *only, err)
			}
			return err == nil
		default:
			return true
		}
		return false
	})
	if x == nil {
		return code
	}
	if onlyRE != nil && !slices.ContainsFunc(x.Runs, func(r *batch.Run) bool { return onlyRE.MatchString(r.ID) }) {
		return e.Fail(cli.ExitUsage, "vigil batch run: --only %q matches none of the %s of %s (ids are ALGORITHM/DOMAIN/PROBLEM[/REP], e.g. %s)", *only, phrase.Plural(len(x.Runs), "run"), x.File, x.Runs[0].ID)
	}
	ctx, stop := cli.RunContext(0)
	defer stop()
	prog := e.NewProgress(*asJSON)
	s, err := x.Execute(ctx, batch.Options{
		Jobs: *jobs, Task: *task, Tasks: *tasks, Self: batch.Self(), Log: lineWriter{e, prog}, Rerun: cli.SplitList(*rerun), Only: onlyRE,
		Progress: func(p batch.Progress) { prog.Printf("%s", p.Line(x.Name)) },
	})
	prog.Clear()
	if err != nil {
		return e.Fail(cli.ExitError, "%v", err)
	}
	e.WriteReport("batch run", *asJSON, x.RunReport(s), cli.ExitOK)
	switch {
	case s.Errors["not-recorded"] > 0:
		return cli.ExitError
	case s.Interrupted || s.Done < s.Total:
		if !*asJSON {
			switch {
			case s.Interrupted:
				fmt.Fprintln(e.Stderr, "vigil batch run: interrupted; run the same command again to finish the rest")
			case s.Busy > 0:
				// no signal: another batch on the same data directory
				// holds these runs (it was called interrupted)
				verb := "are"
				if s.Busy == 1 {
					verb = "is"
				}
				fmt.Fprintf(e.Stderr, "vigil batch run: %s %s held by another batch process on %s; run the same command again once it has finished, to check them\n", phrase.Plural(s.Busy, "run"), verb, x.Data)
			default:
				fmt.Fprintln(e.Stderr, "vigil batch run: not every run is done; run the same command again to finish the rest")
			}
		}
		return cli.ExitUnknown
	}
	return cli.ExitOK
}

// lineWriter prints a line of the batch's log above the progress line.
type lineWriter struct {
	e *cli.Env
	p *cli.Progress
}

func (w lineWriter) Write(b []byte) (int, error) {
	w.p.Clear()
	return w.e.Stderr.Write(b)
}

func batchStatus(e *cli.Env, args []string) int {
	fs, c, data := batchFlags(e, "status")
	asJSON := fs.Bool("json", false, "print the status as JSON")
	x, code := loadExperiment(e, c, fs, args, data, nil)
	if x == nil {
		return code
	}
	st, err := x.Status()
	if err != nil {
		return e.Fail(cli.ExitError, "%v", err)
	}
	e.WriteReport("batch status", *asJSON, x.StatusReport(st), cli.ExitOK)
	if len(st.Missing) > 0 || len(st.Stale) > 0 {
		return cli.ExitUnknown
	}
	return cli.ExitOK
}

func batchSlurm(e *cli.Env, args []string) int {
	fs, c, data := batchFlags(e, "slurm")
	maxArray := fs.Int("max-array-size", 1000, "at most this many array tasks (the cluster's MaxArraySize); each runs its share of the runs")
	par := fs.Int("parallel", 0, "at most this many tasks at once (the %K of --array; 0: all)")
	part := fs.String("partition", "", "the Slurm partition (#SBATCH --partition)")
	x, code := loadExperiment(e, c, fs, args, data, nil)
	if x == nil {
		return code
	}
	if err := batch.CheckPartition(*part); err != nil {
		return e.Fail(cli.ExitUsage, "vigil batch slurm: %v", err)
	}
	path, tasks, err := x.Slurm(batch.SlurmOptions{Self: batch.Self(), MaxArraySize: *maxArray, Parallel: *par, Partition: *part})
	if err != nil {
		return e.Fail(cli.ExitError, "%v", err)
	}
	fmt.Fprintf(e.Stdout, "wrote %s: %d runs in %d array tasks\nsubmit with: sbatch %s\n", path, len(x.Runs), tasks, batch.ShellQuote(path))
	return cli.ExitOK
}

// filterFlags collects repeated --filter ATTR=V1,V2 flags.
type filterFlags []batch.Filter

func (f *filterFlags) String() string { return "" }
func (f *filterFlags) Set(s string) error {
	v, err := batch.ParseFilter(s)
	if err != nil {
		return err
	}
	*f = append(*f, v)
	return nil
}

func batchReport(e *cli.Env, args []string) int {
	fs, c, data := batchFlags(e, "report")
	var filters filterFlags
	fs.Var(&filters, "filter", "keep runs whose attribute is one of the values (ATTR=V1,V2) or none of them (ATTR!=V1,V2); repeatable, all must hold (default: the experiment's [report] filters)")
	attrs := fs.String("attributes", "", "attributes to tabulate: coverage (summed), error (counted), par2 (PAR-2 scores, summed), ratio or ratio:ATTR (median ratio to --baseline), any numeric one (mean and median over commonly solved instances) (default: the experiment's [report] attributes, else "+strings.Join(batch.DefaultAttributes, ",")+")")
	agree := fs.String("agree", "", "the attributes of the answer that algorithms deciding the same instance must agree on (vigil safe --starts: safe,unsafe); a disagreement fails the report with exit 3 (default: [report] agree, else verdict)")
	higher := fs.String("higher", "", "numeric attributes where more is better (the largest value is emphasized; otherwise the smallest)")
	group := fs.String("group", "", "the attributes whose values make a table row (comma-separated), e.g. domain,arch (default: [report] group, else domain)")
	baseline := fs.String("baseline", "", "the algorithm the ratio attributes divide by (default: [report] baseline, else the first algorithm)")
	scatter := fs.String("scatter", "", "the pairs of algorithms whose times to plot against each other, X:Y,... (default: [report] scatter, else every pair)")
	out := fs.String("out", "", "write report.md, report.html, runs.csv and the SVG plots here (default: DATA/report)")
	format := fs.String("format", "md", "what to print on stdout: md, html, csv or none")
	var pairs [][2]string
	x, code := loadExperiment(e, c, fs, args, data, func() bool {
		switch *format {
		case "md", "html", "csv", "none":
		default:
			fmt.Fprintf(e.Stderr, "vigil batch report: --format %q: want md, html, csv or none\n", *format)
			return false
		}
		for _, s := range cli.SplitList(*scatter) {
			pr, err := batch.ParseScatter(s)
			if err != nil {
				fmt.Fprintf(e.Stderr, "vigil batch report: --scatter: %v\n", err)
				return false
			}
			pairs = append(pairs, pr)
		}
		return true
	})
	if x == nil {
		return code
	}
	rep, files, err := x.Publish(batch.ReportOptions{Filters: filters, Attributes: cli.SplitList(*attrs), Group: cli.SplitList(*group), Agree: cli.SplitList(*agree), Higher: cli.SplitList(*higher), Baseline: *baseline, Scatter: pairs}, *out)
	if err != nil {
		return e.Fail(cli.ExitError, "%v", err)
	}
	rep.WriteFormat(e.Stdout, *format)
	fmt.Fprintf(e.Stderr, "vigil batch report: wrote %s\n", strings.Join(files, ", "))
	if rep.Stale > 0 {
		fmt.Fprintf(e.Stderr, "vigil batch report: left out: %s made with another command or other limits than %s now gives; vigil batch run --rerun stale %s runs them again\n", phrase.Plural(rep.Stale, "finished run"), x.File, x.File)
	}
	if err := rep.Disagreement(); err != nil {
		return e.Fail(cli.ExitUnsafe, "vigil batch report: %v", err)
	}
	return cli.ExitOK
}
