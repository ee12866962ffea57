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

// TestS23tOraclesGivenTwice: --oracle tarjan,tarjan was reported as a
// cross-check of tarjan by itself, and goal mode's undo,undo ran undo
// again to find nothing new. A name given twice is refused.
func TestS23tOraclesGivenTwice(t *testing.T) {
	if err := CheckSafetyOracles([]string{"tarjan", "ipi", "tarjan"}); err == nil || !strings.Contains(err.Error(), `"tarjan" given twice`) {
		t.Errorf("safety oracles tarjan,ipi,tarjan: %v", err)
	}
	if err := CheckOracles([]string{"undo", "undo"}); err == nil || !strings.Contains(err.Error(), `"undo" given twice`) {
		t.Errorf("goal oracles undo,undo: %v", err)
	}
	if err := CheckSafetyOracles([]string{"tarjan", "ipi", "lrtdp"}); err != nil {
		t.Error(err)
	}
	if err := CheckOracles([]string{"relax", "lookahead"}); err != nil {
		t.Error(err)
	}
}
