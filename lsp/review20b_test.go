package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"vigil/symbolic"
)

// The conversions as they were before checkpoints, one scan from the
// line's start each: the reference the fast ones must agree with.
func refLine(src string, i int) string {
	lines := strings.Split(src, "\n")
	if i < 0 || i >= len(lines) {
		return ""
	}
	return strings.TrimSuffix(lines[i], "\r")
}

func refToLSP(src string, p symbolic.Pos) Position {
	if p.Line < 1 {
		return Position{}
	}
	ch, col := 0, 1
	for _, r := range refLine(src, p.Line-1) {
		if col >= p.Col {
			break
		}
		ch += utf16Len(r)
		col++
	}
	if col < p.Col {
		ch += p.Col - col
	}
	return Position{Line: p.Line - 1, Character: ch}
}

func refFromLSP(src string, p Position) (int, int) {
	ch, col := 0, 1
	for _, r := range refLine(src, p.Line) {
		if ch >= p.Character {
			break
		}
		ch += utf16Len(r)
		col++
	}
	return p.Line + 1, col
}

func refWordEnd(src string, line, col int) int {
	r := []rune(refLine(src, line-1))
	i := col - 1
	if i < 0 || i >= len(r) {
		return col
	}
	if !isIdentRune(r[i]) {
		return col + 1
	}
	for i < len(r) && (isIdentRune(r[i]) || r[i] == '-' && i+1 < len(r) && isIdentRune(r[i+1])) {
		i++
	}
	return i + 1
}

// FuzzPositions: the checkpointed conversions (marks every markEvery runes
// of a long line) give what a scan from the line's start gives, on lines
// of every length, with characters of one to four UTF-8 bytes and two
// UTF-16 units, invalid UTF-8 and \r\n; and the byte offsets they give
// convert back to the same positions.
func FuzzPositions(f *testing.F) {
	f.Add("a\tb\n\u00e9\u4e16\U0001F69Ax y\r\nlast", 3, 1, 5, 7)
	f.Add("ab-c d_e \xff\xfe \U0001F69A", 200, 0, 300, 301)
	f.Add("x\r\n\r\n", 1, 1, 1, 2)
	f.Add("\ufeffab\n\U0001F69A", 1, 0, 2, 3)
	f.Fuzz(func(t *testing.T, unit string, reps, line, col, ch int) {
		if reps < 1 || reps > 400 || len(unit)*reps > 1<<16 {
			return
		}
		src := strings.Repeat(unit, reps)
		tx := newText(src)
		if tx.vig != tx.lsp {
			// A lone \r, or a byte-order mark at the start (review22l): the
			// numberings differ (TestReview20bLoneCR), and
			// the reference, which splits at \n, does not apply; the
			// conversions still go there and back through byte offsets.
			for l := 0; l < tx.lsp.count(); l++ {
				for _, h := range []int{0, ch % 300, markEvery + 1, 1 << 20} {
					off := tx.offset(Position{l, h})
					if off < tx.vig.starts[0] {
						continue // in a byte-order mark at the start: no vigil column
					}
					p := tx.position(off)
					vl, vc := tx.lineCol(off)
					if p.Line != l || tx.offset(p) != off || tx.byteOffset(symbolic.Pos{Line: vl, Col: vc}) != off || tx.toLSP(symbolic.Pos{Line: vl, Col: vc}) != p {
						t.Fatalf("%d:%d: offset %d, back at %v, vigil %d:%d", l, h, off, p, vl, vc)
					}
				}
			}
			return
		}
		for _, l := range []int{line, line % 4, -1, tx.lsp.count(), tx.lsp.count() - 1} {
			for _, c := range []int{col, col % 600, 0, 1, markEvery, markEvery + 1, 5 * markEvery} {
				p := symbolic.Pos{Line: l + 1, Col: c}
				if got, want := tx.toLSP(p), refToLSP(src, p); got != want {
					t.Fatalf("toLSP(%d:%d) = %v, want %v", p.Line, p.Col, got, want)
				}
				if c >= 1 && l >= 0 {
					if got, want := tx.wordEnd(l+1, c), refWordEnd(src, l+1, c); got != want {
						t.Fatalf("wordEnd(%d:%d) = %d, want %d", l+1, c, got, want)
					}
				}
			}
			for _, h := range []int{ch, ch % 700, -3, 0, markEvery, 2*markEvery + 1} {
				p := Position{Line: l, Character: h}
				gl, gc := tx.fromLSP(p)
				wl, wc := refFromLSP(src, p)
				if gl != wl || gc != wc {
					t.Fatalf("fromLSP(%v) = %d:%d, want %d:%d", p, gl, gc, wl, wc)
				}
				if l < 0 || l >= tx.lsp.count() {
					continue
				}
				off := tx.offset(p)
				if back := tx.position(off); back != tx.toLSP(symbolic.Pos{Line: gl, Col: gc}) {
					t.Fatalf("offset(%v) = %d, at %v; fromLSP then toLSP give %v", p, off, back, tx.toLSP(symbolic.Pos{Line: gl, Col: gc}))
				}
				if bl, bc := tx.lineCol(off); bl != gl || bc != gc {
					t.Fatalf("lineCol(offset(%v)) = %d:%d, want %d:%d", p, bl, bc, gl, gc)
				}
				if b := tx.byteOffset(symbolic.Pos{Line: gl, Col: gc}); b != off {
					t.Fatalf("byteOffset(%d:%d) = %d, want offset(%v) = %d", gl, gc, b, p, off)
				}
			}
		}
	})
}

