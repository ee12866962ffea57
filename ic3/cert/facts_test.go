package cert

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// bruteChosen reports whether symbolic.Choose picks label in s when
// exactly sure and label are applicable (the worst case the fact covers).
func bruteChosen(t *testing.T, p symbolic.Policy, s symbolic.State, label symbolic.LabelID, sure []symbolic.LabelID) bool {
	t.Helper()
	sc := make([]float64, len(p.Outputs()))
	if err := p.Scores(s, sc); err != nil {
		t.Fatal(err)
	}
	app := func(l symbolic.LabelID) bool { return l == label || hasLabel(sure, l) }
	return symbolic.Choose(p.Outputs(), sc, app) == label
}

// bruteHolds decides the fact by enumerating the box.
func bruteHolds(t *testing.T, p symbolic.Policy, f Fact) bool {
	holds := true
	testutil.BoxStates(f.Lo, f.Hi, func(s symbolic.State) {
		holds = holds && !bruteChosen(t, p, s, f.Label, f.Sure)
	})
	return holds
}

// surelyApplicable returns the labels applicable in every state of the box.
func surelyApplicable(m *symbolic.Model, lo, hi []int) []symbolic.LabelID {
	all := make([]bool, len(m.Labels))
	for i := range all {
		all[i] = true
	}
	app := make([]bool, len(m.Labels))
	testutil.BoxStates(lo, hi, func(s symbolic.State) {
		m.Applicable(s, app)
		for l := range all {
			all[l] = all[l] && app[l]
		}
	})
	var sure []symbolic.LabelID
	for l, ok := range all {
		if ok {
			sure = append(sure, symbolic.LabelID(l))
		}
	}
	return sure
}

func randomBox(rng *rand.Rand, m *symbolic.Model) (lo, hi []int) {
	for _, v := range m.Vars {
		a, b := v.Lo+rng.IntN(v.Size()), v.Lo+rng.IntN(v.Size())
		if rng.IntN(4) == 0 {
			a, b = v.Lo, v.Hi
		}
		lo, hi = append(lo, min(a, b)), append(hi, max(a, b))
	}
	return lo, hi
}

// randomOutputs permutes the labels and sometimes drops one, so that the
// output order differs from the label order and some labels are no output.
func randomOutputs(rng *rand.Rand, m *symbolic.Model) []symbolic.LabelID {
	var out []symbolic.LabelID
	for _, i := range rng.Perm(len(m.Labels)) {
		out = append(out, symbolic.LabelID(i))
	}
	if len(out) > 1 && rng.IntN(3) == 0 {
		out = out[1:]
	}
	return out
}

// checkAgainst runs CheckFact on f and compares it with enumeration; it
// returns whether the fact holds.
func checkAgainst(t *testing.T, what string, m *symbolic.Model, p symbolic.Policy, f Fact) bool {
	t.Helper()
	want := bruteHolds(t, p, f)
	err := CheckFact(context.Background(), m, p, f)
	var ff *FactFailure
	switch {
	case err == nil:
		if !want {
			t.Errorf("%s: box %v..%v label %d sure %v: CheckFact holds, enumeration finds a state where it is chosen", what, f.Lo, f.Hi, f.Label, f.Sure)
		}
	case errors.As(err, &ff):
		if want {
			t.Errorf("%s: box %v..%v label %d sure %v: CheckFact fails (%v), enumeration says it holds", what, f.Lo, f.Hi, f.Label, f.Sure, err)
			break
		}
		for v, x := range ff.State {
			if x < f.Lo[v] || x > f.Hi[v] {
				t.Fatalf("%s: witness %v outside the box %v..%v", what, ff.State, f.Lo, f.Hi)
			}
		}
		if !ff.Confirmed || !bruteChosen(t, p, ff.State, f.Label, f.Sure) {
			t.Errorf("%s: witness %v is not confirmed by evaluation: %v", what, ff.State, err)
		}
	default:
		t.Errorf("%s: box %v..%v label %d sure %v: CheckFact cannot decide: %v", what, f.Lo, f.Hi, f.Label, f.Sure, err)
	}
	return want
}

