#!/usr/bin/python3
"""Writes the environment parts of blocks.spec and npuzzle.spec.

The .spec language has no arrays, so these two domains, whose number of
variables grows with the instance, are written with a fixed number of slots
(10 blocks; a grid of at most 12 cells) of which the constants switch the
unused ones off: an unused slot has the range 0 .. 0 and no command touches
it. One file then covers every size through -D. The text between
"// BEGIN POLICIES" and "// END POLICIES" is kept as it is (train.py writes
it).

    /usr/bin/python3 gen_specs.py     # rewrites blocks.spec and npuzzle.spec
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
POLICY_MARK = "// BEGIN POLICIES (written by train.py; do not edit by hand)\n// END POLICIES\n"

NBLOCKS = 10  # block slots
NCELLS = 12   # grid cells: blank + 11 tile slots


def has(k, n):
    # 1 if k <= n else 0, as a constant expression of the language (no `if`
    # in constant expressions)
    return f"min(max({n} - {k} + 1, 0), 1)"


def blocks():
    n = NBLOCKS
    out = []
    w = out.append
    w(f"""// blocks.spec: blocks world with a table limit (paper 004, appendix B.1),
// for the PolIC3 benchmark suite. Written by gen_specs.py.
//
// N blocks (at most {n}: the file has {n} slots; slots above N have the range
// 0 .. 0 and no command touches them). on_i is what block i stands on: 0 the
// table, j the block j, HAND = N + 1 the robot's hand. The robot picks up a
// clear block, and puts the block it holds on the table or stacks it on a
// clear block; stacking may fail and drop the block on the table. At most
// TLIMIT blocks may stand on the table at once (a held block does not
// count): more is unsafe. The goal is the tower 1 on 2 on .. on N.
//
// Start states: the hand is empty, fewer than TLIMIT blocks stand on the
// table, and every block stands on the table or on a block with a smaller
// number (so the start states are proper towers; every configuration is
// reachable from them).
//
// Sizes (-D): N, TLIMIT; see README.md.
model blocks

const N      = 4
const TLIMIT = 3
const TABLE  = 0
const HAND   = N + 1
""")
    for k in range(1, n + 1):
        w(f"const HAS{k} = {has(k, 'N')}  // block {k} exists")
    w("")
    for k in range(1, n + 1):
        w(f"var on_{k} : 0 .. HAND * HAS{k}")
    w("")
    # blocks on the table, counting the unused slots (which hold 0) too
    tsum = " + ".join(f"(if on_{k} == TABLE then 1 else 0)" for k in range(1, n + 1))
    w(f"pred over = {tsum} > TLIMIT + {n} - N  // more than TLIMIT blocks on the table")
    w(f"pred start_room = {tsum} < TLIMIT + {n} - N")
    w("pred hand_empty = " + " && ".join(f"on_{k} != HAND" for k in range(1, n + 1)))
    for j in range(1, n + 1):
        others = " && ".join(f"on_{i} != {j}" for i in range(1, n + 1) if i != j)
        w(f"pred clear_{j} = HAS{j} == 1 && on_{j} != HAND && {others}")
    w("")
    for k in range(1, n + 1):
        w(f"action pick_{k} when hand_empty && clear_{k} -> on_{k}' = HAND")
    w("")
    for k in range(1, n + 1):
        w(f"action put_table when on_{k} == HAND -> on_{k}' = TABLE")
    w("")
    for j in range(1, n + 1):
        for i in range(1, n + 1):
            if i == j:
                continue
            w(f"action stack_on_{j} when on_{i} == HAND && clear_{j} -> on_{i}' = {j} | on_{i}' = TABLE")
    w("")
    w("property table_limit {")
    order = " && ".join(f"(on_{k} == TABLE || on_{k} < {k})" for k in range(2, n + 1))
    pairs = " && ".join(f"(on_{i} == TABLE || on_{i} != on_{j})"
                        for i in range(1, n + 1) for j in range(i + 1, n + 1))
    w(f"    start  hand_empty && start_room && on_1 == TABLE && {order} && {pairs}")
    w("    unsafe over")
    goal = " && ".join(f"on_{k} == {k + 1} * HAS{k + 1}" for k in range(1, n)) + f" && on_{n} == TABLE"
    w(f"    goal   {goal}")
    w("}")
    return "\n".join(out) + "\n"


def npuzzle():
    n = NCELLS
    tiles = range(1, n)
    out = []
    w = out.append
    w(f"""// npuzzle.spec: the sliding-tile puzzle with forbidden tile positions
