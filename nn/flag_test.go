package nn

import (
	"flag"
	"io"
	"strings"
	"testing"
)

// Method and Branch are flag values: their names round-trip, and a bad
// name is refused with the list of good ones, leaving the value alone.
func TestMethodAndBranchAsFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	m, b := Alpha, BranchReLU
	fs.TextVar(&m, "method", Both, "")
	fs.TextVar(&b, "branch", BranchAuto, "")
	if m != Both || b != BranchAuto {
		t.Fatalf("defaults: %v %v", m, b)
	}
	if err := fs.Parse([]string{"--method", "crown", "--branch", "input"}); err != nil || m != CROWN || b != BranchInput {
		t.Fatalf("parse: %v, %v %v", err, m, b)
	}
	for _, name := range []string{"ibp", "crown", "both", "alpha"} {
		var x Method
		if err := x.UnmarshalText([]byte(name)); err != nil || x.String() != name {
			t.Errorf("method %s: %v %v", name, x, err)
		}
	}
	err := fs.Parse([]string{"--method", "crwn"})
	if err == nil || !strings.Contains(err.Error(), "want ibp, crown, both or alpha") || m != CROWN {
		t.Errorf("bad method: %v, %v", err, m)
	}
	if err := fs.Parse([]string{"--branch", "neurons"}); err == nil || b != BranchInput {
		t.Errorf("bad branch: %v, %v", err, b)
	}
	if f := fs.Lookup("method"); f.DefValue != "both" {
		t.Errorf("default shown as %q", f.DefValue)
	}
}
