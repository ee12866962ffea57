// Package batch runs experiments: many vigil invocations over many
// instances, each under CPU-time, memory and wall-clock limits, with
// results that survive kill -9 and that Downward Lab can read.
//
// An experiment file (TOML) declares algorithms (named vigil invocations)
// and instances (globs or lists of models, policies and properties); their
// cross product, times the repetitions or seeds, are the runs. A run is
// identified by (algorithm, domain, problem[, repetition]); the id names
// its directory, so ids stay the same when an edit adds runs, and a run
// whose properties file exists is finished and never rerun. Reference
// describes the experiment file and the data directory in full.
package batch

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"vigil/internal/inputfile"

	toml "github.com/pelletier/go-toml/v2"
)

// Experiment is a loaded, checked experiment file.
type Experiment struct {
	Name   string // identity of the data directory
	File   string // the experiment file
	Dir    string // directory commands run in (the file's directory)
	Data   string // the data directory
	Limits Limits
	Runs   []*Run // sorted by id
	// Algorithms are the algorithms' names in the order the file declares them.
	Algorithms []string
	// Report is what vigil batch report shows unless told otherwise: the
	// file's [report] section.
	Report ReportOptions
}

// Limits bound each run. Zero means no limit.
type Limits struct {
	CPU    time.Duration // RLIMIT_CPU (soft; the hard limit is a little later)
	Wall   time.Duration // wall clock, then the process group is killed
	Memory int64         // bytes of RLIMIT_DATA (writable private memory)
}

// Run is one invocation of one algorithm on one instance.
type Run struct {
	ID        string // algorithm/domain/problem[/rep-N|/seed-S]
	Algorithm string
	Domain    string
	Problem   string
	Rep       string         // "" when there is one repetition
	Args      []string       // vigil's arguments (without the program name), or Program's
	Attrs     map[string]any // the instance's static attributes (reports can group by them)
	// Program, when set, is the executable the run starts in place of vigil
	// (a peer tool such as z3), found on the PATH when it has no '/'.
	Program string
	// Prepare are vigil's arguments for a step before the run (vigil export
	// --chc ... -o {run_dir}/q.smt2 for Spacer): run under the same limits,
	// not timed with the run; a run whose preparation fails fails.
	Prepare []string
	// Verdicts map the last line a Program prints to a verdict (z3: sat to
	// safe, unsat to unsafe); a Program's run has a verdict only by them.
	Verdicts map[string]string
}

// file is the TOML schema; decoding rejects unknown keys.
type file struct {
	Name        string          `toml:"name"`
	Data        string          `toml:"data"`
	Repetitions *int            `toml:"repetitions"` // nil: not given (repetitions = 0 is an error)
	Seeds       []int64         `toml:"seeds"`
	Limits      limitsFile      `toml:"limits"`
	Algorithms  []PlanAlgorithm `toml:"algorithms"` // the file form is the one Plan writes
	Instances   []instances     `toml:"instances"`
	Report      reportFile      `toml:"report"`
}

// reportFile is the [report] section: vigil batch report's defaults for
// this experiment (its flags override them).
type reportFile struct {
	Attributes []string `toml:"attributes"`
	Group      []string `toml:"group"`
	Agree      []string `toml:"agree"`
	Higher     []string `toml:"higher"`
	Filters    []string `toml:"filters"`
	Baseline   string   `toml:"baseline"`
	Scatter    []string `toml:"scatter"`
}

type limitsFile struct {
	Time   Duration `toml:"time"`
	Wall   Duration `toml:"wall"`
	Memory Size     `toml:"memory"`
}

type instances struct {
	Domain      string         `toml:"domain"`
	Name        string         `toml:"name"`
	Models      []Glob         `toml:"models"`
	Policies    []string       `toml:"policies"`
	PolicyFiles []Glob         `toml:"policy_files"`
	Properties  []string       `toml:"properties"`
	Defines     map[string]any `toml:"defines"`
	Args        []string       `toml:"args"`
	Attributes  map[string]any `toml:"attributes"`
}

// Duration is a time limit with a unit ("30s", "10m"); a bare number is
// rejected.
type Duration struct {
	time.Duration
	set bool // given in the file (0s included)
}

func (d *Duration) UnmarshalText(b []byte) error {
	v, err := ParseDuration(string(b))
	d.Duration, d.set = v, true
	return err
}

