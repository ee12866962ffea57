package lsp

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
	"vigil/symbolic"
)

// bfLines splits src at LSP's line breaks, \r\n, \n and \r; it returns
// each line's start and end.
func bfLines(src string) (starts, ends []int) {
	start := 0
	for i := 0; i <= len(src); i++ {
		switch {
		case i == len(src) || src[i] == '\n':
			starts, ends = append(starts, start), append(ends, i)
			start = i + 1
		case src[i] == '\r':
			starts, ends = append(starts, start), append(ends, i)
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	return starts, ends
}

// bfPos and bfOff convert between byte offsets of src and LSP positions
// by scanning src from its start.
func bfPos(src string, off int) Position {
	starts, _ := bfLines(src)
	l := 0
	for l+1 < len(starts) && starts[l+1] <= off {
		l++
	}
	return Position{l, len(utf16.Encode([]rune(src[starts[l]:off])))}
}

func bfOff(src string, p Position) int {
	starts, ends := bfLines(src)
	if p.Line < 0 || p.Line >= len(starts) {
		return -1
	}
	off, ch := starts[p.Line], 0
	for off < ends[p.Line] && ch < p.Character {
		r, n := utf8.DecodeRuneInString(src[off:])
		ch += utf16Len(r)
		off += n
	}
	if ch != p.Character {
		return -1 // past the line's end or inside a surrogate pair: never a name's end
	}
	return off
}

// review20yCheck asks hover, definition and references at every character
// of cur (the client's text, which does not parse, after base parsed) and
// checks each answer against a scan of cur: every range an answer gives
// in cur is a whole name of cur, the name the request's position is on
// (its start, inside or its end), and hover's text is about that name.
func review20yCheck(t *testing.T, base, cur string) {
	t.Helper()
	uri, open := openDoc(t, "y.spec", base)
	change := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":%q}]}}`, uri, cur)
	msgs := []string{initMsg, open, change}
	type ask struct {
		method string
		off    int
	}
	var asks []ask
	for off := 0; off <= len(cur); off++ {
		if off < len(cur) && !utf8.RuneStart(cur[off]) || off > 0 && off < len(cur) && cur[off-1:off+1] == "\r\n" {
			continue // inside a character, or between \r and \n (no position)
		}
		p := bfPos(cur, off)
		for _, m := range []string{"hover", "definition", "references"} {
			asks = append(asks, ask{m, off})
			msgs = append(msgs, atPos(uri, fmt.Sprint(len(asks)), "textDocument/"+m, p.Line, p.Character, `,"context":{"includeDeclaration":true}`))
		}
	}
	spans := words(cur)
	isWord := func(a, b int) (string, bool) {
		for _, w := range spans {
			if w[0] == a && w[1] == b {
				return cur[a:b], true
			}
		}
		return "", false
	}
	under := map[string]bool{} // the names at the position asked about
	for _, ans := range session(t, msgs...) {
		id, ok := ans["id"].(float64)
		if !ok || id < 1 {
			continue
		}
		q := asks[int(id)-1]
		for k := range under {
			delete(under, k)
		}
		for _, w := range spans {
			if w[0] <= q.off && q.off <= w[1] {
				under[cur[w[0]:w[1]]] = true
			}
		}
		var ranges []any
		switch res := ans["result"].(type) {
		case nil:
			continue
		case []any:
			for _, l := range res {
				if l.(map[string]any)["uri"] == uri {
					ranges = append(ranges, l.(map[string]any)["range"])
				}
			}
		case map[string]any:
			ranges = append(ranges, res["range"])
			if v := fmt.Sprint(res["contents"]); len(under) > 0 {
				found := false
				for w := range under {
					found = found || strings.Contains(v, w)
				}
				if !found {
					t.Errorf("%s at %v (on %v) of %q: %s", q.method, bfPos(cur, q.off), under, cur, v)
				}
			}
		}
		for _, r := range ranges {
			rm := r.(map[string]any)
			pos := func(k string) Position {
				m := rm[k].(map[string]any)
				return Position{int(m["line"].(float64)), int(m["character"].(float64))}
			}
			a, b := bfOff(cur, pos("start")), bfOff(cur, pos("end"))
			name, ok := "", a >= 0 && b >= a
			if ok {
				name, ok = isWord(a, b)
			}
			if !ok || !under[name] {
				t.Errorf("%s at %v (on %v) of %q: range %v-%v is %q, not a name under the position", q.method, bfPos(cur, q.off), under, cur, pos("start"), pos("end"), cur[max(a, 0):max(a, b, 0)])
			}
		}
	}
}

const review20yBase = "const AB = 2\nconst A = 3\nvar x : 0 .. AB = 0\naction a when x < A -> x' = x\naction b when x < AB -> x' = A\n"

// Edits that leave a name's text in the shared prefix or suffix of the
// old and new texts while the name itself changed: a character typed
// right after a name, right before it, or inside it; a line copied next
// to itself (the copy's names are at offsets of the old next line).
func TestReview20yNamesChangedAtTheEdge(t *testing.T) {
	for _, tc := range []struct{ name, cur string }{
		{"after", strings.Replace(review20yBase, "const AB = 2", "const ABX = 2", 1)},
		{"before", strings.Replace(review20yBase, "x < A ->", "x < XA ->", 1)},
		{"inside", strings.Replace(review20yBase, "const AB = 2", "const AXB = 2", 1)},
		{"hyphen", strings.Replace(review20yBase, "const A = 3", "const A-x = 3", 1)},
		{"copied line", strings.Replace(review20yBase, "const A = 3\n", "const A = 3\nconst A = 3\n", 1)},
		{"copied line above", strings.Replace(review20yBase, "var x", "var x : 0 .. AB = 0\nvar x", 1)},
		{"copied line before its like", strings.Replace(review20yBase, "const AB = 2\n", "const AB = 2\nconst AB = 2\n", 1)},
		{"deleted copy", strings.Replace(review20yBase, "const AB = 2\nconst A = 3\n", "const A = 3\n", 1)},
	} {
		// the syntax error at the start, or at the end: the shared part
		// is all the rest on one side of the edit
		t.Run(tc.name+"/start", func(t *testing.T) { review20yCheck(t, review20yBase, "(\n"+tc.cur) })
		t.Run(tc.name+"/end", func(t *testing.T) { review20yCheck(t, review20yBase, tc.cur+")\n") })
	}
}

// Random edits of a parsing text (CRLF or LF, names alike, characters of
// two UTF-16 units and combining marks), each with a syntax error: no
// answer is about a name other than the one at the position asked about.
func TestReview20yRandomEdits(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	bases := []string{
		review20yBase,
		strings.ReplaceAll(review20yBase, "\n", "\r\n"),
		"// \U0001F69A e\u0301\nconst AB = 2 // \U0001F69A\nconst A = 3\nvar x : 0 .. AB = 0\naction a when x < A -> x' = x // e\u0301\u0301\naction b when x < AB -> x' = A\n",
	}
	pieces := []string{"X", "A", "B", "-", "AB", "\n", "\r\n", " ", "\U0001F69A", "e\u0301", ")", "const A = 3\n"}
	n := 40
	if testing.Short() {
		n = 8
	}
	for i := 0; i < n; i++ {
		base := bases[i%len(bases)]
		cur := base
		for k := rng.Intn(3); k >= 0; k-- {
			at := rng.Intn(len(cur) + 1)
			for at < len(cur) && !utf8.RuneStart(cur[at]) {
				at++
			}
			if rng.Intn(3) == 0 && at < len(cur) { // delete a few characters
				end := min(len(cur), at+1+rng.Intn(4))
				for end < len(cur) && !utf8.RuneStart(cur[end]) {
					end++
				}
				cur = cur[:at] + cur[end:]
			} else {
				cur = cur[:at] + pieces[rng.Intn(len(pieces))] + cur[at:]
			}
		}
		cur = strings.Replace(cur, "var", "var )", 1) // does not parse
		t.Run(fmt.Sprint(i), func(t *testing.T) { review20yCheck(t, base, cur) })
	}
}

// An imported file open with edits not saved: its name on disk ("VMAX",
// which the checker read) has had characters typed on to it in the
// editor ("VMAXX"). Definition must not point at the editor's VMAXX as
// if it were VMAX, and a rename of VMAX must not rewrite it (to "WX"):
// the rename is refused, since it cannot place the declaration's edit.
// Likewise when another open file that uses the name does not parse and
// a use in it sits in its edited part: the rename would miss it.
func TestReview20yImportedNameEdited(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lib.spec"), []byte("const VMAX = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mainURI := "file://" + filepath.ToSlash(filepath.Join(dir, "main.spec"))
	libURI := "file://" + filepath.ToSlash(filepath.Join(dir, "lib.spec"))
	open := func(uri, text string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, uri, text)
	}
	main := "model m\nimport \"lib.spec\"\nvar x : 0 .. VMAX = 0\n"
	answers := session(t, initMsg, open(mainURI, main), open(libURI, "const VMAXX = 3\n"),
		atPos(mainURI, "1", "textDocument/definition", 2, 14, ""),
		atPos(mainURI, "2", "textDocument/rename", 2, 14, `,"newName":"W"`))
	if r := fmt.Sprint(answers[3]["result"]); strings.Contains(r, "lib.spec") {
		t.Errorf("definition of VMAX: %s, the editor's lib.spec has VMAXX there", r)
	}
	if e, _ := answers[4]["error"].(map[string]any); e == nil || !strings.Contains(fmt.Sprint(e["message"]), "lib.spec") {
		t.Errorf("rename of VMAX with lib.spec's VMAX edited in the editor: %v", answers[4])
	}
	// a second file uses VMAX, and does not parse: a use in its edited part
	otherURI := "file://" + filepath.ToSlash(filepath.Join(dir, "other.spec"))
	other := "model o\nimport \"lib.spec\"\nvar y : 0 .. VMAX = 0\n"
	answers = session(t, initMsg, open(mainURI, main), open(otherURI, other),
		fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":%q}]}}`, otherURI, "model o\nimport \"lib.spec\"\nvar y : 0 .. VMAX + ( = 0\n"),
		atPos(mainURI, "2", "textDocument/rename", 2, 14, `,"newName":"W"`))
	if e, _ := answers[4]["error"].(map[string]any); e == nil || !strings.Contains(fmt.Sprint(e["message"]), "other.spec") {
		t.Errorf("rename of VMAX with a use in other.spec's unparsed edit: %v", answers[4])
	}
}

