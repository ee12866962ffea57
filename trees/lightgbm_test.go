package trees

import (
	"math"
	"os"
	"strings"
	"testing"
)

// TestLightGBMByHand checks testdata/lgb_multi.txt against values computed
// by hand from LightGBM's rules (x <= threshold goes left; tree k belongs to
// class k mod 2):
//
//	tree 0 (class 0): x0 <= 2.5 ? 0.5 : (x1 <= 4 ? -0.25 : 1)
//	tree 1 (class 1): x1 <= 3 ? -1 : 2
//	tree 2 (class 0): 0.125
//	tree 3 (class 1): x0 <= 2.5 ? 0.75 : -0.5   (missing type Zero, default left)
func TestLightGBMByHand(t *testing.T) {
	e, err := Load("testdata/lgb_multi.txt")
	if err != nil {
		t.Fatal(err)
	}
	if e.Format != "lightgbm" || e.NumClasses != 2 || e.NumFeatures != 2 || len(e.Trees) != 4 {
		t.Fatalf("got %s, %d classes, %d features, %d trees", e.Format, e.NumClasses, e.NumFeatures, len(e.Trees))
	}
	for _, c := range []struct {
		x    []float64
		want []float64
	}{
		{[]float64{2.5, 3}, []float64{0.625, -0.25}},
		{[]float64{2.6, 4}, []float64{-0.125, 1.5}},
		{[]float64{3, 4.5}, []float64{1.125, 1.5}},
		{[]float64{math.Nextafter(2.5, 3), 0}, []float64{-0.125, -1.5}},
		{[]float64{0, 0}, []float64{0.625, -0.25}},
		{[]float64{-7, 3.0000001}, []float64{0.625, 2.75}},
	} {
		got := make([]float64, 2)
		if err := e.Scores(c.x, got); err != nil {
			t.Fatal(err)
		}
		if got[0] != c.want[0] || got[1] != c.want[1] {
			t.Errorf("x=%v: scores %v, want %v", c.x, got, c.want)
		}
	}
	// The search sees x0 = 2.5 on the left: max of class 0 over x0 in
	// [2.5, 2.5] is 0.625, over [2.6, 10] it is 1.125.
	r, err := e.Max(Box{{2.5, 2.5}, {0, 10}}, 0, Options{})
	if err != nil || !r.Exact || r.Lower != 0.625 {
		t.Errorf("max class 0 at x0=2.5: %+v %v", r, err)
	}
	r, _ = e.Max(Box{{2.6, 10}, {0, 10}}, 0, Options{})
	if r.Lower != 1.125 {
		t.Errorf("max class 0 at x0 in [2.6,10]: %+v", r)
	}
}

func TestLightGBMRejects(t *testing.T) {
	base, err := os.ReadFile("testdata/lgb_multi.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ old, new, msg string }{
		{"decision_type=6", "decision_type=1", "categorical"},
		{"threshold=2.5\ndecision_type=6", "threshold=-1\ndecision_type=6", "missing_type=Zero"},
		{"Tree=3\nnum_leaves=2\nnum_cat=0", "Tree=3\nnum_leaves=2\nnum_cat=1", "categorical"},
		{"leaf_value=0.75 -0.5", "leaf_value=0.75", "leaf_value has 1 values"},
		{"right_child=-2\nleaf_value=0.75", "right_child=-9\nleaf_value=0.75", "out of range"},
		{"is_linear=0\nshrinkage=1\n\n\nend of trees", "is_linear=1\nshrinkage=1\n\n\nend of trees", "linear trees"},
		{"max_feature_idx=1", "max_feature_idx=0", "declares 1 features"},
		{"num_tree_per_iteration=2", "num_tree_per_iteration=3", "num_tree_per_iteration"},
	} {
		src := string(base)
		if !strings.Contains(src, c.old) {
			t.Fatalf("fixture lacks %q", c.old)
		}
		_, err := Parse([]byte(strings.Replace(src, c.old, c.new, 1)))
		if err == nil || !strings.Contains(err.Error(), c.msg) || !strings.HasPrefix(err.Error(), "trees: ") {
			t.Errorf("%q -> %q: err %v, want one mentioning %q", c.old, c.new, err, c.msg)
		}
	}
}

// TestLightGBMTruncated: a model cut short anywhere is an error, never a
// smaller model that loads.
func TestLightGBMTruncated(t *testing.T) {
	data, err := os.ReadFile("testdata/lgb_multi.txt")
	if err != nil {
		t.Fatal(err)
	}
	// What follows the trees (feature importances, parameters) is not part
	// of the model.
	full := string(data)
	full = full[:strings.Index(full, "end of trees")+len("end of trees")]
	for i := 1; i < len(full); i++ {
		if full[i] != '\n' {
			continue
		}
		if _, err := ParseLightGBM([]byte(full[:i])); err == nil {
			t.Errorf("the model cut after byte %d (line %d) loads", i, strings.Count(full[:i], "\n")+1)
		}
	}
}
