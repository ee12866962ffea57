import os, sys, re, random; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen, gen2, drive
INF = float("inf")
n = 0
for seed in range(int(sys.argv[1]), int(sys.argv[2])):
    gen2.GOALP = 1.0
    m = gen2.model(seed)
    r = random.Random(seed * 7 + 1)
    # add costs: rewrite "action LAB when G" lines with a cost
    lines = m.text.split("\n")
    costs = []
    ci = 0
    for i, L in enumerate(lines):
        if L.startswith("action "):
            k = r.randrange(3)
            if k == 0 or not m.ints:
                c = r.randint(1, 4); costs.append(lambda s, c=c: c); lines[i] = L + " cost %d" % c
            elif k == 1:
                v = r.choice(m.ints); lo = m.rng[v][0]
                costs.append(lambda s, v=v, lo=lo: max(1, s[v] - lo + 1)); lines[i] = L + " cost max(1, %s - %s + 1)" % (v, gen.lit(lo))
            else:
                costs.append(lambda s: 1)
            ci += 1
    txt = "\n".join(lines)
    f = drive.D + "/gc%d.spec" % seed
    open(f, "w").write(txt)
    allk = [gen.key(m, s) for s in gen.states(m)]
    # per state: list of (label, [(cost, [succ keys])], rangeerr)
    T = {}
    bad = False
    for k in allk:
        s = gen.of(m, k)
        unsafe = m.unsafe(s); goal = (not unsafe) and m.goal(s)
        lab = {}
        for (L, fg, outs), cf in zip(m.cmds, costs):
            if not fg(s):
                continue
            succ = []
            for asg in outs:
                t = dict(s)
                for v, fe in asg:
                    t[v] = fe(s)
                if all(m.rng[v][0] <= t[v] <= m.rng[v][1] for v in m.vars):
                    succ.append(gen.key(m, t))
                elif not (unsafe or goal):
                    bad = True
            lab.setdefault(L, []).append((cf(s), succ))
        pol = None
        for fc, L in m.rules:
            if fc(s) and L in lab:
                pol = L; break
        T[k] = (unsafe, goal, lab, pol)
    if bad:
        continue
    vp = {k: (0 if T[k][1] else INF) for k in allk}
    vo = dict(vp)
    for it in range(4 * len(allk) * 5 + 10):
        ch = False
        for k in allk:
            unsafe, goal, lab, pol = T[k]
            if unsafe or goal:
                continue
            def val(L, V):
                return max([c + V[t] for c, ts in lab[L] for t in ts], default=INF)
            if pol is not None:
                x = val(pol, vp)
                if x < vp[k]: vp[k] = x; ch = True
            b = min([val(L, vo) for L in lab], default=INF)
            if b < vo[k]: vo[k] = b; ch = True
        if not ch:
            break
    rc, j, o, e = drive.run(["test", f, "--mode", "goal", "--json", "--timeout", "20"])
    if rc not in (0, 3) or not j:
        continue
    n += 1
    for b in j.get("bugs", []):
        k = drive.parse_state(m, b["state"])
        if not vo[k] < vp[k]:
            drive.report(seed, "goalcost bug", "%s: vpi %s vopt %s" % (b["state"], vp[k], vo[k]))
        pc = b.get("plan_cost")
        if pc is not None and (pc < vo[k] or not pc < vp[k]):
            drive.report(seed, "goalcost plan", "%s: plan %s vpi %s vopt %s" % (b["state"], pc, vp[k], vo[k]))
        for key in ("policy_cost",):
            if key in b and b[key] != vp[k]:
                drive.report(seed, "goalcost " + key, "%s: %s vpi %s" % (b["state"], b[key], vp[k]))
print("goalcost", n, "bad", len(drive.bad))
