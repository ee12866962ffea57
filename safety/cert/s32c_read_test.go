package cert

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// The header's values together are bounded, not only each one: sixteen
// fields of just under 64 MiB were each read whole into memory (1 GiB of
// strings). Two fields of 40 MiB are refused at the second, naming it.
func TestS32cHeaderTooLarge(t *testing.T) {
	const n = 40 << 20
	r := io.MultiReader(
		strings.NewReader(`{"spec": "`), &repeat{'a', n},
		strings.NewReader(`", "model": "`), &repeat{'b', n},
		strings.NewReader(`", "format": "vigil-safety-certificate"}`))
	_, err := Read(r)
	var ce *Error
	if !errors.As(err, &ce) || !errors.Is(err, errValueTooLarge) ||
		!strings.HasPrefix(ce.Msg, fmt.Sprintf("model: the header's fields (all but entries, safe_states and unsafe_states) are longer than 64 MiB together, by the field that starts at byte %d", 10+n+12)) {
		t.Errorf("%v, want the header refused at model", err)
	}
	// the same bytes as entries' white space read (the bound is the
	// header's), and a header of many small fields is not refused
	r = io.MultiReader(strings.NewReader(`{"spec": "a", "entries": [`), &repeat{' ', n}, strings.NewReader(`{"s": [0]},`), &repeat{' ', n},
		strings.NewReader(`{"s": [0]}], "format": "x"}`))
	if _, err := Read(r); err == nil || !strings.Contains(err.Error(), `format "x"`) {
		t.Errorf("%v, want the format refused after the entries", err)
	}
}

// The entries and states held are bounded (MaxHeld): a gzip file of
// 16 GiB of short entries, a few MB compressed, asked for some 120 GB.
// Here the bound is lowered to 1 MiB and a stream of short entries is
// refused at the entry that passes it, as are the states of a starts
// certificate.
func TestS32cEntriesTooMuchMemory(t *testing.T) {
	defer func(m int64) { MaxHeld = m }(MaxHeld)
	MaxHeld = 1 << 20
	for _, tc := range []struct{ head, item, want string }{
		{`{"entries": [`, `{"s": [0], "b": 0, "label": "a"}`, "entries["},
		{`{"kind": "starts", "safe_states": [`, `[0, 1]`, "safe_states["},
	} {
		pr, pw := io.Pipe()
		go func() {
			pw.Write([]byte(tc.head))
			item := []byte(tc.item)
			for i := 0; i < 1<<20; i++ {
				if i > 0 {
					item = []byte("," + tc.item)
				}
				if _, err := pw.Write(item); err != nil {
					return // the reader stopped
				}
			}
			pw.Write([]byte(`]}`))
			pw.Close()
		}()
		_, err := Read(pr)
		pr.Close()
		var ce *Error
		if !errors.As(err, &ce) || !errors.Is(err, errTooMuchHeld) || !strings.HasPrefix(ce.Msg, tc.want) ||
			!strings.Contains(ce.Msg, "take more than 1 MiB of memory") || !strings.Contains(ce.Msg, "--max-entry-memory") {
			t.Errorf("%s: %v, want the entries refused", tc.head, err)
		}
	}
	// under the bound, the same certificate reads, and its entries share
	// one copy of their label
	MaxHeld = 1 << 30
	var b strings.Builder
	b.WriteString(`{"format": "vigil-safety-certificate", "version": 1, "kind": "safe", "vars": ["x"], "state": [0], "radius": "inf", "entries": [`)
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"s": [%d], "b": 0, "label": "go"}`, i)
	}
	b.WriteString(`]}`)
	c, err := Read(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) != 1000 || c.Entries[0].Label != "go" || strings.Clone(c.Entries[999].Label) != "go" {
		t.Errorf("entries %d, want 1000 with label go", len(c.Entries))
	}
}

// A constant or a PlaJA file named twice inside defines or plaja is
// refused: encoding/json kept the last, so {"L": "5", "L": "6"} was
// checked as L=6 while its first copy said 5 (the top level's fields
// were already refused twice, s26r).
func TestS32cObjectMemberTwice(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"defines": {"L": "5", "L": "6"}}`, `defines: "L" appears a second time at line 1, column 24`},
		{`{"plaja": {"start": "", "start": "x"}}`, `plaja: "start" appears a second time at line 1, column 25`},
		{`{"plaja": {"stat": ""}}`, `unknown field "stat" of plaja at line 1, column 12`},
		{`{"defines": {"L": 6}}`, `defines.L`},
		{`{"defines": [1]}`, `defines at line 1, column 13: got an array, want an object`},
	} {
		_, err := Read(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.in, err, tc.want)
		}
	}
	c, err := Read(strings.NewReader(`{"format": "vigil-safety-certificate", "version": 1, "kind": "invariant", "radius": "inf", "vars": ["x"], "defines": {"L": "5", "M": "6"}, "plaja": {"start": "a", "unsafe": "", "policy_file": "p"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Defines) != 2 || c.Defines["L"] != "5" || c.Defines["M"] != "6" || c.Plaja == nil || c.Plaja.Start != "a" || c.Plaja.PolicyFile != "p" {
		t.Errorf("defines %v, plaja %+v", c.Defines, c.Plaja)
	}
	if c, err := Read(strings.NewReader(`{"format": "vigil-safety-certificate", "version": 1, "kind": "invariant", "radius": "inf", "vars": ["x"], "defines": null, "plaja": null}`)); err != nil || c.Defines != nil || c.Plaja != nil {
		t.Errorf("null defines and plaja: %v", err)
	}
}
