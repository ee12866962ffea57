package lang

// Importing a JANI model into a .spec program: `import "model.jani"`.
//
// The loader reads the .jani file (a program has at most one JANI model; a
// model reached twice is read once) and lowers it with package jani. -D
// overrides that name one of the model's constants go to jani, the others
// to the checker. The checker seeds its symbol table with the lowered
// model's constants, variables, labels and predicates before it declares
// the names of the .spec files, so a clash is the usual E0102 and a
// misspelt name gets the usual "did you mean". The .spec files may add
// constants, predicates, policies and properties; the state and the
// transitions stay the JANI model's, so `var` and `action` declarations are
// errors (E0110). Lowering starts from the JANI model and appends the
// .spec's declarations: the result is the model jani.Load returns plus the
// .spec's predicates, policies and properties.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"vigil/internal/inputfile"
	"vigil/lang/jani"
	"vigil/lang/syntax"
	"vigil/symbolic"
)

// janiImport is the JANI model a program imports.
type janiImport struct {
	path  string // as resolved from the importing file; positions use it
	abs   string
	data  []byte
	file  *File // the importing file
	imp   *ImportDecl
	model *symbolic.Model // nil until decoded, and when the model has errors
}

// importJANI records `import "x.jani"` of file f. The file is read here so
// that a missing model is reported at the import like a missing .spec file.
func (l *loader) importJANI(f *File, imp *ImportDecl, target string) {
	abs, err := filepath.Abs(target)
	if err != nil {
		abs = target
	}
	if j := l.jani; j != nil {
		if j.abs == abs {
			return // the same model, imported again: read once
		}
		l.diags = append(l.diags, f.Diag(imp.PathPos, 0, "E0109",
			"cannot import %s: a program imports at most one JANI model, and %s already imports %s at line %d; compose the models in one .jani file",
			imp.Path, j.file.Path, j.imp.Path, j.imp.PathPos.Line))
		return
	}
	data, err := inputfile.ReadFile(target)
	if err != nil {
		l.diags = append(l.diags, f.Diag(imp.PathPos, 0, "E0002", "cannot import %s: %s", imp.Path, pathErr(err)))
		return
	}
	l.jani = &janiImport{path: target, abs: abs, data: data, file: f, imp: imp}
}

// decodeJANI lowers the imported JANI model, if any, with the defines that
// name its constants, and returns the defines left for the .spec files.
// Errors and notes of the import join the loader's diagnostics (E0901,
// W0901), positioned in the .jani file by JSON path.
func (l *loader) decodeJANI(defines map[string]string) map[string]string {
	j := l.jani
	if j == nil {
		return defines
	}
	own := janiConstants(j.data)
	janiDefs, specDefs := map[string]string{}, map[string]string{}
	for name, v := range defines {
		if own[name] {
			janiDefs[name] = v
		} else {
			specDefs[name] = v
		}
	}
	m, notes, err := jani.DecodeDynamics(j.path, j.data, janiDefs)
	l.diags = append(l.diags, j.diags(notes, err)...)
	if err == nil {
		j.model = m
	}
	return specDefs
}

// janiConstants returns the names of the constants a JANI model declares
// (nil when the text is not JSON; jani.Decode reports that). A UTF-8 byte
// order mark is skipped, as the JANI reader skips it (QVBS's beb.3-4.jani
// has one): encoding/json refuses it, and the defines of every constant
// then went to the .spec files.
func janiConstants(data []byte) map[string]bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var head struct {
		Constants []struct {
			Name string `json:"name"`
		} `json:"constants"`
	}
	if json.Unmarshal(data, &head) != nil {
		return nil
	}
	out := map[string]bool{}
	for _, c := range head.Constants {
		out[c.Name] = true
	}
	return out
}

// maxQuotedLine is the longest JSON line a diagnostic quotes; minified
// models keep everything on one line, which helps nobody.
const maxQuotedLine = 200

// LoadJANI loads a JANI model file on its own (no .spec), with defines
// for its constants. Its notes and errors are diagnostics W0901 and E0901
// positioned at FILE#JSONPATH:LINE:COL, as for an imported model.
func LoadJANI(path string, defines map[string]string) (*symbolic.Model, Diagnostics) {
	return loadJANI(context.Background(), path, defines)
}

