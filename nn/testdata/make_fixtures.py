#!/usr/bin/python3
"""Regenerate nn's test fixtures and the example policy specs/policies/oneway_32x32.onnx.

Run from the repository root with Debian's PyTorch (apt-get install python3-torch python3-onnx):

    /usr/bin/python3 nn/testdata/make_fixtures.py

Writes, in nn/testdata/:
  gemm.onnx      Linear-ReLU-Linear-ReLU-Linear (Gemm with transB), symbolic batch dimension
  matmul.onnx    (x - mean) / std, Flatten, x @ W + b (MatMul, Add), ReLU, 0.5 * (W2 @ h) via MatMul with the weight first
  nnet.nnet      an NNet network with clipping and normalisation
  tiny.json      a vigil JSON network
  expected.json  {"file": {"inputs": [[...]], "outputs": [[...]]}} computed by PyTorch (NNet: by its definition, in float64)
and specs/policies/oneway_32x32.onnx, a 4-32-32-6 network trained to imitate a simple rule of the
one-way line model (specs/oneway.spec).
The generated files are committed; tests do not run Python.
"""
import json
import os
import random

import onnx
import torch
import torch.nn as tnn

torch.manual_seed(4)
random.seed(4)
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def export(model, n_in, path):
    model.eval()
    x = torch.randn(1, n_in)
    torch.onnx.export(model, x, path, input_names=["x"], output_names=["y"],
                      dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}}, opset_version=13)


def samples(n_in, k=20):
    return [[random.uniform(-2, 2) for _ in range(n_in)] for _ in range(k)]


expected = {}

# 1. The PyTorch default: nn.Linear exports as Gemm with transB=1.
gemm = tnn.Sequential(tnn.Linear(3, 8), tnn.ReLU(), tnn.Linear(8, 8), tnn.ReLU(), tnn.Linear(8, 4))
export(gemm, 3, os.path.join(HERE, "gemm.onnx"))
xs = samples(3)
with torch.no_grad():
    expected["gemm.onnx"] = {"inputs": xs, "outputs": gemm(torch.tensor(xs)).tolist()}


# 2. Normalisation, Flatten, MatMul with the weight on either side, Mul by a constant.
class Odd(tnn.Module):
    def __init__(self):
        super().__init__()
        self.mean = torch.tensor([0.5, -0.25, 1.0, 0.0])
        self.std = torch.tensor([2.0, 0.5, 1.5, 1.0])
        self.w1 = tnn.Parameter(torch.randn(4, 6))
        self.b1 = tnn.Parameter(torch.randn(6))
        self.w2 = tnn.Parameter(torch.randn(3, 6))
        self.flat = tnn.Flatten()

    def forward(self, x):
        h = self.flat((x - self.mean) / self.std)
        h = torch.relu(torch.matmul(h, self.w1) + self.b1)
        return 0.5 * torch.matmul(self.w2, h.t()).t() - 1.0


odd = Odd()
export(odd, 4, os.path.join(HERE, "matmul.onnx"))
xs = samples(4)
with torch.no_grad():
    expected["matmul.onnx"] = {"inputs": xs, "outputs": odd(torch.tensor(xs)).tolist()}

# 3. NNet with clipping and normalisation, evaluated by its definition in float64.
sizes = [2, 5, 3]
Ws = [[[random.uniform(-1, 1) for _ in range(sizes[i])] for _ in range(sizes[i + 1])] for i in range(2)]
bs = [[random.uniform(-0.5, 0.5) for _ in range(sizes[i + 1])] for i in range(2)]
mins, maxs, means, ranges = [-1.0, 0.0], [1.0, 2.0], [0.1, 1.0, 0.5], [2.0, 4.0, 3.0]
lines = ["// Neural Network File Format by Kyle Julian, Stanford 2016", "// fixture written by make_fixtures.py",
         "2,2,3,5,", "2,5,3,", "0,",
         ",".join(map(repr, mins)) + ",", ",".join(map(repr, maxs)) + ",",
         ",".join(map(repr, means)) + ",", ",".join(map(repr, ranges)) + ","]
for W, b in zip(Ws, bs):
    for row in W:
        lines.append(",".join(map(repr, row)) + ",")
    for v in b:
        lines.append(repr(v) + ",")
