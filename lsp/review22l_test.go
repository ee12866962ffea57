package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReview22lSpecialImport: a document that imports a FIFO (or names
// one as a table policy's CSV or an interface file) got no answer at
// all: the checker opened the FIFO on didOpen, which blocks until a
// writer comes, so the server stopped serving the editor for good. Such
// files are now refused (E0002, E0505, E0507), and the session goes on.
func TestReview22lSpecialImport(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"fifo.spec", "fifo.csv", "fifo.jani2nnet"} {
		if err := syscall.Mkfifo(filepath.Join(dir, name), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "n.nnet"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// an import error ends the load before the policies are read: two
	// documents
	imp := `import "fifo.spec"
var x : 0 .. 1 = 0
property p { unsafe x == 1 }
`
	pol := `var x : 0 .. 1 = 0
action a -> x' = 1
policy table t "fifo.csv" { }
policy nn n "n.nnet" { interface "fifo.jani2nnet" }
property p { unsafe x == 1 }
`
	open := func(name, text string) (string, string) {
		uri := "file://" + filepath.ToSlash(filepath.Join(dir, name))
		return uri, fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, uri, text)
	}
	uri, open1 := open("imp.spec", imp)
	_, open2 := open("pol.spec", pol)
	done := make(chan []map[string]any, 1)
	go func() {
		done <- session(t, initMsg, open1, open2, atPos(uri, "7", "textDocument/hover", 1, 4, ""),
			`{"jsonrpc":"2.0","id":8,"method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`)
	}()
	var answers []map[string]any
	select {
	case answers = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("no answer within 30 s: the server blocked on a FIFO the document names")
	}
	var msgs []string
	hovered := false
	for _, a := range answers {
		if a["method"] == "textDocument/publishDiagnostics" {
			for _, d := range a["params"].(map[string]any)["diagnostics"].([]any) {
				msgs = append(msgs, fmt.Sprint(d.(map[string]any)["code"], " ", d.(map[string]any)["message"]))
			}
		}
		if a["id"] == float64(7) && a["result"] != nil {
			hovered = true
		}
	}
	if !hovered {
		t.Errorf("no hover answer: %v", answers)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"E0002 cannot import fifo.spec: it is a pipe", "E0505 table fifo.csv: it is a pipe", "E0507 interface file fifo.jani2nnet: it is a pipe"} {
		if !strings.Contains(all, want) {
			t.Errorf("no diagnostic %q in:\n%s", want, all)
		}
	}
}

// TestReview22lRenameToContextualKeyword: a rename to sum or exists (no
// reserved word, so allowed) made `when !b cost 2` read `sum cost` as a
// quantifier over cost: the edits left a file that no longer parses. Such
// a rename is refused now; one to cost, which stays a name there, is not.
func TestReview22lRenameToContextualKeyword(t *testing.T) {
	uri, open := openDoc(t, "r.spec", "var b : bool = false\naction a when !b cost 2 -> b' = true\nproperty p { unsafe b }\n")
	rename := func(id, name string) string {
		return atPos(uri, id, "textDocument/rename", 0, 4, fmt.Sprintf(`,"newName":%q`, name))
	}
	answers := session(t, initMsg, open, rename("1", "sum"), rename("2", "exists"), rename("3", "cost"))
	got := map[float64]map[string]any{}
	for _, a := range answers {
		if id, ok := a["id"].(float64); ok {
			got[id] = a
		}
	}
	for _, id := range []float64{1, 2} {
		e, ok := got[id]["error"].(map[string]any)
		if !ok || !strings.Contains(fmt.Sprint(e["message"]), "would no longer parse") {
			t.Errorf("rename %v: %v, want an error saying the file would no longer parse", id, got[id])
		}
	}
	r, ok := got[3]["result"].(map[string]any)
	if !ok {
		t.Fatalf("rename to cost: %v", got[3])
	}
	if n := len(r["changes"].(map[string]any)[uri].([]any)); n != 4 {
		t.Errorf("rename to cost: %d edits, want 4", n)
	}
}

// TestReview22lHoverExpandedConstant: hover shows a constant's folded
// value, but not for one the expansions rewrote before the checker's
// stages (an array constant's element, a quantifier): the checker's
// declaration is then a copy, and hover showed `const T = sum k in 1 ..
// 4: k` where it shows `const U = 6` for `2 * 3`.
func TestReview22lHoverExpandedConstant(t *testing.T) {
	uri, open := openDoc(t, "h.spec", "const K = [3, 2, 1]\nconst M = K[1]\nconst T = sum k in 1 .. 4: k\nvar x : 0 .. T = 0\nproperty p { unsafe x == M }\n")
	answers := session(t, initMsg, open, atPos(uri, "1", "textDocument/hover", 1, 6, ""), atPos(uri, "2", "textDocument/hover", 2, 6, ""))
	want := map[float64]string{1: "const M = 2\n", 2: "const T = 10\n"}
	for _, a := range answers {
		id, ok := a["id"].(float64)
		if !ok || want[id] == "" {
			continue
		}
		r, _ := a["result"].(map[string]any)
		v := fmt.Sprint(r["contents"].(map[string]any)["value"])
		if !strings.Contains(v, want[id]) {
			t.Errorf("hover %v: %q, want it to show %q", id, v, want[id])
		}
		delete(want, id)
	}
	if len(want) > 0 {
		t.Errorf("no answer to hover %v", want)
	}
}

// TestReview22lByteOrderMark: a client that sends a document's
// byte-order mark gets positions that count it as the character it is
// for LSP, while vigil gives it no column (lang's TestReview22lByteOrderMark).
func TestReview22lByteOrderMark(t *testing.T) {
	uri, open := openDoc(t, "bom.spec", "\ufeffvar x : 0 .. 1 = 0 + yy\nproperty p { unsafe x == 1 }\n")
	answers := session(t, initMsg, open, atPos(uri, "1", "textDocument/hover", 0, 5, ""), atPos(uri, "2", "textDocument/hover", 0, 0, ""))
	for _, a := range answers {
		switch {
		case a["method"] == "textDocument/publishDiagnostics":
			ds := a["params"].(map[string]any)["diagnostics"].([]any)
			if len(ds) != 1 || fmt.Sprint(ds[0].(map[string]any)["range"]) != "map[end:map[character:24 line:0] start:map[character:22 line:0]]" {
				t.Errorf("diagnostics %v, want yy at characters 22 to 24", ds)
			}
		case a["id"] == float64(1):
			r, _ := a["result"].(map[string]any)
			if fmt.Sprint(r["range"]) != "map[end:map[character:6 line:0] start:map[character:5 line:0]]" {
				t.Errorf("hover on x: %v, want x at characters 5 to 6", a)
			}
		case a["id"] == float64(2):
			if a["result"] != nil {
				t.Errorf("hover on the mark: %v, want null", a)
			}
		}
	}
}

// TestReview22lMalformedRequests: a request whose params are null was
// read as empty params (hover answered "the document is not open: ",
// naming no document), and one whose method is not a string was
// answered with id null though its id was a valid one; params without a
// document said "the document is not open: ", naming none.
func TestReview22lMalformedRequests(t *testing.T) {
	answers := session(t, initMsg,
		`{"jsonrpc":"2.0","id":51,"method":5}`,
		`{"jsonrpc":"2.0","id":52,"method":"textDocument/hover","params":null}`,
		`{"jsonrpc":"2.0","id":53,"method":"textDocument/rename","params":{}}`)
	got := map[float64]string{}
	for _, a := range answers {
		if id, ok := a["id"].(float64); ok && a["error"] != nil {
			got[id] = fmt.Sprint(a["error"].(map[string]any)["message"])
		}
	}
	if !strings.HasPrefix(got[51], "invalid request") {
		t.Errorf("method 5: answers %v, want an invalid request error with id 51", answers)
	}
	if got[52] != "invalid params: none given" {
		t.Errorf("params null: %q, want invalid params", got[52])
	}
	if got[53] != "invalid params: textDocument.uri is missing" {
		t.Errorf("params {}: %q, want invalid params (it said the document is not open, naming none)", got[53])
	}
}