// TestCheckFactAgainstEnumeration compares CheckFact with enumeration on
// generated models with random network and ensemble policies, and checks
// that every Proved answer of the policies' own certifiers passes it.
func TestCheckFactAgainstEnumeration(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	type tally struct{ cases, holds, proved, refuted int }
	var nnT, treesT tally
	start := time.Now()
	for seed := uint64(0); seed < 100; seed++ {
		m := gen.Model(seed, gen.Options{})
		outputs := randomOutputs(rng, m)
		hidden := [][]int{{4}, {8}, {6, 5}, {3, 3, 3}}[seed%4]
		// A fifth of the networks are Tanh, Sigmoid or LeakyReLU ones,
		// which have no exact encoding (intervals and enumeration).
		act := []nn.Activation{nn.ActReLU, nn.ActReLU, nn.ActTanh, nn.ActReLU, nn.ActReLU,
			nn.ActReLU, nn.ActReLU, nn.ActSigmoid, nn.ActReLU, nn.ActLeakyReLU}[seed%10]
		np, _, err := nn.RandomWith(m, outputs, seed, hidden, act)
		if err != nil {
			t.Fatal(err)
		}
		tp, _, err := trees.Random(m, outputs, seed, 1+int(seed%6), 1+int(seed%4))
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 3; k++ {
			lo, hi := randomBox(rng, m)
			if k == 2 && seed%2 == 0 { // a single state
				copy(hi, lo)
			}
			label := symbolic.LabelID(rng.IntN(len(m.Labels)))
			sure := surelyApplicable(m, lo, hi)
			if k > 0 { // also facts with sure sets the model does not give
				sure = sure[:0]
				for l := range m.Labels {
					if k == 1 || rng.IntN(3) != 0 {
						sure = append(sure, symbolic.LabelID(l))
					}
				}
			}
			f := Fact{Lo: lo, Hi: hi, Label: label, Sure: sure}

			nnT.cases++
			if checkAgainst(t, "nn", m, np, f) {
				nnT.holds++
			}
			r, err := np.ExcludesLabel(lo, hi, label, sure, nn.Options{})
			if err != nil {
				t.Fatal(err)
			}
			switch r.Verdict {
			case nn.Proved:
				nnT.proved++
				if err := CheckFact(context.Background(), m, np, f); err != nil {
					t.Errorf("nn certifier proved box %v..%v label %d sure %v, CheckFact: %v", lo, hi, label, sure, err)
				}
			case nn.Refuted:
				nnT.refuted++
			}

			treesT.cases++
			if checkAgainst(t, "trees", m, tp, f) {
				treesT.holds++
			}
			if a := tp.OutputIndex(label); a >= 0 {
				var s []int
				for _, l := range sure {
					if i := tp.OutputIndex(l); i >= 0 {
						s = append(s, i)
					}
				}
				r, err := tp.Excludes(lo, hi, a, s, trees.Options{})
				if err != nil {
					t.Fatal(err)
				}
				switch r.Verdict {
				case trees.Proved:
					treesT.proved++
					if err := CheckFact(context.Background(), m, tp, f); err != nil {
						t.Errorf("trees certifier proved box %v..%v label %d sure %v, CheckFact: %v", lo, hi, label, sure, err)
					}
				case trees.Refuted:
					treesT.refuted++
				}
			}
		}
	}
	t.Logf("nn: %d facts (%d hold), certifier proved %d (all pass), refuted %d", nnT.cases, nnT.holds, nnT.proved, nnT.refuted)
	t.Logf("trees: %d facts (%d hold), certifier proved %d (all pass), refuted %d", treesT.cases, treesT.holds, treesT.proved, treesT.refuted)
	t.Logf("%v", time.Since(start))
	if nnT.holds < nnT.cases/7 || nnT.holds > nnT.cases*6/7 || treesT.holds < treesT.cases/7 || treesT.holds > treesT.cases*6/7 || nnT.proved == 0 || treesT.proved == 0 {
		t.Errorf("unbalanced cases: the comparison needs both answers often")
	}
}

