package cert

import (
	"bytes"
	"strings"
	"testing"

	"vigil/smt"
)

// A header line that names the question (model, property, policy, the
// files, the hashes, the box count) or a constant a second time is
// refused: the parser kept the last copy, so "; define: N=5" followed by
// "; define: N=1000" was checked, and reported, as N=1000 while the
// first line said 5. Differ and fact lines repeat by design.
func TestS32cHeaderLineTwice(t *testing.T) {
	m, prop := counter()
	m.Vars[0].Name, m.Labels[0].Name, m.Labels[1].Name = "x", "a", "b"
	c := &Cert{Inv: [][]smt.Lit{{{Var: 0, Upper: true, K: 3}}}, Vars: []string{"x"}}
	c.Property, c.Boxes = "p", 1
	c.Hash, _ = ModelHash(m, "p", "")
	c.Model = "counter.spec"
	c.Defines = []string{"N=1000", "M=2"}
	var buf bytes.Buffer
	if err := c.Write(&buf, m, prop, nil); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if _, err := Parse(strings.NewReader(text), "c.smt2"); err != nil {
		t.Fatalf("the certificate written: %v", err)
	}
	for _, tc := range []struct{ line, dup, want string }{
		{"; define: N=1000\n", "; define: N=5\n; define: N=1000\n", `c.smt2:4: a second define line for "N" (the first is line 3)`},
		{"; define: N=1000\n", "; define: N=1000\n; define:  N = 7\n", `c.smt2:4: a second define line for "N" (the first is line 3)`},
		{"; property: p\n", "; property: p\n; property: q\n", `a second "property" line`},
		{"; policy: -\n", "; policy: -\n; policy: -\n", `a second "policy" line`},
		{"; model: counter.spec\n", "; model: counter.spec\n; model: other.spec\n", `a second "model" line`},
		{"; boxes: 1\n", "; boxes: 1\n; boxes: 1\n", `a second "boxes" line`},
		{"; model-sha256: ", "; model-sha256: 00\n; model-sha256: ", `a second "model-sha256" line`},
	} {
		if !strings.Contains(text, tc.line) {
			t.Fatalf("the certificate has no line %q:\n%s", tc.line, text)
		}
		_, err := Parse(strings.NewReader(strings.Replace(text, tc.line, tc.dup, 1)), "c.smt2")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.dup, err, tc.want)
		}
	}
}

// A fact line that names a field twice is refused: the last copy was
// read, so "label=up ... label=go" was checked as a fact about go.
func TestS32cFactFieldTwice(t *testing.T) {
	for _, v := range []string{
		"box=0 label=up sure=a label=go",
		"box=0 box=1 label=up sure=a",
		"box=0 label=up sure=a sure=b",
		"box=0 label=up sure=a within=x>=1 within=x>=0",
	} {
		if _, err := parseFact(v); err == nil || !strings.Contains(err.Error(), "appears twice") {
			t.Errorf("%q: %v, want refused", v, err)
		}
	}
	if f, err := parseFact("box=2 label=up sure=a,b within=x>=1,x<=3 differ"); err != nil || f.Box != 2 || f.Label != "up" || len(f.Sure) != 2 || len(f.Within) != 2 || !f.Differ {
		t.Errorf("a fact line: %+v, %v", f, err)
	}
}
