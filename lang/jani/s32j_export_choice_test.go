package jani

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"vigil/symbolic"
)

// dists is, in state s of m, per enabled command, its label and its
// distribution over successors (equal successors summed, exactly), as
// sorted text: two models with the same dists in every state have the
// same transitions with the same probabilities. A successor beyond a
// variable's range keeps its raw values (a range error of that value).
func dists(m *symbolic.Model, s symbolic.State) string {
	var out []string
	for ci := range m.Commands {
		c := &m.Commands[ci]
		if !c.Guard.Holds(s) {
			continue
		}
		ps, err := probabilities(c)
		if err != nil {
			return "ERR " + err.Error()
		}
		got := map[string]*big.Rat{}
		for oi, o := range c.Outcomes {
			if o.StateProb() {
				return "state-dependent probability"
			}
			u := slices.Clone(s)
			for _, a := range o.Assigns {
				u[a.Var] = a.Value.Eval(s)
			}
			k := fmt.Sprint(u)
			if got[k] == nil {
				got[k] = new(big.Rat)
			}
			got[k].Add(got[k], ps[oi])
		}
		var keys []string
		for k, p := range got {
			keys = append(keys, k+":"+p.RatString())
		}
		sort.Strings(keys)
		out = append(out, m.Labels[c.Label].Name+"{"+strings.Join(keys, " ")+"}")
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// TestS32jExportChoiceDifferential: vigil export --jani wrote each piece
// of a split PlaJA choice as an edge (640 edges for the 128 of
// blocksworld_8_7); it now writes the run of pieces as one edge
// (mergeChoiceSplits). On random models of one or two edges with
// choices whose bounds read variables, the export imports back with one
// command per edge, and in every state of the product of the ranges the
// enabled commands' labels and distributions (equal successors summed,
// exactly, range errors with their values) are those of the import of
// the original.
func TestS32jExportChoiceDifferential(t *testing.T) {
	dir := t.TempDir()
	merged, splitEdges := 0, 0
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 32))
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
		term := func() any {
			switch r.IntN(3) {
			case 0:
				return r.IntN(10) - 3
			case 1:
				return name(r.IntN(nv))
			default:
				return map[string]any{"op": "+", "left": name(r.IntN(nv)), "right": r.IntN(5) - 2}
			}
		}
		ne := 1 + r.IntN(2)
		var edges []any
		for e := range ne {
			je := map[string]any{"location": "l", "action": []string{"go", "go", "other"}[r.IntN(3)]}
			if e == 0 {
				je["action"] = "go"
			}
			if r.IntN(2) == 0 {
				je["guard"] = map[string]any{"exp": map[string]any{"op": "<", "left": name(r.IntN(nv)), "right": r.IntN(5) - 1}}
			}
			nd := 1 + r.IntN(2)
			stated := r.IntN(2) == 0
			var jdests []any
			for i := range nd {
				jd := map[string]any{"location": "l"}
				if stated {
					jd["probability"] = map[string]any{"exp": 1}
					if nd == 2 {
						jd["probability"] = map[string]any{"exp": map[string]any{"op": "/", "left": 1 + i, "right": 3}}
					}
				}
				jas := []any{}
				for _, v := range r.Perm(nv)[:r.IntN(nv+1)] {
					if r.IntN(4) != 0 {
						jas = append(jas, map[string]any{"ref": name(v), "lower-bound": term(), "upper-bound": term()})
					} else {
						jas = append(jas, map[string]any{"ref": name(v), "value": term()})
					}
				}
				jd["assignments"] = jas
				jdests = append(jdests, jd)
			}
			je["destinations"] = jdests
			edges = append(edges, je)
		}
		model := map[string]any{"jani-version": 1, "name": "g", "type": "mdp", "variables": vars,
			"actions":  []any{map[string]any{"name": "go"}, map[string]any{"name": "other"}},
			"automata": []any{map[string]any{"name": "A", "locations": []any{map[string]any{"name": "l"}}, "initial-locations": []any{"l"}, "edges": edges}},
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
		var b bytes.Buffer
		if err := Export(&b, m, nil, nil); err != nil {
			t.Fatalf("seed %d: export: %v\n%s", seed, err, data)
		}
		back, _, err := Decode("back.jani", b.Bytes(), nil)
		if err != nil {
			t.Fatalf("seed %d: the export does not import back: %v\n%s", seed, err, b.String())
		}
		var exported struct {
			Automata []struct{ Edges []any }
		}
		if err := json.Unmarshal(b.Bytes(), &exported); err != nil {
			t.Fatal(err)
		}
		if n := len(exported.Automata[0].Edges); n > ne {
			t.Errorf("seed %d: %d edges become %d commands and %d edges in the export\n%s", seed, ne, len(m.Commands), n, data)
		}
		if len(m.Commands) > ne {
			splitEdges++
			if len(exported.Automata[0].Edges) <= ne {
				merged++
			}
		}
		s := make([]int, nv)
		for i := range s {
			s[i] = ranges[i].lo
		}
		for {
			if want, got := dists(m, s), dists(back, s); want != got {
				t.Fatalf("seed %d, state %v: export imports back to\n%s\nwant\n%s\nmodel %s\nexport %s", seed, s, got, want, data, b.String())
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
	t.Logf("%d of 300 models had an edge split; the export merged %d", splitEdges, merged)
}
