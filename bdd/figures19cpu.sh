#!/bin/bash
# Session 19 (h-bdd2): CPU of the stop section's runs, three interleaved runs each
# (wall s before, after; CPU s before, after; CPU before/after over the three).
# usage: bash bdd/figures19cpu.sh BEFORE AFTER (run from the repository root)
B=$1; A=$2; C=/tmp/bddstop-chain.spec
sed -n '/^-- c.spec --$/,/^-- m.spec --$/p' bench/adversarial/bdd_deep_counterexample.txtar | sed '1d;$d' > $C
row() {
  name=$1; shift
  out="| $name |"
  for i in 1 2 3; do
  for v in B A; do
    bin=${!v}
    /usr/bin/time -f '%e %U %S' -o /tmp/cr.$v.t $bin "$@" > /tmp/cr.$v.o 2>&1
    read w u s < <(tail -1 /tmp/cr.$v.t)
    eval "w$v$i=$w; c$v$i=$(echo "$u+$s" | bc -l)"
  done
  same=$(diff <(grep -v -E 'iteration|^memory' /tmp/cr.B.o) <(grep -v -E 'iteration|^memory' /tmp/cr.A.o) > /dev/null && echo yes || echo NO)
  done
  echo "| $name | $wB1 $wB2 $wB3 | $wA1 $wA2 $wA3 | $cB1 $cB2 $cB3 | $cA1 $cA2 $cA3 | $(printf %.2f $(echo "($cB1+$cB2+$cB3)/($cA1+$cA2+$cA3)" | bc -l)) | $same |"
}
row "verify chain N=10^6+3, walker, near_end" verify $C -D N=1000003 --property near_end --policy walker --engine bdd --quiet
row "verify chain N=200003" verify $C -D N=200003 --property near_end --policy walker --engine bdd
row "verify tarjansafe.spec D=10^5, hasty" verify specs/tarjansafe.spec -D D=100000 --policy hasty --engine bdd
row "safe flappy.spec H=100 GAPH=30 S=80 W=8·10^6, propu-bdd r=inf --starts" safe specs/flappy.spec -D W=8000000 -D H=100 -D GAPH=30 -D S=80 --algo propu-bdd --starts --radius inf
