package prob_test

import (
	"context"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"vigil/internal/testutil"
	"vigil/prob"
	"vigil/safety"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/gen"
)

// weighted returns generated model seed with random positive weights
// 1..4 on every outcome (and Prob normalised for simulation).
func weighted(seed uint64) *symbolic.Model {
	m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 4, MaxLabels: 3, MaxCommands: 4, MaxOutcomes: 3})
	setWeights(m, rand.New(rand.NewPCG(seed, 99)))
	return m
}

// randomMDP is a model of one variable x in 0..n-1 whose commands jump
// to random values with random weights: guards are ranges of x, several
// commands may share a label, and x = 0 is unsafe, x = n-1 the goal, so
// most values lie strictly between 0 and 1.
func randomMDP(seed uint64) *symbolic.Model {
	r := rand.New(rand.NewPCG(seed, 7))
	n := 4 + r.IntN(6)
	m := &symbolic.Model{Name: "mdp", Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: n - 1, HasInit: true, Init: 1 + r.IntN(n-2)}}}
	nl := 1 + r.IntN(3)
	for i := 0; i < nl; i++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: string(rune('a' + i))})
	}
	x := symbolic.V(0)
	for i := 0; i < nl+r.IntN(4); i++ {
		lo := r.IntN(n)
		hi := lo + r.IntN(n-lo)
		c := symbolic.Command{Label: symbolic.LabelID(i % nl), Guard: symbolic.And(symbolic.Compare(x, symbolic.Ge, symbolic.Lit(lo)), symbolic.Compare(x, symbolic.Le, symbolic.Lit(hi)))}
		for k := 0; k < 1+r.IntN(3); k++ {
			c.Outcomes = append(c.Outcomes, symbolic.Outcome{Assigns: []symbolic.Assign{{Var: 0, Value: symbolic.Lit(r.IntN(n))}}})
		}
		m.Commands = append(m.Commands, c)
	}
	chainQuestion(m, r, x, n, nl)
	setWeights(m, r)
	return m
}

// setWeights puts random weights 1..4 on every outcome.
func setWeights(m *symbolic.Model, r *rand.Rand) {
	for ci := range m.Commands {
		os := m.Commands[ci].Outcomes
		sum := 0.0
		for i := range os {
			w := int64(1 + r.IntN(4))
			os[i].Weight = symbolic.Rat{Num: w, Den: 1}
			sum += float64(w)
		}
		for i := range os {
			os[i].Prob = os[i].Weight.Float() / sum
		}
	}
}

// models returns the conformance models: random one-variable MDPs and
// generated models (symbolic/gen) with weights.
func models(k int) []*symbolic.Model {
	var ms []*symbolic.Model
	for seed := uint64(1); seed <= uint64(k); seed++ {
		ms = append(ms, randomMDP(seed), weighted(seed))
	}
	return ms
}

// refMDP is the model's MDP computed in the test, from the IR alone: per
// state, per enabled command, the distribution over successor ids.
type refMDP struct {
	choices [][]map[uint32]*big.Rat
	target  []bool
}

func newRefMDP(t *testing.T, pm *prob.Model, target explicit.Status) *refMDP {
	g := pm.G
	m := g.M
	n := pm.NumStates()
	r := &refMDP{choices: make([][]map[uint32]*big.Rat, n), target: make([]bool, n)}
	buf := make([]uint64, g.L.W)
	for id := 0; id < n; id++ {
		s := pm.StateOf(uint32(id))
		st := g.Status(s)
		r.target[id] = st == target
		if st != explicit.Open {
			continue
		}
		for ci := range m.Commands {
			if !g.Guard(s, ci) {
				continue
			}
			os := m.Commands[ci].Outcomes
			sum := int64(0)
			for _, o := range os {
				sum += o.Weight.Num
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
				p := big.NewRat(o.Weight.Num, sum)
				if v, ok := d[tid]; ok {
					p.Add(p, v)
				}
				d[tid] = p
			}
			r.choices[id] = append(r.choices[id], d)
		}
		if got, want := int(pm.RowStart[id+1]-pm.RowStart[id]), len(r.choices[id]); got != want {
			t.Fatalf("%s: state %s has %d choices in the built model, %d enabled commands", m.Name, m.FormatState(s), got, want)
		}
	}
	return r
}

