package jani_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"vigil/symbolic"
)

// TestS26kModuloLevelsAgainstStorm compares, in every state of random
// models, the successors of the imported commands with a direct reading of
// the JANI file as Storm computes it: % the remainder of truncated
// division (C++ %, Go's %), for either sign of the modulus, nested, in
// guards and in assignments, and assignments performed index by index (a
// later index reads the earlier ones' values). The import's narrowing by
// the guard held for later indices too, where their % read values the
// guard does not bound (3 of 300 such models went wrong; seed 3 fails first).
func TestS26kModuloLevelsAgainstStorm(t *testing.T) {
	vars := []string{"x", "y", "r"}
	const lo, hi = -6, 6
	var expr func(r *rand.Rand, d int) any
	expr = func(r *rand.Rand, d int) any {
		c := r.Float64()
		switch {
		case d <= 0 || c < 0.3:
			if r.IntN(4) == 0 {
				return r.IntN(15) - 7
			}
			return vars[r.IntN(3)]
		case c < 0.6:
			ks := []int{1, 2, 3, 4, 5, 7, -1, -2, -3, -4, -5, -7}
			return map[string]any{"op": "%", "left": expr(r, d-1), "right": ks[r.IntN(len(ks))]}
		case c < 0.75:
			return map[string]any{"op": "*", "left": r.IntN(7) - 3, "right": expr(r, d-1)}
		}
		return map[string]any{"op": []string{"+", "-"}[r.IntN(2)], "left": expr(r, d-1), "right": expr(r, d-1)}
	}
	var eval func(e any, s map[string]int) int
	eval = func(e any, s map[string]int) int {
		switch e := e.(type) {
		case int:
			return e
		case string:
			return s[e]
		}
		m := e.(map[string]any)
		a, b := eval(m["left"], s), eval(m["right"], s)
		switch m["op"] {
		case "%":
			return a % b // Go's %, as C++'s: truncated, the sign of a
		case "*":
			return a * b
		case "+":
			return a + b
		}
		return a - b
	}
	type cmp struct {
		op string
		l  any
		r  int
	}
	type asgn struct {
		v     string
		e     any
		level int
	}
	type edge struct {
		guard []cmp
		asg   []asgn
	}
	holds := func(g []cmp, s map[string]int) bool {
		for _, c := range g {
			a := eval(c.l, s)
			ok := map[string]bool{"=": a == c.r, "≤": a <= c.r, "≥": a >= c.r, "≠": a != c.r}[c.op]
			if !ok {
				return false
			}
		}
		return true
	}
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 26))
		var edges []edge
		var jedges []any
		for range 2 + r.IntN(3) {
			var e edge
			for range r.IntN(3) {
				var l any = vars[r.IntN(3)]
				if r.IntN(2) == 0 {
					l = expr(r, 2)
				}
				e.guard = append(e.guard, cmp{[]string{"=", "≤", "≥", "≠"}[r.IntN(4)], l, r.IntN(9) - 4})
			}
			var guard any = true
			for i, c := range e.guard {
				x := map[string]any{"op": c.op, "left": c.l, "right": c.r}
				if i == 0 {
					guard = x
				} else {
					guard = map[string]any{"op": "∧", "left": guard, "right": x}
				}
			}
			var jas []any
			for _, i := range r.Perm(3)[:1+r.IntN(3)] {
				// % 7 keeps every value in -6..6 (no range error)
				a := asgn{vars[i], map[string]any{"op": "%", "left": expr(r, 2), "right": []int{7, -7}[r.IntN(2)]}, []int{0, 0, 1, 2}[r.IntN(4)]}
				e.asg = append(e.asg, a)
				jas = append(jas, map[string]any{"ref": a.v, "value": a.e, "index": a.level})
			}
			edges = append(edges, e)
			jedges = append(jedges, map[string]any{"location": "l", "action": "a", "guard": map[string]any{"exp": guard},
				"destinations": []any{map[string]any{"location": "l", "assignments": jas}}})
		}
		var jvars []any
		for _, v := range vars {
			jvars = append(jvars, map[string]any{"name": v, "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": lo, "upper-bound": hi}, "initial-value": 0})
		}
		src, err := json.Marshal(map[string]any{"jani-version": 1, "name": "fz", "type": "mdp", "actions": []any{map[string]any{"name": "a"}},
			"variables": jvars,
			"automata":  []any{map[string]any{"name": "au", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": jedges}},
			"system":    map[string]any{"elements": []any{map[string]any{"automaton": "au"}}}})
		if err != nil {
			t.Fatal(err)
		}
		m, err := loadText(t, string(src))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		id := map[string]symbolic.VarID{}
		for i, v := range m.Vars {
			id[v.Name] = symbolic.VarID(i)
		}
		s := make(symbolic.State, len(m.Vars))
		st := map[string]int{}
		for x := lo; x <= hi; x++ {
			for y := lo; y <= hi; y++ {
				for z := lo; z <= hi; z++ {
					st["x"], st["y"], st["r"] = x, y, z
					for _, v := range vars {
						s[id[v]] = st[v]
					}
					var want, got []string
					for _, e := range edges {
						if !holds(e.guard, st) {
							continue
						}
						cur := map[string]int{"x": x, "y": y, "r": z}
						for lv := 0; lv <= 2; lv++ {
							next := map[string]int{}
							for _, a := range e.asg {
								if a.level == lv {
									next[a.v] = eval(a.e, cur)
								}
							}
							for v, k := range next {
								cur[v] = k
							}
						}
						want = append(want, fmt.Sprint(cur["x"], cur["y"], cur["r"]))
					}
					for _, c := range m.Commands {
						if !c.Guard.Holds(s) {
							continue
						}
						cur := map[string]int{"x": x, "y": y, "r": z}
						for _, as := range c.Outcomes[0].Assigns {
							cur[m.Vars[as.Var].Name] = as.Value.Eval(s)
						}
						got = append(got, fmt.Sprint(cur["x"], cur["y"], cur["r"]))
					}
					sort.Strings(want)
					sort.Strings(got)
					if fmt.Sprint(want) != fmt.Sprint(got) {
						t.Fatalf("seed %d, state x=%d y=%d r=%d: successors %v, Storm's %v\n%s", seed, x, y, z, got, want, src)
					}
				}
			}
		}
	}
}
