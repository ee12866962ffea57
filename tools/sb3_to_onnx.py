#!/usr/bin/python3
"""Convert a Stable-Baselines3 actor (PPO, MaskablePPO, A2C) to ONNX for vigil.

    /usr/bin/python3 tools/sb3_to_onnx.py CHECKPOINT OUT.onnx [options]

CHECKPOINT is an SB3 archive (model.zip, with policy.pth inside), the
policy.pth taken out of one, or any torch state dict (.pth, .pt) with SB3's
layout:

    mlp_extractor.policy_net.0.weight, .bias    first hidden layer
    mlp_extractor.policy_net.2.weight, .bias    second hidden layer, ...
    action_net.weight, action_net.bias          the action logits

The value head (mlp_extractor.value_net.*, value_net.*) is dropped: vigil
needs the actor only, whose arg-max is the chosen action. DQN's online
Q-network (q_net.q_net.0.weight, ...; q_net_target.* is dropped) and the
state dict of a plain torch.nn.Sequential of Linear layers (0.weight,
2.weight, ...) are read too.

Options:
  --activation tanh|relu|leaky_relu|sigmoid|relu6|hardtanh
        the hidden activation. A state dict does not record it; SB3's PPO
        and A2C default to tanh, DQN to relu. From an SB3 archive it is read from the
        saved policy_kwargs when they name it, and a different
        --activation is an error.
  --constants V1,V2,...
        values of the first observation entries that are constants. jani_env
        feeds the model's constants, then its variables; vigil's policy
        inputs are expressions of the variables, so the constants are folded
        into the first layer's bias (b' = b + W[:, :k] c, in float64) and
        their columns removed.
  --labels L1,L2,...
        the labels of the outputs in order: the number is checked against
        the actor's outputs.
  --vars V1,V2,...
        the model variables fed to the network (after the constants): their
        number is checked against the inputs, and a policy declaration for
        a .spec file is printed.
  --name NAME  the policy's name in that declaration (default: the file name)

The ONNX file holds float64 weights (float32 weights are exact in float64,
and the folded bias keeps its float64 value). vigil evaluates networks in
float64 (lang/spec.md, "How a learned policy computes its scores"); SB3
evaluates them in float32, so at near-ties the two can choose differently:
vigil's verdicts are about the float64 policy. Observation normalisation
(VecNormalize) is not part of the checkpoint: write it into the policy's
input expressions. Needs Debian's python3-torch and python3-onnx.
"""
import argparse
import base64
import io
import json
import os
import re
import sys
import zipfile

ACTS = {"tanh": "Tanh", "relu": "ReLU", "leaky_relu": "LeakyReLU", "sigmoid": "Sigmoid", "relu6": "ReLU6", "hardtanh": "Hardtanh"}


def fail(msg):
    print("sb3_to_onnx: " + msg, file=sys.stderr)
    sys.exit(1)


def load(path):
    """Returns (state dict, activation named by the archive or None)."""
    import torch
    act = None
    raw = None
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if "policy.pth" in names:
                raw = z.read("policy.pth")
                if "data" in names:
                    act = archive_activation(z.read("data").decode("utf-8", "replace"))
    try:
        obj = torch.load(io.BytesIO(raw) if raw is not None else path, map_location="cpu")
    except Exception as e:  # torch raises many kinds
        fail(f"{path}: not a torch checkpoint or SB3 archive: {e}")
    if hasattr(obj, "state_dict") and callable(obj.state_dict):
        obj = obj.state_dict()
    if not isinstance(obj, dict):
        fail(f"{path}: holds a {type(obj).__name__}, not a state dict")
    return obj, act


def archive_activation(data):
    """The activation_fn that SB3's saved data names in policy_kwargs: in
    their readable form, or in the pickle SB3 stores them as."""
    name = None
    m = re.search(r"activation_fn[^<]*<class 'torch\.nn\.modules\.activation\.(\w+)'>", data)
    if m:
        name = m.group(1)
    else:
        try:
            kw = json.loads(data).get("policy_kwargs", {})
            pickled = base64.b64decode(kw.get(":serialized:", ""))
        except (ValueError, AttributeError):
            pickled = b""
        m = re.search(rb"torch\.nn\.modules\.activation.{1,8}?([A-Z]\w+)", pickled, re.S)
        if m:
            name = m.group(1).decode()
    if name is None:
        return None
    for k, v in ACTS.items():
        if v == name:
            return k
    fail(f"the archive's policy uses activation {name}; vigil reads {', '.join(ACTS)}")


