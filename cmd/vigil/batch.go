package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"vigil/batch"
)

func init() {
	register(&command{
		Name:    "batch",
		Summary: "run an experiment: many vigil runs under limits, resumable, locally or as a Slurm array; report tables and plots",
		Usage:   "vigil batch (run|status|slurm|report) [flags] EXPERIMENT.toml",
		Examples: []string{
			"vigil batch run bench/batch-smoke.toml -j 2",
			"vigil batch status bench/batch-smoke.toml",
			"vigil batch slurm bench/polic3-tables.toml --parallel 50; sbatch bench/data/polic3-tables/slurm/job.sh",
			"vigil batch report bench/polic3-tables.toml --filter algorithm=bfs,polic3 --attributes coverage,time,memory",
		},
		Run: runBatch,
	})
}

const batchHelp = `vigil batch runs experiments: one TOML file declares algorithms (named vigil
invocations), instances (models, policies, properties), limits and
repetitions; their product is the set of runs, each identified by
(algorithm, domain, problem[, repetition]).

Subcommands:
  run EXP [-j N]        run what is not finished (kill it any time; run again to go on)
  status EXP            how many runs are finished, by outcome, and which are missing
  slurm EXP             write a Slurm array job script that runs the experiment
  report EXP            tables (Markdown, HTML) and SVG plots of the results

Experiment file (TOML; unknown keys are errors; paths and globs are
relative to the file, and commands run in its directory):
  name = "NAME"               required: identifies the data directory
  data = "DIR"                default data/NAME
  repetitions = N | seeds = [S, ...]
  [limits] time = "600s"      CPU time (RLIMIT_CPU); a unit is required
           wall = "15m"       default time * 1.5 + 10s; the process group is killed
           memory = "4GiB"    RLIMIT_DATA (writable memory), at least 192MiB
  [[algorithms]] name = "bfs", args = ["verify", "{model}", "--engine", "bfs", "--json"]
                 a peer tool instead of vigil: program = "z3", args = [...],
                 verdicts = {sat = "safe", unsat = "unsafe"} (its last line
                 on stdout), and prepare = [vigil args] run first, untimed
                 (e.g. export --chc ... -o {run_dir}/q.smt2); see
                 bench/ic3scaling.toml
  [[instances]]  domain, name, models = [GLOB...], policies = [NAME...] and/or
                 policy_files = [GLOB...], properties = [NAME...],
                 defines = {N = 4}, args = [...], attributes = {arch = "16x16"}
  placeholders: {model} {policy} {property} {defines} {args} {seed} {rep}
                {time} {algorithm} {domain} {problem} {name} {run_dir}
                {policy_flag}: --policy-file FILE for policy_files, --policy
                NAME for policies, nothing for an instance with neither; an
                argument that is just {policy} is dropped for such an
                instance (bench/policy-files.toml mixes all three);
                {property_flag}: --property NAME, or nothing
  [report]       the defaults of vigil batch report (its flags override them):
                 attributes, group, agree, higher, filters = ["ATTR=V,..."],
                 baseline = "ALGO" (ratios divide by it), scatter = ["X:Y"]
Names (experiment, algorithms, domains, problems) are plain directory
names: letters, digits, '.', '_', '+' and '-', not "." or "..", and not
starting with '.'. batch writes only inside the data directory, and
refuses a run whose directory or files would lie outside it (a symbolic
link leading out of it included).

An experiment runs vigil with the arguments it lists, and the programs it
names, in the experiment file's directory, and those commands may write
files anywhere: verify --cert FILE writes a certificate, fmt -w rewrites
models, batch report --out writes a report, a program does what it does.
batch does not confine them: read an experiment file from someone else
before you run it.

Each run directory DATA/runs/ALGO/DOMAIN/PROBLEM[/REP] holds command,
stdout, stderr (prepare.stdout, prepare.stderr of a preparation step) and
properties (JSON with Downward Lab's attributes: id, error (success,
unknown, timeout, out-of-memory, input-error, usage-error, crash,
prepare-failed, start-failed), coverage (1: a verdict), time (CPU s), wall_time (s), memory (peak
RSS, KiB), unexplained_errors, and the command's --json output flattened:
nested keys joined with _, every list also as its length KEY_count).
report also writes DATA/properties, all runs keyed by id, which Lab's
fetcher and reports read as an evaluation directory. Its tables give
coverage, verdicts and outcomes per algorithm, and time (CPU seconds),
wall_time (seconds) and memory (KiB); par2 (PAR-2 scores: CPU time when
solved, twice the limit when not, summed) and ratio (the median of each
algorithm's time over the baseline's on the instances both decided;
ratio:ATTR for another attribute); report.html and report.md list every
run with its verdict and a link to its directory; runs.csv has a row per
run with its verdict.

Exit codes: 0 all done (run: every run recorded; status: none missing),
1 input error (or runs that could not be recorded), 2 usage, 3 report:
algorithms disagree on a verdict (one of them is wrong), 4 runs missing or
interrupted.`

