package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestS30rCheckStopsAtTheLimit: a document whose check would take long
// (four quantifiers over 100,000 values: about 1.5 s of CPU for vigil
// check; the chain of predicates that use each other twice, which took
// 10 s at 22 levels, is now E0705 at once) held the server for as long,
// answering nothing. The check now stops at checkLimit (here 100 ms,
// which ends before the quantifiers' expansion does: the checker polls
// there), the diagnostic says why, and the requests after it are
// answered: hover on a predicate, from what the parse gave.
func TestS30rCheckStopsAtTheLimit(t *testing.T) {
	defer func(d time.Duration) { checkLimit = d }(checkLimit)
	checkLimit = 100 * time.Millisecond
	var b strings.Builder
	b.WriteString("model m\nvar x : 0 .. 3 = 0\npred p0 = x == 1\n")
	const quantified = 4
	for i := 1; i <= quantified; i++ {
		fmt.Fprintf(&b, "pred p%d = exists k in 0 .. 99999: x + k == %d\n", i, 100000+i)
	}
	b.WriteString("action a when p0 || p1 || p2 || p3 || p4 -> x' = x + 1\nproperty p { unsafe x == 3 }\n")
	path := filepath.Join(t.TempDir(), "slow.spec")
	uri := "file://" + filepath.ToSlash(path)
	start := time.Now()
	answers := session(t, initMsg,
		fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, uri, b.String()),
		atPos(uri, "1", "textDocument/hover", 3, 5, ""),
		`{"jsonrpc":"2.0","id":"s","method":"shutdown"}`, `{"jsonrpc":"2.0","method":"exit"}`)
	took := time.Since(start)
	var diags []any
	hover := ""
	for _, a := range answers {
		if a["method"] == "textDocument/publishDiagnostics" {
			diags = a["params"].(map[string]any)["diagnostics"].([]any)
		}
		if a["id"] == float64(1) {
			hover = fmt.Sprint(a["result"])
		}
	}
	if len(diags) != 1 {
		t.Fatalf("after %v: diagnostics %v, want one saying the check stopped", took, diags)
	}
	msg := fmt.Sprint(diags[0].(map[string]any)["message"])
	if !strings.Contains(msg, "vigil lsp stopped checking this file after 100ms") || !strings.Contains(msg, "quantifiers over large ranges") {
		t.Errorf("after %v: diagnostic %q, want it to say the check stopped at the limit, and why", took, msg)
	}
	if !strings.Contains(hover, "pred p1 = exists k in 0 .. 99999") {
		t.Errorf("hover on p1 after the stopped check: %q, want its declaration", hover)
	}
}

// TestS30rContentLengthsDisagree: a header block with two Content-Length
// headers that disagree was read by the last one and answered "the
// message is not JSON: unexpected EOF"; it is answered with what is
// wrong, and the messages after it (framed right) are answered. Two
// equal ones frame the message.
func TestS30rContentLengthsDisagree(t *testing.T) {
	init := initMsg
	shutdown := `{"jsonrpc":"2.0","id":"s","method":"shutdown"}`
	in := fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(init), init) +
		"Content-Length: 5\r\nContent-Length: 7\r\n\r\n{\"a\":1}" +
		fmt.Sprintf("Content-Length: %d\r\ncontent-length: %d\r\n\r\n%s", len(shutdown), len(shutdown), shutdown) +
		"Content-Length: 33\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"
	var out bytes.Buffer
	if err := Serve(strings.NewReader(in), &out, Options{}); err != nil {
		t.Fatalf("%v; wrote %s", err, out.String())
	}
	if !strings.Contains(out.String(), `"message":"parse error: two Content-Length headers disagree (5 and 7): send one"`) {
		t.Errorf("no error naming the two lengths:\n%s", out.String())
	}
	if !strings.Contains(out.String(), `{"jsonrpc":"2.0","id":"s","result":null}`) {
		t.Errorf("the shutdown after it was not answered:\n%s", out.String())
	}
}
