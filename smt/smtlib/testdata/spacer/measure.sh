#!/bin/bash
# Spacer on vigil export --chc, two vigil binaries interleaved model by
# model (smt/smtlib/FIGURES.md). Usage, in an empty directory:
#   python3 .../gen.py 1000 1150        # the 150 models m1000..m1149
#   .../measure.sh OLD_VIGIL NEW_VIGIL > times.txt
# Each line: model, bfs's first word (safe, unsafe, or vigil for an
# error), old|new, z3's first line (sat, unsat, timeout), whole-process
# wall seconds of z3 -T:10.
old=$1 new=$2
for f in m*.spec; do
  b=$(basename "$f" .spec)
  bfs=$("$old" verify --engine bfs "$f" 2>&1 | head -1 | cut -d: -f1 | cut -d' ' -f1)
  for m in old new; do
    bin=$old; [ $m = new ] && bin=$new
    "$bin" export --chc "$f" -o "$b.$m.smt2"
    s=$(date +%s.%N)
    r=$(timeout 15 z3 -T:10 "$b.$m.smt2" 2>&1 | head -1)
    e=$(date +%s.%N)
    echo "$b $bfs $m $r $(echo "$e - $s" | bc)"
  done
done
