#!/usr/bin/python3
"""Trains the policies of the PolIC3 benchmark suite by imitation.

For every instance of suite.json it runs the planner (cmd/dataset) to get
a CSV of states and the planner's labels, then trains

  - MLPs with two hidden ReLU layers of 16, 32 and 64 neurons (PyTorch),
    exported to ONNX as torch.onnx.export writes them (the safe ones are
    also penalised for the probability they give risky labels), and
  - a multi-class XGBoost ensemble, saved with save_model as JSON,

each twice: "safe" imitates the planner, "unsafe" imitates a perturbed
planner that, in a fraction of the states next to danger, takes a risky
label (one with an outcome from which no policy can avoid the unsafe
states). Whether a policy is really safe is for the verifiers to say
(instances.csv records BFS's answers). The inputs are the instance's
variables scaled to [0, 1] by their ranges (constant ones left out), the
outputs its labels that are applicable somewhere; the networks are trained
with the scores of inapplicable labels masked, as vigil's arg-max over
applicable labels reads them.

It then rewrites the policy section of each spec file (between
"// BEGIN POLICIES" and "// END POLICIES"), writes the policy list of
instances.csv (keeping no BFS answers: run `make record` afterwards), and
compares every policy with the planner (cmd/dataset -check).

Needs Debian's python3-torch, python3-xgboost and python3-onnx, and Go.
Everything is seeded; one thread, deterministic algorithms.

    /usr/bin/python3 train.py [--only NAME[,NAME...]] [--seed S]
"""

import argparse
import csv
import json
import os
import random
import subprocess
import sys
import time

import numpy as np
import torch
import xgboost as xgb

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
MODELS = os.path.join(HERE, "models")

ARCHS = [16, 32, 64]        # hidden layer widths (two layers each)
VARIANTS = ["safe", "unsafe"]
PERTURB = 0.5               # unsafe: fraction of states next to danger whose label becomes risky
ROWS = 200_000              # at most this many dataset rows per instance
MAX_STATES = 2_000_000      # the planner's exploration limit
STEPS = 4000                # MLP optimizer steps
BATCH = 256
TREE_BUDGET = 48_000        # bytes of XGBoost JSON per tree policy, about
SAFETY_WEIGHT = 4.0         # weight of states with a risky label
RISK_PENALTY = 5.0          # safe MLPs: loss per unit of probability on risky labels


def log(*a):
    print(*a, flush=True)


def build_dataset_tool():
    os.makedirs(DATA, exist_ok=True)
    exe = os.path.join(DATA, "dataset")
    subprocess.run(["go", "build", "-o", exe, "./cmd/dataset"], cwd=HERE, check=True)
    return exe


def defines_args(defines):
    out = []
    for k, v in defines.items():
        out += ["-D", f"{k}={v}"]
    return out


def run_planner(exe, spec, inst, seed):
    path = os.path.join(DATA, inst["name"] + ".csv")
    cmd = [exe, "-seed", str(seed), "-rows", str(ROWS), "-max-states", str(MAX_STATES), "-o", path]
    if "max_starts" in inst:
        cmd += ["-max-starts", str(inst["max_starts"])]
    cmd += defines_args(inst["defines"]) + [spec]
    subprocess.run(cmd, cwd=HERE, check=True)
    with open(path + ".meta.json") as f:
        meta = json.load(f)
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return meta, rows


class Data:
    """The arrays of one instance."""

    def __init__(self, meta, rows, rng):
        self.vars = [v for v in meta["vars"] if v["hi"] > v["lo"]]
        used = set()
        for r in rows:
            used.update(r["applicable"].split("|"))
        self.labels = [l for l in meta["labels"] if l in used]
        index = {l: i for i, l in enumerate(self.labels)}
        n, k = len(rows), len(self.labels)
        self.x = np.zeros((n, len(self.vars)), dtype=np.float32)
        for j, v in enumerate(self.vars):
            lo, hi = v["lo"], v["hi"]
            self.x[:, j] = [(int(r[v["name"]]) - lo) / (hi - lo) for r in rows]
        self.mask = np.zeros((n, k), dtype=bool)
        self.y = {"safe": np.zeros(n, dtype=np.int64), "unsafe": np.zeros(n, dtype=np.int64)}
        self.w = np.ones(n, dtype=np.float32)
        self.critical = np.zeros(n, dtype=bool)
        self.risky = np.zeros((n, k), dtype=bool)
        flipped = 0
        for i, r in enumerate(rows):
            for l in r["applicable"].split("|"):
                self.mask[i, index[l]] = True
            self.y["safe"][i] = self.y["unsafe"][i] = index[r["label"]]
            risky = [l for l in r["risky"].split("|") if l]
            for l in risky:
                self.risky[i, index[l]] = True
            if r["winning"] == "0":
                self.w[i] = 0.25
            elif risky:
                self.critical[i] = True
                self.w[i] = SAFETY_WEIGHT
                if rng.random() < PERTURB:
                    self.y["unsafe"][i] = index[rng.choice(risky)]
                    flipped += 1
        self.flipped = flipped

    def inputs_text(self):
        parts = []
        for v in self.vars:
            lo, hi = v["lo"], v["hi"]
            name = v["name"]
            if lo == 0:
                parts.append(f"{name} / {hi}")
            else:
                sign = "+" if lo < 0 else "-"
                parts.append(f"({name} {sign} {abs(lo)}) / {hi - lo}")
        return ", ".join(parts)


