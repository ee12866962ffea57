package jani

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Review of composition by location (compose_merge.go), as an adversary:
// random networks with what TestMergeByLocation leaves out (array
// elements written at a variable index, PlaJA's non-deterministic
// assignments, assignments at index 1 of other automata that read what
// the merged automaton writes at index 0, rewards, state-dependent and
// zero probabilities, assignments that leave the variable's range, edges
// with unequal numbers of destinations, overlapping guards at one
// location), compared with the full product in every reachable state on
// everything an outcome carries: successor, weight, probability, its
// state-dependent factors and rewards.

// s26sNetwork is a random network; opts picks the features.
type s26sOpts struct {
	rewards bool // a transient real reward r, assigned by some destinations
	levels  bool // assignments at index 1
	choices bool // lower-bound/upper-bound assignments
	arrays  bool // array elements at a variable index
	sprob   bool // state-dependent probabilities
}

func s26sNetwork(r *rand.Rand, o s26sOpts) []byte {
	type obj = map[string]any
	k := 2 + r.Intn(2)
	intT := obj{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}
	var vars []obj
	for i := 0; i < k; i++ {
		vars = append(vars,
			obj{"name": fmt.Sprintf("x%d", i), "type": intT, "initial-value": r.Intn(2)},
			obj{"name": fmt.Sprintf("b%d", i), "type": "bool", "initial-value": false})
		if o.arrays {
			vars = append(vars, obj{"name": fmt.Sprintf("a%d", i), "type": obj{"kind": "array", "base": intT},
				"initial-value": obj{"op": "av", "elements": []any{0, 1, 2}}})
		}
	}
	if o.rewards {
		vars = append(vars, obj{"name": "r", "type": "real", "transient": true, "initial-value": 0})
	}
	x := func(j int) string { return fmt.Sprintf("x%d", j) }
	idx := func(j int) any { return obj{"op": "min", "left": x(j), "right": 2} }
	guard := func() any {
		j := r.Intn(k)
		switch r.Intn(7) {
		case 0:
			return true
		case 1:
			return obj{"op": "<", "left": x(j), "right": 1 + r.Intn(3)}
		case 2:
			return obj{"op": "=", "left": x(j), "right": r.Intn(4)}
		case 3:
			return fmt.Sprintf("b%d", j)
		case 4:
			if o.arrays {
				return obj{"op": ">", "left": obj{"op": "aa", "exp": fmt.Sprintf("a%d", j), "index": idx(r.Intn(k))}, "right": r.Intn(3)}
			}
		}
		return obj{"op": "¬", "exp": fmt.Sprintf("b%d", j)}
	}
	var autos, elems []obj
	for i := 0; i < k; i++ {
		nl := 2 + r.Intn(5) // 4 or more: the explicit engine makes tables of the location
		var locs []obj
		for l := 0; l < nl; l++ {
			locs = append(locs, obj{"name": fmt.Sprintf("l%d", l)})
		}
		nd := map[string]int{"a": 1 + r.Intn(3), "b": 1 + r.Intn(2), "": 1}
		var edges []obj
		for e, ne := 0, 3+r.Intn(9); e < ne; e++ {
			act := []string{"a", "a", "a", "b", "b", ""}[r.Intn(6)]
			n := nd[act]
			if r.Intn(8) == 0 {
				n = 1 + r.Intn(3)
			}
			// the destinations' probabilities: mostly the same per action
			var probs []any
			switch {
			case n == 1:
				probs = []any{nil}
				if r.Intn(6) == 0 {
					probs = []any{1}
				}
			case n == 2:
				probs = []any{0.5, 0.5}
				if r.Intn(4) == 0 {
					probs = []any{obj{"op": "/", "left": 1, "right": 3}, obj{"op": "/", "left": 2, "right": 3}}
				}
			default:
				probs = []any{0.25, 0.75, 0}
				if r.Intn(4) == 0 {
					probs = []any{0.5, 0.25, 0.25}
				}
			}
			if o.sprob && n > 1 && r.Intn(6) == 0 {
				probs[0] = obj{"op": "/", "left": obj{"op": "+", "left": x(r.Intn(k)), "right": 0}, "right": 8}
			}
			var dests []obj
			for d := 0; d < n; d++ {
				asgs := []obj{}
				xi, b := x(i), fmt.Sprintf("b%d", i)
				wroteX := false
				switch c := r.Intn(10); {
				case c == 0:
					asgs = append(asgs, obj{"ref": xi, "value": obj{"op": "min", "left": obj{"op": "+", "left": x(r.Intn(k)), "right": 1}, "right": 3}})
					wroteX = true
				case c == 1:
					asgs = append(asgs, obj{"ref": xi, "value": obj{"op": "max", "left": obj{"op": "-", "left": xi, "right": 1}, "right": 0}})
					wroteX = true
				case c == 2:
					// may leave 0..3: a range error in this branch only
					asgs = append(asgs, obj{"ref": xi, "value": obj{"op": "+", "left": xi, "right": 1}})
					wroteX = true
				case c == 3:
					asgs = append(asgs, obj{"ref": b, "value": obj{"op": "¬", "exp": fmt.Sprintf("b%d", r.Intn(k))}})
				case c == 4 && o.arrays:
					asgs = append(asgs, obj{"ref": obj{"op": "aa", "exp": fmt.Sprintf("a%d", i), "index": idx(r.Intn(k))}, "value": x(r.Intn(k))})
				case c == 5 && o.arrays:
					asgs = append(asgs, obj{"ref": xi, "value": obj{"op": "aa", "exp": fmt.Sprintf("a%d", r.Intn(k)), "index": idx(r.Intn(k))}})
					wroteX = true
				case c == 6 && o.choices && n == 1:
					asgs = append(asgs, obj{"ref": xi, "lower-bound": 0, "upper-bound": x(r.Intn(k))})
					wroteX = true
				case c == 7 && o.levels:
					// index 1 reads the values index 0 left, the other
					// automata's included
					asgs = append(asgs, obj{"ref": xi, "index": 1, "value": obj{"op": "min", "left": obj{"op": "+", "left": x((i + 1) % k), "right": 0}, "right": 3}})
					wroteX = true
				}
				if r.Intn(3) == 0 {
					asgs = append(asgs, obj{"ref": b, "value": r.Intn(2) == 0})
					if len(asgs) == 2 && asgs[0]["ref"] == b {
						asgs = asgs[:1]
					}
				}
				if !wroteX && r.Intn(5) == 0 {
					asgs = append(asgs, obj{"ref": xi, "value": r.Intn(4)})
				}
				if o.rewards && r.Intn(4) == 0 {
					asgs = append(asgs, obj{"ref": "r", "value": []any{1, xi}[r.Intn(2)]})
				}
				dst := obj{"location": fmt.Sprintf("l%d", r.Intn(nl)), "assignments": asgs}
				if probs[d] != nil {
					dst["probability"] = obj{"exp": probs[d]}
				}
				dests = append(dests, dst)
			}
			ed := obj{"location": fmt.Sprintf("l%d", r.Intn(nl)), "guard": obj{"exp": guard()}, "destinations": dests}
			if act != "" {
				ed["action"] = act
			}
			edges = append(edges, ed)
		}
		autos = append(autos, obj{"name": fmt.Sprintf("A%d", i), "locations": locs, "initial-locations": []string{"l0"}, "edges": edges})
		elems = append(elems, obj{"automaton": fmt.Sprintf("A%d", i)})
	}
	all := func(a string) []any {
		v := make([]any, k)
		for i := range v {
			v[i] = a
		}
		return v
	}
	partial := all("b")
	partial[r.Intn(k)] = nil
	syncs := []obj{{"synchronise": all("a"), "result": "a"}, {"synchronise": partial}}
	root := obj{"jani-version": 1, "name": "net", "type": "mdp",
		"actions": []obj{{"name": "a"}, {"name": "b"}}, "variables": vars, "automata": autos,
		"system": obj{"elements": elems, "syncs": syncs}, "properties": []obj{}}
	if o.arrays {
		root["features"] = []string{"arrays"}
	}
	if o.rewards {
		root["properties"] = []obj{{"name": "e", "expression": obj{"op": "filter", "fun": "max", "states": obj{"op": "initial"},
			"values": obj{"op": "Emax", "exp": "r", "accumulate": []string{"steps"}, "reach": obj{"op": "=", "left": x(0), "right": 3}}}}}
	}
	data, err := json.Marshal(root)
	if err != nil {
		panic(err)
	}
	return data
}

