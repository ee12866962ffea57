package prob_test

import (
	"context"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// nearOneCycles returns a model of x in 0 .. n+1 (0 unsafe, n+1 the goal)
// whose states 1 .. n form one or two rings (the second entered from the
// first: nested components): each state's label a moves on along its ring
// with a weight of 10^e against small weights to leave (to the goal, the
// unsafe state, the other ring or anywhere), so that a ring is left with a
// probability of about 10^-e per round; some states have a label b as
// well, a second command inside the component (an MDP choice), sometimes
// one that moves within its ring with probability 1 (an end component).
func nearOneCycles(r *rand.Rand) *symbolic.Model {
	n := 2 + r.IntN(5)
	split := n + 1 // states split .. n form the second ring
	if n >= 4 && r.IntN(2) == 0 {
		split = 2 + r.IntN(n-2) + 1
	}
	x := symbolic.V(0)
	to := func(v int) symbolic.Outcome {
		return symbolic.Outcome{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(v)}}}
	}
	next := func(s int) int {
		if s < split {
			if s+1 == split {
				return 1
			}
			return s + 1
		}
		if s == n {
			return split
		}
		return s + 1
	}
	m := &symbolic.Model{
		Name:   "rings",
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: n + 1, HasInit: true, Init: 1}},
		Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}},
	}
	big10 := []int64{1000, 10000000000, 1000000000000000, 1000000000000000000}
	cmd := func(l int, s int, os []symbolic.Outcome, ws []int64) {
		for i := range os {
			os[i].Weight = symbolic.Rat{Num: ws[i], Den: 1}
		}
		m.Commands = append(m.Commands, symbolic.Command{Label: symbolic.LabelID(l), Guard: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(s)), Outcomes: os})
	}
	for s := 1; s <= n; s++ {
		os := []symbolic.Outcome{to(next(s))}
		ws := []int64{big10[r.IntN(len(big10))]}
		// Leave the ring from some states only (at least from the last of
		// each ring, so that no ring is closed).
		if r.IntN(2) == 0 || s == split-1 || s == n {
			for k := 0; k < 1+r.IntN(2); k++ {
				dst := []int{0, n + 1, r.IntN(n + 2)}[r.IntN(3)]
				if s < split && split <= n && r.IntN(2) == 0 {
					dst = split + r.IntN(n-split+1) // into the second ring
				}
				if dst == s || dst == next(s) {
					continue
				}
				os = append(os, to(dst))
				ws = append(ws, 1+r.Int64N(5))
			}
		}
		cmd(0, s, os, ws)
		switch r.IntN(3) {
		case 0: // a second way out, or around
			d1, d2 := r.IntN(n+2), r.IntN(n+2)
			if d1 != d2 {
				cmd(1, s, []symbolic.Outcome{to(d1), to(d2)}, []int64{big10[r.IntN(len(big10))], 1 + r.Int64N(5)})
			}
		case 1: // on along the ring for sure: an end component for max
			cmd(1, s, []symbolic.Outcome{to(next(s))}, []int64{1})
		}
	}
	return m
}

// TestNearOneCycles checks Pmax and Pmin of reaching the unsafe and the
// goal states on rings of states that go round with probability 1 - 10^-e
// (e up to 18, where the float64 of the probability is 1) against the
// optimum over all memoryless deterministic schedulers in rationals
// (refMDP, conformance_test.go): the exact method must equal it, interval
// iteration's bounds must contain it as rationals and be within epsilon.
// Interval iteration would need about 10^e sweeps; the components are
// solved directly instead (scc.go), so the run ends well within the
// deadline.
func TestNearOneCycles(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 7))
	models := 0
	for seed := 0; seed < 150; seed++ {
		m := nearOneCycles(r)
		p := &symbolic.Property{Name: "p", Unsafe: symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(0)), Goal: symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(m.Vars[0].Hi))}
		p.Start = symbolic.True()
		g, err := explicit.New(m, p)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		pm, err := prob.Build(ctx, g, prob.Options{Exact: true})
		if err != nil {
			t.Fatal(err)
		}
		models++
		for _, target := range []explicit.Status{explicit.Unsafe, explicit.Goal} {
			ref := newRefMDP(t, pm, target)
			pmax, pmin := ref.optimum()
			for _, max := range []bool{true, false} {
				want := pmin
				if max {
					want = pmax
				}
				ex, err := prob.Solve(ctx, pm, pm.Target(target), prob.SolveOptions{Max: max, Method: prob.Exact})
				if err != nil {
					t.Fatalf("seed %d %v max=%v: exact: %v", seed, target, max, err)
				}
				ii, err := prob.Solve(ctx, pm, pm.Target(target), prob.SolveOptions{Max: max})
				if err != nil {
					t.Fatalf("seed %d %v max=%v: ii: %v", seed, target, max, err)
				}
				for s := range want {
					name := m.FormatState(pm.StateOf(uint32(s)))
					if ex.Exact[s].Cmp(want[s]) != 0 {
						t.Errorf("seed %d %v max=%v: state %s: exact %s, brute force %s", seed, target, max, name, ex.Exact[s].RatString(), want[s].RatString())
					}
					lo, hi := new(big.Rat).SetFloat64(ii.Lower[s]), new(big.Rat).SetFloat64(ii.Upper[s])
					if lo.Cmp(want[s]) > 0 || hi.Cmp(want[s]) < 0 {
						t.Errorf("seed %d %v max=%v: state %s: bounds [%.17g, %.17g] miss %s", seed, target, max, name, ii.Lower[s], ii.Upper[s], want[s].FloatString(20))
					}
					if d := ii.Upper[s] - ii.Lower[s]; d > 1e-6*ii.Lower[s] {
						t.Errorf("seed %d %v max=%v: state %s: bounds [%g, %g] not within epsilon", seed, target, max, name, ii.Lower[s], ii.Upper[s])
					}
				}
			}
		}
		cancel()
	}
	t.Logf("%d models", models)
}
