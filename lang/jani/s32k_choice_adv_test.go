package jani

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"vigil/symbolic"
)

// s32kExpr is a generated JANI expression with its value in a state.
type s32kExpr struct {
	json any
	val  func(s []int) int
}

// s32kCond is a generated JANI condition with its truth in a state.
type s32kCond struct {
	json any
	val  func(s []int) bool
}

// TestS32kChoiceAdversarial (review of s32-jani): random models whose
// guards relate the variables (comparisons of x + k with y - j, ∧, ∨,
// ¬, nested), whose destinations (one to three, with unequal constant
// probabilities) hold one to three PlaJA choices over one or two
// variables with bounds that are constants, variables, x + k, max/min
// of two variables, and that sometimes synchronise with a second
// automaton's guarded edge. Two checks in every state of the product of
// the ranges: (1) the import's successors (a value beyond a range, or
// an empty lb..ub, is "ERR") are those of a direct reading of the JSON:
// emptyChoice's enumeration must never drop the range error of a choice
// that is empty in some state where the edge is taken; (2) the import of
// vigil export --jani's text has the same enabled labels and exact
// distributions (mergeChoiceSplits).
func TestS32kChoiceAdversarial(t *testing.T) {
	seeds := 400
	if n, err := strconv.Atoi(os.Getenv("S32K_SEEDS")); err == nil {
		seeds = n
	}
	if testing.Short() {
		seeds = 60
	}
	merged, refused := 0, 0
	for seed := range seeds {
		r := rand.New(rand.NewPCG(uint64(seed), 0x532b))
		type rng struct{ lo, hi int }
		nv := 2 + r.IntN(2)
		ranges := make([]rng, nv)
		var vars []any
		name := func(i int) string { return fmt.Sprintf("x%d", i) }
		for i := range ranges {
			lo := r.IntN(5) - 2
			ranges[i] = rng{lo, lo + 1 + r.IntN(4)}
			vars = append(vars, map[string]any{"name": name(i), "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": ranges[i].lo, "upper-bound": ranges[i].hi}, "initial-value": ranges[i].lo})
		}
		var term func(depth int) s32kExpr
		term = func(depth int) s32kExpr {
			c := r.IntN(6)
			if depth > 1 {
				c = r.IntN(3)
			}
			switch c {
			case 0:
				k := r.IntN(9) - 3
				return s32kExpr{k, func([]int) int { return k }}
			case 1:
				v := r.IntN(nv)
				return s32kExpr{name(v), func(s []int) int { return s[v] }}
			case 2:
				v, k := r.IntN(nv), r.IntN(5)-2
				return s32kExpr{map[string]any{"op": "+", "left": name(v), "right": k}, func(s []int) int { return s[v] + k }}
			case 3:
				a, b := term(depth+1), term(depth+1)
				return s32kExpr{map[string]any{"op": "max", "left": a.json, "right": b.json}, func(s []int) int { return max(a.val(s), b.val(s)) }}
			case 4:
				a, b := term(depth+1), term(depth+1)
				return s32kExpr{map[string]any{"op": "min", "left": a.json, "right": b.json}, func(s []int) int { return min(a.val(s), b.val(s)) }}
			default:
				a, b := term(depth+1), term(depth+1)
				return s32kExpr{map[string]any{"op": "-", "left": a.json, "right": b.json}, func(s []int) int { return a.val(s) - b.val(s) }}
			}
		}
		var cond func(depth int) s32kCond
		cond = func(depth int) s32kCond {
			c := r.IntN(5)
			if depth > 1 {
				c = 0
			}
			switch c {
			case 0, 1:
				a, b := term(1), term(1)
				ops := []string{"<", "≤", "=", "≠", ">", "≥"}
				op := ops[r.IntN(len(ops))]
				f := map[string]func(x, y int) bool{
					"<": func(x, y int) bool { return x < y }, "≤": func(x, y int) bool { return x <= y },
					"=": func(x, y int) bool { return x == y }, "≠": func(x, y int) bool { return x != y },
					">": func(x, y int) bool { return x > y }, "≥": func(x, y int) bool { return x >= y },
				}[op]
				return s32kCond{map[string]any{"op": op, "left": a.json, "right": b.json}, func(s []int) bool { return f(a.val(s), b.val(s)) }}
			case 2:
				a, b := cond(depth+1), cond(depth+1)
				return s32kCond{map[string]any{"op": "∧", "left": a.json, "right": b.json}, func(s []int) bool { return a.val(s) && b.val(s) }}
			case 3:
				a, b := cond(depth+1), cond(depth+1)
				return s32kCond{map[string]any{"op": "∨", "left": a.json, "right": b.json}, func(s []int) bool { return a.val(s) || b.val(s) }}
			default:
				a := cond(depth + 1)
				return s32kCond{map[string]any{"op": "¬", "exp": a.json}, func(s []int) bool { return !a.val(s) }}
			}
		}
		type asg struct {
			v      int
			lb, ub s32kExpr
			choice bool
		}
		type edge struct {
			guard *s32kCond
			dests [][]asg
		}
		sync := r.IntN(4) == 0
		var edges []edge
		var jedges []any
		for range 1 + r.IntN(2) {
			var e edge
			je := map[string]any{"location": "l", "action": "go"}
			if r.IntN(5) != 0 {
				g := cond(0)
				e.guard = &g
				je["guard"] = map[string]any{"exp": g.json}
			}
			nd := 1 + r.IntN(3)
			ws := make([]int, nd)
			sum := 0
			for i := range ws {
				ws[i] = 1 + r.IntN(4)
				sum += ws[i]
			}
			var jdests []any
			for i := range nd {
				var as []asg
				jas := []any{}
				for _, v := range r.Perm(nv)[:1+r.IntN(nv)] {
					a := asg{v: v, lb: term(0), ub: term(0), choice: r.IntN(4) != 0}
					if a.choice {
						jas = append(jas, map[string]any{"ref": name(v), "lower-bound": a.lb.json, "upper-bound": a.ub.json})
					} else {
						jas = append(jas, map[string]any{"ref": name(v), "value": a.lb.json})
					}
					as = append(as, a)
				}
				e.dests = append(e.dests, as)
				jd := map[string]any{"location": "l", "assignments": jas}
				if nd > 1 {
					jd["probability"] = map[string]any{"exp": map[string]any{"op": "/", "left": ws[i], "right": sum}}
				}
				jdests = append(jdests, jd)
			}
			je["destinations"] = jdests
			edges = append(edges, e)
			jedges = append(jedges, je)
		}
		automata := []any{map[string]any{"name": "A", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": jedges}}
		system := map[string]any{"elements": []any{map[string]any{"automaton": "A"}}}
		var partner s32kCond
		if sync {
			partner = cond(0)
			automata = append(automata, map[string]any{"name": "B", "locations": []any{map[string]any{"name": "m"}}, "initial-locations": []any{"m"},
				"edges": []any{map[string]any{"location": "m", "action": "go", "guard": map[string]any{"exp": partner.json}, "destinations": []any{map[string]any{"location": "m"}}}}})
			system = map[string]any{"elements": []any{map[string]any{"automaton": "A"}, map[string]any{"automaton": "B"}},
				"syncs": []any{map[string]any{"synchronise": []any{"go", "go"}, "result": "go"}}}
		}
		model := map[string]any{"jani-version": 1, "name": "g", "type": "mdp", "variables": vars,
			"actions": []any{map[string]any{"name": "go"}}, "automata": automata, "system": system}
		data, err := json.Marshal(model)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := Decode("g.jani", data, nil)
		if err != nil {
			// refusals (too many combinations) are no answer to check
			refused++
			continue
		}
		var b bytes.Buffer
		if err := Export(&b, m, nil, nil); err != nil {
			t.Fatalf("seed %d: export: %v\n%s", seed, err, data)
		}
		back, _, err := Decode("back.jani", b.Bytes(), nil)
		if err != nil {
			t.Fatalf("seed %d: the export does not import back: %v\n%s\n%s", seed, err, data, b.String())
		}
		if len(back.Commands) < len(m.Commands) {
			merged++
		}
		key := func(s []int) string {
			for i, x := range s {
				if x < ranges[i].lo || x > ranges[i].hi {
					return "ERR"
				}
			}
			return fmt.Sprint(s)
		}
		s := make([]int, nv)
		for i := range s {
			s[i] = ranges[i].lo
		}
		for {
			want := map[string]bool{}
			for _, e := range edges {
				if e.guard != nil && !e.guard.val(s) || sync && !partner.val(s) {
					continue
				}
				for _, as := range e.dests {
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
						for _, u := range succ {
							for x := lo; x <= hi; x++ {
								w := slices.Clone(u)
								w[a.v] = x
								next = append(next, w)
							}
						}
						succ = next
					}
					for _, u := range succ {
						want[key(u)] = true
					}
				}
			}
			got := map[string]bool{}
			for _, c := range m.Commands {
				if !c.Guard.Holds(symbolic.State(s)) {
					continue
				}
				for _, o := range c.Outcomes {
					u := slices.Clone(s)
					for _, a := range o.Assigns {
						if int(a.Var) < nv {
							u[a.Var] = a.Value.Eval(symbolic.State(s))
						}
					}
					got[key(u)] = true
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("seed %d, state %v: import's successors %v, want %v\n%s", seed, s, got, want, data)
			}
			full := append(slices.Clone(s), make([]int, len(m.Vars)-nv)...)
			if w, g := dists(m, full), dists(back, full); w != g {
				t.Fatalf("seed %d, state %v: export imports back to\n%s\nwant\n%s\nmodel %s\nexport %s", seed, s, g, w, data, b.String())
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
	t.Logf("%d of %d models: the export has fewer commands than the import; %d refused", merged, seeds, refused)
}
