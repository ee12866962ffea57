package batch

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"maps"
	"math"
	"math/big"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"vigil/internal/inputfile"
	"vigil/internal/phrase"
	"vigil/internal/stats"
)

// A Filter keeps the runs whose attribute is (or, with Not, is not) one of
// Values.
type Filter struct {
	Attr   string
	Not    bool
	Values []string
}

// ParseFilter parses "attr=v1,v2" or "attr!=v1,v2".
func ParseFilter(s string) (Filter, error) {
	if a, v, ok := strings.Cut(s, "!="); ok && a != "" {
		return Filter{Attr: a, Not: true, Values: strings.Split(v, ",")}, nil
	}
	if a, v, ok := strings.Cut(s, "="); ok && a != "" {
		return Filter{Attr: a, Values: strings.Split(v, ",")}, nil
	}
	return Filter{}, fmt.Errorf("filter %q: want ATTRIBUTE=V1,V2 or ATTRIBUTE!=V1,V2, e.g. algorithm=bfs,polic3 or error!=crash", s)
}

// String is the filter as written: ATTR=V1,V2 or ATTR!=V1,V2.
func (f Filter) String() string {
	op := "="
	if f.Not {
		op = "!="
	}
	return f.Attr + op + strings.Join(f.Values, ",")
}

func (f Filter) keep(p map[string]any) bool {
	v := attrString(p[f.Attr])
	in := false
	for _, w := range f.Values {
		// A number matches however it is written: size=1e6 keeps the
		// runs whose size is 1e+06, time_limit=600 those of 600.0.
		if v == w || sameNumber(p[f.Attr], w) {
			in = true
		}
	}
	return in != f.Not
}

// sameNumber reports whether the attribute value v is a number and w
// writes it. An integer (an instance's attribute) is compared exactly:
// as float64s, seed=9007199254740992 kept the runs of seed
// 9007199254740993 too (both round to 2^53). A float64 (read from a run's
// JSON) is compared with w read as a float64, as it was read itself.
func sameNumber(v any, w string) bool {
	var i int64
	switch v := v.(type) {
	case int:
		i = int64(v)
	case int64:
		i = v
	case json.Number:
		n, err := v.Int64()
		if err != nil {
			x, ok := num(v)
			y, err := strconv.ParseFloat(w, 64)
			return ok && err == nil && x == y
		}
		i = n
	case float64:
		y, err := strconv.ParseFloat(w, 64)
		return err == nil && v == y
	default:
		return false
	}
	// Equal as float64s first: then w's value is near i, and its exponent
	// small enough (with w's length bounded) to read it exactly.
	if y, err := strconv.ParseFloat(w, 64); err != nil || y != float64(i) || len(w) > 400 {
		return false
	}
	r, ok := new(big.Rat).SetString(w)
	return ok && r.IsInt() && r.Num().IsInt64() && r.Num().Int64() == i
}