// TestCheckFactWholeBoxQuery compares CheckFact with enumeration when
// network facts are decided by the SMT query over the whole box, as boxes
// larger than ExactStates are (without the float64 witness search, so
// that Z3 finds the witnesses too).
func TestCheckFactWholeBoxQuery(t *testing.T) {
	exactStates, sampleWitnesses, useIntervals = 0, false, false
	defer func() { exactStates, sampleWitnesses, useIntervals = ExactStates, true, true }()
	rng := rand.New(rand.NewPCG(8, 8))
	n, holds := 0, 0
	for seed := uint64(0); seed < 40; seed++ {
		m := gen.Model(seed, gen.Options{})
		p, _, err := nn.Random(m, randomOutputs(rng, m), seed, [][]int{{4}, {6}, {3, 3}}[seed%3])
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 2; k++ {
			lo, hi := randomBox(rng, m)
			sure := randomSure(rng, m)
			n++
			f := Fact{Lo: lo, Hi: hi, Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: sure}
			if checkAgainst(t, "nn whole box", m, p, f) {
				holds++
			}
			if r, err := p.ExcludesLabel(lo, hi, f.Label, sure, nn.Options{}); err != nil {
				t.Fatal(err)
			} else if r.Verdict == nn.Proved {
				if err := CheckFact(context.Background(), m, p, f); err != nil {
					t.Errorf("nn certifier proved box %v..%v label %d sure %v, CheckFact: %v", lo, hi, f.Label, sure, err)
				}
			}
		}
	}
	t.Logf("%d facts, %d hold", n, holds)
}

// randomSure picks each label of m as sure with probability 3/4.
func randomSure(rng *rand.Rand, m *symbolic.Model) []symbolic.LabelID {
	var sure []symbolic.LabelID
	for l := range m.Labels {
		if rng.IntN(4) != 0 {
			sure = append(sure, symbolic.LabelID(l))
		}
	}
	return sure
}

// TestCheckFactIntervals compares the interval branch and bound alone
// (outward-rounded float64 intervals, exact evaluation of boxes of a few
// states) with enumeration, on random networks and boxes: every answer
// it gives must be enumeration's. Facts it cannot settle within the box
// budget are counted, not compared. A version that narrows each bound by
// 1e-3, or that skips the ReLU, fails here.
func TestCheckFactIntervals(t *testing.T) {
	testCheckFactIntervals(t, nn.ActReLU, nn.OutNone)
}

// TestCheckFactIntervalsTanh is TestCheckFactIntervals on Tanh, Sigmoid
// and LeakyReLU networks, whose facts only intervals and enumeration can
// prove (they have no exact SMT encoding).
func TestCheckFactIntervalsTanh(t *testing.T) {
	for _, a := range []nn.Activation{nn.ActTanh, nn.ActSigmoid, nn.ActLeakyReLU} {
		t.Run(a.String(), func(t *testing.T) { testCheckFactIntervals(t, a, nn.OutNone) })
	}
	// Softmax and LogSoftmax: proved on the scores before them, with the
	// margin and the underflow condition of outFunction.
	for _, o := range []nn.OutAct{nn.OutSoftmax, nn.OutLogSoftmax} {
		t.Run(o.String(), func(t *testing.T) { testCheckFactIntervals(t, nn.ActTanh, o) })
	}
}

func testCheckFactIntervals(t *testing.T, act nn.Activation, out nn.OutAct) {
	intervalOnly = true
	defer func() { intervalOnly = false }()
	rng := rand.New(rand.NewPCG(12, 12))
	n, holds, open := 0, 0, 0
	for seed := uint64(0); seed < 120; seed++ {
		m := gen.Model(seed, gen.Options{})
		p, _, err := nn.RandomWith(m, randomOutputs(rng, m), seed, [][]int{{4}, {6}, {3, 3}, {8, 8}}[seed%4], act)
		if err != nil {
			t.Fatal(err)
		}
		p.Net.Out = out
		for k := 0; k < 3; k++ {
			lo, hi := randomBox(rng, m)
			sure := randomSure(rng, m)
			f := Fact{Lo: lo, Hi: hi, Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: sure}
			if err := CheckFact(context.Background(), m, p, f); errors.Is(err, errIntervalBudget) {
				open++
				continue
			}
			n++
			if checkAgainst(t, "nn intervals", m, p, f) {
				holds++
			}
		}
	}
	t.Logf("%d facts decided by intervals (%d hold), %d left open", n, holds, open)
	if holds == 0 || holds == n {
		t.Errorf("the comparison needs both answers")
	}
}

