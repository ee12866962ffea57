package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/verify"
)

func init() {
	register(&command{
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

// checkSummary is the --json form of a checked model.
type checkSummary struct {
	Model      string   `json:"model"`
	Variables  int      `json:"variables"`
	Labels     int      `json:"labels"`
	Commands   int      `json:"commands"`
	Policies   []string `json:"policies"`
	Properties []string `json:"properties"`
	States     float64  `json:"states"`
	Log2States float64  `json:"log2_states"`
}

type checkResult struct {
	File        string           `json:"file"`
	OK          bool             `json:"ok"`
	Diagnostics lang.Diagnostics `json:"diagnostics"`
	Summary     *checkSummary    `json:"summary,omitempty"`
	Extra       map[string]any   `json:"checks,omitempty"`
}

func runCheck(e *env, args []string) int {
	c := commands["check"]
	fs := newFlags(e, c)
	jsonOut := fs.Bool("json", false, "print diagnostics and summaries as JSON on stdout")
	bounds := fs.Bool("bounds", false, "prove with Z3 that no command outcome from a non-terminal in-range state leaves a variable's range (violations are errors)")
	deadlocks := fs.Bool("deadlocks", false, "report in-range non-terminal states where no label is applicable, with a witness (warnings)")
	defs := defines{}
	fs.Var(defs, "D", "override a constant: -D `NAME=VALUE` (repeatable)")
	plaja := addPlajaFlags(fs)
	polName := fs.String("policy", "", "with --policy-file: the declared learned policy whose inputs and outputs the file takes")
	files, ok := parseFlags(fs, args)
	if !ok {
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(e.stderr, "vigil check: no files given\nusage: %s\n", c.Usage)
		return exitUsage
	}
	status := exitOK
	var results []checkResult
	for _, f := range files {
		m, diags := loadChecked(f, defs)
		if m != nil {
			// --start/--unsafe/--policy-file add a property and a policy,
			// checked like the model's own (a network that does not fit
			// is an error here, not in the first command that uses it).
			prop, pol := "", *polName
			if !plaja.apply(e, m, &prop, &pol) {
				if !*jsonOut && len(diags) > 0 {
					fmt.Fprint(e.stderr, diags.Render())
				}
				status = exitError
				continue
			}
			if pd := policyFileDiagnostics(m); pd.HasErrors() {
				m, diags = nil, append(diags, pd...)
			}
		}
		r := checkResult{File: f, OK: m != nil, Diagnostics: diags}
		if diags == nil {
			r.Diagnostics = lang.Diagnostics{}
		}
		if m == nil {
			status = exitError
		} else {
			r.Summary = summarize(m)
		}
		if *jsonOut {
			if m != nil && (*bounds || *deadlocks) {
				r.Extra = map[string]any{}
				if *bounds {
					fsb, n, err := verify.BoundsFindings(m)
					r.Extra["bounds"] = fsb
					if n > 0 || err != nil {
						status, r.OK = exitError, false
					}
				}
				if *deadlocks {
					fsd, _, _ := verify.DeadlockFindings(m)
					r.Extra["deadlocks"] = fsd
				}
			}
			results = append(results, r)
			continue
		}
		if len(diags) > 0 {
			fmt.Fprint(e.stderr, diags.Render())
		}
		if m == nil {
			continue
		}
		fmt.Fprintf(e.stdout, "%s: %s\n", f, r.Summary)
		if *bounds {
			n, err := checkBounds(e, m, false)
			switch {
			case err != nil:
				fmt.Fprintf(e.stderr, "%s: bounds: %v\n", f, err)
				status = exitFor(err)
			case n > 0:
				status = exitError
			default:
				fmt.Fprintf(e.stdout, "%s: bounds: no command outcome leaves a variable's range (proved with Z3)\n", f)
			}
		}
		if *deadlocks {
			n, err := checkDeadlocks(e, m, false)
			switch {
			case err != nil:
				fmt.Fprintf(e.stderr, "%s: deadlocks: %v\n", f, err)
			case n == 0:
				fmt.Fprintf(e.stdout, "%s: deadlocks: none (proved with Z3)\n", f)
			}
		}
	}
	if *jsonOut {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(results)
	} else if status != exitOK {
		fmt.Fprintln(e.stderr, "vigil check: errors found")
	}
	return status
}

// loadChecked is loadAny with the checks only vigil check makes: warnings
// W0306 where an expression may leave the 64-bit integers.
func loadChecked(path string, defs defines) (*symbolic.Model, lang.Diagnostics) {
	if strings.EqualFold(filepath.Ext(path), ".jani") {
		m, diags := lang.LoadJANI(path, defs)
		if m != nil {
			diags = append(diags, lang.OverflowWarnings(m)...)
		}
		return m, diags
	}
	return lang.Load(path, lang.Options{Defines: defs, OverflowWarnings: true})
}

// policyFileDiagnostics loads every network and ensemble file the model's
// policies name and binds it to the declaration (inputs and outputs against
// the model), as verify and run would: a corrupt or mismatched policy file
// is an error of check, not of the first command that uses it.
func policyFileDiagnostics(m *symbolic.Model) lang.Diagnostics {
	var ds lang.Diagnostics
	for _, d := range m.Policies {
		if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
			continue // checked by lang
		}
		if _, err := symbolic.Instantiate(m, d); err != nil {
			msg := strings.TrimPrefix(err.Error(), d.Pos.String()+": ")
			ds = append(ds, lang.Diagnostic{Pos: d.Pos, Severity: lang.Error, Code: "E0509", Msg: msg})
		}
	}
	return ds
}

func summarize(m *symbolic.Model) *checkSummary {
	s := &checkSummary{Model: m.Name, Variables: len(m.Vars), Labels: len(m.Labels), Commands: len(m.Commands),
		Policies: []string{}, Properties: []string{}}
	for _, p := range m.Policies {
		s.Policies = append(s.Policies, p.Name)
	}
	for _, p := range m.Properties {
		s.Properties = append(s.Properties, p.Name)
	}
	s.States, s.Log2States = m.StateSpaceSize()
	return s
}

func (s *checkSummary) String() string {
	plural := func(n int, w string) string {
		if n == 1 {
			return fmt.Sprintf("%d %s", n, w)
		}
		return fmt.Sprintf("%d %ss", n, w)
	}
	states := fmt.Sprintf("%.0f", s.States)
	if s.Log2States > 60 {
		states = fmt.Sprintf("2^%.1f", s.Log2States)
	}
	var parts []string
	parts = append(parts, plural(s.Variables, "variable"), plural(s.Labels, "label"), plural(s.Commands, "command"))
	pol := plural(len(s.Policies), "policy")
	if len(s.Policies) != 1 {
		pol = fmt.Sprintf("%d policies", len(s.Policies))
	}
	if len(s.Policies) > 0 {
		pol += " (" + strings.Join(s.Policies, ", ") + ")"
	}
	prop := plural(len(s.Properties), "property")
	if len(s.Properties) != 1 {
		prop = fmt.Sprintf("%d properties", len(s.Properties))
	}
	if len(s.Properties) > 0 {
		prop += " (" + strings.Join(s.Properties, ", ") + ")"
	}
	parts = append(parts, pol, prop)
	return fmt.Sprintf("model %s: %s; %s states in the product of ranges", s.Model, strings.Join(parts, ", "), states)
}
