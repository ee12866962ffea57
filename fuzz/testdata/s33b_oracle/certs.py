import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen, gen2, drive
n = 0; inval = 0
big = {"small": False, "big": True, "mid": "mid", "wide": "wide", "s2": "s2"}[sys.argv[3]]
for seed in range(int(sys.argv[1]), int(sys.argv[2])):
    m = gen.model(seed, big=big)
    f = drive.D + "/c%d.spec" % seed
    open(f, "w").write(m.text)
    for algo in ["tarjan", "propu", "lrtdp", "ipi", "lao"]:
        for rad in ["inf", "0", "1"]:
            cf = drive.D + "/c%d.json" % seed
            if os.path.exists(cf): os.remove(cf)
            rc, j, o, e = drive.run(["safe", f, "--starts", "--algo", algo, "--radius", rad, "--cert", cf, "--json", "--timeout", "20"])
            if rc not in (0, 3) or not os.path.exists(cf):
                continue
            rc2, j2, o2, e2 = drive.run(["cert", "check", cf, "--timeout", "15"])
            n += 1
            if rc2 == 4:
                inval += 1
                continue
            if rc2 != 0:
                drive.report(seed, "cert %s r=%s" % (algo, rad), "rc=%d %s" % (rc2, (o2 + e2)[-400:]))
print("certs", n, "unknown", inval, "bad", len(drive.bad))
