package cert

import (
	"go/build"
	"strings"
	"testing"

	"vigil/internal/fuzzseed"
)

const valid = `; vigil invariant certificate 1
; model: specs/x.spec
; define: N=3
; property: p
; policy: -
; model-sha256: abc
; boxes: 3
(define-fun vigil.trans ((|x| Int)) Bool true)
(define-fun vigil.inv ((|x| Int) (|y z| Int)) Bool
(or
(and (>= |x| 1) (<= |y z| (- 5)))
true
(<= |x| 7)
))
`

func TestParse(t *testing.T) {
	c, err := Parse(strings.NewReader(valid), "c.smt2")
	if err != nil {
		t.Fatal(err)
	}
	if c.Model != "specs/x.spec" || c.Property != "p" || c.Policy != "" || len(c.Defines) != 1 || c.Hash != "abc" {
		t.Errorf("header: %+v", c.Header)
	}
	if len(c.Vars) != 2 || c.Vars[1] != "y z" {
		t.Errorf("vars: %q", c.Vars)
	}
	if len(c.Inv) != 3 || len(c.Inv[0]) != 2 || c.Inv[0][1].K != -5 || !c.Inv[0][1].Upper || len(c.Inv[1]) != 0 || c.Inv[2][0].K != 7 {
		t.Errorf("inv: %+v", c.Inv)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"json", `{"kind": "safe"}`, "not an invariant certificate"},
		{"no inv", "; vigil invariant certificate 1\n; model: m\n; property: p\n; model-sha256: a\n(check-sat)\n", "no (define-fun vigil.inv"},
		{"no hash", "; vigil invariant certificate 1\n; model: m\n; property: p\n", `no "model-sha256" line`},
		{"unclosed", strings.Replace(valid, "))\n", ")\n", 1), "unclosed ("},
		{"count", strings.Replace(valid, "boxes: 3", "boxes: 2", 1), "says 2 boxes"},
		{"unknown var", strings.Replace(valid, "(<= |x| 7)", "(<= |w| 7)", 1), `bound on "w"`},
		{"bad op", strings.Replace(valid, "(<= |x| 7)", "(< |x| 7)", 1), "want >= or <="},
		{"bad const", strings.Replace(valid, "(<= |x| 7)", "(<= |x| y)", 1), "integer"},
		{"long header line", strings.Replace(valid, "; property: p\n", "; note: "+strings.Repeat("x", 2<<20)+"\n; property: p\n", 1), "c.smt2:4: the header's next line is longer than 1 MiB"},
		{"deep", "; vigil invariant certificate 1\n; model: m\n; property: p\n; model-sha256: a\n" + strings.Repeat("(", 5000), "nested deeper"},
	} {
		_, err := Parse(strings.NewReader(tc.src), "c.smt2")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// The checker must share no code with the engine whose answers it checks.
func TestIndependentOfIC3(t *testing.T) {
	p, err := build.Import("vigil/ic3/cert", ".", 0)
	if err != nil {
		t.Skip(err)
	}
	for _, imp := range p.Imports {
		if imp == "vigil/ic3" {
			t.Fatal("vigil/ic3/cert imports vigil/ic3")
		}
	}
}

// FuzzParse: the certificate reader never panics, and what it accepts
// keeps its invariant's shape.
func FuzzParse(f *testing.F) {
	f.Add(valid)
	for _, v := range fuzzseed.Variants([]byte(valid)) {
		f.Add(string(v))
	}
	f.Add(strings.Replace(valid, "(define-fun vigil.inv () Bool", "(define-fun vigil.inv () Bool "+string(fuzzseed.Deep("(and ", "true", ")")), 1))
	f.Add(strings.Replace(valid, "boxes: 3", "boxes: 3\n; fact: box=1 label=a sure=b,c", 1))
	f.Add("; vigil invariant certificate 1\n; model: m\n; property: p\n; model-sha256: a\n; boxes: 0\n(define-fun vigil.inv () Bool false)\n")
	f.Fuzz(func(t *testing.T, src string) {
		c, err := Parse(strings.NewReader(src), "f.smt2")
		if err != nil {
			return
		}
		if len(c.Inv) != c.Boxes {
			t.Fatalf("%d boxes, header %d", len(c.Inv), c.Boxes)
		}
		for _, b := range c.Inv {
			for _, l := range b {
				if int(l.Var) < 0 || int(l.Var) >= len(c.Vars) {
					t.Fatalf("literal on variable %d of %d", l.Var, len(c.Vars))
				}
			}
		}
		for _, fc := range c.Facts {
			if fc.Box < 0 || fc.Box >= len(c.Inv) {
				t.Fatalf("fact on box %d of %d", fc.Box, len(c.Inv))
			}
		}
	})
}
