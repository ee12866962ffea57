# Brute force of the JANI reading of PlaJA choices (lang/spec.md, JANI import), run by
# hand, not by go test (session 31 review, h-rev4). It writes random small mdp models
# (choices whose bounds read variables, constant or state-dependent destination
# probabilities, two automata synchronised on "a", a transient reward) and prints per
# seed: Pmax, Pmin of the goal (value iteration), the states it explores and whether a
# range error is reachable. Compare with vigil prob --property p / q on the models
# without range errors:
#   python3 s31w_choice_bruteforce.py DIR 800 sd > DIR/py.txt   (sd: state-dependent; c: constant)
# Session 31: 74 state-dependent and 48 constant models, all equal to vigil prob to 1e-5.
import json, random, sys, itertools
from fractions import Fraction as F

def gen(seed, statedep):
    r = random.Random(seed)
    nv = r.randint(2, 3)
    rng = []
    for i in range(nv):
        lo = r.randint(-1, 1); rng.append((lo, lo + r.randint(1, 3)))
    names = ['x%d' % i for i in range(nv)]
    two = r.random() < 0.5   # second automaton synchronising on a
    # ownership: automaton A writes vars in ownA, B writes the rest (globals anyway)
    def term():
        c = r.randint(0, 2)
        if c == 0: k = r.randint(-2, 4); return (k, ('c', k))
        v = r.randrange(nv)
        if c == 1: return (names[v], ('v', v, 0))
        k = r.randint(-1, 2); return ({"op": "+", "left": names[v], "right": k}, ('v', v, k))
    def mkdests(vs, nd):
        dests = []; jd = []
        sdv = r.randrange(nv); sdon = statedep and r.random() < 0.6
        for i in range(nd):
            d = {'asg': []}; j = {"location": "l"}
            if nd == 2:
                if sdon:
                    v = sdv; lo = rng[v][0]
                    # p0 = (x-lo+1)/(x-lo+2) , p1 = 1/(x-lo+2)
                    den = {"op": "+", "left": {"op": "-", "left": names[v], "right": lo}, "right": 2}
                    num = {"op": "+", "left": {"op": "-", "left": names[v], "right": lo}, "right": 1} if i == 0 else 1
                    j["probability"] = {"exp": {"op": "/", "left": num, "right": den}}
                    d['p'] = ('sd', v, lo, i)
                else:
                    d['p'] = ('c', F(1 + i, 3)); j["probability"] = {"exp": {"op": "/", "left": 1 + i, "right": 3}}
            else:
                d['p'] = ('c', F(1))
            ja = []
            for v in r.sample(vs, r.randint(1, len(vs))):
                lbj, lb = term(); ubj, ub = term()
                L, H = rng[v]
                if r.random() < 0.7:
                    lbj = {"op": "max", "left": L, "right": {"op": "min", "left": H, "right": lbj}}; lb = ('clamp', L, H, lb)
                if r.random() < 0.7:
                    ubj = {"op": "max", "left": L, "right": {"op": "min", "left": H, "right": ubj}}; ub = ('clamp', L, H, ub)
                if r.random() < 0.75:
                    ja.append({"ref": names[v], "lower-bound": lbj, "upper-bound": ubj}); d['asg'].append(('ch', v, lb, ub))
                else:
                    ja.append({"ref": names[v], "value": lbj}); d['asg'].append(('val', v, lb))
            if r.random() < 0.5:
                rv = r.randint(0, 3); ja.append({"ref": "rew", "value": rv}); d['rew'] = rv
            j["assignments"] = ja
            dests.append(d); jd.append(j)
        return dests, jd
    def mkedge(vs):
        e = {"location": "l", "action": "a"}; ed = {'guard': None}
        if r.random() < 0.6:
            v = r.randrange(nv); k = r.randint(rng[v][0], rng[v][1])
            e["guard"] = {"exp": {"op": "≤", "left": names[v], "right": k}}; ed['guard'] = (v, k)
        ed['dests'], e["destinations"] = mkdests(vs, r.randint(1, 2))
        return ed, e
    allv = list(range(nv))
    if two:
        va, vb = allv[:nv//2 or 1], allv[nv//2 or 1:] or [nv-1]
    else:
        va, vb = allv, []
    auts = []; sem = []
    for vs, nm in ((va, 'A'), (vb, 'B')):
        if not vs: continue
        edges = []; se = []
        for _ in range(r.randint(1, 2)):
            ed, e = mkedge(vs); edges.append(e); se.append(ed)
        # a reset edge with action b keeps things cyclic
        auts.append({"name": nm, "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": edges})
        sem.append(se)
    goalv = r.randrange(nv); goalk = r.randint(rng[goalv][0], rng[goalv][1])
    goal = {"op": "=", "left": names[goalv], "right": goalk}
    vars_ = [{"name": names[i], "type": {"kind": "bounded", "base": "int", "lower-bound": rng[i][0], "upper-bound": rng[i][1]}, "initial-value": rng[i][0]} for i in range(nv)]
    vars_.append({"name": "rew", "type": "int", "transient": True, "initial-value": 0})
    elems = [{"automaton": a["name"]} for a in auts]
    system = {"elements": elems}
    if len(auts) == 2:
        system["syncs"] = [{"synchronise": ["a", "a"], "result": "a"}]
    props = [{"name": "p", "expression": {"op": "filter", "fun": "max", "values": {"op": "Pmax", "exp": {"op": "U", "left": True, "right": goal}}, "states": {"op": "initial"}}},
             {"name": "q", "expression": {"op": "filter", "fun": "max", "values": {"op": "Pmin", "exp": {"op": "U", "left": True, "right": goal}}, "states": {"op": "initial"}}},
             {"name": "e", "expression": {"op": "filter", "fun": "max", "values": {"op": "Emax", "exp": "rew", "reach": goal, "accumulate": ["steps"]}, "states": {"op": "initial"}}}]
    model = {"jani-version": 1, "name": "g%d" % seed, "type": "mdp", "actions": [{"name": "a"}], "variables": vars_,
             "automata": auts, "system": system, "properties": props}
    return model, dict(rng=rng, sem=sem, goal=(goalv, goalk))

def ev(t, s):
    if t[0] == 'c': return t[1]
    if t[0] == 'clamp': return max(t[1], min(t[2], ev(t[3], s)))
    return s[t[1]] + t[2]

def tmin(t, rng):
    if t[0] == 'clamp': return max(t[1], min(t[2], tmin(t[3], rng)))
    return t[1] if t[0] == 'c' else rng[t[1]][0] + t[2]
def tmax(t, rng):
    if t[0] == 'clamp': return max(t[1], min(t[2], tmax(t[3], rng)))
    return t[1] if t[0] == 'c' else rng[t[1]][1] + t[2]

def dest_outcomes(d, s, rng):
    # list of (prob, writes dict) ; writes value may be out of range
    if d['p'][0] == 'c': p = d['p'][1]
    else:
        _, v, lo, i = d['p']; den = s[v] - lo + 2
        p = F(s[v] - lo + 1, den) if i == 0 else F(1, den)
    outs = [(p, {})]
    for a in d['asg']:
        v = a[1]; L, H = rng[v]
        if a[0] == 'val':
            outs = [(q, {**w, v: ev(a[2], s)}) for q, w in outs]; continue
        lb, ub = a[2], a[3]
        lo = L - 1 if tmin(lb, rng) < L else L
        hi = H + 1 if tmax(ub, rng) > H else H
        n = hi - lo + 1
        lbv, ubv = ev(lb, s), ev(ub, s)
        nxt = []
        for q, w in outs:
            for k in range(lo, hi + 1):
                val = H + 1 if lbv > ubv else max(lbv, min(ubv, k))
                nxt.append((q / n, {**w, v: val}))
        outs = nxt
    return outs

def successors(info, s):
    rng = info['rng']; sem = info['sem']
    # per automaton: enabled edges; composite choices = product
    per = []
    for se in sem:
        en = [e for e in se if e['guard'] is None or s[e['guard'][0]] <= e['guard'][1]]
        per.append(en)
    if any(not x for x in per): return []
    choices = []
    for combo in itertools.product(*per):
        dist = {}
        douts = [[o for d in e['dests'] for o in dest_outcomes(d, s, rng)] for e in combo]
        for parts in itertools.product(*douts):
            p = F(1); w = {}
            for q, ww in parts: p *= q; w.update(ww)
            if p == 0: continue
            t = list(s)
            err = False
            for v, x in w.items():
                if x < rng[v][0] or x > rng[v][1]: err = True
                t[v] = x
            key = 'ERR' if err else tuple(t)
            dist[key] = dist.get(key, 0) + p
        choices.append(dist)
    return choices

def pmax(info, maximize=True):
    rng = info['rng']; gv, gk = info['goal']
    init = tuple(lo for lo, hi in rng)
    seen = {init}; todo = [init]; succ = {}
    while todo:
        s = todo.pop()
        if s[gv] == gk: succ[s] = []; continue
        cs = successors(info, s); succ[s] = cs
        for c in cs:
            for t in c:
                if t == 'ERR': info['err'] = True
                if t != 'ERR' and t not in seen: seen.add(t); todo.append(t)
    val = {s: (1.0 if s[gv] == gk else 0.0) for s in seen}
    for _ in range(3000):
        new = {}
        for s in seen:
            if s[gv] == gk: new[s] = 1.0; continue
            cs = succ[s]
            if not cs: new[s] = 0.0; continue
            vs = [sum(float(p) * (0.0 if t == 'ERR' else val[t]) for t, p in c.items()) for c in cs]
            new[s] = max(vs) if maximize else min(vs)
        val = new
    return val[init], len(seen)

if __name__ == '__main__':
    out = sys.argv[1]; n = int(sys.argv[2]); sd = sys.argv[3] == 'sd'
    for seed in range(n):
        m, info = gen(seed, sd)
        json.dump(m, open('%s/g%d.jani' % (out, seed), 'w'))
        try:
            pm, ns = pmax(info, True); pn, _ = pmax(info, False)
        except ZeroDivisionError:
            pm = pn = None; ns = -1
        print(seed, pm, pn, ns, info.get('err', False))