// schedulers returns the number of memoryless deterministic schedulers.
func (r *refMDP) schedulers() int {
	k := 1
	for _, cs := range r.choices {
		if len(cs) > 1 {
			k *= len(cs)
			if k > 1<<20 {
				return k
			}
		}
	}
	return k
}

// value solves the chain of scheduler sigma by dense Gaussian elimination
// over the rationals: x = 1 on the target, 0 where the target is
// unreachable under sigma, x = P x elsewhere.
func (r *refMDP) value(sigma []int) []*big.Rat {
	n := len(r.choices)
	reach := append([]bool(nil), r.target...)
	for changed := true; changed; {
		changed = false
		for s := 0; s < n; s++ {
			if reach[s] || len(r.choices[s]) == 0 || sigma[s] < 0 {
				continue
			}
			for t := range r.choices[s][sigma[s]] {
				if reach[t] {
					reach[s], changed = true, true
					break
				}
			}
		}
	}
	var unk []int
	idx := make([]int, n)
	for s := 0; s < n; s++ {
		idx[s] = -1
		if reach[s] && !r.target[s] {
			idx[s] = len(unk)
			unk = append(unk, s)
		}
	}
	k := len(unk)
	a := make([][]*big.Rat, k)
	for i, s := range unk {
		a[i] = make([]*big.Rat, k+1)
		for j := range a[i] {
			a[i][j] = new(big.Rat)
		}
		a[i][i].SetInt64(1)
		for t, p := range r.choices[s][sigma[s]] {
			switch {
			case r.target[t]:
				a[i][k].Add(a[i][k], p)
			case idx[t] >= 0:
				a[i][idx[t]].Sub(a[i][idx[t]], p)
			}
		}
	}
	for col := 0; col < k; col++ {
		piv := col
		for piv < k && a[piv][col].Sign() == 0 {
			piv++
		}
		a[col], a[piv] = a[piv], a[col]
		inv := new(big.Rat).Inv(a[col][col])
		for j := col; j <= k; j++ {
			a[col][j].Mul(a[col][j], inv)
		}
		for i := 0; i < k; i++ {
			if i == col || a[i][col].Sign() == 0 {
				continue
			}
			f := new(big.Rat).Set(a[i][col])
			for j := col; j <= k; j++ {
				a[i][j].Sub(a[i][j], new(big.Rat).Mul(f, a[col][j]))
			}
		}
	}
	x := make([]*big.Rat, n)
	for s := 0; s < n; s++ {
		switch {
		case r.target[s]:
			x[s] = big.NewRat(1, 1)
		case idx[s] >= 0:
			x[s] = a[idx[s]][k]
		default:
			x[s] = new(big.Rat)
		}
	}
	return x
}

// optimum enumerates every memoryless deterministic scheduler (they
// suffice for reachability) and returns Pmax and Pmin per state.
func (r *refMDP) optimum() (pmax, pmin []*big.Rat) {
	n := len(r.choices)
	sigma := make([]int, n)
	for {
		x := r.value(sigma)
		if pmax == nil {
			pmax, pmin = x, append([]*big.Rat(nil), x...)
		}
		for s := range x {
			if x[s].Cmp(pmax[s]) > 0 {
				pmax[s] = x[s]
			}
			if x[s].Cmp(pmin[s]) < 0 {
				pmin[s] = x[s]
			}
		}
		s := 0
		for ; s < n; s++ {
			if sigma[s]+1 < len(r.choices[s]) {
				sigma[s]++
				break
			}
			sigma[s] = 0
		}
		if s == n {
			return pmax, pmin
		}
	}
}

