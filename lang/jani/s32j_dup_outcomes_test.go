package jani_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/lang/jani"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS32jDuplicateOutcomesOnlyCost: where an edge with PlaJA choices is
// not split by the values its bounds read (an edge that synchronises in
// a model of several automata; an assignment with an index), a choice's
// outcomes may lead to the same state (max(c, 1) and max(c, 2) where c is
// 2), each with its share. Each engine counts or sums them: breadth-first
// search counts distinct (state, label, successor) triples, vigil prob
// sums the probabilities of outcomes that lead to the same state
// (prob.addEntry), as Storm does. So they cost time and memory but
// change no answer: on random models, the edge split (one automaton),
// the same edge unsplit beside a second automaton that synchronises on
// its action without writing anything, and unsplit with every
// assignment at index 1 give the same states, transitions, deadlocks,
// and exact Pmax and Pmin of reaching x0 = its upper bound within 3 steps.
func TestS32jDuplicateOutcomesOnlyCost(t *testing.T) {
	unsplit, fractional := 0, 0
	for seed := range 120 {
		r := rand.New(rand.NewPCG(uint64(seed), 323))
		nv := 1 + r.IntN(2)
		name := func(i int) string { return fmt.Sprintf("x%d", i) }
		var vars []any
		his := make([]int, nv)
		for i := range nv {
			his[i] = 2 + r.IntN(3)
			vars = append(vars, map[string]any{"name": name(i), "type": map[string]any{"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": his[i]}, "initial-value": 0})
		}
		term := func() any {
			switch r.IntN(3) {
			case 0:
				return r.IntN(his[0] + 1)
			case 1:
				return name(r.IntN(nv))
			default:
				return map[string]any{"op": "min", "left": map[string]any{"op": "+", "left": name(r.IntN(nv)), "right": 1}, "right": his[0]}
			}
		}
		// destinations: a choice that stays in range (lb <= ub: lb is
		// term, ub the upper bound or term at least lb), and a reset
		var dests func(index int) []any
		type asgSpec struct {
			v      int
			lb, ub any
		}
		var specs [][]asgSpec
		nd := 1 + r.IntN(2)
		for range nd {
			var as []asgSpec
			for _, v := range r.Perm(nv)[:1+r.IntN(nv)] {
				lb := term()
				ub := any(his[v])
				if r.IntN(2) == 0 {
					ub = map[string]any{"op": "max", "left": lb, "right": term()}
				}
				lb = map[string]any{"op": "min", "left": lb, "right": his[v]}
				ub = map[string]any{"op": "min", "left": ub, "right": his[v]}
				as = append(as, asgSpec{v, lb, ub})
			}
			specs = append(specs, as)
		}
		dests = func(index int) []any {
			var out []any
			for i, as := range specs {
				var jas []any
				for _, a := range as {
					ja := map[string]any{"ref": name(a.v), "lower-bound": a.lb, "upper-bound": a.ub}
					if index != 0 {
						ja["index"] = index
					}
					jas = append(jas, ja)
				}
				d := map[string]any{"location": "l", "assignments": jas}
				if nd == 2 {
					d["probability"] = map[string]any{"exp": map[string]any{"op": "/", "left": 1 + i, "right": 3}}
				}
				out = append(out, d)
			}
			return out
		}
		reset := map[string]any{"location": "l", "action": "reset", "guard": map[string]any{"exp": map[string]any{"op": "=", "left": name(0), "right": 1}},
			"destinations": []any{map[string]any{"location": "l", "assignments": []any{map[string]any{"ref": name(0), "value": 0}}}}}
		prop := []any{
			map[string]any{"name": "pmax", "expression": map[string]any{"op": "filter", "fun": "max", "states": map[string]any{"op": "initial"},
				"values": map[string]any{"op": "Pmax", "exp": map[string]any{"op": "F", "step-bounds": map[string]any{"upper": 3}, "exp": map[string]any{"op": "=", "left": name(0), "right": his[0]}}}}},
			map[string]any{"name": "pmin", "expression": map[string]any{"op": "filter", "fun": "min", "states": map[string]any{"op": "initial"},
				"values": map[string]any{"op": "Pmin", "exp": map[string]any{"op": "F", "step-bounds": map[string]any{"upper": 3}, "exp": map[string]any{"op": "=", "left": name(0), "right": his[0]}}}}},
		}
		build := func(form string) *symbolic.Model {
			index := 0
			if form == "index" {
				index = 1
			}
			edge := map[string]any{"location": "l", "action": "go", "destinations": dests(index)}
			autos := []any{map[string]any{"name": "A", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": []any{edge, reset}}}
			system := map[string]any{"elements": []any{map[string]any{"automaton": "A"}}}
			if form == "sync" {
				autos = append(autos, map[string]any{"name": "B", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"},
					"edges": []any{map[string]any{"location": "l", "action": "go", "destinations": []any{map[string]any{"location": "l"}}}}})
				system = map[string]any{"elements": []any{map[string]any{"automaton": "A"}, map[string]any{"automaton": "B"}},
					"syncs": []any{map[string]any{"synchronise": []any{"go", "go"}, "result": "go"}, map[string]any{"synchronise": []any{"reset", nil}, "result": "reset"}}}
			}
			model := map[string]any{"jani-version": 1, "name": "d", "type": "mdp", "variables": vars,
				"actions": []any{map[string]any{"name": "go"}, map[string]any{"name": "reset"}}, "automata": autos, "system": system, "properties": prop}
			data, err := json.Marshal(model)
			if err != nil {
				t.Fatal(err)
			}
			m, _, err := jani.Decode(form+".jani", data, nil)
			if err != nil {
				t.Fatalf("seed %d, %s: %v\n%s", seed, form, err, data)
			}
			return m
		}
		answer := func(m *symbolic.Model) string {
			var b strings.Builder
			for _, name := range []string{"pmax", "pmin"} {
				p := m.Property(name)
				g, err := explicit.New(m, p)
				if err != nil {
					t.Fatal(err)
				}
				res, err := explicit.Search(context.Background(), g, explicit.Options{})
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&b, "%s: %d states, %d transitions, %d deadlocks; ", name, res.Stats.States, res.Stats.Transitions, res.Stats.Deadlocks)
				pr, err := prob.SolveProperty(context.Background(), g, p, prob.PropertyOptions{Method: prob.Exact})
				if err != nil {
					fmt.Fprintf(&b, "error %v; ", err)
					continue
				}
				for _, f := range pr.Report.Figures {
					if f.Exact != "0" && f.Exact != "1" {
						fractional++
					}
					fmt.Fprintf(&b, "%s = %s; ", f.Query, f.Exact)
				}
			}
			return b.String()
		}
		split := build("split")
		want := answer(split)
		for _, form := range []string{"sync", "index"} {
			m := build(form)
			if len(m.Commands) < len(split.Commands) {
				unsplit++
			}
			if got := answer(m); got != want {
				t.Fatalf("seed %d: %s (%d commands): %s\nsplit (%d commands): %s", seed, form, len(m.Commands), got, len(split.Commands), want)
			}
		}
	}
	t.Logf("%d unsplit forms with fewer commands than the split one; %d answers strictly between 0 and 1", unsplit, fractional)
	if fractional == 0 {
		t.Fatal("no answer strictly between 0 and 1: the probabilities are not compared")
	}
}
