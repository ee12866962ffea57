package prob

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/lang/jani"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Rewards on JANI destinations (symbolic.Outcome.Rewards), through the
// whole path: a random model is written as JANI text, imported, built and
// solved by both methods, and compared with the brute force over the
// schedulers (bruteForce) of the MDP the generator meant, whose choice
// rewards the test computes itself from the destinations' rewards (each
// times its probability), not from the import.

// genDest is one destination of a generated edge: to state t with
// weight w, its reward c plus (when k != 0) k*s, on automaton A's
// destination (a synchronising B's reward is genEdge.other).
type genDest struct {
	t    int
	w    int64
	set  bool // assigns the reward at all
	c, k int64
}

type genEdge struct {
	from  int
	dests []genDest
	// the edge's reward on B's destination (all of A's destinations
	// then leave it unassigned)
	other int64
	sync  bool
}

// genModel draws n states (s = n-1 the goal), 0 to 3 edges a state, 1 to
// 3 destinations an edge (two to one state now and then, with other
// rewards), rewards absent, 0, constant or s-dependent, on A or on B.
func genModel(r *rand.Rand, n int) []genEdge {
	var es []genEdge
	for s := range n - 1 {
		if r.IntN(10) == 0 {
			continue // a deadlock
		}
		for range 1 + r.IntN(3) {
			e := genEdge{from: s, sync: r.IntN(3) == 0}
			if e.sync {
				e.other = int64(r.IntN(4))
			}
			for range 1 + r.IntN(3) {
				d := genDest{t: r.IntN(n), w: 1 + int64(r.IntN(3))}
				if len(e.dests) > 0 && r.IntN(4) == 0 {
					d.t = e.dests[0].t
				}
				if !e.sync && r.IntN(4) > 0 {
					d.set = true
					d.c = int64(r.IntN(4))
					if r.IntN(3) == 0 {
						d.k = int64(r.IntN(3))
					}
				}
				e.dests = append(e.dests, d)
			}
			es = append(es, e)
		}
	}
	return es
}

