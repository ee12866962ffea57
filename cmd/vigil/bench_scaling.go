package main

// vigil bench ic3 --scale: the scaling benchmark of issue 27. Every file
// runs at each value of its scaling constant; ic3, ic3-nog and bfs run as
// whole vigil verify processes, Spacer as the z3 binary on the CHC export,
// all under the same wall-clock limit. The table gives each engine's
// verdict and time, the summary the solved counts, PAR-2 scores (time of a
// solved run, twice the limit for an unsolved one) and the median time
// ratios ic3/Spacer and ic3/bfs over the instances both decided.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"vigil/ic3"
	"vigil/symbolic"
)

// scaleFlag holds --scale NAME=V1,V2,...: per constant name, its values.
type scaleFlag map[string][]string

func (s scaleFlag) String() string { return "" }

func (s scaleFlag) Set(v string) error {
	name, vals, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.TrimSpace(vals) == "" {
		return fmt.Errorf("want NAME=V1,V2,..., got %q", v)
	}
	for _, x := range strings.Split(vals, ",") {
		x = strings.TrimSpace(x)
		n, err := parseScale(x)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		s[name] = append(s[name], strconv.FormatInt(n, 10))
	}
	return nil
}

// parseScale reads a whole number, also written 1e6 or 10^6, up to 2^53.
func parseScale(x string) (int64, error) {
	if n, err := strconv.ParseInt(x, 10, 64); err == nil {
		return n, nil
	}
	bad := fmt.Errorf("want a whole number (1000, 1e6, 10^9), got %q", x)
	b, e, ok := strings.Cut(x, "^")
	if !ok {
		b, e, ok = strings.Cut(strings.ToLower(x), "e")
		if !ok {
			return 0, bad
		}
		// mantissa e exponent: mantissa * 10^exp
		mant, err1 := strconv.ParseInt(b, 10, 64)
		k, err2 := strconv.ParseInt(e, 10, 64)
		if err1 != nil || err2 != nil || k < 0 {
			return 0, bad
		}
		n := mant
		for range k {
			if n *= 10; n > 1<<53 || n < -(1<<53) {
				return 0, fmt.Errorf("%q is beyond 2^53", x)
			}
		}
		return n, nil
	}
	base, err1 := strconv.ParseInt(b, 10, 64)
	exp, err2 := strconv.ParseInt(e, 10, 64)
	if err1 != nil || err2 != nil || exp < 0 {
		return 0, bad
	}
	n := int64(1)
	for range exp {
		if n *= base; n > 1<<53 || n < -(1<<53) {
			return 0, fmt.Errorf("%q is beyond 2^53", x)
		}
	}
	return n, nil
}

// scaleRow is one instance of the scaling benchmark.
type scaleRow struct {
	File     string             `json:"file"`
	Defines  string             `json:"defines"`
	Model    string             `json:"model"`
	Property string             `json:"property"`
	Policy   string             `json:"policy"`
	Log2Size float64            `json:"log2_state_space"`
	Runs     map[string]peerRun `json:"runs"` // by engine: ic3, ic3-nog, bfs, spacer
	Disagree bool               `json:"disagree,omitempty"`
}

var scaleEngines = []string{"ic3", "ic3-nog", "bfs", "spacer"}

// scaleSummary is the per-engine summary of a scaling run.
type scaleSummary struct {
	Engine string  `json:"engine"`
	Solved int     `json:"solved"`
	PAR2   float64 `json:"par2_seconds"` // sum over the instances
	// Large: the same over the instances of 10^6 states and more.
	SolvedLarge int     `json:"solved_large"`
	PAR2Large   float64 `json:"par2_large_seconds"`
}

