package ic3_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"vigil/ic3"
	"vigil/internal/testutil"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/symbolic/explicit/conformance"
	"vigil/symbolic/gen"
	"vigil/trees"
	"vigil/verify"
)

// learnedSuite runs PolIC3 (verify's polic3 or polic3-nog engine) on
// generated models with random learned policies made by mk, against BFS.
// verify.Decide checks every answer before it returns it: a
// counterexample replays, and a safe answer's certificate, policy facts
// included, goes through ic3/cert with the policy's evaluation. The test
// checks each invariant once more by enumeration with the policy's exact
// decisions.
//
// The certifier itself is compared with BFS as well (certifierAgreesWithBFS):
// PolIC3's verdicts alone cannot catch a certifier that always answers
// "excluded", since PolIC3 asks it mostly where a concrete evaluation
// already showed the label is not chosen (without generalization, only
// there: every box is one state).
// learnedIC3 are the IC3 options learnedSuite's runs use (a test may
// switch on an opt-in feature for the duration of its suite).
var learnedIC3 verify.IC3Options

func learnedSuite(t *testing.T, models int, first uint64, generalize bool, g gen.Options, mk func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error)) {
	pols := map[*symbolic.PolicyDecl]symbolic.Policy{}
	facts, within, asked := 0, 0, 0
	engine := "polic3"
	if !generalize {
		engine = "polic3-nog"
	}
	v := func(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, pd *symbolic.PolicyDecl) (conformance.Answer, error) {
		p := pols[pd]
		n, err := certifierAgreesWithBFS(ctx, m, prop, p)
		asked += n
		if err != nil {
			return conformance.Answer{}, fmt.Errorf("certifier: %v", err)
		}
		res, err := verify.Decide(ctx, &verify.Question{Model: m, Property: prop, Policy: pd, Executable: p, Engine: engine, IC3: learnedIC3})
		if err != nil {
			return conformance.Answer{}, err
		}
		switch res.Answer {
		case explicit.UnsafeVerdict:
			return conformance.Answer{Verdict: explicit.UnsafeVerdict, Trace: res.Trace}, nil
		case explicit.Safe:
			if err := checkInvariantPolicy(m, prop, p, res.IC3.Invariant, res.IC3.Differ...); err != nil {
				return conformance.Answer{}, fmt.Errorf("invariant (enumeration): %v", err)
			}
			for _, f := range res.IC3.Facts {
				facts++
				if f.Within != nil {
					within++
				}
			}
			return conformance.Answer{Verdict: explicit.Safe}, nil
		}
		return conformance.Answer{}, fmt.Errorf("unknown: %s", res.Reason)
	}
	conformance.Verify(t, v, conformance.Options{Models: models, FirstSeed: first, Gen: g,
		Policy: testutil.RecordPolicies(pols, mk)})
	t.Logf("%d policy facts re-checked, %d of them on a sub-box of an invariant box; %d certifier answers compared with BFS's decisions", facts, within, asked)
	if asked == 0 {
		t.Error("no certifier answer was compared with BFS")
	}
}

// certifierStates caps the reachable states per model whose decisions the
// certifier is asked about.
const certifierStates = 40

