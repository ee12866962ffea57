// Package lang is the .spec front end's meaning: the checker in named
// stages over a parsed file set, the expansions that run before it (enums,
// schemas, quantifiers, arrays), the lowering to package symbolic, and the
// analysis editors ask for. The syntax (tree, parser, formatter,
// diagnostics) is package lang/syntax, whose names lang re-exports
// (syntax_alias.go). The language is specified in spec.md beside this
// file.
package lang

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"

	"vigil/internal/inputfile"
	"vigil/symbolic"
)

// Options configure loading.
type Options struct {
	// Defines overrides constants: -D NAME=VALUE.
	Defines map[string]string
	// OverflowWarnings adds a warning W0306 for every expression whose
	// values may leave the 64-bit integers (vigil check).
	OverflowWarnings bool
	// Context, when set, stops loading once it is done (Ctrl-C): the
	// stages poll it, and a stopped load returns no model and the error
	// E0005.
	Context context.Context
}

// Load parses, checks and lowers the .spec file at path and the files it
// imports (paths relative to the importing file), including at most one
// JANI model (see janiimport.go). Diagnostics may hold
// warnings when the model is returned; the model is nil when there are
// errors.
func Load(path string, opts Options) (*symbolic.Model, Diagnostics) {
	src, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, Diagnostics{{Pos: symbolic.Pos{File: path}, Code: "E0002", Msg: "cannot read the file: " + pathErr(err)}}
	}
	return LoadSource(path, src, opts)
}

// LoadSource is Load for a root file whose text is already in memory.
func LoadSource(path string, src []byte, opts Options) (*symbolic.Model, Diagnostics) {
	_, _, m, diags := loadChecked(path, src, opts)
	return m, diags
}

// loadChecked is LoadSource, also returning the loader and the checker
// (nil when the files did not load) for Analyze.
func loadChecked(path string, src []byte, opts Options) (*loader, *checker, *symbolic.Model, Diagnostics) {
	l := &loader{state: map[string]int{}}
	l.load(path, src, nil)
	opts.Defines = l.decodeJANI(opts.Defines)
	if l.diags.HasErrors() {
		return l, nil, nil, l.diags.Sort()
	}
	c := newChecker(l.files, opts)
	if l.jani != nil {
		c.jani, c.janiName = l.jani.model, l.jani.imp.Path
	}
	c.arrayDefines()
	en := c.enumPrepare()
	c.en = en
	c.policyPrepare()
	var m *symbolic.Model
	for _, phase := range []func(){c.schemaPrepare, c.quantPrepare, func() { c.arrayPrepare(en) }, func() { m = c.run() }} {
		if c.overLimit || c.interrupted() {
			break // what the phases left would build is what the limit refuses
		}
		phase()
	}
	if en != nil && !c.overLimit {
		c.enumCheck(en)
		if c.errs > 0 {
			m = nil
		} else if m != nil {
			c.enumLower(en, m)
		}
	}
	diags := append(l.diags, c.diags...).Sort()
	if c.stopped {
		return l, c, nil, Diagnostics{{Pos: symbolic.Pos{File: path}, Code: "E0005", Msg: "interrupted before the model was loaded"}}
	}
	if diags.HasErrors() {
		if c.badDefine {
			diags = cmdLineOnly(diags)
		}
		return l, c, nil, diags
	}
	return l, c, m, diags
}

// cmdLineOnly keeps only the command line's errors, for a -D value that is
// not one (-D N=0x10): it leaves its constant unknown, and every array,
// schema and label built from it reports a follow-on error ("policy names
// label onto[3,4], which no action declares") that the right value would
// not have.
func cmdLineOnly(diags Diagnostics) Diagnostics {
	var cmd Diagnostics
	for _, d := range diags {
		if d.Pos.File == "command line" && d.Severity == Error {
			cmd = append(cmd, d)
		}
	}
	if len(cmd) == 0 {
		return diags
	}
	return cmd
}

// Check parses and checks a file set without needing the model; it is Load
// with the diagnostics only.
func Check(path string, opts Options) Diagnostics {
	_, d := Load(path, opts)
	return d
}

type loader struct {
	files []*File
	state map[string]int // absolute path -> 1 loading, 2 done
	stack []string
	diags Diagnostics
	jani  *janiImport
}

func (l *loader) load(path string, src []byte, from *ImportDecl) {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	l.state[abs] = 1
	l.stack = append(l.stack, path)
	defer func() {
		l.state[abs] = 2
		l.stack = l.stack[:len(l.stack)-1]
	}()
	f, diags := Parse(path, src)
	l.diags = append(l.diags, diags...)
	if f == nil {
		return
	}
	for _, d := range f.Decls {
		imp, ok := d.(*ImportDecl)
		if !ok {
			continue
		}
		if imp.As != nil {
			l.diags = append(l.diags, f.Diag(imp.As.Pos, 0, "E0107", "import ... as is reserved for a later version; import the file without as"))
			continue
		}
		target := resolvePath(f, imp.Path)
		if fi, err := os.Stat(target); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
			l.diags = append(l.diags, f.Diag(imp.PathPos, 0, "E0002", "cannot import %s: %s", imp.Path, notRegularFile(fi)))
			continue
		}
		switch strings.ToLower(filepath.Ext(target)) {
		case ".spec":
		case ".jani":
			l.importJANI(f, imp, target)
			continue
		default:
			l.diags = append(l.diags, f.Diag(imp.PathPos, 0, "E0108", "cannot import %s: only .spec files and .jani models can be imported", imp.Path))
			continue
		}
		tabs, _ := filepath.Abs(target)
		switch l.state[tabs] {
		case 1:
			chain := append([]string{}, l.stack...)
			chain = append(chain, target)
			l.diags = append(l.diags, f.Diag(imp.PathPos, 0, "E0104", "import cycle: %s", strings.Join(chain, " imports ")))
			continue
		case 2:
			continue
		}
		tsrc, err := readRegular(target)
		if err != nil {
			l.diags = append(l.diags, f.Diag(imp.PathPos, 0, "E0002", "cannot import %s: %s", imp.Path, pathErr(err)))
			continue
		}
		l.load(target, tsrc, imp)
	}
	l.files = append(l.files, f)
}

// readRegular reads a file a model names (an import, a table policy's
// CSV, an interface), refusing one that is not a regular file: a FIFO
// without a writer blocks its reader for good (vigil lsp, which reads a
// document's imports on every change, stopped answering), and a device
// such as /dev/zero is read to inputfile's limit on every load.
func readRegular(path string) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		return nil, errors.New(notRegularFile(fi))
	}
	return inputfile.ReadFile(path)
}

// notRegularFile says why a file a model names is refused.
func notRegularFile(fi os.FileInfo) string {
	return "it is " + inputfile.Special(fi) + ", not a regular file; save its content to a file and name that"
}
