#!/usr/bin/env python3
# Session 31 review (h-rev): a CLI differential over random small .spec models
# (int64-edge ranges, unclamped assignments, arrays at variable indices,
# rules policies and vigil-JSON networks with 1e300/1e-300/2^53 weights,
# argmax all, goals). Per model: verify --engine bfs vs bdd (verdict and
# state count); with --orders every --bdd-order and bfs -j 3; --safe:
# safe --starts with propu-bdd/propu/tarjan at radius 0, inf (and 1 with
# propu/tarjan/ipi); --fuzz: vigil test --record, every run replayed with
# vigil run --replay, and no bug where bfs says safe; --goal: goal-mode
# records replayed; --polic3/--ppa: ic3 (polic3) and ppa against bfs.
# Usage: VIGIL=/path/to/vigil python3 s31r_cli_diff.py FIRST_SEED END_SEED [flags]
# A model that disagrees is kept in $TMPDIR/s31r_diff/sSEED; the others are removed.
import random, json, subprocess, sys, os, glob, shutil
V = os.environ.get("VIGIL", "vigil")
W = [0, 0, 1, -1, 0.5, -0.5, 3, 1e300, -1e300, 1e-300, 1e16, 2.0**53, 0.1]
def gen(seed, d):
    r = random.Random(seed)
    nv = r.randint(1, 3)
    vs = []
    for i in range(nv):
        base = r.choice([0, -3, 0, 0, -1, 5, 9223372036854775800 - 10, -9223372036854775800])
        vs.append(("v%d" % i, base, base + r.randint(1, 6)))
    def iexpr(depth=0):
        v = r.choice(vs)
        t = r.randint(0, 7)
        if depth > 1 or t < 3:
            return r.choice([v[0], str(r.randint(-3, 3))]) if t else v[0]
        a, b = iexpr(depth+1), iexpr(depth+1)
        return r.choice(["(%s + %s)" % (a, b), "(%s - %s)" % (a, b), "min(%s, %s)" % (a, b), "max(%s, %s)" % (a, b),
                         "(%s / %d)" % (a, r.choice([1, 2, 3, 7])), "abs(%s)" % a, "(%d * %s)" % (r.randint(-3, 3), a),
                         "(if %s then %s else %s)" % (cond(depth+1), a, b)])
    def cond(depth=0):
        t = r.randint(0, 5)
        if depth > 1 or t < 3:
            return "%s %s %s" % (iexpr(depth+1), r.choice(["<", "<=", "==", "!=", ">", ">="]), iexpr(depth+1))
        return "(%s %s %s)" % (cond(depth+1), r.choice(["&&", "||"]), cond(depth+1))
    nl = r.randint(2, 4)
    labels = ["a%d" % i for i in range(nl)]
    out = ["model m%d" % seed]
    for n, lo, hi in vs:
        out.append("var %s : %d .. %d" % (n, lo, hi))
    clamp = r.random() < 0.85
    for l in labels:
        guard = "" if r.random() < 0.3 else " when " + cond()
        outs = []
        for k in range(r.randint(1, 2)):
            asg = []
            for n, lo, hi in r.sample(vs, r.randint(1, len(vs))):
                e = iexpr()
                if clamp:
                    e = "max(%d, min(%d, %s))" % (lo, hi, e)
                asg.append("%s' = %s" % (n, e))
            outs.append(", ".join(asg))
        out.append("action %s%s -> %s" % (l, guard, " | ".join(outs)))
    if r.random() < 0.5:
        alen = r.randint(2, 3)
        out.insert(1 + len(vs), "var arr : [0 .. %d] of 0 .. 3 = %d" % (alen - 1, r.randint(0, 3)))
        v = r.choice(vs)[0]
        idx = r.choice([v, "%s + 1" % v, "%s - 1" % v, "abs(%s)" % v, "%s / 2" % v])
        g = r.choice(["", " when %s >= 0 && %s < %d && arr[%s] < 3" % (v, v, alen, v), " when arr[%s] != 2" % idx, " when arr[0] < 3"])
        rhs = r.choice(["arr[%s] + 1" % idx, "min(3, arr[%s] + 1)" % idx, "max(0, arr[0] - 1)", "(arr[%s] + arr[0]) / 2" % idx, "1"])
        lhs = r.choice(["arr[%s]" % idx, "arr[0]", "arr[%s]" % v])
        extra = r.choice(["", ", arr[%d]' = 0" % (alen - 1), ", %s' = %s" % (v, [x for x in vs if x[0] == v][0][1])])
        labels.append("arr_act")
        out.append("action arr_act%s -> %s' = %s%s" % (g, lhs, rhs, extra))
        nl += 1
        if r.random() < 0.5:
            out.append("action arr_b when %s < 1 -> arr' = [%s]" % (r.choice(vs)[0], ", ".join(str(r.randint(0, 3)) for _ in range(alen))))
            labels.append("arr_b"); nl += 1
    kind = r.choice(["nn", "nn", "rules"])
    if kind == "nn":
        nin = len(vs)
        hid = r.randint(1, 3)
        layers = []
        sizes = [nin, hid, nl] if r.random() < 0.7 else [nin, nl]
        for i in range(1, len(sizes)):
            layers.append({"weights": [[r.choice(W) if r.random() < 0.6 else round(r.gauss(0, 1), 3) for _ in range(sizes[i-1])] for _ in range(sizes[i])],
                           "bias": [r.choice(W) if r.random() < 0.5 else 0 for _ in range(sizes[i])],
                           "activation": r.choice(["relu", "linear", "tanh", "sigmoid"]) if i < len(sizes)-1 else "linear"})
        json.dump({"format": "vigil-nn", "version": 1, "layers": layers}, open(os.path.join(d, "net.json"), "w"))
        ins = []
        for n, lo, hi in vs:
            ins.append(r.choice([n, "(%s - %d) / %d" % (n, lo, r.choice([1, 3, 7])), n]))
        outs = labels[:]
        r.shuffle(outs)
        out.append('policy nn pi "net.json" {\n inputs %s\n outputs %s\n%s}' % (", ".join(ins), ", ".join(outs), " argmax all\n" if r.random() < 0.3 else ""))
    else:
        rules = ["  when %s -> %s" % (cond(), r.choice(labels)) for _ in range(r.randint(0, 2))]
        out.append("policy rules pi {\n%s\n  otherwise -> %s\n}" % ("\n".join(rules), r.choice(labels)))
    goal = ("\n goal " + cond()) if r.random() < 0.3 else ""
    def atom():
        n, lo, hi = r.choice(vs)
        return "%s %s %d" % (n, r.choice(["==", ">=", "<=", "!="]), r.randint(lo, hi))
    start = r.choice([cond(), " && ".join("%s == %d" % (n, r.randint(lo, hi)) for n, lo, hi in vs), atom()])
    uns = [atom(), atom() + " && " + atom(), cond()]
    if any("arr" in l for l in out):
        uns.append("arr[0] == 3"); uns.append("arr[1] == 0 && " + atom())
    out.append("property p {\n start %s\n unsafe %s%s\n}" % (start, r.choice(uns), goal))
    src = "\n".join(out) + "\n"
    open(os.path.join(d, "m.spec"), "w").write(src)
    return src

