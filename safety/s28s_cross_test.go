package safety_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"vigil/safety"
	"vigil/safety/conformance"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// cancelled is a context that is always over: a decider polled with it
// stops at its next poll (every 1024 expansions or scope steps, counted
// across its calls), wherever in a search that falls.
type cancelled struct{ context.Context }

func (cancelled) Err() error { return context.DeadlineExceeded }

// TestS28sCrossDeciders is the adversary's cross-check of the explicit
// deciders against bruteSafe (the policies within the radius searched
// one by one) where the earlier suites do not go: radii 2 to 7, where
// the pair tables switch from dense records to chains and windows of
// budgets; a radius of 1000, which the deciders cut to the model's
// number of states; questions asked in a seeded random order, so that
// the caches of earlier answers meet a search from any side; searches
// stopped at their polls and asked again, as --starts --timeout does;
// the scope search forced on half the spaces; and two deciders sharing
// one space, as the fuzzer's oracles do. VIGIL_S28S_MODELS widens the
// run (default 100 models per kind). Each decider, once its questions are
// answered, also analyses random runs of the policy with its caches as
// they are (crossFaults).
func TestS28sCrossDeciders(t *testing.T) {
	n := 100
	if v := os.Getenv("VIGIL_S28S_MODELS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			t.Fatalf("VIGIL_S28S_MODELS=%q: want a positive number of models", v)
		}
	}
	if testing.Short() {
		n /= 3
	}
	g := gen.Options{MaxVars: 3, MaxRange: 4, MaxLabels: 3, MaxCommands: 5, MaxOutcomes: 3}
	small := []safety.Radius{0, 1, 2, 3, 4, 7, 1000, safety.Inf}
	t.Run("rules", func(t *testing.T) { crossRadii(t, 280000, n, g, nil, small) })
	argmax := randomNetsArgMaxAll(t)
	t.Run("argmax-all", func(t *testing.T) { crossRadii(t, 290000, n/2, g, argmax, small) })
	t.Run("initial-start", func(t *testing.T) {
		crossRadii(t, 300000, n/2, gen.Options{MaxVars: 3, MaxRange: 5, MaxLabels: 3, MaxCommands: 6, MaxOutcomes: 3, InitialStart: true}, nil, small)
	})
	// Models of up to 625 states at radii past 64, where a state's
	// budgets outgrow its chain into a window that does not cover the
	// radius and grows both ways.
	t.Run("windows", func(t *testing.T) {
		crossRadii(t, 310000, n/5, gen.Options{MaxVars: 4, MaxRange: 5, MaxLabels: 3, MaxCommands: 6, MaxOutcomes: 2}, nil, []safety.Radius{65, 100, 300})
	})
}

