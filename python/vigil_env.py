"""A Gymnasium-style environment over a vigil model, through `vigil env`.

Standard library only: the model's semantics stay in vigil, which speaks
JSON lines on a pipe (see `vigil help env`). When gymnasium is installed,
VigilEnv subclasses gymnasium.Env and has observation and action spaces;
without it, it has the same methods:

    env = VigilEnv("specs/lang_grid.spec")
    obs, info = env.reset(seed=7)
    mask = env.action_masks()           # 1 where a label is applicable
    obs, reward, terminated, truncated, info = env.step(0)
    env.close()

env.action_space and env.observation_space are gymnasium's spaces
(without gymnasium, stand-ins with n, low, high, shape and contains());
env.observation_low and env.observation_high are each variable's range; info of a step names its command and
outcome as a run file does, so that an episode replays in `vigil run
--replay` (python/test_vigil_env.py states the Gymnasium contract).

Run `python3 python/vigil_env.py MODEL [-D N=V ...]` for a random-agent
demonstration and the steps per second through the pipe.
"""

import json
import operator
import random
import subprocess
import sys
import time

try:  # optional
    import gymnasium as _gym
    import numpy as _np
    from gymnasium import spaces as _spaces

    _Base = _gym.Env
except ImportError:  # pragma: no cover - without gymnasium
    _gym = None
    _np = None
    _spaces = None
    _Base = object


class _Discrete:
    """gymnasium.spaces.Discrete's attributes, without gymnasium: the
    actions 0 .. n-1."""

    def __init__(self, n):
        self.n, self.start, self.shape = n, 0, ()

    def contains(self, x):
        try:
            return 0 <= operator.index(x) < self.n
        except TypeError:
            return False

    def __repr__(self):
        return f"Discrete({self.n})"


class _Box:
    """gymnasium.spaces.Box's attributes, without gymnasium: integer
    vectors with each entry in its bounds (lists, not numpy arrays)."""

    def __init__(self, low, high):
        self.low, self.high, self.shape, self.dtype = list(low), list(high), (len(low),), "int64"

    def contains(self, x):
        try:
            x = [operator.index(v) for v in x]
        except TypeError:
            return False
        return len(x) == len(self.low) and all(lo <= v <= hi for v, lo, hi in zip(x, self.low, self.high))

    def __repr__(self):
        return f"Box({self.low}, {self.high}, {self.shape}, int64)"


class VigilError(RuntimeError):
    """An error object returned by vigil env (the session goes on)."""