func attrString(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// ReportOptions select what a report shows.
type ReportOptions struct {
	Filters    []Filter
	Attributes []string // default: DefaultAttributes
	Group      []string // the attributes whose values make a row (default: domain)
	Agree      []string // the attributes decided runs must agree on (default: verdict)
	Higher     []string // numeric attributes where more is better (emphasized: the largest)
	// Baseline is the algorithm the ratio attributes divide by (default:
	// the first algorithm).
	Baseline string
	// Scatter are the pairs of algorithms whose times are plotted against
	// each other (default: every pair).
	Scatter [][2]string
}

// withDefaults fills the options left empty from the experiment's
// [report] section.
func (o ReportOptions) withDefaults(d ReportOptions) ReportOptions {
	if len(o.Filters) == 0 {
		o.Filters = d.Filters
	}
	if len(o.Attributes) == 0 {
		o.Attributes = d.Attributes
	}
	if len(o.Group) == 0 {
		o.Group = d.Group
	}
	if len(o.Agree) == 0 {
		o.Agree = d.Agree
	}
	if len(o.Higher) == 0 {
		o.Higher = d.Higher
	}
	if o.Baseline == "" {
		o.Baseline = d.Baseline
	}
	if len(o.Scatter) == 0 {
		o.Scatter = d.Scatter
	}
	return o
}

// addAttrs sets r's static attributes in its properties p. A key of p
// that is an attribute now but was not when the run was made (p lists
// those, staticKey) is the run's own value: it moves to vigil_KEY, where
// flatten puts an output that clashes with an attribute, so that old and
// new runs agree. A run made before that list was written, whose value
// differs from the attribute's, is told apart by its stdout (outputHas),
// and refused when that cannot be read.
func (x *Experiment) addAttrs(r *Run, p map[string]any) error {
	listed, hasList := p[staticKey].([]any)
	for _, k := range slices.Sorted(maps.Keys(r.Attrs)) {
		v := r.Attrs[k]
		old, ok := p[k]
		_, moved := p["vigil_"+k]
		switch {
		case !ok || moved:
			// not recorded, or recorded as an attribute (its output
			// went to vigil_KEY then)
		case hasList && !slices.Contains(listed, any(k)):
			p["vigil_"+k] = old
		case !hasList && !sameValue(old, v):
			// Made by an older vigil: its stdout, kept in the run's
			// directory, says whether k was its own output.
			if own, known := x.outputHas(r, k); known {
				if own {
					p["vigil_"+k] = old
				}
				break
			}
			return fmt.Errorf("batch: run %s recorded %s = %v, and %s now gives its instance the attribute %s = %v; the run does not say whether its value is its own output or an attribute of its instance that has changed since: rename the attribute, or run it again (delete %s, then vigil batch run %s)", r.ID, k, old, x.File, k, v, x.RunDir(r), x.File)
		}
		p[k] = v
	}
	return nil
}

// outputHas reports whether the output of run r, as kept in its
// directory, has the key k where properties flattens it (without
// attributes: one a run's output had was then its own, not an
// attribute's), and whether that could be told: not when the run's
// stdout cannot be read.
func (x *Experiment) outputHas(r *Run, k string) (has, known bool) {
	if r.Program != "" {
		return false, true // a program's output gives its verdict only
	}
	path := filepath.Join(x.RunDir(r), "stdout")
	var out map[string]any
	b, err := readHead(path, maxStdout)
	switch {
	case err == nil:
		if json.Unmarshal(b, &out) != nil {
			out = nil
		}
	case errors.Is(err, errTooLarge):
		out = topScalars(path)
	default:
		return false, false
	}
	keys := map[string]any{}
	flatten(keys, "", out, nil)
	_, has = keys[k]
	return has, true
}

// sameValue compares a value read back from a run's JSON properties
// (numbers are float64 there) with one from the experiment file.
func sameValue(a, b any) bool {
	x, okA := num(a)
	y, okB := num(b)
	if okA && okB {
		return x == y
	}
	return reflect.DeepEqual(a, b)
}

// fromFile reports, per key of the [report] section, whether o leaves
// that option to the experiment file's d (withDefaults takes d's then).
func (o ReportOptions) fromFile(d ReportOptions) map[string]bool {
	return map[string]bool{
		"filters":    len(o.Filters) == 0 && len(d.Filters) > 0,
		"attributes": len(o.Attributes) == 0 && len(d.Attributes) > 0,
		"group":      len(o.Group) == 0 && len(d.Group) > 0,
		"agree":      len(o.Agree) == 0 && len(d.Agree) > 0,
		"higher":     len(o.Higher) == 0 && len(d.Higher) > 0,
	}
}

// optionError is err, about the report option key: when the option came
// from the experiment file's [report] section (fromFile), an *Error at
// its line there, as the file's other errors are (B0003); else err as it
// is (a command-line flag, which the message names).
func (x *Experiment) optionError(fromFile map[string]bool, key string, err error) error {
	if !fromFile[key] || x.File == "" {
		return err
	}
	src, rerr := inputfile.ReadFile(x.File)
	if rerr != nil {
		return err
	}
	line, col := keyPos(src, "report."+key)
	return newError(x.File, src, line, col, "B0003", "[report] "+strings.TrimPrefix(err.Error(), "batch: "))
}

// DefaultAttributes are the attributes a report shows unless told.
var DefaultAttributes = []string{"coverage", "verdict", "error", "time", "wall_time", "memory"}

// Derived attributes a report computes from the runs' measurements:
//
//	par2           PAR-2 score in CPU seconds (a run's time when it has a
//	               verdict, twice the time limit when not), summed per row
//	ratio          the median ratio of each algorithm's time to the
//	               baseline's, over the instances both decided
//	ratio:ATTR     the same for another numeric attribute (wall_time, or
//	               an engine's own, e.g. seconds)
const (
	AttrPAR2  = "par2"
	AttrRatio = "ratio"
)

// units are the units of the attributes batch measures, shown with their
// names in reports.
var units = map[string]string{"time": "CPU seconds", "wall_time": "seconds", "memory": "KiB"}

// titled is attr with its unit: "time (CPU seconds)".
func titled(attr string) string {
	if u, ok := units[attr]; ok {
		return attr + " (" + u + ")"
	}
	return attr
}

// verdictOf is a run's verdict, or "none (ERROR)" for a run that gave
// none. A verdict given past a limit (vigil printed "safe" after its CPU
// time ran out) is not counted as one: "safe (not counted: timeout)", so
// that the verdict table's counts add up to the coverage.
func verdictOf(p map[string]any) string {
	v, e := attrString(p["verdict"]), attrString(p["error"])
	if v == "" {
		return "none (" + e + ")"
	}
	if c, _ := num(p["coverage"]); c != 1 && v != "unknown" {
		return v + " (not counted: " + e + ")"
	}
	return v
}

// Report is the fetched results of an experiment, filtered.
type Report struct {
	x          *Experiment
	Runs       []map[string]any // finished runs that pass the filters
	Missing    int              // runs of the experiment not finished
	Stale      int              // finished runs made with another command or other limits: left out
	Algorithms []string
	Groups     []string // row names, sorted
	Group      []string // the attributes that name a row
	Agree      []string // the answer's attributes: runs with a verdict must agree on them
	Higher     []string // attributes where more is better
	Attributes []string
	Baseline   string      // the algorithm ratios divide by
	Scatter    [][2]string // the scatter plots' pairs (nil: every pair)
	// RunsLink is the path from the report's files to the data directory,
	// which links to each run's files go through (Write sets it; by default
	// the data directory itself).
	RunsLink string
	// HideRuns leaves the list of runs out of the Markdown, for a report
	// whose data directory is about to go (vigil bench ic3 without --data).
	HideRuns bool
}

// Fetch reads every finished run into one table and writes it as Lab's
// evaluation file DATA/properties (an object from run id to properties).
// Options left empty take the experiment's [report] section.
func (x *Experiment) Fetch(o ReportOptions) (*Report, error) {
	if err := x.openData(false, nil); err != nil {
		return nil, err
	}
	fromFile := o.fromFile(x.Report)
	o = o.withDefaults(x.Report)
	known := map[string]bool{}
	for _, a := range x.Algorithms {
		known[a] = true
	}
	if o.Baseline != "" && !known[o.Baseline] {
		return nil, fmt.Errorf("batch: baseline %q is not an algorithm of experiment %s (%s)", o.Baseline, x.Name, strings.Join(x.Algorithms, ", "))
	}
	for _, pr := range o.Scatter {
		for _, a := range pr {
			if !known[a] {
				return nil, fmt.Errorf("batch: scatter %s:%s: %q is not an algorithm of experiment %s (%s)", pr[0], pr[1], a, x.Name, strings.Join(x.Algorithms, ", "))
			}
		}
	}
	rep := &Report{x: x, Attributes: o.Attributes, Group: o.Group, Agree: o.Agree, Higher: o.Higher, Baseline: o.Baseline, Scatter: o.Scatter, RunsLink: x.Data}
	if len(rep.Agree) == 0 {
		rep.Agree = []string{"verdict"}
	}
	if len(rep.Attributes) == 0 {
		rep.Attributes = DefaultAttributes
	}
	if len(rep.Group) == 0 {
		rep.Group = []string{"domain"}
	}
	all := map[string]any{}
	algos, doms := map[string]bool{}, map[string]bool{}
	var finished []map[string]any
	for _, r := range x.Runs {
		p, err := x.Properties(r)
		if err != nil {
			return nil, err
		}
		if p == nil {
			rep.Missing++
			continue
		}
		// A run made by another command or under other limits than the
		// experiment now gives is not a result of this experiment (the
		// timeouts at 60 s say nothing about 600 s): it is left out, and
		// counted, as batch run refuses to mix it with new runs.
		if x.stale(r, p) {
			rep.Stale++
			continue
		}
		// The experiment's current static attributes. One added after
		// the run finished may have the name of a value the run itself
		// recorded (its engine's states, a program's score): the run's
		// value stays, as vigil_NAME, where a run made now puts it.
		if err := x.addAttrs(r, p); err != nil {
			return nil, err
		}
		// The run is the one whose directory holds the file: what the file
		// says of its id is from when it was written, and a directory
		// renamed with its algorithm (runs/b to runs/b-old, to keep the
		// results of a changed command) still says b, which the report
		// credited to another algorithm.
		p["id"] = runID(r)
		p["run_dir"] = filepath.ToSlash(filepath.Join("runs", filepath.FromSlash(r.ID)))
		p["algorithm"], p["domain"], p["problem"] = r.Algorithm, r.Domain, r.Problem
		delete(p, "rep")
		if r.Rep != "" {
			p["rep"] = r.Rep
		}
		// Lab's key joins the id's parts with '-', which names may hold
		// too: a-b/c/p and a/b-c/p would share a key, and one run would
		// vanish from the file. The second keeps its id, which no
		// '-'-joined key equals.
		key := strings.ReplaceAll(r.ID, "/", "-")
		if _, taken := all[key]; taken {
			key = r.ID
		}
		all[key] = p
		finished = append(finished, p)
	}
	if len(all) == 0 {
		if rep.Stale > 0 {
			return nil, fmt.Errorf("batch: every finished run of experiment %s (%d in %s) was made with another command or other limits than %s now gives: vigil batch run --rerun stale %s runs them again", x.Name, rep.Stale, x.Data, x.File, x.File)
		}
		return nil, fmt.Errorf("batch: no run of experiment %s has finished yet (in %s): vigil batch run %s first", x.Name, x.Data, x.File)
	}
	if key, err := rep.check(o, finished); err != nil {
		return nil, x.optionError(fromFile, key, err)
	}
	for _, p := range finished {
		keep := true
		for _, f := range o.Filters {
			keep = keep && f.keep(p)
		}
		if !keep {
			continue
		}
		rep.Runs = append(rep.Runs, p)
		algos[attrString(p["algorithm"])] = true
		doms[rep.groupOf(p)] = true
	}
	if len(rep.Runs) == 0 {
		var fs []string
		for _, f := range o.Filters {
			fs = append(fs, f.String())
		}
		return nil, x.optionError(fromFile, "filters", fmt.Errorf("batch: the filters %s keep none of the %d finished runs of experiment %s: check their values (vigil batch report --format csv without them lists every run)", strings.Join(fs, " "), len(finished), x.Name))
	}
	for _, a := range x.Algorithms {
		if algos[a] {
			rep.Algorithms = append(rep.Algorithms, a)
		}
	}
	if rep.Baseline == "" && len(rep.Algorithms) > 0 {
		rep.Baseline = rep.Algorithms[0]
	}
	// An algorithm the filters leave without runs would read as one that
	// decided nothing: a ratio "only this algorithm decided" every
	// instance, a scatter plot with all its points on the border.
	ratio := false
	for _, a := range rep.Attributes {
		ratio = ratio || a == AttrRatio || strings.HasPrefix(a, AttrRatio+":")
	}
	if ratio && rep.Baseline != "" && len(all) > 0 && !slices.Contains(rep.Algorithms, rep.Baseline) {
		return nil, fmt.Errorf("batch: the baseline %s has no finished run the filters keep, so no ratio to it can be computed: keep its runs (e.g. --filter algorithm=...,%s) or choose another --baseline", rep.Baseline, rep.Baseline)
	}
	if rep.Scatter != nil {
		var kept [][2]string
		for _, pr := range rep.Scatter {
			if slices.Contains(rep.Algorithms, pr[0]) && slices.Contains(rep.Algorithms, pr[1]) {
				kept = append(kept, pr)
			}
		}
		rep.Scatter = kept
		if rep.Scatter == nil {
			rep.Scatter = [][2]string{} // no pair left: none, not every pair
		}
	}
	for d := range doms {
		rep.Groups = append(rep.Groups, d)
	}
	sort.Strings(rep.Groups)
	b, err := json.MarshalIndent(all, "", "  ")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(x.Data, propertiesFile)
	if err := x.Within(path); err != nil {
		return nil, err
	}
	return rep, writeAtomic(nil, path, append(b, '\n'))
}

// check refuses report options (those given: flags or [report]; the
// defaults are not checked) that cannot mean what they say, before
// they silently give an empty report, a column of dashes or an
// unchecked answer: a filter, group, agree, higher or tabulated attribute that no
// finished run has (a typo: --filter algoritm=bfs), an algorithm or domain
// a filter names that the experiment lacks, a ratio of an attribute that
// no run gives as a number, and an answer attribute (agree) that is an
// instance's static attribute (the same value in every run, agreeing
// always).
func (rep *Report) check(o ReportOptions, finished []map[string]any) (string, error) {
	x := rep.x
	has, isNum := map[string]bool{}, map[string]bool{}
	for _, p := range finished {
		for k, v := range p {
			if k == staticKey {
				continue // bookkeeping, no attribute to report
			}
			has[k] = true
			if _, ok := num(v); ok {
				isNum[k] = true
			}
		}
	}
	for _, k := range []string{"algorithm", "domain", "problem", "rep", "verdict"} {
		has[k] = true // "" in a run without it (rep), or its outcome (verdict)
	}
	known := func(what, attr string) error {
		if has[attr] {
			return nil
		}
		return fmt.Errorf("batch: %s: no finished run of experiment %s has the attribute %q%s", what, x.Name, attr, suggestAttr(attr, has))
	}
	var domains []string
	for _, r := range x.Runs {
		if !slices.Contains(domains, r.Domain) {
			domains = append(domains, r.Domain)
		}
	}
	for _, f := range o.Filters {
		if err := known("filter "+f.String(), f.Attr); err != nil {
			return "filters", err
		}
		names := map[string][]string{"algorithm": x.Algorithms, "domain": domains}[f.Attr]
		for _, v := range f.Values {
			if names != nil && !slices.Contains(names, v) {
				return "filters", fmt.Errorf("batch: filter %s: %q is none of experiment %s's %ss (%s)", f.String(), v, x.Name, f.Attr, strings.Join(names, ", "))
			}
		}
	}
	for _, g := range o.Group {
		if err := known("group", g); err != nil {
			return "group", err
		}
	}
	for _, a := range o.Agree {
		if a == "verdict" {
			continue // runs without one are counted as unchecked (unchecked)
		}
		if err := known("agree", a); err != nil {
			return "agree", err
		}
		for _, r := range x.Runs {
			if _, ok := r.Attrs[a]; ok {
				return "agree", fmt.Errorf("batch: agree: %q is a static attribute of the instances (the same in each of an instance's runs), not part of a run's answer: name what the runs report, e.g. verdict", a)
			}
		}
	}
	for _, a := range o.Higher {
		if err := known("higher", a); err != nil {
			return "higher", err
		}
	}
	for _, a := range o.Attributes {
		switch a {
		case "coverage", "error", "verdict", AttrPAR2, AttrRatio:
			continue
		}
		b := a
		if c, ok := strings.CutPrefix(a, AttrRatio+":"); ok {
			b = c
		}
		if err := known("attribute "+a, b); err != nil {
			return "attributes", err
		}
		if b != a && !isNum[b] {
			return "attributes", fmt.Errorf("batch: attribute %s: %q is not a number in any finished run, so it has no ratio: tabulate it as %s (runs per value), group the rows by it (--group %s) or filter on it (--filter %s=...)", a, b, b, b, b)
		}
	}
	return "", nil
}

// suggestAttr is the " (did you mean ...)" of an attribute no run has:
// the closest one, else the list of them.
func suggestAttr(attr string, has map[string]bool) string {
	var names []string
	best, bd := "", 3
	for k := range has {
		names = append(names, k)
		if d := editDistance(attr, k); d < bd || d == bd && k < best {
			best, bd = k, d
		}
	}
	if best != "" && bd <= 2 {
		return fmt.Sprintf(" (did you mean %q?)", best)
	}
	sort.Strings(names)
	more := ""
	if len(names) > 30 {
		more = fmt.Sprintf(", and %d more", len(names)-30)
		names = names[:30]
	}
	return fmt.Sprintf(" (the runs have: %s%s)", strings.Join(names, ", "), more)
}

// LeftOut is the report's note on the experiment's runs it leaves out,
// " (left out: 2 runs not finished yet)", or "" when there are none.
func (rep *Report) LeftOut() string {
	var parts []string
	if rep.Missing > 0 {
		parts = append(parts, phrase.Plural(rep.Missing, "run")+" not finished yet")
	}
	if rep.Stale > 0 {
		parts = append(parts, phrase.Plural(rep.Stale, "run")+" made with another command or other limits than the experiment now gives (vigil batch run --rerun stale runs them again)")
	}
	if len(parts) == 0 {
		return ""
	}
	return " (left out: " + strings.Join(parts, "; ") + ")"
}

// groupOf names the row of a run: the values of the group attributes.
func (rep *Report) groupOf(p map[string]any) string {
	var parts []string
	for _, g := range rep.Group {
		parts = append(parts, attrString(p[g]))
	}
	return strings.Join(parts, " ")
}

// instance is the key of a run without its algorithm: what "commonly
// solved" compares.
func instance(p map[string]any) string {
	return attrString(p["domain"]) + "/" + attrString(p["problem"]) + "/" + attrString(p["rep"])
}

func num(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case json.Number:
		f, err := v.Float64()
		return f, err == nil
	}
	return 0, false
}

