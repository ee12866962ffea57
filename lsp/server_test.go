package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vigil/symbolic"
)

// TestPositions: vigil's rune columns and LSP's UTF-16 characters agree
// on lines with tabs, characters of two and three UTF-8 bytes, and a
// character outside the BMP (two UTF-16 units).
func TestPositions(t *testing.T) {
	tx := newText("a\tb\n\u00e9\u4e16\U0001F69Ax y\r\nlast")
	cases := []struct {
		line, col int // vigil
		lsp       Position
	}{
		{1, 1, Position{0, 0}},
		{1, 3, Position{0, 2}},
		{2, 1, Position{1, 0}},
		{2, 3, Position{1, 2}},
		{2, 4, Position{1, 4}}, // after the truck: two units
		{2, 6, Position{1, 6}},
		{3, 5, Position{2, 4}},
	}
	for _, c := range cases {
		got := tx.toLSP(symbolic.Pos{Line: c.line, Col: c.col})
		if got != c.lsp {
			t.Errorf("toLSP(%d:%d) = %v, want %v", c.line, c.col, got, c.lsp)
		}
		l, col := tx.fromLSP(c.lsp)
		if l != c.line || col != c.col {
			t.Errorf("fromLSP(%v) = %d:%d, want %d:%d", c.lsp, l, col, c.line, c.col)
		}
	}
	// inside the surrogate pair: the next column
	if l, col := tx.fromLSP(Position{1, 3}); l != 2 || col != 4 {
		t.Errorf("fromLSP inside a surrogate pair = %d:%d, want 2:4", l, col)
	}
	if got := tx.vig.line(1); got != "\u00e9\u4e16\U0001F69Ax y" {
		t.Errorf("line(1) = %q: the \\r belongs to no column", got)
	}
	if off := tx.offset(Position{1, 4}); tx.src[off:off+1] != "x" {
		t.Errorf("offset(1:4) = %d, at %q", off, tx.src[off:])
	}
	if e := tx.end(); e != (Position{2, 4}) {
		t.Errorf("end = %v", e)
	}
}

// session runs messages through a server and returns its answers.
func session(t testing.TB, msgs ...string) []map[string]any {
	var in bytes.Buffer
	for _, m := range msgs {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	var out bytes.Buffer
	err := Serve(&in, &out, Options{})
	if err != nil && err != ErrNoShutdown {
		t.Fatal(err)
	}
	var answers []map[string]any
	rd := &reader{r: bufio.NewReader(&out)}
	for {
		body, err := rd.read()
		if err == io.EOF {
			return answers
		}
		if err != nil {
			t.Fatalf("the server wrote a bad frame: %v", err)
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("the server wrote bad JSON %q: %v", body, err)
		}
		answers = append(answers, m)
	}
}

const initMsg = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"capabilities":{}}}`

// openDoc names a document called name in a fresh temporary directory
// (never written: the session holds its text) and returns its URI and
// the didOpen notification that gives the server its text.
func openDoc(t *testing.T, name, text string) (uri, open string) {
	uri = "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), name))
	return uri, fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, uri, text)
}

// atPos is the request id of method about the position (line, ch) of the
// document uri; extra adds members to its params (",\"context\":{...}").
func atPos(uri, id, method string, line, ch int, extra string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}%s}}`, id, method, uri, line, ch, extra)
}

// TestGarbageKeepsServing: random bodies, truncated JSON and JSON of every
// wrong shape each get at most one answer and never stop the server; a
// request after them is still answered.
func TestGarbageKeepsServing(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	valid := []string{
		initMsg,
		`{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.spec"},"position":{"line":0,"character":0}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///x.spec","version":1,"text":"const N = 1\nvar x : 0 .. N\naction a -> x' = x\n"}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///x.spec","version":2},"contentChanges":[{"range":{"start":{"line":9,"character":99},"end":{"line":0,"character":3}},"text":"\ud83d"}]}}`,
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/references","params":{"textDocument":{"uri":"file:///x.spec"},"position":{"line":-4,"character":-1}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"textDocument/definition","params":{"textDocument":{"uri":"file:///x.spec"},"position":{"line":1,"character":1000}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"textDocument/completion","params":null}`,
	}
	msgs := []string{initMsg}
	for i := 0; i < 300; i++ {
		m := valid[rng.Intn(len(valid))]
		switch rng.Intn(4) {
		case 0:
			m = m[:rng.Intn(len(m))]
		case 1:
			b := []byte(m)
			for k := 0; k < 3; k++ {
				b[rng.Intn(len(b))] = byte(rng.Intn(256))
			}
			m = string(b)
		case 2:
			m = strings.Replace(m, `"`, `'`, rng.Intn(3))
		}
		msgs = append(msgs, m)
	}
	msgs = append(msgs, `{"jsonrpc":"2.0","id":"last","method":"shutdown"}`)
	answers := session(t, msgs...)
	last := answers[len(answers)-1]
	if last["id"] != "last" || last["error"] != nil {
		t.Fatalf("the last request was not answered: %v", last)
	}
	for _, a := range answers {
		if e, ok := a["error"].(map[string]any); ok && e["code"] == float64(codeInternalError) {
			t.Errorf("an internal error: %v", e["message"])
		}
	}
}

