package lsp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"vigil/lang"
)

// Session 24: the server as an editor drives it, against references
// written here from the LSP specification alone (positions in UTF-16
// units, lines ending at \n, \r\n and a lone \r) and against vigil
// check's own diagnostics.

// s24eLines splits text as LSP does; each line keeps no terminator.
func s24eLines(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			out = append(out, text[start:i])
			start = i + 1
		case '\r':
			out = append(out, text[start:i])
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return append(out, text[start:])
}

// s24eOffset is the byte offset of an LSP position: a character past the
// line's end is its end, one inside a surrogate pair is after the pair.
func s24eOffset(text string, p Position) int {
	off := 0
	lines := s24eLines(text)
	for i := 0; i < p.Line; i++ {
		off += len(lines[i])
		switch {
		case strings.HasPrefix(text[off:], "\r\n"):
			off += 2
		default:
			off++
		}
	}
	ch := 0
	for _, r := range lines[p.Line] {
		if ch >= p.Character {
			break
		}
		ch += len(utf16.Encode([]rune{r}))
		off += utf8.RuneLen(r)
		if r == utf8.RuneError {
			off += 0 // invalid bytes do not occur in these texts
		}
	}
	return off
}

// s24ePosition is the LSP position of a byte offset.
func s24ePosition(text string, off int) Position {
	lines := s24eLines(text[:off])
	return Position{len(lines) - 1, len(utf16.Encode([]rune(lines[len(lines)-1])))}
}

// s24eToLSP converts vigil's (line, rune column), lines ending at \n only
// (a \r before it in no column, a lone \r a space) and a byte-order mark
// at the start in no column, to an LSP position; columns past the line's
// end count one character each.
func s24eToLSP(text string, line, col int) Position {
	vl := strings.Split(text, "\n")
	off := 0
	for i := 0; i < line-1; i++ {
		off += len(vl[i]) + 1
	}
	l := vl[line-1]
	if line < len(vl) {
		l = strings.TrimSuffix(l, "\r") // before a \n: no column
	}
	if line == 1 && strings.HasPrefix(l, "\ufeff") {
		off += len("\ufeff")
		l = l[len("\ufeff"):]
	}
	excess := 0
	for c := 1; c < col; c++ {
		if l == "" {
			excess++
			continue
		}
		_, n := utf8.DecodeRuneInString(l)
		off += n
		l = l[n:]
	}
	p := s24ePosition(text, off)
	p.Character += excess
	return p
}

// checkDiags is what vigil check reports for text saved at path.
func checkDiags(t *testing.T, path, text string) lang.Diagnostics {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.LoadFile(path, lang.Options{OverflowWarnings: true})
	if m != nil {
		if pd := lang.PolicyFileDiagnostics(m); pd.HasErrors() {
			diags = append(diags, pd...)
		}
	}
	return diags
}

type editorSession struct {
	t   *testing.T
	s   *server
	out strings.Builder
	n   int
}

func newEditor(t *testing.T) *editorSession {
	e := &editorSession{t: t}
	e.s = newServer(&e.out, Options{})
	e.send(initMsg)
	return e
}