// A table is a report table: rows of cells under a header.
type table struct {
	Title, Note string
	Header      []string
	Rows        [][]string // plain text: Markdown and HTML escape it
	Best        [][]bool   // cells to emphasize
	Total       []bool     // rows of totals: their first word ("sum", "all") is emphasized
}

// tables computes Lab's absolute report: per attribute a table with a row
// per domain and a column per algorithm. Coverage is summed; the error
// attribute is counted per outcome; any other numeric attribute is
// averaged (mean and median) over the instances every algorithm solved.
func (rep *Report) tables() []table {
	byDom := map[string][]map[string]any{}
	for _, p := range rep.Runs {
		d := rep.groupOf(p)
		byDom[d] = append(byDom[d], p)
	}
	var out []table
	for _, attr := range rep.Attributes {
		switch attr {
		case "coverage":
			out = append(out, rep.coverage(byDom))
		case "error":
			out = append(out, rep.errors())
		case "verdict":
			out = append(out, rep.verdicts())
		case AttrPAR2:
			out = append(out, rep.par2(byDom))
		case AttrRatio:
			out = append(out, rep.ratios(byDom, "time"))
		default:
			if a, ok := strings.CutPrefix(attr, AttrRatio+":"); ok && a != "" {
				out = append(out, rep.ratios(byDom, a))
				continue
			}
			if !rep.numeric(attr) { // a name, a list: counted per value
				t := table{Title: attr, Note: fmt.Sprintf("runs per value of %s (it is not a number in any run)", attr), Header: rep.header(attr)}
				rep.countRows(&t, func(p map[string]any) string { return attrString(p[attr]) })
				out = append(out, t)
				continue
			}
			out = append(out, rep.common(byDom, attr, "mean", stats.Mean), rep.common(byDom, attr, "median", stats.Median))
		}
	}
	return out
}

