package explicit

// The naive baseline of vigil bench. It is not a second BFS engine: vigil
// verify, explore and the other commands search with Search only. vigil
// bench measures what Search's packed states and open-addressing store
// buy, and needs for that a search that differs in nothing else: the same
// successor generator and policy (Generator and Decider), with states kept
// the way a first implementation would keep them. Search cannot play this
// part (it has no unpacked store to switch to), so the baseline lives
// beside it, where a change to the generator reaches both.

import (
	"context"
	"strconv"

	"vigil/symbolic"
)

// NaiveSearch is the baseline of vigil bench: a breadth-first search with
// g's successor generator and dec's policy (nil: every applicable label),
// but states kept as []int in a queue and as formatted strings in a
// map[string]int, the way a first implementation would store them. It
// returns the number of states reached and transitions taken, and keep:
// the search's tables, for the caller to hold alive while it measures the
// heap. progress is called every 65536 states expanded.
//
// It is not an engine to decide anything with (it finds no counterexample
// and stops at nothing but ctx); Search is.
func NaiveSearch(ctx context.Context, g *Generator, dec Decider, progress func(states, expanded int)) (states, transitions int, keep any, err error) {
	m := g.M
	seen := map[string]int{}
	var queue []symbolic.State
	keyOf := func(s symbolic.State) string {
		b := make([]byte, 0, 4*len(s))
		for i, v := range s {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		return string(b)
	}
	add := func(s symbolic.State) {
		k := keyOf(s)
		if _, ok := seen[k]; !ok {
			seen[k] = len(seen)
			queue = append(queue, append(symbolic.State(nil), s...))
		}
	}
	if err := g.StartsContext(ctx, func(s symbolic.State) bool { add(s); return len(seen)&0xffff != 0 || ctx.Err() == nil }); err != nil {
		return len(seen), 0, nil, err
	}
	x := &Expansion{}
	src := make([]uint64, g.Words())
	t := make(symbolic.State, len(m.Vars))
	for i := 0; i < len(queue); i++ {
		if i&0xffff == 0 {
			if ctx.Err() != nil {
				return len(seen), transitions, nil, ctx.Err()
			}
			progress(len(seen), i)
		}
		s := queue[i]
		if g.Status(s) != Open {
			continue
		}
		g.Applicable(s, x)
		if len(x.Labels) == 0 {
			continue
		}
		g.L.Pack(s, src)
		if dec != nil {
			l, err := dec.Decide(s, x.App)
			if err != nil {
				return 0, 0, nil, err
			}
			if l == symbolic.NoLabel {
				continue
			}
			err = g.Successors(src, s, l, x)
			if err != nil {
				return 0, 0, nil, err
			}
		} else {
			for _, l := range x.Labels {
				if err := g.Successors(src, s, l, x); err != nil {
					return 0, 0, nil, err
				}
			}
		}
		transitions += len(x.Succs)
		for j := range x.Succs {
			g.L.Unpack(x.Target(j), t)
			add(t)
		}
	}
	return len(seen), transitions, []any{seen, queue}, nil
}
