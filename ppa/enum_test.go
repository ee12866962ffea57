package ppa

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestSearchExact: the pruned depth-first search lists exactly the states
// of a cube (those where every predicate has the cube's value), in the
// order of a scan with the first variable innermost, on random models
// with predicates taken from their guards, assignments and properties
// (several variables per atom), for the cubes of random states. A state
// it missed would be a missing abstract transition: a wrong safe.
func TestSearchExact(t *testing.T) {
	cubes, states, multi := 0, 0, 0
	for seed := uint64(1); seed <= 200; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 4, MaxRange: 9, MaxLabels: 4, MaxCommands: 6})
		r := &engine{m: m, preds: newPredSet(m)}
		for _, p := range m.Properties {
			r.preds.add(p.Start)
			r.preds.add(p.Unsafe)
			r.preds.add(p.Goal)
		}
		addCommandPreds(r, m)
		for p := range r.preds.list {
			if r.firstVar(p) >= 0 && r.firstVar(p) < r.lastVar(p) {
				multi++
			}
		}
		lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
		for v := range m.Vars {
			lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
		}
		all := gen.BoxStates(lo, hi)
		rng := rand.New(rand.NewPCG(seed, 7))
		for k := 0; k < 5; k++ {
			vals := r.valsOf(all[rng.IntN(len(all))], len(r.preds.list))
			var want []symbolic.State
			for _, s := range all {
				if r.inCube(s, vals) {
					want = append(want, s)
				}
			}
			cubes, states = cubes+1, states+len(want)
			got, ok := r.search(vals, lo, hi)
			if !ok {
				t.Fatalf("seed %d: search gave up on %d states", seed, len(all))
			}
			if len(got) != len(want) {
				t.Fatalf("seed %d, cube %v: search listed %d states, the cube has %d", seed, vals, len(got), len(want))
			}
			for i := range got {
				if m.FormatState(got[i]) != m.FormatState(want[i]) {
					t.Fatalf("seed %d, cube %v: state %d is %s, want %s", seed, vals, i, m.FormatState(got[i]), m.FormatState(want[i]))
				}
			}
		}
	}
	t.Logf("%d cubes, %d states, %d predicates of several variables", cubes, states, multi)
	if multi == 0 {
		t.Fatal("no predicate reads several variables: the test does not exercise the pruning")
	}
}

// lastVar returns the greatest variable predicate p reads (-1: none).
func (r *engine) lastVar(p int) int {
	v := -1
	r.preds.list[p].c.Vars(func(u symbolic.VarID) { v = max(v, int(u)) })
	return v
}

// addCommandPreds adds to r's predicates each command's guard and, for
// each assignment x' = e, the comparison e <= x.
func addCommandPreds(r *engine, m *symbolic.Model) {
	for ci := range m.Commands {
		c := &m.Commands[ci]
		r.preds.add(c.Guard)
		for _, o := range c.Outcomes {
			for _, a := range o.Assigns {
				r.preds.add(symbolic.Compare(a.Value, symbolic.Le, symbolic.V(a.Var)))
			}
		}
	}
}
