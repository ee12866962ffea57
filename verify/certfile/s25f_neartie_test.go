package certfile

// TestS25fFactNearTies compares ic3/cert.CheckFact with enumeration on
// networks built to near-tie: the output layer's rows differ by a few
// units in the last place, over boxes of more than the 16 states that
// CheckFact evaluates at once (so its interval proof, with its own
// float64 error analysis, decides first), with inputs that round
// (large offsets, thirds). A fact CheckFact accepts while some state of
// its box chooses the label is a wrong "valid".

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	invcert "vigil/ic3/cert"
	"vigil/nn"
	"vigil/symbolic"
)

func nearTieNet(r *rand.Rand, nv, hidden, outs int) *nn.Network {
	net := &nn.Network{}
	in := nv
	scale := []float64{1, 1, 1, 1e-3, 1e6, 1e150, 1e300}[r.IntN(7)]
	act := []nn.Activation{nn.ActReLU, nn.ActReLU, nn.ActTanh, nn.ActSigmoid, nn.ActLeakyReLU, nn.ActClip}[r.IntN(6)]
	for k := 0; k < hidden; k++ {
		w := hidden + r.IntN(3)
		l := nn.Layer{In: in, Out: w, W: make([]float64, in*w), B: make([]float64, w), Act: act}
		if act == nn.ActLeakyReLU {
			l.Slope = []float64{0.01, 0.5, 0, 1}[r.IntN(4)]
		}
		if act == nn.ActClip {
			l.Lo, l.Hi = -r.Float64(), r.Float64()
		}
		for i := range l.W {
			l.W[i] = r.NormFloat64()
		}
		for i := range l.B {
			l.B[i] = r.NormFloat64()
		}
		net.Layers = append(net.Layers, l)
		in = w
	}
	l := nn.Layer{In: in, Out: outs, W: make([]float64, in*outs), B: make([]float64, outs)}
	for j := 0; j < in; j++ {
		l.W[j] = r.NormFloat64() * scale
	}
	l.B[0] = r.NormFloat64() * scale
	for o := 1; o < outs; o++ {
		for j := 0; j < in; j++ {
			w := l.W[j]
			for k := r.IntN(4); k > 0; k-- {
				w = math.Nextafter(w, math.Inf(2*r.IntN(2)-1))
			}
			l.W[o*in+j] = w
		}
		b := l.B[0]
		for k := r.IntN(6); k > 0; k-- {
			b = math.Nextafter(b, math.Inf(2*r.IntN(2)-1))
		}
		l.B[o] = b
	}
	net.Layers = append(net.Layers, l)
	if r.IntN(4) == 0 {
		for i := 0; i < nv; i++ {
			net.InMin = append(net.InMin, math.Inf(-1))
			net.InMax = append(net.InMax, math.Inf(1))
			if r.IntN(2) == 0 {
				net.InMin[i], net.InMax[i] = -1e3, 1e3
			}
			net.InMean = append(net.InMean, float64(r.IntN(100)))
			net.InRange = append(net.InRange, []float64{3, 0.1, 1e-300, 7}[r.IntN(4)])
		}
	}
	if r.IntN(4) == 0 {
		for o := 0; o < outs; o++ {
			net.OutMean = append(net.OutMean, r.NormFloat64())
			net.OutRange = append(net.OutRange, []float64{3, 1e-5, 1e300}[r.IntN(3)])
		}
	}
	if r.IntN(5) == 0 {
		net.Out = []nn.OutAct{nn.OutSoftmax, nn.OutLogSoftmax}[r.IntN(2)]
	}
	return net
}

func TestS25fFactNearTies(t *testing.T) {
	n := 1500
	if testing.Short() {
		n = 80
	}
	var accepted, refuted, undecided, holds int
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 25))
		m, d := tieModel(r, []int{0, -300, 1 << 40, -(1 << 45)}, []int{40, 300, 5000}, "net", symbolic.KindNN)
		nv, outs := len(m.Vars), len(d.Outputs)
		for v := range m.Vars {
			var a symbolic.Affine
			switch r.IntN(3) {
			case 0: // the variable itself
				a = symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}}
			case 1: // thirds
				a = symbolic.Affine{Const: symbolic.Rat{Num: 1, Den: 7}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 3}, Var: symbolic.VarID(v)}}}
			default: // centred on the range
				a = symbolic.Affine{Const: symbolic.Rat{Num: -int64(m.Vars[v].Lo), Den: 1}, Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}}
			}
			d.Inputs = append(d.Inputs, a)
		}
		d.ArgMaxAll = r.IntN(3) == 0
		m.Policies = []*symbolic.PolicyDecl{d}
		net := nearTieNet(r, nv, []int{0, 1, 1, 2}[r.IntN(4)], outs)
		p, err := nn.NewPolicyFromNetwork(m, d, net)
		if err != nil {
			t.Logf("seed %d: %v", seed, err)
			continue
		}
		for k := 0; k < 4; k++ {
			lo, hi, label, sure := randomFact(r, m, k == 0, outs, d.ArgMaxAll)
			// the reference: Label chosen in some state when exactly Sure and
			// Label are applicable
			atoms := randomAtoms(r, m)
			witness, found := factWitness(t, p, d, lo, hi, atoms, label, sure, outs, nil)
			want := !found
			err := invcert.CheckFact(context.Background(), m, p, invcert.Fact{Lo: lo, Hi: hi, Atoms: atoms, Label: label, Sure: sure})
			var ff *invcert.FactFailure
			switch {
			case err == nil:
				accepted++
				if !want {
					t.Errorf("seed %d box %v..%v label a%d sure %v (argmax all %v): (atoms %v) CheckFact accepts the fact, but the policy chooses a%d in %v (scores %v)\nnetwork %+v",
						seed, lo, hi, label, sure, d.ArgMaxAll, atoms, label, witness, scoresAt(p, witness, outs), net.Layers)
				}
			case errors.As(err, &ff):
				refuted++
				if want {
					t.Errorf("seed %d box %v..%v label a%d sure %v: CheckFact refutes (%v), enumeration finds no state", seed, lo, hi, label, sure, err)
				}
			default:
				undecided++
			}
			if want {
				holds++
			}
		}
	}
	t.Logf("%d facts accepted, %d refuted, %d undecided; %d hold", accepted, refuted, undecided, holds)
}

