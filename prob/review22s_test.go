package prob_test

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/internal/testutil"
	"vigil/prob"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// adversarialWeights are outcome weight lists a model checker in float64
// gets wrong by a little or a lot: thirds (1/3 is not a float64, three of
// them do not sum to 1), a loop that stays with 1 - 1e-18 (1 in float64),
// 1 - 1e-12, a 1e-300 share (a rational with a denominator of 300
// digits is no int64: a 1/2^62 share instead, and a chain of them), and
// plain halves.
const review22sSeeds = 300

var adversarialWeights = [][]symbolic.Rat{
	{{Num: 1, Den: 3}, {Num: 1, Den: 3}, {Num: 1, Den: 3}},
	{{Num: 999999999999999999, Den: 1}, {Num: 1, Den: 1}},
	{{Num: 999999999999, Den: 1000000000000}, {Num: 1, Den: 1000000000000}},
	{{Num: 1, Den: 1 << 62}, {Num: (1 << 62) - 1, Den: 1 << 62}},
	{{Num: 1, Den: 2}, {Num: 1, Den: 2}},
	{{Num: 2, Den: 7}, {Num: 3, Den: 7}, {Num: 2, Den: 7}},
}

// adversarialMDP is a model of one variable x in 0..n-1 (x = 0 unsafe,
// x = n-1 the goal) whose commands jump to random values (self-loops
// included) with weights from adversarialWeights; several commands may
// share a label, and the rules policy pi may pick a label that is not
// applicable (stuck).
func adversarialMDP(seed uint64) *symbolic.Model {
	r := rand.New(rand.NewPCG(seed, 22))
	n := 4 + r.IntN(5)
	m := &symbolic.Model{Name: "adv", Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: n - 1, HasInit: true, Init: 1 + r.IntN(n-2)}}}
	nl := 1 + r.IntN(3)
	for i := 0; i < nl; i++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: string(rune('a' + i))})
	}
	x := symbolic.V(0)
	for i := 0; i < nl+1+r.IntN(4); i++ {
		lo := 1 + r.IntN(n-2)
		hi := lo + r.IntN(n-1-lo)
		c := symbolic.Command{Label: symbolic.LabelID(i % nl), Guard: symbolic.And(symbolic.Compare(x, symbolic.Ge, symbolic.Lit(lo)), symbolic.Compare(x, symbolic.Le, symbolic.Lit(hi)))}
		ws := adversarialWeights[r.IntN(len(adversarialWeights))]
		for k, w := range ws {
			to := symbolic.Lit(r.IntN(n))
			if k == 0 && r.IntN(2) == 0 {
				to = x // a self-loop, often of the heavy outcome
			}
			c.Outcomes = append(c.Outcomes, symbolic.Outcome{Weight: w, Prob: w.Float(), Assigns: []symbolic.Assign{{Var: 0, Value: to}}})
		}
		m.Commands = append(m.Commands, c)
	}
	chainQuestion(m, r, x, n, nl)
	return m
}

// refFromIR is the MDP of pm's states computed from the IR alone, in
// rationals: per open state, per enabled command (of the policy's label
// when dec is set: none where the policy is stuck), the distribution of
// the normalised weights over the successors.
func refFromIR(t *testing.T, pm *prob.Model, target explicit.Status, dec explicit.Decider) *refMDP {
	t.Helper()
	g := pm.G
	m := g.M
	n := pm.NumStates()
	r := &refMDP{choices: make([][]map[uint32]*big.Rat, n), target: make([]bool, n)}
	buf := make([]uint64, g.L.W)
	app := make([]bool, len(m.Labels))
	for id := 0; id < n; id++ {
		s := pm.StateOf(uint32(id))
		st := g.Status(s)
		r.target[id] = st == target
		if st != explicit.Open {
			continue
		}
		keep := symbolic.NoLabel
		if dec != nil {
			m.Applicable(s, app)
			any := false
			for _, a := range app {
				any = any || a
			}
			if !any {
				continue // a deadlock
			}
			var err error
			if keep, err = dec.Decide(s, app); err != nil {
				t.Fatal(err)
			}
			if keep == symbolic.NoLabel {
				continue // stuck
			}
		}
		for ci := range m.Commands {
			if !g.Guard(s, ci) || dec != nil && m.Commands[ci].Label != keep {
				continue
			}
			os := m.Commands[ci].Outcomes
			sum := new(big.Rat)
			for _, o := range os {
				sum.Add(sum, big.NewRat(o.Weight.Num, o.Weight.Den))
			}
			d := map[uint32]*big.Rat{}
			for oi, o := range os {
				ts, err := g.Apply(s, ci, oi)
				if err != nil {
					t.Fatal(err)
				}
				g.L.Pack(ts, buf)
				tid, ok := pm.Store.Lookup(buf)
				if !ok {
					t.Fatalf("%s: successor %s of state %s missing from the built model", m.Name, m.FormatState(ts), m.FormatState(s))
				}
				p := new(big.Rat).Quo(big.NewRat(o.Weight.Num, o.Weight.Den), sum)
				if v, ok := d[tid]; ok {
					p.Add(p, v)
				}
				d[tid] = p
			}
			r.choices[id] = append(r.choices[id], d)
		}
	}
	return r
}

