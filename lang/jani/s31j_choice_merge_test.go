package jani

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vigil/symbolic"
)

// TestS31jChoiceMergeDifferential checks the merging of a PlaJA choice's
// outcomes (session 31) against the reading before it, on random models:
// each destination's probability (stated, or none: every outcome
// alike) shared equally by the values k of the variable's range, widened
// by one where lb..ub may leave it, each writing max(lb, min(ub, k)), or
// the value above the range where lb..ub is empty. In every state of the
// product of ranges where the edge is enabled, exactly one command is
// enabled (the edge's pieces have disjoint guards), the outcomes of one
// destination lead to pairwise different states (range errors included:
// "ERR"), and each state has the probability, exactly, that the
// k-outcomes leading there had together.
func TestS31jChoiceMergeDifferential(t *testing.T) {
	dir := t.TempDir()
	splits := 0
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 31))
		type rng struct{ lo, hi int }
		nv := 1 + r.IntN(3)
		ranges := make([]rng, nv)
		var vars []any
		name := func(i int) string { return fmt.Sprintf("x%d", i) }
		decl := &symbolic.Model{}
		for i := range ranges {
			lo := r.IntN(4) - 2
			ranges[i] = rng{lo, lo + 1 + r.IntN(4)}
			vars = append(vars, map[string]any{"name": name(i), "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": ranges[i].lo, "upper-bound": ranges[i].hi}, "initial-value": ranges[i].lo})
			decl.Vars = append(decl.Vars, symbolic.Var{Name: name(i), Lo: ranges[i].lo, Hi: ranges[i].hi})
		}
		type term struct {
			json any
			expr *symbolic.Expr
		}
		mkTerm := func() term {
			switch r.IntN(3) {
			case 0:
				k := r.IntN(10) - 3
				return term{k, symbolic.Lit(k)}
			case 1:
				v := r.IntN(nv)
				return term{name(v), symbolic.V(symbolic.VarID(v))}
			default:
				v, k := r.IntN(nv), r.IntN(5)-2
				return term{map[string]any{"op": "+", "left": name(v), "right": k}, &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(symbolic.VarID(v)), symbolic.Lit(k)}}}
			}
		}
		type asg struct {
			v      int
			lb, ub term
			choice bool
		}
		type dest struct {
			p  *big.Rat // nil: none stated
			as []asg
		}
		guardV, guardK := -1, 0
		je := map[string]any{"location": "l", "action": "go"}
		if r.IntN(2) == 0 {
			guardV, guardK = r.IntN(nv), r.IntN(5)-1
			je["guard"] = map[string]any{"exp": map[string]any{"op": "<", "left": name(guardV), "right": guardK}}
		}
		nd := 1 + r.IntN(2)
		stated := r.IntN(2) == 0
		var dests []dest
		var jdests []any
		for i := range nd {
			var d dest
			jd := map[string]any{"location": "l"}
			if stated {
				d.p = big.NewRat(1, 1)
				if nd == 2 {
					d.p = big.NewRat(int64(1+i), 3)
				}
				jd["probability"] = map[string]any{"exp": 1}
				if nd == 2 {
					jd["probability"] = map[string]any{"exp": map[string]any{"op": "/", "left": 1 + i, "right": 3}}
				}
			}
			jas := []any{}
			for _, v := range r.Perm(nv)[:r.IntN(nv+1)] {
				a := asg{v: v, lb: mkTerm(), ub: mkTerm(), choice: r.IntN(4) != 0}
				if a.choice {
					jas = append(jas, map[string]any{"ref": name(v), "lower-bound": a.lb.json, "upper-bound": a.ub.json})
				} else {
					jas = append(jas, map[string]any{"ref": name(v), "value": a.lb.json})
				}
				d.as = append(d.as, a)
			}
			jd["assignments"] = jas
			dests = append(dests, d)
			jdests = append(jdests, jd)
		}
		je["destinations"] = jdests
		model := map[string]any{"jani-version": 1, "name": "g", "type": "mdp", "variables": vars,
			"actions":  []any{map[string]any{"name": "go"}},
			"automata": []any{map[string]any{"name": "A", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": []any{je}}},
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
			t.Fatalf("seed %d: %v\n%s", seed, err, data)
		}
		if len(m.Commands) > 1 {
			splits++
		}
		key := func(s []int) string {
			for i, x := range s {
				if x < ranges[i].lo || x > ranges[i].hi {
					return "ERR"
				}
			}
			return fmt.Sprint(s)
		}
		// the k of a choice of v: its range, widened where lb..ub may
		// leave it (over the declared ranges, as the import bounds it)
		kRange := func(a asg) (int, int) {
			lo, hi := ranges[a.v].lo, ranges[a.v].hi
			if l, _ := decl.Bounds(a.lb.expr); l < lo {
				lo--
			}
			if _, h := decl.Bounds(a.ub.expr); h > hi {
				hi++
			}
			return lo, hi
		}
		s := make([]int, nv)
		for i := range s {
			s[i] = ranges[i].lo
		}
		for {
			st := symbolic.State(s)
			if guardV < 0 || s[guardV] < guardK {
				// the reading before: each dest's combinations of k
				type wsucc struct {
					w   *big.Rat
					key string
				}
				var all []wsucc
				for _, d := range dests {
					type part struct {
						t []int
						w *big.Rat
						e bool // an empty choice met
					}
					parts := []part{{slices.Clone(s), big.NewRat(1, 1), false}}
					for _, a := range d.as {
						var next []part
						for _, p := range parts {
							if !a.choice {
								u := slices.Clone(p.t)
								u[a.v] = a.lb.expr.Eval(st)
								next = append(next, part{u, p.w, p.e})
								continue
							}
							lo, hi := kRange(a)
							n := int64(hi - lo + 1)
							lb, ub := a.lb.expr.Eval(st), a.ub.expr.Eval(st)
							for k := lo; k <= hi; k++ {
								u := slices.Clone(p.t)
								u[a.v] = max(lb, min(ub, k))
								next = append(next, part{u, new(big.Rat).Mul(p.w, big.NewRat(1, n)), p.e || lb > ub})
							}
						}
						parts = next
					}
					for _, p := range parts {
						k := key(p.t)
						if p.e {
							k = "ERR"
						}
						w := p.w
						if d.p != nil {
							w = new(big.Rat).Mul(w, d.p)
						}
						all = append(all, wsucc{w, k})
					}
				}
				want := map[string]*big.Rat{}
				sum := new(big.Rat)
				for _, x := range all {
					if !stated {
						x.w = big.NewRat(1, 1) // every k-outcome alike
					}
					sum.Add(sum, x.w)
					if want[x.key] == nil {
						want[x.key] = new(big.Rat)
					}
					want[x.key].Add(want[x.key], x.w)
				}
				for _, w := range want {
					w.Quo(w, sum)
				}
				var on []int
				for ci, c := range m.Commands {
					if c.Guard.Holds(st) {
						on = append(on, ci)
					}
				}
				if len(on) != 1 {
					t.Fatalf("seed %d, state %v: %d commands enabled, want 1\n%s", seed, s, len(on), data)
				}
				c := m.Commands[on[0]]
				got := map[string]*big.Rat{}
				seen := map[string]bool{} // destination and successor
				wsum := new(big.Rat)
				for _, o := range c.Outcomes {
					if o.Weight.IsSet() {
						wsum.Add(wsum, big.NewRat(o.Weight.Num, o.Weight.Den))
					}
				}
				for _, o := range c.Outcomes {
					u := slices.Clone(s)
					for _, a := range o.Assigns {
						u[a.Var] = a.Value.Eval(st)
					}
					k := key(u)
					if raw := o.Pos.String() + " " + fmt.Sprint(u); seen[raw] {
						t.Fatalf("seed %d, state %v: two outcomes of destination %s lead to %v\n%s", seed, s, o.Pos, u, data)
					} else {
						seen[raw] = true
					}
					p := big.NewRat(1, int64(len(c.Outcomes)))
					if o.Weight.IsSet() {
						p = new(big.Rat).Quo(big.NewRat(o.Weight.Num, o.Weight.Den), wsum)
					}
					if got[k] == nil {
						got[k] = new(big.Rat)
					}
					got[k].Add(got[k], p)
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("seed %d, state %v: %v, want %v\n%s", seed, s, got, want, data)
				}
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
	t.Logf("%d of 300 models split", splits)
}

// TestS31jChoiceStateProb: a choice in a destination whose probability
// reads the state gave each value k the destination's whole probability:
// x := any of 1..2 (x in 0..3, so four k) with probability y/4 beside x :=
// 3 with 1 - y/4 summed to 7/4 at y=1, and vigil prob, dividing by the
// sum, gave Pmax [F x=3] = 3/7 instead of 3/4. Each value now has its
// share of y/4 (a constant factor of its probability), and the
// probabilities sum to 1.
func TestS31jChoiceStateProb(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sp.jani")
	src := `{"jani-version":1,"name":"sp","type":"mdp",
 "variables":[{"name":"x","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":3},"initial-value":0},
   {"name":"y","type":{"kind":"bounded","base":"int","lower-bound":0,"upper-bound":3},"initial-value":1}],
 "actions":[{"name":"go"}],
 "automata":[{"name":"a","locations":[{"name":"l"}],"initial-locations":["l"],
   "edges":[{"location":"l","action":"go","guard":{"exp":{"op":"=","left":"x","right":0}},"destinations":[
     {"location":"l","probability":{"exp":{"op":"/","left":"y","right":4}},"assignments":[{"ref":"x","lower-bound":1,"upper-bound":2}]},
     {"location":"l","probability":{"exp":{"op":"-","left":1,"right":{"op":"/","left":"y","right":4}}},"assignments":[{"ref":"x","value":3}]}]}]}],
 "system":{"elements":[{"automaton":"a"}]}}`
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := Load(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y <= 3; y++ {
		s := symbolic.State{0, y}
		got := map[int]*big.Rat{}
		sum := new(big.Rat)
		for _, c := range m.Commands {
			if !c.Guard.Holds(s) {
				continue
			}
			for _, o := range c.Outcomes {
				p, bad := o.ProbAt(s)
				if bad >= 0 || p == nil {
					t.Fatalf("y=%d: outcome %v: bad factor %d", y, o, bad)
				}
				x := o.Assigns[0].Value.Eval(s)
				if got[x] == nil {
					got[x] = new(big.Rat)
				}
				got[x].Add(got[x], p)
				sum.Add(sum, p)
			}
		}
		q := big.NewRat(int64(y), 4)
		want := map[int]*big.Rat{3: new(big.Rat).Sub(big.NewRat(1, 1), q)}
		if y > 0 {
			// k in 0..3 clamped into 1..2: 1 for k = 0, 1 and 2 for k = 2, 3
			want[1], want[2] = new(big.Rat).Quo(q, big.NewRat(2, 1)), new(big.Rat).Quo(q, big.NewRat(2, 1))
		}
		if fmt.Sprint(got) != fmt.Sprint(want) || sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Errorf("y=%d: %v (sum %s), want %v", y, got, sum.RatString(), want)
		}
	}
}
