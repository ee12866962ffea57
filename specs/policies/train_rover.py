#!/usr/bin/env python3
"""Train the learned rover policies of specs/rover.spec.

rover_16x16 (ONNX, PyTorch) and rover_trees (XGBoost JSON) imitate the
`careful` rules policy of specs/rover.spec with a safety margin: they are
taught to drive east only while x + 2 + MARGIN < EDGE, and the network to
score east at least 3 below wait within MARGIN of the edge (a margin
that bound propagation, and the certificate checker's interval
arithmetic, can see). Nothing in training
guarantees that the learned policies never drive east at the edge; that is
what `vigil verify specs/rover.spec --policy rover_16x16 --engine polic3`
proves (2 * 10^13 states, far beyond explicit search).

Inputs (as the spec declares them): x / W, y / H, battery / BAT, homing,
(EDGE - x) / 1000. Outputs: east, west, north, south, home, charge, wait,
read by vigil as an arg-max over the labels applicable in the state.

Deterministic: fixed seeds, one thread. Needs Debian's python3-torch,
python3-onnx and python3-xgboost:

    /usr/bin/python3 specs/policies/train_rover.py
"""
import os

import numpy as np
import torch
import xgboost as xgb

W = H = 100_000
EDGE = 90_000
BAT = 1000
MARGIN = 200
LABELS = ["east", "west", "north", "south", "home", "charge", "wait"]
EAST, WAIT = LABELS.index("east"), LABELS.index("wait")
HERE = os.path.dirname(os.path.abspath(__file__))


def applicable(x, y, b, homing):
    return [b > 0 and x < W - 2, b > 0 and x > 0, b > 0 and y < H - 1, b > 0 and y > 0,
            not homing, x == 0, True]


def teacher(x, y, b, homing, app):
    """careful's rules in order, the first applicable one; east with a margin."""
    rules = [
        (x == 0 and (homing or b < BAT), "charge"),
        (homing, "west"),
        (b <= x // 1000 + 1, "home"),
        (x + 2 + MARGIN < EDGE, "east"),
        (y + 1 < H, "north"),
        (True, "west"),
    ]
    for cond, label in rules:
        if cond and app[LABELS.index(label)]:
            return LABELS.index(label)
    return LABELS.index("wait")


def sample(n, rng):
    rows, ys, masks = [], [], []
    for i in range(n):
        r = rng.random()
        if r < 0.4:
            x = int(rng.integers(0, W - 1))
        elif r < 0.8:  # the band where east must stop
            x = int(rng.integers(EDGE - 3 * MARGIN, EDGE + 1))
        elif r < 0.9:
            x = int(rng.integers(0, 3000))
        else:
            x = 0
        y = int(rng.integers(0, H)) if rng.random() < 0.95 else H - 1
        b = int(rng.integers(0, BAT + 1)) if rng.random() < 0.8 else int(rng.integers(0, 100))
        homing = bool(rng.random() < 0.3)
        app = applicable(x, y, b, homing)
        rows.append([x / W, y / H, b / BAT, float(homing), (EDGE - x) / 1000])
        ys.append(teacher(x, y, b, homing, app))
        masks.append(app)
    return np.array(rows, dtype=np.float32), np.array(ys), np.array(masks, dtype=bool)


def train_net(xs, ys, masks, seed):
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    net = torch.nn.Sequential(torch.nn.Linear(5, 16), torch.nn.ReLU(),
                              torch.nn.Linear(16, 16), torch.nn.ReLU(),
                              torch.nn.Linear(16, len(LABELS)))
    x, y, m = torch.from_numpy(xs), torch.from_numpy(ys), torch.from_numpy(masks)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    steps = 4000
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        idx = torch.randint(0, x.shape[0], (512,), generator=g)
        raw = net(x[idx])
        logits = raw.masked_fill(~m[idx], -1e9)
        loss = torch.nn.functional.cross_entropy(logits, y[idx])
        # Near the edge, east must lose clearly to wait (always applicable),
        # whatever the chosen label: a margin a verifier can see.
        near = (x[idx][:, 4] < MARGIN / 1000).float()
        gap = torch.relu(raw[:, EAST] - raw[:, WAIT] + 3.0)
        loss = loss + (near * gap).sum() / near.sum().clamp(min=1.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    net.eval()
    return net


def accuracy(scores, ys, masks):
    s = np.where(masks, scores, -np.inf)
    return float((s.argmax(axis=1) == ys).mean())


def main():
    rng = np.random.default_rng(7)
    xs, ys, masks = sample(60_000, rng)
    tx, ty, tm = sample(20_000, np.random.default_rng(8))

    net = train_net(xs, ys, masks, 7)
    with torch.no_grad():
        acc = accuracy(net(torch.from_numpy(tx)).numpy(), ty, tm)
    path = os.path.join(HERE, "rover_16x16.onnx")
    torch.onnx.export(net, torch.zeros(1, 5), path, input_names=["x"], output_names=["scores"])
    print(f"rover_16x16.onnx: held-out imitation accuracy {acc:.4f}")

    params = {"objective": "multi:softprob", "num_class": len(LABELS), "max_depth": 4, "eta": 0.5,
              "seed": 7, "nthread": 1, "tree_method": "exact", "verbosity": 0}
    b = xgb.train(params, xgb.DMatrix(xs, label=ys), 6)
    path = os.path.join(HERE, "rover_trees.json")
    b.save_model(path)
    acc = accuracy(b.predict(xgb.DMatrix(tx), output_margin=True), ty, tm)
    print(f"rover_trees.json: held-out imitation accuracy {acc:.4f}")


if __name__ == "__main__":
    main()
