#!/usr/bin/env python3
"""Train rover_tanh, a Tanh actor for specs/rover.spec, and convert it as an
SB3 checkpoint is converted.

The actor imitates `careful` with the safety margin of train_rover.py (the
same samples, teacher and margin loss), with Stable-Baselines3's default
actor shape for PPO: two Tanh layers (here of 16) and a linear action head.
It is saved as an SB3 archive would hold it (rover_tanh.zip is not kept:
policy.pth with mlp_extractor.policy_net.*, action_net.* and a value head,
and the policy_kwargs naming nn.Tanh), then converted by
tools/sb3_to_onnx.py into rover_tanh.onnx, the path a user of SB3 takes.

Deterministic: fixed seeds, one thread. Needs Debian's python3-torch and
python3-onnx:

    /usr/bin/python3 specs/policies/train_rover_tanh.py
"""
import base64
import json
import os
import pickle
import subprocess
import sys
import tempfile
import types
import zipfile

import numpy as np
import torch

# train_rover.py also trains an XGBoost ensemble; only its samples and
# teacher are used here, so xgboost need not be installed.
sys.modules.setdefault("xgboost", types.ModuleType("xgboost"))
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from train_rover import EAST, LABELS, MARGIN, WAIT, accuracy, sample  # noqa: E402


def train(xs, ys, masks, seed):
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    policy_net = torch.nn.Sequential(torch.nn.Linear(5, 16), torch.nn.Tanh(),
                                     torch.nn.Linear(16, 16), torch.nn.Tanh())
    action_net = torch.nn.Linear(16, len(LABELS))
    net = torch.nn.Sequential(policy_net, action_net)
    x, y, m = torch.from_numpy(xs), torch.from_numpy(ys), torch.from_numpy(masks)
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    steps = 4000
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        idx = torch.randint(0, x.shape[0], (512,), generator=g)
        raw = net(x[idx])
        loss = torch.nn.functional.cross_entropy(raw.masked_fill(~m[idx], -1e9), y[idx])
        near = (x[idx][:, 4] < MARGIN / 1000).float()
        gap = torch.relu(raw[:, EAST] - raw[:, WAIT] + 3.0)
        loss = loss + (near * gap).sum() / near.sum().clamp(min=1.0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    net.eval()
    return policy_net, action_net, net


def save_sb3(path, policy_net, action_net):
    """An archive with SB3's layout: policy.pth and data."""
    sd = {}
    for i in (0, 2):
        sd[f"mlp_extractor.policy_net.{i}.weight"] = policy_net[i].weight.detach()
        sd[f"mlp_extractor.policy_net.{i}.bias"] = policy_net[i].bias.detach()
        sd[f"mlp_extractor.value_net.{i}.weight"] = torch.zeros_like(policy_net[i].weight)
        sd[f"mlp_extractor.value_net.{i}.bias"] = torch.zeros_like(policy_net[i].bias)
    sd["action_net.weight"] = action_net.weight.detach()
    sd["action_net.bias"] = action_net.bias.detach()
    sd["value_net.weight"] = torch.zeros(1, 16)
    sd["value_net.bias"] = torch.zeros(1)
    kw = {"net_arch": [16, 16], "activation_fn": torch.nn.Tanh}
    data = {"policy_kwargs": {":type:": "<class 'dict'>",
                              ":serialized:": base64.b64encode(pickle.dumps(kw)).decode()}}
    with tempfile.TemporaryFile() as buf:
        torch.save(sd, buf)
        buf.seek(0)
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("data", json.dumps(data))
            z.writestr("policy.pth", buf.read())


def main():
    xs, ys, masks = sample(60_000, np.random.default_rng(7))
    tx, ty, tm = sample(20_000, np.random.default_rng(8))
    policy_net, action_net, net = train(xs, ys, masks, 7)
    with torch.no_grad():
        acc = accuracy(net(torch.from_numpy(tx)).numpy(), ty, tm)
    with tempfile.TemporaryDirectory() as d:
        archive = os.path.join(d, "rover_tanh.zip")
        save_sb3(archive, policy_net, action_net)
        subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "tools", "sb3_to_onnx.py"), archive,
                        os.path.join(HERE, "rover_tanh.onnx"), "--labels", ",".join(LABELS)],
                       check=True)
    print(f"rover_tanh.onnx: held-out imitation accuracy {acc:.4f}")


if __name__ == "__main__":
    main()