// tieModel draws a model of one or two variables (ranges from los and
// sizes; smaller ones for two) and 2 or 3 labels, and a policy declaration
// of kind whose outputs are the labels in order.
func tieModel(r *rand.Rand, los, sizes []int, name string, kind symbolic.PolicyKind) (*symbolic.Model, *symbolic.PolicyDecl) {
	nv := 1 + r.IntN(2)
	m := &symbolic.Model{Name: "tie"}
	for v := 0; v < nv; v++ {
		lo := los[r.IntN(len(los))]
		size := sizes[r.IntN(len(sizes))]
		if nv == 2 {
			size = []int{20, 70}[r.IntN(2)]
		}
		m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("x%d", v), Lo: lo, Hi: lo + size - 1, HasInit: true, Init: lo})
	}
	outs := 2 + r.IntN(2)
	d := &symbolic.PolicyDecl{Name: name, Kind: kind}
	for o := 0; o < outs; o++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprintf("a%d", o)})
		d.Outputs = append(d.Outputs, symbolic.LabelID(o))
	}
	return m, d
}

// randomFact draws a fact to check: a box (the whole state space when
// whole), a label and the labels surely applicable beside it (every other
// output under argmax all).
func randomFact(r *rand.Rand, m *symbolic.Model, whole bool, outs int, argMaxAll bool) (lo, hi []int, label symbolic.LabelID, sure []symbolic.LabelID) {
	lo, hi = make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for v, va := range m.Vars {
		a, b := va.Lo+r.IntN(va.Size()), va.Lo+r.IntN(va.Size())
		if whole {
			a, b = va.Lo, va.Hi
		}
		lo[v], hi[v] = min(a, b), max(a, b)
	}
	label = symbolic.LabelID(r.IntN(outs))
	for o := 0; o < outs; o++ {
		if symbolic.LabelID(o) != label && (r.IntN(3) != 0 || argMaxAll) {
			sure = append(sure, symbolic.LabelID(o))
		}
	}
	return lo, hi, label, sure
}

// factWitness enumerates the box lo..hi for a state (with atoms holding)
// where the policy chooses label when exactly label and sure are
// applicable: the reference for a fact's check. each, if not nil, sees
// every state's scores first.
func factWitness(t *testing.T, p symbolic.Policy, d *symbolic.PolicyDecl, lo, hi []int, atoms []symbolic.Atom, label symbolic.LabelID, sure []symbolic.LabelID, outs int, each func(s symbolic.State, sc []float64)) (symbolic.State, bool) {
	t.Helper()
	sc := make([]float64, outs)
	s := append(symbolic.State(nil), lo...)
	app := func(l symbolic.LabelID) bool {
		return (l == label || containsLabel(sure, l)) && atomsHold(atoms, s)
	}
	for {
		if err := p.Scores(s, sc); err != nil {
			t.Fatal(err)
		}
		if each != nil {
			each(s, sc)
		}
		var got symbolic.LabelID
		if d.ArgMaxAll {
			got = symbolic.ChooseAll(d.Outputs, sc, app)
		} else {
			got = symbolic.Choose(d.Outputs, sc, app)
		}
		if got == label {
			return append(symbolic.State(nil), s...), true
		}
		v := 0
		for ; v < len(lo); v++ {
			if s[v] < hi[v] {
				s[v]++
				break
			}
			s[v] = lo[v]
		}
		if v == len(lo) {
			return nil, false
		}
	}
}

func containsLabel(ls []symbolic.LabelID, l symbolic.LabelID) bool {
	for _, x := range ls {
		if x == l {
			return true
		}
	}
	return false
}

func scoresAt(p symbolic.Policy, s symbolic.State, outs int) []float64 {
	sc := make([]float64, outs)
	p.Scores(s, sc)
	return sc
}

// randomAtoms returns, half the time, a linear atom over the model's
// variables through a random state of their ranges (a fact's region
// with a relational cut).
func randomAtoms(r *rand.Rand, m *symbolic.Model) []symbolic.Atom {
	if r.IntN(2) == 0 {
		return nil
	}
	var ts []symbolic.Term
	s := make(symbolic.State, len(m.Vars))
	for v, va := range m.Vars {
		s[v] = va.Lo + r.IntN(va.Size())
		ts = append(ts, symbolic.Term{Coef: []int{1, -1, 2, -3}[r.IntN(4)], Var: symbolic.VarID(v)})
	}
	f := symbolic.NewForm(ts)
	if f == nil || !f.Fits(m) {
		return nil
	}
	return []symbolic.Atom{{Form: f, Upper: r.IntN(2) == 0, K: f.Eval(s)}}
}

func atomsHold(as []symbolic.Atom, s symbolic.State) bool {
	for _, a := range as {
		if !a.Holds(s) {
			return false
		}
	}
	return true
}