def run(args, timeout=60):
    try:
        p = subprocess.run([V] + args, capture_output=True, text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "TIMEOUT", "", ""

import re
lo_, hi_ = int(sys.argv[1]), int(sys.argv[2])
stats = {}
for seed in range(lo_, hi_):
    d = os.path.join(os.environ.get("TMPDIR", "/tmp"), "s31r_diff", "s%d" % seed)
    shutil.rmtree(d, ignore_errors=True); os.makedirs(d)
    src = gen(seed, d)
    spec = os.path.join(d, "m.spec")
    rc, o, e = run(["check", spec])
    if rc != 0:
        stats["badcheck"] = stats.get("badcheck", 0) + 1
        continue
    b = run(["verify", spec, "--engine", "bfs", "--quiet", "--timeout", "20"])
    z = run(["verify", spec, "--engine", "bdd", "--quiet", "--timeout", "20"])
    stats[b[0]] = stats.get(b[0], 0) + 1
    def count(s):
        m = re.search(r"engine \w+: (\d+) states?", s)
        return m and m.group(1)
    bad = False
    if "more than 64 bits" in z[2]:
        stats["bddrefused"] = stats.get("bddrefused", 0) + 1
    elif b[0] != z[0] and b[0] != 4 and z[0] != 4:
        if not (b[0] in (1, 3) and z[0] in (1, 3)):  # range error vs unsafe at same depth allowed
            print("SEED", seed, "bfs", b[0], "bdd", z[0]); print(b[1][:500], b[2][:300]); print(z[1][:500], z[2][:300]); bad = True
    if b[0] == 0 and z[0] == 0 and count(b[1]) != count(z[1]):
        print("SEED", seed, "counts", count(b[1]), count(z[1])); bad = True
    if "--orders" in sys.argv and "more than 64 bits" not in z[2]:
        for extra in (["--engine", "bdd", "--bdd-order", "bitwise"], ["--engine", "bdd", "--bdd-order", "blocked"], ["--engine", "bdd", "--bdd-order", "interleaved"], ["--engine", "bfs", "-j", "3"]):
            o = run(["verify", spec, "--quiet", "--timeout", "20"] + extra)
            if o[0] != z[0] or (o[0] == 0 and count(o[1]) != count(b[1])) or (o[0] == 3 and o[1].splitlines()[0] != (z[1] if "bdd" in extra else b[1]).splitlines()[0]):
                print("SEED", seed, extra, o[0], z[0], o[1][:300], z[1][:300], o[2][:200]); bad = True
    if b[0] in (0, 3) and "--fuzz" in sys.argv:
        rec = os.path.join(d, "rec")
        t = run(["test", spec, "--budget", "1", "--quiet", "--record", rec], timeout=30)
        if t[0] == "TIMEOUT" or t[0] not in (0, 3, 4, 1):
            print("SEED", seed, "test rc", t[0], t[2][:300]); bad = True
        if b[0] == 0 and t[0] == 3:
            print("SEED", seed, "bfs safe but test found bugs"); print(t[1][:800]); bad = True
        for f in glob.glob(rec + "/*.json"):
            rr = run(["run", spec, "--replay", f, "--quiet"])
            if rr[0] not in (0, 3):
                print("SEED", seed, "replay", f, rr[0], rr[1][-300:], rr[2][:300]); bad = True
    if "--goal" in sys.argv and " goal " in src:
        rec = os.path.join(d, "grec")
        t = run(["test", spec, "--mode", "goal", "--budget", "1", "--quiet", "--record", rec], timeout=30)
        stats["goal%s" % t[0]] = stats.get("goal%s" % t[0], 0) + 1
        if t[0] == "TIMEOUT" or t[0] not in (0, 3, 4, 1):
            print("SEED", seed, "goal test rc", t[0], t[2][:300]); bad = True
        for f in sorted(glob.glob(rec + "/*.json")):
            rr = run(["run", spec, "--replay", f, "--quiet"])
            stats["greplay%s" % rr[0]] = stats.get("greplay%s" % rr[0], 0) + 1
            if rr[0] not in (0, 3):
                print("SEED", seed, "goal replay", f, rr[0], rr[1][-300:], rr[2][:300]); bad = True
    if "--ppa" in sys.argv and b[0] in (0, 3):
        pz = run(["verify", spec, "--engine", "ppa", "--quiet", "--timeout", "10"], timeout=40)
        stats["ppa%s" % pz[0]] = stats.get("ppa%s" % pz[0], 0) + 1
        if pz[0] in (0, 3) and pz[0] != b[0]:
            print("SEED", seed, "bfs", b[0], "ppa", pz[0]); print(pz[1][:500]); bad = True
        if pz[0] not in (0, 3, 4, 1):
            print("SEED", seed, "ppa rc", pz[0], pz[2][:400]); bad = True
    if "--polic3" in sys.argv and b[0] in (0, 3):
        pz = run(["verify", spec, "--engine", "ic3", "--quiet", "--timeout", "10"], timeout=40)
        if pz[0] in (0, 3) and pz[0] != b[0]:
            print("SEED", seed, "bfs", b[0], "polic3", pz[0]); print(pz[1][:500]); bad = True
        if pz[0] not in (0, 3, 4, 1):
            print("SEED", seed, "polic3 rc", pz[0], pz[2][:400]); bad = True
    if "--safe" in sys.argv:
        def parse(o):
            res = set()
            for line in o.splitlines():
                tk = line.split()
                if line.startswith("  ") and tk and tk[0] in ("safe", "unsafe", "0-safe", "r-safe") or (tk and "=" in line and line.startswith("  ") and tk[0] != "verdict"):
                    res.add((tk[0], " ".join(t for t in tk if "=" in t)))
            return res
        for rad in ("0", "inf", "1"):
            algos = ["propu-bdd", "propu", "tarjan"] if rad != "1" else ["propu", "tarjan", "ipi"]
            outs = [run(["safe", spec, "--starts", "--radius", rad, "--algo", a, "--quiet"], timeout=60) for a in algos]
            rcs = [o[0] for o in outs]
            if any("more than 64 bits" in o[2] for o in outs):
                continue
            first = [o[1].splitlines()[0] if o[1] else "" for o in outs]
            listed = [o for o in outs if "unsafe region:" not in o[1] and "safe region:" not in o[1]]
            if len(set(rcs)) > 1 or len(set(first)) > 1 or len(set(frozenset(parse(o[1])) for o in listed)) > 1:
                print("SEED", seed, "safe radius", rad, rcs, first)
                for a, o in zip(algos, outs):
                    print(" ", a, o[0], o[1][:300].replace("\n", " | "), o[2][:300])
                bad = True
    if not bad:
        shutil.rmtree(d)
print(stats)
