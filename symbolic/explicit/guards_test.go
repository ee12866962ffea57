package explicit_test

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// TestGuardIndex checks the guard index (guards.go) against plain guard
// evaluation: on generated models whose guards are conjoined with pins
// (x == k, k == x, !b, b, nested conjunctions, repeated, contradictory and
// out-of-range pins), every state of the full product gets the same
// applicable labels and, per label, the same distinct successors as the
// reference interpreter computes from the IR.
func TestGuardIndex(t *testing.T) {
	n := 150
	if testing.Short() {
		n = 40
	}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		m := gen.Model(seed, gen.Options{})
		rng := rand.New(rand.NewPCG(seed, 7))
		for i := range m.Commands {
			m.Commands[i].Guard = pinGuard(m, rng, m.Commands[i].Guard)
		}
		g, err := explicit.New(m, nil)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		r := &ref{m: m, p: &symbolic.Property{Unsafe: symbolic.False()}}
		x := &explicit.Expansion{}
		src := make([]uint64, g.Words())
		gen.EachState(m, func(s symbolic.State) {
			want, _ := r.labels(s)
			g.L.Pack(s, src)
			g.Applicable(s, x)
			if len(want) != len(x.Labels) {
				t.Fatalf("seed %d, state %s: labels %v, want %v", seed, m.FormatState(s), x.Labels, want)
			}
			for i, l := range want {
				if x.Labels[i] != l || !x.App[l] {
					t.Fatalf("seed %d, state %s: labels %v, want %v", seed, m.FormatState(s), x.Labels, want)
				}
				ws, rerr := r.succ(s, l)
				err := g.Successors(src, s, l, x)
				if (rerr != nil) != (err != nil) {
					t.Fatalf("seed %d, state %s, label %d: range errors differ: %v vs %v", seed, m.FormatState(s), l, err, rerr)
				}
				if err != nil {
					return
				}
				gr := x.Groups[len(x.Groups)-1]
				if gr.To-gr.From != len(ws) {
					t.Fatalf("seed %d, state %s, label %d: %d successors, want %d", seed, m.FormatState(s), l, gr.To-gr.From, len(ws))
				}
			}
		})
	}
}

// pinGuard conjoins c with random pins of the model's variables.
func pinGuard(m *symbolic.Model, rng *rand.Rand, c *symbolic.Cond) *symbolic.Cond {
	cs := []*symbolic.Cond{c}
	for range rng.IntN(4) {
		v := symbolic.VarID(rng.IntN(len(m.Vars)))
		x := &m.Vars[v]
		k := x.Lo + rng.IntN(x.Hi-x.Lo+3) - 1 // sometimes out of range
		var p *symbolic.Cond
		switch rng.IntN(4) {
		case 0:
			p = symbolic.Compare(symbolic.V(v), symbolic.Eq, symbolic.Lit(k))
		case 1:
			p = symbolic.Compare(symbolic.Lit(k), symbolic.Eq, symbolic.V(v))
		case 2:
			p = symbolic.Not(&symbolic.Cond{Op: symbolic.CVar, Var: v})
		default:
			p = &symbolic.Cond{Op: symbolic.CVar, Var: v}
		}
		if rng.IntN(3) == 0 {
			p = &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{p, symbolic.True()}}
		}
		cs = append(cs, p)
	}
	return &symbolic.Cond{Op: symbolic.CAnd, Args: cs}
}