// TestCheckFactShippedNetwork checks facts of the 32x32 ONNX network of
// specs/oneway.spec (float32 weights, inputs pos / (L + VMAX) with a
// non-dyadic coefficient) against enumeration and the nn certifier.
func TestCheckFactShippedNetwork(t *testing.T) {
	m, diags := lang.Load("../../specs/oneway.spec", lang.Options{})
	if m == nil {
		t.Fatal(diags)
	}
	pol, err := symbolic.Instantiate(m, m.Policy("driver"))
	if err != nil {
		t.Fatal(err)
	}
	p := pol.(*nn.Policy)
	rng := rand.New(rand.NewPCG(10, 10))
	n, holds, proved := 0, 0, 0
	for k := 0; k < 60; k++ {
		lo, hi := randomBox(rng, m)
		var sure []symbolic.LabelID
		for l := range m.Labels {
			if rng.IntN(3) != 0 {
				sure = append(sure, symbolic.LabelID(l))
			}
		}
		f := Fact{Lo: lo, Hi: hi, Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: sure}
		n++
		if checkAgainst(t, "oneway driver", m, p, f) {
			holds++
		}
		r, err := p.ExcludesLabel(lo, hi, f.Label, sure, nn.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict == nn.Proved {
			proved++
			if err := CheckFact(context.Background(), m, p, f); err != nil {
				t.Errorf("nn certifier proved box %v..%v label %d sure %v, CheckFact: %v", lo, hi, f.Label, sure, err)
			}
		}
	}
	t.Logf("%d facts, %d hold, the certifier proved %d", n, holds, proved)
}

// TestCheckFactShippedEnsembles checks facts of the XGBoost ensembles of
// trees/testdata/oneway_trees.spec (float32 thresholds, an input of two
// variables in mixed_trees) against enumeration and the trees certifier,
// on a longer line than the default so that boxes cut many leaves.
func TestCheckFactShippedEnsembles(t *testing.T) {
	m, diags := lang.Load("../../trees/testdata/oneway_trees.spec", lang.Options{Defines: map[string]string{"L": "60"}})
	if m == nil {
		t.Fatal(diags)
	}
	rng := rand.New(rand.NewPCG(11, 11))
	for _, name := range []string{"driver_trees", "mixed_trees", "nn_trees"} {
		pol, err := symbolic.Instantiate(m, m.Policy(name))
		if err != nil {
			t.Fatal(err)
		}
		p := pol.(*trees.Policy)
		n, holds, proved := 0, 0, 0
		for k := 0; k < 40; k++ {
			lo, hi := randomBox(rng, m)
			var sure []symbolic.LabelID
			for l := range m.Labels {
				if rng.IntN(3) != 0 {
					sure = append(sure, symbolic.LabelID(l))
				}
			}
			f := Fact{Lo: lo, Hi: hi, Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: sure}
			n++
			if checkAgainst(t, name, m, p, f) {
				holds++
			}
			a := p.OutputIndex(f.Label)
			var s []int
			for _, l := range sure {
				s = append(s, p.OutputIndex(l))
			}
			r, err := p.Excludes(lo, hi, a, s, trees.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if r.Verdict == trees.Proved {
				proved++
				if err := CheckFact(context.Background(), m, p, f); err != nil {
					t.Errorf("%s: trees certifier proved box %v..%v label %d sure %v, CheckFact: %v", name, lo, hi, f.Label, sure, err)
				}
			}
		}
		t.Logf("%s: %d facts, %d hold, the certifier proved %d", name, n, holds, proved)
	}
}

// bothWays runs f with networks checked by exact evaluation state by
// state and by the SMT query over the whole box.
func bothWays(t *testing.T, f func(t *testing.T)) {
	t.Run("exact", f)
	t.Run("smt", func(t *testing.T) {
		exactStates, sampleWitnesses = 0, false
		defer func() { exactStates, sampleWitnesses = ExactStates, true }()
		f(t)
	})
}

// TestCheckFactNormalisation checks the NNet input clipping and
// normalisation and the output de-normalisation against enumeration.
func TestCheckFactNormalisation(t *testing.T) { bothWays(t, testNormalisation) }

func testNormalisation(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for seed := uint64(0); seed < 20; seed++ {
		m := gen.Model(seed, gen.Options{})
		outputs := randomOutputs(rng, m)
		p0, d, err := nn.Random(m, outputs, seed, []int{5})
		if err != nil {
			t.Fatal(err)
		}
		net := p0.Net.Clone()
		for i := 0; i < net.Inputs(); i++ {
			// Inputs are in [0, 1]: clip some states on both sides.
			net.InMin = append(net.InMin, 0.2+0.1*rng.Float64())
			net.InMax = append(net.InMax, 0.6+0.2*rng.Float64())
			net.InMean = append(net.InMean, rng.Float64()-0.5)
			net.InRange = append(net.InRange, 0.5+rng.Float64())
		}
		for i := 0; i < net.Outputs(); i++ {
			net.OutMean = append(net.OutMean, rng.NormFloat64())
			net.OutRange = append(net.OutRange, 0.5+rng.Float64())
		}
		if seed%3 == 0 {
			net.InMin[0], net.InMax[0] = math.Inf(-1), math.Inf(1) // no clip
		}
		p, err := nn.NewPolicyFromNetwork(m, d, net)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 4; k++ {
			lo, hi := randomBox(rng, m)
			var sure []symbolic.LabelID
			for l := range m.Labels {
				if rng.IntN(2) == 0 {
					sure = append(sure, symbolic.LabelID(l))
				}
			}
			checkAgainst(t, "nnet", m, p, Fact{Lo: lo, Hi: hi, Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: sure})
		}
	}
}

// TestCheckFactTreeInputs checks ensembles whose inputs are not monotone
// in their variable (scanned) or read several variables (the box is
// enumerated) against enumeration.
func TestCheckFactTreeInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	for seed := uint64(0); seed < 40; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 3})
		p, d, err := trees.Random(m, randomOutputs(rng, m), seed, 4, 3)
		if err != nil {
			t.Fatal(err)
		}
		in := &d.Inputs[0]
		if seed%2 == 0 {
			// c·v - c/2·v + c/2·v: the same value as before, but Affine.Eval
			// adds terms of both signs, so monotonicity is not assumed.
			c := in.Terms[0].Coef
			in.Terms = append(in.Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: -c.Num, Den: 2 * c.Den}, Var: in.Terms[0].Var},
				symbolic.AffineTerm{Coef: symbolic.Rat{Num: c.Num, Den: 2 * c.Den}, Var: in.Terms[0].Var})
		} else {
			in.Terms = append(in.Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: 1, Den: 3}, Var: symbolic.VarID(len(m.Vars) - 1)})
		}
		for k := 0; k < 5; k++ {
			lo, hi := randomBox(rng, m)
			var sure []symbolic.LabelID
			for l := range m.Labels {
				if rng.IntN(2) == 0 {
					sure = append(sure, symbolic.LabelID(l))
				}
			}
			checkAgainst(t, "trees input", m, p, Fact{Lo: lo, Hi: hi, Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: sure})
		}
	}
}