func (e *editorSession) send(msg string) []map[string]any {
	e.out.Reset()
	e.s.handle([]byte(msg))
	var got []map[string]any
	rd := &reader{r: bufio.NewReader(strings.NewReader(e.out.String()))}
	for {
		body, err := rd.read()
		if err == io.EOF {
			return got
		}
		if err != nil {
			e.t.Fatalf("bad frame: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			e.t.Fatal(err)
		}
		if er, ok := m["error"].(map[string]any); ok && er["code"].(float64) == codeInternalError {
			e.t.Fatalf("after %s: internal error %v", msg, er["message"])
		}
		got = append(got, m)
	}
}

func (e *editorSession) notify(method string, params any) []map[string]any {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	return e.send(string(b))
}

func (e *editorSession) request(method string, params any) map[string]any {
	e.n++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": e.n, "method": method, "params": params})
	for _, m := range e.send(string(b)) {
		if id, ok := m["id"].(float64); ok && int(id) == e.n {
			return m
		}
	}
	e.t.Fatalf("no answer to %s", b)
	return nil
}

// published is the diagnostics of the last publishDiagnostics in msgs.
func published(t *testing.T, msgs []map[string]any) []diagnostic {
	var out []diagnostic
	found := false
	for _, m := range msgs {
		if m["method"] == "textDocument/publishDiagnostics" {
			b, _ := json.Marshal(m["params"].(map[string]any)["diagnostics"])
			out = nil
			if err := json.Unmarshal(b, &out); err != nil {
				t.Fatal(err)
			}
			found = true
		}
	}
	if !found {
		t.Fatalf("no diagnostics published in %v", msgs)
	}
	return out
}

// sameAsCheck compares the server's diagnostics with vigil check's on
// the same text: code, message, and start converted to UTF-16.
func sameAsCheck(t *testing.T, path, text string, got []diagnostic, what string) {
	t.Helper()
	var want, have []string
	for _, d := range checkDiags(t, path, text) {
		p, end := Position{}, ""
		if d.Pos.Line >= 1 {
			p = s24eToLSP(text, d.Pos.Line, d.Pos.Col)
			if d.End > d.Pos.Col { // vigil check's end column (exclusive), in UTF-16
				q := s24eToLSP(text, d.Pos.Line, d.End)
				end = fmt.Sprintf("-%d:%d", q.Line, q.Character)
			}
		}
		want = append(want, fmt.Sprintf("%d:%d%s %s %s", p.Line, p.Character, end, d.Code, d.Msg))
	}
	ends := map[string]bool{}
	for _, w := range want {
		ends[w] = true
	}
	for _, d := range got {
		h := fmt.Sprintf("%d:%d", d.Range.Start.Line, d.Range.Start.Character)
		if withEnd := fmt.Sprintf("%s-%d:%d %s %s", h, d.Range.End.Line, d.Range.End.Character, d.Code, d.Message); ends[withEnd] {
			h = withEnd
		} else {
			h += " " + d.Code + " " + d.Message
		}
		have = append(have, h)
	}
	sort.Strings(want)
	sort.Strings(have)
	if strings.Join(want, "\n") != strings.Join(have, "\n") {
		t.Fatalf("%s: text %q:\nlsp:\n  %s\nvigil check:\n  %s", what, text, strings.Join(have, "\n  "), strings.Join(want, "\n  "))
	}
}

// validPos reports whether p is a position of text, not inside a
// surrogate pair.
func validPos(text string, p Position) bool {
	lines := s24eLines(text)
	if p.Line < 0 || p.Line >= len(lines) || p.Character < 0 {
		return false
	}
	u := utf16.Encode([]rune(lines[p.Line]))
	if p.Character > len(u) {
		return false
	}
	return p.Character == 0 || p.Character == len(u) || !utf16.IsSurrogate(rune(u[p.Character]))
}

const s24eBase = "model m\n// é世🚚 a comment of wide characters\nconst N = 3\nvar x : 0 .. N = 0\nvar b : bool = false\naction inc when x < N -> x' = x + 1\naction tog -> b' = !b\npredicate big = x >= 2\nproperty p { start x == 0 unsafe x == N && b goal big }\n"

var s24ePieces = []string{"(", ")", "{", "}", "'", "=", "->", "..", "+", "é", "🚚", "世", "\t", "\r", "\r\n", "\n", "@", "x", "xx", "N", "big", " ", "inc", "undeclared", "9223372036854775807 * x", "\ufeff", "battery", "W", "at_charger", "//", "\"", "-"}

// TestS24eIncrementalAgainstReference: random range edits (UTF-16
// positions, some inside a surrogate pair, past a line's end, over CRLF
// and lone CR line breaks) keep the server's text the one the LSP
// specification defines, and after every edit the published diagnostics
// are vigil check's on that text; hover, definition, references,
// completion and document symbols at random positions answer without an
// internal error and with ranges of the current text.
func TestS24eIncrementalAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewSource(s24eSeed()))
	dir := t.TempDir()
	path := filepath.Join(dir, "e.spec")
	uri := "file://" + filepath.ToSlash(path)
	// the second text imports a file and names a table policy's CSV
	grid, err := os.ReadFile("../specs/lang_grid.spec")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"lang_common.spec", "policies/lang_grid.csv"} {
		b, err := os.ReadFile(filepath.Join("../specs", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for round := 0; round < 12; round++ {
		e := newEditor(t)
		text := s24eBase
		if round%2 == 1 {
			text = string(grid)
		}
		if round%3 == 1 {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		got := published(t, e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": text}}))
		sameAsCheck(t, path, text, got, "open")
		for v := 2; v < 40; v++ {
			var lines []string
			pos := func() Position {
				l := rng.Intn(len(lines))
				n := len(utf16.Encode([]rune(lines[l])))
				return Position{l, rng.Intn(n + 3)}
			}
			// one to three changes in a message, each of the text the
			// previous one left
			var changes []any
			want := text
			for k := 1 + rng.Intn(3); k > 0; k-- {
				lines = s24eLines(want)
				a, b := pos(), pos()
				if b.Line < a.Line || b.Line == a.Line && b.Character < a.Character {
					a, b = b, a
				}
				if rng.Intn(3) == 0 {
					b = a // an insertion
				}
				ins := ""
				for k := rng.Intn(3); k > 0; k-- {
					ins += s24ePieces[rng.Intn(len(s24ePieces))]
				}
				changes = append(changes, map[string]any{"range": Range{a, b}, "text": ins})
				want = want[:s24eOffset(want, a)] + ins + want[s24eOffset(want, b):]
			}
			msgs := e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": v},
				"contentChanges": changes})
			if have := e.s.docs[uri].text.src; have != want {
				t.Fatalf("after the changes %v of %q: server has %q, want %q", changes, text, have, want)
			}
			text = want
			lines = s24eLines(text)
			sameAsCheck(t, path, text, published(t, msgs), fmt.Sprintf("version %d", v))
			for _, method := range []string{"textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/completion", "textDocument/documentSymbol"} {
				p := pos()
				ans := e.request(method, map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p, "context": map[string]any{"includeDeclaration": true}})
				var ranges []Range
				collectRanges(ans["result"], &ranges, uri)
				for _, r := range ranges {
					if !validPos(text, r.Start) || !validPos(text, r.End) {
						t.Fatalf("%s at %v of %q: range %v is not one of the text", method, p, text, r)
					}
				}
				// locations in the imported file: of its text on disk
				for _, loc := range otherLocations(ans["result"], uri) {
					b, err := os.ReadFile(uriPath(loc.URI))
					if err != nil {
						t.Fatalf("%s at %v: a location in %s: %v", method, p, loc.URI, err)
					}
					if !validPos(string(b), loc.Range.Start) || !validPos(string(b), loc.Range.End) {
						t.Fatalf("%s at %v: range %v is not one of %s", method, p, loc.Range, loc.URI)
					}
				}
			}
		}
	}
}

// collectRanges finds every {"start":..., "end":...} in a JSON value,
// but those of a location in a document other than uri.
func collectRanges(v any, out *[]Range, uri string) {
	switch x := v.(type) {
	case map[string]any:
		if u, ok := x["uri"]; ok && u != uri {
			return
		}
		if _, ok := x["start"]; ok {
			if _, ok := x["end"]; ok {
				b, _ := json.Marshal(x)
				var r Range
				if json.Unmarshal(b, &r) == nil {
					*out = append(*out, r)
					return
				}
			}
		}
		for _, y := range x {
			collectRanges(y, out, uri)
		}
	case []any:
		for _, y := range x {
			collectRanges(y, out, uri)
		}
	}
}

func s24eSeed() int64 {
	var n int64 = 24
	fmt.Sscan(os.Getenv("S24E_SEED"), &n)
	return n
}

// TestS24eSymbolEndBeforeCRLF: a property's end, after its "}" and
// before the \n, maps (through the shared suffix "\n") to the place
// between the \r and the \n of the client's text after "ig }" became
// "\r"; documentSymbol answered the character one past the line's end
// (2:52 on a line of 51), no position of the text.
func TestS24eSymbolEndBeforeCRLF(t *testing.T) {
	good := "model m\nvar x : 0 .. 3 = 0\nproperty p { start x == 0 unsafe x == 3 && x > 0 goal big }\n"
	good = strings.Replace(good, "goal big", "goal x > 1", 1)
	bad := strings.Replace(good, "> 1 }\n", "\r\n", 1)
	e := newEditor(t)
	uri := "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "c.spec"))
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": good}})
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": bad}}})
	if e.s.docs[uri].an.File != nil {
		t.Fatalf("%q parses: the test needs a text that does not", bad)
	}
	ans := e.request("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}})
	var ranges []Range
	collectRanges(ans["result"], &ranges, uri)
	if len(ranges) == 0 {
		t.Fatalf("no symbols: %v", ans)
	}
	for _, r := range ranges {
		if !validPos(bad, r.Start) || !validPos(bad, r.End) {
			t.Errorf("range %v is not one of %q", r, bad)
		}
	}
	if p := newText("ab\r\ncd").position(3); p != (Position{0, 2}) {
		t.Errorf("the offset between \\r and \\n is at %v, want the line's end 0:2", p)
	}
}

// TestS24eCheckOnlyDiagnostics: the overflow warnings (W0306) and the
// errors of a network file that does not fit its declaration (E0509),
// which vigil check gives, are published too (the editor showed these
// files clean).
func TestS24eCheckOnlyDiagnostics(t *testing.T) {
	dir := t.TempDir()
	net, err := os.ReadFile("../specs/policies/oneway_32x32.onnx")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "net.onnx"), net, 0o644); err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{
		"ovf.spec": "model m\nconst B = 4611686018427387904\nvar x : -2 .. 2 = 1\nvar y : 0 .. 1 = 0\n// é🚚\naction a when x * B + x * B > 0 -> y' = 1\nproperty p { unsafe y == 1 }\n",
		"nn.spec":  "model m\r\nvar x : 0 .. 3 = 0 // 🚚\r\naction a -> x' = x\r\naction b -> x' = x\r\npolicy nn net \"net.onnx\" {\r\n  inputs x\r\n  outputs a, b\r\n}\r\n",
	}
	for name, text := range texts {
		path := filepath.Join(dir, name)
		uri := "file://" + filepath.ToSlash(path)
		e := newEditor(t)
		got := published(t, e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": text}}))
		if len(got) == 0 {
			t.Errorf("%s: no diagnostics", name)
		}
		sameAsCheck(t, path, text, got, name)
		// a change elsewhere keeps them (the network's from the cache)
		text2 := strings.Replace(text, "model m", "model mm", 1)
		got = published(t, e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2}, "contentChanges": []any{map[string]any{"text": text2}}}))
		sameAsCheck(t, path, text2, got, name+" changed")
	}
	// the network file replaced by one that fits: the error goes
	e := newEditor(t)
	path := filepath.Join(dir, "nn.spec")
	uri := "file://" + filepath.ToSlash(path)
	fit := strings.Replace(texts["nn.spec"], "inputs x\r\n", "inputs x, x, x, x\r\n", 1)
	fit = strings.Replace(fit, "outputs a, b", "outputs a, b, a, b, a, b", 1)
	got := published(t, e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": fit}}))
	sameAsCheck(t, path, fit, got, "fit")
}