// numeric reports whether attr is a number in some run of the report.
func (rep *Report) numeric(attr string) bool {
	for _, p := range rep.Runs {
		if _, ok := num(p[attr]); ok {
			return true
		}
	}
	return false
}

func (rep *Report) header(first string) []string {
	return append([]string{first}, rep.Algorithms...)
}

func (rep *Report) coverage(byDom map[string][]map[string]any) table {
	t := table{Title: "coverage", Note: "runs that ended with a verdict (exit 0 or 3), summed; (N) is the number of instances" + rep.wrongNote(), Header: rep.header(strings.Join(rep.Group, " "))}
	rep.sumRows(&t, byDom, func(p map[string]any) float64 {
		c, _ := num(p["coverage"])
		return c
	}, 1, "%.0f", "sum")
	return t
}

// sumRows adds to t one row per group with the sum of score over the
// group's runs per algorithm, labelled with the group and its number of
// instances, then a row of the totals labelled last; best and format
// are addRow's.
//
// A sum is comparable only over the same instances: an algorithm that
// lacks runs of some of the row's instances (not finished yet, or left
// out by the filters) would sum fewer PAR-2 penalties and look best. Its
// cell says "(K of N runs)", is never emphasized, and the table's note
// says why.
func (rep *Report) sumRows(t *table, byDom map[string][]map[string]any, score func(map[string]any) float64, best int, format, last string) {
	total := make([]float64, len(rep.Algorithms))
	totalRuns := make([]int, len(rep.Algorithms))
	n := 0
	partial := false
	row := func(name string, sums []float64, runs []int, inst int) {
		notes := make([]string, len(sums))
		for i, k := range runs {
			if k < inst {
				notes[i] = fmt.Sprintf(" (%d of %d runs)", k, inst)
				partial = true
			}
		}
		t.addNotedRow(name, sums, notes, best, format)
	}
	for _, d := range rep.Groups {
		sums := make([]float64, len(rep.Algorithms))
		runs := make([]int, len(rep.Algorithms))
		inst := map[string]bool{}
		for _, p := range byDom[d] {
			inst[instance(p)] = true
			sums[rep.algoIndex(p)] += score(p)
			runs[rep.algoIndex(p)]++
		}
		n += len(inst)
		for i := range sums {
			total[i] += sums[i]
			totalRuns[i] += runs[i]
		}
		row(fmt.Sprintf("%s (%d)", d, len(inst)), sums, runs, len(inst))
	}
	row(fmt.Sprintf("%s (%d)", last, n), total, totalRuns, n)
	t.Total[len(t.Total)-1] = true
	if partial {
		t.Note += "; a cell marked (K of N runs) lacks runs of some of the row's instances (not finished, or left out by the filters): its sum is over fewer instances, not comparable with the others, and never emphasized"
	}
}

