package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
)

// fuzzSep separates the message bodies of a FuzzServe input; the harness
// frames each with its Content-Length, so mutations reach the server's
// handlers rather than only the framing (FuzzRead covers that).
const fuzzSep = "\n\x00\n"

// FuzzServe runs a session of arbitrary message bodies: the server never
// panics (a recovered panic would be answered as an internal error, which
// fails the target), never stops on a client's mistake, and writes only
// well-framed JSON. Crashers stay in testdata/fuzz/FuzzServe.
func FuzzServe(f *testing.F) {
	doc := "file:///fuzz/x.spec"
	src, err := os.ReadFile("../specs/tarjansafe.spec")
	if err != nil {
		f.Fatal(err)
	}
	spec := string(src)
	open := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"version":1,"text":%q}}}`, doc, spec)
	at := func(id int, method string, line, ch int, extra string) string {
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{"textDocument":{"uri":%q},"position":{"line":%d,"character":%d}%s}}`, id, method, doc, line, ch, extra)
	}
	msgs := []string{
		initMsg,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		open,
		at(1, "textDocument/hover", 12, 5, ""),
		at(2, "textDocument/definition", 26, 14, ""),
		at(3, "textDocument/references", 9, 6, `,"context":{"includeDeclaration":true}`),
		at(4, "textDocument/completion", 30, 8, ""),
		at(5, "textDocument/rename", 9, 6, `,"newName":"y"`),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":6,"method":"textDocument/documentSymbol","params":{"textDocument":{"uri":%q}}}`, doc),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"textDocument/formatting","params":{"textDocument":{"uri":%q},"options":{"tabSize":4,"insertSpaces":true}}}`, doc),
		fmt.Sprintf(`{"jsonrpc":"2.0","id":8,"method":"textDocument/codeAction","params":{"textDocument":{"uri":%q},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"context":{"diagnostics":[]}}}`, doc),
		fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":2},"contentChanges":[{"range":{"start":{"line":1,"character":4},"end":{"line":1,"character":5}},"text":"yy"}]}}`, doc),
		fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":3},"contentChanges":[{"text":"var x : 0 .. \u00e9\n"}]}}`, doc),
		at(9, "textDocument/hover", 0, 13, ""),
		fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":%q}}}`, doc),
		`{"jsonrpc":"2.0","id":10,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	}
	f.Add([]byte(strings.Join(msgs, fuzzSep)))
	f.Add([]byte(strings.Join(msgs[:3], fuzzSep) + fuzzSep + at(1, "textDocument/completion", 0, 0, "")))
	f.Add([]byte(initMsg + fuzzSep + `{"jsonrpc":"2.0","id":[],"method":"shutdown"}` + fuzzSep + `{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var in bytes.Buffer
		for _, m := range strings.Split(string(data), fuzzSep) {
			fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
		}
		var out bytes.Buffer
		if err := Serve(&in, &out, Options{}); err != nil && err != ErrNoShutdown {
			t.Fatalf("a well-framed stream broke the session: %v", err)
		}
		rd := &reader{r: bufio.NewReader(&out)}
		for {
			body, err := rd.read()
			if err == io.EOF {
				return
			}
			if err != nil {
				t.Fatalf("the server wrote a bad frame: %v", err)
			}
			var m message
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("the server wrote bad JSON %q: %v", body, err)
			}
			if m.Error != nil && m.Error.Code == codeInternalError {
				t.Fatalf("internal error: %s", m.Error.Message)
			}
		}
	})
}

// FuzzRead reads an arbitrary byte stream as framed messages: the reader
// never panics, never returns a body longer than its Content-Length or
// MaxMessage, and always ends (each call consumes input or ends).
func FuzzRead(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}Content-Length: 3\r\nContent-Type: x\r\n\r\n[1]"))
	f.Add([]byte("\r\n\r\nContent-Length: -1\r\n\r\nnope\r\n\r\nContent-Length: 99999999999999999999\r\n\r\n"))
	f.Add([]byte("Content-Length 2\r\n\r\n{}content-length:5\n\n12345"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rd := &reader{r: bufio.NewReader(bytes.NewReader(data))}
		for i := 0; i <= len(data)+1; i++ {
			body, err := rd.read()
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return
			}
			var fe errFraming
			if err != nil && !asFraming(err, &fe) {
				return // a broken stream ends the session
			}
			if len(body) > MaxMessage || len(body) > len(data) {
				t.Fatalf("body of %d bytes from %d bytes of input", len(body), len(data))
			}
		}
		t.Fatalf("more messages than bytes: the reader does not advance")
	})
}

func asFraming(err error, fe *errFraming) bool {
	e, ok := err.(errFraming)
	if ok {
		*fe = e
	}
	return ok
}

// A header line longer than maxHeaderLine is dropped as it is read (a
// framing error), and the next message is read as usual.
func TestLongHeaderLine(t *testing.T) {
	in := "X-Junk: " + strings.Repeat("a", 3*maxHeaderLine) + "\r\n\r\nContent-Length: 2\r\n\r\n{}"
	rd := &reader{r: bufio.NewReader(strings.NewReader(in))}
	_, err := rd.read()
	var fe errFraming
	if !asFraming(err, &fe) || fe.msg != "a header line longer than 65536 bytes" {
		t.Fatalf("first message: %v", err)
	}
	if body, err := rd.read(); err != nil || string(body) != "{}" {
		t.Fatalf("second message: %q, %v", body, err)
	}
}