// TestReferencesAndSymbols exercises the name index through the protocol
// on a document that is not on disk.
func TestReferencesAndSymbols(t *testing.T) {
	text := "const N = 2\nvar x : 0 .. N = 0\naction inc when x < N -> x' = x + 1\nproperty p { unsafe x > N }\n"
	uri, open := openDoc(t, "m.spec", text)
	refs := atPos(uri, "1", "textDocument/references", 0, 6, `,"context":{"includeDeclaration":true}`)
	syms := fmt.Sprintf(`{"jsonrpc":"2.0","id":2,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":%q}}}`, uri)
	answers := session(t, initMsg, open, refs, syms)
	if len(answers) != 4 {
		t.Fatalf("%d answers: %v", len(answers), answers)
	}
	if d := answers[1]["params"].(map[string]any)["diagnostics"].([]any); len(d) != 0 {
		t.Errorf("diagnostics on a correct file: %v", d)
	}
	if n := len(answers[2]["result"].([]any)); n != 4 {
		t.Errorf("%d references to N, want 4 (declaration and three uses): %v", n, answers[2]["result"])
	}
	var names []string
	for _, s := range answers[3]["result"].([]any) {
		names = append(names, s.(map[string]any)["name"].(string))
	}
	if got := strings.Join(names, " "); got != "N x inc p" {
		t.Errorf("symbols %q", got)
	}
}

// spec2000 is a 2,000-line model: constants, 100 variables, a command per
// line, a rules policy.
func spec2000() string {
	var b strings.Builder
	b.WriteString("model big\nconst K = 5\n")
	lines := 2
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "var x%d : 0 .. K = 0\n", i)
		lines++
	}
	for i := 0; lines < 1940; i++ {
		v, w := i%100, (i*7+3)%100
		fmt.Fprintf(&b, "action a%d when x%d < K && x%d > 0 -> x%d' = x%d + 1, x%d' = x%d - 1 | x%d' = min(x%d + 2, K)\n", i, v, w, v, v, w, w, v, v)
		lines++
	}
	b.WriteString("policy rules pi {\n")
	lines++
	for i := 0; lines < 1995; i++ {
		fmt.Fprintf(&b, "    when x%d < K -> a%d\n", i%100, i)
		lines++
	}
	b.WriteString("    otherwise -> a0\n}\nproperty p {\n    unsafe x0 > K\n")
	b.WriteString("}\n")
	return b.String()
}

