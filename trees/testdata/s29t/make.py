"""s29t: XGBoost models over small integer grids, and XGBoost's own margins
(predict(output_margin=True)) at every grid point, for the search cross-check
(trees/s29t_real_test.go). Usage: make.py OUTDIR

Each model: 2 or 3 integer features, each over a range of 5..7 integers
(some around 2^24, where float32 rounds odd integers), labels from a random
rule, trained with XGBoost's scikit-learn interface and with xgb.train,
multi-class with num_parallel_tree > 1, a set base_score, max_depth up to 4;
a regression model too (one score). Writes NAME.json (save_model) and
NAME.grid.json: {"lo": [...], "hi": [...], "points": [[...]], "margins": [[...]]}.
"""
import itertools, json, os, sys
import numpy as np
import xgboost as xgb

out = sys.argv[1]
rng = np.random.default_rng(29)
lows = [0, -3, 16777213, -16777219, 7]


def grid(lo, hi):
    return np.array(list(itertools.product(*[range(l, h + 1) for l, h in zip(lo, hi)])), dtype=np.float64)


def dump(name, booster, lo, hi):
    booster.save_model(os.path.join(out, name + ".json"))
    pts = grid(lo, hi)
    m = booster.predict(xgb.DMatrix(pts), output_margin=True)
    m = np.asarray(m, dtype=np.float32).reshape(len(pts), -1)
    with open(os.path.join(out, name + ".grid.json"), "w") as f:
        json.dump({"lo": lo, "hi": hi, "points": pts.astype(np.int64).tolist(),
                   "margins": [[float(v) for v in row] for row in m]}, f)


for i in range(12):
    nf = 2 + i % 2
    lo = [int(rng.choice(lows)) for _ in range(nf)]
    hi = [l + int(rng.integers(4, 7)) for l in lo]
    pts = grid(lo, hi)
    n = 400
    X = pts[rng.integers(0, len(pts), n)]
    nclass = 2 + i % 3
    w = rng.normal(size=(nf, nclass))
    y = np.argmax((X - np.array(lo)) @ w + rng.normal(scale=0.7, size=(n, nclass)), axis=1)
    y[: nclass] = np.arange(nclass)  # every class occurs
    params = dict(objective="multi:softprob", num_class=nclass, max_depth=int(1 + i % 4),
                  num_parallel_tree=int(1 + i % 3), subsample=0.8, eta=0.5, base_score=float(rng.choice([0.5, 0.2, 0.9])),
                  tree_method=["exact", "hist", "approx"][i % 3], seed=i)
    b = xgb.train(params, xgb.DMatrix(X, label=y), num_boost_round=int(2 + i % 5))
    dump("m%d" % i, b, lo, hi)
    if i % 4 == 0:
        c = xgb.XGBClassifier(n_estimators=4, max_depth=3, num_parallel_tree=2, random_state=i)
        c.fit(X, y)
        dump("sk%d" % i, c.get_booster(), lo, hi)
    if i % 3 == 0:
        r = xgb.XGBRegressor(n_estimators=6, max_depth=3, base_score=-2.5, random_state=i)
        r.fit(X, (X - np.array(lo)) @ w[:, 0])
        dump("reg%d" % i, r.get_booster(), lo, hi)
