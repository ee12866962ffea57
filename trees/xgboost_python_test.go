package trees_test

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"vigil/trees"
)

// trainScript trains one small XGBoost model per objective (and base_score)
// with Debian's python3-xgboost, saves each with save_model as JSON and
// prints, for each, the inputs and XGBoost's own margins
// (predict(output_margin=True)): the scores vigil's policies compare.
const trainScript = `
import json, sys, numpy as np, xgboost as xgb
out = sys.argv[1]
rng = np.random.default_rng(7)
X = rng.integers(-4, 12, size=(300, 3)).astype(np.float32)
X[::7, 1] = 0.1 * X[::7, 1]          # some non-integer inputs
y = (X[:, 0] > X[:, 1]).astype(np.float32)
yc = (X[:, 0] + X[:, 2]) % 3         # three classes
yr = np.abs(X[:, 0] - 0.5 * X[:, 2]) + 1
grid = np.array([[a, b, c] for a in (-4, 0, 0.1, 3, 5.5, 11) for b in (-1, 0, 0.3, 4) for c in (-4, 2, 9)], dtype=np.float32)
cases = []
def add(name, params, label, rounds=4, extra=None):
    d = xgb.DMatrix(X, label=label)
    if extra: extra(d)
    if params.get("objective", "").startswith("rank:"):
        d.set_group([100, 100, 100])
    p = {"max_depth": 3, "eta": 0.4, "seed": 1}
    p.update(params)
    b = xgb.train(p, d, num_boost_round=rounds)
    f = name + ".json"
    b.save_model(out + "/" + f)
    m = b.predict(xgb.DMatrix(grid), output_margin=True)
    cases.append({"name": name, "file": f, "inputs": grid.astype(float).tolist(), "margins": np.asarray(m, dtype=np.float32).astype(float).tolist()})
def aft(d):
    d.set_float_info("label_lower_bound", yr)
    d.set_float_info("label_upper_bound", yr)
for bs in (None, 0.3, 0.75, 0.8, 0.99):
    tag = "" if bs is None else "_bs%g" % bs
    extra = {} if bs is None else {"base_score": bs}
    add("logistic" + tag, dict(objective="binary:logistic", **extra), y)
    add("logitraw" + tag, dict(objective="binary:logitraw", **extra), y)
    add("hinge" + tag, dict(objective="binary:hinge", **extra), y)
    add("reglogistic" + tag, dict(objective="reg:logistic", **extra), y)
    add("squarederror" + tag, dict(objective="reg:squarederror", **extra), yr)
    add("poisson" + tag, dict(objective="count:poisson", **extra), yr)
    add("gamma" + tag, dict(objective="reg:gamma", **extra), yr)
    add("tweedie" + tag, dict(objective="reg:tweedie", **extra), yr)
    add("aft" + tag, dict(objective="survival:aft", **extra), None, extra=aft)
    add("softprob" + tag, dict(objective="multi:softprob", num_class=3, **extra), yc)
    add("softmax" + tag, dict(objective="multi:softmax", num_class=3, **extra), yc)
    add("pairwise" + tag, dict(objective="rank:pairwise", **extra), y)
add("absoluteerror", dict(objective="reg:absoluteerror"), yr)
add("pseudohuber", dict(objective="reg:pseudohubererror"), yr)
add("cox", dict(objective="survival:cox"), yr)
json.dump(cases, sys.stdout)
`

// TestXGBoostMarginsAgainstXGBoost trains models with the real XGBoost
// (Debian's python3-xgboost) under every objective vigil reads, with the
// default base_score and two others, and checks that vigil's scores are
// XGBoost's margins bit for bit (float32) at every input of a grid: a base
// score transformed the wrong way (logit where XGBoost keeps the margin,
// log where it takes none) shifts every score of a policy.
func TestXGBoostMarginsAgainstXGBoost(t *testing.T) {
	compareWithXGBoost(t, trainScript, 30, "vigil's XGBoost reading is not compared with XGBoost's own predictions")
}

// compareWithXGBoost runs script (which trains models with the real
// XGBoost into the directory it is given and prints each model's file,
// inputs and XGBoost's margins), checks that it trained at least
// minModels, and that vigil's scores are XGBoost's margins bit for bit
// (float32) at every input; it skips, saying what is not compared (skip),
// without python3-xgboost. It returns the number of inputs compared.
func compareWithXGBoost(t *testing.T, script string, minModels int, skip string) int {
	t.Helper()
	if err := exec.Command("/usr/bin/python3", "-c", "import xgboost, numpy").Run(); err != nil {
		t.Skip("python3-xgboost is not installed (apt-get install python3-xgboost): " + skip)
	}
	dir := t.TempDir()
	out, err := exec.Command("/usr/bin/python3", "-c", script, dir).Output()
	if err != nil {
		t.Fatalf("training with xgboost: %v", err)
	}
	var cases []struct {
		Name    string      `json:"name"`
		File    string      `json:"file"`
		Inputs  [][]float64 `json:"inputs"`
		Margins []any       `json:"margins"`
	}
	if err := json.Unmarshal(out, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < minModels {
		t.Fatalf("only %d models trained", len(cases))
	}
	inputs := 0
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			t.Fatal(err)
		}
		e, err := trees.ParseXGBoost(data)
		if err != nil {
			t.Errorf("%s: %v", c.Name, err)
			continue
		}
		dst := make([]float64, e.NumClasses)
		bad := 0
		for i, x := range c.Inputs {
			want := margins(c.Margins[i])
			if err := e.Scores(x, dst); err != nil {
				t.Fatalf("%s: %v", c.Name, err)
			}
			if len(want) != len(dst) {
				t.Fatalf("%s: %d scores, XGBoost gives %d", c.Name, len(dst), len(want))
			}
			for k := range want {
				if float32(dst[k]) != float32(want[k]) && bad < 3 {
					bad++
					t.Errorf("%s: input %v class %d: vigil %v, XGBoost %v (%d float32 ulps apart)", c.Name, x, k, float32(dst[k]), float32(want[k]),
						int64(math.Float32bits(float32(dst[k])))-int64(math.Float32bits(float32(want[k]))))
				}
			}
		}
		inputs += len(c.Inputs)
	}
	return inputs
}

// margins reads one prediction row: a number, or a list (one per class).
func margins(v any) []float64 {
	switch v := v.(type) {
	case float64:
		return []float64{v}
	case []any:
		r := make([]float64, len(v))
		for i, x := range v {
			r[i] = x.(float64)
		}
		return r
	}
	return nil
}