func benchScaling(e *env, ctx context.Context, prog *progress, files []string, defs defines, scale scaleFlag, bin, tmp string, limit time.Duration, maxStates int, jsonOut bool) int {
	if bin == "" {
		var err error
		if bin, err = os.Executable(); err != nil {
			fmt.Fprintf(e.stderr, "vigil bench ic3: %v (give --vigil PATH)\n", err)
			return exitFor(err)
		}
	}
	var rows []scaleRow
	for _, file := range files {
		base := loadModel(e, file, defs)
		if base == nil {
			return exitError
		}
		// The file's scaling constants and their values.
		var names []string
		for _, c := range base.Consts {
			if _, ok := scale[c.Name]; ok {
				names = append(names, c.Name)
			}
		}
		sizes := []defines{{}}
		for _, n := range names {
			var next []defines
			for _, d := range sizes {
				for _, v := range scale[n] {
					nd := defines{}
					for k, x := range d {
						nd[k] = x
					}
					nd[n] = v
					next = append(next, nd)
				}
			}
			sizes = next
		}
		for _, size := range sizes {
			all := defines{}
			for k, v := range defs {
				all[k] = v
			}
			for k, v := range size {
				all[k] = v
			}
			m := loadModel(e, file, all)
			if m == nil {
				return exitError
			}
			var pols []*symbolic.PolicyDecl
			for _, d := range m.Policies {
				if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
					pols = append(pols, d)
				}
			}
			if len(m.Policies) == 0 {
				pols = []*symbolic.PolicyDecl{nil}
			}
			for _, prop := range m.Properties {
				if ic3.Validate(m, prop, nil) != nil {
					continue
				}
				for _, pd := range pols {
					if ctx.Err() != nil {
						break
					}
					_, l2 := m.StateSpaceSize()
					row := scaleRow{File: file, Defines: defText(size), Model: m.Name, Property: prop.Name, Policy: policyName(pd), Log2Size: l2, Runs: map[string]peerRun{}}
					args := []string{"verify", file, "--property", prop.Name, "--json", "--timeout", limit.String()}
					if pd != nil {
						args = append(args, "--policy", pd.Name)
					}
					for _, k := range sortedKeys(all) {
						args = append(args, "-D", k+"="+all[k])
					}
					for _, eng := range []string{"ic3", "ic3-nog", "bfs"} {
						prog.printf("bench ic3: %s %s %s: %s", m.Name, row.Defines, policyName(pd), eng)
						a := append(slices.Clone(args), "--engine", eng)
						if eng == "bfs" {
							a = append(a, "--max-states", strconv.Itoa(maxStates))
						}
						row.Runs[eng] = verifyProcess(ctx, bin, a, limit)
					}
					prog.printf("bench ic3: %s %s %s: spacer", m.Name, row.Defines, policyName(pd))
					row.Runs["spacer"] = benchSpacer(ctx, filepath.Join(tmp, fmt.Sprintf("q%d.smt2", len(rows))), m, prop, pd, limit)
					verdict := ""
					for _, eng := range scaleEngines {
						v := row.Runs[eng].Verdict
						if v != "safe" && v != "unsafe" {
							continue
						}
						if verdict != "" && v != verdict {
							row.Disagree = true
						}
						verdict = v
					}
					rows = append(rows, row)
				}
			}
		}
	}
	prog.clear()
	sums := scaleSummarize(rows, limit)
	disagree := slices.ContainsFunc(rows, func(r scaleRow) bool { return r.Disagree })
	if jsonOut {
		b, _ := json.MarshalIndent(map[string]any{"limit_seconds": limit.Seconds(), "rows": rows, "summary": sums,
			"median_ic3_over_spacer": medianRatio(rows, "ic3", "spacer", 0), "median_ic3_over_spacer_large": medianRatio(rows, "ic3", "spacer", 6*math.Log2(10)),
			"median_ic3_over_bfs": medianRatio(rows, "ic3", "bfs", 0)}, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printScaling(e, rows, sums, limit)
	}
	if disagree {
		return internalError(e, "bench ic3", "the engines disagree (rows marked DISAGREE)")
	}
	return exitOK
}