// certifierAgreesWithBFS compares the certifier of p with the decisions
// BFS makes: on up to certifierStates states that BFS reaches under p
// (explicit.BuildGraph with p's float64 decisions), where p chooses label
// c among the applicable labels app,
//
//   - c is not "excluded" on the one-state box of s, given app: BFS takes
//     c there;
//   - c is not "excluded" on the bounding box of s and every reachable
//     state, given the labels applicable in all of them (a subset of app:
//     c still beats them in s);
//   - no other label of app is "possible" on the one-state box of s, given
//     app: c beats it there.
//
// It returns the number of certifier answers compared.
func certifierAgreesWithBFS(ctx context.Context, m *symbolic.Model, prop *symbolic.Property, p symbolic.Policy) (int, error) {
	g, err := explicit.New(m, prop)
	if err != nil {
		return 0, nil // no start state: BFS decides nothing
	}
	dec, err := explicit.PolicyDecider(m, p)
	if err != nil {
		return 0, err
	}
	gr, err := explicit.BuildGraph(ctx, g, explicit.Options{Policy: dec})
	if err != nil {
		return 0, nil // no start state
	}
	lp, err := ic3.Certifier(p) // fresh: no answers cached by PolIC3
	if err != nil {
		return 0, err
	}
	n := gr.NumStates()
	lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
	every := make([]bool, len(m.Labels)) // applicable in every reachable state
	for i := range every {
		every[i] = true
	}
	states := make([]symbolic.State, n)
	apps := make([][]bool, n)
	x := &explicit.Expansion{}
	for id := range n {
		s := make(symbolic.State, len(m.Vars))
		g.L.Unpack(gr.Store.Get(uint32(id)), s)
		states[id] = s
		g.Applicable(s, x)
		apps[id] = slices.Clone(x.App)
		for v := range s {
			if id == 0 || s[v] < lo[v] {
				lo[v] = s[v]
			}
			if id == 0 || s[v] > hi[v] {
				hi[v] = s[v]
			}
		}
		for l, ok := range x.App {
			every[l] = every[l] && ok
		}
	}
	labels := func(app []bool, but symbolic.LabelID) []symbolic.LabelID {
		var ls []symbolic.LabelID
		for l, ok := range app {
			if ok && symbolic.LabelID(l) != but {
				ls = append(ls, symbolic.LabelID(l))
			}
		}
		return ls
	}
	asked := 0
	step := max(1, n/certifierStates)
	for id := 0; id < n; id += step {
		s, app := states[id], apps[id]
		if g.Status(s) != explicit.Open || !slices.Contains(app, true) {
			continue
		}
		c, err := dec.Decide(s, app)
		if err != nil {
			return asked, err
		}
		if c == symbolic.NoLabel {
			continue
		}
		ask := func(lo, hi []int, a symbolic.LabelID, sure []symbolic.LabelID) (ic3.Exclusion, error) {
			asked++
			v, _, err := lp.Exclude(lo, hi, a, sure)
			return v, err
		}
		v, err := ask(s, s, c, labels(app, c))
		if err != nil {
			return asked, err
		}
		if v == ic3.Excluded {
			return asked, fmt.Errorf("it excludes label %s in state %s, where the policy chooses it (BFS takes it)", m.Labels[c].Name, m.FormatState(s))
		}
		if v, err = ask(lo, hi, c, labels(every, c)); err != nil {
			return asked, err
		}
		if v == ic3.Excluded {
			return asked, fmt.Errorf("it excludes label %s in the box %v..%v of the reachable states, but the policy chooses it in state %s (BFS takes it)", m.Labels[c].Name, lo, hi, m.FormatState(s))
		}
		for _, a := range labels(app, c) {
			if v, err = ask(s, s, a, labels(app, a)); err != nil {
				return asked, err
			}
			if v == ic3.Possible {
				return asked, fmt.Errorf("it finds label %s possible in state %s, where the policy chooses %s (BFS takes it)", m.Labels[a].Name, m.FormatState(s), m.Labels[c].Name)
			}
		}
	}
	return asked, nil
}

func TestPolIC3Networks(t *testing.T) {
	learnedSuite(t, 300, 1, true, gen.Options{}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.Random(m, outs, seed, []int{8})
	})
}

func TestPolIC3Ensembles(t *testing.T) {
	learnedSuite(t, 300, 1000, true, gen.Options{}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return trees.Random(m, outs, seed, 4, 3)
	})
}

func TestPolIC3NoGeneralization(t *testing.T) {
	learnedSuite(t, 100, 2000, false, gen.Options{}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 3, 2)
		}
		return nn.Random(m, outs, seed, []int{6})
	})
}

func bounds(m *symbolic.Model, b []smtLit) (lo, hi []int) {
	lo, hi = make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for i := range m.Vars {
		lo[i], hi[i] = m.Vars[i].Lo, m.Vars[i].Hi
	}
	for _, l := range b {
		if l.Form != nil {
			continue // a linear atom: the bounding box, as PolIC3 and cert check use
		}
		if l.Upper {
			hi[l.Var] = min(hi[l.Var], l.K)
		} else {
			lo[l.Var] = max(lo[l.Var], l.K)
		}
	}
	return lo, hi
}

