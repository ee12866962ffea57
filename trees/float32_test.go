package trees

import "testing"

// TestXGBoostFloat32Sums: XGBoost sums leaf values in float32, so class 1's
// 1 + 2^-24 is 1 (ties to even) and ties with class 0; the search sees the
// same sums as evaluation and does not exclude class 0, which wins ties.
func TestXGBoostFloat32Sums(t *testing.T) {
	leaf := func(v string) string {
		return `{"tree_param":{"num_nodes":"1"},"left_children":[-1],"right_children":[-1],"split_indices":[0],"split_conditions":[` + v + `]}`
	}
	src := `{"learner":{"learner_model_param":{"base_score":"0","num_class":"2","num_feature":"1"},"objective":{"name":"multi:softprob"},
	"gradient_booster":{"name":"gbtree","model":{"gbtree_model_param":{"num_trees":"3"},"tree_info":[0,1,1],"trees":[` +
		leaf("1") + "," + leaf("1") + "," + leaf("5.9604644775390625e-08") + `]}}}}`
	e, err := ParseXGBoost([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sc := make([]float64, 2)
	if err := e.Scores([]float64{0}, sc); err != nil {
		t.Fatal(err)
	}
	if sc[0] != 1 || sc[1] != 1 {
		t.Errorf("scores %v, want [1 1] (float32 sums)", sc)
	}
	d, err := e.Excludes(Box{{-10, 10}}, 0, []int{1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != Refuted {
		t.Errorf("excluding class 0: %v, want refuted (it wins the tie)", d.Verdict)
	}
	if d, _ := e.Excludes(Box{{-10, 10}}, 1, []int{0}, Options{}); d.Verdict != Proved {
		t.Errorf("excluding class 1: %v, want proved", d.Verdict)
	}
}
