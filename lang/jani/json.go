package jani

// A small JSON reader that keeps, for every value, its byte offset and its
// place in the document, so that every error can name a JSON path such as
// automata[0].edges[12].guard.exp.left together with a line and column.
// encoding/json is used only to unquote strings.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

type kind uint8

const (
	kNull kind = iota
	kBool
	kNumber
	kString
	kArray
	kObject
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

func (k kind) String() string { return kindNames[k] }

// node is one JSON value.
type node struct {
	kind   kind
	str    string // kString: the value; kNumber: the literal
	b      bool
	keys   []string // kObject, in document order
	vals   []*node  // kObject: values of keys; kArray: elements
	off    int
	parent *node
	key    string // the key under which this node sits in its parent object
	idx    int    // the index in its parent array
}

// maxDepth bounds nesting so that hostile input cannot exhaust the stack.
const maxDepth = 2000

type reader struct {
	data []byte
	pos  int
	file string
}

// parseJSON reads one JSON document.
func parseJSON(file string, data []byte) (*node, error) {
	// A UTF-8 byte order mark is common in files written on Windows.
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		data = data[3:]
	}
	r := &reader{data: data, file: file}
	n, err := r.value(nil, 0)
	if err != nil {
		return nil, err
	}
	r.space()
	if r.pos < len(r.data) {
		return nil, r.errAt(r.pos, "unexpected %q after the JSON document", r.data[r.pos])
	}
	return n, nil
}

func (r *reader) errAt(off int, format string, args ...any) error {
	line, col := lineCol(r.data, off)
	return &Error{File: r.file, Line: line, Col: col, Msg: "malformed JSON: " + fmt.Sprintf(format, args...)}
}

func lineCol(data []byte, off int) (line, col int) {
	line, col = 1, 1
	if off > len(data) {
		off = len(data)
	}
	for _, c := range data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else if c&0xC0 != 0x80 { // count runes, not bytes
			col++
		}
	}
	return line, col
}

func (r *reader) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *reader) value(parent *node, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, r.errAt(r.pos, "nesting deeper than %d", maxDepth)
	}
	r.space()
	if r.pos >= len(r.data) {
		return nil, r.errAt(r.pos, "unexpected end of input")
	}
	n := &node{off: r.pos, parent: parent}
	switch c := r.data[r.pos]; {
	case c == '{':
		n.kind = kObject
		r.pos++
		r.space()
		if r.pos < len(r.data) && r.data[r.pos] == '}' {
			r.pos++
			return n, nil
		}
		seen := map[string]bool{}
		for {
			r.space()
			if r.pos >= len(r.data) || r.data[r.pos] != '"' {
				return nil, r.errAt(r.pos, "expected a string key")
			}
			koff := r.pos
			k, err := r.string()
			if err != nil {
				return nil, err
			}
			if seen[k] {
				return nil, r.errAt(koff, "duplicate key %q", k)
			}
			seen[k] = true
			r.space()
			if r.pos >= len(r.data) || r.data[r.pos] != ':' {
				return nil, r.errAt(r.pos, "expected ':' after key %q", k)
			}
			r.pos++
			v, err := r.value(n, depth+1)
			if err != nil {
				return nil, err
			}
			v.key = k
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, v)
			r.space()
			if r.pos < len(r.data) && r.data[r.pos] == ',' {
				r.pos++
				continue
			}
			if r.pos < len(r.data) && r.data[r.pos] == '}' {
				r.pos++
				return n, nil
			}
			return nil, r.errAt(r.pos, "expected ',' or '}' in object")
		}
	case c == '[':
		n.kind = kArray
		r.pos++
		r.space()
		if r.pos < len(r.data) && r.data[r.pos] == ']' {
			r.pos++
			return n, nil
		}
		for {
			v, err := r.value(n, depth+1)
			if err != nil {
				return nil, err
			}
			v.idx = len(n.vals)
			n.vals = append(n.vals, v)
			r.space()
			if r.pos < len(r.data) && r.data[r.pos] == ',' {
				r.pos++
				continue
			}
			if r.pos < len(r.data) && r.data[r.pos] == ']' {
				r.pos++
				return n, nil
			}
			return nil, r.errAt(r.pos, "expected ',' or ']' in array")
		}
	case c == '"':
		s, err := r.string()
		if err != nil {
			return nil, err
		}
		n.kind, n.str = kString, s
	case c == '-' || (c >= '0' && c <= '9'):
		lit, err := r.number()
		if err != nil {
			return nil, err
		}
		n.kind, n.str = kNumber, lit
	default:
		for _, w := range [...]struct {
			lit  string
			kind kind
			b    bool
		}{{"true", kBool, true}, {"false", kBool, false}, {"null", kNull, false}} {
			if strings.HasPrefix(string(r.data[r.pos:min(len(r.data), r.pos+5)]), w.lit) {
				r.pos += len(w.lit)
				n.kind, n.b = w.kind, w.b
				return n, nil
			}
		}
		return nil, r.errAt(r.pos, "unexpected %q", c)
	}
	return n, nil
}

func (r *reader) string() (string, error) {
	start := r.pos
	r.pos++ // opening quote
	escaped := false
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '\\':
			escaped = true
			r.pos += 2
			continue
		case c == '"':
			r.pos++
			raw := r.data[start:r.pos]
			if !escaped {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return "", r.errAt(start, "bad string: %v", err)
			}
			return s, nil
		case c < 0x20:
			return "", r.errAt(r.pos, "control character in string")
		}
		r.pos++
	}
	return "", r.errAt(start, "unterminated string")
}

func (r *reader) number() (string, error) {
	start := r.pos
	digits := func() int {
		n := 0
		for r.pos < len(r.data) && r.data[r.pos] >= '0' && r.data[r.pos] <= '9' {
			r.pos++
			n++
		}
		return n
	}
	if r.data[r.pos] == '-' {
		r.pos++
	}
	if digits() == 0 {
		return "", r.errAt(start, "bad number")
	}
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if digits() == 0 {
			return "", r.errAt(start, "bad number")
		}
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if digits() == 0 {
			return "", r.errAt(start, "bad number")
		}
	}
	return string(r.data[start:r.pos]), nil
}

// get returns the value of key in object n, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// path renders n's place in the document: automata[0].edges[12].guard.
func (n *node) path() string {
	var parts []string
	for c := n; c != nil && c.parent != nil; c = c.parent {
		if c.parent.kind == kArray {
			parts = append(parts, "["+strconv.Itoa(c.idx)+"]")
		} else {
			parts = append(parts, "."+c.key)
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteString(parts[i])
	}
	return strings.TrimPrefix(b.String(), ".")
}

// describe names n for messages: `"x"`, `object`, `number 3`.
func (n *node) describe() string {
	switch n.kind {
	case kString:
		return strconv.Quote(n.str)
	case kNumber:
		return "number " + n.str
	case kBool:
		return strconv.FormatBool(n.b)
	}
	return n.kind.String()
}
