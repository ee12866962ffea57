#!/usr/bin/python3
"""Train a PyTorch policy on a vigil model through `vigil env`, export it
to ONNX, and have vigil verify it and compute how likely it is to fail.

The loop jani_env users run: REINFORCE with action masks (and exploring
starts) on a small ReLU network (3-16-16-4), trained on specs/cliff.spec
(a robot walking past a cliff in the wind) through python/vigil_env.py,
exported with
torch.onnx.export exactly as PyTorch writes it (the input scaling is a Div
node inside the network), then handed to vigil:

    vigil verify specs/cliff.spec --policy-file OUT.onnx --engine polic3
    vigil verify specs/cliff.spec --policy-file OUT.onnx --engine bfs
    vigil prob   specs/cliff.spec --policy-file OUT.onnx --method exact --json
    vigil prob   specs/cliff.spec --policy-file OUT.onnx --blame 3

The script runs them and prints each verdict, the probabilities of
falling and of reaching the charger (the largest, smallest and average
over the start states, which `vigil env` draws uniformly) beside the
frequencies the greedy policy showed in simulation, and the three
decisions that cost the most probability. It exits 1 when an
engine fails, or when the verdicts contradict each other or the
probability (safe must mean Pr(reach unsafe) = 0).

Needs Debian's python3-torch and python3-onnx, which are installed for
/usr/bin/python3. Deterministic: fixed seeds, one thread.

    go build -o /tmp/vbin/vigil ./cmd/vigil
    PATH=/tmp/vbin:$PATH /usr/bin/python3 python/train_torch.py [OUT.onnx]

(VIGIL=/path/to/vigil instead of PATH works too.)
"""
import json
import os
import random
import subprocess
import sys
import time

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vigil_env import VigilEnv  # noqa: E402

MODEL = "specs/cliff.spec"
# The variables' largest values (W - 1, H - 1, FUEL in specs/cliff.spec):
# the network divides its inputs by them.
SCALE = [5.0, 3.0, 11.0]
# Rewards: 50 at the charger, -10 for a fall, nothing per step (the fuel
# limits the episode).
ENV_ARGS = ["--step-reward", "0", "--goal-reward", "50", "--unsafe-penalty", "10", "--max-steps", "40"]


class Policy(nn.Module):
    """Scores per label from the raw variable values (x, y, fuel)."""

    def __init__(self, n_in, n_out, hidden=16):
        super().__init__()
        self.register_buffer("scale", torch.tensor(SCALE))
        self.net = nn.Sequential(
            nn.Linear(n_in, hidden), nn.ReLU(),
            nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, n_out))

    def forward(self, obs):
        return self.net(obs / self.scale)


def masked(scores, mask):
    """Scores with inapplicable labels at -inf (vigil's arg-max also
    ranges over the applicable labels only)."""
    return scores.masked_fill(~mask, float("-inf"))


def run_episode(env, policy, seed, rng, greedy=False, start=None):
    obs, _ = env.reset(seed=seed, options={"state": start} if start else None)
    steps, ret = [], 0.0
    while True:
        x = torch.tensor([obs], dtype=torch.float32)
        m = torch.tensor([env.action_masks()], dtype=torch.bool)
        with torch.no_grad():
            s = masked(policy(x), m)[0]
        if greedy:
            a = int(torch.argmax(s))
        else:
            p = torch.softmax(s, 0).tolist()
            a = rng.choices(range(len(p)), weights=p)[0]
        obs, reward, terminated, truncated, info = env.step(a)
        steps.append((x[0], m[0], a, reward))
        ret += reward
        if terminated or truncated:
            return steps, ret, info


def exploring_start(rng):
    """Three episodes in four start on a random cell off the cliff with
    some fuel (exploring starts: from the model's start states alone,
    random moves almost never find the charger before the fuel runs out);
    the others at one of the model's start states (None: vigil env draws
    one uniformly)."""
    if rng.random() < 0.25:
        return None
    x, y = rng.randrange(6), rng.randrange(1, 4)
    return {"x": x, "y": y, "fuel": rng.randrange(6, 12)}


