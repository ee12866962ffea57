#!/bin/bash
# The automatic order table of bdd/FIGURES.md (session 19): every shipped
# spec under each of its policies, the bench/polic3 instances under a tree
# ensemble and a network, and the sum of bdd_sum_timeout.txtar, with
# --engine bdd and the default order (before: interleaved; after: auto).
# usage: bash bdd/figures19.sh BEFORE AFTER [TIMEOUT] (from the repository root)
B=$1; A=$2; TO=${3:-60s}
S=/tmp/bddfig19-sum.spec
sed -n '/^-- s.spec --$/,$p' bench/adversarial/bdd_sum_timeout.txtar | tail -n +2 > $S
row() {
  name=$1; shift
  for v in B A; do
    bin=${!v}
    /usr/bin/time -f '%e %U %S' -o /tmp/bddfig19.$v.t nice $bin "$@" --engine bdd --timeout $TO > /tmp/bddfig19.$v.o 2>/tmp/bddfig19.$v.e; echo "exit $?" >> /tmp/bddfig19.$v.o
    grep -v '^\[' /tmp/bddfig19.$v.e >> /tmp/bddfig19.$v.o
  done
  same=$(diff <(grep -v -E 'iteration|^memory' /tmp/bddfig19.B.o) <(grep -v -E 'iteration|^memory' /tmp/bddfig19.A.o) > /dev/null && echo yes || echo NO)
  ans=$(head -1 /tmp/bddfig19.A.o | cut -c1-30 | sed 's/|/\\|/g')
  ord=$(grep -o -E '\((interleaved|bitwise) order\)' /tmp/bddfig19.A.o | head -1 | tr -d '()' | cut -d' ' -f1)
  read wB uB sB < <(tail -1 /tmp/bddfig19.B.t); read wA uA sA < <(tail -1 /tmp/bddfig19.A.t)
  echo "| $name | $ans | ${ord:--} | $wB | $wA | $(printf %.2f $(echo "$wB/(0.005+$wA)" | bc -l)) | $same |"
}
echo "| command (verify --engine bdd) | answer (after) | order (after) | s before | s after | before/after | same output |"
echo "|---|---|---|---:|---:|---:|---|"
row "x + y > 7 over 0..10^6 (bdd_sum_timeout)" verify $S
for f in specs/*.spec; do
  for p in $(grep -o -E '^policy [a-z]+ [A-Za-z0-9_]+' $f | cut -d' ' -f3); do
    row "$(basename $f) --policy $p" verify $f --policy $p
  done
done
awk -F, 'NR>1 && ($7=="trees" && $8=="safe" || $7=="16x16" && $8=="unsafe") {print $3"|"$4"|"$5}' bench/polic3/policies.csv | while IFS='|' read spec defs pol; do
  row "polic3 $spec $defs --policy $pol" verify bench/polic3/$spec $defs --policy $pol
done