// s26sTransitions describes the transitions of m in state s, everything
// an outcome carries, sorted; succ are the successors within range.
func s26sTransitions(m *symbolic.Model, s symbolic.State) ([]string, []symbolic.State) {
	var out []string
	var succ []symbolic.State
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if !c.Guard.Holds(s) {
			continue
		}
		var os []string
		for _, o := range c.Outcomes {
			t := append(symbolic.State(nil), s...)
			for _, a := range o.Assigns {
				t[a.Var] = a.Value.Eval(s)
			}
			if m.InRange(t) < 0 {
				succ = append(succ, t)
			}
			desc := fmt.Sprintf("%v w=%d/%d p=%.12g", []int(t), o.Weight.Num, o.Weight.Den, o.Prob)
			if len(o.ProbFactors) > 0 {
				p := big.NewRat(1, 1)
				for _, f := range o.ProbFactors {
					n, d := f.At(s)
					if d.Sign() == 0 {
						desc += " 0-den"
						continue
					}
					p.Mul(p, new(big.Rat).SetFrac(n, d))
				}
				desc += " f=" + p.RatString()
			}
			var rs []string
			for i := range o.Rewards {
				rw := &o.Rewards[i]
				if rw.Bad != "" {
					rs = append(rs, rw.Name+"=bad")
					continue
				}
				rs = append(rs, rw.Name+"="+rw.Value(s).RatString())
			}
			sort.Strings(rs)
			desc += " r{" + strings.Join(rs, ",") + "}"
			os = append(os, desc)
		}
		sort.Strings(os)
		cost := ""
		if c.Cost != nil {
			cost = fmt.Sprintf(" cost=%d", c.Cost.Eval(s))
		}
		out = append(out, m.Labels[c.Label].Name+cost+": "+strings.Join(os, " | "))
	}
	sort.Strings(out)
	return out, succ
}