// FuzzApplyChange: a range change keeps what lies before its start and
// after its end, never splits a character or a \r\n, and refuses a range
// that is not one of the document (start after end, negative, a line past
// the last) instead of guessing.
func FuzzApplyChange(f *testing.F) {
	f.Add("ab\r\ncd\n\U0001F69Ae", 0, 9, 1, 0, "X")
	f.Add("ab\ncd", 1, 1, 0, 3, "")
	f.Add("\U0001F69A\U0001F69A", 0, 1, 0, 3, "y")
	f.Fuzz(func(t *testing.T, src string, l1, c1, l2, c2 int, repl string) {
		if !utf8.ValidString(src) || !utf8.ValidString(repl) {
			return // JSON gives the server valid UTF-8 only
		}
		if tx := newText(src); tx.vig != tx.lsp {
			return // a lone \r ends an LSP line: the reference below splits at \n only (TestReview20bLoneCR)
		}
		r := Range{Position{l1, c1}, Position{l2, c2}}
		out, err := applyChange(src, r, repl)
		nlines := strings.Count(src, "\n") + 1
		bad := l1 < 0 || c1 < 0 || l2 < 0 || c2 < 0 || l1 >= nlines || l2 >= nlines || l2 < l1 || l1 == l2 && c2 < c1
		if bad != (err != nil) {
			t.Fatalf("range %v of %q: error %v", r, src, err)
		}
		if err != nil {
			return
		}
		a, b := refOffset(src, r.Start), refOffset(src, r.End)
		if want := src[:a] + repl + src[b:]; out != want {
			t.Fatalf("%q with %v replaced by %q gave %q, want %q", src, r, repl, out, want)
		}
		for _, o := range []int{a, b} {
			if o < len(src) && !utf8.RuneStart(src[o]) || o > 0 && o < len(src) && src[o-1] == '\r' && src[o] == '\n' {
				t.Fatalf("%q with %v: offset %d splits a character or a \\r\\n", src, r, o)
			}
		}
	})
}

// refOffset is the byte offset of an LSP position of src (a valid one), a
// scan from the document's start.
func refOffset(src string, p Position) int {
	start := 0
	for i := 0; i < p.Line; i++ {
		start += strings.IndexByte(src[start:], '\n') + 1
	}
	line := refLine(src, p.Line)
	ch, i := 0, 0
	for _, r := range line {
		if ch >= p.Character {
			break
		}
		ch += utf16Len(r)
		i += utf8.RuneLen(r)
	}
	return start + i
}

// A change whose range starts after its end is not guessed at (it was
// swapped): the server says it lost track of the document, refuses
// requests about it rather than answer with positions of a text the
// editor does not have, and recovers when the whole text is sent. A
// change for a document that is not open is logged, not dropped silently.
func TestReview20bChangeOutOfRange(t *testing.T) {
	uri, open := openDoc(t, "c.spec", "const N = 2\nvar x : 0 .. N = 0\n")
	change := func(v int, changes string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":%d},"contentChanges":[%s]}}`, uri, v, changes)
	}
	answers := session(t, initMsg, open,
		change(2, `{"range":{"start":{"line":1,"character":4},"end":{"line":0,"character":6}},"text":"Q"}`),
		atPos(uri, "1", "textDocument/hover", 0, 6, ""),
		change(3, `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":"// more\n"}`),
		atPos(uri, "2", "textDocument/hover", 0, 6, ""),
		change(4, `{"text":"const N = 2\nvar x : 0 .. N = 0\n"}`),
		atPos(uri, "3", "textDocument/hover", 1, 13, ""),
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nope.spec","version":1},"contentChanges":[{"text":""}]}}`,
	)
	var got []string
	for _, a := range answers[2:] {
		b := fmt.Sprint(a)
		got = append(got, b)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"method:window/showMessage params:map[message:vigil lost track of",
		"the range 1:4-0:6 starts after its end",
		"map[code:-32803 message:vigil lost track of this document's text",
		"result:map[contents:map[kind:markdown value:```vigil-spec\nconst N = 2",
		"method:window/logMessage params:map[message:vigil: textDocument/didChange: didChange for a document that is not open: file:///nope.spec",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the session lacks %q:\n%s", want, all)
		}
	}
	if strings.Count(all, "window/showMessage") != 1 {
		t.Errorf("want one message that the document is lost:\n%s", all)
	}
	if strings.Count(all, "code:-32803 message:vigil lost track") != 2 {
		t.Errorf("want both hovers while lost refused:\n%s", all)
	}
}