func (rep *Report) errors() table {
	t := table{Title: "error", Note: "runs per outcome", Header: rep.header("outcome")}
	rep.countRows(&t, func(p map[string]any) string { return attrString(p["error"]) })
	return t
}

// verdicts counts the runs per verdict and algorithm (runs without one by
// their outcome).
func (rep *Report) verdicts() table {
	t := table{Title: "verdict", Note: "runs per verdict; a run that gave none is counted under its outcome", Header: rep.header("verdict")}
	rep.countRows(&t, verdictOf)
	return t
}

// countRows adds to t one row per value of key over the runs, in sorted
// order, with the number of runs of each algorithm that have it.
func (rep *Report) countRows(t *table, key func(map[string]any) string) {
	counts := map[string][]float64{}
	for _, p := range rep.Runs {
		k := key(p)
		if counts[k] == nil {
			counts[k] = make([]float64, len(rep.Algorithms))
		}
		counts[k][rep.algoIndex(p)]++
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.addRow(k, counts[k], 0, "%.0f")
	}
}

// runColumns are the columns of the per-run table: attribute and heading.
var runColumns = []struct{ attr, head string }{
	{"algorithm", "algorithm"}, {"domain", "domain"}, {"problem", "problem"}, {"rep", "rep"},
	{"verdict", "verdict"}, {"error", "outcome"}, {"time", titled("time")}, {"wall_time", titled("wall_time")}, {"memory", titled("memory")},
}

// runRows are the cells of the per-run table and each run's directory
// (relative to the data directory).
func (rep *Report) runRows() ([][]string, []string) {
	var rows [][]string
	var dirs []string
	for _, p := range rep.Runs {
		row := make([]string, len(runColumns))
		for i, c := range runColumns {
			switch c.attr {
			case "verdict":
				row[i] = verdictOf(p)
			case "time", "wall_time":
				f, _ := num(p[c.attr])
				row[i] = strconv.FormatFloat(f, 'f', 3, 64)
			default:
				row[i] = attrString(p[c.attr])
			}
		}
		rows = append(rows, row)
		dirs = append(dirs, attrString(p["run_dir"]))
	}
	return rows, dirs
}

// runLink is the link to a run's files from the report: a relative URL,
// so a '#', '?' or '%' in the data directory's name ("results#2") is
// escaped rather than ending the path.
func (rep *Report) runLink(dir string) string {
	return (&url.URL{Path: filepath.ToSlash(filepath.Join(rep.RunsLink, filepath.FromSlash(dir))) + "/"}).String()
}

func (rep *Report) algoIndex(p map[string]any) int {
	a := attrString(p["algorithm"])
	for i, b := range rep.Algorithms {
		if a == b {
			return i
		}
	}
	return 0
}

// common aggregates attr over the instances of each domain that every
// algorithm solved.
func (rep *Report) common(byDom map[string][]map[string]any, attr, aggName string, agg func([]float64) float64) table {
	t := table{Title: fmt.Sprintf("%s, %s", titled(attr), aggName), Note: fmt.Sprintf("%s over the instances every algorithm solved; (N) is their number", aggName), Header: rep.header(strings.Join(rep.Group, " "))}
	allVals := make([][]float64, len(rep.Algorithms))
	better := -1 // time, memory: less is better
	if slices.Contains(rep.Higher, attr) {
		better = 1
	}
	nAll := 0
	for _, d := range rep.Groups {
		solved := map[string]map[int]float64{}
		for _, p := range byDom[d] {
			if c, _ := num(p["coverage"]); c != 1 {
				continue
			}
			v, ok := num(p[attr])
			if !ok {
				continue
			}
			k := instance(p)
			if solved[k] == nil {
				solved[k] = map[int]float64{}
			}
			solved[k][rep.algoIndex(p)] = v
		}
		vals := make([][]float64, len(rep.Algorithms))
		n := 0
		for _, m := range solved {
			if len(m) != len(rep.Algorithms) {
				continue
			}
			n++
			for i, v := range m {
				vals[i] = append(vals[i], v)
				allVals[i] = append(allVals[i], v)
			}
		}
		nAll += n
		row := make([]float64, len(rep.Algorithms))
		for i := range row {
			row[i] = math.NaN()
			if n > 0 {
				row[i] = agg(vals[i])
			}
		}
		t.addRow(fmt.Sprintf("%s (%d)", d, n), row, better, "")
	}
	row := make([]float64, len(rep.Algorithms))
	for i := range row {
		row[i] = math.NaN()
		if nAll > 0 {
			row[i] = agg(allVals[i])
		}
	}
	t.addRow(fmt.Sprintf("all (%d)", nAll), row, better, "")
	t.Total[len(t.Total)-1] = true
	return t
}

// addRow adds a row; best is +1 to emphasize the largest values, -1 the
// smallest, 0 none.
func (t *table) addRow(name string, vals []float64, best int, format string) {
	t.addNotedRow(name, vals, nil, best, format)
}

// addNotedRow is addRow with a note after some values (nil: none); a
// value with a note is not comparable with the others: it is neither
// emphasized nor what the others are compared with.
func (t *table) addNotedRow(name string, vals []float64, notes []string, best int, format string) {
	note := func(i int) string {
		if notes == nil {
			return ""
		}
		return notes[i]
	}
	row := []string{name}
	marks := []bool{false}
	b := math.NaN()
	var compared []float64
	for i, v := range vals {
		if math.IsNaN(v) || note(i) != "" {
			continue
		}
		compared = append(compared, v)
		if math.IsNaN(b) || best > 0 && v > b || best < 0 && v < b {
			b = v
		}
	}
	if tie(compared) {
		best = 0 // every value compared is the same: none is the best
	}
	for i, v := range vals {
		if math.IsNaN(v) {
			row = append(row, "–"+note(i))
			marks = append(marks, false)
			continue
		}
		f := format
		if f == "" { // adaptive: three significant digits, integers from 100 on
			f = "%.3g"
			if math.Abs(v) >= 100 {
				f = "%.0f"
			}
		}
		row = append(row, fmt.Sprintf(f, v)+note(i))
		marks = append(marks, best != 0 && len(vals) > 1 && v == b && note(i) == "")
	}
	t.Rows = append(t.Rows, row)
	t.Best = append(t.Best, marks)
	t.Total = append(t.Total, false)
}