func TestS26sMergeAgainstProduct(t *testing.T) {
	old := mergeAbove
	defer func() { mergeAbove = old }()
	r := rand.New(rand.NewSource(2626))
	opts := []s26sOpts{
		{rewards: true}, {levels: true}, {choices: true}, {arrays: true}, {sprob: true},
		{rewards: true, levels: true, choices: true, arrays: true, sprob: true},
	}
	merged, decoded, states := 0, 0, 0
	perOpt := make([]int, len(opts))
	const n = 600
	for it := 0; it < n; it++ {
		data := s26sNetwork(r, opts[it%len(opts)])
		prod, lazy := decodeBothWays(t, it, data, it < 6)
		if prod == nil {
			continue
		}
		decoded++
		if len(lazy.Commands) < len(prod.Commands) {
			merged++
			perOpt[it%len(opts)]++
		}
		init, err := prod.InitialState()
		if err != nil {
			t.Fatal(err)
		}
		// the explicit engine's compiled guards and assignments (dispatch
		// tables on the location) against the IR's own evaluation
		g, err := explicit.New(lazy, nil)
		if err != nil {
			t.Fatalf("network %d: %v", it, err)
		}
		seen := map[string]bool{fmt.Sprint(init): true}
		queue := []symbolic.State{init}
		for len(queue) > 0 && len(seen) < 3000 {
			s := queue[0]
			queue = queue[1:]
			states++
			want, succ := s26sTransitions(prod, s)
			got, _ := s26sTransitions(lazy, s)
			for ci := range lazy.Commands {
				c := &lazy.Commands[ci]
				if g.Guard(s, ci) != c.Guard.Holds(s) {
					t.Fatalf("network %d, state %s, command %d: compiled guard %v, IR %v\n%s", it, lazy.FormatState(s), ci, g.Guard(s, ci), c.Guard.Holds(s), data)
				}
				if !c.Guard.Holds(s) {
					continue
				}
				for oi, o := range c.Outcomes {
					want := append(symbolic.State(nil), s...)
					for _, a := range o.Assigns {
						want[a.Var] = a.Value.Eval(s)
					}
					got, err := g.Apply(s, ci, oi)
					if (err == nil) != (lazy.InRange(want) < 0) || err == nil && fmt.Sprint(got) != fmt.Sprint(want) {
						t.Fatalf("network %d, state %s, command %d, outcome %d: compiled %v (%v), IR %v\n%s", it, lazy.FormatState(s), ci, oi, got, err, want, data)
					}
				}
			}
			if strings.Join(want, "\n") != strings.Join(got, "\n") {
				t.Fatalf("network %d, state %s:\nproduct:\n%s\nby location:\n%s\n%s", it, prod.FormatState(s), strings.Join(want, "\n"), strings.Join(got, "\n"), data)
			}
			for _, t := range succ {
				if k := fmt.Sprint(t); !seen[k] {
					seen[k] = true
					queue = append(queue, t)
				}
			}
		}
	}
	t.Logf("%d of %d networks decoded, %d merged some edges (by features %v), %d states compared", decoded, n, merged, perOpt, states)
	for i, m := range perOpt {
		if m < n/len(opts)/8 {
			t.Errorf("features %+v: %d networks merged some edges, too few", opts[i], m)
		}
	}
	if merged < n/5 || decoded < n/2 {
		t.Fatalf("%d of %d networks decoded, %d merged some edges: the test does not exercise the merge", decoded, n, merged)
	}
}

