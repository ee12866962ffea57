#!/bin/bash
# Session 30 (h-rev2): PlaJA's non-deterministic assignments, random models
# against a direct reading of the JSON (ref.py). usage, from a scratch
# directory: bash run.sh VIGIL FIRST_SEED END_SEED [ENGINES]
D=$(dirname "$0"); V=${1:-vigil}; A=${2:-0}; B=${3:-150}; E=${4:-bfs ppa ic3 bdd}
python3 "$D/gen.py" "$A" "$B"
for s in $(seq "$A" $((B - 1))); do
  f=g$s.jani; out=""
  for e in $E; do
    o=$(timeout 60 "$V" verify "$f" --property p_avoid --engine "$e" --quiet 2>&1 | grep -v W0901 | grep -v '^ ' | head -1)
    case "$o" in
      safe*) v=safe;; unsafe*) v=unsafe;; *"range error"*|*"leaves a variable"*) v=range;; *) v="other:$o";;
    esac
    out="$out $e=$v"
  done
  echo "$f$out"
done > res.txt
awk '{$1=""; print}' res.txt | sort | uniq -c
python3 "$D/ref.py"