// (paper 004, appendix B.1), for the PolIC3 benchmark suite. Written by
// gen_specs.py.
//
// A grid of R rows and C columns (R * C <= {n}: the file has {n - 1} tile
// slots; tiles above R * C - 1 have the range 0 .. 0 and never move). Cells
// are numbered row by row from 0; p_k is the cell of tile k and blank the
// cell of the empty square. A move slides the blank up, down, left or right,
// swapping it with the tile there. Tile 1 must never enter cell NO1 and
// tile 2 never cell NO2. The start condition is every placement with tiles
// 1, 2, 3 in reading order and no tile on its forbidden cell (a partial
// order over the tiles, as in the paper); the goal is tiles 1 .. R*C-1 in
// order with the blank last.
//
// Sizes (-D): R, C, NO1, NO2; see README.md.
model npuzzle

const R    = 3
const C    = 3
const LAST = R * C - 1
const NO1  = C + 1   // forbidden cell of tile 1 (row 1, column 1)
const NO2  = 0       // forbidden cell of tile 2
""")
    for k in tiles:
        w(f"const HAS{k} = {has(k, 'LAST')}  // tile {k} exists")
    w("")
    w("var blank : 0 .. LAST")
    for k in tiles:
        w(f"var p_{k} : 0 .. LAST * HAS{k}")
    w("")
    w("pred col_left  = blank - C * (blank / C) > 0")
    w("pred col_right = blank - C * (blank / C) < C - 1")
    w("pred forbidden = p_1 == NO1 || p_2 == NO2")
    conj = [f"(HAS{k} == 0 || blank != p_{k})" for k in tiles]
    conj += [f"(HAS{j} == 0 || p_{i} != p_{j})" for i in tiles for j in tiles if i < j]
    w("pred distinct =\n    " + "\n && ".join(conj))
    w("")
    for name, guard, delta in [("up", "blank >= C", "- C"), ("down", "blank < LAST + 1 - C", "+ C"),
                               ("left", "col_left", "- 1"), ("right", "col_right", "+ 1")]:
        assigns = [f"blank' = blank {delta}"]
        assigns += [f"p_{k}' = if HAS{k} == 1 && p_{k} == blank {delta} then blank else p_{k}" for k in tiles]
        w(f"action {name} when {guard}\n    -> " + ",\n       ".join(assigns))
        w("")
    w("property avoid {")
    w("    start  distinct && p_1 < p_2 && p_2 < p_3 && !forbidden")
    w("    unsafe forbidden")
    goal = " && ".join(f"p_{k} == {k - 1} * HAS{k}" for k in tiles)
    w(f"    goal   blank == LAST && {goal}")
    w("}")
    return "\n".join(out) + "\n"


def write(name, env):
    path = os.path.join(HERE, name)
    policies = POLICY_MARK
    if os.path.exists(path):
        old = open(path).read()
        i = old.find("// BEGIN POLICIES")
        if i >= 0:
            policies = old[i:]
    with open(path, "w") as f:
        f.write(env + "\n" + policies)


def main():
    if len(sys.argv) > 1:
        sys.exit("usage: gen_specs.py")
    write("blocks.spec", blocks())
    write("npuzzle.spec", npuzzle())


if __name__ == "__main__":
    main()
