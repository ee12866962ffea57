package trees

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReview16LightGBMZeroEdge: LightGBM sends a zero-ish input (IsZero:
// -kZeroThreshold <= x <= kZeroThreshold, kZeroThreshold = 1e-35f) of a
// missing_type=Zero split to the default side. A split with default
// right agrees with its threshold test only when no zero-ish x has x <=
// threshold, that is threshold < -kZeroThreshold. vigil accepted
// threshold == -kZeroThreshold, where x = -kZeroThreshold goes left by the
// test but right in LightGBM; it is refused now, and one below is still
// read.
func TestReview16LightGBMZeroEdge(t *testing.T) {
	base, err := os.ReadFile("testdata/lgb_multi.txt")
	if err != nil {
		t.Fatal(err)
	}
	const old = "threshold=2.5\ndecision_type=6"
	if !strings.Contains(string(base), old) {
		t.Fatalf("fixture lacks %q", old)
	}
	for _, c := range []struct {
		thr float64
		ok  bool
	}{{-lgbZero, false}, {-2 * lgbZero, true}, {lgbZero, false}} {
		src := strings.Replace(string(base), old, "threshold="+strconv.FormatFloat(c.thr, 'g', -1, 64)+"\ndecision_type=4", 1)
		_, err := Parse([]byte(src))
		if c.ok && err != nil {
			t.Errorf("threshold %v, default right: %v", c.thr, err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "missing_type=Zero")) {
			t.Errorf("threshold %v, default right: got %v, want a refusal naming missing_type=Zero", c.thr, err)
		}
	}
}
