package cert

import (
	"bytes"
	"compress/gzip"
	"reflect"
	"strings"
	"testing"

	"vigil/internal/fuzzseed"
)

const walkSafeJSON = `{
  "format": "vigil-safety-certificate",
  "version": 1,
  "kind": "safe",
  "spec": "walk.spec",
  "defines": {"L":"4"},
  "model": "walk",
  "property": "p",
  "policy": "rush",
  "model_sha256": "41d0c0ffee",
  "radius": 2,
  "vars": ["x","done"],
  "state": [1,0],
  "entries": [
    {"s":[1,0],"b":2,"label":"left"},
    {"s":[0,0],"b":1,"label":"stop"}
  ]
}
`

const trapUnsafeJSON = `{
  "format": "vigil-safety-certificate",
  "version": 1,
  "kind": "unsafe",
  "spec": "trap.spec",
  "plaja": {"start":"","unsafe":"u.jani","policy_file":""},
  "model": "trap",
  "property": "p",
  "policy": "",
  "radius": "inf",
  "vars": ["x","halt","wild"],
  "state": [0,0,0],
  "entries": [
    {"s":[0,0,0],"b":0,"rank":2},
    {"s":[2,0,0],"b":0,"rank":1}
  ]
}
`

// TestWriteRead: Write's output is the documented layout, one entry per
// line, and reads back to the same certificate.
func TestWriteRead(t *testing.T) {
	for _, src := range []string{walkSafeJSON, trapUnsafeJSON} {
		c, err := Read(strings.NewReader(src))
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		var buf bytes.Buffer
		if err := Write(&buf, c); err != nil {
			t.Fatalf("Write: %v", err)
		}
		if buf.String() != src {
			t.Errorf("Write:\n%s\nwant:\n%s", buf.String(), src)
		}
		c2, err := Read(&buf)
		if err != nil {
			t.Fatalf("Read(Write): %v", err)
		}
		if !reflect.DeepEqual(c, c2) {
			t.Errorf("round trip:\n%+v\n%+v", c, c2)
		}
	}
}

// TestHashPolicy: the model hash covers the tested policy exactly when
// the claim depends on it.
func TestHashPolicy(t *testing.T) {
	for _, c := range []struct {
		kind   Kind
		radius int
		policy string
		want   string
	}{
		{Safe, 2, "rush", "rush"},
		{Unsafe, 0, "rush", "rush"},
		{Safe, Inf, "rush", ""},
		{Starts, Inf, "rush", ""},
		{Invariant, Inf, "rush", "rush"},
		{Invariant, Inf, "", ""},
	} {
		ct := &Certificate{Kind: c.kind, Radius: c.radius, Policy: c.policy}
		if got := ct.HashPolicy(); got != c.want || ct.UsesPolicy() != (c.want != "") {
			t.Errorf("%s radius %d policy %q: HashPolicy %q, UsesPolicy %v; want %q", c.kind, c.radius, c.policy, got, ct.UsesPolicy(), c.want)
		}
	}
}