// tie reports whether vals, the values of a row that are compared for
// the best, are two or more and all equal: a row whose algorithms all
// did the same has no best, and emphasizing every cell of it (as the
// tables did) said each was the best.
func tie(vals []float64) bool {
	if len(vals) < 2 {
		return false
	}
	for _, v := range vals[1:] {
		if v != vals[0] {
			return false
		}
	}
	return true
}

// limit is the time limit of PAR-2 scores: the experiment's CPU limit,
// else the border of the plots (twice the largest time of the runs shown).
func (rep *Report) limit() float64 {
	return rep.border()
}

// par2 sums the PAR-2 scores of each row's runs per algorithm: a run's
// CPU time when it gave a verdict, twice the limit when not.
func (rep *Report) par2(byDom map[string][]map[string]any) table {
	limit := rep.limit()
	penalty := fmt.Sprintf("twice the CPU limit (2 x %s s) when not", strconv.FormatFloat(limit, 'g', -1, 64))
	if rep.x.Limits.CPU <= 0 {
		// No limit to double: say what stands in for it, and that the
		// scores are not comparable with those of an experiment with one.
		penalty = fmt.Sprintf("when not, 2 x %s s: the experiment sets no CPU limit, so twice the largest CPU time of the runs shown stands in for it (not comparable with PAR-2 scores under a real limit)", strconv.FormatFloat(limit, 'g', -1, 64))
	}
	t := table{Title: "par2 (CPU seconds), sum", Note: fmt.Sprintf("PAR-2 scores summed: a run's CPU time when it gave a verdict, %s; less is better; (N) is the number of instances", penalty) + rep.wrongNote(), Header: rep.header(strings.Join(rep.Group, " "))}
	rep.sumRows(&t, byDom, func(p map[string]any) float64 {
		c, _ := num(p["coverage"])
		tm, _ := num(p["time"])
		return stats.PAR2(tm, c == 1, limit)
	}, -1, "", "all")
	return t
}

// ratios gives, per row and algorithm, the median ratio of attr to the
// baseline's over the instances both decided, with their number, and
// how many instances only the algorithm or only the baseline decided.
func (rep *Report) ratios(byDom map[string][]map[string]any, attr string) table {
	base := rep.Baseline
	t := table{Title: fmt.Sprintf("%s ratio to %s, median", titled(attr), base),
		Note:   fmt.Sprintf("the median of each algorithm's %s over %s's, on the instances both decided (a value under %g counts as %g); below 1: faster than %s; in brackets: instances both decided / only this algorithm / only %s", attr, base, stats.MinRatioTime, stats.MinRatioTime, base, base),
		Header: rep.header(strings.Join(rep.Group, " "))}
	type cell struct {
		a, b         []float64
		onlyA, onlyB int
	}
	bi := slices.Index(rep.Algorithms, base)
	higher := slices.Contains(rep.Higher, attr) // the largest ratio is the best
	addRow := func(name string, total bool, cells []cell) {
		row := []string{name}
		marks := []bool{false}
		best := math.NaN()
		meds := make([]float64, len(cells))
		var compared []float64
		for i, c := range cells {
			meds[i] = stats.MedianRatio(c.a, c.b)
			if i != bi && !math.IsNaN(meds[i]) {
				compared = append(compared, meds[i])
			}
			if i != bi && !math.IsNaN(meds[i]) && (math.IsNaN(best) || higher && meds[i] > best || !higher && meds[i] < best) {
				best = meds[i]
			}
		}
		if tie(compared) {
			best = math.NaN() // no cell equals NaN: none emphasized
		}
		for i, c := range cells {
			switch {
			case i == bi:
				row = append(row, "1")
			case math.IsNaN(meds[i]):
				row = append(row, fmt.Sprintf("– (0/%d/%d)", c.onlyA, c.onlyB))
			default:
				row = append(row, fmt.Sprintf("%.3g (%d/%d/%d)", meds[i], len(c.a), c.onlyA, c.onlyB))
			}
			marks = append(marks, i != bi && meds[i] == best)
		}
		t.Rows = append(t.Rows, row)
		t.Best = append(t.Best, marks)
		t.Total = append(t.Total, total)
	}
	all := make([]cell, len(rep.Algorithms))
	for _, d := range rep.Groups {
		// per instance: each algorithm's value when it decided
		vals := map[string]map[int]float64{}
		for _, p := range byDom[d] {
			k := instance(p)
			if vals[k] == nil {
				vals[k] = map[int]float64{}
			}
			if c, _ := num(p["coverage"]); c != 1 {
				continue
			}
			if v, ok := num(p[attr]); ok {
				vals[k][rep.algoIndex(p)] = v
			}
		}
		cells := make([]cell, len(rep.Algorithms))
		for _, m := range vals {
			vb, okB := m[bi]
			for i := range cells {
				if i == bi {
					continue
				}
				va, okA := m[i]
				switch {
				case okA && okB:
					cells[i].a, cells[i].b = append(cells[i].a, va), append(cells[i].b, vb)
				case okA:
					cells[i].onlyA++
				case okB:
					cells[i].onlyB++
				}
			}
		}
		for i, c := range cells {
			all[i].a, all[i].b = append(all[i].a, c.a...), append(all[i].b, c.b...)
			all[i].onlyA += c.onlyA
			all[i].onlyB += c.onlyB
		}
		addRow(d, false, cells)
	}
	addRow("all", true, all)
	return t
}

// Disagreements lists the instances on which runs with a verdict (coverage
// 1) report different values of the answer's attributes (rep.Agree, e.g.
// verdict; for vigil safe --starts: safe,unsafe): one of those algorithms
// is wrong. The repetitions and seeds of a run ask the same question, so
// they are compared too, with each other and across algorithms: an
// algorithm whose repetitions differ is wrong in one of them. Each entry
// reads "INSTANCE: ALGO: VERDICT; ...", an algorithm's distinct answers
// over its repetitions joined by " | ". decided is the number of
// instances with at least two runs with a verdict.
func (rep *Report) Disagreements() (list []string, decided int) {
	type answers struct {
		runs  int
		byAlg map[string][]string // distinct values per algorithm, in run order
	}
	verdicts := map[string]*answers{}
	for _, p := range rep.Runs {
		var vals []string
		for _, a := range rep.Agree {
			if v, ok := p[a]; ok {
				vals = append(vals, a+"="+attrString(v))
			}
		}
		v := strings.Join(vals, " ")
		if c, _ := num(p["coverage"]); c != 1 || len(vals) == 0 {
			continue
		}
		k := attrString(p["domain"]) + "/" + attrString(p["problem"])
		an := verdicts[k]
		if an == nil {
			an = &answers{byAlg: map[string][]string{}}
			verdicts[k] = an
		}
		an.runs++
		alg := attrString(p["algorithm"])
		if !slices.Contains(an.byAlg[alg], v) {
			an.byAlg[alg] = append(an.byAlg[alg], v)
		}
	}
	var keys []string
	for k := range verdicts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		an := verdicts[k]
		if an.runs < 2 {
			continue
		}
		decided++
		distinct := map[string]bool{}
		for _, vs := range an.byAlg {
			for _, v := range vs {
				distinct[v] = true
			}
		}
		if len(distinct) < 2 {
			continue
		}
		var parts []string
		for _, a := range rep.Algorithms {
			if vs, ok := an.byAlg[a]; ok {
				parts = append(parts, a+": "+strings.Join(vs, " | "))
			}
		}
		list = append(list, k+": "+strings.Join(parts, "; "))
	}
	return list, decided
}

