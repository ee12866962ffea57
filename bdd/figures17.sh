#!/bin/bash
# The session-17 table of bdd/FIGURES.md (iterative squaring, closure.go).
# usage: bash bdd/figures17.sh BEFORE AFTER  (two vigil binaries; run from the repository root)
# Prints one table row per command: seconds (wall, /usr/bin/time) before and after, ratio, and
# whether the two outputs agree once the lines of figures (iterations, memory) are dropped.
B=$1; A=$2; C=/tmp/fig17chain.spec
sed -n '/^-- c.spec --$/,$p' bench/adversarial/bdd_squaring_chain.txtar | tail -n +2 > $C
row() {
  name=$1; shift
  for v in B A; do
    bin=${!v}
    /usr/bin/time -f %e -o /tmp/fig17.$v.t $bin "$@" --quiet > /tmp/fig17.$v.o 2>&1; echo "exit $?" >> /tmp/fig17.$v.o
  done
  same=$(diff <(grep -v -E 'iteration|^memory' /tmp/fig17.B.o) <(grep -v -E 'iteration|^memory' /tmp/fig17.A.o) > /dev/null && echo yes || echo NO)
  ans=$(head -1 /tmp/fig17.A.o | cut -c1-40 | sed 's/|/\\|/g')
  itB=$(grep -o -E '[0-9]+ iterations?' /tmp/fig17.B.o | head -1 | cut -d' ' -f1)
  itA=$(grep -o -E '[0-9]+ iterations?' /tmp/fig17.A.o | head -1 | cut -d' ' -f1)
  echo "| $name | $ans | $(tail -1 /tmp/fig17.B.t) | $(tail -1 /tmp/fig17.A.t) | $(printf %.1f $(echo "$(tail -1 /tmp/fig17.B.t)/$(tail -1 /tmp/fig17.A.t)" | bc -l)) | ${itB:--} / ${itA:--} | $same |"
}
echo "| command | answer (after) | s before | s after | before/after | rounds before / after | same output |"
echo "|---|---|---:|---:|---:|---:|---|"
row "safe chain N=2·10^4, walker, --state x=0, r=0" safe $C -D N=20000 --property p --policy walker --state x=0 --radius 0 --algo propu-bdd
row "safe chain N=2·10^5, walker, --state x=0, r=0" safe $C -D N=200000 --property p --policy walker --state x=0 --radius 0 --algo propu-bdd
row "safe chain N=2·10^5, parker, --starts, r=0" safe $C --property near_end --policy parker --starts --radius 0 --algo propu-bdd
row "safe tarjansafe.spec D=10^4, hasty, --starts, r=0" safe specs/tarjansafe.spec -D D=10000 --policy hasty --starts --radius 0 --algo propu-bdd
row "safe tarjansafe.spec D=10^5, hasty, --starts, r=0" safe specs/tarjansafe.spec -D D=100000 --policy hasty --starts --radius 0 --algo propu-bdd
row "safe rover.spec, careful, --starts, r=0" safe specs/rover.spec --policy careful --starts --radius 0 --algo propu-bdd
row "verify chain N=2·10^4, walker" verify $C -D N=20000 --property p --policy walker --engine bdd
row "verify chain N=2·10^4, jumper (range error)" verify $C -D N=20000 --property p --policy jumper --engine bdd
row "verify tarjansafe.spec D=10^4, patient" verify specs/tarjansafe.spec -D D=10000 --policy patient --engine bdd
row "verify tarjansafe.spec D=10^5, patient" verify specs/tarjansafe.spec -D D=100000 --policy patient --engine bdd
row "verify tarjansafe.spec D=10^4, hasty (unsafe)" verify specs/tarjansafe.spec -D D=10000 --policy hasty --engine bdd
row "explore tarjansafe.spec D=10^5, patient" explore specs/tarjansafe.spec -D D=100000 --policy patient --engine bdd
row "verify flappy.spec W=7680, steer" verify specs/flappy.spec -D W=7680 --engine bdd --policy steer
row "verify cliff.spec W=200 FUEL=400, careful" verify specs/cliff.spec -D W=200 -D FUEL=400 --engine bdd --policy careful
