package lang

// Model files as the commands read them: by extension, .spec or JANI;
// the checks only vigil check makes (the policy files a model names); and
// the summary vigil check prints of a model that checks.

import (
	"fmt"
	"path/filepath"
	"strings"

	"vigil/symbolic"
)

// LoadFile loads a model file by its extension: .jani through LoadJANI
// (its errors are diagnostics E0901 positioned by JSON path), anything
// else as .spec through Load. Of opts, a JANI file takes the defines and
// the overflow warnings.
func LoadFile(path string, opts Options) (*symbolic.Model, Diagnostics) {
	if !strings.EqualFold(filepath.Ext(path), ".jani") {
		return Load(path, opts)
	}
	m, diags := loadJANI(opts.Context, path, opts.Defines)
	if m != nil && opts.OverflowWarnings {
		diags = append(diags, OverflowWarnings(m)...)
	}
	return m, diags
}

// PolicyFileDiagnostics loads every network and ensemble file the
// model's policies name and binds it to the declaration (inputs and
// outputs against the model), as verify and run would: a corrupt or
// mismatched policy file is an error E0509 of the model, not of the
// first command that uses it. The kinds must be registered (symbolic.
// RegisterKind, by importing nn and trees).
func PolicyFileDiagnostics(m *symbolic.Model) Diagnostics {
	var ds Diagnostics
	for _, d := range m.Policies {
		if d.Kind == symbolic.KindRules || d.Kind == symbolic.KindTable {
			continue // checked by the checker
		}
		if _, err := symbolic.Instantiate(m, d); err != nil {
			msg := err.Error()
			if pe, ok := err.(*symbolic.PosError); ok && pe.Pos == d.Pos {
				msg = pe.Err.Error() // the diagnostic gives the position
			}
			ds = append(ds, Diagnostic{Pos: d.Pos, Severity: Error, Code: "E0509", Msg: msg})
		}
	}
	return ds
}

// Summary is what vigil check says of a model that checks (its --json
// form).
type Summary struct {
	Model      string   `json:"model"`
	Variables  int      `json:"variables"`
	Labels     int      `json:"labels"`
	Commands   int      `json:"commands"`
	Policies   []string `json:"policies"`
	Properties []string `json:"properties"`
	States     float64  `json:"states"`
	Log2States float64  `json:"log2_states"`
}

// Summarize counts m's variables, labels and commands, lists its policies
// and properties, and sizes its state space.
func Summarize(m *symbolic.Model) *Summary {
	s := &Summary{Model: m.Name, Variables: len(m.Vars), Labels: len(m.Labels), Commands: len(m.Commands),
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

// String is the summary as vigil check prints it after the file name.
func (s *Summary) String() string {
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
