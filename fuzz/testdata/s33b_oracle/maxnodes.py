import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen, gen2, drive
n = 0; unk = 0
for seed in range(int(sys.argv[1]), int(sys.argv[2])):
    m = gen.model(seed, big=sys.argv[3] if sys.argv[3] != "small" else False)
    f = drive.D + "/mn%d.spec" % seed
    open(f, "w").write(m.text)
    try:
        ref, S = gen.reference(m)
    except OverflowError:
        continue
    if not ref["starts"]:
        continue
    for mn in ["1", "40", "200", "1000"]:
        rc, j, o, e = drive.run(["verify", f, "--engine", "bdd", "--max-nodes", mn, "--json"])
        if rc == 4:
            unk += 1; continue
        if rc == 1 and "64 bits" in e:
            break
        n += 1
        isr = rc == 1 and "range error" in (e + o)
        if ref["unsafe"] and ref["rerr"]:
            ok = rc == 3 or isr
        elif ref["unsafe"]:
            ok = rc == 3
        elif ref["rerr"]:
            ok = isr
        else:
            ok = rc == 0 and j.get("states") == ref["reach"]
        if not ok:
            drive.report(seed, "maxnodes " + mn, "ref %s got rc=%d %s" % ({k: ref[k] for k in ("reach", "unsafe", "rerr")}, rc, (e + o)[-300:]))
        for rad in ["inf", "0"]:
            k = ref["starts"][0]
            want = gen.rsafe(m, S, k, None if rad == "inf" else 0)
            rc, j, o, e = drive.run(["safe", f, "--algo", "propu-bdd", "--max-nodes", mn, "--state", gen.fmt(m, k), "--radius", rad, "--json"])
            if rc == 4:
                unk += 1; continue
            n += 1
            if want is None:
                ok = rc == 1 and "range error" in e
            else:
                ok = rc == (0 if want else 3)
            if not ok:
                drive.report(seed, "maxnodes propu " + mn + " r=" + rad, "want %s got rc=%d %s" % (want, rc, (e + o)[-300:]))
print("maxnodes", n, "unknown", unk, "bad", len(drive.bad))