def accuracy(scores, data, y):
    s = np.where(data.mask, scores, -np.inf)
    pred = s.argmax(axis=1)
    ok = pred == y
    return 100 * ok.mean(), 100 * ok[data.critical].mean() if data.critical.any() else 100.0


def train_mlp(data, variant, width, seed):
    torch.manual_seed(seed)
    n_in, n_out = data.x.shape[1], len(data.labels)
    net = torch.nn.Sequential(
        torch.nn.Linear(n_in, width), torch.nn.ReLU(),
        torch.nn.Linear(width, width), torch.nn.ReLU(),
        torch.nn.Linear(width, n_out))
    x = torch.from_numpy(data.x)
    y = torch.from_numpy(data.y[variant])
    w = torch.from_numpy(data.w)
    mask = torch.from_numpy(data.mask)
    # safe policies also pay for the probability they give risky labels
    risky = torch.from_numpy(data.risky) if variant == "safe" else None
    opt = torch.optim.Adam(net.parameters(), lr=1e-2)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, STEPS)
    g = torch.Generator().manual_seed(seed)
    n = x.shape[0]
    for step in range(STEPS):
        idx = torch.randint(0, n, (min(BATCH, n),), generator=g)
        logits = net(x[idx]).masked_fill(~mask[idx], -1e9)
        per_row = torch.nn.functional.cross_entropy(logits, y[idx], reduction="none")
        if risky is not None:
            per_row = per_row + RISK_PENALTY * (logits.softmax(dim=1) * risky[idx]).sum(dim=1)
        loss = (per_row * w[idx]).sum() / w[idx].sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
    with torch.no_grad():
        scores = net(x).numpy()
    return net, scores


def export_onnx(net, n_in, path):
    net.eval()
    torch.onnx.export(net, torch.zeros(1, n_in), path, input_names=["x"], output_names=["scores"])


