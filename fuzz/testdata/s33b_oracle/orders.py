import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen, drive, json
a0, a1, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
big = {"wide": "wide", "mid": "mid", "small": False}[mode]
n = 0
for seed in range(a0, a1):
    m = gen.model(seed, big=big)
    f = drive.D + "/o%d.spec" % seed
    open(f, "w").write(m.text)
    try:
        ref, S = gen.reference(m)
    except OverflowError:
        continue
    if not ref["starts"] or ref["rerr"]:
        continue
    for order in ["interleaved", "bitwise", "blocked", "auto"]:
        rc, j, o, e = drive.run(["verify", f, "--engine", "bdd", "--bdd-order", order, "--json", "--timeout", "20"])
        if rc == 1 and "64 bits" in e:
            break
        if rc == 4:
            continue
        n += 1
        want = 3 if ref["unsafe"] else 0
        if rc != want or (rc == 0 and j.get("states") != ref["reach"]):
            drive.report(seed, "bdd order " + order, "want %d states %d got rc=%d %s %s" % (want, ref["reach"], rc, j and j.get("states"), e[-200:]))
        if rc == 0:
            rc2, j2, o2, e2 = drive.run(["explore", f, "--policy", "p", "--engine", "bdd", "--bdd-order", order, "--json", "--timeout", "20"])
            if rc2 == 4:
                continue
            if rc2 != 0 or not j2 or j2.get("states") != ref["reach"]:
                drive.report(seed, "explore bdd " + order, "want %d got rc=%d %s" % (ref["reach"], rc2, (o2 + e2)[-300:]))
print("orders", a0, a1, n, "bad", len(drive.bad))