// BenchmarkDiagnosticsAfterChange measures the server's response to a
// change of a 2,000-line spec: from reading the didChange message to
// having written the new diagnostics (the document is re-checked whole).
// Each change alternates between introducing an error and fixing it.
func BenchmarkDiagnosticsAfterChange(b *testing.B) {
	src := spec2000()
	if n := strings.Count(src, "\n"); n != 2000 {
		b.Fatalf("the spec has %d lines", n)
	}
	uri := "file://" + filepath.ToSlash(filepath.Join(b.TempDir(), "big.spec"))
	s := newServer(io.Discard, Options{})
	s.handle([]byte(initMsg))
	open, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen",
		"params": map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": src}}})
	s.handle(open)
	if d := s.docs[uri]; d == nil || len(d.an.Diags) != 0 {
		b.Fatalf("the benchmark spec does not check: %v", d.an.Diags)
	}
	bad := strings.Replace(src, "x5 + 1", "x5 + y", 1)
	changes := make([][]byte, 2)
	for i, text := range []string{bad, src} {
		changes[i], _ = json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange",
			"params": map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2 + i},
				"contentChanges": []any{map[string]any{"text": text}}}})
	}
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		s.handle(changes[i%2])
	}
	cpu := cpuTime() - cpu0
	b.StopTimer()
	if d := s.docs[uri]; (b.N%2 == 1) != d.an.Diags.HasErrors() {
		b.Fatalf("after %d changes: %v", b.N, d.an.Diags)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/change")
	// on a loaded machine wall time overstates the work; CPU time (of
	// every thread, the garbage collector's included) does not
	b.ReportMetric(cpu.Seconds()*1e3/float64(b.N), "cpu-ms/change")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestEnumHover: hover on an enum variable lists its values, on a value
// names its type, and definition of a value finds it in the type.
func TestEnumHover(t *testing.T) {
	text := "type color = { red, green }\nvar c : color = red\naction a when c == red -> c' = green\n"
	uri, open := openDoc(t, "e.spec", text)
	at := func(id, method string, line, ch int) string { return atPos(uri, id, method, line, ch, "") }
	answers := session(t, initMsg, open,
		at("1", "textDocument/hover", 2, 14),      // c
		at("2", "textDocument/hover", 2, 20),      // red
		at("3", "textDocument/definition", 2, 33), // green
	)
	if len(answers) != 5 {
		t.Fatalf("%d answers: %v", len(answers), answers)
	}
	hover := func(a map[string]any) string {
		r, _ := a["result"].(map[string]any)
		c, _ := r["contents"].(map[string]any)
		s, _ := c["value"].(string)
		return s
	}
	if h := hover(answers[2]); !strings.Contains(h, "var c : color = red") || !strings.Contains(h, "one of red, green") {
		t.Errorf("hover on c: %q", h)
	}
	if h := hover(answers[3]); !strings.Contains(h, "red : color") || !strings.Contains(h, "value 0 of color") {
		t.Errorf("hover on red: %q", h)
	}
	locs, _ := answers[4]["result"].([]any)
	if len(locs) != 1 || fmt.Sprint(locs[0].(map[string]any)["range"]) != "map[end:map[character:25 line:0] start:map[character:20 line:0]]" {
		t.Errorf("definition of green: %v", locs)
	}
}

// TestSchemaNavigation: a schema's parameter is a local name: hover shows
// its range, references stay in its schema, and a same-named parameter of
// another schema is another name.
func TestSchemaNavigation(t *testing.T) {
	text := "var x : 0 .. 3 = 0\n" +
		"action set(v in 0 .. 3) when x != v -> x' = v\n" +
		"action add(v in 1 .. 2) when x + v <= 3 -> x' = x + v\n" +
		"policy rules p { otherwise -> set[2] }\n"
	uri, open := openDoc(t, "s.spec", text)
	at := func(id, method string, line, ch int, extra string) string {
		return atPos(uri, id, method, line, ch, extra)
	}
	answers := session(t, initMsg, open,
		at("1", "textDocument/hover", 1, 35, ""), // the v of x != v
		at("2", "textDocument/references", 1, 11, `,"context":{"includeDeclaration":true}`),
		at("3", "textDocument/hover", 3, 31, ""), // set in set[2]
	)
	if len(answers) != 5 {
		t.Fatalf("%d answers: %v", len(answers), answers)
	}
	if d := answers[1]["params"].(map[string]any)["diagnostics"].([]any); len(d) != 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	hover := func(a map[string]any) string {
		r, _ := a["result"].(map[string]any)
		c, _ := r["contents"].(map[string]any)
		s, _ := c["value"].(string)
		return s
	}
	if h := hover(answers[2]); !strings.Contains(h, "v in 0 .. 3") || !strings.Contains(h, "(parameter)") {
		t.Errorf("hover on v: %q", h)
	}
	refs, _ := answers[3]["result"].([]any)
	if len(refs) != 3 {
		t.Errorf("references to set's v: %v (want its declaration and two uses, none in add)", refs)
	}
	if h := hover(answers[4]); !strings.Contains(h, "action set(v in 0 .. 3)") || !strings.Contains(h, "4 commands") {
		t.Errorf("hover on set: %q", h)
	}
}

// TestRenameAndQuickFix: renaming a constant edits its declaration and
// every use; a keyword, a non-name or a declared name is refused; a
// misspelt name's diagnostic comes with the fix its message suggests.
func TestRenameAndQuickFix(t *testing.T) {
	text := "const N = 2\nvar x : 0 .. N = 0\naction inc when x < N -> x' = x + 1\nproperty p { unsafe x > NN }\n"
	uri, open := openDoc(t, "r.spec", text)
	rename := func(id, name string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":"textDocument/rename","params":{"textDocument":{"uri":%q},"position":{"line":1,"character":13},"newName":%q}}`, id, uri, name)
	}
	answers := session(t, initMsg, open, rename("1", "LIMIT"), rename("2", "var"), rename("3", "2x"), rename("4", "x"))
	if len(answers) != 6 {
		t.Fatalf("%d answers: %v", len(answers), answers)
	}
	diags := answers[1]["params"].(map[string]any)["diagnostics"].([]any)
	if len(diags) != 1 || !strings.Contains(diags[0].(map[string]any)["message"].(string), "did you mean N?") {
		t.Fatalf("diagnostics: %v", diags)
	}
	edits := answers[2]["result"].(map[string]any)["changes"].(map[string]any)[uri].([]any)
	if len(edits) != 3 { // the declaration, the range, the guard
		t.Errorf("rename edits: %v", edits)
	}
	for i, want := range []string{"keyword", "a name is letters", "declared already"} {
		e, _ := answers[3+i]["error"].(map[string]any)
		if e == nil || !strings.Contains(e["message"].(string), want) {
			t.Errorf("rename %d: %v, want an error saying %q", i+2, answers[3+i], want)
		}
	}
	dj, _ := json.Marshal(diags[0])
	fix := fmt.Sprintf(`{"jsonrpc":"2.0","id":5,"method":"textDocument/codeAction","params":{"textDocument":{"uri":%q},"range":{"start":{"line":3,"character":24},"end":{"line":3,"character":26}},"context":{"diagnostics":[%s]}}}`, uri, dj)
	answers = session(t, initMsg, open, fix)
	acts, _ := answers[2]["result"].([]any)
	if len(acts) != 1 {
		t.Fatalf("code actions: %v", answers[2])
	}
	a := acts[0].(map[string]any)
	e := a["edit"].(map[string]any)["changes"].(map[string]any)[uri].([]any)[0].(map[string]any)
	if a["title"] != "Change to N" || e["newText"] != "N" || fmt.Sprint(e["range"]) != "map[end:map[character:26 line:3] start:map[character:24 line:3]]" {
		t.Errorf("quick fix %v", a)
	}
}

// TestQuantifierHover: a quantifier's variable is local to it.
func TestQuantifierHover(t *testing.T) {
	text := "const N = 3\nvar x : 0 .. 2 * N = 0\npred even = exists k in 0 .. N: x == 2 * k\n"
	uri, open := openDoc(t, "q.spec", text)
	hover := atPos(uri, "1", "textDocument/hover", 2, 41, "")
	def := atPos(uri, "2", "textDocument/definition", 2, 41, "")
	answers := session(t, initMsg, open, hover, def)
	if d := answers[1]["params"].(map[string]any)["diagnostics"].([]any); len(d) != 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	h := answers[2]["result"].(map[string]any)["contents"].(map[string]any)["value"].(string)
	if !strings.Contains(h, "k in 0 .. N") || !strings.Contains(h, "bound by exists") {
		t.Errorf("hover on k: %q", h)
	}
	locs := answers[3]["result"].([]any)
	if len(locs) != 1 || fmt.Sprint(locs[0].(map[string]any)["range"]) != "map[end:map[character:20 line:2] start:map[character:19 line:2]]" {
		t.Errorf("definition of k: %v", locs)
	}
}

// TestArrayNavigation: hover on an array (indexed, or assigned an
// element) shows its type and folded element range, definition finds
// its declaration, and completion offers its name.
func TestArrayNavigation(t *testing.T) {
	text := "const N = 3\n" +
		"var on : [0 .. N - 1] of 0 .. N = 0\n" +
		"var i : 0 .. N - 1 = 0\n" +
		"action poke when on[i] > 0 -> on[i]' = on[i] - 1\n"
	uri, open := openDoc(t, "a.spec", text)
	at := func(id, method string, line, ch int) string { return atPos(uri, id, method, line, ch, "") }
	answers := session(t, initMsg, open,
		at("1", "textDocument/hover", 3, 18),      // on in on[i] > 0
		at("2", "textDocument/definition", 3, 31), // on in on[i]' = ...
		at("3", "textDocument/completion", 3, 17),
	)
	if len(answers) != 5 {
		t.Fatalf("%d answers: %v", len(answers), answers)
	}
	if d := answers[1]["params"].(map[string]any)["diagnostics"].([]any); len(d) != 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	r, _ := answers[2]["result"].(map[string]any)
	c, _ := r["contents"].(map[string]any)
	if h, _ := c["value"].(string); !strings.Contains(h, "var on : [0 .. N - 1] of 0 .. N = 0") || !strings.Contains(h, "3 elements on[0] .. on[2], each in 0 .. 3") {
		t.Errorf("hover on on: %q", h)
	}
	locs, _ := answers[3]["result"].([]any)
	if len(locs) != 1 || fmt.Sprint(locs[0].(map[string]any)["range"]) != "map[end:map[character:6 line:1] start:map[character:4 line:1]]" {
		t.Errorf("definition of on: %v", locs)
	}
	if !strings.Contains(fmt.Sprint(answers[4]["result"]), "label:on") {
		t.Errorf("completion lacks on: %v", answers[4]["result"])
	}
}
