package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

func init() {
	register(&command{
		Name:    "verify",
		Summary: "decide whether a policy can reach an unsafe state (exit 0 safe, 3 unsafe, 4 unknown)",
		Usage:   "vigil verify [flags] FILE.spec",
		Examples: []string{
			"vigil verify specs/transport.spec --engine bfs",
			"vigil verify specs/oneway_line.spec --policy careful --property no_overshoot --json",
			"vigil verify specs/tarjansafe.spec --policy hasty --record cex.json; vigil run specs/tarjansafe.spec --replay cex.json",
		},
		Run: runVerify,
	})
}

// engines lists the verification engines; the first is the default.
var engines = []string{"bfs"}

// enumFlag is a string flag restricted to a list of values.
type enumFlag struct {
	what   string
	values []string
	val    string
}

func (f *enumFlag) String() string { return f.val }

func (f *enumFlag) Set(s string) error {
	for _, v := range f.values {
		if v == s {
			f.val = s
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q%s; choose one of: %s", f.what, s, suggest(s, f.values), strings.Join(f.values, ", "))
}

// verifyReport is the --json form of a verification.
type verifyReport struct {
	Verdict        string        `json:"verdict"` // safe, unsafe, unknown
	Reason         string        `json:"reason,omitempty"`
	Engine         string        `json:"engine"`
	Model          string        `json:"model"`
	Property       string        `json:"property"`
	Policy         string        `json:"policy"`
	States         int           `json:"states"`
	StartStates    int           `json:"start_states"`
	Transitions    int           `json:"transitions"`
	Depth          int           `json:"depth"`
	Seconds        float64       `json:"seconds"`
	Counterexample *explicit.Run `json:"counterexample,omitempty"`
}

func runVerify(e *env, args []string) int {
	c := commands["verify"]
	fs := newFlags(e, c)
	engine := &enumFlag{what: "engine", values: engines, val: engines[0]}
	fs.Var(engine, "engine", "verification engine: "+strings.Join(engines, ", ")+" (bfs: breadth-first search of the policy's runs from all start states)")
	mf := addModelFlags(fs, "property to verify (default: the only one)",
		"policy to verify (default: the only one; a model without policies is verified over all labels)")
	maxStates := fs.Int("max-states", 0, "give up (unknown, exit 4) after storing this many states; 0 means no limit")
	record := fs.String("record", "", "write the counterexample to this run file (replay with vigil run --replay)")
	jsonOut := fs.Bool("json", false, "print the verdict as JSON")
	timeout := timeoutFlag(fs)
	file, ok := parseModelArg(e, c, fs, args)
	if !ok {
		return exitUsage
	}
	lm, ok := mf.load(e, "verify", file, true, thePolicy)
	if !ok {
		return exitError
	}
	m, prop, decl, g := lm.m, lm.prop, lm.decl, lm.g
	opts := explicit.Options{StopAtUnsafe: true, MaxStates: *maxStates, Policy: lm.dec}
	ctx, cancel := runContext(*timeout)
	defer cancel()
	prog := newProgress(e, *jsonOut)
	opts.Progress = func(s explicit.Stats) {
		prog.printf("verify (bfs): %d states, depth %d, %.0f states/s", s.States, s.Depth, s.StatesPerSecond())
	}
	res, err := explicit.Search(ctx, g, opts)
	prog.clear()
	if err != nil {
		fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
		return exitError
	}
	s := res.Stats
	rep := &verifyReport{
		Verdict: res.Verdict.String(), Engine: engine.val, Model: m.Name,
		Property: prop.Name, Policy: policyName(decl),
		States: s.States, StartStates: s.Starts, Transitions: s.Transitions, Depth: s.Depth,
		Seconds: s.Elapsed.Seconds(),
	}
	if res.Verdict == explicit.Unknown {
		rep.Reason = stopReason(ctx)
		if rep.Reason == "" {
			rep.Reason = fmt.Sprintf("state limit %d", *maxStates)
		}
	}
	if res.Verdict == explicit.UnsafeVerdict {
		// Check our own answer before printing it.
		if err := g.CheckCounterexample(opts.Policy, res.Trace); err != nil {
			fmt.Fprintf(e.stderr, "vigil verify: internal error: the counterexample does not replay: %v\n", err)
			return exitError
		}
		rep.Counterexample = explicit.NewRun(m, prop.Name, policyName(decl), explicit.EndUnsafe, res.Trace)
		if *record != "" {
			if err := writeRunFile(*record, rep.Counterexample); err != nil {
				fmt.Fprintf(e.stderr, "vigil verify: %v\n", err)
				return exitError
			}
		}
	}
	if *jsonOut {
		b, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
	} else {
		printVerify(e, file, m, rep, res)
	}
	switch res.Verdict {
	case explicit.Safe:
		return exitOK
	case explicit.UnsafeVerdict:
		return exitUnsafe
	}
	return exitUnknown
}

func printVerify(e *env, file string, m *symbolic.Model, r *verifyReport, res *explicit.Result) {
	w := e.stdout
	who := "policy " + r.Policy
	if r.Policy == "" {
		who = "some choice of labels"
	}
	switch res.Verdict {
	case explicit.Safe:
		fmt.Fprintf(w, "safe: %s never reaches an unsafe state of property %s from its %d start states\n", who, r.Property, r.StartStates)
	case explicit.UnsafeVerdict:
		fmt.Fprintf(w, "unsafe: %s reaches an unsafe state of property %s in %s (a shortest counterexample)\n", who, r.Property, plural(len(res.Trace)-1, "step"))
		fmt.Fprintln(w, "counterexample:")
		printTrace(e, m, res.Trace, explicit.EndUnsafe)
		args := []string{"vigil run", file, "--property", r.Property}
		if r.Policy != "" {
			args = append(args, "--policy", r.Policy)
		}
		args = append(args, "--from", `"`+m.FormatState(res.Trace[0].State)+`"`)
		fmt.Fprintf(w, "replay: %s\n", strings.Join(args, " "))
		fmt.Fprintf(w, "(for these exact outcomes: add --record cex.json to this command, then vigil run %s --replay cex.json)\n", file)
	default:
		fmt.Fprintf(w, "unknown: stopped by %s before a verdict\n", r.Reason)
	}
	fmt.Fprintf(w, "engine bfs: %d states, %d transitions, depth %d, %.3fs\n", r.States, r.Transitions, r.Depth, r.Seconds)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
