package main

import (
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// loadAny loads a model file by its extension: .jani through lang/jani,
// anything else as .spec. JANI errors become diagnostics (code E0901) whose
// position names the JSON path.
func loadAny(path string, defs defines) (*symbolic.Model, lang.Diagnostics) {
	if !strings.EqualFold(filepath.Ext(path), ".jani") {
		return lang.Load(path, lang.Options{Defines: defs})
	}
	m, notes, err := jani.LoadNotes(path, defs)
	var diags lang.Diagnostics
	for _, n := range notes {
		diags = append(diags, lang.Diagnostic{Pos: n.Pos, Severity: lang.Warning, Code: "W0901", Msg: n.Msg})
	}
	if err != nil {
		var list jani.ErrorList
		var one *jani.Error
		switch {
		case errors.As(err, &list):
			for _, e := range list {
				diags = append(diags, lang.Diagnostic{Pos: e.Pos(), Code: "E0901", Msg: e.Msg})
			}
		case errors.As(err, &one):
			diags = append(diags, lang.Diagnostic{Pos: one.Pos(), Code: "E0901", Msg: one.Msg})
		default:
			diags = append(diags, lang.Diagnostic{Pos: symbolic.Pos{File: path}, Code: "E0901", Msg: strings.TrimPrefix(err.Error(), "jani: ")})
		}
		return nil, diags
	}
	return m, diags
}

// loadModel loads a model file (.spec or .jani) with -D overrides, printing
// its diagnostics on stderr. It returns nil when the file has errors.
func loadModel(e *env, path string, defs defines) *symbolic.Model {
	m, diags := loadAny(path, defs)
	if len(diags) > 0 {
		fmt.Fprint(e.stderr, diags.Render())
	}
	if diags.HasErrors() {
		return nil
	}
	return m
}

// plajaFlags are the flags that let a published PlaJA instance run without a
// .spec: --start/--unsafe condition files (or a PA property file) and
// --policy-file (a .jani2nnet interface, or a PA property file naming one).
type plajaFlags struct {
	start, unsafe, policyFile *string
}

func addPlajaFlags(fs *flag.FlagSet) *plajaFlags {
	return &plajaFlags{
		start:      fs.String("start", "", "PlaJA start condition file (state-condition JSON, or a PA property file)"),
		unsafe:     fs.String("unsafe", "", "PlaJA unsafe condition file (reach.jani, or a PA property file); adds a property"),
		policyFile: fs.String("policy-file", "", "a .jani2nnet interface (or a PA property file naming one); adds an nn policy"),
	}
}

// apply adds the property and policy the flags name to m, and selects them
// unless --property/--policy chose others.
func (pf *plajaFlags) apply(e *env, m *symbolic.Model, propName, polName *string) bool {
	if *pf.start == "" && *pf.unsafe == "" && *pf.policyFile == "" {
		return true
	}
	prop, pol, err := jani.Attach(m, *pf.start, *pf.unsafe, *pf.policyFile)
	if err != nil {
		fmt.Fprintln(e.stderr, "vigil:", err)
		return false
	}
	if prop != "" && *propName == "" {
		*propName = prop
	}
	if pol != "" && *polName == "" {
		*polName = pol
	}
	return true
}
