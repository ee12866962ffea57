package trees_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vigil/trees"
)

// compareReview20r checks vigil against XGBoost's own predictions on the
// models trees/testdata/review20r/make.py wrote into dir: the margins bit
// for bit (float32) and predict()'s label as the arg-max with ties to the
// lowest class (lang/spec.md) on every input of the grid, and the models
// XGBoost's predict runs differently from the sum of all their trees
// refused with a message naming the cause.
func compareReview20r(t *testing.T, dir string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		Grid  [][]float64
		Cases map[string]struct {
			Loads   bool
			Margins []any
			Labels  []int
		}
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	refusal := map[string]string{"early_stopped": "best_iteration", "missing0": "missing=0.0", "categorical": "categorical split"}
	if len(exp.Cases) < 11 {
		t.Fatalf("only %d models in expected.json", len(exp.Cases))
	}
	for name, c := range exp.Cases {
		e, err := trees.Load(filepath.Join(dir, name+".json"))
		if !c.Loads {
			if err == nil || !strings.Contains(err.Error(), refusal[name]) {
				t.Errorf("%s: XGBoost's predict does not sum all trees, but vigil loads it (err %v)", name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		sc := make([]float64, e.NumClasses)
		for i, x := range exp.Grid {
			if err := e.Scores(x, sc); err != nil {
				t.Fatal(err)
			}
			want := margins(c.Margins[i])
			for k := range want {
				if float32(sc[k]) != float32(want[k]) {
					t.Errorf("%s: input %v class %d: vigil %v, XGBoost %v", name, x, k, float32(sc[k]), float32(want[k]))
				}
			}
			best := 0
			for k := range sc {
				if sc[k] > sc[best] {
					best = k
				}
			}
			if best != c.Labels[i] {
				t.Errorf("%s: input %v: vigil's arg-max is class %d, XGBoost's predict %d (scores %v)", name, x, best, c.Labels[i], sc)
			}
		}
	}
}

// TestReview20rXGBoostFixtures compares the committed models.
func TestReview20rXGBoostFixtures(t *testing.T) {
	compareReview20r(t, filepath.Join("testdata", "review20r"))
}

// TestReview20rXGBoostFresh trains the same models again with the installed
// XGBoost and compares them.
func TestReview20rXGBoostFresh(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import xgboost, numpy, sklearn").Run(); err != nil {
		t.Skip("python3-xgboost/python3-sklearn not installed: only the committed models of testdata/review20r are compared")
	}
	dir := t.TempDir()
	if out, err := exec.Command("/usr/bin/python3", filepath.Join("testdata", "review20r", "make.py"), dir).CombinedOutput(); err != nil {
		t.Fatalf("make.py: %v\n%s", err, out)
	}
	compareReview20r(t, dir)
}

// TestReview20rXGBoostDeletedNodes: XGBoost's pruning keeps deleted nodes
// in the arrays; they are dropped only when exactly num_deleted nodes are
// unreachable, else the file is refused naming an unreachable node.
func TestReview20rXGBoostDeletedNodes(t *testing.T) {
	model := func(deleted string) []byte {
		return []byte(`{"learner":{"learner_model_param":{"base_score":"0","num_class":"0","num_feature":"1"},
"objective":{"name":"reg:squarederror"},"gradient_booster":{"name":"gbtree","model":{"gbtree_model_param":{"num_trees":"1"},"tree_info":[0],
"trees":[{"tree_param":{"num_nodes":"5","num_deleted":"` + deleted + `"},
"left_children":[1,-1,-1,-1,-1],"right_children":[2,-1,-1,-1,-1],"split_indices":[0,0,0,2147483647,2147483647],
"split_conditions":[2.5,-1,1,7,7],"split_type":[0,0,0,0,0]}]}}}}`)
	}
	e, err := trees.ParseXGBoost(model("2"))
	if err != nil {
		t.Fatal(err)
	}
	sc := []float64{0}
	for x, want := range map[float64]float64{2: -1, 3: 1} {
		if e.Scores([]float64{x}, sc); sc[0] != want {
			t.Errorf("x=%v: score %v, want %v", x, sc[0], want)
		}
	}
	if e.NumLeaves() != 2 {
		t.Errorf("%d leaves, want 2", e.NumLeaves())
	}
	for _, d := range []string{"0", "1", "3"} {
		if _, err := trees.ParseXGBoost(model(d)); err == nil || !strings.Contains(err.Error(), "node 3 is unreachable") {
			t.Errorf("num_deleted %s: err %v, want node 3 unreachable", d, err)
		}
	}
	if _, err := trees.ParseXGBoost(model("x")); err == nil || !strings.Contains(err.Error(), "num_deleted") {
		t.Errorf("num_deleted x: err %v", err)
	}
}