// Two open files that do not import each other each declare their own N:
// references and rename of main's N must not list or rewrite other's N
// (another constant that happens to share the name). A third file that
// imports main uses main's N: its use is listed and renamed.
func TestReview20yUnrelatedSameName(t *testing.T) {
	dir := t.TempDir()
	mainText := "const N = 2\nvar x : 0 .. N = 0\n"
	if err := os.WriteFile(filepath.Join(dir, "main.spec"), []byte(mainText), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := func(name string) string { return "file://" + filepath.ToSlash(filepath.Join(dir, name)) }
	open := func(name, text string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, uri(name), text)
	}
	answers := session(t, initMsg, open("main.spec", mainText),
		open("other.spec", "const N = 5\nvar y : 0 .. N = 0\n"),
		open("user.spec", "import \"main.spec\"\nvar z : 0 .. N = 0\n"),
		atPos(uri("main.spec"), "1", "textDocument/references", 1, 13, `,"context":{"includeDeclaration":true}`),
		atPos(uri("main.spec"), "2", "textDocument/rename", 1, 13, `,"newName":"K"`))
	refs, ren := fmt.Sprint(answers[4]["result"]), fmt.Sprint(answers[5]["result"])
	for _, r := range []string{refs, ren} {
		if strings.Contains(r, "other.spec") || !strings.Contains(r, "user.spec") || !strings.Contains(r, "main.spec") {
			t.Errorf("want main.spec and user.spec, not other.spec: %s", r)
		}
	}
}

