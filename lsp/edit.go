package lsp

// Edits the server proposes: renaming a name everywhere it is used, and
// quick fixes for the diagnostics that carry a suggestion ("did you mean
// green?", "write pos - 1 with spaces around the minus").

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"

	"vigil/internal/inputfile"
	"vigil/lang"
)

type workspaceEdit struct {
	Changes map[string][]textEdit `json:"changes"`
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*$`)

// rename renames the name under the cursor at its declarations and every
// use in the open documents (and the declarations in files that are not
// open). It refuses a new name that is not an identifier, is a keyword,
// or is declared already.
func (s *server) rename(params json.RawMessage) (any, *respError) {
	var rp struct {
		NewName string `json:"newName"`
	}
	d, r, ok, e := s.refAt(params, &rp)
	if e != nil {
		return nil, e
	}
	if d.an == nil || d.an.File == nil {
		// Navigation then uses the text that last parsed; a rename from it
		// would miss (or misplace) the uses typed since.
		why := ""
		if d.an != nil && len(d.an.Diags) > 0 {
			why = " (" + d.an.Diags[0].Pos.String() + ": " + d.an.Diags[0].Msg + ")"
		}
		return nil, &respError{codeRequestFailed, "cannot rename while the file does not parse" + why + ": a rename must see every use of the name; fix the syntax error first"}
	}
	if !ok {
		return nil, &respError{codeRequestFailed, "there is no name here to rename"}
	}
	switch {
	case !identRE.MatchString(rp.NewName):
		return nil, &respError{codeRequestFailed, "cannot rename to " + rp.NewName + ": a name is letters, digits and _ (hyphens between them), not starting with a digit"}
	case isKeyword(rp.NewName):
		return nil, &respError{codeRequestFailed, "cannot rename to " + rp.NewName + ": it is a keyword"}
	}
	an, _ := d.nav()
	syms := an.Resolve(r)
	if len(syms) == 0 {
		return nil, &respError{codeRequestFailed, r.Name + " is not declared: nothing to rename"}
	}
	for _, sym := range syms {
		if sym.Pos.Line < 1 {
			return nil, &respError{codeRequestFailed, r.Name + " is declared by " + sym.Pos.File + ", which vigil does not rewrite"}
		}
	}
	if clash := an.Lookup(r.NS, rp.NewName); len(clash) > 0 && !syms[0].Local {
		return nil, &respError{codeRequestFailed, "cannot rename to " + rp.NewName + ": it is declared already at " + clash[0].Pos.String()}
	}
	locs, missed, e := s.refs(withIncludeDeclaration(params))
	if e != nil {
		return nil, e
	}
	if len(missed) > 0 {
		return nil, &respError{codeRequestFailed, "cannot rename " + r.Name + ": " + strings.Join(missed, ", ") + " has uses or declarations of it that vigil cannot place in the editor's text (edits there since it last parsed, or not saved); fix or save it first"}
	}
	edits := workspaceEdit{Changes: map[string][]textEdit{}}
	for _, l := range locs {
		edits.Changes[l.URI] = append(edits.Changes[l.URI], textEdit{Range: l.Range, NewText: rp.NewName})
	}
	for uri, es := range edits.Changes {
		sort.Slice(es, func(i, j int) bool {
			a, b := es[i].Range.Start, es[j].Range.Start
			return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
		})
		if e := s.stillParses(uri, es, rp.NewName); e != nil {
			return nil, e
		}
	}
	return edits, nil
}

// stillParses refuses a rename whose edits make a file that parses stop
// parsing. A word that is a keyword only where the grammar expects it may
// be one at a renamed place: `b` renamed to sum in `when !b cost 2` reads
// `sum cost` as a quantifier over cost.
func (s *server) stillParses(uri string, es []textEdit, name string) *respError {
	var src string
	if d := s.docs[uri]; d != nil {
		src = d.text.src
	} else {
		b, err := inputfile.ReadFile(uriPath(uri))
		if err != nil {
			return nil // a declaration's file the checker read: it is there
		}
		src = string(b)
	}
	path := uriPath(uri)
	if f, _ := lang.Parse(path, []byte(src)); f == nil {
		return nil
	}
	t := newText(src)
	var b strings.Builder
	last := 0
	for _, e := range es {
		a, z := t.offset(e.Range.Start), t.offset(e.Range.End)
		if a < last || z < a {
			return &respError{codeRequestFailed, "cannot rename to " + name + ": its edits overlap in " + path + " (a bug in vigil, please report it)"}
		}
		b.WriteString(src[last:a])
		b.WriteString(e.NewText)
		last = z
	}
	b.WriteString(src[last:])
	if f, diags := lang.Parse(path, []byte(b.String())); f == nil {
		why := ""
		if len(diags) > 0 {
			why = " (" + diags[0].Pos.String() + ": " + diags[0].Msg + ")"
		}
		return &respError{codeRequestFailed, "cannot rename to " + name + ": " + path + " would no longer parse" + why + "; " + name + " is a keyword where the grammar expects one there"}
	}
	return nil
}

// withIncludeDeclaration returns request params that ask references for
// the declarations too.
func withIncludeDeclaration(params json.RawMessage) json.RawMessage {
	var m map[string]any
	if json.Unmarshal(params, &m) != nil {
		return params
	}
	m["context"] = map[string]any{"includeDeclaration": true}
	b, err := json.Marshal(m)
	if err != nil {
		return params
	}
	return b
}

func isKeyword(s string) bool {
	for _, k := range lang.Keywords() {
		if k == s {
			return true
		}
	}
	return false
}

type codeAction struct {
	Title       string        `json:"title"`
	Kind        string        `json:"kind"`
	Diagnostics []diagnostic  `json:"diagnostics"`
	IsPreferred bool          `json:"isPreferred"`
	Edit        workspaceEdit `json:"edit"`
}

var (
	didYouMean = regexp.MustCompile(`\(did you mean "?([A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*)"?\?\)`)
	hyphenFix  = regexp.MustCompile(`so write (.+) with spaces around the minus`)
)

// codeAction offers the quick fixes of the diagnostics the client sends
// back: the suggested name in place of the misspelt one.
func (s *server) codeAction(params json.RawMessage) (any, *respError) {
	var p struct {
		TextDocument textDocumentIdentifier `json:"textDocument"`
		Context      struct {
			Diagnostics []diagnostic `json:"diagnostics"`
		} `json:"context"`
	}
	if e := decode(params, &p); e != nil {
		return nil, e
	}
	if _, e := s.doc(p.TextDocument.URI); e != nil {
		return nil, e
	}
	out := []codeAction{}
	for _, dg := range p.Context.Diagnostics {
		if dg.Source != "vigil" {
			continue
		}
		var fix, title string
		if m := didYouMean.FindStringSubmatch(dg.Message); m != nil {
			fix, title = m[1], "Change to "+m[1]
		} else if m := hyphenFix.FindStringSubmatch(dg.Message); m != nil {
			fix, title = m[1], "Write "+m[1]
		} else {
			continue
		}
		out = append(out, codeAction{
			Title: title, Kind: "quickfix", Diagnostics: []diagnostic{dg}, IsPreferred: true,
			Edit: workspaceEdit{Changes: map[string][]textEdit{p.TextDocument.URI: {{Range: dg.Range, NewText: fix}}}},
		})
	}
	return out, nil
}
