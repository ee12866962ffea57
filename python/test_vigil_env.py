"""The Gymnasium API contract of python/vigil_env.py, without gymnasium.

gymnasium cannot be installed here (no PyPI), so these tests state its
contract themselves and drive the real `vigil env` through the wrapper:
reset(seed=...) -> (obs, info); step -> (obs, reward, terminated,
truncated, info); the same episodes under the same seed whatever the
process's --seed; observations within the declared bounds; terminated
at unsafe, goal and deadlock states and truncated at the step limit; the
action mask; invalid actions; closing the process. Each episode is also
written as a run file and checked by `vigil run --replay`, which replays
it in the explicit semantics bfs uses: every step's command has the
step's label and an enabled guard, its outcome leads exactly to the next
state, no state but the last is terminal, and the ending holds.

    /usr/bin/python3 python/test_vigil_env.py        # vigil on PATH, or VIGIL=path
"""

import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from vigil_env import VigilEnv, VigilError  # noqa: E402

VIGIL = os.environ.get("VIGIL", "vigil")

# Wide ranges (beyond 32 bits), an intermediate value beyond 64 bits
# (x * B + x * B is 2^63 at x = 1: exact, no wrap-around), weighted
# outcomes, two commands of one label (taken uniformly), a state that is
# unsafe and a goal at once (unsafe), a goal, a deadlock.
MODEL = """model wide
const B = 4611686018427387904
var x : -2 .. 2 = 0
var big : -5000000000 .. 5000000000 = 0
var done : bool = false
action up when x < 2 && !done -> 1: x' = x + 1, big' = 4000000000 | 3: x' = x + 1, big' = -4000000000
action down when x > -2 && !done -> x' = (x * B + x * B) / B - x - 1
action down when x > -2 && !done -> x' = x - 1, big' = 0
action stop when !done -> done' = true
property p { start x >= -1 && x <= 1 && big == 0 && !done unsafe x == 2 && big > 0 goal x == 2 || x == -2 }
"""

# A cycle without terminal states: only the step limit ends an episode.
CYCLE = """model cycle
var k : 0 .. 2 = 0
action next -> k' = if k == 2 then 0 else k + 1
action stay -> skip
property q { unsafe false }
"""

# A range error in one outcome of a label's command: taking `a` at x = 0
# is an error whatever outcome would be sampled, as vigil run and bfs
# report it.
RANGE = """model rng
var x : 0 .. 3 = 0
action a -> x' = x + 1 | x' = x + 5
action b -> x' = 0
property r { unsafe x == 3 }
"""


def run_file(model, prop, ending, states, steps, names):
    """An episode as a run file (symbolic/explicit/runfile.go)."""
    out = []
    for i, s in enumerate(states):
        st = {"state": dict(zip(names, s))}
        if i < len(steps):
            label, info = steps[i]
            st.update(label=label, command=info["command"], command_index=info["command_index"], outcome=info["outcome"])
        out.append(st)
    return {"version": 1, "model": model, "property": prop, "policy": "", "end": ending, "steps": out}


