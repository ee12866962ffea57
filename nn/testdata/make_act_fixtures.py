#!/usr/bin/python3
"""Regenerate nn's fixtures for activations other than ReLU.

Run from the repository root with Debian's PyTorch (apt-get install python3-torch python3-onnx):

    /usr/bin/python3 nn/testdata/make_act_fixtures.py

Writes, in nn/testdata/, as torch.onnx.export writes them (opset 13, float32 weights):
  acts.onnx     Linear-Tanh-Linear-Sigmoid-Linear-LeakyReLU(0.25)-Linear-LogSoftmax
  softmax.onnx  Flatten-Linear-Tanh-Identity-Linear-Softmax
  expected_act.json  {"file": {"inputs": [[...]], "outputs": [[...]]}}: torch's outputs in
                float64 (the float32 weights converted exactly) at the given inputs
The generated files are committed; tests do not run Python.
"""
import json
import os
import random

import torch
import torch.nn as tnn

torch.manual_seed(30)
random.seed(30)
HERE = os.path.dirname(os.path.abspath(__file__))

nets = {
    "acts.onnx": (4, tnn.Sequential(tnn.Linear(4, 8), tnn.Tanh(), tnn.Linear(8, 8), tnn.Sigmoid(),
                                    tnn.Linear(8, 6), tnn.LeakyReLU(0.25), tnn.Linear(6, 3), tnn.LogSoftmax(dim=-1))),
    "softmax.onnx": (3, tnn.Sequential(tnn.Flatten(), tnn.Linear(3, 5), tnn.Tanh(), tnn.Identity(),
                                       tnn.Linear(5, 4), tnn.Softmax(dim=-1))),
}
expected = {}
for name, (n_in, net) in nets.items():
    net.eval()
    torch.onnx.export(net, torch.randn(1, n_in), os.path.join(HERE, name), input_names=["obs"],
                      output_names=["y"], dynamic_axes={"obs": {0: "batch"}, "y": {0: "batch"}}, opset_version=13)
    xs = [[random.uniform(-3, 3) for _ in range(n_in)] for _ in range(20)]
    with torch.no_grad():
        ys = net.double()(torch.tensor(xs, dtype=torch.float64)).tolist()
    expected[name] = {"inputs": xs, "outputs": ys}
with open(os.path.join(HERE, "expected_act.json"), "w") as f:
    json.dump(expected, f, indent=1)