// ParseDuration parses a limit such as "30s" or "1h30m"; a bare number is
// an error, since the unit is ambiguous.
func ParseDuration(s string) (time.Duration, error) {
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return 0, fmt.Errorf("time limit %q has no unit: write %ss (or ms, m, h)", s, s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("bad time limit %q: want a number with a unit, e.g. 30s, 10m, 1h", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("negative time limit %q", s)
	}
	return d, nil
}

// Size is a memory limit with a unit ("512MiB", "4GB"); a bare number is
// rejected.
type Size struct {
	Bytes int64
	set   bool // given in the file (0MiB included)
}

func (s *Size) UnmarshalText(b []byte) error {
	v, err := ParseSize(string(b))
	s.Bytes, s.set = v, true
	return err
}

var sizeUnits = map[string]int64{
	"B": 1, "KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12,
	"K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40,
	"KIB": 1 << 10, "MIB": 1 << 20, "GIB": 1 << 30, "TIB": 1 << 40,
}

// ParseSize parses a memory size such as "512MiB", "2G" or "4GB".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && (t[i] >= '0' && t[i] <= '9' || t[i] == '.') {
		i++
	}
	num, unit := t[:i], strings.ToUpper(strings.TrimSpace(t[i:]))
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("bad memory limit %q: want a number with a unit, e.g. 512MiB, 4GiB", s)
	}
	if unit == "" {
		return 0, fmt.Errorf("memory limit %q has no unit: write %sMiB (or KiB, GiB, MB, GB)", s, num)
	}
	m, ok := sizeUnits[unit]
	if !ok {
		return 0, fmt.Errorf("memory limit %q: unknown unit %q (B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)", s, strings.TrimSpace(t[i:]))
	}
	if b := f * float64(m); b >= 1<<62 {
		return 0, fmt.Errorf("memory limit %q is beyond 4 EiB: write a size the machine has, e.g. 4GiB", s)
	}
	return int64(f * float64(m)), nil
}

// Glob is a file pattern relative to the experiment file; decoding expands
// it and rejects one that matches nothing.
type Glob struct {
	Pattern string
	Matches []string // relative to the experiment's directory, sorted
}

// globDir is the directory globs are expanded in while a file is decoded
// (UnmarshalText has no other context); globMu serializes loads.
var (
	globMu  sync.Mutex
	globDir string
)

func (g *Glob) UnmarshalText(b []byte) error {
	g.Pattern = string(b)
	if filepath.IsAbs(g.Pattern) {
		return fmt.Errorf("%q: write paths relative to the experiment file", g.Pattern)
	}
	m, err := filepath.Glob(filepath.Join(globDir, g.Pattern))
	if err != nil {
		return fmt.Errorf("bad glob %q: %v", g.Pattern, err)
	}
	if len(m) == 0 {
		return fmt.Errorf("%q matches no file (relative to %s)", g.Pattern, dirName(globDir))
	}
	for i := range m {
		m[i], _ = filepath.Rel(globDir, m[i])
	}
	sort.Strings(m)
	g.Matches = m
	return nil
}

func dirName(d string) string {
	if d == "" {
		return "."
	}
	return d
}

// An Error is a problem in an experiment file, at a position when there is
// one. Codes: B0001 TOML syntax or a value of the wrong type, B0002 an
// unknown key, B0003 any other invalid content.
type Error struct {
	File      string
	Line, Col int
	Code      string
	Msg       string
	Source    string // the line at Line, for the excerpt
}

// Error renders file:line:col: error[CODE]: message, then the source line
// and a caret under the column.
func (e *Error) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: error[%s]: %s", e.File, e.Code, e.Msg)
	}
	s := fmt.Sprintf("%s:%d:%d: error[%s]: %s", e.File, e.Line, e.Col, e.Code, e.Msg)
	if e.Source != "" {
		pad := strings.Repeat(" ", len(strconv.Itoa(e.Line)))
		caret := strings.Map(func(r rune) rune {
			if r == '\t' {
				return r
			}
			return ' '
		}, e.Source[:min(max(e.Col-1, 0), len(e.Source))])
		s += fmt.Sprintf("\n %d | %s\n %s | %s^", e.Line, e.Source, pad, caret)
	}
	return s
}

// newError makes an Error at line:col of src.
func newError(path string, src []byte, line, col int, code, msg string) *Error {
	e := &Error{File: path, Line: line, Col: col, Code: code, Msg: msg}
	if lines := strings.Split(string(src), "\n"); line > 0 && line <= len(lines) {
		e.Source = strings.TrimRight(lines[line-1], "\r")
	}
	return e
}

// Load reads and checks an experiment file and expands its runs.
func Load(path string) (*Experiment, error) {
	src, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("batch: %w", err)
	}
	return Parse(path, src)
}

// Parse checks the experiment file src (named path) and expands its runs.
func Parse(path string, src []byte) (*Experiment, error) {
	dir := filepath.Dir(path)
	ps := &parseState{path: path, src: src}
	globMu.Lock()
	globDir = dir
	dec := toml.NewDecoder(bytes.NewReader(src))
	dec.DisallowUnknownFields()
	err := dec.Decode(&ps.f)
	globMu.Unlock()
	if err != nil {
		return nil, decodeError(path, src, err)
	}
	f := &ps.f
	x := &Experiment{Name: f.Name, File: path, Dir: dir}
	if err := ps.header(x); err != nil {
		return nil, err
	}
	reps, err := ps.repetitions()
	if err != nil {
		return nil, err
	}
	algos, err := ps.algorithms()
	if err != nil {
		return nil, err
	}
	for _, a := range f.Algorithms {
		x.Algorithms = append(x.Algorithms, a.Name)
	}
	if len(f.Instances) == 0 {
		return nil, ps.errorf("", "no [[instances]]: declare at least one, e.g. models = [\"specs/*.spec\"]")
	}
	ids := map[string]bool{}
	for i, in := range f.Instances {
		if err := ps.instance(x, fmt.Sprintf("instances.%d", i), in, reps, ids); err != nil {
			return nil, err
		}
	}
	sort.Slice(x.Runs, func(i, j int) bool { return x.Runs[i].ID < x.Runs[j].ID })
	var key string
	if x.Report, key, err = reportDefaults(f.Report, algos); err != nil {
		return nil, ps.errorf("report."+key, "%v", err)
	}
	return x, nil
}