class Contract(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="vigil_env_test")
        for name, text in (("wide.spec", MODEL), ("cycle.spec", CYCLE), ("range.spec", RANGE)):
            with open(os.path.join(cls.dir, name), "w", encoding="utf-8") as f:
                f.write(text)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def env(self, name, *args):
        e = VigilEnv(self.path(name), list(args), vigil=VIGIL)
        self.addCleanup(e.close)
        return e

    def episode(self, env, seed, agent_seed, limit=50):
        """One episode of a random agent that picks among the masked
        actions; returns the observations, (label, info) per step, the
        rewards and the final flags."""
        obs, info = env.reset(seed=seed)
        rng = random.Random(agent_seed)
        states, steps, rewards = [list(obs)], [], []
        term, trunc = info["unsafe"] or info["goal"] or info["deadlock"], False
        while not (term or trunc) and len(steps) < limit:
            mask = env.action_masks()
            a = rng.choice([k for k, ok in enumerate(mask) if ok])
            obs, reward, term, trunc, info = env.step(a)
            states.append(list(obs))
            steps.append((env.labels[a], info))
            rewards.append(reward)
        return states, steps, rewards, term, trunc, info

    def test_reset_and_step_signatures(self):
        env = self.env("wide.spec")
        r = env.reset(seed=3)
        self.assertIsInstance(r, tuple)
        self.assertEqual(len(r), 2)
        obs, info = r
        self.assertEqual(len(obs), len(env.vars))
        self.assertTrue(all(isinstance(v, int) for v in obs))
        self.assertIsInstance(info, dict)
        for k in ("unsafe", "goal", "deadlock", "steps"):
            self.assertIn(k, info)
        self.assertEqual(env.action_masks()[env.labels.index("stop")], 1)
        r = env.step(env.labels.index("stop"))
        self.assertEqual(len(r), 5)
        obs, reward, term, trunc, info = r
        self.assertIsInstance(reward, float)
        self.assertIsInstance(term, bool)
        self.assertIsInstance(trunc, bool)
        self.assertIsInstance(info, dict)
        # done: no label applicable, a deadlock, terminated
        self.assertTrue(term)
        self.assertTrue(info["deadlock"])
        self.assertFalse(trunc)
        self.assertEqual(env.action_masks(), [0] * len(env.labels))
        with self.assertRaises(VigilError):
            env.step(0)  # after the episode ended

    def test_step_many_types(self):
        # step_many's steps have step's types (session 24: the
        # observation was a plain list and the reward an int)
        env = self.env("wide.spec")
        env.reset(seed=3)
        steps = env.step_many([env.labels.index("stop")])
        self.assertEqual(len(steps), 1)
        self.assertIsInstance(steps[0]["reward"], float)
        env2 = self.env("wide.spec")
        obs, _ = env2.reset(seed=3)
        obs2, _, _, _, _ = env2.step(env2.labels.index("stop"))
        self.assertEqual(type(steps[0]["obs"]), type(obs2))
        self.assertEqual(list(steps[0]["obs"]), list(obs2))

    def test_determinism_under_seed(self):
        a = self.env("wide.spec", "--seed", "1")
        b = self.env("wide.spec", "--seed", "99")
        for seed in range(12):
            ea = self.episode(a, seed, seed)
            eb = self.episode(b, seed, seed)
            self.assertEqual(ea, eb, f"reset(seed={seed}) under --seed 1 and --seed 99")
            self.assertEqual(ea, self.episode(a, seed, seed), f"reset(seed={seed}) twice")
        # reset() without a seed continues the generator: the same in both
        a.reset(seed=5)
        b.reset(seed=5)
        for _ in range(5):
            self.assertEqual(a.reset(), b.reset())

    def test_observation_bounds(self):
        env = self.env("wide.spec")
        self.assertEqual(env.observation_low, [-2, -5000000000, 0])
        self.assertEqual(env.observation_high, [2, 5000000000, 1])
        self.assertEqual(list(env.observation_space.low), env.observation_low)
        self.assertEqual(list(env.observation_space.high), env.observation_high)
        self.assertEqual(tuple(env.observation_space.shape), (3,))
        self.assertEqual(env.action_space.n, len(env.labels))
        self.assertFalse(env.observation_space.contains([3, 0, 0]))
        self.assertFalse(env.action_space.contains(len(env.labels)))
        seen_wide = False
        for seed in range(40):
            states, *_ = self.episode(env, seed, seed + 1000)
            for s in states:
                self.assertTrue(env.observation_space.contains(s), f"{s} is not in {env.observation_space}")
                for v, lo, hi, name in zip(s, env.observation_low, env.observation_high, env.vars):
                    self.assertTrue(lo <= v <= hi, f"{name} = {v} outside {lo} .. {hi}")
                seen_wide |= abs(s[1]) > 2**31
        self.assertTrue(seen_wide, "no episode left the 32-bit integers: the bounds are not tested")

    def test_terminated_and_truncated(self):
        env = self.env("cycle.spec", "--max-steps", "3")
        obs, info = env.reset(seed=1)
        for i in range(3):
            obs, reward, term, trunc, info = env.step(0)
            self.assertFalse(term)
            self.assertEqual(trunc, i == 2, f"step {i + 1} of 3")
            self.assertEqual(info["steps"], i + 1)
            self.assertEqual(obs, [(i + 1) % 3])
        with self.assertRaises(VigilError):
            env.step(0)  # truncated: reset first
        obs, info = env.reset(seed=1)
        self.assertEqual(info["steps"], 0)
        env.step(1)
        # the goal or an unsafe state at the limit: terminated, not truncated
        wide = self.env("wide.spec", "--max-steps", "1")
        for seed in range(30):
            obs, info = wide.reset(seed=seed)
            if obs[0] == 1:
                obs, reward, term, trunc, info = wide.step(wide.labels.index("up"))
                self.assertTrue(term)
                self.assertFalse(trunc)
                self.assertEqual(info["unsafe"], obs[1] > 0)
                self.assertEqual(info["goal"], obs[1] <= 0)  # unsafe and goal at once counts as unsafe
                return
        self.fail("no start state with x = 1")

    def test_action_mask(self):
        env = self.env("wide.spec")
        for seed in range(20):
            obs, info = env.reset(seed=seed)
            while True:
                mask = env.action_masks()
                if not any(mask):
                    break
                self.assertTrue(all(env.action_space.contains(a) for a, ok in enumerate(mask) if ok))
                for a, ok in enumerate(mask):
                    if not ok:
                        with self.assertRaises(VigilError) as cm:
                            env.step(a)
                        self.assertIn("not applicable", str(cm.exception))
                        self.assertEqual(env.action_masks(), mask, "a refused step changed the state")
                a = random.Random(seed).choice([k for k, ok in enumerate(mask) if ok])
                obs, reward, term, trunc, info = env.step(a)
                if term or trunc:
                    self.assertEqual(env.action_masks(), [0] * len(mask) if term else env.action_masks())
                    break

    def test_invalid_actions(self):
        env = self.env("cycle.spec")
        obs, info = env.reset(seed=1)
        for bad in (-1, len(env.labels), 2**70):
            with self.assertRaises(VigilError):
                env.step(bad)
        for bad in (1.5, "1", None):
            with self.assertRaises(TypeError):
                env.step(bad)
        with self.assertRaises(ValueError):
            env.reset(seed=-1)
        # the session goes on, in the same state
        obs2, reward, term, trunc, info = env.step(1)
        self.assertEqual(obs2, obs)

    def test_step_before_reset_and_close(self):
        env = VigilEnv(self.path("cycle.spec"), vigil=VIGIL)
        proc = env._proc
        env.close()
        self.assertEqual(proc.returncode, 0)
        env.close()  # again: nothing
        with self.assertRaisesRegex(VigilError, "closed"):
            env.step(0)
        with self.assertRaisesRegex(VigilError, "closed"):
            env.reset()

    def test_range_error_as_vigil_run(self):
        env = self.env("range.spec")
        for seed in range(8):
            env.reset(seed=seed)
            with self.assertRaisesRegex(VigilError, "range error: action a, outcome 2 sets x to 5"):
                env.step(0)
        p = subprocess.run([VIGIL, "run", self.path("range.spec"), "--from", "x=0", "--outcomes", "weighted"], capture_output=True, text=True)
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("range error: action a, outcome 2 sets x to 5", p.stderr)

    def test_episodes_replay_in_vigil_run(self):
        env = self.env("wide.spec", "--max-steps", "2")
        endings = set()
        for seed in range(25):
            states, steps, rewards, term, trunc, info = self.episode(env, seed, seed + 7)
            if not steps:
                continue
            ending = "steps"
            if term:
                ending = "unsafe" if info["unsafe"] else "goal" if info["goal"] else "deadlock"
            endings.add(ending)
            rf = run_file("wide", "p", ending, states, steps, env.vars)
            path = os.path.join(self.dir, f"run{seed}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(rf, f)
            p = subprocess.run([VIGIL, "run", self.path("wide.spec"), "--replay", path, "--json"], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, f"episode of seed {seed} does not replay: {p.stderr}")
            got = json.loads(p.stdout)["runs"][0]
            self.assertEqual(got["end"], ending)
            self.assertEqual([[int(s["state"][n]) for n in env.vars] for s in got["steps"]], states)
            # the rewards: -1 a step, +100 at the goal, -100 unsafe
            for r, (label, inf) in zip(rewards, steps):
                self.assertEqual(r, -1.0 + (100.0 if inf["goal"] else 0.0) - (100.0 if inf["unsafe"] else 0.0))
        self.assertLessEqual({"unsafe", "goal", "deadlock", "steps"} - endings, set(), f"endings seen: {endings}")


# A stand-in for gymnasium with the parts the wrapper uses (Env.reset's
# seeding, spaces.Discrete and spaces.Box over numpy): the wrapper's
# gymnasium branch runs, and its observations are numpy arrays in the
# space it declares.
GYM_STUB = {
    "gymnasium/__init__.py": """
import numpy as np
from . import spaces
class Env:
    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        self.reset_seed = seed
""",
    "gymnasium/spaces.py": """
import numpy as np
class Discrete:
    def __init__(self, n):
        self.n = n
    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= x < self.n
class Box:
    def __init__(self, low, high, shape, dtype):
        self.low, self.high, self.shape, self.dtype = low, high, shape, np.dtype(dtype)
        assert self.low.dtype == self.dtype and self.high.dtype == self.dtype, (low.dtype, high.dtype)
        assert self.low.shape == shape and self.high.shape == shape
        assert (self.low <= self.high).all()
    def contains(self, x):
        return isinstance(x, np.ndarray) and x.dtype == self.dtype and x.shape == self.shape and bool(((self.low <= x) & (x <= self.high)).all())
""",
}

GYM_CLIENT = """
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from vigil_env import VigilEnv
env = VigilEnv(sys.argv[2], vigil=sys.argv[3])
obs, info = env.reset(seed=4)
assert env.reset_seed == 4
assert isinstance(obs, np.ndarray) and obs.dtype == np.int64, obs
n = 0
for seed in range(30):
    obs, info = env.reset(seed=seed)
    assert env.observation_space.contains(obs), (obs, env.observation_space.low)
    term = trunc = info["unsafe"] or info["goal"] or info["deadlock"]
    while not (term or trunc):
        a = int(np.flatnonzero(env.action_masks())[seed % sum(env.action_masks())])
        assert env.action_space.contains(a)
        obs, reward, term, trunc, info = env.step(np.int64(a))
        assert env.observation_space.contains(obs) and isinstance(reward, float)
        n += 1
env.close()
print("gym-stub steps", n)
"""


try:
    import numpy  # noqa: F401  (gymnasium needs it; the stand-in does too)

    _HAVE_NUMPY = True
except ImportError:  # pragma: no cover
    _HAVE_NUMPY = False


class WithGymnasiumStub(unittest.TestCase):
    @unittest.skipUnless(_HAVE_NUMPY, "numpy is not installed (gymnasium needs it)")
    def test_gymnasium_branch(self):
        d = tempfile.mkdtemp(prefix="vigil_gym_stub")
        self.addCleanup(shutil.rmtree, d, True)
        for name, text in GYM_STUB.items():
            os.makedirs(os.path.join(d, os.path.dirname(name)), exist_ok=True)
            with open(os.path.join(d, name), "w", encoding="utf-8") as f:
                f.write(text)
        with open(os.path.join(d, "wide.spec"), "w", encoding="utf-8") as f:
            f.write(MODEL)
        with open(os.path.join(d, "client.py"), "w", encoding="utf-8") as f:
            f.write(GYM_CLIENT)
        env = dict(os.environ, PYTHONPATH=d, PYTHONDONTWRITEBYTECODE="1")
        here = os.path.dirname(os.path.abspath(__file__))
        p = subprocess.run([sys.executable, os.path.join(d, "client.py"), here, os.path.join(d, "wide.spec"), VIGIL], capture_output=True, text=True, env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"gym-stub steps [1-9]")


if __name__ == "__main__":
    unittest.main(verbosity=2)
