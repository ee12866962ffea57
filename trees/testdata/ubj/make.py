#!/usr/bin/python3
"""Writes XGBoost models twice, as save_model JSON and as UBJSON (.ubj),
for trees/ubjson_test.go: a binary classifier, a three-class softmax
model, a regressor with a base score, and a random forest
(num_parallel_tree). Needs Debian's python3-xgboost. Run from this
directory."""
import numpy as np
import xgboost as xgb

rng = np.random.default_rng(20)
X = rng.integers(-20, 21, size=(300, 3)).astype(np.float32) / 3
y2 = (X[:, 0] + 0.5 * X[:, 1] > 0.3).astype(int)
y3 = np.digitize(X[:, 0] - X[:, 2], [-2, 2])
yr = X[:, 0] * 2.5 - X[:, 1] + 0.1
for name, params, y, rounds in (
    ("binary", {"objective": "binary:logistic", "max_depth": 3, "base_score": 0.3}, y2, 6),
    ("multi", {"objective": "multi:softmax", "num_class": 3, "max_depth": 3}, y3, 4),
    ("reg", {"objective": "reg:squarederror", "max_depth": 4, "base_score": 1.7}, yr, 5),
    ("forest", {"objective": "binary:logistic", "num_parallel_tree": 4, "subsample": 0.8,
                "colsample_bynode": 0.8, "learning_rate": 1, "max_depth": 3}, y2, 1),
):
    b = xgb.train(params, xgb.DMatrix(X, label=y), rounds)
    b.save_model(name + ".json")
    b.save_model(name + ".ubj")