// wrongNote warns, in the notes of the tables that count a verdict as
// solved (coverage, PAR-2), that some verdicts counted are wrong: those
// of the instances the algorithms disagree on. A table copied alone
// must not read as if every answer it counts were right.
func (rep *Report) wrongNote() string {
	list, _ := rep.Disagreements()
	if len(list) == 0 {
		return ""
	}
	return fmt.Sprintf("; CAUTION: on %d instances the algorithms disagree (DISAGREEMENT above), so some verdicts counted here as solved are wrong", len(list))
}

// agreement is the report's sentence on verdicts.
func (rep *Report) agreement() string {
	list, decided := rep.Disagreements()
	s := fmt.Sprintf("The algorithms agree on %s wherever two or more decided (%d instances).", strings.Join(rep.Agree, ", "), decided)
	if len(list) > 0 {
		s = fmt.Sprintf("DISAGREEMENT: the algorithms give different answers (%s) on %d of %d instances decided twice or more (one of them is wrong): %s.", strings.Join(rep.Agree, ", "), len(list), decided, strings.Join(list, "; "))
	}
	return s + rep.unchecked()
}

// unchecked notes the runs that count as solved (coverage 1) but report
// none of the answer's attributes (a vigil command without --json): the
// agreement above could not compare them.
func (rep *Report) unchecked() string {
	n := 0
	for _, p := range rep.Runs {
		if c, _ := num(p["coverage"]); c != 1 {
			continue
		}
		has := false
		for _, a := range rep.Agree {
			_, ok := p[a]
			has = has || ok
		}
		if !has {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" %d runs count as solved but report no %s (add --json to their command), so they were not compared.", n, strings.Join(rep.Agree, ", "))
}

// mdText escapes s for Markdown text and table cells: a '|' would split a
// cell, a line break end the row, '<' open raw HTML (hiding "<b>" or
// "<script>"), and '*', '_', '~', '`', '[', ']' and '\\' change what the
// text shows ("__init__" was a bold "init", "~~old~~" struck out).
var mdText = strings.NewReplacer(
	"\\", "\\\\", "|", "\\|", "*", "\\*", "_", "\\_", "~", "\\~", "`", "\\`", "[", "\\[", "]", "\\]",
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "\r\n", " ", "\n", " ", "\r", " ",
)

// mdPara is mdText outside tables, where a '|' is plain text (and the
// disagreement sentence joins an algorithm's answers with " | ").
var mdPara = strings.NewReplacer(
	"\\", "\\\\", "*", "\\*", "_", "\\_", "~", "\\~", "`", "\\`", "[", "\\[", "]", "\\]",
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "\r\n", " ", "\n", " ", "\r", " ",
)

func mdEscape(s string) string { return mdText.Replace(s) }

// mdLink is a link's destination in Markdown: in angle brackets when it
// holds a space or a parenthesis (a data directory "runs (old)"), which
// would end a bare one.
func mdLink(u string) string {
	if !strings.ContainsAny(u, " ()<>") {
		return u
	}
	return "<" + strings.NewReplacer("<", "%3C", ">", "%3E").Replace(u) + ">"
}

// mdCells escapes each cell of a table row.
func mdCells(cells []string) []string {
	out := make([]string, len(cells))
	for i, c := range cells {
		out[i] = mdEscape(c)
	}
	return out
}

// Markdown writes the report's tables.
func (rep *Report) Markdown(w io.Writer) {
	fmt.Fprintf(w, "# Experiment %s\n\n%d runs%s", mdEscape(rep.x.Name), len(rep.Runs), mdPara.Replace(rep.LeftOut()))
	fmt.Fprintf(w, "; algorithms: %s.\n\n%s\n", mdEscape(strings.Join(rep.Algorithms, ", ")), mdPara.Replace(rep.agreement()))
	for _, t := range rep.tables() {
		fmt.Fprintf(w, "\n## %s\n\n%s.\n\n| %s |\n|%s\n", mdPara.Replace(t.Title), mdPara.Replace(t.Note), strings.Join(mdCells(t.Header), " | "), strings.Repeat(" --- |", len(t.Header)))
		for i, r := range t.Rows {
			cells := mdCells(r)
			if t.Total[i] { // "**sum** (32)"
				word, rest, _ := strings.Cut(cells[0], " ")
				cells[0] = strings.TrimSpace("**" + word + "** " + rest)
			}
			for j := range cells {
				if t.Best[i][j] {
					cells[j] = "**" + cells[j] + "**"
				}
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	if rep.HideRuns {
		return
	}
	rows, dirs := rep.runRows()
	const mdColumns = 6 // up to the outcome: the measurements are in the tables above and in report.html
	fmt.Fprintf(w, "\n## runs\n\nEvery run, with a link to its files (report.html also lists each run's time and memory).\n\n|")
	for _, c := range runColumns[:mdColumns] {
		fmt.Fprintf(w, " %s |", mdEscape(c.head))
	}
	fmt.Fprintf(w, " files |\n|%s\n", strings.Repeat(" --- |", mdColumns+1))
	for i, r := range rows {
		link := "–"
		if dirs[i] != "" {
			link = fmt.Sprintf("[%s](%s)", mdEscape(dirs[i]), mdLink(rep.runLink(dirs[i])))
		}
		fmt.Fprintf(w, "| %s | %s |\n", strings.Join(mdCells(r[:mdColumns]), " | "), link)
	}
}

// HTML writes a self-contained page: the tables and the plots inline.
func (rep *Report) HTML(w io.Writer, plots []Plot) {
	fmt.Fprintf(w, "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\"><head><meta charset=\"utf-8\"/><title>%s</title>\n", html.EscapeString(rep.x.Name))
	fmt.Fprint(w, "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}td,th{border:1px solid #bbb;padding:.2em .6em;text-align:right}td:first-child,th:first-child{text-align:left}.best{font-weight:bold;background:#e8f4e8}figure{display:inline-block;margin:1em}</style>\n</head><body>\n")
	fmt.Fprintf(w, "<h1>Experiment %s</h1>\n<p>%d runs%s", html.EscapeString(rep.x.Name), len(rep.Runs), html.EscapeString(rep.LeftOut()))
	fmt.Fprintf(w, "; algorithms: %s.</p>\n<p>%s</p>\n", html.EscapeString(strings.Join(rep.Algorithms, ", ")), html.EscapeString(rep.agreement()))
	for _, t := range rep.tables() {
		fmt.Fprintf(w, "<h2>%s</h2>\n<p>%s.</p>\n<table>\n<tr>", html.EscapeString(t.Title), html.EscapeString(t.Note))
		for _, h := range t.Header {
			fmt.Fprintf(w, "<th>%s</th>", html.EscapeString(h))
		}
		fmt.Fprint(w, "</tr>\n")
		for i, r := range t.Rows {
			fmt.Fprint(w, "<tr>")
			for j, c := range r {
				cls := ""
				if t.Best[i][j] {
					cls = ` class="best"`
				}
				fmt.Fprintf(w, "<td%s>%s</td>", cls, html.EscapeString(c))
			}
			fmt.Fprint(w, "</tr>\n")
		}
		fmt.Fprint(w, "</table>\n")
	}
	rows, dirs := rep.runRows()
	fmt.Fprint(w, "<h2 id=\"runs\">runs</h2>\n<p>Every run, with a link to its files.</p>\n<table class=\"runs\">\n<tr>")
	for _, c := range runColumns {
		fmt.Fprintf(w, "<th>%s</th>", html.EscapeString(c.head))
	}
	fmt.Fprint(w, "<th>files</th></tr>\n")
	for i, r := range rows {
		fmt.Fprint(w, "<tr>")
		for _, c := range r {
			fmt.Fprintf(w, "<td>%s</td>", html.EscapeString(c))
		}
		if dirs[i] == "" {
			fmt.Fprint(w, "<td>–</td></tr>\n")
			continue
		}
		fmt.Fprintf(w, "<td><a href=\"%s\">%s</a></td></tr>\n", html.EscapeString(rep.runLink(dirs[i])), html.EscapeString(dirs[i]))
	}
	fmt.Fprint(w, "</table>\n")
	for _, p := range plots {
		svg := p.SVG
		if i := strings.Index(svg, "<svg"); i > 0 {
			svg = svg[i:] // the XML declaration has no place inside HTML
		}
		fmt.Fprintf(w, "<figure>%s<figcaption>%s</figcaption></figure>\n", svg, html.EscapeString(p.Title))
	}
	fmt.Fprint(w, "</body></html>\n")
}

// CSV writes every run of the report as a row: the id and the attributes.
// The derived attributes are per run what they are made of: par2 the
// run's PAR-2 score, ratio (an aggregate over instances) the time it
// divides, ratio:ATTR the attribute.
func (rep *Report) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"algorithm", "domain", "problem", "rep", "verdict"}
	for _, a := range rep.Attributes {
		if a == AttrRatio {
			a = "time"
		} else if b, ok := strings.CutPrefix(a, AttrRatio+":"); ok && b != "" {
			a = b
		}
		if !slices.Contains(head, a) {
			head = append(head, a)
		}
	}
	cw.Write(csvCells(head))
	limit := rep.limit()
	for _, p := range rep.Runs {
		row := make([]string, len(head))
		for i, a := range head {
			switch a {
			case "verdict":
				if attrString(p["verdict"]) != "" {
					row[i] = verdictOf(p) // "safe (not counted: timeout)" past the limit
				}
			case AttrPAR2:
				c, _ := num(p["coverage"])
				tm, _ := num(p["time"])
				row[i] = strconv.FormatFloat(stats.PAR2(tm, c == 1, limit), 'g', -1, 64)
			default:
				row[i] = attrString(p[a])
			}
		}
		cw.Write(csvCells(row))
	}
	cw.Flush()
	return cw.Error()
}

// csvCells makes the cells of a runs.csv row safe to open in a
// spreadsheet: a text cell that starts with =, +, -, @, a tab or a
// carriage return is a formula to LibreOffice Calc and Excel (a problem
// file named "=HYPERLINK(...).spec", an error message "-x ..." from a
// run's output), which they evaluate on opening; such a cell, and one that
// starts with ' already, gets a ' in front, which a spreadsheet shows as
// text (OWASP's CSV injection advice). Numbers (-1.5, +3, 1e-05) stay as
// they are, so a numeric column is still numeric. A script undoes it
// exactly: drop one leading ' of a cell that starts with one (pandas:
// df[c].str.removeprefix("'") on a text column).
func csvCells(cells []string) []string {
	for i, c := range cells {
		if csvGuarded(c) {
			cells[i] = "'" + c
		}
	}
	return cells
}

// csvGuarded reports whether a runs.csv cell needs the ' of csvCells.
func csvGuarded(c string) bool {
	if c == "" || !strings.ContainsRune("=+-@\t\r'", rune(c[0])) {
		return false
	}
	if c[0] == '+' || c[0] == '-' {
		if _, err := strconv.ParseFloat(c, 64); err == nil && strings.Trim(c, "+-0123456789.eE") == "" {
			return false // a number: -1.5, +3, -2e-07
		}
	}
	return true
}

// Write writes report.md, report.html, runs.csv and the SVG plots into
// dir and returns the files written.
func (rep *Report) Write(dir string) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	plots, err := rep.Plots()
	if err != nil {
		return nil, err
	}
	if rel, err := filepath.Rel(dir, rep.x.Data); err == nil {
		rep.RunsLink = rel
	}
	var files []string
	put := func(name string, write func(io.Writer) error) error {
		var b strings.Builder
		if err := write(&b); err != nil {
			return err
		}
		path := filepath.Join(dir, name)
		files = append(files, path)
		return writeAtomic(nil, path, []byte(b.String()))
	}
	if err := put("report.md", func(w io.Writer) error { rep.Markdown(w); return nil }); err != nil {
		return nil, err
	}
	if err := put("report.html", func(w io.Writer) error { rep.HTML(w, plots); return nil }); err != nil {
		return nil, err
	}
	if err := put("runs.csv", rep.CSV); err != nil {
		return nil, err
	}
	for _, p := range plots {
		svg := p.SVG
		if err := put(p.File, func(w io.Writer) error { _, err := io.WriteString(w, svg); return err }); err != nil {
			return nil, err
		}
	}
	return files, nil
}