func sortedKeys(d defines) []string {
	ks := make([]string, 0, len(d))
	for k := range d {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func defText(d defines) string {
	var parts []string
	for _, k := range sortedKeys(d) {
		parts = append(parts, k+"="+d[k])
	}
	return strings.Join(parts, " ")
}

// verifyProcess runs bin with args (a vigil verify --json) and reads its
// verdict; the time is the process's wall-clock time. The process gets
// its own --timeout; the context kills it a little after that.
func verifyProcess(ctx context.Context, bin string, args []string, limit time.Duration) peerRun {
	ctx, cancel := context.WithTimeout(ctx, limit+5*time.Second)
	defer cancel()
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	r := peerRun{Seconds: time.Since(t0).Seconds()}
	var rep struct {
		Verdict string                `json:"verdict"`
		Reason  string                `json:"reason"`
		Error   string                `json:"error"`
		Bfs     *struct{ States int } `json:"bfs"`
	}
	if jerr := json.Unmarshal(stdout.Bytes(), &rep); jerr != nil {
		r.Verdict = "error"
		r.Note = strings.TrimSpace(stderr.String())
		if ctx.Err() != nil {
			r.Verdict, r.Note = "unknown", "killed at the limit"
		} else if r.Note == "" && err != nil {
			r.Note = err.Error()
		}
		return r
	}
	switch rep.Verdict {
	case "safe", "unsafe":
		r.Verdict = rep.Verdict
	case "":
		r.Verdict, r.Note = "error", rep.Error
	default:
		r.Verdict, r.Note = "unknown", rep.Reason
	}
	return r
}

func decided(r peerRun) bool { return r.Verdict == "safe" || r.Verdict == "unsafe" }

// large reports whether the instance has 10^6 states or more.
func large(r scaleRow) bool { return r.Log2Size >= 6*math.Log2(10) }

func scaleSummarize(rows []scaleRow, limit time.Duration) []scaleSummary {
	var out []scaleSummary
	for _, eng := range scaleEngines {
		s := scaleSummary{Engine: eng}
		for _, r := range rows {
			run := r.Runs[eng]
			t := 2 * limit.Seconds()
			if decided(run) {
				t = run.Seconds
				s.Solved++
				if large(r) {
					s.SolvedLarge++
				}
			}
			s.PAR2 += t
			if large(r) {
				s.PAR2Large += t
			}
		}
		out = append(out, s)
	}
	return out
}

// medianRatio is the median of a's time over b's on the instances both
// decided, among those of at least 2^minLog2 states.
func medianRatio(rows []scaleRow, a, b string, minLog2 float64) float64 {
	var xs []float64
	for _, r := range rows {
		if r.Log2Size < minLog2 {
			continue
		}
		if ra, rb := r.Runs[a], r.Runs[b]; decided(ra) && decided(rb) && rb.Seconds > 0 {
			xs = append(xs, ra.Seconds/rb.Seconds)
		}
	}
	return median(xs)
}

func printScaling(e *env, rows []scaleRow, sums []scaleSummary, limit time.Duration) {
	w := e.stdout
	cell := func(r peerRun) string {
		switch {
		case decided(r):
			return fmt.Sprintf("%s %.2fs", r.Verdict, r.Seconds)
		case r.Verdict == "error":
			return "error"
		}
		return "-"
	}
	fmt.Fprintln(w, "| model | constants | policy | log2 states | ic3 | ic3-nog | bfs | spacer | ic3/spacer |")
	fmt.Fprintln(w, "|---|---|---|---:|---|---|---|---|---:|")
	for _, r := range rows {
		pol := r.Policy
		if pol == "" {
			pol = "(all labels)"
		}
		ratio := "-"
		if a, b := r.Runs["ic3"], r.Runs["spacer"]; decided(a) && decided(b) && b.Seconds > 0 {
			ratio = fmt.Sprintf("%.2f", a.Seconds/b.Seconds)
		}
		cols := []string{r.Model, r.Defines, pol, fmt.Sprintf("%.1f", r.Log2Size)}
		for _, eng := range scaleEngines {
			cols = append(cols, cell(r.Runs[eng]))
		}
		cols = append(cols, ratio)
		if r.Disagree {
			cols = append(cols, "DISAGREE")
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cols, " | "))
	}
	nl := 0
	for _, r := range rows {
		if large(r) {
			nl++
		}
	}
	fmt.Fprintf(w, "\n%d instances (%d of 10^6 states or more), limit %s per run; PAR-2: time when solved, %s when not\n\n", len(rows), nl, limit, 2*limit)
	fmt.Fprintln(w, "| engine | solved | PAR-2 (s) | solved, >= 10^6 states | PAR-2, >= 10^6 states (s) |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
	for _, s := range sums {
		fmt.Fprintf(w, "| %s | %d/%d | %.1f | %d/%d | %.1f |\n", s.Engine, s.Solved, len(rows), s.PAR2, s.SolvedLarge, nl, s.PAR2Large)
	}
	ratio := func(x float64) string {
		if x == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", x)
	}
	fmt.Fprintf(w, "\nmedian ic3/spacer %s (all), %s (>= 10^6 states); median ic3/bfs %s; over the instances both decided\n",
		ratio(medianRatio(rows, "ic3", "spacer", 0)), ratio(medianRatio(rows, "ic3", "spacer", 6*math.Log2(10))), ratio(medianRatio(rows, "ic3", "bfs", 0)))
	fmt.Fprintln(w, "(every engine is a whole process: vigil verify --json for ic3, ic3-nog and bfs; the z3 binary on vigil's CHC export for spacer)")
}
