package explicit_test

import (
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// FewStarts lists up to max start states, and none (nil) beyond.
func TestFewStarts(t *testing.T) {
	m := wideModel(1, symbolic.Compare(symbolic.V(0), symbolic.Ge, symbolic.Lit(990)))
	g := testutil.Generator(t, m, m.Properties[0])
	if ss, err := g.FewStarts(10, time.Second); err != nil || len(ss) != 10 || ss[0][0] != 990 || ss[9][0] != 999 {
		t.Errorf("FewStarts(10) = %v, %v; want 990..999", ss, err)
	}
	if ss, err := g.FewStarts(9, time.Second); err != nil || ss != nil {
		t.Errorf("FewStarts(9) = %v, %v; want nil (too many)", ss, err)
	}
}