// TestReview22sDifferential checks Pmax and Pmin of reaching the unsafe
// and the goal states, from every state, over the MDP and under a rules
// policy (stuck in some states, a label with several commands in others),
// on models whose probabilities are thirds, 1 - 1e-18 self-loops, 2^-62
// shares and the like, against the optimum over every memoryless
// scheduler of the IR's MDP, each solved by dense rational Gaussian
// elimination in the test: exact must give the rationals, ii bounds that
// enclose them and are within its relative epsilon (Storm's default 1e-6).
func TestReview22sDifferential(t *testing.T) {
	ctx := context.Background()
	pairs, fractional := 0, 0
	for seed := uint64(1); seed <= review22sSeeds; seed++ {
		m := adversarialMDP(seed)
		g := testutil.Generator(t, m, m.Properties[0])
		dec, err := explicit.NewDecider(m, m.Policies[0])
		if err != nil {
			t.Fatal(err)
		}
		for _, pol := range []explicit.Decider{nil, dec} {
			pm, err := prob.Build(ctx, g, prob.Options{Exact: true, Policy: pol})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			for _, target := range []explicit.Status{explicit.Unsafe, explicit.Goal} {
				ref := refFromIR(t, pm, target, pol)
				if ref.schedulers() > 3000 {
					continue
				}
				pmax, pmin := ref.optimum()
				pairs++
				for s := range pmax {
					if pmax[s].Sign() > 0 && pmax[s].Cmp(big.NewRat(1, 1)) < 0 {
						fractional++
					}
				}
				for _, max := range []bool{true, false} {
					want := pmin
					if max {
						want = pmax
					}
					for _, method := range []prob.Method{prob.Exact, prob.II} {
						res, err := prob.Solve(ctx, pm, pm.Target(target), prob.SolveOptions{Max: max, Method: method, Epsilon: prob.DefaultEpsilon})
						if err != nil {
							t.Fatalf("seed %d policy %v %v max=%v %s: %v", seed, pol != nil, target, max, method, err)
						}
						for s := range want {
							where := func() string { return m.FormatState(pm.StateOf(uint32(s))) }
							lo, hi := new(big.Rat).SetFloat64(res.Lower[s]), new(big.Rat).SetFloat64(res.Upper[s])
							switch {
							case method == prob.Exact:
								// Result's float64 bounds are the rational rounded to
								// nearest (Ask rounds outwards).
								if res.Exact[s].Cmp(want[s]) != 0 {
									t.Errorf("seed %d policy %v %v max=%v: state %s: exact %s, want %s", seed, pol != nil, target, max, where(), res.Exact[s].RatString(), want[s].RatString())
								}
							case lo.Cmp(want[s]) > 0 || hi.Cmp(want[s]) < 0:
								t.Errorf("seed %d policy %v %v max=%v %s: state %s: bounds [%g, %g] miss %s", seed, pol != nil, target, max, method, where(), res.Lower[s], res.Upper[s], want[s].FloatString(20))
							case res.Upper[s]-res.Lower[s] > prob.DefaultEpsilon*res.Lower[s]*(1+1e-9) && res.Upper[s]-res.Lower[s] > 1e-300:
								t.Errorf("seed %d policy %v %v max=%v %s: state %s: bounds [%g, %g] wider than the relative epsilon", seed, pol != nil, target, max, method, where(), res.Lower[s], res.Upper[s])
							}
							if w, _ := want[s].Float64(); method == prob.II && math.Abs(res.Value(uint32(s))-w) > prob.DefaultEpsilon*w {
								t.Errorf("seed %d policy %v %v max=%v: state %s: value %g, want %g", seed, pol != nil, target, max, where(), res.Value(uint32(s)), w)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d (model, policy, target) triples checked, %d states of a fractional Pmax", pairs, fractional)
	if pairs < 600 || fractional < 300 {
		t.Fatalf("only %d triples checked, %d fractional states", pairs, fractional)
	}
}
