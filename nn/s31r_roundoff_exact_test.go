package nn

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestS31rRoundoffExact: Roundoff's bound on the rounding error of
// float64 evaluation, |Eval(x)_j - f_j(x)| <= err[j], checked against the
// network in exact rational arithmetic (ReLU, LeakyReLU, Clip and linear
// layers, the NNet transforms) on the float64-edge networks of
// TestS31rProveEdges, at the corners, centre, neighbouring floats and
// random points of the box.
func TestS31rRoundoffExact(t *testing.T) {
	trials := 1500
	if testing.Short() {
		trials = 300
	}
	checked := 0
	for trial := range trials {
		r := rand.New(rand.NewPCG(uint64(trial), 3134))
		n := s31rNet(r)
		n.Out = OutNone
		curved := false
		for _, l := range n.Layers {
			curved = curved || l.Act == ActTanh || l.Act == ActSigmoid
		}
		if curved || n.validate() != nil {
			continue
		}
		box := s31rBox(r, n.Inputs())
		e, ok := n.Roundoff(box)
		if !ok {
			continue
		}
		for _, x := range s31rPoints(r, box)[:40] {
			y := n.Eval(x)
			ex := s31rExact(n, x)
			checked++
			for j := range y {
				if math.IsNaN(y[j]) || math.IsInf(y[j], 0) {
					t.Errorf("trial %d: Roundoff is finite (%v) but Eval(%v) = %v", trial, e, x, y)
					continue
				}
				d := new(big.Rat).Sub(new(big.Rat).SetFloat64(y[j]), ex[j])
				if d.Abs(d).Cmp(new(big.Rat).SetFloat64(e[j])) > 0 {
					df, _ := d.Float64()
					t.Errorf("trial %d: output %d at %v: float64 %v misses the exact value by %v > the bound %v; network %+v, box %v", trial, j, x, y[j], df, e[j], n, box)
				}
			}
		}
	}
	t.Logf("%d points checked", checked)
}

// s31rExact evaluates n at x in exact rational arithmetic (no Tanh or
// Sigmoid).
func s31rExact(n *Network, x []float64) []*big.Rat {
	v := make([]*big.Rat, len(x))
	for i, xi := range x {
		v[i] = new(big.Rat).SetFloat64(xi)
		if n.InMin != nil {
			v[i].SetFloat64(min(max(xi, n.InMin[i]), n.InMax[i]))
		}
		if n.InMean != nil {
			v[i].Sub(v[i], new(big.Rat).SetFloat64(n.InMean[i]))
			v[i].Quo(v[i], new(big.Rat).SetFloat64(n.InRange[i]))
		}
	}
	for _, l := range n.Layers {
		out := make([]*big.Rat, l.Out)
		for i := range l.Out {
			s := new(big.Rat).SetFloat64(l.B[i])
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				if w != 0 {
					s.Add(s, new(big.Rat).Mul(new(big.Rat).SetFloat64(w), v[j]))
				}
			}
			switch l.Act {
			case ActReLU:
				if s.Sign() < 0 {
					s.SetInt64(0)
				}
			case ActLeakyReLU:
				if s.Sign() < 0 {
					s.Mul(s, new(big.Rat).SetFloat64(l.Slope))
				}
			case ActClip:
				if !math.IsInf(l.Lo, 0) && s.Cmp(new(big.Rat).SetFloat64(l.Lo)) < 0 {
					s.SetFloat64(l.Lo)
				}
				if !math.IsInf(l.Hi, 0) && s.Cmp(new(big.Rat).SetFloat64(l.Hi)) > 0 {
					s.SetFloat64(l.Hi)
				}
			}
			out[i] = s
		}
		v = out
	}
	if n.OutMean != nil {
		for i := range v {
			v[i].Mul(v[i], new(big.Rat).SetFloat64(n.OutRange[i]))
			v[i].Add(v[i], new(big.Rat).SetFloat64(n.OutMean[i]))
		}
	}
	return v
}