// loadJANI is LoadJANI stopped by ctx (nil: never; Options.Context).
func loadJANI(ctx context.Context, path string, defines map[string]string) (*symbolic.Model, Diagnostics) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, Diagnostics{{Pos: symbolic.Pos{File: path}, Code: "E0901", Msg: err.Error()}}
	}
	m, notes, err := jani.DecodeContext(ctx, path, data, defines)
	diags := janiDiags(data, notes, err, func(msg string) Diagnostic {
		return Diagnostic{Pos: symbolic.Pos{File: path}, Code: "E0901", Msg: msg}
	})
	if err != nil {
		return nil, diags
	}
	return m, diags
}

// diags turns the import's notes and errors into diagnostics; an error
// without a position is put at the import declaration.
func (j *janiImport) diags(notes []jani.Note, err error) Diagnostics {
	return janiDiags(j.data, notes, err, func(msg string) Diagnostic {
		return j.file.Diag(j.imp.PathPos, 0, "E0901", "cannot import %s: %s", j.imp.Path, msg)
	})
}

// janiDiags turns jani's notes and errors into diagnostics positioned at
// FILE#JSONPATH:LINE:COL, quoting the JSON line of data when it is short;
// unpositioned gives the diagnostic of an error without a position.
func janiDiags(data []byte, notes []jani.Note, err error, unpositioned func(msg string) Diagnostic) Diagnostics {
	var lines []string
	quote := func(d Diagnostic) Diagnostic {
		if lines == nil {
			lines = syntax.SplitLines(data)
		}
		if d.Pos.Line >= 1 && d.Pos.Line <= len(lines) && len(lines[d.Pos.Line-1]) <= maxQuotedLine {
			d.Line = lines[d.Pos.Line-1]
		}
		return d
	}
	var out Diagnostics
	for _, n := range notes {
		out = append(out, quote(Diagnostic{Pos: n.Pos, Severity: Warning, Code: "W0901", Msg: n.Msg}))
	}
	if err == nil {
		return out
	}
	var list jani.ErrorList
	var one *jani.Error
	var plain *jani.PlainError
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			out = append(out, quote(Diagnostic{Pos: e.Pos(), Code: "E0901", Msg: e.Msg}))
		}
	case errors.As(err, &one):
		out = append(out, quote(Diagnostic{Pos: one.Pos(), Code: "E0901", Msg: one.Msg}))
	case errors.As(err, &plain):
		out = append(out, unpositioned(plain.Msg))
	default:
		out = append(out, unpositioned(err.Error()))
	}
	return out
}

// seedJANI enters the imported model's names into the symbol table, in the
// model's order, before any name of the .spec files is declared.
func (c *checker) seedJANI() {
	m := c.jani
	if m == nil {
		return
	}
	// a label that has a variable's or constant's name (the import makes
	// names unique within each kind) would be left out below, its
	// commands naming a label the model no longer has
	RenameClashingLabels(m)
	enter := func(name string, kind symKind, pos symbolic.Pos) *symbol {
		if c.syms[name] != nil {
			return nil // jani gives every name once; keep the first if not
		}
		s := &symbol{kind: kind, name: name, pos: pos, imported: true}
		c.syms[name] = s
		c.order = append(c.order, s)
		return s
	}
	for _, k := range m.Consts {
		if s := enter(k.Name, symConst, k.Pos); s != nil {
			s.value, s.state = k.Value, 2
		}
	}
	for i := range m.Vars {
		v := &m.Vars[i]
		if s := enter(v.Name, symVar, v.Pos); s != nil {
			s.id, s.lo, s.hi, s.isBool, s.hasInit = symbolic.VarID(i), v.Lo, v.Hi, v.Bool, v.HasInit
			c.vars = append(c.vars, s)
		}
	}
	for i, lb := range m.Labels {
		if s := enter(lb.Name, symLabel, lb.Pos); s != nil {
			s.label = symbolic.LabelID(i)
			c.labels = append(c.labels, s)
		}
	}
	for _, p := range m.Preds {
		if s := enter(p.Name, symPred, p.Pos); s != nil {
			s.pcond = p.Cond
		}
	}
}