// TestCheckFactDuplicateOutputs checks policies that list a label twice
// (the .spec checker refuses them, but symbolic.Choose defines them): the
// label is chosen when either of its outputs wins.
func TestCheckFactDuplicateOutputs(t *testing.T) { bothWays(t, testDuplicateOutputs) }

func testDuplicateOutputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for seed := uint64(0); seed < 30; seed++ {
		m := gen.Model(seed, gen.Options{})
		out := randomOutputs(rng, m)
		out = append(out, out[rng.IntN(len(out))])
		np, _, err := nn.Random(m, out, seed, []int{5})
		if err != nil {
			t.Fatal(err)
		}
		tp, _, err := trees.Random(m, out, seed, 6, 2)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 3; k++ {
			lo, hi := randomBox(rng, m)
			sure := randomSure(rng, m)
			f := Fact{Lo: lo, Hi: hi, Label: out[len(out)-1], Sure: sure}
			checkAgainst(t, "nn duplicate", m, np, f)
			checkAgainst(t, "trees duplicate", m, tp, f)
		}
	}
}

// nearTie is a network over one variable v in 0..1 with outputs
// y0 = 1 - 2^-60·v and y1 = 1: at v = 1 float64 rounds y0 to 1, a tie,
// while exactly y0 < y1.
func nearTie(t *testing.T) (*symbolic.Model, *nn.Policy) {
	return twoScores(t, "tie", 1, []float64{-0x1p-60, 0}, []float64{1, 1})
}

