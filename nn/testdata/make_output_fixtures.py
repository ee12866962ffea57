#!/usr/bin/python3
"""Writes output/*.onnx and output/expected.json for nn/onnx_outputs_test.go:
an actor-critic exported whole as Stable-Baselines3's export guide does
(OnnxableSB3Policy: self.policy(obs, deterministic=True) returns actions,
values and log_prob; actions is the ArgMax of Categorical(logits).probs),
and variants of its ArgMax that vigil must refuse. Needs Debian's
python3-torch and python3-onnx. Run from nn/testdata."""
import json
import onnx
import torch
import torch.nn as nn

torch.manual_seed(20)


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh())
        self.vf = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh())
        self.action_net = nn.Linear(16, 4)
        self.value_net = nn.Linear(16, 1)

    def logits(self, obs):
        return self.action_net(self.pi(torch.flatten(obs, 1)))

    def forward(self, obs):
        f = torch.flatten(obs, 1)
        logits = self.action_net(self.pi(f))
        values = self.value_net(self.vf(f))
        d = torch.distributions.Categorical(logits=logits)
        actions = torch.argmax(d.probs, dim=1)
        log_prob = d.log_prob(actions)
        return actions.reshape((-1,)), values, log_prob


m = ActorCritic().eval()
torch.onnx.export(m, torch.zeros(1, 3), "output/sb3_ppo.onnx", input_names=["obs"],
                  output_names=["actions", "values", "log_prob"], opset_version=17)


class RawArgMax(nn.Module):  # the arg-max of the logits, keepdim
    def __init__(self, ac):
        super().__init__()
        self.ac = ac

    def forward(self, obs):
        return torch.argmax(self.ac.logits(obs), dim=-1, keepdim=True)


torch.onnx.export(RawArgMax(m), torch.zeros(1, 3), "output/argmax_logits.onnx",
                  input_names=["obs"], output_names=["action"], opset_version=13)

# ArgMax over the batch axis (ONNX's default axis 0), and one that breaks
# ties by the last index: refused.
for name, attrs in (("argmax_axis0", {"axis": None}), ("argmax_lastindex", {"select_last_index": 1})):
    g = onnx.load("output/argmax_logits.onnx")
    for n in g.graph.node:
        if n.op_type == "ArgMax":
            keep = [a for a in n.attribute if a.name not in attrs]
            del n.attribute[:]
            n.attribute.extend(keep)
            for k, v in attrs.items():
                if v is not None:
                    n.attribute.append(onnx.helper.make_attribute(k, v))
    if name == "argmax_lastindex":
        g.opset_import[0].version = 13
    onnx.save(g, "output/%s.onnx" % name)

# The normalisation written the other way round, ReduceLogSumExp(x) - x
# (its arg-max is the smallest logit's), and over another axis: not the
# normalisation vigil reads as the identity, so refused.
g = onnx.load("output/sb3_ppo.onnx")
for n in g.graph.node:
    if n.op_type == "Sub" and any("ReduceLogSumExp" in i for i in n.input):
        n.input[0], n.input[1] = n.input[1], n.input[0]
onnx.save(g, "output/lse_reversed.onnx")
g = onnx.load("output/sb3_ppo.onnx")
for n in g.graph.node:
    if n.op_type == "ReduceLogSumExp":
        for a in n.attribute:
            if a.name == "axes":
                a.ints[:] = [0]
onnx.save(g, "output/lse_axis0.onnx")

md = m.double()
pts = [[0, 0, 0], [1, -2, 0.5], [3, 1, -1], [-0.25, 0.75, 2], [10, -10, 5]]
exp = {"inputs": pts, "logits": [], "values": [], "actions": []}
with torch.no_grad():
    for p in pts:
        x = torch.tensor([p], dtype=torch.float64)
        exp["logits"].append(md.logits(x)[0].tolist())
        exp["values"].append(md.value_net(md.vf(x))[0].tolist())
        exp["actions"].append(int(md(x)[0][0]))
with open("output/expected.json", "w") as f:
    json.dump(exp, f, indent=1)

# Ops of another domain than ONNX's standard one (a Relu, an ArgMax of
# "com.example"): refused, as their name does not say what they compute;
# the same graph with the domain "ai.onnx" is read.
from onnx import helper as h, TensorProto as T, numpy_helper as nh
import numpy as np
W = nh.from_array(np.array([[1, -1], [2, 0.5]], dtype=np.float32), "W")
B = nh.from_array(np.zeros(2, dtype=np.float32), "B")
for name, dom_relu, dom_am in (("dom_relu", "com.example", ""), ("dom_argmax", "", "com.example"), ("dom_std", "ai.onnx", "")):
    nodes = [h.make_node("Gemm", ["x", "W", "B"], ["g"]), h.make_node("Relu", ["g"], ["r"], domain=dom_relu),
             h.make_node("ArgMax", ["r"], ["y"], axis=1, keepdims=0, domain=dom_am)]
    g = h.make_graph(nodes, name, [h.make_tensor_value_info("x", T.FLOAT, [1, 2])], [h.make_tensor_value_info("y", T.INT64, [1])], [W, B])
    onnx.save(h.make_model(g, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("com.example", 1)]), "output/%s.onnx" % name)
