package smt

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestTransitionMatchesExplicitEngine is the cross-check IC3 relies on,
// against the explicit engine itself: on symbolic/gen's random models,
// from sampled states, the successors the encoding admits per label are
// exactly those explicit.Generator expands (terminal states have none).
func TestTransitionMatchesExplicitEngine(t *testing.T) {
	models, perModel := 40, 60
	if testing.Short() {
		models = 10
	}
	r := rand.New(rand.NewPCG(10, 10))
	checked := 0
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m := gen.Model(seed, gen.Options{})
		p := m.Property("")
		g, err := explicit.New(m, p)
		must(t, err)
		x := newCtx(t)
		e, err := NewEncoder(x, m)
		must(t, err)
		tr, err := e.Transition(TransOptions{Property: p})
		must(t, err)
		sv := newSolver(t, x)
		must(t, sv.Assert(tr.Formula))
		var xp explicit.Expansion
		src := make([]uint64, g.Words())
		next := make(symbolic.State, len(m.Vars))
		for k := 0; k < perModel; k++ {
			s := make(symbolic.State, len(m.Vars))
			for i, v := range m.Vars {
				s[i] = v.Lo + r.IntN(v.Size())
			}
			want := make([][]string, len(m.Labels))
			if g.Status(s) == explicit.Open {
				g.L.Pack(s, src)
				if err := g.Expand(src, s, &xp); err != nil {
					t.Fatalf("gen model %d: %v", seed, err)
				}
				for _, grp := range xp.Groups {
					for i := grp.From; i < grp.To; i++ {
						g.L.Unpack(xp.Target(i), next)
						want[grp.Label] = append(want[grp.Label], fmt.Sprint(next))
					}
					slices.Sort(want[grp.Label])
				}
			}
			for l := range m.Labels {
				if got := smtSucc(t, e, sv, s, tr.Label[l]); !slices.Equal(got, want[l]) {
					t.Fatalf("gen model %d, state %s, label %s: smt %v, explicit engine %v", seed, m.FormatState(s), m.Labels[l].Name, got, want[l])
				}
			}
			checked++
		}
		x.Close()
	}
	t.Logf("%d models, %d states agree with the explicit engine", models, checked)
}

// TestBoundsMatchExplicitEngine: on symbolic/gen models with unclamped
// assignments, CheckBounds finds a range error exactly when the explicit
// engine meets one in some open state, and each witness makes the engine
// report the same command.
func TestBoundsMatchExplicitEngine(t *testing.T) {
	models := 40
	if testing.Short() {
		models = 10
	}
	found := 0
	for seed := uint64(1); seed <= uint64(models); seed++ {
		m := gen.Model(seed, gen.Options{RangeErrors: true})
		p := m.Property("")
		g, err := explicit.New(m, p)
		must(t, err)
		src := make([]uint64, g.Words())
		var xp explicit.Expansion
		engineErr := false
		allStates(m, func(s symbolic.State) {
			if engineErr || g.Status(s) != explicit.Open {
				return
			}
			g.L.Pack(s, src)
			engineErr = g.Expand(src, s, &xp) != nil
		})
		br, err := CheckBounds(m, CheckOptions{})
		must(t, err)
		if (len(br.Violations) > 0) != engineErr {
			t.Fatalf("gen model %d: %d violations, explicit engine meets a range error: %v", seed, len(br.Violations), engineErr)
		}
		for _, v := range br.Violations {
			if _, err := g.Apply(v.State, v.Command, v.Outcome); err == nil {
				t.Fatalf("gen model %d: witness %s of command %d outcome %d applies without a range error", seed, m.FormatState(v.State), v.Command, v.Outcome)
			}
			if g.Status(v.State) != explicit.Open || !g.Guard(v.State, v.Command) {
				t.Fatalf("gen model %d: witness %s is terminal or the guard fails", seed, m.FormatState(v.State))
			}
		}
		if engineErr {
			found++
		}
	}
	t.Logf("%d of %d models have range errors; CheckBounds agrees on all", found, models)
}