// While the text does not parse, navigation uses the text that last did;
// a position the client sends, and every position the server answers,
// are the current text's: those in text edited since are refused, those
// after it are shifted, and a rename (which must see every use) waits for
// the file to parse. It renamed "M" as if it were "N", one line up in the
// old text, at a line the file no longer has.
func TestReview20bNavigationWhileBroken(t *testing.T) {
	old := "const N = 2\nconst M = 3\nvar x : 0 .. N = 0\naction a when x < N -> x' = x\n"
	uri, open := openDoc(t, "b.spec", old)
	change := func(text string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":%q}]}}`, uri, text)
	}
	rename := fmt.Sprintf(`{"jsonrpc":"2.0","id":"r","method":"textDocument/rename","params":{"textDocument":{"uri":%q},"position":{"line":0,"character":6},"newName":"Z"}}`, uri)
	// The first line deleted and a syntax error typed at the end of the
	// second: "M" is now at 0:6, where "N" was.
	answers := session(t, initMsg, open, change("const M = 3\nvar x : 0 .. N = 0\naction a when x < N -> x' = x )\n"),
		rename, atPos(uri, "1", "textDocument/hover", 0, 6, ""),
		atPos(uri, "2", "textDocument/definition", 2, 18, ""))
	if e, _ := answers[3]["error"].(map[string]any); e == nil || !strings.Contains(e["message"].(string), "cannot rename while the file does not parse") {
		t.Errorf("rename while broken: %v", answers[3])
	}
	if answers[4]["result"] != nil {
		t.Errorf("hover on M answered with what N was: %v", answers[4])
	}
	// N at 2:18 of the current text is in the edited part (the shared
	// suffix is only "\n" and the prefix "const "): no answer rather than a wrong one.
	if locs, _ := answers[5]["result"].([]any); len(locs) != 0 {
		t.Errorf("definition from the edited part: %v", answers[5])
	}
	// A broken line inserted at the top: everything after it maps, one
	// line down.
	answers = session(t, initMsg, open, change("var y : 0 .. 1 = 0 )))\n"+old),
		atPos(uri, "1", "textDocument/hover", 4, 18, ""),
		atPos(uri, "2", "textDocument/definition", 4, 18, ""),
		atPos(uri, "3", "textDocument/references", 1, 6, `,"context":{"includeDeclaration":true}`),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":4,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":%q}}}`, uri))
	if r := fmt.Sprint(answers[3]["result"].(map[string]any)["range"]); r != "map[end:map[character:19 line:4] start:map[character:18 line:4]]" {
		t.Errorf("hover range %s", r)
	}
	if r := fmt.Sprint(answers[4]["result"]); !strings.Contains(r, "range:map[end:map[character:7 line:1] start:map[character:6 line:1]]") {
		t.Errorf("definition %s, want 1:6-1:7", r)
	}
	if r := fmt.Sprint(answers[5]["result"]); strings.Count(r, "uri:") != 3 || !strings.Contains(r, "start:map[character:13 line:3]") || !strings.Contains(r, "start:map[character:18 line:4]") {
		t.Errorf("references %s, want 1:6, 3:13, 4:18", r)
	}
	if r := fmt.Sprint(answers[6]["result"]); !strings.Contains(r, "name:N range:map[end:map[character:11 line:1] start:map[character:0 line:1]]") {
		t.Errorf("symbols %s", r)
	}
}

// A document of one 670 KB line: each position on it was converted by a
// scan from the line's start, so documentSymbol (40,000 names) took three
// minutes. With checkpoints it is linear; the test asks only for the
// right answer (the benchmark-free check of the time is that the test
// suite ends).
func TestReview20bLongLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("model l var x : 0 .. 1 = 0 ")
	const n = 40000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "const A%d = 1 ", i)
	}
	src := b.String()
	uri, open := openDoc(t, "line.spec", src)
	answers := session(t, initMsg, open, fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":%q}}}`, uri))
	syms, _ := answers[2]["result"].([]any)
	if len(syms) < n {
		t.Fatalf("%d symbols", len(syms))
	}
	last := syms[len(syms)-1].(map[string]any)
	want := strings.LastIndex(src, "A39999")
	if last["name"] != "A39999" || fmt.Sprint(last["selectionRange"]) != fmt.Sprintf("map[end:map[character:%d line:0] start:map[character:%d line:0]]", want+6, want) {
		t.Errorf("last symbol %v, want A39999 at character %d", last, want)
	}
}

