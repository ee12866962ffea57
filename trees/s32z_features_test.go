package trees

import (
	"fmt"
	"strings"
	"testing"
)

// TestS32zFeatureBound: a model may declare or split on at most
// MaxFeatures features. The bound was 2^24, and the ensemble keeps a slice
// entry per feature: a 76-byte LightGBM file declaring
// max_feature_idx=16777216 loaded as a model of 16777217 features, at a
// cost of 384 MB and a second, as did a 191-byte XGBoost file declaring
// num_feature 16777216 and a 167-byte one splitting on feature 16777216.
// Each is now refused at once, naming the field; the bound itself loads.
func TestS32zFeatureBound(t *testing.T) {
	xgb := func(nf string, split int) string {
		param := ""
		if nf != "" {
			param = fmt.Sprintf(`"learner_model_param":{"num_feature":%q},`, nf)
		}
		return fmt.Sprintf(`{"learner":{%s"gradient_booster":{"model":{"trees":[{"left_children":[1,-1,-1],"right_children":[2,-1,-1],"split_indices":[%d,0,0],"split_conditions":[1,1,2]}]}}}}`, param, split)
	}
	lgb := func(maxIdx string, split int) string {
		head := ""
		if maxIdx != "" {
			head = "max_feature_idx=" + maxIdx + "\n"
		}
		return fmt.Sprintf("tree\n%sTree=0\nnum_leaves=2\nsplit_feature=%d\nthreshold=0.5\nleft_child=-1\nright_child=-2\nleaf_value=1 2\nend of trees\n", head, split)
	}
	big := fmt.Sprint(1 << 24)
	for _, c := range []struct{ name, data, want string }{
		{"xgb num_feature", xgb(big, 0), "learner_model_param.num_feature 16777216 is more than the 1048576 features vigil reads"},
		{"xgb num_feature just over", xgb(fmt.Sprint(MaxFeatures+1), 0), "num_feature 1048577 is more than"},
		{"xgb split index", xgb("", 1<<24), "tree 0: node 0: split index 16777216 is beyond the 1048576 features"},
		{"xgb split index at the bound", xgb("", MaxFeatures), "split index 1048576 is beyond"},
		{"lgb max_feature_idx", lgb(big, 0), "max_feature_idx 16777216 is too large: vigil reads at most 1048576 features (max_feature_idx 1048575)"},
		{"lgb split_feature", lgb("", 1<<24), "Tree=0: node 0: split_feature 16777216 is beyond the 1048576 features"},
	} {
		e, err := Parse([]byte(c.data))
		if err == nil {
			t.Errorf("%s: loaded a model of %d features; want an error", c.name, e.NumFeatures)
			continue
		}
		if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "trees: ") {
			t.Errorf("%s: error %q; want it to contain %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		name, data string
		nf         int
	}{
		{"xgb num_feature at the bound", xgb(fmt.Sprint(MaxFeatures), 0), MaxFeatures},
		{"xgb last split index", xgb("", MaxFeatures-1), MaxFeatures},
		{"lgb max_feature_idx at the bound", lgb(fmt.Sprint(MaxFeatures-1), 0), MaxFeatures},
		{"lgb last split_feature", lgb("", MaxFeatures-1), MaxFeatures},
	} {
		e, err := Parse([]byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if e.NumFeatures != c.nf {
			t.Errorf("%s: %d features, want %d", c.name, e.NumFeatures, c.nf)
		}
	}
}