// janiOnly reports a var or action declaration in a program that imports a
// JANI model: the model's variables and commands are the whole environment.
func (c *checker) janiOnly(id Ident, kind symKind) {
	if c.jani == nil || id.Name == "" {
		return
	}
	if kind == symVar {
		c.errorf(id.Pos, identEnd(id), "E0110", "var %s: this program imports the JANI model %s, whose variables are the whole state; declare %s in the .jani file (a pred can name a condition over the model's variables)", id.Name, c.janiName, id.Name)
		return
	}
	c.errorf(id.Pos, identEnd(id), "E0110", "action %s: this program imports the JANI model %s, whose commands are the whole environment; add the edge to the .jani file", id.Name, c.janiName)
}

// janiIface resolves a policy's interface file against the imported JANI
// model as PlaJA does: inputs by JANI variable name (an input without an
// automaton is that automaton's location variable), outputs by JANI action
// name.
func (l *lowerer) janiIface(p *symbolic.PolicyDecl, it *PolicyItem, m *symbolic.Model) bool {
	d, err := jani.LoadPolicyFile(m, p.Interface)
	if err != nil {
		l.c.errorf(it.IfacePos, it.IfacePos, "E0508", "interface file %s: %s", it.Interface, jani.Message(err))
		return false
	}
	p.Inputs, p.Outputs, p.ArgMaxAll = d.Inputs, d.Outputs, d.ArgMaxAll
	if p.File == "" {
		l.c.errorf(it.IfacePos, it.IfacePos, "E0503", "policy %s needs its network file too: policy nn %s \"FILE.nnet\" { interface ... }", p.Name, p.Name)
		return false
	}
	return true
}

// RenameClashingLabels renames the labels whose name (a schema family's, the
// part before '[') is also the name of a constant, variable (an array's)
// or predicate of m. JANI keeps actions apart from variables and
// constants, and the import makes names unique only within each kind, but
// a .spec declares them in one namespace: a JANI action "a|b" beside a
// variable "a'b" (both a_b) or an action "go" beside a constant "go"
// printed a .spec that vigil refused (E0102), and a .spec importing the
// .jani lost the label in seedJANI and panicked, while the .jani itself
// loads. The label takes the name NAME_act (NAME_act_2, ...
// where that is taken too); a label is named by no property, and the
// policies refer to labels by number, so the model is unchanged. The
// returned note (at most one) names the renamed labels.
func RenameClashingLabels(m *symbolic.Model) []string {
	taken := map[string]bool{}
	for _, c := range m.Consts {
		taken[c.Name] = true
	}
	for _, c := range m.ArrayConsts {
		taken[c.Name] = true
	}
	for _, c := range m.Reals {
		taken[c.Name] = true
	}
	for _, v := range m.Vars {
		name := v.Name
		if base, _, ok := symbolic.ArrayElem(name); ok {
			name = base
		}
		taken[name] = true
	}
	for _, p := range m.Preds {
		taken[p.Name] = true
	}
	families := map[string]bool{}
	for _, l := range m.Labels {
		base, _, _ := strings.Cut(l.Name, "[")
		families[base] = true
	}
	renamed := map[string]string{}
	var from, to2 []string
	for i, l := range m.Labels {
		base, rest, idx := strings.Cut(l.Name, "[")
		if !taken[base] {
			continue
		}
		to, ok := renamed[base]
		if !ok {
			to = base + "_act"
			for k := 2; taken[to] || families[to]; k++ {
				to = fmt.Sprintf("%s_act_%d", base, k)
			}
			renamed[base] = to
			families[to] = true
			from, to2 = append(from, base), append(to2, to)
		}
		if idx {
			to += "[" + rest
		}
		m.Labels[i].Name = to
	}
	switch len(from) {
	case 0:
		return nil
	case 1:
		return []string{fmt.Sprintf("action %s is written as %s: %s names a constant, variable or predicate too, and a .spec declares them in one namespace", from[0], to2[0], from[0])}
	}
	return []string{fmt.Sprintf("actions %s are written as %s: each names a constant, variable or predicate too, and a .spec declares them in one namespace", strings.Join(from, ", "), strings.Join(to2, ", "))}
}
