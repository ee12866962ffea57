package fuzz

import (
	"context"
	"math/rand"
	"strings"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestReview16cGoalCostsReference: on generated models given random
// costs (and a copy of some commands at another cost, so that two
// commands of one label lead to the same states), the optimal worst-case
// cost GoalOptimal computes and the policy's value GoalValueOf are those of
// a reference that reads the commands directly (Bellman iteration from
// infinity over every state: a label costs the most over its enabled
// commands' outcomes of the command's cost plus the successor's value).
// Every bug each oracle reports is re-checked by the reference (its patch
// costs what the report says, less than the policy does), and no bug of
// the fuzzer's pool is missed (the optimal oracle is exact on these
// models). Before session 16's review, a successor made by two commands
// of a label cost what the first one costs.
func TestReview16cGoalCostsReference(t *testing.T) {
	const inf = 1 << 30
	const models = 3000 // small models: 0.1 s
	compared, finite, bugs := 0, 0, 0
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 2, MaxRange: 5, MaxLabels: 3, MaxCommands: 4, MaxOutcomes: 1 + int(seed%3/2)})
		prop := m.Properties[0]
		if prop.Goal == nil {
			continue
		}
		rng := rand.New(rand.NewSource(int64(seed)))
		for ci := range m.Commands {
			m.Commands[ci].Cost = symbolic.Lit(1 + rng.Intn(4))
		}
		for ci, n := 0, len(m.Commands); ci < n; ci++ {
			if rng.Intn(3) == 0 {
				c := m.Commands[ci]
				c.Cost = symbolic.Lit(1 + rng.Intn(6))
				m.Commands = append(m.Commands, c)
			}
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := explicit.NewDecider(m, m.Policies[0])
		if err != nil {
			t.Fatal(err)
		}
		task, err := NewGoalTask(m, prop, dec, m.Policies[0].Name)
		if err != nil {
			t.Fatal(err)
		}
		states := gen.States(m)
		idx := map[string]int{}
		for i, s := range states {
			idx[goalKey(s)] = i
		}
		// The reference: per state and label, the (cost, successor) pairs.
		type edge struct{ cost, to int }
		byLabel := make([][][]edge, len(states))
		pol := make([]int, len(states)) // the policy's label, -1: stuck
		status := make([]explicit.Status, len(states))
		var x explicit.Expansion
		bad := false
		for i, s := range states {
			status[i] = g.Status(s)
			byLabel[i] = make([][]edge, len(m.Labels))
			pol[i] = -1
			if status[i] != explicit.Open {
				continue
			}
			for ci := range m.Commands {
				c := &m.Commands[ci]
				if !g.Guard(s, ci) {
					continue
				}
				for oi := range c.Outcomes {
					u, err := g.Apply(s, ci, oi)
					if err != nil {
						bad = true
						continue
					}
					byLabel[i][c.Label] = append(byLabel[i][c.Label], edge{c.CostIn(s), idx[goalKey(u)]})
				}
			}
			g.Applicable(s, &x)
			l, err := dec.Decide(s, x.App)
			if err != nil {
				t.Fatal(err)
			}
			if l != symbolic.NoLabel {
				pol[i] = int(l)
			}
		}
		if bad {
			continue // a range error: not this test's concern
		}
		worst := func(v []int, es []edge) int {
			w := 0
			for _, e := range es {
				w = max(w, min(e.cost+v[e.to], inf))
			}
			return w
		}
		solve := func(policy bool, patch map[int]int) []int {
			v := make([]int, len(states))
			for i := range v {
				v[i] = inf
				if status[i] == explicit.Goal {
					v[i] = 0
				}
			}
			for changed := true; changed; {
				changed = false
				for i := range states {
					if status[i] != explicit.Open {
						continue
					}
					best := inf
					for l, es := range byLabel[i] {
						want := pol[i]
						if o, ok := patch[i]; ok {
							want = o
						}
						if len(es) > 0 && (!policy || l == want) {
							best = min(best, worst(v, es))
						}
					}
					if best < v[i] {
						v[i], changed = best, true
					}
				}
			}
			return v
		}
		opt, pv := solve(false, nil), solve(true, nil)
		for i, s := range states {
			c, solvable, ok, err := task.GoalOptimal(s, 100_000)
			if err != nil || !ok {
				t.Fatalf("seed %d, %s: GoalOptimal: ok %v, %v", seed, m.FormatState(s), ok, err)
			}
			if want := opt[i]; solvable != (want < inf) || solvable && c != want {
				t.Fatalf("seed %d, %s: GoalOptimal %d (solvable %v), reference %d", seed, m.FormatState(s), c, solvable, want)
			}
			v, err := task.GoalValueOf(s, nil, 10_000, 100_000)
			if err != nil {
				t.Fatal(err)
			}
			if want := pv[i]; (v.Outcome == GoalReached) != (want < inf) || v.Outcome == GoalReached && v.Cost != want {
				t.Fatalf("seed %d, %s: the policy's value %v, reference %d", seed, m.FormatState(s), v, want)
			}
			compared++
			if opt[i] > 0 && opt[i] < inf {
				finite++
			}
		}
		// Every oracle's bugs are real (the patch costs what the report
		// says, less than the policy), and with the optimal oracle no bug
		// of the pool is missed.
		pool, err := task.Fuzz(context.Background(), PoolOptions{MaxPool: 12, Seed: seed, MaxSteps: 5_000})
		if err != nil {
			if strings.Contains(err.Error(), "nothing to test") || strings.Contains(err.Error(), "no state satisfies the start condition") {
				continue // no start state, or every one is terminal
			}
			t.Fatal(err)
		}
		res, err := task.Confirm(context.Background(), pool, OracleOptions{All: true, Depth: 2, Bound: 1000, MaxStates: 10_000, OptimalStates: 5_000, Expansions: 500})
		if err != nil {
			t.Fatal(err)
		}
		found := map[string]bool{}
		for _, b := range res.Every {
			i := idx[goalKey(b.State)]
			patch := map[int]int{}
			for _, o := range b.Patch {
				patch[idx[goalKey(o.State)]] = int(o.Label)
			}
			if got := solve(true, patch)[i]; got != b.Cost || got >= pv[i] {
				t.Fatalf("seed %d, %s: oracle %s reports a patch of cost %d against the policy's %v; the reference gives the patch %d, the policy %d", seed, m.FormatState(b.State), b.Oracle, b.Cost, b.Policy, got, pv[i])
			}
			found[goalKey(b.State)] = true
			bugs++
		}
		for _, e := range pool.Entries {
			if i := idx[goalKey(e.State)]; opt[i] < pv[i] && !found[goalKey(e.State)] {
				t.Fatalf("seed %d, %s: a bug (optimal cost %d, the policy %d) no oracle reports", seed, m.FormatState(e.State), opt[i], pv[i])
			}
		}
	}
	t.Logf("%d bugs reported and re-checked", bugs)
	if bugs < 20 {
		t.Fatalf("only %d bugs reported: the test checks too few", bugs)
	}
	t.Logf("%d states compared, %d with a finite positive optimal cost", compared, finite)
	if finite < 50 {
		t.Fatalf("only %d states with a finite positive optimal cost: the test compares too little", finite)
	}
}
