"""Structured random models: counters with small steps, simple guards,
box starts, simple unsafe; same M interface as gen.py."""
import random
import gen
WIDTH = 6
GOALP = 0.3
from gen import M, lit


def simple_cond(r, m):
    v = r.choice(m.vars)
    lo, hi = m.rng[v]
    if v in m.bools:
        if r.random() < 0.5:
            return v, (lambda s, v=v: s[v] == 1)
        return "!%s" % v, (lambda s, v=v: s[v] == 0)
    c = r.randint(lo, hi)
    op = r.choice(["<", "<=", ">", ">=", "==", "!="])
    f = {"==": lambda x, y: x == y, "!=": lambda x, y: x != y, "<": lambda x, y: x < y,
         "<=": lambda x, y: x <= y, ">": lambda x, y: x > y, ">=": lambda x, y: x >= y}[op]
    return "%s %s %s" % (v, op, lit(c)), (lambda s, v=v, c=c, f=f: f(s[v], c))


def model(seed, base=0, clamp=0.9):
    r = random.Random(seed)
    m = M()
    m.big = False
    m.ints, m.bools, m.rng = [], [], {}
    lines = ["model s%d" % seed]
    for i in range(r.randint(1, 3)):
        if r.random() < 0.25:
            v = "b%d" % i; m.bools.append(v); m.rng[v] = (0, 1)
            lines.append("var %s : bool" % v)
        else:
            v = "x%d" % i; lo = base + r.randint(-3, 1); hi = lo + r.randint(1, WIDTH)
            m.ints.append(v); m.rng[v] = (lo, hi)
            lines.append("var %s : %d .. %d" % (v, lo, hi))
    m.vars = sorted(m.rng, key=lambda v: int(v[1:]))
    nl = r.randint(2, 4)
    labels = ["a%d" % i for i in range(nl)]
    cmds = []
    for ci in range(r.randint(nl, nl + 2)):
        lab = labels[ci] if ci < nl else r.choice(labels)
        if r.random() < 0.3:
            g, fg = "true", (lambda s: True)
        else:
            g, fg = simple_cond(r, m)
            if r.random() < 0.3:
                g2, fg2 = simple_cond(r, m)
                g, fg = "%s && %s" % (g, g2), (lambda s, a=fg, b=fg2: a(s) and b(s))
        outs, otext = [], []
        for oi in range(r.randint(1, 3)):
            asg, tx = [], []
            for v in m.vars:
                if r.random() < 0.6:
                    if v in m.bools:
                        k = r.randrange(3)
                        if k == 0:
                            asg.append((v, lambda s, v=v: 1 - s[v])); tx.append("%s' = !%s" % (v, v))
                        else:
                            asg.append((v, lambda s, k=k: k - 1)); tx.append("%s' = %s" % (v, "true" if k == 2 else "false"))
                    else:
                        d = r.choice([-2, -1, 1, 1, 2, 0])
                        lo, hi = m.rng[v]
                        e = "%s + %s" % (v, lit(d))
                        fe = (lambda s, v=v, d=d: s[v] + d)
                        if r.random() < 0.2 and m.ints:
                            w = r.choice(m.ints)
                            e = "%s / 2 + %s - %s" % (w, lit(d), w)
                            e = "(%s / 2) + %s" % (w, lit(d))
                            fe = (lambda s, w=w, d=d: s[w] // 2 + d)
                        if r.random() < clamp:
                            e = "max(%s, min(%s, %s))" % (lit(lo), lit(hi), e)
                            fe = (lambda s, fe=fe, lo=lo, hi=hi: max(lo, min(hi, fe(s))))
                        asg.append((v, fe)); tx.append("%s' = %s" % (v, e))
            outs.append(asg); otext.append(", ".join(tx) if tx else "skip")
        cmds.append((lab, fg, outs))
        lines.append("action %s when %s\n    -> %s" % (lab, g, "\n     | ".join(otext)))
    rules, rtext = [], []
    for i in range(r.randint(0, 3)):
        c, fc = simple_cond(r, m)
        lab = r.choice(labels)
        rules.append((fc, lab)); rtext.append("    when %s -> %s" % (c, lab))
    if r.random() < 0.8 or not rules:
        lab = r.choice(labels)
        rules.append((lambda s: True, lab)); rtext.append("    otherwise -> %s" % lab)
    lines.append("policy rules p {\n%s\n}" % "\n".join(rtext))
    un, fun = simple_cond(r, m)
    st, fst = simple_cond(r, m)
    st = "(%s) && !(%s)" % (st, un)
    fst = (lambda s, a=fst, b=fun: a(s) and not b(s))
    prop = "property q {\n    start %s\n    unsafe %s\n" % (st, un)
    fgo = lambda s: False
    if r.random() < GOALP:
        go, fgo = simple_cond(r, m)
        prop += "    goal %s\n" % go
    prop += "}"
    lines.append(prop)
    m.text = "\n".join(lines) + "\n"
    m.cmds, m.labels, m.rules = cmds, labels, rules
    m.start, m.unsafe, m.goal = fst, fun, fgo
    m.box = None
    return m