func TestWriteEmpty(t *testing.T) {
	c := &Certificate{Format: FormatName, Version: Version, Kind: Safe, Radius: Inf}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"vars": [],`) || !strings.Contains(buf.String(), `"entries": []`) {
		t.Errorf("Write of an empty certificate:\n%s", buf.String())
	}
	if _, err := Read(&buf); err != nil {
		t.Errorf("Read(Write): %v", err)
	}
	c.Kind = "both"
	if err := Write(&buf, c); err == nil || !strings.Contains(err.Error(), `kind "both"`) {
		t.Errorf("Write of a bad kind: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	edit := func(old, new string) string {
		if !strings.Contains(walkSafeJSON, old) {
			panic(old)
		}
		return strings.Replace(walkSafeJSON, old, new, 1)
	}
	tests := []struct{ in, err string }{
		{"", "cert: empty input"},
		{"[1, 2]", "cert: line 1, column 2: the top-level value: got an array, want an object"},
		{"{", "cert: the JSON ends early"},
		{walkSafeJSON + "{}", "data after the certificate"},
		{edit(`"vigil-safety-certificate"`, `"vigil-run"`), `format "vigil-run", want "vigil-safety-certificate"`},
		{edit(`"version": 1`, `"version": 2`), "version 2 is not supported"},
		{edit(`"version": 1`, `"version": 1.5`), "field version: got the number 1.5, want an integer"},
		{edit(`"kind": "safe"`, `"kind": "sound"`), `kind "sound"`},
		{edit(`"radius": 2`, `"radius": -1`), "radius -1; want \"inf\" or a non-negative integer"},
		{edit(`"radius": 2`, `"radius": "2"`), `radius "2"; want`},
		{edit(`"radius": 2`, `"radius": "infinity"`), `radius "infinity"`},
		{edit(`"radius": 2,`, ``), "missing radius"},
		{edit(`"policy": "rush"`, `"policy": ""`), "radius 2 needs the tested policy"},
		{edit(`"vars": ["x","done"],`, ``), "missing vars"},
		{edit(`"state": [1,0],`, ``), "missing state"},
		{edit(`"state": [1,0]`, `"state": [1,"a"]`), "field state: got a string, want an integer"},
		{edit(`"spec"`, `"spek"`), `unknown field "spek"`},
		{edit(`"b":2,`, ``), "entries[0]: missing b"},
		{edit(`"s":[1,0],`, ``), "entries[0]: missing s"},
		{edit(`"label":"left"`, `"rank":1`), "entries[0]: a safe certificate's entry has a label, not a rank"},
		{edit(`,"label":"stop"`, ``), "entries[1]: missing label"},
		{edit(`"label":"stop"`, `"lable":"stop"`), `unknown field "lable"`},
		{edit(`"b":1`, `"b":-1`), "entries[1]: negative budget -1"},
		{edit(`"b":1`, `"b":3`), "entries[1]: budget 3 exceeds the radius 2"},
		{strings.Replace(trapUnsafeJSON, `"rank":2`, `"label":"inc"`, 1), "entries[0]: an unsafe certificate's entry has a rank, not a label"},
		{strings.Replace(trapUnsafeJSON, `,"rank":1`, ``, 1), "entries[1]: missing rank"},
		{strings.Replace(trapUnsafeJSON, `"rank":1`, `"rank":-1`, 1), "entries[1]: negative rank -1"},
	}
	for _, tt := range tests {
		_, err := Read(strings.NewReader(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("Read(%.60q...): %v\nwant an error containing %q", tt.in, err, tt.err)
		}
	}
}

// TestReadInfBudgets: with radius inf budgets are not bounded by a radius.
func TestReadInfBudgets(t *testing.T) {
	in := strings.Replace(trapUnsafeJSON, `"b":0,"rank":2`, `"b":9,"rank":2`, 1)
	if _, err := Read(strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
}

// FuzzRead: Read never panics, and what it accepts Write writes back to a
// certificate that reads the same.
func FuzzRead(f *testing.F) {
	f.Add(walkSafeJSON)
	f.Add(trapUnsafeJSON)
	f.Add(`{"format":"vigil-safety-certificate","version":1,"kind":"safe","radius":"inf","vars":[],"state":[],"entries":[]}`)
	f.Add(`{"radius": 1e999}`)
	for _, v := range fuzzseed.Variants([]byte(walkSafeJSON)) {
		f.Add(string(v))
	}
	f.Add(string(fuzzseed.Deep("[", "1", "]")))
	f.Add(`{"format":"vigil-safety-certificate","version":1,"kind":"unsafe","policy":"p","radius":0,"vars":["x"],"state":[0],"entries":[{"s":[0],"b":0,"rank":0}]}`)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := Read(strings.NewReader(in))
		if err != nil {
			if c != nil {
				t.Fatal("Read returned a certificate with an error")
			}
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, c); err != nil {
			t.Fatalf("Write of a certificate Read accepted: %v", err)
		}
		c2, err := Read(&buf)
		if err != nil {
			t.Fatalf("Read(Write): %v\n%s", err, buf.String())
		}
		if !reflect.DeepEqual(c, c2) {
			t.Fatalf("round trip:\n%+v\n%+v", c, c2)
		}
	})
}

const walkInvariantJSON = `{
  "format": "vigil-safety-certificate",
  "version": 1,
  "kind": "invariant",
  "spec": "../models/walk.spec",
  "cert_dir": "/home/u/certs",
  "model": "walk",
  "property": "p",
  "policy": "rush",
  "radius": "inf",
  "vars": ["x","done"],
  "entries": [
    {"s":[1,0]},
    {"s":[2,0]}
  ]
}
`

// TestInvariantGzip: an invariant certificate (no root state, entries that
// are states alone) writes back byte for byte, and reads the same from its
// gzip-compressed form; entries with a budget, label or rank are refused.
func TestInvariantGzip(t *testing.T) {
	c, err := Read(strings.NewReader(walkInvariantJSON))
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	var buf bytes.Buffer
	if err := Write(&buf, c); err != nil {
		t.Fatal(err)
	}
	if buf.String() != walkInvariantJSON {
		t.Errorf("Write:\n%s\nwant\n%s", buf.String(), walkInvariantJSON)
	}
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	zw.Write([]byte(walkInvariantJSON))
	zw.Close()
	cz, err := Read(&zbuf)
	if err != nil {
		t.Fatalf("Read gzip: %v", err)
	}
	if !reflect.DeepEqual(c, cz) {
		t.Errorf("gzip read %+v, want %+v", cz, c)
	}
	for _, bad := range []string{`{"s":[1,0],"b":0}`, `{"s":[1,0],"label":"left"}`, `{"s":[1,0],"rank":1}`} {
		src := strings.Replace(walkInvariantJSON, `{"s":[1,0]}`, bad, 1)
		if _, err := Read(strings.NewReader(src)); err == nil || !strings.Contains(err.Error(), "a state alone") {
			t.Errorf("entry %s: err %v, want a refusal", bad, err)
		}
	}
	if _, err := Read(strings.NewReader(strings.Replace(walkInvariantJSON, `"inf"`, "0", 1))); err == nil {
		t.Error("radius 0 accepted in an invariant certificate")
	}
}