// A lone \r ends a line for LSP (the specification's line endings are
// \n, \r\n and \r) but not for vigil's line numbers: positions convert
// through byte offsets, so vigil's 1:26 is the second LSP line's 13th
// character, not past the end of the first. (The .spec front end now
// refuses a lone \r, E0001 at it, which is where the server shows it.)
func TestReview20bLoneCR(t *testing.T) {
	src := "const N = 2\rvar x : 0 .. M = 0\r\nconst K = 1\n"
	tx := newText(src)
	if tx.lsp.count() != 4 || tx.vig.count() != 3 {
		t.Fatalf("%d LSP lines, %d vigil lines", tx.lsp.count(), tx.vig.count())
	}
	if got := tx.toLSP(symbolic.Pos{Line: 1, Col: 26}); got != (Position{1, 13}) {
		t.Errorf("vigil 1:26 is LSP %v, want 1:13", got)
	}
	if got := tx.toLSP(symbolic.Pos{Line: 2, Col: 7}); got != (Position{2, 6}) {
		t.Errorf("vigil 2:7 is LSP %v, want 2:6", got)
	}
	if l, c := tx.fromLSP(Position{1, 13}); l != 1 || c != 26 {
		t.Errorf("LSP 1:13 is vigil %d:%d, want 1:26", l, c)
	}
	if l, c := tx.fromLSP(Position{0, 99}); l != 1 || c != 12 {
		t.Errorf("LSP 0:99 is vigil %d:%d, want 1:12 (the end of the LSP line, before the \\r)", l, c)
	}
	// vigil refuses the lone \r (E0001, lang/spec.md "Lexical structure"):
	// the diagnostic sits on it, at the end of the editor's first line
	uri, open := openDoc(t, "cr.spec", src)
	answers := session(t, initMsg, open, atPos(uri, "1", "textDocument/hover", 2, 6, ""))
	diags := fmt.Sprint(answers[1]["params"].(map[string]any)["diagnostics"])
	if !strings.Contains(diags, "code:E0001") || !strings.Contains(diags, "start:map[character:11 line:0]") {
		t.Errorf("diagnostics %s, want E0001 at the carriage return, 0:11", diags)
	}
	// after a change through the lone \r, the document is the client's
	out, err := applyChange(src, Range{Position{0, 11}, Position{1, 0}}, "\n")
	if err != nil || out != "const N = 2\nvar x : 0 .. M = 0\r\nconst K = 1\n" {
		t.Errorf("replacing the lone \\r: %q, %v", out, err)
	}
}

// A definition in an imported file is where the checker read it: on
// disk. When that file is open with edits not saved yet, the location is
// given in the editor's text (moved by the edits), not at the disk's line.
func TestReview20bImportedUnsaved(t *testing.T) {
	dir := t.TempDir()
	lib := "const VMAX = 3\n"
	if err := os.WriteFile(filepath.Join(dir, "lib.spec"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	mainURI := "file://" + filepath.ToSlash(filepath.Join(dir, "main.spec"))
	libURI := "file://" + filepath.ToSlash(filepath.Join(dir, "lib.spec"))
	open := func(uri, text string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, uri, text)
	}
	main := "model m\nimport \"lib.spec\"\nvar x : 0 .. VMAX = 0\n"
	answers := session(t, initMsg, open(mainURI, main), open(libURI, "// two lines\n// added\n"+lib),
		atPos(mainURI, "1", "textDocument/definition", 2, 14, ""))
	r := fmt.Sprint(answers[3]["result"])
	if !strings.Contains(r, "range:map[end:map[character:10 line:2] start:map[character:6 line:2]]") || !strings.Contains(r, "lib.spec") {
		t.Errorf("definition of VMAX: %s, want lib.spec 2:6-2:10 (the open, unsaved text)", r)
	}
}