func crossRadii(t *testing.T, first uint64, n int, g gen.Options, policy func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error), radii []safety.Radius) {
	begin := time.Now()
	models, asked, brute, safeAns, stops, faults := 0, 0, 0, 0, 0, 0
	for seed := first; models < n && seed < first+4*uint64(n); seed++ {
		tc, err := conformance.GenerateWith(seed, g, policy)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if tc == nil {
			continue
		}
		models++
		rng := rand.New(rand.NewPCG(seed, 28))
		s := make(symbolic.State, len(tc.M.Vars))
		ns := tc.Gr.NumStates()
		for _, r := range radii {
			want := make([]int8, ns) // -1: the brute force ran out of work
			for id := 0; id < ns; id++ {
				work := 100000
				safe, ok := bruteSafe(tc.Gr, tc.Pi, r, uint32(id), &work)
				switch {
				case !ok:
					want[id] = -1
				case safe:
					want[id] = 1
					safeAns++
					brute++
				default:
					brute++
				}
			}
			ask := func(d safety.Decider, id int, interrupt bool) bool {
				tc.G.L.Unpack(tc.Gr.Store.Get(uint32(id)), s)
				sid, err := d.Space().Intern(s)
				if err != nil {
					t.Fatal(err)
				}
				if interrupt {
					// Stopped at its next poll, if it polls before it
					// answers; then asked again to the end.
					got, err := d.Decide(cancelled{context.Background()}, sid)
					switch {
					case err == nil:
						if got != (want[id] == 1) {
							t.Errorf("seed %d, %s, radius %v, state %s: safe=%v (a stopped search), but the brute force says %v", seed, d.Name(), r, tc.M.FormatState(s), got, want[id] == 1)
						}
						return true
					case !errors.Is(err, context.DeadlineExceeded):
						t.Fatalf("seed %d, %s, radius %v, state %s: %v", seed, d.Name(), r, tc.M.FormatState(s), err)
					}
					stops++
				}
				got, err := d.Decide(context.Background(), sid)
				if err != nil {
					t.Fatalf("seed %d, %s, radius %v, state %s: %v", seed, d.Name(), r, tc.M.FormatState(s), err)
				}
				asked++
				if got != (want[id] == 1) {
					t.Errorf("seed %d, %s, radius %v, state %s: safe=%v, but the brute force says %v", seed, d.Name(), r, tc.M.FormatState(s), got, want[id] == 1)
					return false
				}
				return true
			}
			complete := true
			for _, w := range want {
				complete = complete && w >= 0
			}
			order := rng.Perm(ns)
			var shared *safety.Space
			var prev safety.Decider
			for ai, algo := range safety.Algorithms {
				sp := safety.NewSpace(tc.G, tc.Dec)
				if rng.IntN(2) == 0 {
					safety.ForceScopeSearch(sp)
				}
				if ai%2 == 1 && shared != nil {
					sp = shared // a second decider on the space of the last one
				}
				opt := safety.Options{Order: safety.Order(rng.IntN(3)), Seed: rng.Uint64()}
				d, err := safety.New(algo, sp, r, opt)
				if err != nil {
					t.Fatal(err)
				}
				for _, id := range order {
					if want[id] >= 0 && !ask(d, id, rng.IntN(3) == 0) {
						break
					}
				}
				if !complete {
					continue
				}
				// Fault analysis with the decider's caches as the
				// questions left them, on random runs of the policy.
				for range 3 {
					faults += crossFaults(t, tc, d, r, want, rng)
				}
				// The earlier decider on the shared space is asked again
				// after this one expanded more of it.
				if prev != nil && prev.Space() == sp {
					for _, id := range order[:min(len(order), 5)] {
						if want[id] >= 0 && !ask(prev, id, false) {
							break
						}
					}
				}
				shared, prev = sp, d
			}
		}
	}
	t.Logf("%d models, %d states x radii decided by brute force (%d safe), %d decider answers compared, %d searches stopped and resumed, %d faults compared, %v", models, brute, safeAns, asked, stops, faults, time.Since(begin).Round(time.Millisecond))
	if models < n || safeAns == 0 || safeAns == brute || stops == 0 {
		t.Errorf("%d of %d models, %d brute-force answers (%d safe), %d stops: the test compares too little", models, n, brute, safeAns, stops)
	}
}

