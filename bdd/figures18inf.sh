#!/bin/bash
# The Prop-U r = inf squaring table of bdd/FIGURES.md (session 18).
# usage: bash bdd/figures18inf.sh BEFORE AFTER (run from the repository root)
# Prints wall-clock seconds and CPU seconds (user + system) of each binary.
B=$1; A=$2; T=bench/adversarial/propu_inf_squaring.txtar
R=/tmp/bddinf-r.spec; L=/tmp/bddinf-ladder.spec
sed -n '/^-- r.spec --$/,$p' $T | tail -n +2 > $R
sed -n '/^-- ladder.spec --$/,/^-- r.spec --$/p' $T | sed '1d;$d' > $L
row() {
  name=$1; shift
  for v in B A; do
    bin=${!v}
    /usr/bin/time -f '%e %U %S' -o /tmp/bddinffig.$v.t $bin "$@" > /tmp/bddinffig.$v.o 2>/tmp/bddinffig.$v.e; echo "exit $?" >> /tmp/bddinffig.$v.o
    grep -v '^\[' /tmp/bddinffig.$v.e >> /tmp/bddinffig.$v.o
  done
  same=$(diff <(grep -v -E 'iteration|^memory' /tmp/bddinffig.B.o) <(grep -v -E 'iteration|^memory' /tmp/bddinffig.A.o) > /dev/null && echo yes || echo NO)
  ans=$(head -1 /tmp/bddinffig.A.o | cut -c1-40 | sed 's/|/\\|/g')
  itB=$(grep -o -E '[0-9]+ iterations?' /tmp/bddinffig.B.o | head -1 | cut -d' ' -f1)
  itA=$(grep -o -E '[0-9]+ iterations?' /tmp/bddinffig.A.o | head -1 | cut -d' ' -f1)
  read wB uB sB < <(tail -1 /tmp/bddinffig.B.t); read wA uA sA < <(tail -1 /tmp/bddinffig.A.t)
  cB=$(echo "$uB+$sB" | bc -l); cA=$(echo "$uA+$sA" | bc -l)
  echo "| $name | $ans | $wB | $wA | $(printf %.1f $(echo "$wB/$wA" | bc -l)) | $(printf %.2f $cB) | $(printf %.2f $cA) | $(printf %.1f $(echo "$cB/(0.005+$cA)" | bc -l)) | ${itB:--} / ${itA:--} | $same |"
}
echo "| command (--radius inf --algo propu-bdd) | answer (after) | s before | s after | before/after | CPU s before | CPU s after | CPU before/after | rounds before / after | same output |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
row "forced chain N=2·10^4, --state x=15000" safe $R --property fall --state x=15000 --radius inf --algo propu-bdd
row "forced chain N=2·10^5, --state x=150000" safe $R -D N=200000 --property fall --state x=150000 --radius inf --algo propu-bdd
row "forced chain N=2·10^5, late, --starts" safe $R -D N=200000 --property late --starts --radius inf --algo propu-bdd
row "ladder N=2·10^4 K=1000 (too wide to square), --starts" safe $L -D N=20000 -D K=1000 --starts --radius inf --algo propu-bdd
row "flappy.spec, --starts" safe specs/flappy.spec --starts --radius inf --algo propu-bdd
row "flappy.spec H=100 GAPH=30 S=80 W=8000, --starts" safe specs/flappy.spec -D H=100 -D GAPH=30 -D S=80 -D W=8000 --starts --radius inf --algo propu-bdd
row "tarjansafe.spec D=10^5, --starts" safe specs/tarjansafe.spec -D D=100000 --starts --radius inf --algo propu-bdd
row "rover.spec, --starts" safe specs/rover.spec --starts --radius inf --algo propu-bdd