// More labels make the policy's choice matter more often: more safe
// answers rest on policy facts.
func TestPolIC3ManyLabels(t *testing.T) {
	learnedSuite(t, 200, 3000, true, gen.Options{MaxLabels: 5, MaxCommands: 7, MaxVars: 3}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		if seed%2 == 0 {
			return trees.Random(m, outs, seed, 4, 3)
		}
		return nn.Random(m, outs, seed, []int{8})
	})
}

// nearTieNetwork returns a random network policy whose last layer is
// edited so that float64 evaluation and exact arithmetic part (variant
// seed%4): output 1 a copy of output 0 (exact ties, the tie-break order
// decides); output 1 a copy with its bias one ulp higher (exactly 1 wins
// everywhere, in float64 the rounding of the sum often erases the ulp and
// 0 wins the tie); the last layer scaled by 2^1020 (scores overflow to
// +-Inf, and NaN where both signs meet: ties at +Inf, never chosen at
// -Inf and NaN); outputs 0 and 1 scaled by 2^1023 with a 2^-60 relative
// gap. BFS evaluates the policy in float64; PolIC3 must agree.
func nearTieNetwork(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
	p, d, err := nn.Random(m, outs, seed, []int{6})
	if err != nil {
		return nil, nil, err
	}
	net := p.Net.Clone()
	l := &net.Layers[len(net.Layers)-1]
	if l.Out < 2 {
		return p, d, nil
	}
	row := func(i int) []float64 { return l.W[i*l.In : (i+1)*l.In] }
	switch seed % 4 {
	case 0:
		copy(row(1), row(0))
		l.B[1] = l.B[0]
	case 1:
		copy(row(1), row(0))
		l.B[1] = math.Nextafter(l.B[0], math.Inf(1))
	case 2:
		for i := range l.W {
			l.W[i] *= 0x1p1020
		}
		for i := range l.B {
			l.B[i] *= 0x1p1020
		}
	case 3:
		for _, i := range []int{0, 1} {
			for j := range row(i) {
				row(i)[j] *= 0x1p1023
			}
			l.B[i] *= 0x1p1023
		}
		copy(row(1), row(0))
		l.B[1] = l.B[0] + math.Abs(l.B[0])*0x1p-60
	}
	q, err := nn.NewPolicyFromNetwork(m, d, net)
	return q, d, err
}

// TestPolIC3NearTies compares PolIC3 with BFS on networks with exact and
// near ties and overflowing scores, and re-checks every policy fact of a
// safe answer with ic3/cert.
func TestPolIC3NearTies(t *testing.T) {
	learnedSuite(t, 160, 5000, true, gen.Options{MaxLabels: 4}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nearTieNetwork(m, outs, seed)
	})
}

// TestPolIC3TanhNetworks runs the learned-policy suite (PolIC3 against
// BFS, every certificate re-checked) with Tanh, Sigmoid and LeakyReLU
// networks, the activations of Stable-Baselines3 actors.
func TestPolIC3TanhNetworks(t *testing.T) {
	acts := []nn.Activation{nn.ActTanh, nn.ActSigmoid, nn.ActTanh, nn.ActLeakyReLU}
	learnedSuite(t, 120, 3000, true, gen.Options{}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.RandomWith(m, outs, seed, []int{8}, acts[seed%4])
	})
	learnedSuite(t, 200, 5000, true, gen.Options{MaxLabels: 5, MaxCommands: 7, MaxVars: 3}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		return nn.RandomWith(m, outs, seed, []int{8, 6}, acts[seed%4])
	})
	// Ending in Softmax or LogSoftmax.
	learnedSuite(t, 120, 7000, true, gen.Options{MaxLabels: 5, MaxCommands: 7, MaxVars: 3}, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		p, d, err := nn.RandomWith(m, outs, seed, []int{8}, acts[seed%4])
		if err == nil {
			p.Net.Out = []nn.OutAct{nn.OutSoftmax, nn.OutLogSoftmax}[seed%2]
		}
		return p, d, err
	})
}
