package batch

// Reference describes the experiment file, the placeholders of its
// commands and the files of a data directory, as vigil help batch prints
// it.
const Reference = `vigil batch runs experiments: one TOML file declares algorithms (named vigil
invocations), instances (models, policies, properties), limits and
repetitions; their product is the set of runs, each identified by
(algorithm, domain, problem[, repetition]).

Experiment file (TOML; unknown keys are errors; paths and globs are
relative to the file, and commands run in its directory):
  name = "NAME"               required: identifies the data directory
  data = "DIR"                default data/NAME
  repetitions = N | seeds = [S, ...]   N >= 1; seeds whole numbers >= 0, at least one
  [limits] time = "600s"      CPU time (RLIMIT_CPU); a unit is required
           wall = "15m"       default time * 1.5 + 10s, not below time; the process group is killed
           memory = "4GiB"    RLIMIT_DATA (writable memory), at least 192MiB
           (a limit of 0 is an error: leave the key out for none)
  [[algorithms]] name = "bfs", args = ["verify", "{model}", "--engine", "bfs", "--json"]
                 a peer tool instead of vigil: program = "z3", args = [...],
                 verdicts = {sat = "safe", unsat = "unsafe"} (its last line
                 on stdout), and prepare = [vigil args] run first, untimed
                 (e.g. export --chc ... -o {run_dir}/q.smt2); see
                 bench/ic3scaling.toml
  [[instances]]  domain, name, models = [GLOB...], policies = [NAME...] and/or
                 policy_files = [GLOB...], properties = [NAME...],
                 defines = {N = 4}, args = [...], attributes = {arch = "16x16"}
                 (not verdict, nor an agree attribute: the runs answer those)
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

Each run directory DATA/runs/ALGO/DOMAIN/PROBLEM[/REP] (its files removed
when the run starts, so what a run writes through {run_dir} is its own)
holds command, stdout, stderr (prepare.stdout, prepare.stderr of a
preparation step) and
properties (JSON with Downward Lab's attributes: id, error (success,
unknown, timeout, out-of-memory, input-error, usage-error, crash,
prepare-failed, start-failed), coverage (1: a verdict), time (CPU s), wall_time (s), memory (peak
RSS, KiB), unexplained_errors, and the command's --json output flattened:
nested keys joined with _, every list also as its length KEY_count).
report also writes DATA/properties, all runs keyed by id, which Lab's
fetcher and reports read as an evaluation directory. Its tables give
coverage, verdicts and outcomes per algorithm, and time (CPU seconds),
wall_time (seconds) and memory (KiB); par2 (PAR-2 scores: CPU time when
solved, twice the CPU limit when not, summed; without a CPU limit twice
the largest time shown stands in, and the note says so) and ratio (the
median of each algorithm's time over the baseline's on the instances both
decided, both times counted as at least 1 ms; ratio:ATTR for another
attribute). A wrong verdict is a verdict: when algorithms disagree, the
report says so first, and the coverage and PAR-2 notes warn that some
verdicts they count are wrong. A verdict printed by a run past its limit
is not counted ("safe (not counted: timeout)"). report.html and report.md
list every run with its verdict and a link to its directory (Markdown
escapes the names it prints); runs.csv has a row per run with its
verdict (par2: the run's score; ratio: its time); a text cell that
starts with =, +, -, @, a tab, a carriage return or ' gets a ' in front,
so that a spreadsheet shows it as text rather than evaluate it as a
formula (numbers stay numbers; a script drops one leading ' to get the
value back). A row whose compared values are all equal emphasizes none. A report leaves out,
and counts, the runs not finished and those made with another command or
other limits than the file now gives; a coverage or PAR-2 sum over fewer
runs than the row's instances reads "(K of N runs)" and is never the one
emphasized. A filter, group, agree or attribute that no finished run has
is an error, and so are filters that keep no run.`
