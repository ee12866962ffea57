package trees

import (
	"fmt"
	"strings"
	"testing"
	"vigil/internal/testutil"
	"vigil/symbolic"
)

// s29tXGB is a one-feature, two-class XGBoost JSON model: per tree, a
// stump on feature 0 at 2.5 with the given leaf texts (or one leaf).
func s29tXGB(leaves ...[]string) []byte {
	var trees, info []string
	for i, l := range leaves {
		if len(l) == 1 {
			trees = append(trees, fmt.Sprintf(`{"tree_param":{"num_nodes":"1"},"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[%s],"default_left":[0]}`, l[0]))
		} else {
			trees = append(trees, fmt.Sprintf(`{"tree_param":{"num_nodes":"3"},"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[0,0,0],"split_conditions":[2.5,%s,%s],"default_left":[1,0,0]}`, l[0], l[1]))
		}
		info = append(info, fmt.Sprint(i%2))
	}
	return []byte(`{"learner":{"learner_model_param":{"base_score":"0","num_class":"2","num_feature":"1"},"objective":{"name":"multi:softprob"},` +
		`"gradient_booster":{"name":"gbtree","model":{"gbtree_model_param":{"num_trees":"` + fmt.Sprint(len(leaves)) + `"},"tree_info":[` + strings.Join(info, ",") + `],"trees":[` + strings.Join(trees, ",") + `]}}}}`)
}

// TestS29tXGBLeavesNonFinite: leaves that read as float32 infinities
// (1E39), bare NaN and Infinity, and leaves whose float32 sum could
// overflow are refused when loaded (lang/spec.md: "Ensembles whose
// scores could overflow are refused"), so that no search or evaluation
// meets an infinite or NaN score; large finite leaves that cannot
// overflow load.
func TestS29tXGBLeavesNonFinite(t *testing.T) {
	for _, bad := range [][][]string{
		{{"1E39", "0"}, {"0"}},
		{{"0", "-1E39"}, {"0"}},
		{{"NaN", "0"}, {"0"}},
		{{"0"}, {"Infinity"}},
		{{"3E38", "0"}, {"0"}, {"3E38", "0"}}, // class 0 sums to float32 +Inf at x < 2.5
		{{"1.7E38"}, {"0"}},                   // could overflow in a sum
	} {
		if _, err := Parse(s29tXGB(bad...)); err == nil {
			t.Errorf("%v: loaded", bad)
		} else {
			t.Logf("%v: %v", bad, err)
		}
	}
	// Infinity is no categorical split's NaN: the error says so.
	_, err := Parse(s29tXGB([]string{"0"}, []string{"-Infinity"}))
	if err == nil || strings.Contains(err.Error(), "categorical") || !strings.Contains(err.Error(), "-Infinity") {
		t.Errorf("-Infinity leaf: %v", err)
	}
	e, err := Parse(s29tXGB([]string{"1E30", "-1E30"}, []string{"0"}, []string{"-1E30", "1E30"}))
	if err != nil {
		t.Fatal(err)
	}
	d, err := e.Excludes(Box{{0, 5}}, 0, []int{1}, Options{})
	if err != nil || d.Verdict != Refuted {
		t.Fatalf("class 0 wins nowhere? %+v %v", d, err)
	}
}

// TestS29tDecideUpperAfterPruning: a decision proved by pruning every
// state against the floor reported as its bound on the margin the value
// of the one point it evaluated (-16777218.4), below the margin of other
// points of the box (-16777217.4). Decision.Upper must bound the margin
// of every point.
func TestS29tDecideUpperAfterPruning(t *testing.T) {
	dir := t.TempDir()
	lo, hi := []int{16777214, 16777214}, []int{16777216, 16777218}
	file, xe, err := xcModel(dir, 3, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	sure := []int{0, 2, 3}
	d, err := e.Excludes(Box{{16777214, 16777216}, {16777214, 16777218}}, 1, sure, Options{})
	if err != nil {
		t.Fatal(err)
	}
	testutil.BoxStates(lo, hi, func(s symbolic.State) {
		sc := xe.scores([]float64{float64(s[0]), float64(s[1])})
		if xcWins(sc, 1, sure) && d.Verdict == Proved {
			t.Fatalf("proved, but class 1 wins at %v", s)
		}
		if m := xcMargin(sc, 1, sure); m > d.Upper {
			t.Fatalf("margin %v at %v above the reported bound %v (%v)", m, s, d.Upper, d.Verdict)
		}
	})
}
