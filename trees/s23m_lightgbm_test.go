package trees

import (
	"os"
	"strings"
	"testing"
)

// A number LightGBM would read otherwise is refused: Go's ParseFloat
// reads 2_5 as 25, LightGBM's std::stod stops at the underscore (2).
// LightGBM writes neither, so neither reading is chosen.
func TestS23mLightGBMNumbersAsLightGBMReadsThem(t *testing.T) {
	base, err := os.ReadFile("testdata/lgb_multi.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new, msg string }{
		{"threshold=2.5\ndecision_type=6", "threshold=2_5\ndecision_type=6", `threshold: bad number "2_5"`},
		{"leaf_value=0.75 -0.5", "leaf_value=0.75 -0_5", `leaf_value: bad number "-0_5"`},
	} {
		src := string(base)
		if !strings.Contains(src, c.old) {
			t.Fatalf("fixture lacks %q", c.old)
		}
		_, err := Parse([]byte(strings.Replace(src, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q -> %q: err %v, want one mentioning %q", c.old, c.new, err, c.msg)
		}
	}
	// Inputs at LightGBM's zero boundary, -1e-35f and 1e-35f, which
	// LightGBM 3 and later count as zero (missing) on both sides: tree 3
	// of the fixture (missing type Zero, default left, x0 <= 2.5) sends
	// them left, as its threshold does.
	e, err := Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, x0 := range []float64{-lgbZero, lgbZero, 0} {
		got := make([]float64, 2)
		if err := e.Scores([]float64{x0, 3}, got); err != nil {
			t.Fatal(err)
		}
		if got[0] != 0.625 || got[1] != -0.25 {
			t.Errorf("x0 = %v: scores %v, want [0.625 -0.25]", x0, got)
		}
	}
}
