#!/usr/bin/env python3
import sys, os, json, subprocess, random
sys.path.insert(0, os.path.dirname(__file__))
import gen
import gen2

V = os.environ.get("VIGIL", "vigil")
D = os.path.join(os.environ.get("TMPDIR", "/tmp"), "s33b_oracle")
os.makedirs(D, exist_ok=True)


def run(args, timeout=60):
    p = subprocess.run([V] + args, capture_output=True, text=True, timeout=timeout)
    try:
        j = json.loads(p.stdout) if p.stdout.strip() else None
    except Exception:
        j = None
    return p.returncode, j, p.stdout, p.stderr


bad = []
GOALARGS = []


def report(seed, what, detail):
    msg = "seed %d: %s: %s" % (seed, what, detail)
    print(msg, flush=True)
    bad.append(msg)


def one(seed, big, engines, algos, radii):
    m = gen.model(seed, big=big)
    f = os.path.join(D, "g%d.spec" % seed)
    open(f, "w").write(m.text)
    ref, S = gen.reference(m)
    counts = {"checked": 0}
    rc, j, o, e = run(["check", f])
    if rc != 0:
        counts["rejected"] = 1
        if "E0303" not in e:
            report(seed, "check", e[-300:])
        return counts
    if not ref["starts"]:
        rc, j, o, e = run(["verify", f, "--engine", "bfs", "--json"])
        if rc == 0:
            report(seed, "empty start", "bfs rc 0")
        return counts
    for eng in engines:
        rc, j, o, e = run(["verify", f, "--engine", eng, "--json", "--timeout", "20"])
        v = j.get("verdict") if j else None
        if rc == 1 and ("W0306" in e or "64-bit" in e or "64 bits" in e) and eng == "bdd":
            counts["bdd_refused"] = counts.get("bdd_refused", 0) + 1
            continue
        if rc == 1 and eng == "ic3" and "beyond ±2^53" in e:
            counts["ic3_refused"] = counts.get("ic3_refused", 0) + 1
            continue
        if rc == 1 and eng == "ic3" and "always false" in e:
            counts["ic3_refused"] = counts.get("ic3_refused", 0) + 1
            continue
        if rc == 4:
            counts["unknown"] = counts.get("unknown", 0) + 1
            continue
        counts["checked"] += 1
        if ref["unsafe"] and ref["rerr"]:
            ok = rc == 3 or (rc == 1 and ("range error" in (e + o) or "leaves a variable's range" in e))
        elif ref["unsafe"]:
            ok = rc == 3
        elif ref["rerr"]:
            ok = rc == 1 and ("range error" in (e + o) or "leaves a variable's range" in e)
        else:
            ok = rc == 0
        if not ok:
            report(seed, "verify " + eng, "ref %s got rc=%d %s %s" % (ref, rc, v, (e + o)[-300:]))
        if eng == "bfs" and rc == 0 and j and j.get("states") != ref["reach"]:
            report(seed, "verify bfs states", "ref %d got %s" % (ref["reach"], j.get("states")))
    # safety deciders on each start state
    for rad in radii:
        r = None if rad == "inf" else int(rad)
        exp = {}
        for k in ref["starts"]:
            exp[k] = gen.rsafe(m, S, k, r)
        for algo in algos:
            if algo == "propu-bdd" and rad not in ("inf", "0"):
                continue
            if len(ref["starts"]) > 12:
                ks = random.Random(seed).sample(ref["starts"], 12)
            else:
                ks = ref["starts"]
            for k in ks:
                st = gen.fmt(m, k)
                parts = algo.split(":")
                rc, j, o, e = run(["safe", f, "--state", st, "--radius", rad, "--algo", parts[0], "--json", "--timeout", "20"] + parts[1:])
                if rc == 4:
                    counts["unknown"] = counts.get("unknown", 0) + 1
                    continue
                if algo == "propu-bdd" and rc == 1 and ("64-bit" in e or "64 bits" in e or "W0306" in e):
                    counts["bdd_refused"] = counts.get("bdd_refused", 0) + 1
                    continue
                counts["checked"] += 1
                want = exp[k]
                if want is None:
                    ok = rc == 1 and ("range error" in e or "range error" in o)
                else:
                    got = None
                    if j and "states" in j and j["states"]:
                        got = j["states"][0].get("verdict")
                    elif j:
                        got = j.get("verdict")
                    ok = rc in (0, 3) and got == ("safe" if want else "unsafe")
                if not ok:
                    report(seed, "safe %s r=%s %s" % (algo, rad, st), "want %s got rc=%d %s" % (want, rc, (e + o)[-300:]))
    return counts