class VigilEnv(_Base):
    """The model FILE as an environment; extra arguments go to vigil env
    (for example ["-D", "N=4", "--property", "p", "--max-steps", "200"])."""

    metadata = {"render_modes": []}

    def __init__(self, model, args=(), vigil="vigil"):
        self._proc = subprocess.Popen(
            [vigil, "env", model, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            # JSON lines are UTF-8 whatever the locale (an error may quote
            # a path or a name that is not ASCII).
            encoding="utf-8",
            bufsize=1,
        )
        self._mask = None
        self._closed = False
        self.labels = None
        self.vars = None
        try:
            first = self._call({"op": "reset"})
        except BaseException:
            # No start state (or a bad model): vigil env must not outlive
            # the error, which keeps this object alive in its traceback.
            self._stop()
            raise
        self.labels, self.vars = first["labels"], first["vars"]
        self._mask = first["mask"]
        # The bounds of each observation entry: its variable's range (vigil
        # before session 24 did not send them; every range fits int64).
        self.observation_low = first.get("low", [-(2**63) + 1] * len(self.vars))
        self.observation_high = first.get("high", [2**63 - 2] * len(self.vars))
        if _spaces is not None:
            self.action_space = _spaces.Discrete(len(self.labels))
            self.observation_space = _spaces.Box(
                low=_np.array(self.observation_low, dtype=_np.int64),
                high=_np.array(self.observation_high, dtype=_np.int64),
                shape=(len(self.vars),),
                dtype=_np.int64,
            )
        else:  # the same attributes and contains(), without gymnasium
            self.action_space = _Discrete(len(self.labels))
            self.observation_space = _Box(self.observation_low, self.observation_high)

    def _exited(self):
        """The error of a vigil env that has exited (a bad model or flag:
        its message went to stderr)."""
        try:
            code = self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            return VigilError("vigil env closed the pipe")
        return VigilError(f"vigil env exited with status {code} before answering (its message is on stderr)")

    def _obs(self, obs):
        """An observation as the observation space holds it (a numpy
        array with gymnasium, else a list of ints)."""
        return _np.array(obs, dtype=_np.int64) if _np is not None else obs

    def _call(self, request):
        if self._closed:
            raise VigilError("the environment is closed")
        if self._proc.poll() is not None:
            raise self._exited()
        try:
            self._proc.stdin.write(json.dumps(request) + "\n")
            self._proc.stdin.flush()
        except BrokenPipeError:
            raise self._exited() from None
        line = self._proc.stdout.readline()
        if not line:
            raise self._exited()
        reply = json.loads(line)
        if "error" in reply:
            raise VigilError(reply["error"])
        return reply

    def reset(self, seed=None, options=None):
        """Starts an episode; options={"state": {"x": 1, ...}} sets the state.
        A start state may be terminal already: then info["unsafe"],
        info["goal"] or info["deadlock"] is true, the mask is all 0 and the
        episode is over (step is an error; reset again)."""
        if _gym is not None:
            super().reset(seed=seed)
        request = {"op": "reset"}
        if seed is not None:
            seed = operator.index(seed)  # an int (numpy's too), not 1.5
            if not 0 <= seed < 2**64:
                raise ValueError(f"seed {seed}: give an integer in 0 .. 2**64 - 1")
            request["seed"] = seed
        if options and "state" in options:
            request["state"] = options["state"]
        reply = self._call(request)
        self._mask = reply["mask"]
        return self._obs(reply["obs"]), reply["info"]

    def step(self, action):
        """One step of label `action` (an int, numpy's too; 1.5 or "1" is a
        TypeError, not label 1). An action out of range or not applicable,
        a step before reset or after the episode ended, raises VigilError
        and leaves the state as it was."""
        reply = self._call({"op": "step", "action": operator.index(action)})
        self._mask = reply["mask"]
        # JSON writes the reward -1.0 as -1: a float whatever it reads
        return self._obs(reply["obs"]), float(reply["reward"]), reply["terminated"], reply["truncated"], reply["info"]

    def step_many(self, actions):
        """Several steps in one round trip; stops where the episode ends or
        an action is not applicable (that step is an error dict). Each
        step is a dict whose "obs" and "reward" have step's types."""
        reply = self._call({"op": "step_many", "actions": [operator.index(a) for a in actions]})
        steps = reply["steps"] or []  # vigil before session 22 sent null for []
        for s in steps:
            if "mask" in s:
                self._mask = s["mask"]
            # the same types as step's: the observation as reset and step
            # give it, the reward a float (JSON writes -1.0 as -1)
            if "obs" in s:
                s["obs"] = self._obs(s["obs"])
            if "reward" in s:
                s["reward"] = float(s["reward"])
        return steps

    def action_masks(self):
        """1 for each applicable label (sb3-contrib's MaskablePPO reads this)."""
        return list(self._mask)

    def close(self):
        """Ends vigil env; closing again does nothing, and any other call
        after it raises VigilError."""
        if self._closed:
            return
        if self._proc.poll() is None:
            try:
                self._call({"op": "close"})
            except VigilError:
                pass
        self._closed = True
        self._stop()

    def _stop(self):
        """Ends vigil env: end of input, then (if it does not exit) SIGKILL."""
        try:
            self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._proc.stdout.close()


def _demo(argv):
    if not argv:
        print(__doc__)
        return 2
    env = VigilEnv(argv[0], argv[1:])
    rng = random.Random(1)
    steps, episodes, goals, unsafe, dead_starts = 0, 0, 0, 0, 0
    start = time.time()
    while steps < 20000 and episodes < 100000:
        _, info = env.reset(seed=episodes)
        episodes += 1
        if info["unsafe"] or info["goal"] or info["deadlock"]:
            # A terminal start state: the episode is over before a step.
            goals += info["goal"]
            unsafe += info["unsafe"]
            dead_starts += info["deadlock"]
            continue
        while True:
            mask = env.action_masks()
            choices = [a for a, ok in enumerate(mask) if ok]
            obs, reward, terminated, truncated, info = env.step(rng.choice(choices))
            steps += 1
            if terminated or truncated:
                goals += info["goal"]
                unsafe += info["unsafe"]
                break
    single = steps / (time.time() - start)
    # Batched: one step_many per episode with a fixed action, to measure
    # the pipe with fewer round trips.
    start, batched = time.time(), 0
    for k in range(2000):
        env.reset(seed=k)
        batched += sum(1 for s in env.step_many([0] * 50) if "obs" in s)
    many = batched / (time.time() - start)
    env.close()
    line = f"{episodes} episodes of a random agent: {goals} reached the goal, {unsafe} an unsafe state"
    if dead_starts:
        line += f", {dead_starts} started in a deadlock"
    print(line)
    print(f"steps per second: {single:.0f} single, {many:.0f} batched (step_many)")
    return 0


if __name__ == "__main__":
    sys.exit(_demo(sys.argv[1:]))