// TestConformanceExact checks Pmax and Pmin of reaching the unsafe and the
// goal states, from every state of generated MDPs, against the optimum
// over all memoryless deterministic schedulers, each solved by dense
// rational Gaussian elimination in this test: the exact method must give
// the same rationals, interval iteration bounds that contain them, and the
// schedulers they return must attain them.
func TestConformanceExact(t *testing.T) {
	ctx := context.Background()
	tested, states, scheds, fractional := 0, 0, 0, 0
	for i, m := range models(400) {
		seed := i
		g := testutil.Generator(t, m, m.Properties[0])
		pm, err := prob.Build(ctx, g, prob.Options{Exact: true, MaxStates: 60})
		if err != nil {
			continue // too large for enumeration (or a start condition without states)
		}
		for _, target := range []explicit.Status{explicit.Unsafe, explicit.Goal} {
			ref := newRefMDP(t, pm, target)
			if ref.schedulers() > 3000 {
				continue
			}
			pmax, pmin := ref.optimum()
			tested++
			states += pm.NumStates()
			scheds += ref.schedulers()
			for s := range pmax {
				if pmax[s].Sign() > 0 && pmax[s].Cmp(big.NewRat(1, 1)) < 0 || pmin[s].Sign() > 0 && pmin[s].Cmp(big.NewRat(1, 1)) < 0 {
					fractional++
				}
			}
			for _, max := range []bool{true, false} {
				want := pmin
				if max {
					want = pmax
				}
				for _, method := range []prob.Method{prob.Exact, prob.II} {
					res, err := prob.Solve(ctx, pm, pm.Target(target), prob.SolveOptions{Max: max, Method: method, Epsilon: 1e-9, Absolute: true})
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					for s := range want {
						w, _ := want[s].Float64()
						switch {
						case method == prob.Exact && res.Exact[s].Cmp(want[s]) != 0:
							t.Errorf("seed %d %v max=%v: state %s: exact %s, want %s", seed, target, max, m.FormatState(pm.StateOf(uint32(s))), res.Exact[s].RatString(), want[s].RatString())
						case res.Lower[s] > w+1e-12 || res.Upper[s] < w-1e-12:
							t.Errorf("seed %d %v max=%v %s: state %s: bounds [%g, %g] miss %g", seed, target, max, method, m.FormatState(pm.StateOf(uint32(s))), res.Lower[s], res.Upper[s], w)
						}
					}
					// The scheduler attains the optimum.
					sigma := make([]int, pm.NumStates())
					for s, c := range res.Sched {
						if c >= 0 {
							sigma[s] = int(c - int32(pm.RowStart[s]))
						}
					}
					got := ref.value(sigma)
					for s := range want {
						g, _ := got[s].Float64()
						w, _ := want[s].Float64()
						if math.Abs(g-w) > 1e-6 {
							t.Errorf("seed %d %v max=%v %s: state %s: the scheduler attains %g, the optimum is %g", seed, target, max, method, m.FormatState(pm.StateOf(uint32(s))), g, w)
						}
					}
				}
			}
		}
	}
	t.Logf("%d pairs, %d states, %d schedulers, %d fractional", tested, states, scheds, fractional)
	if tested < 300 || fractional < 300 {
		t.Fatalf("only %d generated models were small enough to enumerate, with %d states of a value strictly between 0 and 1", tested, fractional)
	}
	t.Logf("%d (model, target) pairs checked: %d states, %d schedulers enumerated, %d states of a value strictly between 0 and 1", tested, states, scheds, fractional)
}

