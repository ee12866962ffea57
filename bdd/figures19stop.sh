#!/bin/bash
# Session 19 (h-bdd2): lateness of a SIGTERM on R3SPEC (3 variables of 0..200,
# modular updates: single BDD operations of seconds; the r3.spec of FIGURES.md).
# usage: bash bdd/figures19stop.sh BEFORE AFTER R3SPEC (run from the repository root)
# Without R3SPEC the r3.spec of FIGURES.md's session-19 section is written to /tmp.
B=$1; A=$2; R3=$3
if [ -z "$R3" ]; then
  R3=/tmp/r3.spec
  cat > $R3 <<'SPEC'
model r3
var x : 0 .. 200 = 0
var y : 0 .. 200 = 0
var z : 0 .. 200 = 0
action a when x + y < 300 -> x' = ((x + 3 * y + 7) - 201 * ((x + 3 * y + 7) / 201)), y' = ((y + z) - 201 * ((y + z) / 201))
action b when z > x -> z' = ((z + 2 * x + 1) - 201 * ((z + 2 * x + 1) / 201)), x' = ((x + 5) - 201 * ((x + 5) / 201))
action c when y != z -> y' = ((3 * y + x) - 201 * ((3 * y + x) / 201))
action d when x != y -> z' = ((z * 3 + y) - 201 * ((z * 3 + y) / 201))
property p {
    start x <= 3 && y <= 3 && z <= 3
    unsafe x == 200 && y == 199 && z == 198
}
SPEC
fi
for t in 3 5 8; do
  for v in B A; do
    bin=${!v}
    /usr/bin/time -f '%e %U %S' -o /tmp/sl.$v.t timeout -s TERM $t $bin verify $R3 --engine bdd > /tmp/sl.$v.o 2>&1
    read w u s < <(tail -1 /tmp/sl.$v.t)
    echo "$v SIGTERM@$t wall $w late $(echo "$w-$t" | bc -l) $(grep -o -E '[0-9]+ states reached.*' /tmp/sl.$v.o)"
  done
done