// parseState is an experiment file being checked: its decoded TOML, and
// its text for the positions of errors.
type parseState struct {
	path string
	src  []byte
	f    file
	// cmdBytes counts the bytes of the runs' expanded arguments so far
	// (MaxCommandBytes), cmdArgs the arguments (MaxCommandArgs).
	cmdBytes, cmdArgs int
}

// errorf is an error (B0003) at key, a dotted path such as
// "algorithms.0.args" ("" for the file's start).
func (ps *parseState) errorf(key, format string, args ...any) error {
	line, col := keyPos(ps.src, key)
	return newError(ps.path, ps.src, line, col, "B0003", fmt.Sprintf(format, args...))
}

// header checks the name and fills in x's data directory and limits.
func (ps *parseState) header(x *Experiment) error {
	f := &ps.f
	if f.Name == "" {
		return ps.errorf("", "the experiment has no name: add name = \"...\" (it identifies the data directory)")
	}
	if msg := badName(f.Name); msg != "" {
		return ps.errorf("name", "experiment name %q %s; it names the data directory data/NAME", f.Name, msg)
	}
	x.Data = filepath.Join(x.Dir, "data", f.Name)
	if f.Data != "" {
		x.Data = filepath.Join(x.Dir, f.Data)
	}
	// A limit of 0 was no limit (time, memory) or the default (wall: time
	// * 1.5 + 10s), whatever the file meant by it.
	for _, z := range []struct {
		key, what, leave string
		zero             bool
	}{
		{"limits.time", "a CPU time limit of 0", "leave time out for none", f.Limits.Time.set && f.Limits.Time.Duration == 0},
		{"limits.wall", "a wall limit of 0", "leave wall out for the default (time * 1.5 + 10s; none without time)", f.Limits.Wall.set && f.Limits.Wall.Duration == 0},
		{"limits.memory", "a memory limit of 0", "leave memory out for none", f.Limits.Memory.set && f.Limits.Memory.Bytes == 0},
	} {
		if z.zero {
			return ps.errorf(z.key, "%s would stop every run at once: give a positive limit, or %s", z.what, z.leave)
		}
	}
	x.Limits = Limits{CPU: f.Limits.Time.Duration, Wall: f.Limits.Wall.Duration, Memory: f.Limits.Memory.Bytes}
	if x.Limits.Wall > 0 && x.Limits.Wall < x.Limits.CPU {
		// Every run would stop at the wall limit while PAR-2 penalizes, and
		// the plots place, the unsolved ones at the CPU limit.
		return ps.errorf("limits.wall", "wall limit %v is below the CPU time limit %v: every run stops at %v, while PAR-2 and the plots count its limit as %v; lower time to %v, or raise wall (default: time * 1.5 + 10s)", x.Limits.Wall, x.Limits.CPU, x.Limits.Wall, x.Limits.CPU, x.Limits.Wall)
	}
	if x.Limits.Wall == 0 && x.Limits.CPU > 0 {
		x.Limits.Wall = x.Limits.CPU + x.Limits.CPU/2 + 10*time.Second
	}
	if x.Limits.Memory > 0 && x.Limits.Memory < 192<<20 {
		return ps.errorf("limits.memory", "memory limit %d MiB is below the 192 MiB a vigil process needs to start", x.Limits.Memory>>20)
	}
	return nil
}

// MaxRepetitions is the most repetitions of each run an experiment may
// ask for (a larger count is a typo, and its runs would not fit in
// memory); MaxRuns is the most runs it may expand to, and
// MaxCommandBytes the most bytes their arguments (args and prepare, once
// {...} is expanded) may hold in all: each run holds its own, and a 26 KB
// file (100 algorithms whose argument names {model} 30 times, 10000
// repetitions) expanded to 1000000 runs of 600 bytes each, 2.4 GB and a
// minute before anything ran.
// MaxCommandArgs is the most arguments they may hold in all: an argument
// holds a string header (16 bytes) whatever its length, and an
// instance's args list of empty strings named 3000 times by an
// algorithm ({args}) counted no bytes at all, while a 42 KB file
// expanded to 9 million arguments (825 MiB, 4 s). 2^22 arguments take
// some 64 MiB of headers; arguments of 16 bytes or more on average meet
// MaxCommandBytes first.
//
// Both are checked before a run's arguments are built (expandSize): one
// run's own expansion was not bounded, and a 124 KB file whose algorithm
// names {name} 4000 times in one argument, with a name of 100 KB,
// allocated 2.5 GB before the bound refused it.
const (
	MaxRepetitions  = 10_000
	MaxRuns         = 1_000_000
	MaxCommandBytes = 64 << 20
	MaxCommandArgs  = 1 << 22
)