if __name__ == "__main__":
    a, b = int(sys.argv[1]), int(sys.argv[2])
    big = {"big": True, "small": False, "mid": "mid", "wide": "wide", "s2": "s2"}[sys.argv[3]]
    mode = sys.argv[4] if len(sys.argv) > 4 else "all"
    engines = ["bfs", "bdd", "ic3"] if mode in ("all", "verify") else []
    algos = ["tarjan", "ipi", "npi", "propu", "vi", "lrtdp", "lao", "tarjan-path", "propu-bdd"] if mode in ("all", "safe") else []
    if mode == "orders":
        algos = ["ipi:--order:learn", "npi:--order:learn", "ipi:--order:rand:--seed:%d" % 5, "npi:--order:rand:--seed:9", "lrtdp:--seed:17", "lrtdp:--seed:99"]
    radii = ["inf", "0", "1", "2"]
    tot = {}
    for s in range(a, b):
        try:
            c = one(s, big, engines, algos, radii)
        except OverflowError:
            continue
        except subprocess.TimeoutExpired as ex:
            report(s, "timeout", str(ex))
            continue
        for kk, vv in c.items():
            tot[kk] = tot.get(kk, 0) + vv
    print("done", a, b, tot, "bad", len(bad))


def faults(seed, big, algos, radii):
    m = gen.model(seed, big=big)
    f = os.path.join(D, "g%d.spec" % seed)
    open(f, "w").write(m.text)
    ref, S = gen.reference(m)
    n = 0
    if not ref["starts"] or (not ref["unsafe"] and not getattr(sys.modules[__name__], "RUNMODE", False)):
        return 0
    if os.path.exists(os.path.join(D, "r%d.json" % seed)):
        os.remove(os.path.join(D, "r%d.json" % seed))
    rf = os.path.join(D, "r%d.json" % seed)
    if getattr(sys.modules[__name__], "RUNMODE", False):
        rc, j, o, e = run(["run", f, "--record", rf, "--quiet", "--steps", str(random.Random(seed).randint(1, 12)), "--seed", str(seed)])
        if rc not in (0, 3) or not os.path.exists(rf):
            return 0
    else:
        rc, j, o, e = run(["verify", f, "--record", rf, "--quiet"])
        if rc != 3:
            return 0
    steps = json.load(open(rf))["steps"]
    ks = [tuple((1 if st["state"][v] is True else 0 if st["state"][v] is False else st["state"][v]) for v in m.vars) for st in steps]
    for rad in radii:
        r = None if rad == "inf" else int(rad)
        safe = [gen.rsafe(m, S, k, r) for k in ks]
        err = any(x is None for x in safe)
        want_faults = []
        if not err:
            for i, k in enumerate(ks):
                if not safe[i]:
                    continue
                unsafe, term, succ, pol = S.info(gen.of(m, k))
                if term or pol is None:
                    continue
                if i == len(ks) - 1 and k in ks[:i]:
                    continue
                if any(not gen.rsafe(m, S, t, r) for t in succ[pol][0]):
                    want_faults.append(i)
        for algo in algos:
            rc, j, o, e = run(["faults", f, "--run", rf, "--radius", rad, "--algo", algo, "--json", "--timeout", "20"])
            n += 1
            if rc == 4:
                continue
            if err:
                ok = rc == 1 and "range error" in (e + o)
                if not ok:
                    report(seed, "faults %s r=%s" % (algo, rad), "want range error got rc=%d %s" % (rc, (e + o)[-300:]))
                continue
            if rc != 0 or not j:
                report(seed, "faults %s r=%s" % (algo, rad), "rc=%d %s" % (rc, (e + o)[-300:]))
                continue
            got_f = [x["step"] for x in j["faults"]]
            for x in j["faults"]:
                k = ks[x["step"]]
                unsafe, term, succ, pol = S.info(gen.of(m, k))
                alt = x.get("safe_alternative")
                if not alt:
                    report(seed, "faults alt %s r=%s" % (algo, rad), "step %d: no alternative" % x["step"])
                    continue
                c = 0 if alt == pol else 1
                if alt not in succ or (r is not None and r - c < 0) or not all(gen.rsafe(m, S, t, None if r is None else r - c) for t in succ[alt][0]) or succ[alt][1]:
                    report(seed, "faults alt %s r=%s" % (algo, rad), "step %d: alternative %s is not safe (pol %s)" % (x["step"], alt, pol))
            if j["safe"] != safe or got_f != want_faults:
                report(seed, "faults %s r=%s" % (algo, rad), "want safe %s faults %s got %s %s" % (safe, want_faults, j["safe"], got_f))
    return n