// TestS24eChangeBeforeOpen: a didChange of a document never opened is
// logged and publishes nothing; the didOpen after it is the text, and
// its diagnostics are the open text's, not the change's.
func TestS24eChangeBeforeOpen(t *testing.T) {
	e := newEditor(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "o.spec")
	uri := "file://" + filepath.ToSlash(path)
	msgs := e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 5},
		"contentChanges": []any{map[string]any{"text": "var x : 0 .. 1 = y\n"}}})
	if len(msgs) != 1 || msgs[0]["method"] != "window/logMessage" {
		t.Fatalf("a change before open: %v", msgs)
	}
	text := "model m\nvar x : 0 .. 1 = 🚚z\n"
	got := published(t, e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": text}}))
	sameAsCheck(t, path, text, got, "open after change")
	// closing clears them; a change after the close is refused again
	if got := published(t, e.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})); len(got) != 0 {
		t.Errorf("after close: %v", got)
	}
	msgs = e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 6},
		"contentChanges": []any{map[string]any{"range": Range{Position{0, 0}, Position{0, 0}}, "text": "x"}}})
	if len(msgs) != 1 || msgs[0]["method"] != "window/logMessage" {
		t.Fatalf("a change after close: %v", msgs)
	}
}

// TestS24eSaveRechecksImporters: a.spec imports b.spec, which is broken
// on disk; fixing b.spec and saving it (didSave) re-checks a.spec, whose
// diagnostics are vigil check's again: no error (it kept showing b's
// error until a.spec itself changed).
func TestS24eSaveRechecksImporters(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.spec"), filepath.Join(dir, "b.spec")
	atext := "import \"b.spec\"\nmodel a // é🚚\naction inc when x < N -> x' = x + 1\n"
	good, bad := "const N = 3\nvar x : 0 .. N = 0\n", "const N = \nvar x : 0 .. N = 0\n"
	if err := os.WriteFile(b, []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newEditor(t)
	auri, buri := "file://"+filepath.ToSlash(a), "file://"+filepath.ToSlash(b)
	if got := published(t, e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": auri, "version": 1, "text": atext}})); len(got) == 0 {
		t.Fatalf("a.spec with a broken import: no diagnostics")
	}
	e.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": buri, "version": 1, "text": bad}})
	e.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": buri, "version": 2}, "contentChanges": []any{map[string]any{"text": good}}})
	if err := os.WriteFile(b, []byte(good), 0o644); err != nil {
		t.Fatal(err)
	}
	msgs := e.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": buri}})
	var forA []map[string]any
	for _, m := range msgs {
		if p, ok := m["params"].(map[string]any); ok && p["uri"] == auri {
			forA = append(forA, m)
		}
	}
	got := published(t, forA)
	sameAsCheck(t, a, atext, got, "a.spec after b.spec was saved")
	if len(got) != 0 {
		t.Errorf("a.spec after b.spec was fixed and saved: %v", got)
	}
}

// TestS24eSlowChecksCoalesce: where a document's check is slow, changes
// that arrive together are checked once, the latest text; incremental
// changes apply to the text not checked yet, a request after them sees
// the latest text, and the diagnostics published are vigil check's of
// it. (slowCheck is 0 here: every check counts as slow.)
func TestS24eSlowChecksCoalesce(t *testing.T) {
	defer func(d time.Duration) { slowCheck = d }(slowCheck)
	slowCheck = 0
	dir := t.TempDir()
	path := filepath.Join(dir, "s.spec")
	uri := "file://" + filepath.ToSlash(path)
	text := "model m // 🚚\nconst N = 3\nvar x : 0 .. N = 0\naction inc when x < N -> x' = x + 1\n"
	msgs := []string{initMsg, fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, uri, text)}
	change := func(v int, r Range, ins string) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": v}, "contentChanges": []any{map[string]any{"range": r, "text": ins}}}})
		return string(b)
	}
	// type "M" after "N = 3" one character at a time, then "x < NM"
	want := text
	for v, ch := range []string{"M", "M"} {
		at := Position{1, 9 + v}
		msgs = append(msgs, change(2+v, Range{at, at}, ch))
		o := s24eOffset(want, at)
		want = want[:o] + ch + want[o:]
	}
	msgs = append(msgs, change(4, Range{Position{3, 21}, Position{3, 21}}, "M"))
	o := s24eOffset(want, Position{3, 21})
	want = want[:o] + "M" + want[o:]
	msgs = append(msgs, atPos(uri, "1", "textDocument/hover", 2, 13, ""), `{"jsonrpc":"2.0","id":"s","method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`)
	answers := session(t, msgs...)
	var pubs []map[string]any
	for _, a := range answers {
		if a["method"] == "textDocument/publishDiagnostics" {
			pubs = append(pubs, a)
		}
	}
	if len(pubs) != 2 {
		t.Fatalf("%d publications, want 2 (open, then the three changes at once): %v", len(pubs), pubs)
	}
	if v := pubs[1]["params"].(map[string]any)["version"]; v != float64(4) {
		t.Errorf("the diagnostics are of version %v, want 4", v)
	}
	sameAsCheck(t, path, want, published(t, pubs[1:]), "after the changes")
	// N is undeclared now (it became NMM): hover on it has nothing to say
	// (with the check of the open text it named const N = 3)
	hovered := false
	for _, a := range answers {
		if a["id"] == float64(1) {
			hovered = true
			if a["result"] != nil {
				t.Errorf("hover on N after the changes: %v", a["result"])
			}
		}
	}
	if !hovered {
		t.Error("no answer to the hover")
	}
}

// otherLocations are the locations of a result in documents other than uri.
func otherLocations(v any, uri string) []location {
	b, _ := json.Marshal(v)
	var locs []location
	if json.Unmarshal(b, &locs) != nil {
		return nil
	}
	var out []location
	for _, l := range locs {
		if l.URI != "" && l.URI != uri {
			out = append(out, l)
		}
	}
	return out
}
