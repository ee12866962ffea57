package lang

// Predicates files: the initial predicates of policy predicate
// abstraction, written as .spec `pred` declarations over a model or as
// PlaJA's JSON.

import (
	"fmt"
	"path/filepath"
	"strings"

	"vigil/internal/inputfile"
	"vigil/lang/jani"
	"vigil/symbolic"
)

// LoadPredicates reads predicates over m, the model of the file model
// loaded with defines, from path: .spec `pred` declarations, or PlaJA's
// JSON (a JSON array of JANI expressions, or a PA property file naming
// one). They are the initial predicates of policy predicate abstraction
// (vigil verify --engine ppa --predicates).
func LoadPredicates(path, model string, defines map[string]string, m *symbolic.Model) ([]*symbolic.Cond, error) {
	return LoadPredicatesNamed(path, model, "", defines, m)
}

// LoadPredicatesNamed is LoadPredicates, choosing the PA property called
// choose (--property) of a PlaJA file that has several.
func LoadPredicatesNamed(path, model, choose string, defines map[string]string, m *symbolic.Model) ([]*symbolic.Cond, error) {
	if isSpecPredicates(path) {
		return specPredicates(path, model, defines, m)
	}
	return jani.LoadPredicatesNamed(path, m, choose)
}

// isSpecPredicates reports whether a predicates file is .spec text (pred
// declarations) rather than PlaJA's JSON.
func isSpecPredicates(path string) bool {
	if strings.EqualFold(filepath.Ext(path), ".spec") {
		return true
	}
	b, err := inputfile.ReadFile(path)
	if err != nil {
		return false // the JSON reader reports it
	}
	t := strings.TrimSpace(string(b))
	return t != "" && t[0] != '[' && t[0] != '{'
}

// specPredicates reads a .spec predicates file: `pred NAME = COND`
// declarations over the model's variables, checked and lowered by the
// .spec front end as if the file imported the model (diagnostics keep the
// file's own lines and columns).
func specPredicates(path, file string, defines map[string]string, m *symbolic.Model) ([]*symbolic.Cond, error) {
	src, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	model, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	text := append(append(src, '\n'), fmt.Sprintf("import %q\n", model)...)
	pm, diags := LoadSource(path, text, Options{Defines: defines})
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s", strings.TrimRight(diags.Render(), "\n"))
	}
	if len(pm.Vars) != len(m.Vars) {
		return nil, fmt.Errorf("%s: the predicates see %d variables, the model %d", path, len(pm.Vars), len(m.Vars))
	}
	for i := range pm.Vars {
		if pm.Vars[i].Name != m.Vars[i].Name {
			return nil, fmt.Errorf("%s: the predicates see variable %s where the model has %s", path, pm.Vars[i].Name, m.Vars[i].Name)
		}
	}
	var ps []*symbolic.Cond
	for _, p := range pm.Preds {
		if p.Pos.File == path {
			ps = append(ps, p.Cond)
		}
	}
	if len(ps) == 0 {
		return nil, fmt.Errorf("%s: no predicates: write one `pred NAME = CONDITION` per line", path)
	}
	return ps, nil
}
