#!/bin/bash
# Session 21 (h-ppa): how late ppa and bdd stop after --timeout, and after
# SIGTERM for vigil cert check, on large instances and on two small models
# (found by ppa/review21p_diff_test.go) whose invariant check outlasts the
# timeout. usage: bash ppa/figures21stop.sh VIGIL (from the repository root)
V=${1:-vigil}
D=$(mktemp -d)
sed -n '/^model r3/,/^}/p' bdd/figures19stop.sh > $D/r3.spec
cat > $D/n281.spec <<'SPEC'
model g281
type color = { red, green, blue }
var c : color = red
var x0 : 0 .. 4 = 2
var x1 : -3 .. 0 = 0
var a : [0 .. 2] of -2 .. 1 = -2
var f : bool = false
action t0 -> x1' = min(max(a[abs(x0) / 2], -3), 0), c' = if f then green else blue
policy nn net "net281.json" {
    inputs c / 2, x0 / 4, (x1 + 3) / 3, (a + 2) / 3, f
    outputs t0
}
property p {
    unsafe (a[1] > 1 && c < blue)
}
SPEC
cat > $D/net281.json <<'NET'
{"format":"vigil-nn","version":1,"layers":[{"weights":[[-0.3251935839653015,0.4267340898513794,0.08759383112192154,-0.43106457591056824,0.1933656483888626,0.4184088706970215,0.06712912023067474],[0.7435817718505859,-0.8611054420471191,-0.5111225247383118,-0.46727538108825684,0.8383155465126038,0.44789886474609375,-0.31485041975975037],[0.20979754626750946,0.7193440198898315,1.0052225589752197,-0.6135130524635315,0.5360736846923828,-0.37399375438690186,-0.49619877338409424],[0.013353439047932625,0.5926507115364075,-0.38944345712661743,-1.1073766946792603,-0.03902217745780945,-0.7245147824287415,0.6314442157745361]],"bias":[-0.2502548396587372,-0.6794810891151428,-0.2730772793292999,0.9120147824287415],"activation":"relu"},{"weights":[[-0.23679086565971375,0.5305797457695007,0.2852948009967804,0.8000755906105042]],"bias":[-0.1179644837975502],"activation":"linear"}]}
NET
cat > $D/n2595.spec <<'SPEC'
model g2595
type color = { red, green, blue }
var c : color = red
var x0 : 0 .. 3 = 0
var x1 : -2 .. 1 = 0
var a : [0 .. 2] of -2 .. 1 = -2
action t0 -> x1' = min(max((-(-2 * a[2])), -2), 1), c' = if (-1 * -1) != 0 then green else blue | skip
policy nn net "net2595.json" {
    inputs c / 2, x0 / 3, (x1 + 2) / 3, (a + 2) / 3
    outputs t0
}
property p {
    unsafe (a[0] > 1 && x0 == 3)
}
SPEC
cat > $D/net2595.json <<'NET'
{"format":"vigil-nn","version":1,"layers":[{"weights":[[-0.24354732036590576,0.062062907963991165,-0.09179804474115372,-1.1163265705108643,-0.19295571744441986,0.36134636402130127],[-0.85356605052948,-0.8096387386322021,0.25949183106422424,-1.4043775796890259,0.16608917713165283,0.4545654356479645],[0.14850831031799316,0.058824487030506134,-1.1914446353912354,0.3151789903640747,-0.8159762620925903,0.9008066058158875],[-0.664725661277771,-0.27901795506477356,0.9569941759109497,0.7468804121017456,-0.12189997732639313,0.0063024586997926235]],"bias":[0.19071294367313385,2.0356993675231934,-0.36880457401275635,-0.11627143621444702],"activation":"relu"},{"weights":[[0.5120681524276733,-0.655509352684021,0.3516777455806732,-0.3814633786678314]],"bias":[0.10411155223846436],"activation":"linear"}]}
NET
P=bench/polic3
run() { # label timeout command...
  local l=$1 t=$2; shift 2
  /usr/bin/time -f '%e' -o $D/t "$@" > $D/o 2>&1
  echo "$l | $t | $(tail -1 $D/t) | $(echo "$(tail -1 $D/t) - $t" | bc -l) | $(head -1 $D/o | cut -c1-60)"
}
for t in 3 8; do
  for e in ppa bdd; do
    run "r3.spec $e" $t $V verify $D/r3.spec --engine $e --timeout ${t}s
  done
done
for p in np3x3_16x16_safe np3x3_trees_safe; do
  for e in ppa bdd; do
    run "npuzzle 3x3 $p $e" 5 $V verify $P/npuzzle.spec -D R=3 -D C=3 --policy $p --engine $e --timeout 5s
  done
done
for m in n281 n2595; do
  run "$m.spec ppa" 3 $V verify $D/$m.spec --engine ppa --timeout 3s
  run "$m.spec ppa, no timeout" 0 $V verify $D/$m.spec --engine ppa
done
$V verify $D/n281.spec --engine ppa --cert $D/c281.smt2 --quiet > /dev/null 2>&1
run "vigil cert check c281.smt2, no signal" 0 $V cert check $D/c281.smt2
run "vigil cert check c281.smt2, SIGTERM at 3 s" 3 timeout -s TERM 3 $V cert check $D/c281.smt2
rm -r $D
