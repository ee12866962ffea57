package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"vigil/lang"
	"vigil/symbolic"
)

func init() {
	register(&command{
		Name:    "check",
		Summary: "parse and check model files, print diagnostics or a summary",
		Usage:   "vigil check [--json] [-D NAME=VALUE]... FILE...",
		Examples: []string{
			"vigil check specs/oneway.spec",
			"vigil check -D L=20 specs/oneway.spec",
			"vigil check --json specs/*.spec",
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
	defs := defines{}
	fs.Var(defs, "D", "override a constant: -D NAME=VALUE (repeatable)")
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
		m, diags := lang.Load(f, lang.Options{Defines: defs})
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
			results = append(results, r)
			continue
		}
		if len(diags) > 0 {
			fmt.Fprint(e.stderr, diags.Render())
		}
		if m != nil {
			fmt.Fprintf(e.stdout, "%s: %s\n", f, r.Summary)
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
