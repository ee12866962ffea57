package trees

import (
	"fmt"
	"strings"
	"testing"
)

// TestReview17LightGBMRandomForest: a random-forest model (average_output)
// scores as LightGBM's raw scores, the plain sums of its leaves in tree
// order (GBDT::PredictRaw; only the transformed prediction divides the
// sum by the iterations). vigil scaled each leaf by the 3 iterations
// (times fl(1/3)) before summing, roundings that neither LightGBM reading
// has: with class 0's leaves 0.14, 0.13, 0.03 and class 1's 0.13, 0.03,
// 0.14 LightGBM's scores tie (0.30000000000000004 raw,
// 0.10000000000000002 averaged: class 0 wins the arg-max), vigil's were
// 0.09999999999999999 and 0.1, choosing class 1.
func TestReview17LightGBMRandomForest(t *testing.T) {
	leaves := []string{"0.14", "0.13", "0.13", "0.03", "0.03", "0.14"} // tree k: class k mod 2
	var b strings.Builder
	b.WriteString("tree\nversion=v4\nnum_class=2\nnum_tree_per_iteration=2\nlabel_index=0\nmax_feature_idx=0\nobjective=multiclassova num_class:2 sigmoid:1\naverage_output\nfeature_names=x\n")
	b.WriteString("tree_sizes=" + strings.TrimSpace(strings.Repeat("1 ", len(leaves))) + "\n\n")
	for k, v := range leaves {
		fmt.Fprintf(&b, "Tree=%d\nnum_leaves=1\nnum_cat=0\nsplit_feature=\nsplit_gain=\nthreshold=\ndecision_type=\nleft_child=\nright_child=\nleaf_value=%s\nleaf_weight=\nleaf_count=\ninternal_value=\ninternal_weight=\ninternal_count=\nis_linear=0\nshrinkage=1\n\n\n", k, v)
	}
	b.WriteString("end of trees\n")
	e, err := Parse([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float64, 2)
	if err := e.Scores([]float64{0}, got); err != nil {
		t.Fatal(err)
	}
	a, b2, c := 0.14, 0.13, 0.03
	want := (a + b2) + c // as LightGBM sums, in float64 (0.30000000000000004)
	if d, e, f := 0.13, 0.03, 0.14; (d+e)+f != want {
		t.Fatalf("the classes' raw sums differ: %v, %v", want, (d+e)+f)
	}
	if got[0] != want || got[1] != want {
		t.Errorf("scores %v, want LightGBM's raw scores [%v %v] (a tie: class 0 wins)", got, want, want)
	}
}

// TestReview17XGBoostBinaryFormats: an XGBoost model in the old binary
// format was refused as "not a LightGBM text model"; the message now names
// the format and says how to save JSON. (UBJSON, refused the same way
// then, is read since session 20: ubjson_test.go.)
func TestReview17XGBoostBinaryFormats(t *testing.T) {
	for name, data := range map[string]string{
		"binary": "binf\x00\x00\x00?\x02\x00\x00\x00",
	} {
		_, err := Parse([]byte(data))
		if err == nil || !strings.Contains(err.Error(), "XGBoost") || !strings.Contains(err.Error(), `save_model("model.json")`) {
			t.Errorf("%s: got %v, want an error naming XGBoost's format and save_model(\"model.json\")", name, err)
		}
	}
}