// repetitions are the names of the repetitions of each run: "" for one,
// rep-1, rep-2, ... or seed-S for each seed.
func (ps *parseState) repetitions() ([]string, error) {
	f := &ps.f
	var reps []string
	switch {
	case f.Seeds != nil && f.Repetitions != nil:
		return nil, ps.errorf("repetitions", "give repetitions or seeds, not both (each seed is one repetition)")
	case f.Seeds != nil && len(f.Seeds) == 0:
		// seeds = [] ran each run once, without a seed, as if seeds
		// were not there
		return nil, ps.errorf("seeds", "seeds is empty: list the seeds, or leave seeds out for one run each without {seed}")
	case f.Seeds != nil:
		seen := map[int64]bool{}
		for _, s := range f.Seeds {
			if s < 0 {
				// vigil's --seed refuses it: every run a usage error
				return nil, ps.errorf("seeds", "seed %d is negative: seeds are whole numbers >= 0, as vigil's --seed takes", s)
			}
			if seen[s] {
				return nil, ps.errorf("seeds", "seed %d is listed twice", s)
			}
			seen[s] = true
			reps = append(reps, fmt.Sprintf("seed-%d", s))
		}
	case f.Repetitions == nil:
	case *f.Repetitions < 1:
		// repetitions = 0 ran each run once, as if it were not there
		return nil, ps.errorf("repetitions", "repetitions = %d: give 1 or more (or leave it out for one run each)", *f.Repetitions)
	case *f.Repetitions > MaxRepetitions:
		return nil, ps.errorf("repetitions", "%d repetitions is more than the %d a batch runs; give fewer", *f.Repetitions, MaxRepetitions)
	case *f.Repetitions > 1:
		for i := 1; i <= *f.Repetitions; i++ {
			reps = append(reps, fmt.Sprintf("rep-%d", i))
		}
	}
	if reps == nil {
		reps = []string{""}
	}
	return reps, nil
}

// algorithms checks the [[algorithms]] and returns their names.
func (ps *parseState) algorithms() (map[string]bool, error) {
	if len(ps.f.Algorithms) == 0 {
		return nil, ps.errorf("", "no [[algorithms]]: declare at least one, e.g. name = \"bfs\", args = [\"verify\", \"{model}\", \"--json\"]")
	}
	algos := map[string]bool{}
	for i, a := range ps.f.Algorithms {
		key := fmt.Sprintf("algorithms.%d", i)
		if msg := badName(a.Name); msg != "" {
			return nil, ps.errorf(key+".name", "algorithm name %q %s; it names the directory of the algorithm's runs", a.Name, msg)
		}
		if algos[a.Name] {
			return nil, ps.errorf(key+".name", "algorithm %q is declared twice", a.Name)
		}
		algos[a.Name] = true
		if len(a.Args) == 0 {
			return nil, ps.errorf(key, "algorithm %q has no args: give the vigil command, e.g. args = [\"verify\", \"{model}\"]", a.Name)
		}
		for _, arg := range a.Args {
			if err := checkPlaceholders(arg); err != nil {
				return nil, ps.errorf(key+".args", "algorithm %q: %v", a.Name, err)
			}
		}
		for _, arg := range a.Prepare {
			if err := checkPlaceholders(arg); err != nil {
				return nil, ps.errorf(key+".prepare", "algorithm %q: %v", a.Name, err)
			}
		}
		switch {
		case a.Program == "" && len(a.Verdicts) > 0:
			return nil, ps.errorf(key+".verdicts", "algorithm %q: verdicts map the output of a program = \"...\" other than vigil (vigil's --json gives its verdict itself): add program, or drop verdicts", a.Name)
		case a.Program != "" && len(a.Verdicts) == 0:
			return nil, ps.errorf(key+".program", "algorithm %q runs %s: say which of its answers are verdicts, e.g. verdicts = { sat = \"safe\", unsat = \"unsafe\" } for z3 on vigil export --chc", a.Name, a.Program)
		}
		for line, v := range a.Verdicts {
			if strings.TrimSpace(line) == "" || v == "" {
				return nil, ps.errorf(key+".verdicts."+line, "algorithm %q: verdicts map a nonempty line to a nonempty verdict, e.g. sat = \"safe\"", a.Name)
			}
			// A run whose line maps to a verdict counts as solved: an
			// "unknown" there would count z3's giving up as coverage and
			// as a disagreement with every engine that decided.
			// Nor may another spelling of it, or of a run's outcome
			// ("UNKNOWN", "timeout"), and a verdict is compared as
			// written: "safe " disagreed with every "safe".
			if w := strings.ToLower(strings.TrimSpace(v)); w == "unknown" || slices.Contains(Outcomes, w) {
				return nil, ps.errorf(key+".verdicts."+line, "algorithm %q: %s = %q is no verdict (a run with a verdict counts as solved): leave %s out of verdicts, and a run that prints it is unknown", a.Name, line, v, line)
			}
			if line != strings.TrimSpace(line) {
				return nil, ps.errorf(key+".verdicts."+line, "algorithm %q: the line %q has spaces around it, and a run's last line is read without them (it never matched): write %q", a.Name, line, strings.TrimSpace(line))
			}
			if v != strings.TrimSpace(v) {
				return nil, ps.errorf(key+".verdicts."+line, "algorithm %q: the verdict %q has spaces around it, and verdicts are compared as written (with vigil's safe and unsafe): write %q", a.Name, v, strings.TrimSpace(v))
			}
		}
	}
	return algos, nil
}