// crossFaults runs fault analysis with d on a random run of the tested
// policy in tc's graph (outcomes drawn at random, up to 12 steps, ending
// where the policy cannot go on) and compares it with want (the brute
// force's answer per graph state for d's radius r): the run's states'
// safety, its bugs (its safe states but the last, when it ends unsafe),
// its faults (the safe states where the policy's label has an outcome
// that is not safe; the last state too when it is open and not met
// before), each fault's outcome (not safe, the run's next state when
// that one is not), and its alternative (another label, applicable, whose
// outcomes are all safe with the budget left). It returns the faults.
func crossFaults(t *testing.T, tc *conformance.Model, d safety.Decider, r safety.Radius, want []int8, rng *rand.Rand) int {
	t.Helper()
	gr, sp := tc.Gr, d.Space()
	g := uint32(rng.IntN(gr.NumStates()))
	gids := []uint32{g}
	for len(gids) < 12 && gr.Status[g] == explicit.Open && tc.Pi[g] >= 0 {
		succ := gr.Successors(uint32(tc.Pi[g]))
		g = succ[rng.IntN(len(succ))]
		gids = append(gids, g)
	}
	s := make(symbolic.State, len(tc.M.Vars))
	run := make([]uint32, len(gids))
	for i, g := range gids {
		tc.G.L.Unpack(gr.Store.Get(g), s)
		id, err := sp.Intern(s)
		if err != nil {
			t.Fatal(err)
		}
		run[i] = id
	}
	rep, err := safety.Faults(context.Background(), d, run)
	if err != nil {
		t.Fatalf("seed %d, %s, radius %v: fault analysis: %v", tc.Seed, d.Name(), r, err)
	}
	where := fmt.Sprintf("seed %d, %s, radius %v, run %v", tc.Seed, d.Name(), r, gids)
	n := len(gids)
	endUnsafe := gr.Status[gids[n-1]] == explicit.Unsafe
	var wantBugs, wantFaults []int
	for i, g := range gids {
		if rep.Safe[i] != (want[g] == 1) {
			t.Errorf("%s: step %d safe=%v, the brute force says %v", where, i, rep.Safe[i], want[g] == 1)
		}
		if want[g] != 1 {
			continue
		}
		if i < n-1 && endUnsafe {
			wantBugs = append(wantBugs, i)
		}
		if i == n-1 && (gr.Status[g] != explicit.Open || slices.Contains(gids[:i], g)) || tc.Pi[g] < 0 {
			continue
		}
		for _, u := range gr.Successors(uint32(tc.Pi[g])) {
			if want[u] != 1 {
				wantFaults = append(wantFaults, i)
				break
			}
		}
	}
	if rep.EndUnsafe != endUnsafe || fmt.Sprint(rep.Bugs) != fmt.Sprint(wantBugs) {
		t.Errorf("%s: bugs %v (ends unsafe: %v), the brute force says %v (%v)", where, rep.Bugs, rep.EndUnsafe, wantBugs, endUnsafe)
	}
	var got []int
	after := conformance.Reference(gr, tc.Pi, max(r-1, 0))
	if r < 0 {
		after = conformance.Reference(gr, tc.Pi, r)
	}
	gid := func(id uint32) uint32 {
		buf := make([]uint64, tc.G.L.W)
		tc.G.L.Pack(sp.State(id), buf)
		g, ok := gr.Store.Lookup(buf)
		if !ok {
			t.Fatalf("%s: state %s not in the graph", where, sp.Format(id))
		}
		return g
	}
	for _, f := range rep.Faults {
		got = append(got, f.Step)
		g := gids[f.Step]
		if o := gid(f.Outcome); want[o] == 1 {
			t.Errorf("%s: fault at step %d names outcome %s, which is safe", where, f.Step, sp.Format(f.Outcome))
		} else if f.Step+1 < n && want[gids[f.Step+1]] != 1 && o != gids[f.Step+1] {
			t.Errorf("%s: fault at step %d names outcome %s, not the run's next state, which is not safe either", where, f.Step, sp.Format(f.Outcome))
		}
		if f.Alt == symbolic.NoLabel || f.Alt == f.Label || r == 0 {
			t.Errorf("%s: fault at step %d without a safe alternative", where, f.Step)
			continue
		}
		found := false
		from, to := gr.Groups(g)
		for k := from; k < to; k++ {
			if gr.GroupLabel[k] != f.Alt {
				continue
			}
			found = true
			for _, u := range gr.Successors(k) {
				if !after[u] {
					t.Errorf("%s: fault at step %d names alternative %s, whose outcome %d is not safe with the budget left", where, f.Step, tc.M.Labels[f.Alt].Name, u)
				}
			}
		}
		if !found {
			t.Errorf("%s: fault at step %d names alternative %s, not applicable there", where, f.Step, tc.M.Labels[f.Alt].Name)
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(wantFaults) {
		t.Errorf("%s: faults at steps %v, the brute force says %v", where, got, wantFaults)
	}
	return len(got)
}
