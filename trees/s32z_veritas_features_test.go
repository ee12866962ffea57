package trees

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS32zVeritasFeatureBound: a 178-byte Veritas file splitting on feature
// 2^24 loaded as 16,777,217 features (3.3 s, 414 MB); the bound is
// MaxFeatures, as for XGBoost and LightGBM.
func TestS32zVeritasFeatureBound(t *testing.T) {
	for _, tc := range []struct {
		feat string
		ok   bool
	}{{"16777216", false}, {"1048576", false}, {"1048575", true}, {"3", true}} {
		p := filepath.Join(t.TempDir(), "v.json")
		src := `{"base_scores":[0],"trees":[{"num_leaf_values":1,"split_type":"LtSplit","structure":{"feat_id":` + tc.feat + `,"split_value":0.5,"left":{"leaf_value":[1]},"right":{"leaf_value":[2]}}}]}`
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p)
		if tc.ok && err != nil {
			t.Errorf("feat_id %s: %v", tc.feat, err)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "beyond the 1048576 features")) {
			t.Errorf("feat_id %s: got %v, want the MaxFeatures error", tc.feat, err)
		}
	}
}
