package cert_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"vigil/safety/cert"
)

// lineCol is where json.Unmarshal's offset off falls in b, as the
// reader says it ("line L, column C": the byte after the bad one, as the
// whole-file reader said).
func lineCol(b []byte, off int64) string {
	line, col := 1, 1
	for _, c := range b[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("line %d, column %d", line, col)
}

// A syntax error in a key, in the object's structure (a missing colon,
// a stray character between members) or at the start is named where
// json.Unmarshal names it. The streamed reader took the decoder's count
// of value bytes for the stream's offset in keys and token checks: a NUL
// in the key "vars" on line 12 was reported on line 10 (and a missing
// colon three columns on).
func TestS27rSyntaxErrorPositions(t *testing.T) {
	base := `{
  "format": "vigil-safety-certificate",
  "version": 1,
  "kind": "invariant",
  "spec": "five.spec",
  "model": "five",
  "property": "p",
  "radius": "inf",
  "vars": ["x"],
  "entries": [
    {"s":[0]},
    {"s":[1]}
  ]
}
`
	bad := 0
	for i := 0; i < len(base); i++ {
		for _, c := range []byte{0, 'x', '"', '}', ']', '{', '['} {
			if base[i] == c {
				continue
			}
			b := []byte(base)
			b[i] = c
			var v any
			err := json.Unmarshal(b, &v)
			syn, ok := err.(*json.SyntaxError)
			if !ok {
				continue
			}
			_, rerr := cert.Read(bytes.NewReader(b))
			if rerr == nil {
				t.Fatalf("byte %d = %q: read, want a syntax error", i, c)
			}
			if !strings.Contains(rerr.Error(), "invalid JSON at ") {
				continue // refused earlier, for another reason (an unknown field)
			}
			if want := lineCol(b, syn.Offset); !strings.Contains(rerr.Error(), "invalid JSON at "+want+":") {
				bad++
				if bad <= 10 {
					t.Errorf("byte %d = %q: %v; want the error at %s", i, c, rerr, want)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d syntax errors named elsewhere than json.Unmarshal names them", bad)
	}
}

// ReadContext stops when its context ends: the read of a large
// certificate ignored Ctrl-C for tens of seconds.
func TestS27rReadContextStops(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"format": "vigil-safety-certificate", "version": 1, "kind": "invariant", "radius": "inf", "vars": ["x"], "entries": [`)
	for i := range 200000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"s":[%d]}`, i)
	}
	b.WriteString("]}")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := cert.ReadContext(ctx, strings.NewReader(b.String())); !errors.Is(err, context.Canceled) {
		t.Errorf("ReadContext with its context ended: %v, want context.Canceled", err)
	}
	c, err := cert.ReadContext(context.Background(), strings.NewReader(b.String()))
	if err != nil || len(c.Entries) != 200000 {
		t.Errorf("ReadContext: %v", err)
	}
}