func runBatch(e *env, args []string) int {
	subs := []subcommand{
		{"run", batchRun},
		{"status", batchStatus},
		{"slurm", batchSlurm},
		{"report", batchReport},
	}
	return dispatch(e, "batch", batchHelp, subs, nil, args)
}

// vigilSelf is the vigil executable that runs are made with: the program
// as invoked (not resolving symlinks, so a link named vigil still is vigil).
func vigilSelf() string {
	arg0 := os.Args[0]
	if strings.Contains(arg0, "/") {
		if p, err := filepath.Abs(arg0); err == nil {
			return p
		}
	} else if p, err := exec.LookPath(arg0); err == nil {
		if p, err := filepath.Abs(p); err == nil {
			return p
		}
	}
	p, _ := os.Executable()
	return p
}

func loadExperiment(e *env, file, data string) (*batch.Experiment, bool) {
	x, err := batch.Load(file)
	if err != nil {
		printErr(e, err)
		return nil, false
	}
	if data != "" {
		x.Data = data
	}
	return x, true
}

// dataFlag registers --data, which overrides the experiment's data
// directory.
func dataFlag(fs *flag.FlagSet) *string {
	return fs.String("data", "", "the data directory (default: the experiment's data = \"...\", else data/NAME beside the experiment file)")
}

func batchArgs(e *env, name string, fs *flag.FlagSet, args []string) (string, bool) {
	files, ok := parseFlags(fs, args)
	if !ok {
		return "", false
	}
	if len(files) != 1 {
		fmt.Fprintf(e.stderr, "vigil batch %s: want one experiment file, got %d\nusage: vigil batch %s [flags] EXPERIMENT.toml\n", name, len(files), name)
		return "", false
	}
	return files[0], true
}

func batchFlags(e *env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet("batch "+name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: vigil batch %s\n", usage)
		fs.PrintDefaults()
	}
	return fs
}

func batchRun(e *env, args []string) int {
	fs := batchFlags(e, "run", "run [-j N] [--tasks N --task I] [--only REGEXP] [--rerun OUTCOMES] [--json] [--progress|--quiet] EXPERIMENT.toml")
	jobs := fs.Int("j", 1, "runs at once")
	tasks := fs.Int("tasks", 0, "split the runs into this many shuffled shares (Slurm array tasks) and run one")
	task := fs.Int("task", 0, "the share to run, 1..--tasks (the Slurm script passes $SLURM_ARRAY_TASK_ID)")
	asJSON := fs.Bool("json", false, "print the summary as JSON (and no progress line)")
	rerun := fs.String("rerun", "", "run again the finished runs with these outcomes (comma-separated: crash, input-error, timeout, ..., or stale for runs whose command changed)")
	only := fs.String("only", "", "run only the runs whose id (ALGORITHM/DOMAIN/PROBLEM[/REP]) matches this regular expression")
	data := dataFlag(fs)
	addProgressFlags(e, fs)
	file, ok := batchArgs(e, "run", fs, args)
	if !ok {
		return exitUsage
	}
	if *jobs < 1 {
		fmt.Fprintln(e.stderr, "vigil batch run: -j must be at least 1")
		return exitUsage
	}
	if (*tasks > 0) != (*task > 0) {
		fmt.Fprintln(e.stderr, "vigil batch run: give --tasks and --task together")
		return exitUsage
	}
	var onlyRE *regexp.Regexp
	if *only != "" {
		var err error
		if onlyRE, err = regexp.Compile(*only); err != nil {
			fmt.Fprintf(e.stderr, "vigil batch run: --only %q: %v\n", *only, err)
			return exitUsage
		}
	}
	x, ok := loadExperiment(e, file, *data)
	if !ok {
		return exitError
	}
	ctx, stop := runContext(0)
	defer stop()
	prog := newProgress(e, *asJSON)
	s, err := x.Execute(ctx, batch.Options{
		Jobs: *jobs, Task: *task, Tasks: *tasks, Self: vigilSelf(), Log: lineWriter{e, prog}, Rerun: splitList(*rerun), Only: onlyRE,
		Progress: func(p batch.Progress) {
			eta := "-"
			if p.ETA > 0 {
				eta = p.ETA.Round(time.Second).String()
			}
			prog.printf("batch %s: %d/%d done, %d failed%s, ETA %s", x.Name, p.Done, p.Total, p.Failed, limitCounts(p.Errors), eta)
		},
	})
	prog.clear()
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitError
	}
	if rep := x.RunReport(s); *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		rep.WriteText(e.stdout)
	}
	switch {
	case s.Errors["not-recorded"] > 0:
		return exitError
	case s.Interrupted || s.Done < s.Total:
		if !*asJSON {
			fmt.Fprintln(e.stderr, "vigil batch run: interrupted; run the same command again to finish the rest")
		}
		return exitUnknown
	}
	return exitOK
}