// twoScores builds a model of one variable v in 0..hi and labels a and b,
// with a network policy of one dense layer that scores a and b as
// w[0] v + b[0] and w[1] v + b[1].
func twoScores(t *testing.T, name string, hi int, w, b []float64) (*symbolic.Model, *nn.Policy) {
	t.Helper()
	m := &symbolic.Model{Name: name, Vars: []symbolic.Var{{Name: "v", Lo: 0, Hi: hi}},
		Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}}}
	d := &symbolic.PolicyDecl{Name: name, Kind: symbolic.KindNN, Outputs: []symbolic.LabelID{0, 1},
		Inputs: []symbolic.Affine{{Const: symbolic.Rat{Num: 0, Den: 1}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: 0}}}}}
	net := &nn.Network{Layers: []nn.Layer{{In: 1, Out: 2, W: w, B: b}}}
	p, err := nn.NewPolicyFromNetwork(m, d, net)
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

// TestCheckFactNearTie checks facts in the semantics the policy runs in,
// float64 evaluation: at v = 1 the two scores are 1 - 2^-60 and 1
// exactly, but both 1 in float64, so the tie goes to a (the earlier
// output). A fact that only exact arithmetic makes true ("a is never
// chosen") is rejected with a confirmed counterexample; a fact that only
// float64 makes true ("b is never chosen") is accepted where states are
// evaluated.
func TestCheckFactNearTie(t *testing.T) { bothWays(t, testNearTie) }