def train_trees(data, variant, seed, path):
    k = len(data.labels)
    dm = xgb.DMatrix(data.x, label=data.y[variant], weight=data.w)
    # the size of the JSON file grows with trees x nodes: fewer rounds for
    # more classes
    depth = 5
    rounds = max(2, min(12, TREE_BUDGET // (k * 2 * 900)))
    params = {"objective": "multi:softprob", "num_class": k, "max_depth": depth, "eta": 0.5,
              "seed": seed, "nthread": 1, "tree_method": "exact", "verbosity": 0}
    b = xgb.train(params, dm, rounds)
    b.save_model(path)
    scores = b.predict(xgb.DMatrix(data.x), output_margin=True)
    return scores, rounds, depth


# The constants that set a domain's shape (its arrays' sizes): a policy is
# declared `when` they have its instance's values, since its inputs and
# outputs name elements and labels that exist for that shape only.
SHAPE = {"blocks.spec": ["N"], "npuzzle.spec": ["R", "C"]}


def policy_block(spec, inst, defines, data, trained):
    d = " ".join(f"-D {k}={v}" for k, v in defines.items())
    out = [f"// instance {inst}: {d}"]
    outputs = ", ".join(data.labels)
    when = " && ".join(f"{k} == {defines[k]}" for k in SHAPE.get(spec, []))
    for name, kind, file in trained:
        out.append(f'policy {kind} {name} "{file}"' + (f" when {when}" if when else "") + " {")
        out.append(f"    inputs  {data.inputs_text()}")
        out.append(f"    outputs {outputs}")
        out.append("}")
    return "\n".join(out) + "\n"


def write_policies(spec, blocks):
    path = os.path.join(HERE, spec)
    text = open(path).read()
    begin = text.index("// BEGIN POLICIES")
    begin = text.index("\n", begin) + 1
    end = text.index("// END POLICIES")
    text = text[:begin] + "\n".join(blocks) + text[end:]
    with open(path, "w") as f:
        f.write(text)
    # keep the spec in vigil fmt's canonical form (lang's
    # TestS31fSpecsOutsideSpecsCanonical checks it)
    subprocess.run(["go", "run", "vigil/cmd/vigil", "fmt", "-w", path], cwd=HERE, check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="train only these instances or domains (comma-separated)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    only = set(args.only.split(",")) if args.only else None
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    os.makedirs(MODELS, exist_ok=True)
    with open(os.path.join(HERE, "suite.json")) as f:
        suite = json.load(f)
    exe = build_dataset_tool()
    listing = os.path.join(HERE, "policies.csv")
    old = {}
    if os.path.exists(listing):
        with open(listing) as f:
            for r in csv.DictReader(f):
                old[r["policy"]] = r
    fields = ["domain", "instance", "spec", "defines", "policy", "kind", "arch", "variant", "file", "bytes",
              "accuracy", "accuracy_critical"]
    begin_all = time.time()
    for dom in suite["domains"]:
        blocks = []
        dom_selected = only is None or dom["name"] in only
        for inst in dom["instances"]:
            name = inst["name"]
            if not (dom_selected or name in only):
                # keep what an earlier run wrote for this instance
                if b := existing_block(dom["spec"], name):
                    blocks.append(b)
                continue
            t0 = time.time()
            meta, rows = run_planner(exe, dom["spec"], inst, args.seed)
            rng = random.Random(f"{args.seed}/{name}")
            data = Data(meta, rows, rng)
            log(f"{name}: {len(rows)} rows, {len(data.vars)} inputs, {len(data.labels)} outputs, "
                f"{int(data.critical.sum())} next to danger ({data.flipped} perturbed), planner {meta['seconds']:.1f}s")
            trained = []
            for variant in VARIANTS:
                for width in ARCHS:
                    t1 = time.time()
                    pname = f"{name}_{width}x{width}_{variant}"
                    file = f"models/{pname}.onnx"
                    net, scores = train_mlp(data, variant, width, args.seed)
                    export_onnx(net, data.x.shape[1], os.path.join(HERE, file))
                    acc, accc = accuracy(scores, data, data.y[variant])
                    log(f"  {pname}: accuracy {acc:.1f}% (next to danger {accc:.1f}%), {time.time() - t1:.1f}s")
                    trained.append((pname, "nn", file))
                    old[pname] = row(dom, inst, pname, "nn", f"{width}x{width}", variant, file, acc, accc)
                t1 = time.time()
                pname = f"{name}_trees_{variant}"
                file = f"models/{pname}.json"
                scores, rounds, depth = train_trees(data, variant, args.seed, os.path.join(HERE, file))
                acc, accc = accuracy(scores, data, data.y[variant])
                log(f"  {pname}: {rounds} rounds x {len(data.labels)} classes, depth {depth}: "
                    f"accuracy {acc:.1f}% (next to danger {accc:.1f}%), {time.time() - t1:.1f}s")
                trained.append((pname, "trees", file))
                old[pname] = row(dom, inst, pname, "trees", "trees", variant, file, acc, accc)
            blocks.append(policy_block(dom["spec"], name, inst["defines"], data, trained))
            log(f"{name}: {time.time() - t0:.1f}s")
        write_policies(dom["spec"], blocks)
    # the listing, in suite order
    order = [(d, i) for d in suite["domains"] for i in d["instances"]]
    with open(listing, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        for d, i in order:
            for variant in VARIANTS:
                for arch in [f"{a}x{a}" for a in ARCHS] + ["trees"]:
                    pname = f"{i['name']}_{arch}_{variant}"
                    if pname in old:
                        r = old[pname]
                        r["bytes"] = os.path.getsize(os.path.join(HERE, r["file"]))
                        w.writerow({k: r[k] for k in fields})
    log(f"training: {time.time() - begin_all:.0f}s")
    for dom in suite["domains"]:
        for inst in dom["instances"]:
            if only is None or dom["name"] in only or inst["name"] in only:
                names = ",".join(f"{inst['name']}_{a}_{v}" for v in VARIANTS
                                 for a in [f"{a}x{a}" for a in ARCHS] + ["trees"])
                starts = ["-max-starts", str(inst["max_starts"])] if "max_starts" in inst else []
                subprocess.run([exe, "-seed", str(args.seed), "-max-states", str(MAX_STATES), "-check", names] + starts
                               + defines_args(inst["defines"]) + [dom["spec"]], cwd=HERE, check=True)


def row(dom, inst, pname, kind, arch, variant, file, acc, accc):
    return {"domain": dom["name"], "instance": inst["name"], "spec": dom["spec"],
            "defines": " ".join(f"-D {k}={v}" for k, v in inst["defines"].items()),
            "policy": pname, "kind": kind, "arch": arch, "variant": variant, "file": file,
            "accuracy": f"{acc:.1f}", "accuracy_critical": f"{accc:.1f}"}


def existing_block(spec, inst):
    text = open(os.path.join(HERE, spec)).read()
    start = text.find(f"// instance {inst}:")
    if start < 0:
        return ""  # not trained yet
    end = text.find("// instance ", start + 1)
    if end < 0:
        end = text.index("// END POLICIES")
    return text[start:end].rstrip("\n") + "\n"


if __name__ == "__main__":
    main()
