import os, sys; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen, gen2, drive, subprocess, json, random, re
bad=0; n=0
a0, a1 = int(sys.argv[1]), int(sys.argv[2])
for seed in range(a0, a1):
    m = gen.model(seed, big=False)
    if len(m.ints) < 2: continue
    txt = m.text
    txt = re.sub(r"start .*\n", "start true\n", txt)
    def wid(mo):
        return "var %s : %d .. %d" % (mo.group(1), int(mo.group(2)) - 6, int(mo.group(3)) + 9)
    txt = re.sub(r"var (x\d+) : (-?\d+) \.\. (-?\d+)", wid, txt)
    f = drive.D + "/h%d.spec" % seed
    open(f, "w").write(txt)
    res = {}
    for algo in ["propu-bdd", "propu", "tarjan"]:
        for rad in ["inf", "0"]:
            p = subprocess.run([drive.V, "safe", f, "--starts", "--algo", algo, "--radius", rad, "--json", "--timeout", "60"], capture_output=True, text=True)
            try:
                j = json.loads(p.stdout)
            except Exception:
                j = None
            if j and "states" in j:
                res[(algo, rad)] = (p.returncode, {s["state"]: s["verdict"] for s in j["states"]}, j.get("safe"), j.get("unsafe"))
            else:
                e = p.stderr
                e = re.sub(r"in state .*", "", e)
                res[(algo, rad)] = (p.returncode, "range error" in e, e[:150])
    for rad in ["inf", "0"]:
        b = res[("tarjan", rad)]
        for algo in ["propu-bdd", "propu"]:
            a = res[(algo, rad)]
            n += 1
            if a[0] != b[0] or (len(a) == 4 and ((a[1] and a[1] != b[1]) or a[2:] != b[2:])) or (len(a) == 3 and a[1] != b[1]):
                bad += 1
                print(seed, algo, rad, str(a)[:300], str(b)[:300], flush=True)
print("many", n, bad)