def train(env, updates=300, batch=16, lr=0.002, gamma=0.98, seed=1):
    torch.manual_seed(seed)
    rng = random.Random(seed)
    policy = Policy(len(env.vars), len(env.labels))
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    episode = 0
    for u in range(updates):
        xs, ms, acts, rets, outcomes = [], [], [], [], []
        for _ in range(batch):
            steps, _, info = run_episode(env, policy, episode, rng, start=exploring_start(rng))
            episode += 1
            g = 0.0
            for x, m, a, r in reversed(steps):  # discounted return to go
                g = r + gamma * g
                xs.append(x)
                ms.append(m)
                acts.append(a)
                rets.append(g)
            outcomes.append("goal" if info["goal"] else "unsafe" if info["unsafe"] else "other")
        x, m = torch.stack(xs), torch.stack(ms)
        ret = torch.tensor(rets)
        adv = ret - ret.mean()  # the batch mean as baseline
        logp = torch.log_softmax(masked(policy(x), m), 1)
        chosen = logp.gather(1, torch.tensor(acts)[:, None])[:, 0]
        probs = logp.exp()
        entropy = -(probs * logp.masked_fill(~m, 0.0)).sum(1).mean()
        loss = -(chosen * adv).mean() - 0.05 * entropy
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (u + 1) % 50 == 0:
            print(f"update {u + 1} ({episode} episodes): goal {outcomes.count('goal')}/{batch}, "
                  f"fell {outcomes.count('unsafe')}/{batch} in the last batch")
    return policy


def simulate(env, policy, episodes=400):
    """Frequencies of the greedy (arg-max) policy, the one vigil checks."""
    rng = random.Random(0)
    goal = unsafe = 0
    for k in range(episodes):
        _, _, info = run_episode(env, policy, 100000 + k, rng, greedy=True)
        goal += info["goal"]
        unsafe += info["unsafe"]
    return goal / episodes, unsafe / episodes


def vigil(args):
    print("$ vigil", " ".join(args), flush=True)
    return subprocess.run([os.environ.get("VIGIL", "vigil"), *args], capture_output=True, text=True)


def verify(out, engine):
    done = vigil(["verify", MODEL, "--policy-file", out, "--engine", engine])
    first = done.stdout.splitlines()[0] if done.stdout else ""
    print(first)
    if done.returncode not in (0, 3):
        print(done.stderr, end="", file=sys.stderr)
        return None
    return "safe" if done.returncode == 0 else "unsafe"


def main(argv):
    out = argv[0] if argv else "cliff_policy.onnx"
    torch.set_num_threads(1)
    t0 = time.time()
    env = VigilEnv(MODEL, ENV_ARGS, vigil=os.environ.get("VIGIL", "vigil"))
    print(f"{MODEL}: inputs {env.vars}, outputs {env.labels}")
    policy = train(env)
    sim_goal, sim_unsafe = simulate(env, policy)
    env.close()
    print(f"trained in {time.time() - t0:.1f} s; the greedy policy in 400 simulated episodes: "
          f"goal {sim_goal:.3f}, fell {sim_unsafe:.3f}")

    policy.eval()
    torch.onnx.export(policy, torch.zeros(1, len(SCALE)), out, input_names=["obs"], output_names=["scores"])
    print(f"wrote {out} (torch.onnx.export, torch {torch.__version__})")

    verdicts = {engine: verify(out, engine) for engine in ("polic3", "bfs")}
    done = vigil(["prob", MODEL, "--policy-file", out, "--method", "exact", "--json"])
    if done.returncode != 0 or None in verdicts.values():
        print(done.stderr, end="", file=sys.stderr)
        return 1
    figs = {f["query"]: f for f in json.loads(done.stdout)}
    fall = figs["P=? [F unsafe]"]
    goal = figs["P=? [¬unsafe U goal]"]
    for name, f in (("Pr(reach unsafe)", fall), ("Pr(reach goal)", goal)):
        print(f"{name} = {f.get('exact', f['value'])}: largest {f['max']:.6g} at {f['worst_start']}, "
              f"smallest {f['min']:.6g}, average over the {f['start_states']} start states {f['average']:.6g}")
    # Which decisions cost the most probability (each re-solved exactly).
    blame = vigil(["prob", MODEL, "--policy-file", out, "--blame", "3"])
    lines = blame.stdout.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("costliest decisions"):
            print("\n".join(lines[k:k + 4]))
    print(f"summary: polic3 {verdicts['polic3']}, bfs {verdicts['bfs']}, "
          f"Pr(reach unsafe) average {fall['average']:.6g}, Pr(reach goal) average {goal['average']:.6g} "
          f"(simulated: fell {sim_unsafe:.3f}, goal {sim_goal:.3f})")
    if verdicts["polic3"] != verdicts["bfs"]:
        print("error: polic3 and bfs disagree", file=sys.stderr)
        return 1
    if (verdicts["bfs"] == "safe") != (fall["max"] == 0):
        print("error: the verdict contradicts Pr(reach unsafe)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