// instance adds to x the runs of the instance in (at key): one per
// problem, algorithm and repetition, with ids not in ids yet.
func (ps *parseState) instance(x *Experiment, key string, in instances, reps []string, ids map[string]bool) error {
	f := &ps.f
	probs, err := problems(in)
	if err != nil {
		var ne *nameError
		if errors.As(err, &ne) {
			return ps.errorf(key+"."+ne.field, "%v", err)
		}
		return ps.errorf(key, "%v", err)
	}
	for k, v := range in.Defines {
		if !scalar(v) {
			return ps.errorf(key+".defines."+k, "defines: %s = %v is not a number, string or boolean: -D gives a constant one value (a row per value: one [[instances]] per value, or vigil bench ic3 --scale)", k, v)
		}
	}
	for k, v := range in.Attributes {
		if !scalar(v) {
			return ps.errorf(key+".attributes."+k, "attribute %s = %v is not a number, string or boolean: reports group and filter by one value", k, v)
		}
	}
	for _, lst := range []struct {
		field string
		names []string
	}{{"policies", in.Policies}, {"properties", in.Properties}} {
		seen := map[string]bool{}
		for j, n := range lst.names {
			at := fmt.Sprintf("%s.%s.%d", key, lst.field, j) // the entry itself
			switch {
			case strings.TrimSpace(n) == "":
				return ps.errorf(at, "%s: an empty name: remove it (an instance without %s leaves the key out)", lst.field, lst.field)
			case seen[n]:
				return ps.errorf(at, "%s: %q is listed twice", lst.field, n)
			}
			seen[n] = true
		}
	}
	for k := range in.Attributes {
		switch {
		case reserved[k]:
			return ps.errorf(key+".attributes."+k, "attribute %q is one the batch writes itself: choose another name", k)
		case answerKeys[k] || slices.Contains(f.Report.Agree, k):
			return ps.errorf(key+".attributes."+k, "attribute %q is part of a run's answer (the runs must agree on it): a static value would stand in for each run's own; choose another name", k)
		}
	}
	for _, p := range probs {
		for ai, a := range f.Algorithms {
			for ri, rep := range reps {
				r := &Run{Algorithm: a.Name, Domain: p.domain, Problem: p.name, Rep: rep, Attrs: in.Attributes}
				r.ID = r.Algorithm + "/" + r.Domain + "/" + r.Problem
				if rep != "" {
					r.ID += "/" + rep
				}
				if ids[r.ID] {
					return ps.errorf(key, "run %s appears twice: give the instances distinct names (name = \"...\")", r.ID)
				}
				ids[r.ID] = true
				if len(x.Runs) >= MaxRuns {
					return ps.errorf(key, "the experiment expands to more than %d runs; split it into several files or give fewer repetitions", MaxRuns)
				}
				vars := p.vars
				vars["rep"] = strconv.Itoa(ri + 1)
				vars["seed"] = strconv.Itoa(ri + 1)
				if len(f.Seeds) > 0 {
					vars["seed"] = strconv.FormatInt(f.Seeds[ri], 10)
				}
				vars["time"] = ""
				if x.Limits.CPU > 0 {
					vars["time"] = x.Limits.CPU.String()
				}
				vars["algorithm"], vars["domain"], vars["problem"] = a.Name, p.domain, p.name
				// the run's arguments bounded before they are built
				n, nargs := expandSize(a.Args, vars, p.lists)
				if len(a.Prepare) > 0 {
					pn, pargs := expandSize(a.Prepare, vars, p.lists)
					n, nargs = n+pn, nargs+pargs
				}
				if ps.cmdBytes += n; ps.cmdBytes > MaxCommandBytes {
					return ps.errorf(fmt.Sprintf("algorithms.%d.args", ai), "the arguments of the experiment's runs add up to more than %d MiB once {...} is expanded (run %d, %s, has %d bytes of them): give shorter arguments or fewer runs, or split the experiment into several files", MaxCommandBytes>>20, len(x.Runs)+1, r.ID, n)
				}
				if ps.cmdArgs += nargs; ps.cmdArgs > MaxCommandArgs {
					return ps.errorf(fmt.Sprintf("algorithms.%d.args", ai), "the experiment's runs have more than %d arguments in all once {...} is expanded (run %d, %s, has %d of them): name lists such as {args} fewer times, or split the experiment into several files", MaxCommandArgs, len(x.Runs)+1, r.ID, nargs)
				}
				if r.Args, err = expand(a.Args, vars, p.lists); err != nil {
					return ps.errorf(fmt.Sprintf("algorithms.%d.args", ai), "algorithm %q on %s/%s: %v", a.Name, p.domain, p.name, err)
				}
				if len(a.Prepare) > 0 {
					if r.Prepare, err = expand(a.Prepare, vars, p.lists); err != nil {
						return ps.errorf(fmt.Sprintf("algorithms.%d.prepare", ai), "algorithm %q on %s/%s: %v", a.Name, p.domain, p.name, err)
					}
				}
				r.Program, r.Verdicts = a.Program, a.Verdicts
				x.Runs = append(x.Runs, r)
			}
		}
	}
	return nil
}

