#!/usr/bin/python3
"""Train the tiny XGBoost ensembles that trees' tests load, and the example
ensemble policy for specs/oneway.spec, and write XGBoost's own predictions
(output_margin=True) next to them so the tests need no Python.

Needs Debian's python3-xgboost (1.7) and python3-numpy:
    apt-get install -y python3-xgboost python3-sklearn
Run from the repository root:
    /usr/bin/python3 trees/testdata/make_fixtures.py
Outputs (all deterministic for a given XGBoost build):
    trees/testdata/xgb_reg.json, xgb_logistic.json, xgb_multi.json, xgb_dart.json
    trees/testdata/xgb_expected.json   inputs and XGBoost margins per fixture
    specs/policies/oneway_trees.json   the oneway example policy (imitates a rule)
    trees/testdata/oneway_expected.json  its margins on every state
    specs/policies/oneway_trees_nn.json  a larger ensemble imitating the network
                                       policy specs/policies/oneway_32x32.onnx
                                       (evaluated with `vigil nn eval`, so Go is needed)
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def edge_inputs(booster, rng, nf, base):
    """Inputs that sit on and around every split threshold in float32 and
    float64, to pin down the x < t float32 comparison."""
    model = json.loads(booster.save_raw("json"))
    out = []
    gb = model["learner"]["gradient_booster"]
    gb = gb.get("gbtree", gb)
    for t in gb["model"]["trees"]:
        for i, left in enumerate(t["left_children"]):
            if left == -1:
                continue
            f = t["split_indices"][i]
            th = np.float32(t["split_conditions"][i])
            prev = np.nextafter(th, np.float32(-np.inf))
            mid = (float(prev) + float(th)) / 2
            for v in (float(th), np.nextafter(float(th), -np.inf), mid,
                      np.nextafter(mid, np.inf), np.nextafter(mid, -np.inf),
                      float(prev)):
                x = list(base[rng.integers(len(base))])
                x[f] = float(v)
                out.append(x)
    return out


def predict(booster, xs):
    """XGBoost's margins; they are float32, so their shortest float32 repr
    keeps them exact and the fixtures small."""
    d = xgb.DMatrix(np.array(xs, dtype=np.float64))
    m = booster.predict(d, output_margin=True)
    return [[float(str(np.float32(v))) for v in np.atleast_1d(r)] for r in m]


def fixture(name, params, rounds, X, y, rng, expected):
    d = xgb.DMatrix(X, label=y)
    b = xgb.train(params, d, num_boost_round=rounds)
    path = os.path.join(HERE, name)
    b.save_model(path)
    xs = [list(map(float, r)) for r in X[:20]]
    edges = edge_inputs(b, rng, X.shape[1], X)
    pick = rng.choice(len(edges), size=min(len(edges), 60), replace=False)
    xs += [edges[i] for i in sorted(pick)]
    expected[name] = {"inputs": xs, "margins": predict(b, xs)}


def oneway_rule(pos, speed, load, parked, L=12, P=3):
    """A simple driver for specs/oneway.spec; labels index
    accelerate, decelerate, pickup, drop, park, cruise."""
    if parked:
        return 3 if load > 0 else 4
    if speed > 0 and pos + 2 * speed >= L:
        return 1
    if speed == 0 and pos >= L - 2:
        return 3 if load > 0 else 4
    if speed == 0 and load < P:
        return 2
    if speed >= 2:
        return 5
    return 0


def oneway_inputs(pos, speed, load, parked, L=12, VMAX=3, P=3):
    # Exactly as vigil evaluates the affine inputs: Const + Coef*var in
    # float64 with Coef = 1/(L+VMAX) etc.
    return [0.0 + (1 / (L + VMAX)) * pos, 0.0 + (1 / VMAX) * speed,
            0.0 + (1 / P) * load, 0.0 + 1.0 * parked]


# Guards of specs/oneway.spec (P = VMAX = 3), in output order.
def oneway_applicable(pos, speed, load, parked):
    return [speed < 3 and not parked, speed > 0, speed == 0 and load < 3,
            speed == 0 and load > 0, speed == 0, speed > 0]


def network_choices(states):
    """The label the network policy chooses in each state: the arg-max of its
    outputs over the applicable labels, ties to the earlier output."""
    exe = os.path.join(tempfile.mkdtemp(), "vigil")
    subprocess.run(["go", "build", "-o", exe, "./cmd/vigil"], cwd=ROOT, check=True)
    net = os.path.join(ROOT, "specs", "policies", "oneway_32x32.onnx")
    out = []
    for st in states:
        x = ",".join(repr(v) for v in oneway_inputs(*st))
        r = subprocess.run([exe, "nn", "eval", net, "--input", x, "--json"],
                           check=True, capture_output=True, text=True)
        y = json.loads(r.stdout)["output"]
        app = oneway_applicable(*st)
        best = None
        for i, v in enumerate(y):
            if app[i] and (best is None or v > y[best]):
                best = i
        out.append(best)
    return out


def main():
    rng = np.random.default_rng(7)
    expected = {}
    X = rng.uniform(-2, 5, size=(300, 3))
    y = np.sin(X[:, 0]) + X[:, 1] * (X[:, 2] > 1) + rng.normal(0, 0.1, 300)
    fixture("xgb_reg.json", {"max_depth": 3, "eta": 0.5, "objective": "reg:squarederror",
                             "base_score": 0.25, "seed": 1}, 8, X, y, rng, expected)
    yb = (y > 0.8).astype(float)
    fixture("xgb_logistic.json", {"max_depth": 3, "eta": 0.5, "objective": "binary:logistic",
                                  "base_score": 0.3, "seed": 1}, 6, X, yb, rng, expected)
    ym = np.digitize(y, [0, 1.2])
    fixture("xgb_multi.json", {"max_depth": 3, "eta": 0.5, "objective": "multi:softprob",
                               "num_class": 3, "seed": 1}, 4, X, ym, rng, expected)
    fixture("xgb_dart.json", {"max_depth": 2, "eta": 0.5, "booster": "dart", "rate_drop": 0.3,
                              "objective": "reg:squarederror", "seed": 1}, 5, X, y, rng, expected)
    with open(os.path.join(HERE, "xgb_expected.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))

    states = [(p, s, l, k) for p in range(16) for s in range(4) for l in range(4) for k in range(2)]
    Xo = np.array([oneway_inputs(*st) for st in states])
    yo = np.array([oneway_rule(*st) for st in states])
    d = xgb.DMatrix(Xo, label=yo)
    b = xgb.train({"max_depth": 4, "eta": 0.3, "objective": "multi:softprob", "num_class": 6,
                   "seed": 1}, d, num_boost_round=10)
    os.makedirs(os.path.join(ROOT, "specs", "policies"), exist_ok=True)
    b.save_model(os.path.join(ROOT, "specs", "policies", "oneway_trees.json"))
    margins = predict(b, Xo.tolist())
    choice = [int(np.argmax(m)) for m in margins]
    agree = sum(int(c == t) for c, t in zip(choice, yo))
    print(f"oneway_trees: imitates the rule on {agree}/{len(states)} states", file=sys.stderr)
    # A larger ensemble (paper 004's range: depth 4-10, 5-30 trees per
    # class) imitating the network policy, for the search-effort figures.
    yn = np.array(network_choices(states))
    d = xgb.DMatrix(Xo, label=yn)
    bn = xgb.train({"max_depth": 6, "eta": 0.3, "objective": "multi:softprob", "num_class": 6,
                    "subsample": 0.8, "colsample_bynode": 0.75, "seed": 1}, d, num_boost_round=20)
    bn.save_model(os.path.join(ROOT, "specs", "policies", "oneway_trees_nn.json"))
    mn = predict(bn, Xo.tolist())
    agree_n = sum(int(np.argmax(m) == t) for m, t in zip(mn, yn))
    print(f"oneway_trees_nn: imitates the network on {agree_n}/{len(states)} states", file=sys.stderr)

    # Every state's arg-max, and full margins for every 8th state.
    sample = list(range(0, len(states), 8))
    with open(os.path.join(HERE, "oneway_expected.json"), "w") as f:
        json.dump({"states": states, "argmax": choice, "sample": sample,
                   "margins": [margins[i] for i in sample],
                   "nn_argmax": [int(np.argmax(m)) for m in mn],
                   "nn_margins": [mn[i] for i in sample]}, f, separators=(",", ":"))


if __name__ == "__main__":
    main()
