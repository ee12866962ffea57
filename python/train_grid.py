#!/usr/bin/env python3
"""Train a policy on a vigil model through `vigil env`, export it as a
network, and have vigil compute how likely it is to fail.

The loop jani_env users run, with the standard library only: REINFORCE on
a linear softmax policy over the applicable labels (masked), trained on
specs/lang_grid.spec (a robot crossing a grid to a charger while wind
pushes it back), exported as a one-layer vigil JSON network (the
normalisation folded into the weights), then checked with

    vigil prob specs/lang_grid.spec --policy-file grid_linear.json
    vigil verify specs/lang_grid.spec --policy-file grid_linear.json

(the script runs both). Deterministic: fixed seeds.

    go build -o /tmp/vbin/vigil ./cmd/vigil
    PATH=/tmp/vbin:$PATH python3 python/train_grid.py [OUT.json]

python/train_torch.py is the same loop with PyTorch (Debian's
python3-torch): a deeper network, exported with torch.onnx.export.
"""
import json
import math
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vigil_env import VigilEnv  # noqa: E402

MODEL = "specs/lang_grid.spec"
SCALE = {"x": 4.0, "y": 3.0, "battery": 12.0, "charged": 1.0}  # W-1, H-1, BATTERY


def features(obs, names):
    return [v / SCALE[n] for v, n in zip(obs, names)] + [1.0]


def softmax_masked(w, f, mask):
    scores = [sum(wi * fi for wi, fi in zip(row, f)) if ok else -math.inf for row, ok in zip(w, mask)]
    top = max(scores)
    exps = [math.exp(s - top) if s > -math.inf else 0.0 for s in scores]
    z = sum(exps)
    return [e / z for e in exps]


def train(episodes=3000, lr=0.05, seed=1):
    env = VigilEnv(MODEL, ["--goal-reward", "20", "--unsafe-penalty", "20", "--max-steps", "60"])
    rng = random.Random(seed)
    names = env.vars
    w = [[0.0] * (len(names) + 1) for _ in env.labels]
    baseline, goals = 0.0, []
    for ep in range(episodes):
        obs, info = env.reset(seed=ep)
        trace, ret = [], 0.0
        while True:
            f = features(obs, names)
            mask = env.action_masks()
            p = softmax_masked(w, f, mask)
            a = rng.choices(range(len(p)), weights=p)[0]
            trace.append((f, mask, a))
            obs, reward, terminated, truncated, info = env.step(a)
            ret += reward
            if terminated or truncated:
                break
        goals.append(1 if info["goal"] else 0)
        baseline += 0.05 * (ret - baseline)
        adv = ret - baseline
        for f, mask, a in trace:  # REINFORCE: grad log pi(a|s) = f * (1[a] - p)
            p = softmax_masked(w, f, mask)
            for k in range(len(w)):
                g = (1.0 if k == a else 0.0) - p[k]
                if g:
                    for j in range(len(f)):
                        w[k][j] += lr * adv * g * f[j] / len(trace)
        if (ep + 1) % 500 == 0:
            print(f"episode {ep + 1}: goal in {sum(goals[-500:]) / 5:.1f}% of the last 500")
    env.close()
    return names, env.labels, w


def export(names, labels, w, path):
    # score_k = sum_j w[k][j] * (v_j / scale_j) + w[k][-1]
    layer = {
        "weights": [[row[j] / SCALE[n] for j, n in enumerate(names)] for row in w],
        "bias": [row[-1] for row in w],
        "activation": "linear",
    }
    with open(path, "w") as out:
        json.dump({"format": "vigil-nn", "version": 1, "layers": [layer]}, out, indent=1)
    print(f"wrote {path}: outputs {labels}")


def main(argv):
    out = argv[0] if argv else "grid_linear.json"
    names, labels, w = train()
    export(names, labels, w, out)
    for cmd in (["vigil", "prob", MODEL, "--policy-file", out, "--method", "exact"],
                ["vigil", "verify", MODEL, "--policy-file", out]):
        print("$", " ".join(cmd))
        done = subprocess.run(cmd, capture_output=True, text=True)
        print(done.stdout, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
