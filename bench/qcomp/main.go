// Command qvbs is an external conformance harness: it runs vigil's JANI
// import, `vigil explore` and `vigil prob` on the Quantitative Verification
// Benchmark Set (QVBS, qcomp.org, CC-BY 4.0) and compares the answers with
// the results Storm published there.
//
//	go run ./bench/qcomp --qvbs /tmp/qvbs/benchmarks > report.md
//
// (or VIGIL_QVBS=/tmp/qvbs/benchmarks go run ./bench/qcomp). For every MDP
// and DTMC instance (a file with one open-parameter setting) whose Storm
// state count is within --max-states it compares
//
//   - the state count: Storm builds the model for the properties it checks,
//     and with exactly one property it stops at that property's goal states
//     (BuilderOptions::setTerminalStatesFromFormula), so vigil explores with
//     `--property NAME` where Storm's run checked only NAME and without one
//     otherwise;
//   - every property's value: `vigil prob --property all --json` (interval
//     iteration) and, where Storm has an exact answer and the model is small
//     enough, `--method exact`. An exact Storm value must equal vigil's exact
//     rational, or lie within vigil's sound [lower, upper]; a float Storm
//     value (non-exact runs, Storm's default precision 1e-6 relative) must be
//     within 1e-6 relative of vigil's value or its bounds.
//
// CTMC, MA and PTA files are loaded once each to check that vigil refuses
// them clearly; refusals are counted by reason. Nothing is written: the
// report (Markdown) goes to stdout, progress to stderr.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/big"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

type options struct {
	dir       string
	vigil     string
	maxStates int
	maxExact  int
	timeout   time.Duration
	jobs      int
	only      *regexp.Regexp
}

func main() {
	var o options
	var only string
	flag.StringVar(&o.dir, "qvbs", os.Getenv("VIGIL_QVBS"), "the benchmark set's benchmarks/ folder (holding mdp/, dtmc/, ...); default $VIGIL_QVBS")
	flag.StringVar(&o.vigil, "vigil", "", "the vigil binary (default: go build ./cmd/vigil into a temporary folder)")
	flag.IntVar(&o.maxStates, "max-states", 1000000, "run only instances whose Storm state count is at most this (and give vigil this --max-states)")
	flag.IntVar(&o.maxExact, "max-exact", 3000, "run vigil prob --method exact where Storm has exact values and the model has at most this many states")
	flag.DurationVar(&o.timeout, "timeout", 120*time.Second, "per vigil run")
	flag.IntVar(&o.jobs, "j", 1, "instances run at once")
	flag.StringVar(&only, "only", "", "only instances whose name (e.g. mdp/consensus/consensus.2.jani K=2) matches this regular expression")
	flag.Parse()
	if o.dir == "" {
		fmt.Fprintln(os.Stderr, "qvbs: no benchmark set: give --qvbs DIR or set VIGIL_QVBS to the QVBS benchmarks/ folder (see bench/qcomp/README.md)")
		os.Exit(2)
	}
	if only != "" {
		re, err := regexp.Compile(only)
		if err != nil {
			fmt.Fprintln(os.Stderr, "qvbs: --only:", err)
			os.Exit(2)
		}
		o.only = re
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if o.vigil == "" {
		tmp, err := os.MkdirTemp("", "qvbs-vigil")
		if err != nil {
			fmt.Fprintln(os.Stderr, "qvbs:", err)
			os.Exit(1)
		}
		defer os.RemoveAll(tmp)
		o.vigil = filepath.Join(tmp, "vigil")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", o.vigil, "./cmd/vigil")
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "qvbs: building vigil (run from the repository root):", err)
			os.Exit(1)
		}
	}
	insts, err := load(o.dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qvbs:", err)
		os.Exit(1)
	}
	if len(insts) == 0 {
		fmt.Fprintf(os.Stderr, "qvbs: no benchmarks (*/*/index.json) under %s\n", o.dir)
		os.Exit(1)
	}
	start := time.Now()
	outs := run(ctx, &o, insts)
	report(os.Stdout, &o, outs, time.Since(start))
	if ctx.Err() != nil {
		os.Exit(130)
	}
}

// outcome is what happened to one instance.
type outcome struct {
	in      *instance
	skipped string // not run: absent from the mirror, over the state limit, filtered
	refused string // vigil refused to load it (normalised reason)
	states  int    // vigil's count, -1 if none
	cut     int    // vigil's count with Storm's one property selected
	cutErr  string
	stateSt string // agree, differ, limit, unknown (no Storm count)
	explore string // the explore command
	probCmd string
	props   []propOutcome
}

type propOutcome struct {
	name   string
	status string // agree: ..., disagree, refused, timeout
	reason string
	vigil  string
	storm  string
	// iiTimeout: interval iteration timed out and the value compared is
	// the exact method's
	iiTimeout bool
}