// Two schemas with alike bodies, and the lines between the first body
// and the second body deleted: the remaining "when x < i" line maps, by
// text, to the second schema's body, whose i is b's parameter (0 .. 2);
// in the client's text that line follows a's header. A parameter whose
// declaration lies in the edited part is not answered about.
func TestReview20yParameterOfAnotherSchema(t *testing.T) {
	old := "var x : 0 .. 3 = 0\naction a(i in 0 .. 1)\n  when x < i\n  -> x' = x\naction b(i in 0 .. 2)\n  when x < i\n  -> x' = x\n"
	cur := "var x : 0 .. 3 = 0\naction a(i in 0 .. 1)\n  when x < i\n  when x < i\n  -> x' = x\n"
	uri, open := openDoc(t, "s.spec", old)
	change := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":%q}]}}`, uri, cur)
	answers := session(t, initMsg, open, change, atPos(uri, "1", "textDocument/hover", 3, 11, ""))
	if r := fmt.Sprint(answers[3]["result"]); strings.Contains(r, "0 .. 2") {
		t.Errorf("hover on a's i answered with b's: %s", r)
	}
}

// A schema header typed between a's header and its body (with a syntax
// error): the body's i is now c's, not a's.
func TestReview20yHeaderTypedBetween(t *testing.T) {
	old := "var x : 0 .. 3 = 0\naction a(i in 0 .. 1)\n  when x < i\n  -> x' = x\n"
	cur := "var x : 0 .. 3 = 0\naction a(i in 0 .. 1)\n  when x < 1 -> (\naction c(i in 0 .. 3)\n  when x < i\n  -> x' = x\n"
	uri, open := openDoc(t, "h.spec", old)
	change := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"text":%q}]}}`, uri, cur)
	answers := session(t, initMsg, open, change, atPos(uri, "1", "textDocument/hover", 4, 11, ""),
		atPos(uri, "2", "textDocument/definition", 4, 11, ""))
	if r := fmt.Sprint(answers[3]["result"]); strings.Contains(r, "action a") {
		t.Errorf("hover on c's i answered with a's: %s", r)
	}
	if r := fmt.Sprint(answers[4]["result"]); r != "[]" {
		t.Errorf("definition of c's i went to a's: %s", r)
	}
}

// Every character offset of random texts (lone \r, \r\n, characters of
// two UTF-16 units, combining marks, lines longer than the checkpoint
// spacing) converts as scans from the text's start say: LSP's position,
// vigil's line and rune column, and back.
func TestReview20yPositionsBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	alphabet := []string{"a", "b", " ", "\u00e9", "e\u0301", "\U0001F69A", "\r", "\n", "\r\n", "\t", "\u4e16"}
	for n := 0; n < 200; n++ {
		var b strings.Builder
		long := rng.Intn(3) == 0
		for k := rng.Intn(60); k >= 0; k-- {
			s := alphabet[rng.Intn(len(alphabet))]
			if long && rng.Intn(4) != 0 {
				s = strings.Repeat(s, 1+rng.Intn(80))
				s = strings.NewReplacer("\r", "x", "\n", "y").Replace(s)
			}
			b.WriteString(s)
		}
		src := b.String()
		tx := newText(src)
		vline, vstart := 1, 0 // vigil's lines end at \n only
		for off := 0; off <= len(src); off++ {
			if off > 0 && src[off-1] == '\n' {
				vline, vstart = vline+1, off
			}
			if off < len(src) && !utf8.RuneStart(src[off]) || off > 0 && off < len(src) && src[off-1:off+1] == "\r\n" {
				continue
			}
			want := bfPos(src, off)
			if got := tx.position(off); got != want {
				t.Fatalf("%q: position(%d) = %v, want %v", src, off, got, want)
			}
			if got := tx.offset(want); got != off {
				t.Fatalf("%q: offset(%v) = %d, want %d", src, want, got, off)
			}
			wl, wc := vline, utf8.RuneCountInString(src[vstart:off])+1
			if l, c := tx.lineCol(off); l != wl || c != wc {
				t.Fatalf("%q: lineCol(%d) = %d:%d, want %d:%d", src, off, l, c, wl, wc)
			}
			if l, c := tx.fromLSP(want); l != wl || c != wc {
				t.Fatalf("%q: fromLSP(%v) = %d:%d, want %d:%d", src, want, l, c, wl, wc)
			}
			if got := tx.toLSP(symbolic.Pos{Line: wl, Col: wc}); got != want {
				t.Fatalf("%q: toLSP(%d:%d) = %v, want %v", src, wl, wc, got, want)
			}
		}
	}
}