func testNearTie(t *testing.T) {
	m, p := nearTie(t)
	f := Fact{Lo: []int{1}, Hi: []int{1}, Label: 0, Sure: []symbolic.LabelID{1}}
	if bruteHolds(t, p, f) {
		t.Fatal("float64 evaluation never chooses a")
	}
	err := CheckFact(context.Background(), m, p, f)
	var ff *FactFailure
	if !errors.As(err, &ff) || !ff.Confirmed || ff.State[0] != 1 || ff.Exact == nil || ff.Scores == nil {
		t.Fatalf("CheckFact = %v, want a confirmed failure at v=1 with both scores", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "1152921504606846975/1152921504606846976") {
		t.Errorf("message %q lacks the exact score", msg)
	}
	f = Fact{Lo: []int{1}, Hi: []int{1}, Label: 1, Sure: []symbolic.LabelID{0}}
	if !bruteHolds(t, p, f) {
		t.Fatal("float64 evaluation chooses b")
	}
	if err := CheckFact(context.Background(), m, p, f); err != nil {
		t.Errorf("CheckFact = %v, want nil (in float64 the tie goes to a)", err)
	}
}

// TestCheckFactNearTieRelaxed checks the SMT query over a whole box (no
// interval search, no enumeration): a = 1 - v 2^-60 and b = 1 tie in
// float64 for v in 1..64, so "a is never chosen" is false there although
// exactly b > a, and the query relaxed by the rounding error bounds finds
// the counterexample. The fact "b is never chosen", true in float64, is
// within rounding too: the relaxed query cannot prove it and rejects it
// (the conservative direction).
func TestCheckFactNearTieRelaxed(t *testing.T) {
	exactStates, sampleWitnesses, useIntervals = 0, false, false
	defer func() { exactStates, sampleWitnesses, useIntervals = ExactStates, true, true }()
	m, p := nearTie(t)
	m.Vars[0].Hi = 64
	for _, c := range []struct {
		label, sure symbolic.LabelID
		confirmed   bool
	}{{0, 1, true}, {1, 0, false}} {
		f := Fact{Lo: []int{1}, Hi: []int{64}, Label: c.label, Sure: []symbolic.LabelID{c.sure}}
		err := CheckFact(context.Background(), m, p, f)
		var ff *FactFailure
		if !errors.As(err, &ff) || ff.Confirmed != c.confirmed {
			t.Errorf("label %d: CheckFact = %v, want a failure, confirmed %v", c.label, err, c.confirmed)
		}
	}
}

// TestCheckFactOverflow: scores that overflow to +Inf tie in float64, so
// the earlier output wins; no bound holds where evaluation overflows, and
// enumeration decides.
func TestCheckFactOverflow(t *testing.T) {
	// a = 2^1023 v, b = 2^1023 v + 2^1023: exactly b > a, in float64 both
	// +Inf from v = 2 on (b already at v = 1).
	m, p := twoScores(t, "inf", 40, []float64{0x1p1023, 0x1p1023}, []float64{0, 0x1p1023})
	f := Fact{Lo: []int{0}, Hi: []int{40}, Label: 0, Sure: []symbolic.LabelID{1}}
	if bruteHolds(t, p, f) {
		t.Fatal("float64 evaluation never chooses a")
	}
	var ff *FactFailure
	if err := CheckFact(context.Background(), m, p, f); !errors.As(err, &ff) || !ff.Confirmed || ff.State[0] < 2 {
		t.Errorf("CheckFact = %v, want a confirmed failure where both scores are +Inf", err)
	}
	f = Fact{Lo: []int{0}, Hi: []int{1}, Label: 0, Sure: []symbolic.LabelID{1}}
	if !bruteHolds(t, p, f) {
		t.Fatal("float64 evaluation chooses a at v <= 1")
	}
	if err := CheckFact(context.Background(), m, p, f); err != nil {
		t.Errorf("CheckFact = %v, want nil", err)
	}
}

func TestCheckFactEdges(t *testing.T) {
	m := gen.Model(7, gen.Options{})
	np, _, err := nn.Random(m, []symbolic.LabelID{0}, 1, []int{3})
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := randomBox(rand.New(rand.NewPCG(1, 1)), m)
	ctx := context.Background()
	// A label that is no output is never chosen; an empty box holds.
	if len(m.Labels) > 1 {
		if err := CheckFact(ctx, m, np, Fact{Lo: lo, Hi: hi, Label: 1}); err != nil {
			t.Errorf("label that is no output: %v", err)
		}
	}
	out := make([]int, len(lo))
	for v := range out {
		out[v] = m.Vars[v].Hi + 1
	}
	if err := CheckFact(ctx, m, np, Fact{Lo: out, Hi: out, Label: 0}); err != nil {
		t.Errorf("box outside the ranges: %v", err)
	}
	// The only output with nothing sure is chosen anywhere.
	var ff *FactFailure
	if err := CheckFact(ctx, m, np, Fact{Lo: lo, Hi: hi, Label: 0}); !errors.As(err, &ff) {
		t.Errorf("nothing sure: %v, want a failure", err)
	}
	// Errors that are not failures.
	for _, c := range []struct {
		name string
		f    Fact
		ctx  context.Context
		p    symbolic.Policy
	}{
		{"short box", Fact{Lo: lo[1:], Hi: hi, Label: 0}, ctx, np},
		{"bad label", Fact{Lo: lo, Hi: hi, Label: 99}, ctx, np},
		{"bad sure label", Fact{Lo: lo, Hi: hi, Label: 0, Sure: []symbolic.LabelID{-2}}, ctx, np},
		{"canceled", Fact{Lo: lo, Hi: hi, Label: 0}, canceled(), np},
	} {
		err := CheckFact(c.ctx, m, c.p, c.f)
		if err == nil || errors.As(err, &ff) || !strings.HasPrefix(err.Error(), "cert: ") {
			t.Errorf("%s: %v, want an error that is not a failure", c.name, err)
		}
	}
	// Too large: ensembles over wide variables whose leaf combinations
	// exceed MaxCells, and a multi-variable input over a huge box.
	big := &symbolic.Model{Name: "wide", Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}}}
	for i := 0; i < 3; i++ {
		big.Vars = append(big.Vars, symbolic.Var{Name: string(rune('x' + i)), Lo: 0, Hi: 1 << 20})
	}
	tp, d, err := trees.Random(big, []symbolic.LabelID{0, 1}, 3, 40, 6)
	if err != nil {
		t.Fatal(err)
	}
	tp.Ens.Base[1] = 1e9 // b always wins: every cell must be visited
	cellLimit = 20_000
	defer func() { cellLimit = MaxCells }()
	blo, bhi := []int{0, 0, 0}, []int{1 << 20, 1 << 20, 1 << 20}
	for _, tc := range []string{"cells", "several variables"} {
		if tc == "several variables" {
			d.Inputs[0].Terms = append(d.Inputs[0].Terms, symbolic.AffineTerm{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: 1})
		}
		start := time.Now()
		err := CheckFact(ctx, big, tp, Fact{Lo: blo, Hi: bhi, Label: 0, Sure: []symbolic.LabelID{1}})
		if err == nil || errors.As(err, &ff) || !strings.Contains(err.Error(), "cannot re-check") {
			t.Errorf("%s: %v, want a cannot-re-check error", tc, err)
		}
		t.Logf("%s: %v (%v)", tc, err, time.Since(start))
	}
}

func canceled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}
