package cert_test

import (
	"bytes"
	"compress/gzip"
	"reflect"
	"strings"
	"testing"

	"vigil/safety/cert"
)

// TestS27cReadStreams: Read decodes a certificate as a stream (session 27:
// it read the whole file, then decompressed it whole, then decoded it
// whole); what it gives is what was written, compressed or not, with the
// members in any order; a truncated or damaged file is refused naming
// where: the entry (entries[i]) and its line and column, or the byte.
func TestS27cReadStreams(t *testing.T) {
	c := &cert.Certificate{Format: cert.FormatName, Version: cert.Version, Model: "m", Property: "p", Kind: cert.Safe,
		Radius: cert.Inf, Vars: []string{"x", "y"}, State: []int{0, 0}}
	for x := 0; x < 50000; x++ {
		c.Entries = append(c.Entries, cert.Entry{S: []int{x, x % 7}, B: 0, Label: "up"})
	}
	var plain bytes.Buffer
	if err := cert.Write(&plain, c); err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain.Bytes())
	zw.Close()
	for name, data := range map[string][]byte{"plain": plain.Bytes(), "gzip": gz.Bytes()} {
		got, err := cert.Read(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Entries, c.Entries) || !reflect.DeepEqual(got.State, c.State) || got.Kind != c.Kind {
			t.Fatalf("%s: read back differs", name)
		}
	}

	// "kind" after the entries: they are checked against it, after them
	// (a field named twice is refused: TestS27DuplicateField)
	noKind := strings.Replace(plain.String(), `"kind": "safe",`, ``, 1)
	if noKind == plain.String() {
		t.Fatal(`the certificate has no "kind": "safe",`)
	}
	moved := strings.TrimSuffix(strings.TrimSpace(noKind), "}") + `, "kind": "safe"}`
	if _, err := cert.Read(strings.NewReader(moved)); err != nil {
		t.Fatalf("kind after the entries: %v", err)
	}
	bad := strings.TrimSuffix(strings.TrimSpace(noKind), "}") + `, "kind": "unsafe"}`
	if _, err := cert.Read(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "entries[0]: an unsafe certificate's entry has a rank, not a label") {
		t.Fatalf("entries of a safe certificate under a later kind unsafe: %v", err)
	}

	s := plain.String()
	i := strings.Index(s, `{"s":[1234,`)
	for _, tc := range []struct {
		name, data, want string
	}{
		{"cut inside an entry", s[:i+8], "entries[1234]: the JSON ends early at line"},
		{"cut between entries", s[:i], "the JSON ends early at line"},
		{"garbage in an entry", s[:i] + `{"s":[1234,x]}` + s[i+14:], "entries[1234]: invalid JSON at line"},
		{"a string for a state", s[:i] + `{"s":"1234", "b": 0, "label": "up"}` + s[i+len(`{"s":[1234,2],"b":0,"label":"up"}`):], "field entries[1234].s: got a string"},
		{"an unknown field", s[:i] + `{"s":[1234,2],"b":0,"label":"up","q":1}` + s[i+len(`{"s":[1234,2],"b":0,"label":"up"}`):], `entries[1234]: line 1247, column 5: unknown field "q"`},
		{"garbage", "\x00\x01garbage", "invalid JSON at line 1, column"},
		{"empty", "", "empty input"},
		{"an array", "[1]", "the top-level value: got an array, want an object"},
		{"data after", s + "{}", "data after the certificate's JSON object"},
	} {
		_, err := cert.Read(strings.NewReader(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestS27DuplicateField: a field named twice at the top level is refused
// (encoding/json keeps the last value and merges two defines objects, so
// the two copies could say different things to two readers).
func TestS27DuplicateField(t *testing.T) {
	for _, data := range []string{
		`{"format": "x", "format": "y"}`,
		`{"defines": {"N": "1"}, "defines": {"M": "2"}}`,
		`{"entries": [], "entries": []}`,
	} {
		_, err := cert.Read(strings.NewReader(data))
		if err == nil || !strings.Contains(err.Error(), "appears a second time at line 1") {
			t.Errorf("%s: %v, want a field named twice refused", data, err)
		}
	}
}