// scalar reports whether a TOML value is one value (not a table or an
// array).
func scalar(v any) bool {
	switch v.(type) {
	case string, bool, int64, float64, int:
		return true
	}
	return false
}

// reportDefaults checks the [report] section against the algorithms; an
// error comes with the key it is about.
func reportDefaults(f reportFile, algos map[string]bool) (ReportOptions, string, error) {
	o := ReportOptions{Attributes: f.Attributes, Group: f.Group, Agree: f.Agree, Higher: f.Higher, Baseline: f.Baseline}
	for _, s := range f.Filters {
		flt, err := ParseFilter(s)
		if err != nil {
			return o, "filters", err
		}
		o.Filters = append(o.Filters, flt)
	}
	if f.Baseline != "" && !algos[f.Baseline] {
		return o, "baseline", fmt.Errorf("baseline %q is not an algorithm of this experiment", f.Baseline)
	}
	for _, s := range f.Scatter {
		pair, err := ParseScatter(s)
		if err != nil {
			return o, "scatter", err
		}
		for _, a := range pair {
			if !algos[a] {
				return o, "scatter", fmt.Errorf("scatter %q: %q is not an algorithm of this experiment", s, a)
			}
		}
		o.Scatter = append(o.Scatter, pair)
	}
	return o, "", nil
}

// ParseScatter parses a scatter plot's pair of algorithms, "X:Y" (X on the
// horizontal axis).
func ParseScatter(s string) ([2]string, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok || a == "" || b == "" || a == b {
		return [2]string{}, fmt.Errorf("scatter %q: want two algorithms X:Y, e.g. polic3:bfs", s)
	}
	return [2]string{a, b}, nil
}

// idPart is what a name in a run id may contain (it names a directory).
var idPart = regexp.MustCompile(`^[A-Za-z0-9._+-]+$`)

// badName says why s cannot name a directory of the data directory ("" when
// it can): a name is one plain path component, so it never leads out of
// the data directory ("." and ".." are components that do), nor hides a
// run (a leading '.' is the batch's own temporary files).
func badName(s string) string {
	switch {
	case s == "":
		return "is empty: give a name of letters, digits, '.', '_', '+' and '-'"
	case s == "." || s == "..":
		return "is not a plain directory name (it would lead out of the data directory): use letters, digits, '.', '_', '+' and '-', not only dots"
	case !idPart.MatchString(s):
		return "is not a plain directory name: use only letters, digits, '.', '_', '+' and '-' (no '/', no spaces)"
	case s[0] == '.':
		return "starts with '.': start it with a letter or a digit (names with a leading dot are the batch's temporary files)"
	}
	return ""
}

// A nameError is a run name (domain or problem) that badName refuses; field
// is the key of the [[instances]] entry it comes from.
type nameError struct {
	field string
	msg   string
}

func (e *nameError) Error() string { return e.msg }

type problem struct {
	domain, name string
	vars         map[string]string   // single-valued placeholders
	lists        map[string][]string // {defines} and {args}
}

// problems expands one [[instances]] entry into its problems: models x
// policies x properties.
func problems(in instances) ([]problem, error) {
	if len(in.Models) == 0 {
		return nil, errors.New("instances need models = [...] (globs relative to the experiment file)")
	}
	var models, policies []string
	for _, g := range in.Models {
		models = append(models, g.Matches...)
	}
	// policies (names) and policy_files (globs) combine; isFile tells
	// them apart for {policy_flag}.
	policies = append(policies, in.Policies...)
	isFile := map[string]bool{}
	for _, g := range in.PolicyFiles {
		for _, f := range g.Matches {
			isFile[f] = true
		}
		policies = append(policies, g.Matches...)
	}
	props := in.Properties
	opt := func(xs []string) []string {
		if len(xs) == 0 {
			return []string{""}
		}
		return xs
	}
	var defs []string
	keys := make([]string, 0, len(in.Defines))
	for k := range in.Defines {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		defs = append(defs, "-D", fmt.Sprintf("%s=%v", k, in.Defines[k]))
	}
	var out []problem
	for _, m := range models {
		for _, pol := range opt(policies) {
			for _, prop := range opt(props) {
				dom := in.Domain
				if dom == "" {
					dom = filepath.Base(filepath.Dir(filepath.Join(".", m)))
					if dom == "." {
						dom = stem(m)
					}
				}
				var parts []string
				switch {
				case in.Name != "" && len(models) == 1:
					parts = append(parts, in.Name)
				case in.Name != "":
					parts = append(parts, in.Name, stem(m))
				default:
					parts = append(parts, stem(m))
				}
				if pol != "" {
					parts = append(parts, stem(pol))
				}
				if prop != "" {
					parts = append(parts, prop)
				}
				name := strings.Join(parts, "-")
				if msg := badName(dom); msg != "" {
					if in.Domain != "" {
						return nil, &nameError{"domain", fmt.Sprintf("domain %q %s; it names a directory of the runs", dom, msg)}
					}
					return nil, &nameError{"models", fmt.Sprintf("domain %q, taken from the directory of model %q, %s; set domain = \"...\" in this [[instances]]", dom, m, msg)}
				}
				if msg := badName(name); msg != "" {
					field, from := "models", fmt.Sprintf("made from model %q", m)
					switch {
					case in.Name != "" && badName(in.Name) != "":
						field, from = "name", "made from name"
					case pol != "" && badName(stem(pol)) != "":
						field, from = "policies", fmt.Sprintf("made from policy %q", pol)
						if isFile[pol] {
							field = "policy_files"
						}
					case prop != "" && badName(prop) != "":
						field, from = "properties", fmt.Sprintf("made from property %q", prop)
					case in.Name != "":
						field, from = "name", "made from name"
					}
					return nil, &nameError{field, fmt.Sprintf("problem name %q, %s, %s; it names a directory of the runs: rename it, or give this [[instances]] a plain name = \"...\"", name, from, msg)}
				}
				var flag []string // {policy_flag}
				switch {
				case isFile[pol]:
					flag = []string{"--policy-file", pol}
				case pol != "":
					flag = []string{"--policy", pol}
				}
				var propFlag []string // {property_flag}
				if prop != "" {
					propFlag = []string{"--property", prop}
				}
				out = append(out, problem{
					domain: dom, name: name,
					vars:  map[string]string{"model": m, "policy": pol, "property": prop, "name": in.Name},
					lists: map[string][]string{"defines": defs, "args": in.Args, "policy_flag": flag, "property_flag": propFlag},
				})
			}
		}
	}
	return out, nil
}

