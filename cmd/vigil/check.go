package main

import (
	"context"
	"fmt"

	"vigil/internal/cli"
	"vigil/internal/phrase"
	"vigil/lang"
	"vigil/verify"
)

func init() {
	cli.Register(&cli.Command{
		Name:    "check",
		Summary: "parse and check model files, print diagnostics or a summary",
		Usage:   "vigil check [--json] [--bounds] [--deadlocks] [-D NAME=VALUE]... [--start FILE --unsafe FILE] [--policy-file FILE] FILE...",
		Examples: []string{
			"vigil check specs/oneway.spec",
			"vigil check --bounds --deadlocks specs/oneway.spec   # prove with Z3 that no outcome leaves a range",
			"vigil check model.jani",
			"vigil check -D L=20 specs/oneway.spec",
			"vigil check --json specs/*.spec",
			"vigil check specs/plaja/counter.jani -D N=3 --start specs/plaja/pa.jani --unsafe specs/plaja/pa.jani --policy-file specs/plaja/pa.jani",
		},
		Run: runCheck,
	})
}

// checkResult is the --json form of one checked file.
type checkResult struct {
	File        string           `json:"file"`
	OK          bool             `json:"ok"`
	Diagnostics lang.Diagnostics `json:"diagnostics"`
	Summary     *lang.Summary    `json:"summary,omitempty"`
	Extra       map[string]any   `json:"checks,omitempty"`
}

func runCheck(e *cli.Env, args []string) int {
	fs, c := e.Flags("check")
	jsonOut := fs.Bool("json", false, "print diagnostics and summaries as JSON on stdout")
	bounds := fs.Bool("bounds", false, "prove with Z3 that no command outcome from a non-terminal in-range state leaves a variable's range (violations are errors)")
	deadlocks := fs.Bool("deadlocks", false, "report in-range non-terminal states where no label is applicable, with a witness (warnings)")
	defs := cli.Defines{}
	fs.Var(defs, "D", "override a constant: -D `NAME=VALUE` (repeatable)")
	plaja := addPlajaFlags(fs)
	polName := fs.String("policy", "", "with --policy-file: the declared learned policy whose inputs and outputs the file takes")
	timeout := cli.TimeoutFlag(fs)
	files, ok := cli.ParseFlags(fs, args)
	if !ok {
		return cli.ExitUsage
	}
	if len(files) == 0 {
		return e.Fail(cli.ExitUsage, "vigil check: no files given\nusage: %s", c.Usage)
	}
	// --bounds and --deadlocks ask Z3, which Ctrl-C, SIGTERM and --timeout
	// interrupt: the file being checked reports the query stopped, later
	// files are not checked, and the exit code is 4 (unknown).
	ctx := context.Background()
	if *bounds || *deadlocks {
		var cancel context.CancelFunc
		ctx, cancel = cli.RunContext(*timeout)
		defer cancel()
	}
	status := cli.ExitOK
	var results []checkResult
	for _, f := range files {
		if ctx.Err() != nil {
			break
		}
		m, diags := lang.LoadFile(f, lang.Options{Defines: defs, OverflowWarnings: true})
		if m != nil {
			// --start/--unsafe/--policy-file add a property and a policy,
			// checked like the model's own (a network that does not fit
			// is an error here, not in the first command that uses it).
			prop, pol := "", *polName
			if !plaja.apply(e, m, &prop, &pol, true) {
				if !*jsonOut && len(diags) > 0 {
					e.PrintDiags(diags)
				}
				status = cli.ExitError
				continue
			}
			if pd := lang.PolicyFileDiagnostics(m); pd.HasErrors() {
				m, diags = nil, append(diags, pd...)
			}
		}
		r := checkResult{File: f, OK: m != nil, Diagnostics: diags}
		if diags == nil {
			r.Diagnostics = lang.Diagnostics{}
		}
		if m == nil {
			status = cli.ExitError
		} else {
			r.Summary = lang.Summarize(m)
		}
		if !*jsonOut {
			e.PrintDiags(diags)
			if m != nil {
				fmt.Fprintf(e.Stdout, "%s: %s\n", f, r.Summary)
			}
		}
		if m != nil && *bounds {
			// --bounds: violations are errors, an undecided query fails the check.
			fs, n, err := verify.BoundsFindings(ctx, m)
			if n > 0 || err != nil {
				status, r.OK = cli.ExitError, false
				if !*jsonOut {
					status = cli.ExitFor(err)
				}
			}
			if !smtResult(e, f, "bounds", fs, err, *jsonOut, &r) && n == 0 {
				fmt.Fprintf(e.Stdout, "%s: bounds: no command outcome leaves a variable's range (proved with Z3)\n", f)
			}
		}
		if m != nil && *deadlocks {
			// --deadlocks: warnings only.
			fs, n, err := verify.DeadlockFindings(ctx, m)
			if !smtResult(e, f, "deadlocks", fs, err, *jsonOut, &r) && n == 0 {
				fmt.Fprintf(e.Stdout, "%s: deadlocks: none (proved with Z3)\n", f)
			}
		}
		if *jsonOut {
			results = append(results, r)
		}
	}
	if ctx.Err() != nil {
		status = cli.ExitUnknown
		fmt.Fprintf(e.Stderr, "vigil check: unknown: %s before every query was answered\n", phrase.Stopped(phrase.StopReason(ctx)))
		if !*jsonOut {
			return status
		}
	}
	if *jsonOut {
		return e.WriteJSON("check", results, status)
	}
	if status != cli.ExitOK {
		fmt.Fprintln(e.Stderr, "vigil check: errors found")
	}
	return status
}

// smtResult records the findings of a Z3 check of file (--bounds,
// --deadlocks) in r under --json, or prints them one a line with the
// error, if any, on stderr. It returns whether the caller has nothing to
// add: under --json, or when Z3 left a query undecided.
func smtResult(e *cli.Env, file, check string, fs []verify.Finding, err error, jsonOut bool, r *checkResult) bool {
	if jsonOut {
		if r.Extra == nil {
			r.Extra = map[string]any{}
		}
		r.Extra[check] = fs
		return true
	}
	for _, f := range fs {
		fmt.Fprintln(e.Stdout, f)
	}
	if err != nil {
		fmt.Fprintf(e.Stderr, "%s: %s: %v\n", file, check, err)
	}
	return err != nil
}