// lineWriter prints a line of the batch's log above the progress line.
type lineWriter struct {
	e *env
	p *progress
}

func (w lineWriter) Write(b []byte) (int, error) {
	w.p.clear()
	return w.e.stderr.Write(b)
}

func limitCounts(errs map[string]int) string {
	var b strings.Builder
	for _, k := range []string{"timeout", "out-of-memory"} {
		if errs[k] > 0 {
			fmt.Fprintf(&b, ", %d %s", errs[k], k)
		}
	}
	return b.String()
}

func batchStatus(e *env, args []string) int {
	fs := batchFlags(e, "status", "status [--json] EXPERIMENT.toml")
	asJSON := fs.Bool("json", false, "print the status as JSON")
	data := dataFlag(fs)
	file, ok := batchArgs(e, "status", fs, args)
	if !ok {
		return exitUsage
	}
	x, ok := loadExperiment(e, file, *data)
	if !ok {
		return exitError
	}
	st, err := x.Status()
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitError
	}
	if rep := x.StatusReport(st); *asJSON {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		rep.WriteText(e.stdout)
	}
	if len(st.Missing) > 0 || len(st.Stale) > 0 {
		return exitUnknown
	}
	return exitOK
}

func batchSlurm(e *env, args []string) int {
	fs := batchFlags(e, "slurm", "slurm [--max-array-size N] [--parallel K] [--partition P] EXPERIMENT.toml")
	maxArray := fs.Int("max-array-size", 1000, "at most this many array tasks (the cluster's MaxArraySize); each runs its share of the runs")
	par := fs.Int("parallel", 0, "at most this many tasks at once (the %K of --array; 0: all)")
	part := fs.String("partition", "", "the Slurm partition (#SBATCH --partition)")
	data := dataFlag(fs)
	file, ok := batchArgs(e, "slurm", fs, args)
	if !ok {
		return exitUsage
	}
	x, ok := loadExperiment(e, file, *data)
	if !ok {
		return exitError
	}
	path, tasks, err := x.Slurm(batch.SlurmOptions{Self: vigilSelf(), MaxArraySize: *maxArray, Parallel: *par, Partition: *part})
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitError
	}
	fmt.Fprintf(e.stdout, "wrote %s: %d runs in %d array tasks\nsubmit with: sbatch %s\n", path, len(x.Runs), tasks, path)
	return exitOK
}

func splitList(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
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

func batchReport(e *env, args []string) int {
	fs := batchFlags(e, "report", "report [--filter ATTR=V1,V2]... [--attributes A,B] [--group A,B] [--agree A,B] [--higher A,B] [--baseline ALGO] [--scatter X:Y,...] [--out DIR] [--format md|html|csv|none] EXPERIMENT.toml")
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
	data := dataFlag(fs)
	file, ok := batchArgs(e, "report", fs, args)
	if !ok {
		return exitUsage
	}
	switch *format {
	case "md", "html", "csv", "none":
	default:
		fmt.Fprintf(e.stderr, "vigil batch report: --format %q: want md, html, csv or none\n", *format)
		return exitUsage
	}
	var pairs [][2]string
	for _, s := range splitList(*scatter) {
		pr, err := batch.ParseScatter(s)
		if err != nil {
			fmt.Fprintf(e.stderr, "vigil batch report: --scatter: %v\n", err)
			return exitUsage
		}
		pairs = append(pairs, pr)
	}
	x, ok := loadExperiment(e, file, *data)
	if !ok {
		return exitError
	}
	rep, err := x.Fetch(batch.ReportOptions{Filters: filters, Attributes: splitList(*attrs), Group: splitList(*group), Agree: splitList(*agree), Higher: splitList(*higher), Baseline: *baseline, Scatter: pairs})
	if err != nil {
		fmt.Fprintln(e.stderr, err)
		return exitError
	}
	dir := *out
	if dir == "" {
		dir = filepath.Join(x.Data, "report")
		if err := x.Within(filepath.Join(dir, "report.md")); err != nil {
			fmt.Fprintln(e.stderr, err)
			return exitError
		}
	}
	files, err := rep.Write(dir)
	if err != nil {
		fmt.Fprintln(e.stderr, "vigil batch report:", err)
		return exitError
	}
	switch *format {
	case "md":
		rep.Markdown(e.stdout)
	case "html":
		plots, _ := rep.Plots()
		rep.HTML(e.stdout, plots)
	case "csv":
		rep.CSV(e.stdout)
	}
	fmt.Fprintf(e.stderr, "vigil batch report: wrote %s\n", strings.Join(files, ", "))
	if list, _ := rep.Disagreements(); len(list) > 0 {
		fmt.Fprintf(e.stderr, "vigil batch report: DISAGREEMENT on %s: algorithms that decided give different answers, so one of them is wrong:\n  %s\n", plural(len(list), "instance"), strings.Join(list, "\n  "))
		return exitUnsafe
	}
	return exitOK
}
