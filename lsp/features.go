package lsp

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"vigil/lang"
	"vigil/symbolic"
)

// ---- diagnostics ---------------------------------------------------------------

type publishDiagnosticsParams struct {
	URI         string       `json:"uri"`
	Version     int          `json:"version,omitempty"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type diagnostic struct {
	Range    Range  `json:"range"`
	Severity int    `json:"severity"` // 1 error, 2 warning
	Code     string `json:"code,omitempty"`
	Source   string `json:"source"`
	Message  string `json:"message"`
}

// diagnostics converts the checker's diagnostics of a document. Those in
// other files (an imported file's errors) are shown at the document's
// first import, their message starting with their own position.
func (s *server) diagnostics(d *document) []diagnostic {
	out := []diagnostic{}
	for _, cd := range d.an.Diags {
		ld := diagnostic{Severity: 1, Code: cd.Code, Source: "vigil", Message: cd.Msg}
		if cd.Severity == lang.Warning {
			ld.Severity = 2
		}
		if cd.Pos.File == d.path {
			ld.Range = diagRange(d.text, cd)
		} else {
			ld.Message = cd.Pos.String() + ": " + cd.Msg
			ld.Range = s.importRange(d)
		}
		out = append(out, ld)
	}
	return out
}

// diagRange is a diagnostic's range: from its position to its end column,
// or over the word at its position when it has none.
func diagRange(t *text, cd lang.Diagnostic) Range {
	if cd.Pos.Line < 1 {
		return Range{}
	}
	start := t.toLSP(cd.Pos)
	endCol := cd.End
	if endCol <= cd.Pos.Col {
		endCol = t.wordEnd(cd.Pos.Line, cd.Pos.Col)
	}
	end := t.toLSP(symbolic.Pos{Line: cd.Pos.Line, Col: endCol})
	return Range{start, end}
}

// importRange is the range of the document's first import's path, or
// the start of the document.
func (s *server) importRange(d *document) Range {
	an, v := d.nav()
	if an == nil || an.File == nil {
		return Range{}
	}
	for _, decl := range an.File.Decls {
		if imp, ok := decl.(*lang.ImportDecl); ok {
			r, _ := v.rangeOf(imp.PathPos, symbolic.Pos{Line: imp.PathPos.Line, Col: imp.PathPos.Col + len([]rune(imp.Path)) + 2})
			return r // the start of the document when an edit moved it
		}
	}
	return Range{}
}

// ---- positions in requests ---------------------------------------------------

type textDocumentPositionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

// refAt finds the name under a request's position.
func (s *server) refAt(params json.RawMessage, extra any) (*document, lang.Ref, bool, *respError) {
	var p textDocumentPositionParams
	if e := decode(params, &p); e != nil {
		return nil, lang.Ref{}, false, e
	}
	if extra != nil {
		if e := decode(params, extra); e != nil {
			return nil, lang.Ref{}, false, e
		}
	}
	d, e := s.doc(p.TextDocument.URI)
	if e != nil {
		return nil, lang.Ref{}, false, e
	}
	an, v := d.nav()
	line, col, ok := v.fromLSP(p.Position)
	if !ok {
		return d, lang.Ref{}, false, nil // in text edited since the analysis
	}
	r, ok := an.RefAt(line, col)
	if _, in := v.nameRange(r.Pos, r.End); ok && !in {
		return d, lang.Ref{}, false, nil // a name that was edited since
	}
	if ok && v.cur != nil {
		// A parameter's scope is where its schema is: when the edit lies
		// between its declaration and the use (or in the declaration), the
		// use may now be in another schema (alike bodies: the line left
		// after a deletion mapped to the other schema's, and hover named
		// b's parameter on a's line; a schema header typed between a's
		// header and its body).
		for _, sym := range an.Resolve(r) {
			if sym.Local && v.side(sym.Pos, sym.NameEnd) != v.side(r.Pos, r.End) {
				return d, lang.Ref{}, false, nil
			}
		}
	}
	return d, r, ok, nil
}

type location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// location converts a source span in any file of the set.
func (s *server) location(d *document, from, to symbolic.Pos) (location, bool) {
	if from.Line < 1 {
		return location{}, false
	}
	if from.File == d.path {
		_, v := d.nav()
		r, ok := v.nameRange(from, to)
		return location{URI: d.uri, Range: r}, ok
	}
	v, ok := s.viewOf(from.File)
	if !ok {
		return location{}, false
	}
	r, ok := v.nameRange(from, to)
	return location{URI: s.pathURI(from.File), Range: r}, ok
}

// ---- hover -------------------------------------------------------------------

type hoverResult struct {
	Contents markupContent `json:"contents"`
	Range    Range         `json:"range"`
}

type markupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

func (s *server) hover(params json.RawMessage) (any, *respError) {
	d, r, ok, e := s.refAt(params, nil)
	if e != nil || !ok {
		return nil, e
	}
	an, v := d.nav()
	decls := an.Resolve(r)
	rg, in := v.nameRange(r.Pos, r.End)
	if len(decls) == 0 || !in {
		return nil, nil
	}
	sym := decls[0]
	var b strings.Builder
	b.WriteString("```vigil-spec\n" + sym.Detail + "\n```\n")
	b.WriteString("(" + string(sym.Kind) + ")")
	if sym.Doc != "" {
		b.WriteString("\n\n" + sym.Doc)
	}
	return hoverResult{
		Contents: markupContent{Kind: "markdown", Value: b.String()},
		Range:    rg,
	}, nil
}

// ---- definition and references -------------------------------------------------

func (s *server) definition(params json.RawMessage) (any, *respError) {
	d, r, ok, e := s.refAt(params, nil)
	if e != nil {
		return nil, e
	}
	out := []location{}
	if !ok {
		return out, nil
	}
	an, _ := d.nav()
	for _, sym := range an.Resolve(r) {
		if loc, ok := s.location(d, sym.Pos, sym.NameEnd); ok {
			out = append(out, loc)
		}
	}
	return out, nil
}

type referenceParams struct {
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

// references lists the uses of the name under the cursor in every open
// document (with the declarations when the client asks for them).
func (s *server) references(params json.RawMessage) (any, *respError) {
	out, _, e := s.refs(params)
	return out, e
}

// refs is references; missed names the files with a use or declaration
// of the name that it cannot place in the client's text (edited since
// their text last parsed, or on disk and in the editor), which a rename
// would miss.
func (s *server) refs(params json.RawMessage) (out []location, missed []string, e *respError) {
	var rp referenceParams
	d, r, ok, e := s.refAt(params, &rp)
	if e != nil {
		return nil, nil, e
	}
	out = []location{}
	if !ok {
		return out, nil, nil
	}
	miss := func(path string) {
		for _, m := range missed {
			if m == path {
				return
			}
		}
		missed = append(missed, path)
	}
	if an, _ := d.nav(); an != nil {
		if syms := an.Resolve(r); len(syms) == 1 && syms[0].Local {
			// a parameter: the references in its schema
			_, v := d.nav()
			for _, x := range an.RefsTo(r.NS, r.Name) {
				if syms[0].Encloses(x.Pos) && (!x.Decl || rp.Context.IncludeDeclaration) {
					// on the declaration's side of the edit, or maybe in another schema now
					if rg, ok := v.nameRange(x.Pos, x.End); ok && v.side(x.Pos, x.End) == v.side(syms[0].Pos, syms[0].NameEnd) {
						out = append(out, location{URI: d.uri, Range: rg})
					} else {
						miss(d.path)
					}
				}
			}
			return out, missed, nil
		}
	}
	// The files that declare the name: a use in another open file is of
	// the same name when it resolves to a declaration in one of them (a
	// file that does not import this one may declare its own N, another
	// constant: renaming main's N renamed it too).
	declFiles := map[string]bool{}
	if an, _ := d.nav(); an != nil {
		for _, sym := range an.Resolve(r) {
			if !sym.Local {
				declFiles[sym.Pos.File] = true
			}
		}
	}
	same := func(an *lang.Analysis, x lang.Ref) bool {
		for _, sym := range an.Resolve(x) {
			if !sym.Local && declFiles[sym.Pos.File] {
				return true
			}
		}
		return false
	}
	sees := func(o *document) bool { // o's last parse saw the declaration, or may see it now
		if o.good == nil {
			return true
		}
		for _, sym := range o.good.Lookup(r.NS, r.Name) {
			if !sym.Local && declFiles[sym.Pos.File] {
				return true
			}
		}
		for f := range declFiles {
			if strings.Contains(o.text.src, filepath.Base(f)) {
				return true // an import typed since
			}
		}
		return false
	}
	docs := []*document{d}
	for _, o := range s.docs {
		if o != d && o.lost == "" {
			docs = append(docs, o)
		}
	}
	sort.SliceStable(docs[1:], func(i, j int) bool { return docs[1+i].uri < docs[1+j].uri })
	seen := map[location]bool{}
	for _, o := range docs {
		an, v := o.nav()
		if an == nil {
			continue
		}
		found := 0
		for _, x := range an.RefsTo(r.NS, r.Name) {
			if x.Decl && !rp.Context.IncludeDeclaration || an.IsLocal(x) || o != d && !same(an, x) {
				continue
			}
			rg, ok := v.nameRange(x.Pos, x.End)
			if !ok {
				miss(o.path)
				continue
			}
			found++
			loc := location{URI: o.uri, Range: rg}
			if !seen[loc] {
				seen[loc] = true
				out = append(out, loc)
			}
		}
		if (o.an == nil || o.an.File == nil) && sees(o) {
			// The text does not parse: the name typed in its edited part
			// (or anywhere, when it never parsed) is in no analysis.
			n := 0
			for _, w := range words(o.text.src) {
				if o.text.src[w[0]:w[1]] == r.Name {
					n++
				}
			}
			if n > found {
				miss(o.path)
			}
		}
	}
	if rp.Context.IncludeDeclaration {
		// declarations in files that are not open
		an, _ := d.nav()
		for _, sym := range an.Lookup(r.NS, r.Name) {
			loc, ok := s.location(d, sym.Pos, sym.NameEnd)
			if !ok {
				if sym.Pos.Line >= 1 {
					miss(sym.Pos.File)
				}
				continue
			}
			if !seen[loc] {
				seen[loc] = true
				out = append(out, loc)
			}
		}
	}
	return out, missed, nil
}

// words are the spans [start, end) of the names in src: letters, digits
// and _, with hyphens between them.
func words(src string) [][2]int {
	var out [][2]int
	for i := 0; i < len(src); {
		if !isIdentRune(rune(src[i])) {
			i++
			continue
		}
		j := i
		for j < len(src) && (isIdentRune(rune(src[j])) || src[j] == '-' && j+1 < len(src) && isIdentRune(rune(src[j+1]))) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// ---- completion ---------------------------------------------------------------

type completionItem struct {
	Label  string `json:"label"`
	Kind   int    `json:"kind"`
	Detail string `json:"detail,omitempty"`
}

type completionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []completionItem `json:"items"`
}

// LSP CompletionItemKind values.
const (
	ciFunction   = 3
	ciVariable   = 6
	ciClass      = 7
	ciProperty   = 10
	ciKeyword    = 14
	ciConstant   = 21
	ciEnum       = 13
	ciEnumMember = 20
	ciEvent      = 23
)

// completion offers every constant, variable, predicate and label of the
// file set (and the parameters and bound names in scope), then the
// keywords; the client filters them by what is typed.
func (s *server) completion(params json.RawMessage) (any, *respError) {
	var p textDocumentPositionParams
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	d, e := s.doc(p.TextDocument.URI)
	if e != nil {
		return nil, e
	}
	an, v := d.nav()
	items := []completionItem{}
	seen := map[string]bool{}
	line, col, ok := v.fromLSP(p.Position)
	if !ok { // in text edited since the analysis: its scopes are a guess there
		line, col = d.text.fromLSP(p.Position)
	}
	here := symbolic.Pos{File: d.path, Line: line, Col: col}
	for _, sym := range an.Symbols {
		if sym.NS != lang.NSNames || seen[sym.Name] || sym.Local && !sym.Encloses(here) {
			continue
		}
		seen[sym.Name] = true
		kind := map[lang.SymbolKind]int{lang.KindConst: ciConstant, lang.KindVar: ciVariable, lang.KindPred: ciFunction,
			lang.KindLabel: ciEvent, lang.KindType: ciEnum, lang.KindValue: ciEnumMember, lang.KindParam: ciVariable, lang.KindBound: ciVariable}[sym.Kind]
		items = append(items, completionItem{Label: sym.Name, Kind: kind, Detail: sym.Detail})
	}
	for _, k := range append(lang.Keywords(), lang.ContextualKeywords()...) {
		items = append(items, completionItem{Label: k, Kind: ciKeyword})
	}
	return completionList{Items: items}, nil
}

// ---- document symbols ------------------------------------------------------------

type documentSymbol struct {
	Name           string `json:"name"`
	Detail         string `json:"detail,omitempty"`
	Kind           int    `json:"kind"`
	Range          Range  `json:"range"`
	SelectionRange Range  `json:"selectionRange"`
}

// LSP SymbolKind values.
var symbolKinds = map[lang.SymbolKind]int{
	lang.KindModel:    2,  // Module
	lang.KindConst:    14, // Constant
	lang.KindVar:      13, // Variable
	lang.KindPred:     12, // Function
	lang.KindLabel:    24, // Event
	lang.KindPolicy:   5,  // Class
	lang.KindProperty: 7,  // Property
	lang.KindType:     10, // Enum
	lang.KindValue:    22, // EnumMember
	lang.KindParam:    13, // Variable
	lang.KindBound:    13, // Variable
}

func (s *server) documentSymbol(params json.RawMessage) (any, *respError) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	d, e := s.doc(p.TextDocument.URI)
	if e != nil {
		return nil, e
	}
	an, v := d.nav()
	out := []documentSymbol{}
	for _, sym := range an.Symbols {
		if sym.Pos.File != d.path || sym.Pos.Line < 1 || sym.Local {
			continue
		}
		whole, ok1 := v.rangeOf(sym.Start, sym.End)
		name, ok2 := v.nameRange(sym.Pos, sym.NameEnd)
		if !ok1 || !ok2 {
			continue // edited since the analysis
		}
		out = append(out, documentSymbol{
			Name: sym.Name, Detail: sym.Detail, Kind: symbolKinds[sym.Kind],
			Range: whole, SelectionRange: name,
		})
	}
	return out, nil
}

// ---- formatting ---------------------------------------------------------------

type textEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// formatting replaces the whole document by vigil fmt's output; a
// document that does not parse is an error (the client keeps its text).
func (s *server) formatting(params json.RawMessage) (any, *respError) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
	}
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	d, e := s.doc(p.TextDocument.URI)
	if e != nil {
		return nil, e
	}
	out, diags := lang.Format(d.path, []byte(d.text.src))
	if out == nil {
		msg := "cannot format a file that does not parse"
		if len(diags) > 0 {
			msg += ": " + diags[0].String()
		}
		return nil, &respError{codeRequestFailed, msg}
	}
	if string(out) == d.text.src {
		return []textEdit{}, nil
	}
	return []textEdit{{Range: Range{Position{}, d.text.end()}, NewText: string(out)}}, nil
}
