package trees

import (
	"fmt"
	"math"
	"testing"
)

// TestReview16XGBoostBaseScore: the margin XGBoost starts from is
// ProbToMargin(base_score) of the objective. binary:logitraw's is the
// identity (since XGBoost 1.3.1, dmlc/xgboost#6517; the loader reads 1.7
// and later), but vigil took logit(base_score), shifting every score of a
// logitraw model (by logit(0.75) - 0.75 = 0.349 here); survival:aft's is
// log, which vigil took as the identity.
func TestReview16XGBoostBaseScore(t *testing.T) {
	for _, tc := range []struct {
		objective string
		base      string
		want      float64
	}{
		{"binary:logitraw", "7.5E-1", 0.75},
		// -logf(1/0.75f - 1) in float32, one ulp below float32(log 3),
		// as real XGBoost computes it (TestXGBoostMarginsAgainstXGBoost).
		{"binary:logistic", "7.5E-1", float64(-float32(math.Log(float64(float32(1)/float32(0.75) - 1))))},
		{"survival:aft", "2E0", math.Log(2)},
		{"reg:squarederror", "2E0", 2},
	} {
		src := fmt.Sprintf(`{"learner": {"learner_model_param": {"base_score": %q, "num_class": "0", "num_feature": "1"},
 "objective": {"name": %q},
 "gradient_booster": {"name": "gbtree", "model": {"gbtree_model_param": {"num_trees": "1"}, "tree_info": [0],
  "trees": [{"tree_param": {"num_nodes": "3"}, "left_children": [1, -1, -1], "right_children": [2, -1, -1],
   "split_indices": [0, 0, 0], "split_conditions": [0.5, -1, 1]}]}}}}`, tc.base, tc.objective)
		e, err := ParseXGBoost([]byte(src))
		if err != nil {
			t.Errorf("%s: %v", tc.objective, err)
			continue
		}
		want := float64(float32(tc.want))
		if len(e.Base) != 1 || e.Base[0] != want {
			t.Errorf("%s with base_score %s: margin offset %v, want %v", tc.objective, tc.base, e.Base, want)
		}
	}
}