def faults_main(a, b, big):
    algos = ["tarjan", "ipi", "npi", "propu", "vi", "lrtdp", "lao", "tarjan-path"]
    n = 0
    for s in range(a, b):
        n += faults(s, big, algos, ["inf", "0", "1", "3"])
    print("faults done", a, b, "runs", n, "bad", len(bad))


def allmode(seed, big):
    m = gen.model(seed, big=big)
    f = os.path.join(D, "g%d.spec" % seed)
    open(f, "w").write(m.text)
    ref, S = gen.reference(m)
    rc, j, o, e = run(["check", f])
    if rc != 0:
        return 0
    n = 0
    allk = [gen.key(m, s) for s in gen.states(m)]
    anyerr = any(e2 for k in allk for (ks, e2) in ([] if S.info(gen.of(m, k))[1] else S.info(gen.of(m, k))[2].values()))
    for rad in ["inf", "0"]:
        r = None if rad == "inf" else int(rad)
        vals = [gen.rsafe(m, S, k, r) for k in allk]
        rc, j, o, e = run(["safe", f, "--algo", "propu-bdd", "--all", "--radius", rad, "--json", "--timeout", "20"])
        if rc == 4 or (rc == 1 and "64 bits" in e):
            continue
        n += 1
        if anyerr:
            if not (rc == 1 and "range error" in e):
                report(seed, "all r=%s" % rad, "want range error got rc=%d %s" % (rc, (e + o)[-300:]))
            continue
        ns = sum(1 for v in vals if v)
        if not j or j.get("safe") != ns or j.get("unsafe") != len(vals) - ns:
            report(seed, "all r=%s" % rad, "want safe %d unsafe %d got rc=%d %s" % (ns, len(vals) - ns, rc, (e + o)[-300:]))
    # verify with no policy
    starts = ref["starts"]
    if starts:
        seen = set(starts); q = list(starts); uf = rerr = False
        for k in q:
            unsafe, term, succ, pol = S.info(gen.of(m, k))
            if unsafe:
                uf = True
            if term:
                continue
            for lab, (ks, e2) in succ.items():
                rerr = rerr or e2
                for k2 in ks:
                    if k2 not in seen:
                        seen.add(k2); q.append(k2)
        for eng in ["bfs", "bdd", "ic3"]:
            rc, j, o, e = run(["verify", f, "--policy", "none", "--engine", eng, "--json", "--timeout", "20"])
            if rc == 4 or (rc == 1 and ("64 bits" in e or "beyond ±2^53" in e or "always false" in e)):
                continue
            n += 1
            isr = rc == 1 and ("range error" in (e + o) or "leaves a variable's range" in e)
            if uf and rerr:
                ok = rc == 3 or isr
            elif uf:
                ok = rc == 3
            elif rerr:
                ok = isr
            else:
                ok = rc == 0 and (eng != "bfs" or j.get("states") == len(seen))
            if not ok:
                report(seed, "verify none " + eng, "want unsafe=%s rerr=%s n=%d got rc=%d %s" % (uf, rerr, len(seen), rc, (e + o)[-300:]))
    return n


