#!/bin/bash
# The session 18 stop and deep-counterexample tables of bdd/FIGURES.md.
# usage: bash bdd/figures18stop.sh BEFORE AFTER R3SPEC (run from the repository root)
# R3SPEC: 3 variables of 0..200, 4 actions with modular updates (single BDD
# operations of seconds), e.g. /work/r3.spec.
B=$1; A=$2; R3=$3; C=/tmp/bddstop-chain.spec
sed -n '/^-- c.spec --$/,/^-- m.spec --$/p' bench/adversarial/bdd_deep_counterexample.txtar | sed '1d;$d' > $C
echo "| stop | wall s before | wall s after | late before | late after | states (depth) before | states (depth) after |"
echo "|---|---:|---:|---:|---:|---|---|"
stop() {
  name=$1; at=$2; mode=$3
  for v in B A; do
    bin=${!v}
    if [ $mode = signal ]; then
      /usr/bin/time -f '%e' -o /tmp/bddstop.$v.t timeout -s TERM $at $bin verify $R3 --engine bdd > /tmp/bddstop.$v.o 2>&1
    else
      /usr/bin/time -f '%e' -o /tmp/bddstop.$v.t $bin verify $R3 --engine bdd --timeout ${at}s > /tmp/bddstop.$v.o 2>&1
    fi
  done
  wB=$(tail -1 /tmp/bddstop.B.t); wA=$(tail -1 /tmp/bddstop.A.t)
  sB=$(grep -o -E '[0-9]+ states reached \([0-9]+ start\), depth [0-9]+' /tmp/bddstop.B.o | sed -E 's/ states reached \([0-9]+ start\), depth / (/;s/$/)/')
  sA=$(grep -o -E '[0-9]+ states reached \([0-9]+ start\), depth [0-9]+' /tmp/bddstop.A.o | sed -E 's/ states reached \([0-9]+ start\), depth / (/;s/$/)/')
  echo "| $name | $wB | $wA | $(printf %.1f $(echo "$wB-$at" | bc -l)) | $(printf %.1f $(echo "$wA-$at" | bc -l)) | $sB | $sA |"
}
for t in 3 8 12; do stop "SIGTERM at ${t} s" $t signal; done
for t in 3 8; do stop "--timeout ${t}s" $t timeout; done
echo
echo "| command | s before | s after | before/after | CPU s before | CPU s after | CPU before/after | max RSS MiB before | after | same output |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
row() {
  name=$1; shift
  for v in B A; do
    bin=${!v}
    /usr/bin/time -f '%e %U %S %M' -o /tmp/bddstop.$v.t $bin "$@" > /tmp/bddstop.$v.o 2>&1
  done
  same=$(diff <(grep -v -E 'iteration|^memory' /tmp/bddstop.B.o) <(grep -v -E 'iteration|^memory' /tmp/bddstop.A.o) > /dev/null && echo yes || echo NO)
  read wB uB sB mB < <(tail -1 /tmp/bddstop.B.t); read wA uA sA mA < <(tail -1 /tmp/bddstop.A.t)
  cB=$(echo "$uB+$sB" | bc -l); cA=$(echo "$uA+$sA" | bc -l)
  echo "| $name | $wB | $wA | $(printf %.1f $(echo "$wB/$wA" | bc -l)) | $(printf %.2f $cB) | $(printf %.2f $cA) | $(printf %.1f $(echo "$cB/$cA" | bc -l)) | $((mB/1024)) | $((mA/1024)) | $same |"
}
row "verify chain N=10^6+3, walker, near_end (10^6 steps)" verify $C -D N=1000003 --property near_end --policy walker --engine bdd
row "same, --quiet" verify $C -D N=1000003 --property near_end --policy walker --engine bdd --quiet
row "verify chain N=200003 (2·10^5 steps)" verify $C -D N=200003 --property near_end --policy walker --engine bdd
row "verify tarjansafe.spec D=10^5, hasty" verify specs/tarjansafe.spec -D D=100000 --policy hasty --engine bdd
row "safe flappy.spec H=100 GAPH=30 S=80 W=8·10^6, propu-bdd r=inf --starts" safe specs/flappy.spec -D W=8000000 -D H=100 -D GAPH=30 -D S=80 --algo propu-bdd --starts --radius inf
row "same, second run" safe specs/flappy.spec -D W=8000000 -D H=100 -D GAPH=30 -D S=80 --algo propu-bdd --starts --radius inf