def layers(sd):
    """The actor's Linear layers in order, as (name, weight, bias)."""
    keys = list(sd.keys())
    if any(k.startswith("mlp_extractor.policy_net.") for k in keys) or "action_net.weight" in keys:
        fx = [k for k in keys if "features_extractor" in k]
        if fx:
            fail(f"the checkpoint has a features extractor with parameters ({fx[0]}, ...); "
                 "vigil reads SB3's default FlattenExtractor only")
        idx = sorted({int(m.group(1)) for k in keys
                      for m in [re.match(r"mlp_extractor\.policy_net\.(\d+)\.weight$", k)] if m})
        names = [f"mlp_extractor.policy_net.{i}" for i in idx] + ["action_net"]
    elif any(k.startswith("q_net.q_net.") for k in keys):
        fx = [k for k in keys if "features_extractor" in k]
        if fx:
            fail(f"the checkpoint has a features extractor with parameters ({fx[0]}, ...); "
                 "vigil reads SB3's default FlattenExtractor only")
        # DQN: the arg-max of the online Q-network; the target network
        # (q_net_target.*) is dropped.
        idx = sorted({int(m.group(1)) for k in keys for m in [re.match(r"q_net\.q_net\.(\d+)\.weight$", k)] if m})
        names = [f"q_net.q_net.{i}" for i in idx]
    else:
        idx = sorted({int(m.group(1)) for k in keys for m in [re.match(r"(\d+)\.weight$", k)] if m})
        if not idx:
            fail("no actor found: want SB3's mlp_extractor.policy_net.* and action_net.* "
                 f"(or a Sequential's 0.weight, ...); the keys are {', '.join(keys[:8])}")
        names = [str(i) for i in idx]
    out = []
    for n in names:
        if n + ".weight" not in sd:
            fail(f"missing {n}.weight")
        w = sd[n + ".weight"].detach().double()
        b = sd.get(n + ".bias")
        b = b.detach().double() if b is not None else w.new_zeros(w.shape[0])
        if w.dim() != 2 or b.shape != (w.shape[0],):
            fail(f"{n}: weight of shape {tuple(w.shape)} and bias of shape {tuple(b.shape)}")
        out.append((n, w, b))
    for (n0, w0, _), (n1, w1, _) in zip(out, out[1:]):
        if w1.shape[1] != w0.shape[0]:
            fail(f"{n1} takes {w1.shape[1]} inputs but {n0} gives {w0.shape[0]}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("out")
    ap.add_argument("--activation", choices=sorted(ACTS))
    ap.add_argument("--constants", default="")
    ap.add_argument("--labels", default="")
    ap.add_argument("--vars", default="")
    ap.add_argument("--name", default="")
    a = ap.parse_args()

    import torch
    sd, archived = load(a.checkpoint)
    # SB3's defaults: Tanh for PPO and A2C actors, ReLU for DQN.
    dqn = any(k.startswith("q_net.q_net.") for k in sd)
    act = a.activation or archived or ("relu" if dqn else "tanh")
    if a.activation and archived and a.activation != archived:
        fail(f"--activation {a.activation}, but the archive's policy_kwargs name {archived}")
    ls = layers(sd)
    dropped = sorted({k.rsplit(".", 2)[0] for k in sd if "value_net" in k or k.startswith("q_net_target.")})

    try:
        consts = [float(v) for v in a.constants.split(",") if v.strip()]
    except ValueError:
        fail(f"--constants {a.constants!r}: want numbers separated by commas")
    n, w, b = ls[0]
    if len(consts) >= w.shape[1]:
        fail(f"{len(consts)} constants, but the network has only {w.shape[1]} inputs")
    if consts:
        c = torch.tensor(consts, dtype=torch.float64)
        b = b + w[:, :len(consts)] @ c
        w = w[:, len(consts):]
        ls[0] = (n, w, b)
    n_in, n_out = ls[0][1].shape[1], ls[-1][1].shape[0]

    labels = [v.strip() for v in a.labels.split(",") if v.strip()]
    if labels and len(labels) != n_out:
        fail(f"the actor has {n_out} outputs ({ls[-1][0]}.weight is {n_out}x{ls[-1][1].shape[1]}) "
             f"but {len(labels)} labels were given ({', '.join(labels)}); list one label per output, "
             "in the order of the environment's action indices")
    names = [v.strip() for v in a.vars.split(",") if v.strip()]
    if names and len(names) != n_in:
        fail(f"the network reads {n_in} inputs after the {len(consts)} constants, "
             f"but {len(names)} variables were given ({', '.join(names)})")

    mods = []
    for i, (_, w, b) in enumerate(ls):
        lin = torch.nn.Linear(w.shape[1], w.shape[0]).double()
        with torch.no_grad():
            lin.weight.copy_(w)
            lin.bias.copy_(b)
        mods.append(lin)
        if i < len(ls) - 1:
            mods.append(getattr(torch.nn, ACTS[act])())
    net = torch.nn.Sequential(*mods).eval()
    torch.onnx.export(net, torch.zeros(1, n_in, dtype=torch.float64), a.out,
                      input_names=["obs"], output_names=["logits"],
                      dynamic_axes={"obs": {0: "batch"}, "logits": {0: "batch"}}, opset_version=13)
    import onnx
    onnx.checker.check_model(onnx.load(a.out))

    hidden = "-".join(str(w.shape[0]) for _, w, _ in ls[:-1])
    print(f"wrote {a.out}: {n_in} inputs" + (f" ({len(consts)} constants folded)" if consts else "")
          + f", hidden {hidden or 'none'} {act}, {n_out} outputs")
    if dropped:
        print(f"dropped, not part of the actor: {', '.join(dropped)}")
    if names or labels:
        name = a.name or re.sub(r"\W", "_", os.path.splitext(os.path.basename(a.out))[0])
        print(f'\npolicy nn {name} "{a.out}" {{')
        print(f"    inputs  {', '.join(names) if names else '...'}")
        print(f"    outputs {', '.join(labels) if labels else '...'}")
        print("}")


if __name__ == "__main__":
    main()
