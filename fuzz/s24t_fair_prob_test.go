package fuzz

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestS24tFairAgreesWithProb: under fair outcomes a policy succeeds from
// a state exactly when vigil prob gives it Pr(F goal) = 1 under the
// policy. On generated models whose outcomes have random weights, zeros
// among them, the fair value of every state the policy reaches agrees
// with interval iteration's qualitative answer (1, or below 1).
func TestS24tFairAgreesWithProb(t *testing.T) {
	checked, zeros := 0, 0
	for seed := uint64(1); seed <= 1500; seed++ {
		m := gen.Model(seed, gen.Options{})
		prop := m.Properties[0]
		if prop.Goal == nil || len(m.Policies) == 0 {
			continue
		}
		r := rand.New(rand.NewPCG(seed, 24))
		for ci := range m.Commands {
			os := m.Commands[ci].Outcomes
			pos := r.IntN(len(os))
			for oi := range os {
				w := int64(r.IntN(3))
				if oi == pos && w == 0 {
					w = 1
				}
				if w == 0 {
					zeros++
				}
				os[oi].Weight = symbolic.Rat{Num: w, Den: 1}
			}
		}
		if seed%3 == 0 {
			// JANI's state-dependent probabilities, 0 in some states
			// (where they are neither 0 nor bad, vigil prob's Build and
			// fair outcomes read them alike)
			gen.StateProbs(m, r, 3)
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := explicit.NewDecider(m, m.Policies[0])
		if err != nil {
			t.Fatal(err)
		}
		pm, err := prob.Build(context.Background(), g, prob.Options{Policy: dec, MaxStates: 20000})
		if err != nil {
			continue // a range error, a probability error or too big: not this test's question
		}
		// A label's commands are choices of the MDP vigil prob builds
		// under a policy, where fair outcomes take any of them: Pmin = 1
		// (whichever command) implies success, Pmax < 1 (whichever
		// command) failure.
		lo, err := prob.Solve(context.Background(), pm, pm.Target(explicit.Goal), prob.SolveOptions{Max: false})
		if err != nil {
			t.Fatal(err)
		}
		hi, err := prob.Solve(context.Background(), pm, pm.Target(explicit.Goal), prob.SolveOptions{Max: true})
		if err != nil {
			t.Fatal(err)
		}
		task, err := NewGoalTask(m, prop, dec, "pi")
		if err != nil {
			t.Fatal(err)
		}
		task.Fair = true
		for s := uint32(0); s < uint32(pm.NumStates()); s++ {
			st := pm.StateOf(s)
			if g.Status(st) == explicit.Unsafe {
				continue
			}
			one, below := lo.Lower[s] == 1, hi.Upper[s] < 1
			if !one && !below {
				continue
			}
			v, err := task.GoalValueOf(st, nil, 10000, 100000)
			if err != nil {
				t.Fatalf("seed %d, state %s: %v", seed, m.FormatState(st), err)
			}
			if v.Outcome == GoalUnknown {
				continue
			}
			checked++
			if (v.Outcome == GoalReached) != one {
				var b strings.Builder
				symbolic.Print(&b, m)
				t.Errorf("seed %d, state %s: fair value %v, but Pmin(F goal) >= %g, Pmax(F goal) <= %g\n%s", seed, m.FormatState(st), v, lo.Lower[s], hi.Upper[s], b.String())
				return
			}
		}
	}
	if checked < 200 || zeros < 100 {
		t.Errorf("only %d states checked, %d outcomes of weight 0", checked, zeros)
	}
	t.Logf("%d states checked, %d outcomes of weight 0", checked, zeros)
}
