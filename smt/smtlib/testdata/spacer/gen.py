import random, sys
def expr(r, d, vs):
    if d <= 0 or r.random() < 0.2:
        return r.choice(vs) if r.random() < 0.7 else str(r.randint(0, 5))
    c = r.randrange(8)
    a = lambda: expr(r, d-1, vs)
    if c == 0: return f"({a()} + {a()})"
    if c == 1: return f"({a()} - {a()})"
    if c in (2, 3): return f"({a()}) / 3"
    if c == 4: return f"min({a()}, {a()})"
    if c == 5: return f"max({a()}, {a()})"
    if c == 6: return f"(if {a()} {r.choice(['<','<=','==','>','!='])} {a()} then {a()} else {a()})"
    return f"2 * {a()}"
def model(seed):
    r = random.Random(seed)
    nv = 4
    hi = 8 if nv == 2 else 2
    vs = [f"v{i}" for i in range(nv)]
    out = [f"model s{seed}"]
    for v in vs: out.append(f"var {v} : 0 .. {hi}")
    for j in range(r.randint(2, 3)):
        v = r.choice(vs)
        out.append(f"action a{j} -> {v}' = min({hi}, max(0, {expr(r, 5, vs)}))")
    start = " && ".join(f"{v} <= {r.randint(0, hi)}" for v in vs)
    unsafe = " && ".join(f"{v} == {r.randint(0, hi)}" for v in vs)
    out.append(f"property p {{ start {start} unsafe {unsafe} }}")
    return "\n".join(out) + "\n"
for s in range(int(sys.argv[1]), int(sys.argv[2])):
    open(f"m{s}.spec", "w").write(model(s))