open(os.path.join(HERE, "nnet.nnet"), "w").write("\n".join(lines) + "\n")


def nnet_eval(x):
    h = [(min(max(x[i], mins[i]), maxs[i]) - means[i]) / ranges[i] for i in range(2)]
    for k, (W, b) in enumerate(zip(Ws, bs)):
        h = [sum(w * v for w, v in zip(row, h)) + bb for row, bb in zip(W, b)]
        if k < len(Ws) - 1:
            h = [max(v, 0.0) for v in h]
    return [v * ranges[2] + means[2] for v in h]


xs = samples(2)
expected["nnet.nnet"] = {"inputs": xs, "outputs": [nnet_eval(x) for x in xs]}

# 4. vigil JSON, from nn.Linear weights.
lin = tnn.Sequential(tnn.Linear(2, 4), tnn.ReLU(), tnn.Linear(4, 2))
layers = [m for m in lin if isinstance(m, tnn.Linear)]
with open(os.path.join(HERE, "tiny.json"), "w") as f:
    json.dump({"format": "vigil-nn", "version": 1, "layers": [
        {"weights": l.weight.tolist(), "bias": l.bias.tolist(),
         "activation": "relu" if i < len(layers) - 1 else "linear"} for i, l in enumerate(layers)]}, f)
xs = samples(2)
with torch.no_grad():
    expected["tiny.json"] = {"inputs": xs, "outputs": lin(torch.tensor(xs)).tolist()}

# 5. Operator forms PyTorch does not write, built with onnx.helper and evaluated with numpy:
# Gemm with the data as B (transB) and the weight as A (transA), alpha and beta; a Constant node;
# constant - data; division by a constant vector; Reshape to [-1, n]; Identity; float_data weights.
import numpy as np
from onnx import TensorProto, helper, numpy_helper

A = np.random.RandomState(1).randn(3, 5).astype(np.float32)  # transA: used as 5x3
C = np.random.RandomState(2).randn(5).astype(np.float32)
D = np.array([2.0, -4.0, 0.5, 1.0, 8.0], dtype=np.float32)
W2 = np.random.RandomState(3).randn(5, 2).astype(np.float32)
nodes = [
    helper.make_node("Constant", [], ["k"], value=helper.make_tensor("kv", TensorProto.FLOAT, [3], [0.5, -1.0, 2.0]), name="konst"),
    helper.make_node("Sub", ["k", "x"], ["s"], name="sub"),
    helper.make_node("Gemm", ["A", "s"], ["g"], transA=1, transB=1, alpha=0.5, beta=2.0, name="gemm"),
    helper.make_node("Reshape", ["gt", "shape"], ["r"], name="reshape"),
    helper.make_node("Div", ["r", "D"], ["d"], name="div"),
    helper.make_node("Relu", ["d"], ["h"], name="relu"),
    helper.make_node("Identity", ["h"], ["i"], name="id"),
    helper.make_node("MatMul", ["i", "W2"], ["y"], name="out"),
]
# Gemm computes alpha * A^T s^T + beta * C: a column; Transpose it back into a row.
nodes.insert(3, helper.make_node("Transpose", ["g"], ["gt"], name="t"))
inits = [numpy_helper.from_array(A, "A"), numpy_helper.from_array(C.reshape(5, 1), "C"),
         numpy_helper.from_array(np.array([-1, 5], dtype=np.int64), "shape"),
         helper.make_tensor("D", TensorProto.FLOAT, [5], D.tolist()),  # float_data, not raw_data
         numpy_helper.from_array(W2, "W2")]
nodes[2].input.append("C")
graph = helper.make_graph(nodes, "forms", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 2])], inits)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
onnx.checker.check_model(model)
onnx.save(model, os.path.join(HERE, "forms.onnx"))
xs = samples(3)
outs = []
for x in xs:
    s_ = np.array([0.5, -1.0, 2.0]) - np.array(x)
    g = 0.5 * A.astype(np.float64).T @ s_ + 2.0 * C
    h = np.maximum(g / D, 0)
    outs.append((h @ W2.astype(np.float64)).tolist())
