package lsp

// JSON-RPC 2.0 over a byte stream with LSP's base protocol framing: each
// message is a header block of "Name: value" lines ending in an empty
// line (lines end in \r\n), of which Content-Length is required, then
// exactly that many bytes of JSON. A header without a usable
// Content-Length, a body that is not JSON, or a message that is not a
// JSON-RPC request gets an error response, and the stream is read on: a
// client's mistake never ends the session.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// MaxMessage is the largest message body the server reads (64 MiB); a
// longer one is skipped and answered with an error.
const MaxMessage = 64 << 20

// JSON-RPC and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
)

// message is any JSON-RPC message: a request (ID and Method), a
// notification (Method only) or a response (ID and Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *respError      `json:"error,omitempty"`
}

// response is what the server sends back to a request. Result is always
// present on success (null included), as JSON-RPC requires.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
}

type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *respError      `json:"error"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

type respError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *respError) Error() string { return e.Message }

// errFraming is a header block the reader could not use; the message is
// answered with a parse error and reading resumes after it.
type errFraming struct{ msg string }

func (e errFraming) Error() string { return e.msg }

// reader reads framed messages.
type reader struct{ r *bufio.Reader }

// read returns the next message body. It returns io.EOF at a clean end of
// the stream, errFraming for a message to answer with an error and skip,
// and other errors when the stream breaks.
func (rd *reader) read() ([]byte, error) {
	length := -1
	var bad string
	sawHeader := false
	for {
		line, tooLong, err := rd.line()
		if err != nil {
			if err == io.EOF && line == "" && !sawHeader {
				return nil, io.EOF
			}
			if err == io.EOF {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, err
		}
		if tooLong {
			sawHeader = true
			bad = fmt.Sprintf("a header line longer than %d bytes", maxHeaderLine)
			continue
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !sawHeader {
				continue // stray blank lines between messages
			}
			break
		}
		sawHeader = true
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			bad = fmt.Sprintf("malformed header line %q: want Name: value", trunc(line))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 {
				bad = fmt.Sprintf("Content-Length %q is not a length in bytes", trunc(strings.TrimSpace(value)))
				continue
			}
			if length >= 0 && n != length {
				// Which one frames the body? The message is answered
				// with this error (its body skipped by the last one),
				// not with "not JSON: unexpected EOF" of a body cut short.
				bad = fmt.Sprintf("two Content-Length headers disagree (%d and %d): send one", length, n)
			}
			length = n
		}
	}
	if length < 0 {
		if bad == "" {
			bad = "a message without a Content-Length header"
		}
		return nil, errFraming{bad}
	}
	if length > MaxMessage {
		if _, err := io.CopyN(io.Discard, rd.r, int64(length)); err != nil {
			return nil, io.ErrUnexpectedEOF
		}
		return nil, errFraming{fmt.Sprintf("a message of %d bytes, more than the %d this server reads", length, MaxMessage)}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(rd.r, body); err != nil {
		return nil, io.ErrUnexpectedEOF
	}
	if bad != "" {
		return nil, errFraming{bad}
	}
	return body, nil
}

// maxHeaderLine is the longest header line the reader keeps; a longer
// one (a client that never sends a newline) is read to its end and
// dropped, not held in memory.
const maxHeaderLine = 1 << 16

// line reads one header line, with its newline, as ReadString('\n')
// does; tooLong says it was longer than maxHeaderLine, and then line
// holds only its start.
func (rd *reader) line() (line string, tooLong bool, err error) {
	var buf []byte
	for {
		b, err := rd.r.ReadSlice('\n')
		if len(buf)+len(b) <= maxHeaderLine {
			buf = append(buf, b...)
		} else {
			tooLong = true
		}
		if err != bufio.ErrBufferFull {
			return string(buf), tooLong, err
		}
	}
}

func trunc(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// writer writes framed messages; it is safe for concurrent use.
type writer struct {
	mu sync.Mutex
	w  io.Writer
}

func (wr *writer) write(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // "->" and "<" stay readable
	if err := enc.Encode(v); err != nil {
		return err
	}
	body := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	wr.mu.Lock()
	defer wr.mu.Unlock()
	var b bytes.Buffer
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(body))
	b.Write(body)
	_, err := wr.w.Write(b.Bytes())
	return err
}

// decodeMessage parses a body into a message, or says why it is not a
// JSON-RPC 2.0 message.
func decodeMessage(body []byte) (*message, *respError) {
	var m message
	if t := bytes.TrimSpace(body); len(t) > 0 && t[0] == '[' {
		return nil, &respError{codeInvalidRequest, "invalid request: batches (JSON arrays of messages) are not part of LSP; send one message at a time"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&m); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) {
			// a member of the wrong type ("method": 5): answer the request's
			// id when it has a valid one, so that the client can match it
			var probe struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(body, &probe) == nil && len(probe.ID) > 0 && validID(probe.ID) {
				return &message{ID: probe.ID}, &respError{codeInvalidRequest, "invalid request: " + err.Error()}
			}
			return nil, &respError{codeInvalidRequest, "invalid request: " + err.Error()}
		}
		return nil, &respError{codeParseError, "parse error: the message is not JSON: " + err.Error()}
	}
	if dec.More() {
		return nil, &respError{codeParseError, "parse error: more than one JSON value in one message"}
	}
	if m.JSONRPC != "2.0" {
		return &m, &respError{codeInvalidRequest, `invalid request: "jsonrpc" must be "2.0"`}
	}
	if len(m.ID) > 0 && !validID(m.ID) {
		return &m, &respError{codeInvalidRequest, "invalid request: an id is a number or a string"}
	}
	if m.Method == "" && m.Result == nil && m.Error == nil {
		return &m, &respError{codeInvalidRequest, "invalid request: no method"}
	}
	return &m, nil
}

func validID(id json.RawMessage) bool {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64, nil:
		return true
	}
	return false
}

// more reports whether the next message has begun to arrive: its whole
// header block is buffered already, so that reading it will not wait for
// the client to decide to send something.
func (rd *reader) more() bool {
	n := rd.r.Buffered()
	if n == 0 {
		return false
	}
	b, _ := rd.r.Peek(n)
	return bytes.Contains(b, []byte("\r\n\r\n")) || bytes.Contains(b, []byte("\n\n"))
}