// TestQualitativeSafety checks the probability-0 answers against the
// safety deciders (outcomes adversarial). A state is safe iff some policy
// avoids the unsafe states on every run, and every outcome has a positive
// probability here, so safe states have Pmin(F unsafe) = 0; the converse
// holds where no label has two commands enabled at once (the MDP's
// scheduler also picks the command, the safety game's adversary does).
// And Pmax(F unsafe) = 0 iff no choice of labels and outcomes reaches an
// unsafe state, which bfs verification over all labels decides.
func TestQualitativeSafety(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for i, m := range models(150) {
		g := testutil.Generator(t, m, m.Properties[0])
		pm, err := prob.Build(ctx, g, prob.Options{MaxStates: 5000})
		if err != nil {
			continue
		}
		unsafe := pm.Target(explicit.Unsafe)
		pmin, err := prob.Solve(ctx, pm, unsafe, prob.SolveOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pmax, err := prob.Solve(ctx, pm, unsafe, prob.SolveOptions{Max: true})
		if err != nil {
			t.Fatal(err)
		}
		sp := safety.NewSpace(g, nil)
		dec, err := safety.New("tarjan", sp, safety.Inf, safety.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for id := 0; id < pm.NumStates(); id++ {
			s := pm.StateOf(uint32(id))
			sid, err := sp.Intern(s)
			if err != nil {
				t.Fatal(err)
			}
			safe, err := dec.Decide(ctx, sid)
			if err != nil {
				t.Fatal(err)
			}
			zero := pmin.Upper[id] == 0
			if safe && !zero {
				t.Errorf("model %d (%s): state %s is safe but Pmin(F unsafe) is in [%g, %g]", i, m.Name, m.FormatState(s), pmin.Lower[id], pmin.Upper[id])
			}
			if !safe && zero && labelDeterministic(pm, uint32(id)) {
				// Pmin = 0 needs a scheduler that avoids unsafe surely; with
				// one command per label it is a safe policy, unless it
				// relies on commands elsewhere: check the region.
				if regionDeterministic(pm) {
					t.Errorf("model %d (%s): state %s is unsafe but Pmin(F unsafe) = 0", i, m.Name, m.FormatState(s))
				}
			}
			checked++
			// Pmax = 0 iff bfs over all labels from s meets no unsafe state.
			p := *m.Properties[0]
			p.Start = stateCond(m, s)
			gs, err := explicit.New(m, &p)
			if err != nil {
				t.Fatal(err)
			}
			res, err := explicit.Search(ctx, gs, explicit.Options{StopAtUnsafe: true})
			if err != nil {
				t.Fatal(err)
			}
			if (res.Verdict == explicit.Safe) != (pmax.Upper[id] == 0) {
				t.Errorf("model %d (%s): state %s: bfs says %v, Pmax(F unsafe) in [%g, %g]", i, m.Name, m.FormatState(s), res.Verdict, pmax.Lower[id], pmax.Upper[id])
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d states checked", checked)
	}
	t.Logf("%d states checked against tarjan and bfs", checked)
}

// labelDeterministic says whether no label of state s has two commands.
func labelDeterministic(pm *prob.Model, s uint32) bool {
	seen := map[symbolic.LabelID]bool{}
	for c := pm.RowStart[s]; c < pm.RowStart[s+1]; c++ {
		if seen[pm.Label[c]] {
			return false
		}
		seen[pm.Label[c]] = true
	}
	return true
}

func regionDeterministic(pm *prob.Model) bool {
	for s := 0; s < pm.NumStates(); s++ {
		if !labelDeterministic(pm, uint32(s)) {
			return false
		}
	}
	return true
}

// stateCond is the condition "the state is s".
func stateCond(m *symbolic.Model, s symbolic.State) *symbolic.Cond {
	var cs []*symbolic.Cond
	for v := range m.Vars {
		cs = append(cs, symbolic.Compare(symbolic.V(symbolic.VarID(v)), symbolic.Eq, symbolic.Lit(s[v])))
	}
	return symbolic.And(cs...)
}

// TestMonteCarlo checks Pr(reach unsafe) and Pr(reach goal) under each
// model's rules policy, where it makes a Markov chain, against the
// frequencies of 4000 weighted simulations of at most 200 steps from the
// first start state (fixed seed): each estimate must lie within 4.5
// standard deviations (plus one run) of the computed value, less the share
// of runs cut at 200 steps.
func TestMonteCarlo(t *testing.T) {
	ctx := context.Background()
	checked := 0
	const runs = 4000
	for i, m := range models(60) {
		g := testutil.Generator(t, m, m.Properties[0])
		dec, err := explicit.NewDecider(m, m.Policies[0])
		if err != nil {
			t.Fatal(err)
		}
		pm, err := prob.Build(ctx, g, prob.Options{Policy: dec, MaxStates: 5000})
		if err != nil || !pm.IsChain() {
			continue
		}
		pu, err := prob.Solve(ctx, pm, pm.Target(explicit.Unsafe), prob.SolveOptions{Epsilon: 1e-9, Absolute: true})
		if err != nil {
			t.Fatal(err)
		}
		pg, err := prob.Solve(ctx, pm, pm.Target(explicit.Goal), prob.SolveOptions{Epsilon: 1e-9, Absolute: true})
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), 2026))
		start := pm.StateOf(0)
		hitU, hitG, cut := 0, 0, 0
		for k := 0; k < runs; k++ {
			_, end, err := explicit.Simulate(g, start, explicit.SimOptions{Steps: 200, Outcomes: explicit.OutcomesWeighted, Rand: rng, Policy: dec})
			if err != nil {
				t.Fatal(err)
			}
			switch end {
			case explicit.EndUnsafe:
				hitU++
			case explicit.EndGoal:
				hitG++
			case explicit.EndSteps:
				cut++
			}
		}
		for _, c := range []struct {
			what string
			p    float64
			hits int
		}{{"unsafe", pu.Value(0), hitU}, {"goal", pg.Value(0), hitG}} {
			est := float64(c.hits) / runs
			sd := math.Sqrt(c.p * (1 - c.p) / runs)
			// A run cut at 200 steps may still have reached the set.
			if est > c.p+4.5*sd+1.0/runs || est < c.p-4.5*sd-1.0/runs-float64(cut)/runs {
				t.Errorf("model %d (%s): Pr(reach %s) = %.6f, simulation %.4f (%d/%d runs)", i, m.Name, c.what, c.p, est, c.hits, runs)
			}
		}
		checked++
	}
	if checked < 40 {
		t.Fatalf("only %d chains checked", checked)
	}
	t.Logf("%d chains checked against %d simulations each", checked, runs)
}

// TestBlame checks the costly decisions of each random model's policy:
// the probability from the start states before and after the change
// against the dense rational solution of the two chains, and the order.
func TestBlame(t *testing.T) {
	ctx := context.Background()
	checked := 0
	for i := 1; i <= 3000 && checked < 200; i++ {
		m := randomMDP(uint64(i))
		g := testutil.Generator(t, m, m.Properties[0])
		dec, err := explicit.NewDecider(m, m.Policies[0])
		if err != nil {
			t.Fatal(err)
		}
		mdp, err := prob.Build(ctx, g, prob.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !regionDeterministic(mdp) {
			continue
		}
		ds, err := prob.Blame(ctx, mdp, dec, prob.BlameOptions{Solve: prob.SolveOptions{Epsilon: 1e-12, Absolute: true}})
		if err != nil {
			t.Fatal(err)
		}
		ref := newRefMDP(t, mdp, explicit.Unsafe)
		app := make([]bool, len(m.Labels))
		sigmaOf := func(change uint32, to symbolic.LabelID) []int {
			sigma := make([]int, mdp.NumStates())
			for s := range sigma {
				sigma[s] = -1
				if len(ref.choices[s]) == 0 {
					continue
				}
				st := mdp.StateOf(uint32(s))
				m.Applicable(st, app)
				l, err := dec.Decide(st, app)
				if err != nil {
					t.Fatal(err)
				}
				if uint32(s) == change {
					l = to
				}
				for k, c := 0, mdp.RowStart[s]; c < mdp.RowStart[s+1]; k, c = k+1, c+1 {
					if mdp.Label[c] == l {
						sigma[s] = k
					}
				}
			}
			return sigma
		}
		avg := func(x []*big.Rat) float64 {
			sum := 0.0
			for k := 0; k < mdp.Starts; k++ {
				f, _ := x[k].Float64()
				sum += f
			}
			return sum / float64(mdp.Starts)
		}
		before := avg(ref.value(sigmaOf(^uint32(0), 0)))
		for k, d := range ds {
			after := avg(ref.value(sigmaOf(d.State, d.Better)))
			if math.Abs(d.BeforeAvg-before) > 1e-9 || math.Abs(d.AfterAvg-after) > 1e-9 {
				t.Errorf("model %d: state %s, %s instead of %s: %g -> %g, the dense solution says %g -> %g", i, m.FormatState(mdp.StateOf(d.State)), m.Labels[d.Better].Name, m.Labels[d.Label].Name, d.BeforeAvg, d.AfterAvg, before, after)
			}
			if k > 0 && ds[k-1].BeforeAvg-ds[k-1].AfterAvg < d.BeforeAvg-d.AfterAvg-1e-12 {
				t.Errorf("model %d: decisions out of order", i)
			}
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d decisions checked", checked)
	}
	t.Logf("%d costly decisions checked against dense rational solutions", checked)
}

// chainQuestion gives m, a chain over x in 0..n-1 with nl labels, its
// property (unsafe at 0, goal at n-1; all states or the initial one as
// start) and a random rules policy pi.
func chainQuestion(m *symbolic.Model, r *rand.Rand, x *symbolic.Expr, n, nl int) {
	m.Properties = []*symbolic.Property{{Name: "p", Unsafe: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(0)), Goal: symbolic.Compare(x, symbolic.Eq, symbolic.Lit(n-1))}}
	if r.IntN(2) == 0 {
		m.Properties[0].Start = symbolic.True()
	}
	pol := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindRules}
	for i := 0; i < n; i += 1 + r.IntN(2) {
		pol.Rules = append(pol.Rules, symbolic.Rule{Cond: symbolic.Compare(x, symbolic.Le, symbolic.Lit(i)), Label: symbolic.LabelID(r.IntN(nl))})
	}
	m.Policies = []*symbolic.PolicyDecl{pol}
}
