#!/usr/bin/env python3
"""Random .spec models with an independent reference semantics (lang/spec.md),
compared against vigil explore/verify/safe. h-revb, session 33."""
import random, itertools, json, subprocess, sys, os

B62 = 2**62
SAFESTART = False
SIMPLEUNSAFE = False
BIG = [0, 1, 2, 3, 7, 2**31, 2**32 + 1, B62, B62 - 1, B62 + 3, 2**63 - 1, 2**63 - 5, 3 * 2**61, 10**18]


class M:
    pass


def rconst(r, big):
    if big == "mid" and r.random() < 0.2:
        c = r.choice([2**31, 2**32 + 1, 2**61, 2**62 - 1, 2**62])
    elif big is True and r.random() < 0.4:
        c = r.choice(BIG)
    else:
        c = r.randint(0, 9)
    if r.random() < 0.4:
        c = -c
    if c < -(2**63) or c > 2**63 - 1:
        c = 0
    return c


def lit(c):
    # -2^63 is one literal; other negatives in parentheses
    return "(%d)" % c if c < 0 else "%d" % c


def gen_int(r, m, d):
    """returns (text, fn)"""
    ch = r.random()
    if d <= 0 or ch < 0.25:
        if r.random() < 0.6 and m.ints:
            v = r.choice(m.ints)
            return v, (lambda s, v=v: s[v])
        c = rconst(r, m.big)
        return lit(c), (lambda s, c=c: c)
    k = r.randrange(8)
    if k == 0:
        a, fa = gen_int(r, m, d - 1); b, fb = gen_int(r, m, d - 1)
        return "(%s + %s)" % (a, b), (lambda s: fa(s) + fb(s))
    if k == 1:
        a, fa = gen_int(r, m, d - 1); b, fb = gen_int(r, m, d - 1)
        return "(%s - %s)" % (a, b), (lambda s: fa(s) - fb(s))
    if k == 2:
        c = rconst(r, m.big)
        a, fa = gen_int(r, m, d - 1)
        if abs(c) > 10 and m.ints:
            a = r.choice(m.ints); fa = (lambda s, v=a: s[v])
        return "(%s * %s)" % (lit(c), a), (lambda s: c * fa(s))
    if k == 3:
        c = r.choice([1, 2, 3, 5, 7, 2**31, B62, 2**63 - 1]) if m.big else r.randint(1, 5)
        a, fa = gen_int(r, m, d - 1)
        return "(%s / %d)" % (a, c), (lambda s: fa(s) // c)
    if k == 4:
        a, fa = gen_int(r, m, d - 1); b, fb = gen_int(r, m, d - 1)
        f = r.choice(["min", "max"])
        g = min if f == "min" else max
        return "%s(%s, %s)" % (f, a, b), (lambda s: g(fa(s), fb(s)))
    if k == 5:
        a, fa = gen_int(r, m, d - 1)
        return "abs(%s)" % a, (lambda s: abs(fa(s)))
    if k == 6:
        c, fc = gen_bool(r, m, d - 1)
        a, fa = gen_int(r, m, d - 1); b, fb = gen_int(r, m, d - 1)
        return "(if %s then %s else %s)" % (c, a, b), (lambda s: fa(s) if fc(s) else fb(s))
    a, fa = gen_int(r, m, d - 1)
    return "(-%s)" % a, (lambda s: -fa(s))


def gen_bool(r, m, d):
    ch = r.random()
    if d <= 0 or ch < 0.2:
        if m.bools and r.random() < 0.5:
            v = r.choice(m.bools)
            return v, (lambda s, v=v: s[v] == 1)
        a, fa = gen_int(r, m, 1)
        b, fb = gen_int(r, m, 1)
        return cmp(r, a, fa, b, fb)
    k = r.randrange(6)
    if k == 0:
        a, fa = gen_bool(r, m, d - 1); b, fb = gen_bool(r, m, d - 1)
        return "(%s && %s)" % (a, b), (lambda s: fa(s) and fb(s))
    if k == 1:
        a, fa = gen_bool(r, m, d - 1); b, fb = gen_bool(r, m, d - 1)
        return "(%s || %s)" % (a, b), (lambda s: fa(s) or fb(s))
    if k == 2:
        a, fa = gen_bool(r, m, d - 1)
        return "!(%s)" % a, (lambda s: not fa(s))
    if k == 3:
        a, fa = gen_bool(r, m, d - 1); b, fb = gen_bool(r, m, d - 1)
        return "(%s => %s)" % (a, b), (lambda s: (not fa(s)) or fb(s))
    a, fa = gen_int(r, m, d - 1)
    b, fb = gen_int(r, m, d - 1)
    return cmp(r, a, fa, b, fb)


def cmp(r, a, fa, b, fb):
    op = r.choice(["==", "!=", "<", "<=", ">", ">="])
    f = {"==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
         "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}[op]
    return "(%s %s %s)" % (a, op, b), (lambda s: f(fa(s), fb(s)))


def model(seed, big=True, depth=2):
    if big == "s2":
        import gen2
        return gen2.model(seed)
    r = random.Random(seed)
    m = M()
    m.big = big
    m.ints, m.bools, m.rng = [], [], {}
    nv = r.randint(1, 3)
    m.base = r.choice([2**61, -(2**61), 2**62, -(2**62), 2**63 - 8, -(2**63) + 3])
    lines = ["model g%d" % seed]
    for i in range(nv):
        if r.random() < 0.25:
            v = "b%d" % i
            m.bools.append(v)
            m.rng[v] = (0, 1)
            lines.append("var %s : bool" % v)
        else:
            v = "x%d" % i
            w = r.randint(0, 5)
            if big == "wide":
                w = r.choice([w, 2**r.randint(3, 40) - r.randint(1, 2), 2**40 - 1])
            if big == "mid":
                base = m.base
            elif big == "wide":
                base = r.choice([0, -(2**39), B62, -B62, 2**63 - 2 - w, -(2**63) + 1, 2**62 - w // 2, -(2**31)])
            else:
                base = r.choice([0, 0, -3, -10, B62, -B62, 2**63 - 8, -(2**63) + 2, 2**31 - 2, -(2**31)]) if big else r.randint(-5, 3)
            lo = base + r.randint(-2, 2)
            lo = max(lo, -(2**63) + 1)
            hi = min(lo + w, 2**63 - 2)
            lo = min(lo, hi)
            m.ints.append(v)
            m.rng[v] = (lo, hi)
            lines.append("var %s : %s .. %s" % (v, lo, hi))
    m.vars = m.ints + m.bools
    m.vars = [v for v in sorted(m.rng, key=lambda v: int(v[1:]))]
    nl = r.randint(1, 3)
    labels = ["a%d" % i for i in range(nl)]
    cmds = []
    for ci in range(r.randint(nl, nl + 2)):
        lab = labels[ci] if ci < nl else r.choice(labels)
        if r.random() < 0.3:
            g, fg = "true", (lambda s: True)
        else:
            g, fg = gen_bool(r, m, depth)
        outs = []
        otext = []
        for oi in range(r.randint(1, 3)):
            asg = []
            tx = []
            for v in m.vars:
                if r.random() < 0.5:
                    if v in m.bools:
                        e, fe = gen_bool(r, m, depth)
                        asg.append((v, lambda s, fe=fe: 1 if fe(s) else 0))
                    else:
                        # mostly clamp into range so that range errors stay rare
                        e, fe = gen_int(r, m, depth)
                        lo, hi = m.rng[v]
                        if r.random() < 0.8:
                            e = "max(%s, min(%s, %s))" % (lit(lo), lit(hi), e)
                            fe = (lambda s, fe=fe, lo=lo, hi=hi: max(lo, min(hi, fe(s))))
                        asg.append((v, fe))
                    tx.append("%s' = %s" % (v, e))
            outs.append(asg)
            otext.append(", ".join(tx) if tx else "skip")
        cmds.append((lab, fg, outs))
        lines.append("action %s when %s\n    -> %s" % (lab, g, "\n     | ".join(otext)))
    # rules policy with overlapping whens
    rules = []
    rtext = []
    for i in range(r.randint(0, 3)):
        c, fc = gen_bool(r, m, 1)
        lab = r.choice(labels)
        rules.append((fc, lab))
        rtext.append("    when %s -> %s" % (c, lab))
    if r.random() < 0.7 or not rules:
        lab = r.choice(labels)
        rules.append((lambda s: True, lab))
        rtext.append("    otherwise -> %s" % lab)
    lines.append("policy rules p {\n%s\n}" % "\n".join(rtext))
    st, fst = gen_bool(r, m, 1)
    m.box = None
    if big == "wide":
        m.box = {}
        parts = []
        for v in m.ints:
            lo, hi = m.rng[v]
            a = r.choice([lo, hi, lo + (hi - lo) // 2, min(hi, lo + r.randint(0, 3))]); b = min(hi, a + r.randint(0, 1))
            m.box[v] = (a, b)
            parts.append("%s <= %s && %s <= %s" % (lit(a), v, v, lit(b)))
        st = " && ".join(parts) if parts else "true"
        fst = lambda s: True
    elif getattr(m, "easy", False) or r.random() < 0.3:
        parts = []
        fs = []
        for v in m.vars:
            lo, hi = m.rng[v]
            if v in m.bools:
                continue
            if r.random() < 0.5:
                a = r.randint(lo, hi); b = min(hi, a + r.randint(0, 1))
                parts.append("%s <= %s && %s <= %s" % (lit(a), v, v, lit(b)))
                fs.append((v, a, b))
        st = " && ".join(parts) if parts else "true"
        fst = (lambda s, fs=fs: all(a <= s[v] <= b for v, a, b in fs))
    un, fun = gen_bool(r, m, depth)
    if SIMPLEUNSAFE and m.ints:
        v = r.choice(m.ints); lo, hi = m.rng[v]; c = r.randint(lo, hi)
        if r.random() < 0.5:
            un, fun = "%s == %s" % (v, lit(c)), (lambda s, v=v, c=c: s[v] == c)
        else:
            un, fun = "%s >= %s" % (v, lit(c)), (lambda s, v=v, c=c: s[v] >= c)
    if SAFESTART:
        st = "(%s) && !(%s)" % (st, un)
        fst = (lambda s, f1=fst, f2=fun: f1(s) and not f2(s))
    prop = "property q {\n    start %s\n    unsafe %s\n" % (st, un)
    fgo = lambda s: False
    if r.random() < 0.4 and m.ints and r.random() < 0.5:
        v = r.choice(m.ints); c = r.choice(m.rng[v])
        go, fgo = "%s == %s" % (v, lit(c)), (lambda s, v=v, c=c: s[v] == c)
        prop += "    goal %s\n" % go
    elif r.random() < 0.4:
        go, fgo = gen_bool(r, m, 1)
        prop += "    goal %s\n" % go
    prop += "}"
    lines.append(prop)
    m.text = "\n".join(lines) + "\n"
    m.cmds, m.labels, m.rules = cmds, labels, rules
    m.start, m.unsafe, m.goal = fst, fun, fgo
    return m


def states(m):
    rs = [range(m.rng[v][0], m.rng[v][1] + 1) for v in m.vars]
    for t in itertools.product(*rs):
        yield dict(zip(m.vars, t))


def key(m, s):
    return tuple(s[v] for v in m.vars)


class Sem:
    def __init__(self, m):
        self.m = m
        self.cache = {}

    def info(self, s):
        k = key(self.m, s)
        if k in self.cache:
            return self.cache[k]
        m = self.m
        unsafe = m.unsafe(s)
        term = unsafe or m.goal(s)
        succ = {}  # label -> (list of succ keys, rangeerror)
        for lab, fg, outs in m.cmds:
            if not fg(s):
                continue
            L = succ.setdefault(lab, [[], False])
            for asg in outs:
                t = dict(s)
                for v, fe in asg:
                    t[v] = fe(s)
                ok = all(m.rng[v][0] <= t[v] <= m.rng[v][1] for v in m.vars)
                if ok:
                    L[0].append(key(m, t))
                else:
                    L[1] = True
        pol = None
        for fc, lab in m.rules:
            if fc(s) and lab in succ:
                pol = lab
                break
        res = (unsafe, term, succ, pol)
        self.cache[k] = res
        return res


def of(m, k):
    return dict(zip(m.vars, k))


def reference(m):
    S = Sem(m)
    if m.box is not None:
        rs = [range(m.box[v][0], m.box[v][1] + 1) if v in m.box else range(m.rng[v][0], m.rng[v][1] + 1) for v in m.vars]
        starts = [t for t in itertools.product(*rs)]
    else:
        starts = [key(m, s) for s in states(m) if m.start(s)]
    out = {"starts": starts}
    # verify: policy runs
    seen = set(starts)
    q = list(starts)
    unsafe_found = rerr = False
    for k in q:
        if len(q) > 20000:
            raise OverflowError("too many states")
        unsafe, term, succ, pol = S.info(of(m, k))
        if unsafe:
            unsafe_found = True
        if term or pol is None:
            continue
        ks, e = succ[pol]
        if e:
            rerr = True
        for k2 in ks:
            if k2 not in seen:
                seen.add(k2)
                q.append(k2)
    out["reach"] = len(seen)
    out["unsafe"] = unsafe_found
    out["rerr"] = rerr
    return out, S


INF = 10**9


def rsafe(m, S, k0, r):
    """r-safety of k0: None if the scope holds a range error, else bool.
    r is an int or None (inf)."""
    # scope: non-terminal states reachable with <= r deviations
    best = {k0: 0}
    q = [k0]
    # Dijkstra-ish with 0/1 costs: BFS by deviation count
    import collections
    dq = collections.deque([(0, k0)])
    while dq:
        d, k = dq.popleft()
        if best.get(k, INF) < d:
            continue
        unsafe, term, succ, pol = S.info(of(m, k))
        if term:
            continue
        for lab, (ks, e) in succ.items():
            if e:
                return None
            c = 0 if lab == pol else 1
            nd = d + c if r is not None else 0
            if r is not None and nd > r:
                continue
            for k2 in ks:
                if best.get(k2, INF) > nd:
                    best[k2] = nd
                    if c == 0 or r is None:
                        dq.appendleft((nd, k2))
                    else:
                        dq.append((nd, k2))
    # values: V = min budget; iterate on all states in the region reachable (any labels)
    reach = set([k0])
    q = [k0]
    for k in q:
        if len(q) > 20000:
            raise OverflowError("too many states")
        unsafe, term, succ, pol = S.info(of(m, k))
        if term:
            continue
        for lab, (ks, e) in succ.items():
            for k2 in ks:
                if k2 not in reach:
                    reach.add(k2)
                    q.append(k2)
    cap = (r if r is not None else 0) + 1
    V = {k: 0 for k in reach}
    for k in reach:
        if S.info(of(m, k))[0]:
            V[k] = cap
    changed = True
    while changed:
        changed = False
        for k in reach:
            unsafe, term, succ, pol = S.info(of(m, k))
            if term:
                continue
            if not succ:
                continue  # deadlock: safe
            best_v = cap
            for lab, (ks, e) in succ.items():
                c = (0 if lab == pol else 1) if r is not None else 0
                if e and False:
                    pass
                w = max([V[k2] for k2 in ks], default=0) + c
                best_v = min(best_v, w)
            best_v = min(best_v, cap)
            if best_v > V[k]:
                V[k] = best_v
                changed = True
    return V[k0] <= (r if r is not None else 0)


def fmt(m, k):
    parts = []
    for v, x in zip(m.vars, k):
        if v in m.bools:
            parts.append("%s=%s" % (v, "true" if x else "false"))
        else:
            parts.append("%s=%d" % (v, x))
    return " ".join(parts)
