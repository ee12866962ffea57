#!/bin/bash
# The counterexample tables of bdd/FIGURES.md (verify with an unsafe state first, squaring).
# usage: bash bdd/figures17cex.sh BEFORE AFTER (run from the repository root)
# Prints wall-clock seconds and CPU seconds (user + system) of each binary:
# on a shared machine the CPU seconds are the steadier figure.
B=$1; A=$2; C=/tmp/bddcex-chain.spec
sed -n '/^-- c.spec --$/,$p' bench/adversarial/bdd_squaring_chain.txtar | tail -n +2 > $C
row() {
  name=$1; shift
  for v in B A; do
    bin=${!v}
    /usr/bin/time -f '%e %U %S' -o /tmp/bddcexfig.$v.t $bin "$@" > /tmp/bddcexfig.$v.o 2>&1; echo "exit $?" >> /tmp/bddcexfig.$v.o
  done
  same=$(diff <(grep -v -E 'iteration|^memory' /tmp/bddcexfig.B.o) <(grep -v -E 'iteration|^memory' /tmp/bddcexfig.A.o) > /dev/null && echo yes || echo NO)
  ans=$(head -1 /tmp/bddcexfig.A.o | cut -c1-40 | sed 's/|/\\|/g')
  itB=$(grep -o -E '[0-9]+ iterations?' /tmp/bddcexfig.B.o | head -1 | cut -d' ' -f1)
  itA=$(grep -o -E '[0-9]+ iterations?' /tmp/bddcexfig.A.o | head -1 | cut -d' ' -f1)
  read wB uB sB < <(tail -1 /tmp/bddcexfig.B.t); read wA uA sA < <(tail -1 /tmp/bddcexfig.A.t)
  cB=$(echo "$uB+$sB" | bc -l); cA=$(echo "$uA+$sA" | bc -l)
  echo "| $name | $ans | $wB | $wA | $(printf %.1f $(echo "$wB/$wA" | bc -l)) | $(printf %.2f $cB) | $(printf %.2f $cA) | $(printf %.1f $(echo "$cB/$cA" | bc -l)) | ${itB:--} / ${itA:--} | $same |"
}
echo "| command | answer (after) | s before | s after | before/after | CPU s before | CPU s after | CPU before/after | rounds before / after | same output |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
row "verify chain N=20003, walker, near_end (unsafe 2·10^4 deep)" verify $C -D N=20003 --property near_end --policy walker --engine bdd
row "verify chain N=200003, walker, near_end (unsafe 2·10^5 deep)" verify $C -D N=200003 --property near_end --policy walker --engine bdd
row "verify tarjansafe.spec D=10^4, hasty" verify specs/tarjansafe.spec -D D=10000 --policy hasty --engine bdd
row "verify tarjansafe.spec D=10^5, hasty" verify specs/tarjansafe.spec -D D=100000 --policy hasty --engine bdd
