#!/usr/bin/python3
"""Train the small XGBoost models of trees/review20r_xgboost_test.go with the
real XGBoost (Debian's python3-xgboost 1.7) and write, for each, XGBoost's own
margins (predict(output_margin=True)) and labels (predict()) on every input
of the grid 0..5 x 0..5 into expected.json.

    /usr/bin/python3 trees/testdata/review20r/make.py [OUTDIR]

OUTDIR defaults to this directory (the committed fixtures); the Go test also
runs it into a temporary directory and compares vigil with that fresh output.
"""
import copy, json, os, sys, warnings
import numpy as np, xgboost as xgb

warnings.filterwarnings("ignore")
out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(3)
X = rng.integers(0, 6, size=(400, 2)).astype(np.float32)
y3 = ((X[:, 0] * 2 + X[:, 1]) % 3).astype(int)
yb = (X[:, 0] > X[:, 1]).astype(int)
grid = np.array([[a, b] for a in range(6) for b in range(6)], dtype=np.float32)
cases = {}

def save(name, model, margins, labels, loads=True):
    model.save_model(os.path.join(out, name + ".json"))
    cases[name] = {"loads": loads, "margins": np.asarray(margins, dtype=np.float32).astype(float).tolist(),
                   "labels": np.asarray(labels).astype(int).tolist()}

def booster_case(name, b, loads=True):
    d = xgb.DMatrix(grid)
    lab = b.predict(d)
    if lab.ndim == 1 and b.attr("scikit_learn") is None and "softmax" not in json.loads(b.save_config())["learner"]["objective"]["name"]:
        lab = (lab > 0.5)
    save(name, b, b.predict(d, output_margin=True), lab.argmax(1) if lab.ndim == 2 else lab, loads)

# Pruning (gamma) leaves deleted nodes in the arrays; some trees are one leaf.
for name, gamma in (("pruned", 4.0), ("oneleaf", 1e9)):
    b = xgb.train({"objective": "multi:softmax", "num_class": 3, "max_depth": 3, "gamma": gamma, "eta": 0.7, "seed": 1},
                  xgb.DMatrix(X, label=y3), 2)
    booster_case(name, b)
# XGBoost random forests: num_parallel_tree trees per class and round.
rf = xgb.XGBRFClassifier(n_estimators=3, max_depth=2, random_state=1)
rf.fit(X, y3)
save("rf_multi", rf, rf.predict(grid, output_margin=True), rf.predict(grid))
b = xgb.train({"objective": "multi:softmax", "num_class": 3, "num_parallel_tree": 2, "subsample": 0.7, "colsample_bynode": 0.8,
               "max_depth": 2, "seed": 2}, xgb.DMatrix(X, label=y3), 2)
booster_case("parallel_boosted", b)
# Ties: every class has the same trees, then classes 1 and 2 only; XGBoost's
# multi:softmax predict takes the first largest margin.
b = xgb.train({"objective": "multi:softmax", "num_class": 3, "max_depth": 1, "eta": 1}, xgb.DMatrix(X, label=(X[:, 0] > 2) * 2), 1)
m = json.loads(b.save_raw("json"))
ts = m["learner"]["gradient_booster"]["model"]["trees"]
for i in (1, 2):
    t = copy.deepcopy(ts[0]); t["id"] = i; ts[i] = t
for name in ("tie_all", "tie_12"):
    if name == "tie_12":
        ts[0]["split_conditions"] = [v - 1 if i > 0 else v for i, v in enumerate(ts[0]["split_conditions"])]
    b = xgb.Booster(); b.load_model(bytearray(json.dumps(m), "utf-8"))
    booster_case(name, b)
# A near-tie: class 1's leaves one float32 ulp above class 0's. XGBoost's
# multi:softmax predict takes the arg-max of the margins, so class 1 wins
# (XGBClassifier.predict of multi:softprob takes it of float32
# probabilities, where such margins may tie; vigil reads margins).
ts[0]["split_conditions"] = [v + 1 if i > 0 else v for i, v in enumerate(ts[0]["split_conditions"])]
ts[1] = copy.deepcopy(ts[0]); ts[1]["id"] = 1
ts[1]["split_conditions"] = [v if i == 0 else float(np.nextafter(np.float32(v), np.float32(np.inf))) for i, v in enumerate(ts[0]["split_conditions"])]
b = xgb.Booster(); b.load_model(bytearray(json.dumps(m), "utf-8"))
booster_case("near_tie", b)
# Early stopping: the scikit-learn predict uses rounds 0..best_iteration only.
Xv = rng.integers(0, 6, size=(100, 2)).astype(np.float32)
es = xgb.XGBClassifier(n_estimators=30, max_depth=2, learning_rate=0.5, early_stopping_rounds=2, eval_metric="mlogloss")
es.fit(X, y3, eval_set=[(Xv, rng.integers(0, 3, size=100))], verbose=False)
assert es.best_iteration + 1 < es.get_booster().num_boosted_rounds()
save("early_stopped", es, es.predict(grid, output_margin=True), es.predict(grid), loads=False)
sliced = es.get_booster()[: es.best_iteration + 1]
save("early_stopped_sliced", sliced, es.predict(grid, output_margin=True), es.predict(grid))
# missing=0 in the scikit-learn interface: 0 takes each split's default branch.
y0 = ((X[:, 0] == 0) | (X[:, 0] >= 4)).astype(int)
m0 = xgb.XGBClassifier(n_estimators=2, max_depth=1, missing=0.0)
m0.fit(X, y0)
save("missing0", m0, m0.predict(grid, output_margin=True), m0.predict(grid), loads=False)
# A categorical split: XGBoost writes its condition as a bare NaN.
dc = xgb.DMatrix(X, label=y3 % 2, feature_types=["c", "q"], enable_categorical=True)
b = xgb.train({"tree_method": "hist", "max_cat_to_onehot": 1, "max_depth": 2}, dc, 1)
d = xgb.DMatrix(grid, feature_types=["c", "q"], enable_categorical=True)
save("categorical", b, b.predict(d, output_margin=True), b.predict(d) > 0.5, loads=False)
json.dump({"grid": grid.astype(float).tolist(), "cases": cases}, open(os.path.join(out, "expected.json"), "w"), separators=(",", ":"), sort_keys=True)