def all_main(a, b, big):
    n = 0
    for s in range(a, b):
        n += allmode(s, big)
    print("all done", a, b, "runs", n, "bad", len(bad))


def parse_state(m, txt):
    d = {}
    for part in txt.split():
        v, x = part.split("=", 1)
        d[v] = 1 if x == "true" else 0 if x == "false" else int(x)
    return tuple(d[v] for v in m.vars)


def goal_values(m, S, allk):
    INFV = float("inf")
    vp = {}; vo = {}
    for k in allk:
        unsafe, term, succ, pol = S.info(gen.of(m, k))
        g = (not unsafe) and m.goal(gen.of(m, k))
        vp[k] = 0 if g else INFV
        vo[k] = 0 if g else INFV
    for it in range(len(allk) + 2):
        ch = False
        for k in allk:
            unsafe, term, succ, pol = S.info(gen.of(m, k))
            if term:
                continue
            if pol is not None:
                ks = succ[pol][0]
                x = 1 + max([vp[t] for t in ks], default=INFV)
                if x < vp[k]:
                    vp[k] = x; ch = True
            best = INFV
            for lab, (ks, e) in succ.items():
                if ks:
                    best = min(best, 1 + max(vo[t] for t in ks))
            if best < vo[k]:
                vo[k] = best; ch = True
        if not ch:
            break
    return vp, vo


def goaltest(seed, big):
    m = gen.model(seed, big=big)
    if "goal" not in m.text:
        return 0
    f = os.path.join(D, "g%d.spec" % seed)
    open(f, "w").write(m.text)
    S = gen.Sem(m)
    allk = [gen.key(m, s) for s in gen.states(m)]
    for k in allk:
        inf = S.info(gen.of(m, k))
        if not inf[1] and any(e for (ks, e) in inf[2].values()):
            return 0
    rc, j, o, e = run(["test", f, "--mode", "goal", "--json", "--timeout", "20"] + GOALARGS)
    if rc not in (0, 3) or not j:
        return 0
    vp, vo = goal_values(m, S, allk)
    for b in j.get("bugs", []):
        k = parse_state(m, b["state"])
        if not vo[k] < vp[k]:
            report(seed, "goal bug", "%s: vpi %s vopt %s" % (b["state"], vp[k], vo[k]))
        pc = b.get("plan_cost")
        if pc is not None and (pc < vo[k] or not pc < vp[k]):
            report(seed, "goal plan cost", "%s: plan %s vpi %s vopt %s" % (b["state"], pc, vp[k], vo[k]))
        if "policy_cost" in b and b["policy_cost"] != vp[k]:
            report(seed, "goal policy cost", "%s: %s vpi %s" % (b["state"], b["policy_cost"], vp[k]))
    return 1 + len(j.get("bugs", []))


