#!/usr/bin/python3
"""Write a Stable-Baselines3-style PPO archive for the converter's test.

    /usr/bin/python3 nn/testdata/fake_sb3.py DIR

DIR/model.zip holds policy.pth (SB3's state dict layout: a 5-16-16 Tanh
policy net, a value net, action_net with 4 outputs, value_net) and data
(policy_kwargs pickled as SB3 stores them, naming nn.Tanh).
DIR/expected.json lists observations' variable parts and the actor's
logits computed in float64 by torch on the full observation: the
constants 3 and -5 followed by the variables.
"""
import base64
import io
import json
import os
import pickle
import sys
import zipfile

import torch

out = sys.argv[1]
torch.manual_seed(11)
sd = {}


def linear(prefix, n_in, n_out):
    lin = torch.nn.Linear(n_in, n_out)
    sd[prefix + ".weight"] = lin.weight.detach().clone()
    sd[prefix + ".bias"] = lin.bias.detach().clone()


linear("mlp_extractor.policy_net.0", 5, 16)
linear("mlp_extractor.policy_net.2", 16, 16)
linear("mlp_extractor.value_net.0", 5, 16)
linear("mlp_extractor.value_net.2", 16, 16)
linear("action_net", 16, 4)
linear("value_net", 16, 1)
buf = io.BytesIO()
torch.save(sd, buf)
kwargs = {"net_arch": [16, 16], "activation_fn": torch.nn.Tanh}
data = {"policy_kwargs": {":type:": "<class 'dict'>",
                          ":serialized:": base64.b64encode(pickle.dumps(kwargs)).decode()}}
with zipfile.ZipFile(os.path.join(out, "model.zip"), "w") as z:
    z.writestr("data", json.dumps(data))
    z.writestr("policy.pth", buf.getvalue())

consts = [3.0, -5.0]
g = torch.Generator().manual_seed(12)
xs = (torch.rand(25, 3, generator=g, dtype=torch.float64) * 4 - 2).tolist()
with torch.no_grad():
    h = torch.tensor([consts + x for x in xs], dtype=torch.float64)
    for name in ["mlp_extractor.policy_net.0", "mlp_extractor.policy_net.2"]:
        h = torch.tanh(h @ sd[name + ".weight"].double().T + sd[name + ".bias"].double())
    y = h @ sd["action_net.weight"].double().T + sd["action_net.bias"].double()
with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump({"inputs": xs, "outputs": y.tolist()}, f)
