#!/bin/bash
# Session 21 (h-cert): whole-process time of vigil cert check, and how late
# it stops after SIGTERM, on certificates of 26 to 32,768 boxes.
# usage: bash ic3/cert/figures21.sh NEW [OLD]   (vigil binaries; from the repository root)
NEW=$(realpath ${1:?usage: figures21.sh NEW [OLD]}); OLD=${2:+$(realpath $2)}
D=$(mktemp -d); R=$PWD
# n281 of ppa/figures21stop.sh (a 7-variable model, 7,680 states, a 7-4-1 network)
sed -n '/^cat > \$D\/n281.spec/,/^NET$/p' ppa/figures21stop.sh | sed "s#\$D/#$D/#" | bash
cat > $D/five.spec <<'SPEC'
model five
var a : 0 .. 7 = 0
var b : 0 .. 7 = 0
var c : 0 .. 7 = 0
var d : 0 .. 7 = 0
var e : 0 .. 7 = 0
action s1 -> a' = (b + c) - 8 * ((b + c) / 8), b' = max(d - e, 0)
action s2 -> c' = min(a + e, 7), d' = abs(b - c), e' = (a + d) - 8 * ((a + d) / 8)
property p {
    unsafe a + b + c + d + e > 40
}
SPEC
# split.py CERT N OUT: N one-state boxes (states of the invariant in
# enumeration order) added to vigil.inv (N < 0: every state, replacing the
# boxes); DROP=1 drops the certificate's own boxes (a forged invariant
# when the states do not cover them).
cat > $D/split.py <<'PY'
import itertools, os, re, sys
src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
text = open(src).read()
vs = re.findall(r'^;   (\|[^|]+\|) (-?\d+)\.\.(-?\d+)', text, re.M)
names = [v[0] for v in vs]
m = re.search(r'(\(define-fun vigil\.inv \([^\n]*\) Bool\n\(or\n)(.*?)(\n\)\)\n)', text, re.S)
boxes = m.group(2).split('\n')
pb = [[(op, names.index(v), int(k)) for op, v, k in re.findall(r'\((<=|>=) (\|[^|]+\|) (-?\d+)\)', b)] for b in boxes]
inside = lambda s: any(all(s[i] <= k if op == '<=' else s[i] >= k for op, i, k in b) for b in pb)
extra = []
for s in itertools.product(*[range(int(v[1]), int(v[2]) + 1) for v in vs]):
    if n >= 0 and len(extra) >= n: break
    if inside(s):
        extra.append('(and ' + ' '.join(f'(>= {names[i]} {x}) (<= {names[i]} {x})' for i, x in enumerate(s)) + ')')
if n < 0 or os.environ.get('DROP'): boxes = []
text = text[:m.start()] + m.group(1) + '\n'.join(boxes + extra) + m.group(3) + text[m.end():]
open(out, 'w').write(re.sub(r'^; boxes: \d+$', f'; boxes: {len(boxes) + len(extra)}', text, count=1, flags=re.M))
PY
P=/usr/bin/python3
(cd $D && $NEW verify n281.spec --engine ppa --cert n281.smt2 >/dev/null \
  && $P split.py n281.smt2 2561 c281.smt2 && DROP=1 $P split.py n281.smt2 2561 bad281.smt2 \
  && $NEW verify five.spec --engine ic3 --cert five1.smt2 >/dev/null && $P split.py five1.smt2 -1 five.smt2)
cd bench/polic3
$NEW verify npuzzle.spec -D R=2 -D C=3 --policy np2x3_16x16_safe --engine polic3 --cert $D/np23.smt2 >/dev/null
$NEW verify transport.spec -D L=12 -D P=4 -D VMAX=2 -D CAP=2 --policy tr2_64x64_safe --engine polic3 --cert $D/tr2.smt2 >/dev/null
$NEW verify beluga.spec -D CAP=3 -D CAP3=2 -D J=4 -D PLANES=2 -D DMAX=2 -D PERIOD=2 --policy be1_16x16_safe --engine polic3 --cert $D/be1.smt2 >/dev/null
cd $R
echo "| certificate | boxes | build | wall s (min of 3) | CPU s | answer |"
for f in np23 tr2 be1 c281 bad281 five; do for v in $OLD $NEW; do
  bw=999; bc=999
  for i in 1 2 3; do
    /usr/bin/time -f "%e %U %S" -o $D/t $v cert check $D/$f.smt2 > $D/o 2>&1
    read w u s < <(tail -1 $D/t); c=$(echo "$u + $s" | bc)
    bw=$(echo "if ($w < $bw) $w else $bw" | bc); bc=$(echo "if ($c < $bc) $c else $bc" | bc)
  done
  echo "| $f | $(grep -m1 '^; boxes:' $D/$f.smt2 | cut -d' ' -f3) | $v | $bw | $bc | $(head -1 $D/o | cut -c1-40) |"
done; done
late() { # binary file delay: seconds from SIGTERM to the exit, exit code, first line
  $1 cert check $2 > $D/o 2>&1 & local p=$!
  sleep $3; local t0=$(date +%s.%N); kill -TERM $p 2>/dev/null; wait $p; local rc=$? t1=$(date +%s.%N)
  echo "| $(basename $2) | $1 | $3 | $(echo "$t1 - $t0" | bc | cut -c1-5) | $rc | $(head -1 $D/o | cut -c1-45) |"
}
echo "| certificate | build | SIGTERM at s | late s | exit | answer |"
for v in $OLD $NEW; do late $v $D/c281.smt2 1; late $v $D/bad281.smt2 2; done
for d in 0.5 1 2; do late $NEW $D/five.smt2 $d; done
/usr/bin/time -f "%e s" -o $D/t $NEW cert check $D/five.smt2 --timeout 1s > $D/o 2>&1
echo "five --timeout 1s: $(tail -1 $D/t), exit code above: $(head -1 $D/o)"
rm -rf $D
