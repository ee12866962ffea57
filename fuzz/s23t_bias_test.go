package fuzz

import (
	"strings"
	"testing"
)

// TestS23tBiasesRefuseNoneMixed: "none,loop" ran the loop bias alone
// while the report said "biases: none, loop", and "loop,loop" listed a
// bias twice. Both are refused; none alone, the default pair and a list
// with an empty item still read.
func TestS23tBiasesRefuseNoneMixed(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string // "" for no error
	}{
		{[]string{"none", "loop"}, "cannot be combined"},
		{[]string{"surface", " none"}, "cannot be combined"},
		{[]string{"loop", "loop"}, `"loop" given twice`},
		{[]string{"polqual", " polqual "}, `"polqual" given twice`},
		{[]string{"none"}, ""},
		{[]string{"none", ""}, ""},
		{[]string{"polqual", "novelty"}, ""},
		{[]string{"loop", "detour", "surface", "polqual", "novelty"}, ""},
		{nil, ""},
	} {
		err := CheckBiases(c.names)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v; want %q", c.names, err, c.want)
		}
	}
}