// A command of edges composed by location was reported at the first
// edge's node (compose.go: Command.Pos, Outcome.Pos), the edge at the
// automaton's first location, which the state need not take: a range
// error at l2 named "automata[0].edges[0]" (the edge at l0). It is now
// reported at the synchronisation vector when every edge of the
// combination is composed by location, else at the first edge that is
// one edge of the file.
func TestS26sMergedPosition(t *testing.T) {
	old := mergeAbove
	defer func() { mergeAbove = old }()
	mergeAbove = 0
	edge := func(l, to string, x any) map[string]any {
		return map[string]any{"location": l, "action": "tick", "destinations": []any{map[string]any{"location": to,
			"assignments": []any{map[string]any{"ref": "x", "value": x}}}}}
	}
	auto := func(name string, edges ...any) map[string]any {
		locs := []any{}
		for _, l := range []string{"l0", "l1", "l2"} {
			locs = append(locs, map[string]any{"name": l})
		}
		return map[string]any{"name": name, "locations": locs, "initial-locations": []string{"l0"}, "edges": edges}
	}
	plus := func(k int) any { return map[string]any{"op": "+", "left": "x", "right": k} }
	for _, tc := range []struct {
		b    map[string]any
		want string
	}{
		// B composed by location too: the vector
		{auto("B", map[string]any{"location": "l0", "action": "tick", "destinations": []any{map[string]any{"location": "l1"}}},
			map[string]any{"location": "l1", "action": "tick", "destinations": []any{map[string]any{"location": "l0"}}}), "net.jani#system.syncs[0]"},
		// B's single edge is taken in every state the command is
		{auto("B", map[string]any{"location": "l0", "action": "tick", "destinations": []any{map[string]any{"location": "l0"}}}), "net.jani#automata[1].edges[0]"},
	} {
		a := auto("A", edge("l0", "l1", plus(0)), edge("l1", "l2", plus(1)), edge("l2", "l0", plus(3)))
		data, err := json.Marshal(map[string]any{"jani-version": 1, "name": "net", "type": "mdp", "actions": []any{map[string]any{"name": "tick"}},
			"variables": []any{map[string]any{"name": "x", "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0}},
			"automata":  []any{a, tc.b}, "system": map[string]any{"elements": []any{map[string]any{"automaton": "A"}, map[string]any{"automaton": "B"}},
				"syncs": []any{map[string]any{"synchronise": []any{"tick", "tick"}, "result": "tick"}}}})
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := Decode("net.jani", data, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Commands) != 1 {
			t.Fatalf("want the edges composed by location into one command, got %d", len(m.Commands))
		}
		c := &m.Commands[0]
		if p := c.Pos.String(); !strings.HasPrefix(p, tc.want+":") {
			t.Errorf("command at %s, want %s", p, tc.want)
		}
		if p := c.Outcomes[0].Pos.String(); !strings.HasPrefix(p, tc.want) {
			t.Errorf("outcome at %s, want at %s", p, tc.want)
		}
	}
}