def safetytest(seed, big, rad):
    m = gen.model(seed, big=big)
    f = os.path.join(D, "g%d.spec" % seed)
    open(f, "w").write(m.text)
    S = gen.Sem(m)
    rc, j, o, e = run(["test", f, "--json", "--radius", rad, "--timeout", "20"])
    if rc not in (0, 3) or not j:
        return 0
    r = None if rad == "inf" else int(rad)
    n = 0
    for ur in j.get("unsafe_runs", []):
        ks = [parse_state(m, st["state"]) for st in ur["steps"]]
        if not ur.get("analysed"):
            continue
        n += 1
        safe = [gen.rsafe(m, S, k, r) for k in ks]
        if any(x is None for x in safe):
            report(seed, "test r=%s" % rad, "range error in scope but test answered")
            continue
        bugs = [i for i in range(len(ks) - 1) if safe[i]]
        if ur["bug_steps"] != bugs:
            report(seed, "test bugs r=%s" % rad, "run %s want %s got %s" % (ur["run"], bugs, ur["bug_steps"]))
        fl = []
        for i, k in enumerate(ks):
            if not safe[i]:
                continue
            unsafe, term, succ, pol = S.info(gen.of(m, k))
            if term or pol is None:
                continue
            if any(not gen.rsafe(m, S, t, r) for t in succ[pol][0]):
                fl.append(i)
        if ur["fault_steps"] != fl:
            report(seed, "test faults r=%s" % rad, "run %s want %s got %s" % (ur["run"], fl, ur["fault_steps"]))
    return n


def test_main(a, b, big):
    n = 0
    for s in range(a, b):
        n += goaltest(s, big)
        for rad in ["inf", "0", "1"]:
            n += safetytest(s, big, rad)
    print("test done", a, b, "checked", n, "bad", len(bad))


def fair_sets(m, S, allk):
    info = {k: S.info(gen.of(m, k)) for k in allk}
    goal = {k for k in allk if not info[k][0] and m.goal(gen.of(m, k))}
    # pi: succeeds iff every reachable state reaches the goal and none is bad
    def pi_edges(k):
        unsafe, term, succ, pol = info[k]
        if term or pol is None:
            return None
        return succ[pol][0]
    canreach = set(goal)
    ch = True
    while ch:
        ch = False
        for k in allk:
            if k in canreach:
                continue
            es = pi_edges(k)
            if es and any(t in canreach for t in es):
                canreach.add(k); ch = True
    pi_ok = {}
    for k in allk:
        seen = {k}; q = [k]; ok = True
        for x in q:
            if x in goal:
                continue
            es = pi_edges(x)
            if not es or x not in canreach:
                ok = False; break
            for t in es:
                if t not in seen:
                    seen.add(t); q.append(t)
        pi_ok[k] = ok
    # max almost-sure
    R = set(allk)
    while True:
        Y = set(goal & R)
        ch = True
        while ch:
            ch = False
            for k in R:
                if k in Y:
                    continue
                unsafe, term, succ, pol = info[k]
                if term:
                    continue
                for lab, (ks, e) in succ.items():
                    if ks and all(t in R for t in ks) and any(t in Y for t in ks):
                        Y.add(k); ch = True; break
        if Y == R:
            break
        R = Y
    return pi_ok, R


def fairtest(seed, big):
    m = gen.model(seed, big=big)
    if "goal" not in m.text:
        return 0
    f = os.path.join(D, "g%d.spec" % seed)
    open(f, "w").write(m.text)
    S = gen.Sem(m)
    allk = [gen.key(m, s) for s in gen.states(m)]
    for k in allk:
        inf = S.info(gen.of(m, k))
        if not inf[1] and any(e for (ks, e) in inf[2].values()):
            return 0
    rc, j, o, e = run(["test", f, "--mode", "goal", "--outcomes", "fair", "--json", "--timeout", "20"])
    if rc not in (0, 3) or not j:
        return 0
    pi_ok, AS = fair_sets(m, S, allk)
    for b in j.get("bugs", []):
        k = parse_state(m, b["state"])
        if pi_ok[k] or k not in AS:
            report(seed, "fair goal bug", "%s: pi_ok %s as_max %s" % (b["state"], pi_ok[k], k in AS))
    return 1 + len(j.get("bugs", []))


def fair_main(a, b, big):
    n = 0
    for s in range(a, b):
        n += fairtest(s, big)
    print("fair done", a, b, "checked", n, "bad", len(bad))