expected["forms.onnx"] = {"inputs": xs, "outputs": outs}

with open(os.path.join(HERE, "expected.json"), "w") as f:
    json.dump(expected, f)

# 5. The one-way line policy (spec-language.md): inputs pos/(L+VMAX), speed/VMAX, load/P, parked;
# outputs accelerate, decelerate, pickup, drop, park, cruise. Imitates a rule that brakes late,
# so the policy is plausible but unsafe from some start states.
L, VMAX, P = 12, 3, 3


def rule(pos, speed, load, parked):
    if parked:
        return 5 if speed > 0 else 3 if load > 0 else 4  # cruise / drop / park
    if speed > 0 and pos + speed >= L - 1:
        return 1  # decelerate (too late when fast)
    if speed == 0 and load < P and pos < 3:
        return 2  # pickup
    if speed == 0 and pos >= L - 2:
        return 4  # park
    if speed < VMAX:
        return 0  # accelerate
    return 5  # cruise


X, Y = [], []
for pos in range(L + VMAX + 1):
    for speed in range(VMAX + 1):
        for load in range(P + 1):
            for parked in (0, 1):
                X.append([pos / (L + VMAX), speed / VMAX, load / P, float(parked)])
                Y.append(rule(pos, speed, load, parked))
pol = tnn.Sequential(tnn.Linear(4, 32), tnn.ReLU(), tnn.Linear(32, 32), tnn.ReLU(), tnn.Linear(32, 6))
opt = torch.optim.Adam(pol.parameters(), lr=0.01)
Xt, Yt = torch.tensor(X), torch.tensor(Y)
for epoch in range(1500):
    opt.zero_grad()
    loss = tnn.functional.cross_entropy(pol(Xt), Yt)
    loss.backward()
    opt.step()
with torch.no_grad():
    acc = (pol(Xt).argmax(1) == Yt).float().mean().item()
print("oneway policy: imitation accuracy %.3f, loss %.4f" % (acc, loss.item()))
os.makedirs(os.path.join(ROOT, "specs", "policies"), exist_ok=True)
export(pol, 4, os.path.join(ROOT, "specs", "policies", "oneway_32x32.onnx"))


# 6. Imitation policies of rules policies of other example models. The training set is every state of
# the model's variable box where the rules policy chooses a label (nn/testdata/imitate, in Go).
import csv
import subprocess


def imitate(spec, rules, scales, labels, out, hidden=32, epochs=2000):
    data = subprocess.run(["go", "run", "./nn/testdata/imitate", spec, rules], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.splitlines()
    rows = list(csv.reader(data))[1:]
    X = [[float(v) / s for v, s in zip(r[:-1], scales)] for r in rows]
    Y = [labels.index(r[-1]) for r in rows]
    net = tnn.Sequential(tnn.Linear(len(scales), hidden), tnn.ReLU(), tnn.Linear(hidden, hidden), tnn.ReLU(),
                         tnn.Linear(hidden, len(labels)))
    opt = torch.optim.Adam(net.parameters(), lr=0.01)
    Xt, Yt = torch.tensor(X), torch.tensor(Y)
    for epoch in range(epochs):
        opt.zero_grad()
        loss = tnn.functional.cross_entropy(net(Xt), Yt)
        loss.backward()
        opt.step()
    with torch.no_grad():
        acc = (net(Xt).argmax(1) == Yt).float().mean().item()
    print("%s: imitating %s on %d states, accuracy %.3f" % (out, rules, len(rows), acc))
    export(net, len(scales), os.path.join(ROOT, "specs", "policies", out))


# transport.spec: inputs pos / L, speed / VMAX, load / P, waiting / P, delivered / P
imitate("specs/transport.spec", "greedy", [12, 2, 4, 4, 4],
        ["accelerate", "decelerate", "coast", "pickup", "unload", "drop"], "transport_32x32.onnx")
# twoway_line.spec: inputs pos / L, speed / VMAX, load / P, depot / P, delivered / P, parked
imitate("specs/twoway_line.spec", "shuttle", [16, 2, 2, 2, 2, 1],
        ["right", "left", "cruise", "pickup", "deliver", "park"], "twoway_32x32.onnx")