func run(ctx context.Context, o *options, insts []*instance) []*outcome {
	outs := make([]*outcome, len(insts))
	refusedFile := map[string]string{} // non-discrete types: one load per file
	var mu sync.Mutex
	sem := make(chan struct{}, max(o.jobs, 1))
	var wg sync.WaitGroup
	for i, in := range insts {
		out := &outcome{in: in, states: -1}
		outs[i] = out
		if o.only != nil && !o.only.MatchString(in.name()) {
			out.skipped = "filtered out (--only)"
			continue
		}
		if _, err := os.Stat(in.file); err != nil {
			out.skipped = "file absent from the mirror (too large for it)"
			continue
		}
		if in.typ != "mdp" && in.typ != "dtmc" {
			mu.Lock()
			r, seen := refusedFile[in.file]
			mu.Unlock()
			if !seen {
				r = refusal(ctx, o, in)
				mu.Lock()
				refusedFile[in.file] = r
				mu.Unlock()
			}
			if r == "" {
				r = "loaded (not refused)"
			}
			out.refused = r
			continue
		}
		if in.stormStates < 0 && len(in.values) == 0 {
			out.skipped = "no Storm result for this setting"
			continue
		}
		if in.stormStates > o.maxStates {
			out.skipped = fmt.Sprintf("Storm has more than %d states", o.maxStates)
			continue
		}
		if ctx.Err() != nil {
			out.skipped = "interrupted"
			continue
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			fmt.Fprintf(os.Stderr, "qvbs: %s\n", in.name())
			check(ctx, o, in, out)
		}()
	}
	wg.Wait()
	return outs
}

// exec runs vigil with args, returning stdout, stderr and the exit code.
func vigil(ctx context.Context, o *options, args ...string) ([]byte, string, int) {
	ctx, cancel := context.WithTimeout(ctx, o.timeout+30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, o.vigil, args...)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
	}
	return stdout.Bytes(), stderr.String(), code
}

func quote(args []string) string {
	var b strings.Builder
	b.WriteString("vigil")
	for _, a := range args {
		b.WriteByte(' ')
		if strings.ContainsAny(a, " \"'=<>|&;") && !strings.HasPrefix(a, "-") && !strings.Contains(a, "=") {
			fmt.Fprintf(&b, "%q", a)
		} else {
			b.WriteString(a)
		}
	}
	return b.String()
}

// loadError is vigil's --json error object.
type loadError struct {
	Error string `json:"error"`
}

var (
	quoted   = regexp.MustCompile(`"[^"]*"`)
	position = regexp.MustCompile(`^.*?\.jani[^ ]*:\d+:\d+: (error\[\w+\]: )?`)
	propName = regexp.MustCompile(`property \S+ `)
	digits   = regexp.MustCompile(`\d+`)
)

// reason normalises an error message so that refusals group: names and
// numbers vanish, the model type stays.
func reason(msg string) string {
	msg = strings.TrimSpace(msg)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(msg, "prob: ")
	msg = position.ReplaceAllString(msg, "")
	if !strings.HasPrefix(msg, "model type") {
		msg = quoted.ReplaceAllString(msg, "X")
	}
	msg = propName.ReplaceAllString(msg, "property P ")
	msg = digits.ReplaceAllString(msg, "N")
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return msg
}

