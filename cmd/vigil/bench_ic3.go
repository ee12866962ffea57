package main

// vigil bench ic3: ic3 against BFS and against z3's Spacer on the CHC
// export, on every (model, property, symbolic policy or none) of the files
// given, in one run. Ratios below 1 mean ic3 is faster.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"vigil/ic3"
	"vigil/smt/smtlib"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// peerRun is one engine's answer on one instance.
type peerRun struct {
	Verdict string  `json:"verdict"` // safe, unsafe, unknown, error
	Seconds float64 `json:"seconds"`
	Note    string  `json:"note,omitempty"`
	States  int     `json:"states,omitempty"` // bfs
}

type peerRow struct {
	File     string   `json:"file"`
	Model    string   `json:"model"`
	Property string   `json:"property"`
	Policy   string   `json:"policy"` // "" for every label
	Log2Size float64  `json:"log2_state_space"`
	BFS      peerRun  `json:"bfs"`
	IC3      peerRun  `json:"ic3"`
	IC3Nog   *peerRun `json:"ic3_nog,omitempty"`
	Spacer   peerRun  `json:"spacer"`
	// Ratios of ic3's time to the peer's, when both decided.
	IC3OverBFS    float64 `json:"ic3_over_bfs,omitempty"`
	IC3OverSpacer float64 `json:"ic3_over_spacer,omitempty"`
	Disagree      bool    `json:"disagree,omitempty"`
}

func runBenchIC3(e *env, args []string) int {
	c := commands["bench ic3"]
	fs := newFlags(e, c)
	addProgressFlags(e, fs)
	defs := defines{}
	fs.Var(defs, "D", "override a constant in every file: -D `NAME=VALUE` (repeatable)")
	timeout := timeoutFlagDefault(fs, time.Minute, "limit per engine and instance: `DURATION`")
	maxStates := addCountFlag(fs, "max-states", 20_000_000, "BFS gives up (unknown) after storing this many states")
	nog := fs.Bool("nog", false, "also run ic3-nog")
	scale := scaleFlag{}
	fs.Var(&scale, "scale", "scaling mode: run every file at each of the values of constant NAME it declares, `NAME=V1,V2,...` (repeatable; a file declaring none runs once); every engine runs as a whole process (vigil verify --json, z3 on the CHC export), only the declared policies (all labels for a model without one), ic3-nog too, with PAR-2 scores")
	vigilBin := fs.String("vigil", "", "scaling mode: the vigil binary whose verify runs ic3, ic3-nog and bfs (default: this one), e.g. a build of another commit to compare")
	plaja := addPlajaFlags(fs)
	jsonOut := fs.Bool("json", false, "print the rows as JSON")
	files, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(e.stderr, "vigil bench ic3: want model files\nusage: %s\n", c.Usage)
		return exitUsage
	}
	if *timeout <= 0 || *maxStates <= 0 {
		fmt.Fprintln(e.stderr, "vigil bench ic3: --timeout and --max-states must be positive")
		return exitUsage
	}
	if _, err := smtlib.Z3Path(); err != nil {
		fmt.Fprintf(e.stderr, "vigil bench ic3: %v (Spacer is the peer)\n", err)
		return exitFor(err)
	}
	tmp, err := os.MkdirTemp("", "vigil-bench-")
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil bench ic3: %v\n", err)
		return exitFor(err)
	}
	defer os.RemoveAll(tmp)
	if *plaja.policyFile != "" {
		fmt.Fprintln(e.stderr, "vigil bench ic3: --policy-file: learned policies are measured by bench/polic3; give --start and --unsafe only")
		return exitUsage
	}
	ctx, cancel := runContext(0)
	defer cancel()
	prog := newProgress(e, *jsonOut)
	if len(scale) > 0 || *vigilBin != "" {
		return benchScaling(e, ctx, prog, files, defs, scale, *vigilBin, tmp, *timeout, *maxStates, *jsonOut)
	}
	var rows []peerRow
	for _, file := range files {
		m := loadModel(e, file, defs)
		if m == nil {
			return exitError
		}
		var prop, pol string
		if !plaja.apply(e, m, &prop, &pol) {
			return exitError
		}
		pols := []*symbolic.PolicyDecl{nil}
		for _, d := range m.Policies {
			if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
				pols = append(pols, d)
			}
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
				row := peerRow{File: file, Model: m.Name, Property: prop.Name, Policy: policyName(pd), Log2Size: l2}
				prog.printf("bench ic3: %s %s %s", m.Name, prop.Name, policyName(pd))
				row.BFS = benchBFS(ctx, m, prop, pd, *timeout, *maxStates)
				row.IC3 = benchIC3(ctx, m, prop, pd, *timeout, true)
				if *nog {
					r := benchIC3(ctx, m, prop, pd, *timeout, false)
					row.IC3Nog = &r
				}
				row.Spacer = benchSpacer(ctx, filepath.Join(tmp, fmt.Sprintf("q%d.smt2", len(rows))), m, prop, pd, *timeout)
				decided := func(r peerRun) bool { return r.Verdict == "safe" || r.Verdict == "unsafe" }
				if decided(row.IC3) && decided(row.BFS) {
					row.IC3OverBFS = row.IC3.Seconds / row.BFS.Seconds
					row.Disagree = row.Disagree || row.IC3.Verdict != row.BFS.Verdict
				}
				if decided(row.IC3) && decided(row.Spacer) {
					row.IC3OverSpacer = row.IC3.Seconds / row.Spacer.Seconds
					row.Disagree = row.Disagree || row.IC3.Verdict != row.Spacer.Verdict
				}
				rows = append(rows, row)
			}
		}
	}
	prog.clear()
	disagree := false
	for _, r := range rows {
		disagree = disagree || r.Disagree
	}
	if *jsonOut {
		b, _ := json.MarshalIndent(rows, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printPeers(e, rows, *nog)
	}
	if disagree {
		return internalError(e, "bench ic3", "the engines disagree (rows marked DISAGREE)")
	}
	return exitOK
}

