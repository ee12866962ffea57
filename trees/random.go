package trees

// Random ensemble policies for differential testing (the explicit engine,
// IC3 and the policy-fact checker against each other on generated models).
//
// Each input is an affine image c·v + k of one model variable, with c in
// {1, -1, 2, 1/2, -1/2} and a small integer k, so that increasing and
// decreasing inputs both occur and every input value is exact in float64.
// A split's threshold is the image of a half-integer v + 1/2 inside the
// range of the variable that the path to the node leaves open: no integer
// state ever lies on a threshold, scores are piecewise constant on integer
// states, and no branch is empty. Leaf values and base scores are normal
// samples at full float64 precision, so the arg-max changes from cell to
// cell and exact ties between classes do not occur.

import (
	"fmt"
	"math/rand/v2"

	"vigil/symbolic"
)

// Random returns a deterministic random multi-class ensemble policy of
// model m: one input per model variable (see above), trees trees of depth
// at most depth, and one class per label of outputs, in order. Trees are
// either one-class trees (tree i scores class i mod len(outputs), as
// XGBoost lays them out) or, for some seeds, trees whose leaves hold a
// value per class. The same arguments give the same policy on every
// platform. The declaration (kind trees, no file) describes the policy, so
// that engines that need one (explicit.PolicyDecider takes the *Policy)
// can use it.
func Random(m *symbolic.Model, outputs []symbolic.LabelID, seed uint64, trees, depth int) (*Policy, *symbolic.PolicyDecl, error) {
	switch {
	case len(m.Vars) == 0:
		return nil, nil, fmt.Errorf("trees: random policy: model %s has no variables to read", m.Name)
	case len(outputs) == 0:
		return nil, nil, fmt.Errorf("trees: random policy: no output labels given")
	case trees < 1 || depth < 0 || depth > 30:
		return nil, nil, fmt.Errorf("trees: random policy: %d trees of depth %d; want at least one tree and a depth of 0..30", trees, depth)
	}
	for _, l := range outputs {
		if l < 0 || int(l) >= len(m.Labels) {
			return nil, nil, fmt.Errorf("trees: random policy: output label %d does not exist in model %s", l, m.Name)
		}
	}
	r := rand.New(rand.NewPCG(seed, 0x7472656573)) // "trees"
	d := &symbolic.PolicyDecl{
		Name:    fmt.Sprintf("random_trees_%d", seed),
		Kind:    symbolic.KindTrees,
		Outputs: append([]symbolic.LabelID(nil), outputs...),
	}
	coefs := []symbolic.Rat{{Num: 1, Den: 1}, {Num: -1, Den: 1}, {Num: 2, Den: 1}, {Num: 1, Den: 2}, {Num: -1, Den: 2}}
	for v := range m.Vars {
		d.Inputs = append(d.Inputs, symbolic.Affine{
			Const: symbolic.Rat{Num: int64(r.IntN(7) - 3), Den: 1},
			Terms: []symbolic.AffineTerm{{Coef: coefs[r.IntN(len(coefs))], Var: symbolic.VarID(v)}},
		})
	}
	nclass := len(outputs)
	b := newBuilder("random", nclass)
	b.e.NumFeatures, b.e.Declared = len(m.Vars), true
	for c := range b.e.Base {
		b.e.Base[c] = 0.1 * r.NormFloat64()
	}
	vector := nclass > 1 && r.IntN(3) == 0
	for ti := 0; ti < trees; ti++ {
		t := Tree{Class: ti % nclass}
		width := 1
		if vector {
			t.Class, width = -1, nclass
		}
		lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
		for v := range m.Vars {
			lo[v], hi[v] = m.Vars[v].Lo, m.Vars[v].Hi
		}
		var grow func(level int) int
		grow = func(level int) int {
			i := len(t.Nodes)
			t.Nodes = append(t.Nodes, Node{Feature: -1})
			var open []int
			for v := range lo {
				if lo[v] < hi[v] {
					open = append(open, v)
				}
			}
			if level == depth || len(open) == 0 {
				t.Nodes[i].Leaf = len(t.Values) / width
				for k := 0; k < width; k++ {
					t.Values = append(t.Values, r.NormFloat64())
				}
				return i
			}
			v := open[r.IntN(len(open))]
			k := lo[v] + r.IntN(hi[v]-lo[v]) // split between k and k+1
			in := &d.Inputs[v]
			// x < c·(k+1/2) + const: the states v <= k when c > 0, v > k when c < 0.
			c := in.Terms[0].Coef
			thr := in.Const.Float() + c.Float()*(float64(k)+0.5)
			below := func() { // the states on the left
				if c.Num > 0 {
					hi[v] = k
				} else {
					lo[v] = k + 1
				}
			}
			above := func() {
				if c.Num > 0 {
					lo[v] = k + 1
				} else {
					hi[v] = k
				}
			}
			l0, h0 := lo[v], hi[v]
			below()
			left := grow(level + 1)
			lo[v], hi[v] = l0, h0
			above()
			right := grow(level + 1)
			lo[v], hi[v] = l0, h0
			t.Nodes[i] = Node{Feature: v, Threshold: thr, Left: left, Right: right}
			return i
		}
		grow(0)
		b.e.Trees = append(b.e.Trees, t)
	}
	e, err := b.finish()
	if err != nil {
		return nil, nil, fmt.Errorf("trees: random policy: %w", err)
	}
	p := &Policy{Decl: d, Ens: e, vars: m.Vars,
		x: make([]float64, len(d.Inputs)), scores: make([]float64, nclass)}
	p.varEns, p.whyInput = p.lift()
	return p, d, nil
}