func stem(p string) string {
	b := filepath.Base(p)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

var placeholder = regexp.MustCompile(`\{[^{}]*\}`)

var knownVars = map[string]bool{
	"model": true, "policy": true, "property": true, "name": true, "rep": true, "seed": true,
	"time": true, "algorithm": true, "domain": true, "problem": true, "run_dir": true,
	"defines": true, "args": true, "policy_flag": true, "property_flag": true,
}

func checkPlaceholders(arg string) error {
	for _, m := range placeholder.FindAllString(arg, -1) {
		v := m[1 : len(m)-1]
		if !knownVars[v] {
			var names []string
			for k := range knownVars {
				names = append(names, k)
			}
			sort.Strings(names)
			return fmt.Errorf("unknown placeholder %s (known: {%s})", m, strings.Join(names, "}, {"))
		}
		if (v == "defines" || v == "args" || v == "policy_flag" || v == "property_flag") && arg != m {
			return fmt.Errorf("%s expands to several arguments: write it as an argument of its own", m)
		}
	}
	return nil
}

// expand substitutes the placeholders of args. {run_dir} is left for the
// runner, which knows the data directory. A list ({defines}, {args},
// {policy_flag}) expands to its arguments, possibly none; an argument that
// is just {policy} disappears for an instance without a policy (unless a
// flag before it needs it as its value), so that instances with and
// without policies share an algorithm.
// expandSize is the bytes and the number of the arguments expand makes
// of args, computed without building them.
func expandSize(args []string, vars map[string]string, lists map[string][]string) (bytes, n int) {
	for _, a := range args {
		if l, ok := lists[strings.Trim(a, "{}")]; ok && a == "{"+strings.Trim(a, "{}")+"}" {
			for _, s := range l {
				bytes += len(s)
			}
			n += len(l)
			continue
		}
		if a == "{policy}" && vars["policy"] == "" {
			continue
		}
		size := len(a)
		for _, ix := range placeholder.FindAllStringIndex(a, -1) {
			if v := a[ix[0]+1 : ix[1]-1]; v != "run_dir" {
				size += len(vars[v]) - (ix[1] - ix[0])
			}
		}
		bytes += size
		n++
	}
	return bytes, n
}

func expand(args []string, vars map[string]string, lists map[string][]string) ([]string, error) {
	var out []string
	for _, a := range args {
		if l, ok := lists[strings.Trim(a, "{}")]; ok && a == "{"+strings.Trim(a, "{}")+"}" {
			out = append(out, l...)
			continue
		}
		if a == "{policy}" && vars["policy"] == "" {
			if n := len(out); n > 0 && strings.HasPrefix(out[n-1], "-") {
				return nil, fmt.Errorf("{policy} is empty for this instance, and %s before it would lack its value: write {policy_flag} in place of both (it expands to --policy NAME, --policy-file FILE or nothing), or declare policies or policy_files in its [[instances]]", out[n-1])
			}
			continue
		}
		var err error
		s := placeholder.ReplaceAllStringFunc(a, func(m string) string {
			v := m[1 : len(m)-1]
			if v == "run_dir" {
				return m
			}
			val := vars[v]
			if val == "" && err == nil {
				err = fmt.Errorf("%s is empty for this instance (declare %s in its [[instances]])", m, placeholderSource(v))
			}
			return val
		})
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func placeholderSource(v string) string {
	switch v {
	case "policy":
		return "policies or policy_files; or write {policy_flag}, which expands to --policy NAME, --policy-file FILE or nothing"
	case "property":
		return "properties; or write {property_flag}, which expands to --property NAME or nothing"
	case "time":
		return "a time limit in [limits]; it is not"
	}
	return v
}

// decodeError turns a TOML decoding error into an Error with a position.
func decodeError(path string, src []byte, err error) error {
	var de *toml.DecodeError
	var sm *toml.StrictMissingError
	switch {
	case errors.As(err, &sm) && len(sm.Errors) > 0:
		d := sm.Errors[0]
		line, col := d.Position()
		key := d.Key()
		// The decoder names a key of an inline table without its
		// table, and places a dotted key at its first part: name and
		// place the key as the file spells it.
		if path, sp := keyAt(src, line, col); path != "" && len(sp.names) > 0 {
			key = sp.names
			line, col = sp.line, sp.col
		}
		return newError(path, src, line, col, "B0002", fmt.Sprintf("unknown key %q%s", strings.Join(key, "."), suggestKey(key)))
	case errors.As(err, &de):
		line, col := de.Position()
		msg := typeMessage(src, line, col, strings.TrimPrefix(de.Error(), "toml: "))
		code := "B0001"
		if strings.Contains(msg, " limit ") || strings.Contains(msg, "matches no file") || strings.Contains(msg, "relative to the experiment") {
			code = "B0003" // from our own value checks
		}
		return newError(path, src, line, col, code, msg)
	}
	// An integer limit reaches UnmarshalText without a position: find the
	// limit whose value is that bare number.
	spots := keySpots(src)
	for _, key := range []string{"limits.time", "limits.wall", "limits.memory"} {
		sp, ok := spots[key]
		if !ok || !sp.hasVal || sp.val.Length == 0 {
			continue
		}
		val := string(src[sp.val.Offset : sp.val.Offset+sp.val.Length])
		if _, nerr := strconv.ParseFloat(val, 64); nerr == nil && strings.Contains(err.Error(), strconv.Quote(val)) {
			line, col := posOf(src, int(sp.val.Offset))
			return newError(path, src, line, col, "B0003", err.Error())
		}
	}
	return newError(path, src, 0, 0, "B0001", err.Error())
}

// posOf is the line and column (from 1) of the byte offset off of src.
func posOf(src []byte, off int) (int, int) {
	before := src[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	return line, off - (bytes.LastIndexByte(before, '\n') + 1) + 1
}

// wrongType matches the TOML decoder's message for a value of the wrong
// type, which names Go's struct and field ("cannot decode TOML array into
// struct field batch.PlanAlgorithm.Program of type string").
var wrongType = regexp.MustCompile(`^cannot decode TOML (\w+) into struct field [\w.]+ of type (\S+)$`)

// typeMessage rewrites a wrong-type message in the file's terms: the key
// whose value is at line:col, what it wants and what it got ("program: want a
// string, not an array"); other messages are returned as they are.
func typeMessage(src []byte, line, col int, msg string) string {
	m := wrongType.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	want := map[string]string{"string": "a string", "[]string": `a list of strings (["a", "b"])`, "int": "a whole number",
		"bool": "true or false", "float64": "a number", "map[string]string": `a table of strings ({ key = "value" })`}[m[2]]
	if want == "" {
		want = "a value of another type"
	}
	got := map[string]string{"array": "a list", "string": "a string", "integer": "a whole number", "float": "a number",
		"bool": "a Boolean", "inline table": "a table", "table": "a table", "datetime": "a date"}[m[1]]
	if got == "" {
		got = "a TOML " + m[1]
	}
	key := ""
	if path, sp := keyAt(src, line, col); path != "" && len(sp.names) > 0 {
		key = sp.names[len(sp.names)-1] + ": "
	} else if lines := strings.Split(string(src), "\n"); line >= 1 && line <= len(lines) {
		if k, _, ok := strings.Cut(lines[line-1], "="); ok {
			key = strings.Trim(strings.TrimSpace(k), `"'`) + ": "
		}
	}
	return fmt.Sprintf("%swant %s, not %s", key, want, got)
}

var keysOf = map[string][]string{
	"":           {"name", "data", "repetitions", "seeds", "limits", "algorithms", "instances", "report"},
	"limits":     {"time", "wall", "memory"},
	"algorithms": {"name", "args", "program", "prepare", "verdicts"},
	"report":     {"attributes", "group", "agree", "higher", "filters", "baseline", "scatter"},
	"instances":  {"domain", "name", "models", "policies", "policy_files", "properties", "defines", "args", "attributes"},
}

func suggestKey(key []string) string {
	if len(key) == 0 {
		return ""
	}
	parent := ""
	if len(key) > 1 {
		parent = key[0]
	}
	known := keysOf[parent]
	last := key[len(key)-1]
	best, bd := "", 3
	for _, k := range known {
		if d := editDistance(last, k); d < bd {
			best, bd = k, d
		}
	}
	if best != "" {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	return fmt.Sprintf(" (known keys here: %s)", strings.Join(known, ", "))
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev = cur
	}
	return prev[len(b)]
}
