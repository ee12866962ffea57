package lang_test

import (
	"testing"

	"vigil/lang"
)

// LoadFile reads .spec and JANI alike; Summarize says what vigil check
// prints of them.
func TestLoadFileSummary(t *testing.T) {
	m, diags := lang.LoadFile("../specs/oneway.spec", lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	s := lang.Summarize(m)
	if s.Model != "oneway" || len(s.Policies) == 0 {
		t.Errorf("summary %+v", s)
	}
	j, diags := lang.LoadFile("../specs/plaja/counter.jani", lang.Options{Defines: map[string]string{"N": "3"}, OverflowWarnings: true})
	if diags.HasErrors() || j == nil {
		t.Fatalf("counter.jani: %s", diags.Render())
	}
	if got := lang.Summarize(j).String(); got == "" || got[:len("model ")] != "model " {
		t.Errorf("summary text %q", got)
	}
}
