# Summarises measure.sh's output: per binary the models solved, answers
# that contradict bfs, the median time, and for new the median ratio
# new/old over the models both decide.  python3 stats.py times.txt
import sys, statistics as st
by = {}
for x in (l.split() for l in open(sys.argv[1])):
    b, bfs, m, r, t = x[0], x[1], x[-3], x[-2], float(x[-1])
    by.setdefault(b, {})[m] = (bfs, r, t)
ok = ("sat", "unsat")
for m in ("old", "new"):
    rows = [v[m] for v in by.values() if m in v]
    solved = sum(r in ok for _, r, _ in rows)
    wrong = sum(r in ok and (r == "sat") != (bfs == "safe") for bfs, r, _ in rows)
    line = f"{m}: {len(rows)} models, {solved} solved, {wrong} contradict bfs, median {st.median(t for _, _, t in rows):.3f} s"
    if m == "new":
        both = [v for v in by.values() if v["old"][1] in ok and v["new"][1] in ok]
        rs = [v["new"][2] / v["old"][2] for v in both]
        lost = sorted(b for b, v in by.items() if v["old"][1] in ok and v["new"][1] not in ok)
        won = sorted(b for b, v in by.items() if v["old"][1] not in ok and v["new"][1] in ok)
        line += (f"; ratio new/old median {st.median(rs):.3f} over {len(rs)}, "
                 f"{sum(r < 1/1.5 for r in rs)} faster and {sum(r > 1.5 for r in rs)} slower by 1.5x; "
                 f"newly unsolved {lost}, newly solved {won}")
    print(line)
