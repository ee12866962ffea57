package jani

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vigil/symbolic"
)

// TestS30jChoiceDifferential (review, session 30) compares the import of
// random models with PlaJA's non-deterministic assignments (bounds that
// are constants, variables or x+k, inside, across or beyond the range, or
// empty) beside ordinary ones against a direct reading of the JSON: in
// every state of the product of ranges, the label's successors are the
// combinations of the values of each lb..ub, and some combination with a
// value outside a range, or an empty lb..ub, is a range error ("ERR").
// Before the fix, 15 of 150 such models (by a script of the same kind)
// had a range error that bfs never met: 14 answered safe.
func TestS30jChoiceDifferential(t *testing.T) {
	dir := t.TempDir()
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 30))
		type rng struct{ lo, hi int }
		nv := 1 + r.IntN(3)
		ranges := make([]rng, nv)
		var vars []any
		name := func(i int) string { return fmt.Sprintf("x%d", i) }
		for i := range ranges {
			lo := r.IntN(4) - 2
			ranges[i] = rng{lo, lo + 1 + r.IntN(4)}
			vars = append(vars, map[string]any{"name": name(i), "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": ranges[i].lo, "upper-bound": ranges[i].hi}, "initial-value": ranges[i].lo})
		}
		// a term: a constant, a variable or a variable plus k, with its
		// value in a state
		type term struct {
			json any
			val  func(s []int) int
		}
		mkTerm := func() term {
			switch c := r.IntN(3); c {
			case 0:
				k := r.IntN(10) - 3
				return term{k, func([]int) int { return k }}
			case 1:
				v := r.IntN(nv)
				return term{name(v), func(s []int) int { return s[v] }}
			default:
				v, k := r.IntN(nv), r.IntN(5)-2
				return term{map[string]any{"op": "+", "left": name(v), "right": k}, func(s []int) int { return s[v] + k }}
			}
		}
		type asg struct {
			v      int
			lb, ub term
			choice bool
		}
		type edge struct {
			guardV, guardK int // x_guardV < guardK, guardV < 0: none
			dests          [][]asg
		}
		var edges []edge
		var jedges []any
		for range 1 + r.IntN(3) {
			e := edge{guardV: -1}
			je := map[string]any{"location": "l", "action": "go"}
			if r.IntN(2) == 0 {
				e.guardV, e.guardK = r.IntN(nv), r.IntN(5)-1
				je["guard"] = map[string]any{"exp": map[string]any{"op": "<", "left": name(e.guardV), "right": e.guardK}}
			}
			var jdests []any
			for range 1 + r.IntN(2) {
				var as []asg
				jas := []any{}
				for _, v := range r.Perm(nv)[:r.IntN(nv+1)] {
					a := asg{v: v, lb: mkTerm(), ub: mkTerm(), choice: r.IntN(3) != 0}
					if a.choice {
						jas = append(jas, map[string]any{"ref": name(v), "lower-bound": a.lb.json, "upper-bound": a.ub.json})
					} else {
						jas = append(jas, map[string]any{"ref": name(v), "value": a.lb.json})
					}
					as = append(as, a)
				}
				e.dests = append(e.dests, as)
				jdests = append(jdests, map[string]any{"location": "l", "assignments": jas})
			}
			je["destinations"] = jdests
			edges = append(edges, e)
			jedges = append(jedges, je)
		}
		model := map[string]any{"jani-version": 1, "name": "g", "type": "lts", "variables": vars,
			"actions":  []any{map[string]any{"name": "go"}},
			"automata": []any{map[string]any{"name": "A", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": jedges}},
			"system":   map[string]any{"elements": []any{map[string]any{"automaton": "A"}}}}
		data, err := json.Marshal(model)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("g%d.jani", seed))
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := Load(path, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		key := func(s []int) string {
			for i, x := range s {
				if x < ranges[i].lo || x > ranges[i].hi {
					return "ERR"
				}
			}
			return fmt.Sprint(s)
		}
		// every state of the product of ranges
		s := make([]int, nv)
		for i := range s {
			s[i] = ranges[i].lo
		}
		for {
			want := map[string]bool{}
			for _, e := range edges {
				if e.guardV >= 0 && s[e.guardV] >= e.guardK {
					continue
				}
				for _, as := range e.dests {
					// the combinations of the assignments' values
					succ := [][]int{slices.Clone(s)}
					for _, a := range as {
						lo, hi := a.lb.val(s), a.lb.val(s)
						if a.choice {
							hi = a.ub.val(s)
						}
						if lo > hi {
							want["ERR"] = true
							succ = nil
							break
						}
						var next [][]int
						for _, t := range succ {
							for x := lo; x <= hi; x++ {
								u := slices.Clone(t)
								u[a.v] = x
								next = append(next, u)
							}
						}
						succ = next
					}
					for _, t := range succ {
						want[key(t)] = true
					}
				}
			}
			got := map[string]bool{}
			for _, c := range m.Commands {
				if !c.Guard.Holds(symbolic.State(s)) {
					continue
				}
				for _, o := range c.Outcomes {
					t := slices.Clone(s)
					for _, a := range o.Assigns {
						t[a.Var] = a.Value.Eval(symbolic.State(s))
					}
					got[key(t)] = true
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("seed %d, state %v: successors %v, want %v\n%s", seed, s, got, want, data)
			}
			i := 0
			for ; i < nv; i++ {
				if s[i] < ranges[i].hi {
					s[i]++
					break
				}
				s[i] = ranges[i].lo
			}
			if i == nv {
				break
			}
		}
	}
}