func benchBFS(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, limit time.Duration, maxStates int) peerRun {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	t0 := time.Now()
	g, err := explicit.New(m, prop)
	var dec explicit.Decider
	if err == nil && pd != nil {
		dec, err = explicit.NewDecider(m, pd)
	}
	if err != nil {
		return peerRun{Verdict: "error", Note: err.Error()}
	}
	res, err := explicit.Search(ctx, g, explicit.Options{Policy: dec, StopAtUnsafe: true, MaxStates: maxStates})
	r := peerRun{Seconds: time.Since(t0).Seconds()}
	switch {
	case err != nil:
		r.Verdict, r.Note = "error", err.Error()
	case res.Verdict == explicit.Safe:
		r.Verdict = "safe"
	case res.Verdict == explicit.UnsafeVerdict:
		r.Verdict = "unsafe"
	default:
		r.Verdict, r.Note = "unknown", stopReason(ctx)
		if r.Note == "" {
			r.Note = fmt.Sprintf("state limit %d", maxStates)
		}
	}
	if res != nil {
		r.States = res.Stats.States
	}
	return r
}

func benchIC3(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, limit time.Duration, gen bool) peerRun {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	t0 := time.Now()
	res, err := ic3.Check(ctx, m, prop, pd, ic3.Options{Generalize: gen})
	r := peerRun{Seconds: time.Since(t0).Seconds()}
	if err != nil {
		r.Verdict, r.Note = "error", err.Error()
		return r
	}
	r.Verdict, r.Note = res.Verdict.String(), res.Reason
	return r
}

func benchSpacer(ctx context.Context, file string, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl, limit time.Duration) peerRun {
	f, err := os.Create(file)
	if err == nil {
		err = smtlib.WriteCHC(f, smtlib.Question{Model: m, Property: prop, Policy: pd})
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return peerRun{Verdict: "error", Note: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	t0 := time.Now()
	out, err := smtlib.RunZ3(ctx, file)
	r := peerRun{Seconds: time.Since(t0).Seconds()}
	switch strings.TrimSpace(out) {
	case "sat":
		r.Verdict = "safe"
	case "unsat":
		r.Verdict = "unsafe"
	default:
		r.Verdict = "unknown"
		if ctx.Err() != nil {
			r.Note = "timeout"
		} else if err != nil {
			r.Verdict, r.Note = "error", err.Error()
		}
	}
	return r
}

func printPeers(e *env, rows []peerRow, nog bool) {
	w := e.stdout
	cell := func(r peerRun) string {
		if r.Verdict == "safe" || r.Verdict == "unsafe" {
			return fmt.Sprintf("%s %.3fs", r.Verdict, r.Seconds)
		}
		if r.Note != "" {
			return r.Verdict + " (" + r.Note + ")"
		}
		return r.Verdict
	}
	ratio := func(x float64) string {
		if x == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f", x)
	}
	head := "| model | property | policy | log2 states | bfs | ic3 | spacer | ic3/bfs | ic3/spacer |"
	sep := "|---|---|---|---:|---|---|---|---:|---:|"
	if nog {
		head = "| model | property | policy | log2 states | bfs | ic3 | ic3-nog | spacer | ic3/bfs | ic3/spacer |"
		sep = "|---|---|---|---:|---|---|---|---|---:|---:|"
	}
	fmt.Fprintln(w, head)
	fmt.Fprintln(w, sep)
	var rb, rs []float64
	for _, r := range rows {
		pol := r.Policy
		if pol == "" {
			pol = "(all labels)"
		}
		cols := []string{r.Model, r.Property, pol, fmt.Sprintf("%.1f", r.Log2Size), cell(r.BFS), cell(r.IC3)}
		if nog {
			cols = append(cols, cell(*r.IC3Nog))
		}
		cols = append(cols, cell(r.Spacer), ratio(r.IC3OverBFS), ratio(r.IC3OverSpacer))
		if r.Disagree {
			cols = append(cols, "DISAGREE")
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cols, " | "))
		if r.IC3OverBFS > 0 {
			rb = append(rb, r.IC3OverBFS)
		}
		if r.IC3OverSpacer > 0 {
			rs = append(rs, r.IC3OverSpacer)
		}
	}
	solved := func(f func(peerRow) peerRun) int {
		n := 0
		for _, r := range rows {
			if v := f(r).Verdict; v == "safe" || v == "unsafe" {
				n++
			}
		}
		return n
	}
	fmt.Fprintf(w, "\n%s; decided: bfs %d, ic3 %d, spacer %d\n", plural(len(rows), "instance"),
		solved(func(r peerRow) peerRun { return r.BFS }), solved(func(r peerRow) peerRun { return r.IC3 }), solved(func(r peerRow) peerRun { return r.Spacer }))
	fmt.Fprintf(w, "median ic3/bfs %s over %d instances both decided; median ic3/spacer %s over %d\n", ratio(median(rb)), len(rb), ratio(median(rs)), len(rs))
	fmt.Fprintln(w, "(bfs and ic3 run in this process; spacer is the z3 binary on the CHC export, whole-process time)")
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