// refusal loads a file vigil is expected to refuse and returns its reason
// ("" if vigil loaded it).
func refusal(ctx context.Context, o *options, in *instance) string {
	args := append([]string{"explore", in.file}, in.defines()...)
	args = append(args, "--json", "--quiet", "--max-states", "1", "--timeout", o.timeout.String())
	stdout, stderr, code := vigil(ctx, o, args...)
	var e loadError
	if json.Unmarshal(stdout, &e) == nil && e.Error != "" {
		return reason(e.Error)
	}
	if code == 0 || code == 4 {
		return ""
	}
	return reason(fmt.Sprintf("exit %d: %s", code, lastLine(stderr)))
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

type exploreJSON struct {
	States   int  `json:"states"`
	Complete bool `json:"complete"`
}

type probJSON struct {
	Property string          `json:"property"`
	Value    json.RawMessage `json:"value"`
	Lower    json.RawMessage `json:"lower"`
	Upper    json.RawMessage `json:"upper"`
	Exact    string          `json:"exact"`
	Holds    string          `json:"holds"`
	States   int             `json:"states"`
}

// explore runs vigil explore and returns the state count (-1 at the
// state limit or timeout) or the reason it refused the model.
func explore(ctx context.Context, o *options, args []string) (int, string) {
	stdout, stderr, code := vigil(ctx, o, args...)
	var e loadError
	var ex exploreJSON
	switch {
	case json.Unmarshal(stdout, &e) == nil && e.Error != "" && code != 4:
		return -1, reason(e.Error)
	case code == 4 || code < 0:
		return -1, ""
	case code != 0 || json.Unmarshal(stdout, &ex) != nil:
		return -1, reason(fmt.Sprintf("explore exit %d: %s", code, lastLine(stderr)))
	case !ex.Complete:
		return -1, ""
	}
	return ex.States, ""
}

func check(ctx context.Context, o *options, in *instance, out *outcome) {
	// (a) state count: the whole model, then (where Storm's run checked
	// one property and the whole model differs) with that property's goal
	// and unsafe states terminal.
	args := append([]string{"explore", in.file}, in.defines()...)
	args = append(args, "--json", "--quiet", "--max-states", fmt.Sprint(o.maxStates), "--timeout", o.timeout.String())
	n, refused := explore(ctx, o, args)
	out.explore = quote(args)
	startsOnly := false
	if refused != "" && strings.Contains(refused, "restricts its start states") && in.stormSingle != "" {
		// no initial values (herman): only a property gives the start
		// states, so there is no whole model to count; Storm's run
		// checked one property, and its count is that property's
		cut := append(append([]string{}, args[:2]...), "--property", in.stormSingle)
		cut = append(cut, args[2:]...)
		n, refused = explore(ctx, o, cut)
		out.explore, out.cut, startsOnly = quote(cut), n, true
	}
	if refused != "" {
		out.refused = refused
		return
	}
	out.states = n
	switch {
	case startsOnly && n == in.stormStates:
		out.stateSt = "agree (goal states terminal)"
	case startsOnly && n >= 0:
		out.stateSt = "differ"
	case n < 0:
		out.stateSt = "limit"
	case in.stormStates < 0:
		out.stateSt = "no Storm count"
	case n == in.stormStates:
		out.stateSt = "agree (whole model)"
	case in.stormSingle != "":
		cut := append(append([]string{}, args[:2]...), "--property", in.stormSingle)
		cut = append(cut, args[2:]...)
		m, refused := explore(ctx, o, cut)
		out.cut = m
		switch {
		case refused != "":
			out.stateSt = "differ"
			out.cutErr = refused
		case m == in.stormStates:
			out.stateSt = "agree (goal states terminal)"
			out.explore = quote(cut)
		case m < 0:
			out.stateSt = "limit"
		default:
			out.stateSt = "differ"
		}
	default:
		out.stateSt = "differ"
	}

	// (b) values
	props := map[string]*propOutcome{}
	var names []string
	for name, v := range in.values {
		props[name] = &propOutcome{name: name, storm: v.String()}
		names = append(names, name)
	}
	sort.Strings(names)
	base := append([]string{"prob", in.file}, in.defines()...)
	base = append(base, "--property", "all", "--json", "--quiet", "--max-states", fmt.Sprint(o.maxStates), "--timeout", o.timeout.String())
	out.probCmd = quote(base)
	ii, skips, pcode := prob(ctx, o, base)
	var exact map[string]probJSON
	wantExact := false
	for _, v := range in.values {
		if v.kind == "exact" {
			wantExact = true
		}
	}
	small := out.states >= 0 && out.states <= o.maxExact
	for _, p := range ii {
		if p.States > o.maxExact {
			small = false
		}
	}
	if wantExact && small {
		ex, _, _ := prob(ctx, o, append(append([]string{}, base...), "--method", "exact", "--max-exact", fmt.Sprint(o.maxExact)))
		exact = map[string]probJSON{}
		for _, p := range ex {
			exact[p.Property] = p
		}
	}
	got := map[string]probJSON{}
	for _, p := range ii {
		got[p.Property] = p
	}
	for _, name := range names {
		po := props[name]
		sv := in.values[name]
		p, ok := got[vigilName(name, got)]
		if q, okq := exact[vigilName(name, exact)]; !ok && okq && q.Exact != "" {
			// interval iteration gave no answer (timeout); exact did
			p, ok = q, true
			po.iiTimeout = true
		}
		if !ok {
			if r, ok := skips[vigilName(name, skips)]; ok {
				po.status, po.reason = "refused", r
			} else if pcode == 4 || pcode < 0 {
				po.status = "timeout"
			} else if r, ok := skips[""]; ok {
				po.status, po.reason = "refused", r
			} else {
				po.status, po.reason = "refused", fmt.Sprintf("no answer (exit %d)", pcode)
			}
			continue
		}
		if q, ok := exact[vigilName(name, exact)]; ok && q.Exact != "" {
			p = q
		}
		po.status, po.vigil = compare(sv, p)
	}
	for _, name := range names {
		out.props = append(out.props, *props[name])
	}
}

var nonIdent = regexp.MustCompile(`[^A-Za-z0-9_]`)

// vigilName is the key of m under which vigil reports the JANI property
// name: vigil makes JANI names identifiers (a name that is a keyword of
// its .spec language gets a "_", as "goal_").
func vigilName[T any](name string, m map[string]T) string {
	id := nonIdent.ReplaceAllString(name, "_")
	for _, k := range []string{name, name + "_", id, id + "_"} {
		if _, ok := m[k]; ok {
			return k
		}
	}
	return name
}

var (
	skipLine    = regexp.MustCompile(`skipped: .*?property (\S+) (.*)$`)
	notImported = regexp.MustCompile(`property "([^"]+)" (not imported: .*)$`)
)

// prob runs vigil prob and returns its answers, the properties it skipped
// (name -> reason) and its exit code.
func prob(ctx context.Context, o *options, args []string) ([]probJSON, map[string]string, int) {
	stdout, stderr, code := vigil(ctx, o, args...)
	skips := map[string]string{}
	for _, l := range strings.Split(stderr, "\n") {
		if m := skipLine.FindStringSubmatch(l); m != nil {
			skips[m[1]] = reason("property P " + m[2])
		} else if m := notImported.FindStringSubmatch(l); m != nil {
			skips[m[1]] = reason("property P " + m[2])
		}
	}
	var ps []probJSON
	if err := json.Unmarshal(stdout, &ps); err != nil {
		var p probJSON
		var e loadError
		if json.Unmarshal(stdout, &e) == nil && e.Error != "" {
			skips[""] = reason(e.Error)
		} else if json.Unmarshal(stdout, &p) == nil && p.Property != "" {
			ps = append(ps, p)
		} else if code != 4 {
			skips[""] = reason(fmt.Sprintf("prob exit %d: %s", code, lastLine(stderr)))
		}
	}
	return ps, skips, code
}

// jsonFloat reads a JSON number or one of the strings vigil may print for
// an infinite value.
func jsonFloat(m json.RawMessage) (float64, bool) {
	var f float64
	if json.Unmarshal(m, &f) == nil {
		return f, true
	}
	var s string
	if json.Unmarshal(m, &s) == nil {
		switch strings.ToLower(strings.TrimPrefix(s, "+")) {
		case "inf", "infinity", "∞":
			return math.Inf(1), true
		}
	}
	return 0, false
}

const rel = 1e-6

// compare decides whether vigil's answer p agrees with Storm's v.
func compare(v value, p probJSON) (status, vigil string) {
	val, okv := jsonFloat(p.Value)
	lo, okl := jsonFloat(p.Lower)
	hi, okh := jsonFloat(p.Upper)
	vigil = fmt.Sprintf("%.10g", val)
	if okl && okh && lo != hi {
		vigil += fmt.Sprintf(" [%.10g, %.10g]", lo, hi)
	}
	if p.Exact != "" {
		vigil = p.Exact
		if len(vigil) > 40 {
			vigil = vigil[:18] + "…" + vigil[len(vigil)-18:]
		}
		vigil += fmt.Sprintf(" (≈%.10g)", val)
	}
	switch v.kind {
	case "bool":
		if p.Holds == "" {
			return "disagree", vigil + " (no truth value)"
		}
		if (p.Holds == "true") == v.b {
			return "agree: equal to Storm's exact value or truth value", p.Holds
		}
		return "disagree", p.Holds
	case "inf":
		if okv && math.IsInf(val, 1) {
			return "agree: equal to Storm's exact value or truth value", "∞"
		}
		return "disagree", vigil
	case "exact":
		if p.Exact != "" {
			q, ok := new(big.Rat).SetString(p.Exact)
			if ok && q.Cmp(v.q) == 0 {
				return "agree: equal to Storm's exact value or truth value", vigil
			}
			return "disagree", vigil
		}
		if !okv {
			return "disagree", vigil
		}
		// vigil's bounds are sound up to float rounding: allow a few ulps.
		slack := 1e-12 * math.Max(math.Abs(v.f), 1e-300)
		if okl && okh && lo-slack <= v.f && v.f <= hi+slack && near(val, v.f) {
			return "agree: Storm's exact value within vigil's sound bounds", vigil
		}
		return "disagree", vigil
	}
	if !okv {
		return "disagree", vigil
	}
	if near(val, v.f) || (okl && okh && lo-rel*math.Abs(v.f) <= v.f && v.f <= hi+rel*math.Abs(v.f)) {
		return "agree: within 1e-6 (relative) of Storm's float", vigil
	}
	return "disagree", vigil
}

func near(a, b float64) bool {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a == b
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b)) || math.Abs(a-b) <= 1e-15
}