// janiText writes the model: automaton A moves s; B takes part in the
// synchronised edges (action "y<i>") and assigns their reward. dtmc
// makes it a JANI dtmc (the enabled edges taken with equal probability).
func janiText(n int, es []genEdge, dtmc bool) string {
	num := func(v int64) any { return v }
	var aEdges, bEdges, actions, syncs []any
	for i, e := range es {
		act := fmt.Sprintf("x%d", i)
		if e.sync {
			act = fmt.Sprintf("y%d", i)
			bd := map[string]any{"location": "l"}
			bd["assignments"] = []any{map[string]any{"ref": "r", "value": num(e.other)}}
			bEdges = append(bEdges, map[string]any{"location": "l", "action": act, "destinations": []any{bd}})
			syncs = append(syncs, map[string]any{"synchronise": []any{act, act}, "result": act})
		} else {
			syncs = append(syncs, map[string]any{"synchronise": []any{act, nil}, "result": act})
		}
		actions = append(actions, map[string]any{"name": act})
		var sum int64
		for _, d := range e.dests {
			sum += d.w
		}
		var ds []any
		for _, d := range e.dests {
			as := []any{map[string]any{"ref": "s", "value": d.t}}
			if d.set {
				var v any = num(d.c)
				if d.k != 0 {
					v = map[string]any{"op": "+", "left": d.c, "right": map[string]any{"op": "*", "left": d.k, "right": "s"}}
				}
				as = append(as, map[string]any{"ref": "r", "value": v})
			}
			ds = append(ds, map[string]any{"location": "l", "probability": map[string]any{"exp": map[string]any{"op": "/", "left": d.w, "right": sum}}, "assignments": as})
		}
		aEdges = append(aEdges, map[string]any{"location": "l", "action": act, "guard": map[string]any{"exp": map[string]any{"op": "=", "left": "s", "right": e.from}}, "destinations": ds})
	}
	goal := map[string]any{"op": "=", "left": "s", "right": n - 1}
	prop := func(name, op string) any {
		return map[string]any{"name": name, "expression": map[string]any{"op": "filter", "fun": "values", "states": map[string]any{"op": "initial"},
			"values": map[string]any{"op": op, "accumulate": []any{"steps"}, "exp": "r", "reach": goal}}}
	}
	typ := "mdp"
	if dtmc {
		typ = "dtmc"
	}
	if aEdges == nil {
		aEdges = []any{}
	}
	if bEdges == nil {
		bEdges = []any{}
	}
	model := map[string]any{
		"jani-version": 1, "name": "gen", "type": typ, "actions": actions,
		"variables": []any{
			map[string]any{"name": "s", "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": n - 1}, "initial-value": 0},
			map[string]any{"name": "r", "type": "real", "transient": true, "initial-value": 0},
		},
		"restrict-initial": map[string]any{"exp": map[string]any{"op": "≤", "left": "s", "right": n - 1}},
		"properties":       []any{prop("emin", "Emin"), prop("emax", "Emax")},
		"automata": []any{
			map[string]any{"name": "A", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": aEdges},
			map[string]any{"name": "B", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": bEdges},
		},
		"system": map[string]any{"elements": []any{map[string]any{"automaton": "A"}, map[string]any{"automaton": "B"}}, "syncs": syncs},
	}
	b, err := json.Marshal(model)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// genSpec is the MDP the generator means (a dtmc: one choice a state, the
// edges' uniform mixture), rewards folded by the test.
func genSpec(n int, es []genEdge, dtmc bool) mdpSpec {
	sp := mdpSpec{goal: make([]bool, n), choices: make([][]choiceSpec, n)}
	sp.goal[n-1] = true
	for _, e := range es {
		var sum int64
		for _, d := range e.dests {
			sum += d.w
		}
		c := choiceSpec{rew: new(big.Rat)}
		at := map[int]int{}
		for _, d := range e.dests {
			p := big.NewRat(d.w, sum)
			rv := new(big.Rat)
			switch {
			case e.sync:
				rv.SetInt64(e.other)
			case d.set:
				rv.SetInt64(d.c + d.k*int64(e.from))
			}
			c.rew.Add(c.rew, new(big.Rat).Mul(p, rv))
			if j, ok := at[d.t]; ok {
				c.p[j] = new(big.Rat).Add(c.p[j], p)
				continue
			}
			at[d.t] = len(c.to)
			c.to = append(c.to, uint32(d.t))
			c.p = append(c.p, p)
		}
		sp.choices[e.from] = append(sp.choices[e.from], c)
	}
	if dtmc {
		for s, cs := range sp.choices {
			if len(cs) <= 1 {
				continue
			}
			k := big.NewRat(1, int64(len(cs)))
			f := choiceSpec{rew: new(big.Rat)}
			at := map[uint32]int{}
			for _, c := range cs {
				f.rew.Add(f.rew, new(big.Rat).Mul(k, c.rew))
				for i, t := range c.to {
					p := new(big.Rat).Mul(k, c.p[i])
					if j, ok := at[t]; ok {
						f.p[j] = new(big.Rat).Add(f.p[j], p)
						continue
					}
					at[t] = len(f.to)
					f.to = append(f.to, t)
					f.p = append(f.p, p)
				}
			}
			sp.choices[s] = []choiceSpec{f}
		}
	}
	return sp
}

// TestOutcomeRewardsBruteForce: on random models with rewards on some
// destinations only (absent, 0, constant, reading the state; on the
// synchronising automaton's destination for some edges; two destinations
// to one state with other rewards), as mdps and as dtmcs, Emin and Emax
// of the exact method equal the brute force's, and ii's bounds enclose
// them, from every start state.
func TestOutcomeRewardsBruteForce(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(25, 5))
	finite, infinite := 0, 0
	for i := range 300 {
		n := 2 + r.IntN(5)
		es := genModel(r, n)
		if len(es) == 0 {
			continue
		}
		dtmc := i%4 == 3
		src := janiText(n, es, dtmc)
		m, _, err := jani.Decode("gen.jani", []byte(src), nil)
		if err != nil {
			t.Fatalf("model %d: %v\n%s", i, err, src)
		}
		sp := genSpec(n, es, dtmc)
		sv := -1
		for v := range m.Vars {
			if m.Vars[v].Name == "s" {
				sv = v
			}
		}
		for _, p := range m.Properties {
			max := p.Name == "emax"
			if p.Query == nil || p.Query.Reward == nil || p.Query.Reward.Unsupported != "" || !p.Query.Reward.Outcomes && len(es) > 0 && hasReward(es) {
				t.Fatalf("model %d %s: reward not read: %+v\n%s", i, p.Name, p.Query, src)
			}
			g, err := explicit.New(m, p)
			if err != nil {
				t.Fatal(err)
			}
			pm, err := Build(ctx, g, Options{Exact: true})
			if err != nil {
				t.Fatalf("model %d: %v", i, err)
			}
			rew, err := ChoiceRewards(ctx, pm, p.Query.Reward, p.Name)
			if err != nil {
				t.Fatalf("model %d %s: %v", i, p.Name, err)
			}
			goal := pm.Target(explicit.Goal)
			ex, err := SolveReward(ctx, pm, goal, rew, SolveOptions{Max: max, Method: Exact})
			if err != nil {
				t.Fatalf("model %d %s exact: %v", i, p.Name, err)
			}
			ii, err := SolveReward(ctx, pm, goal, rew, SolveOptions{Max: max, Epsilon: 1e-9})
			if err != nil {
				t.Fatalf("model %d %s ii: %v", i, p.Name, err)
			}
			want := bruteForce(sp, max)
			for id := range uint32(pm.NumStates()) {
				s := pm.StateOf(id)[sv]
				got, w := ex.Exact[id], want[s]
				if (got == nil) != (w == nil) || got != nil && got.Cmp(w) != 0 {
					t.Fatalf("model %d %s: state s=%d: exact %s, brute force %s\n%s", i, p.Name, s, ratText(got), ratText(w), src)
				}
				lo, hi := ii.Lower[id], ii.Upper[id]
				if w == nil {
					infinite++
					if hi < 1e308 {
						t.Fatalf("model %d %s: state s=%d: ii [%g, %g], want inf", i, p.Name, s, lo, hi)
					}
					continue
				}
				finite++
				if new(big.Rat).SetFloat64(lo).Cmp(w) > 0 || new(big.Rat).SetFloat64(hi).Cmp(w) < 0 {
					t.Fatalf("model %d %s: state s=%d: ii [%g, %g] misses %s\n%s", i, p.Name, s, lo, hi, w.RatString(), src)
				}
			}
		}
	}
	if finite < 200 || infinite < 50 {
		t.Fatalf("too little covered: %d finite, %d infinite values", finite, infinite)
	}
	t.Logf("%d finite and %d infinite values agree", finite, infinite)
}

func hasReward(es []genEdge) bool {
	for _, e := range es {
		if e.sync {
			return true
		}
		for _, d := range e.dests {
			if d.set {
				return true
			}
		}
	}
	return false
}

// TestOutcomeRewardRefusals: what vigil prob cannot read is refused by
// name (the property is Unsupported, the model loads): two synchronising
// destinations that assign the reward, a non-zero initial value, a
// division by a variable.
func TestOutcomeRewardRefusals(t *testing.T) {
	base := func(initial, aval, bval string) string {
		return `{"jani-version": 1, "name": "x", "type": "mdp", "actions": [{"name": "a"}],
"variables": [{"name": "s", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1}, "initial-value": 0},
 {"name": "r", "type": "real", "transient": true, "initial-value": ` + initial + `}],
"properties": [{"name": "e", "expression": {"op": "filter", "fun": "values", "states": {"op": "initial"}, "values": {"op": "Emin", "accumulate": ["steps"], "exp": "r", "reach": {"op": "=", "left": "s", "right": 1}}}}],
"automata": [{"name": "A", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": [{"location": "l", "action": "a", "destinations": [{"location": "l", "assignments": [{"ref": "s", "value": 1}` + aval + `]}]}]},
 {"name": "B", "locations": [{"name": "l"}], "initial-locations": ["l"], "edges": [{"location": "l", "action": "a", "destinations": [{"location": "l", "assignments": [` + bval + `]}]}]}],
"system": {"elements": [{"automaton": "A"}, {"automaton": "B"}], "syncs": [{"synchronise": ["a", "a"], "result": "a"}]}}`
	}
	for _, c := range []struct{ name, src, want string }{
		{"both", base("0", `, {"ref": "r", "value": 1}`, `{"ref": "r", "value": 2}`), `synchronising edges of automata "A" and "B" both assign its reward "r"`},
		{"initial", base("-1", `, {"ref": "r", "value": 1}`, ``), `initial value of its reward "r" is -1, not 0`},
		// 0.5 * s is read since s25x_reward_real (a real reward over a
		// denominator); a division by a variable is not
		{"real", base("0", `, {"ref": "r", "value": {"op": "/", "left": 1, "right": {"op": "+", "left": "s", "right": 1}}}`, ``), `is not a numeric expression of the constants and variables that vigil reads`},
		{"twice", base("0", `, {"ref": "r", "value": 1}, {"ref": "r", "value": 1}`, ``), `assigns its reward "r" twice`},
	} {
		m, _, err := jani.Decode(c.name+".jani", []byte(c.src), nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var rw *symbolic.Reward
		for _, p := range m.Properties {
			if p.Name == "e" && p.Query != nil {
				rw = p.Query.Reward
			}
		}
		if rw == nil || !strings.Contains(rw.Unsupported, c.want) {
			t.Errorf("%s: got %+v, want Unsupported with %q", c.name, rw, c.want)
		}
	}
}
