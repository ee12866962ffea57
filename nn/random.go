package nn

// Random network policies for differential testing (the explicit engine,
// IC3 and the policy-fact checker against each other on generated models).
//
// A random policy should not be constant: its decisions must change across
// the state space, or every engine agrees for the wrong reason. So each
// hidden neuron's kink is placed inside the reachable inputs: its bias is
// chosen so that the neuron's pre-activation is zero at a random point of
// the input cube [0,1]^n (as the previous layers map it), and the output
// biases make all outputs equal at one random point, so that the arg-max
// changes around it. Weights and biases are He-scaled normal samples
// rounded to float32, as PyTorch stores them: exact encodings of the
// network (ic3/cert's fact checker) then work with 24-bit numerators, which
// Z3 handles several times faster than 53-bit ones, and exact ties between
// outputs at integer states remain a measure-zero event (so the exact and
// the float64 semantics agree).

import (
	"fmt"
	"math"
	"math/rand/v2"

	"vigil/symbolic"
)

// Random returns a deterministic random ReLU network policy of model m:
// one input per model variable, the variable scaled to [0, 1] by the affine
// map (v - lo) / (hi - lo) (a constant 0 for a one-value range), hidden
// ReLU layers of the given widths and one linear output per label of
// outputs, in order. The same arguments give the same policy on every
// platform. The declaration (kind nn, no file) describes the policy, so
// that engines that need one (explicit.PolicyDecider takes the *Policy)
// can use it.
func Random(m *symbolic.Model, outputs []symbolic.LabelID, seed uint64, hidden []int) (*Policy, *symbolic.PolicyDecl, error) {
	return RandomWith(m, outputs, seed, hidden, ActReLU)
}

// RandomWith is Random with the hidden layers' activation act (ReLU,
// Tanh, Sigmoid or LeakyReLU with slope 0.01).
func RandomWith(m *symbolic.Model, outputs []symbolic.LabelID, seed uint64, hidden []int, act Activation) (*Policy, *symbolic.PolicyDecl, error) {
	if len(m.Vars) == 0 {
		return nil, nil, fmt.Errorf("nn: random policy: model %s has no variables to read", m.Name)
	}
	if len(outputs) == 0 {
		return nil, nil, fmt.Errorf("nn: random policy: no output labels given")
	}
	for _, w := range hidden {
		if w <= 0 {
			return nil, nil, fmt.Errorf("nn: random policy: hidden layer width %d; widths must be positive", w)
		}
	}
	d := &symbolic.PolicyDecl{
		Name:    fmt.Sprintf("random_nn_%d", seed),
		Kind:    symbolic.KindNN,
		Outputs: append([]symbolic.LabelID(nil), outputs...),
	}
	for v, va := range m.Vars {
		a := symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1}}
		if w := int64(va.Hi - va.Lo); w > 0 {
			a.Const = symbolic.Rat{Num: -int64(va.Lo), Den: w}
			a.Terms = []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: w}, Var: symbolic.VarID(v)}}
		}
		d.Inputs = append(d.Inputs, a)
	}
	r := rand.New(rand.NewPCG(seed, 0x6e6e72616e64)) // "nnrand"
	net := &Network{}
	in := len(m.Vars)
	point := func() []float64 {
		c := make([]float64, len(m.Vars))
		for i := range c {
			c[i] = r.Float64()
		}
		return c
	}
	widths := append(append([]int(nil), hidden...), len(outputs))
	for k, out := range widths {
		last := k == len(widths)-1
		l := Layer{In: in, Out: out, W: make([]float64, in*out), B: make([]float64, out), Act: actIf(!last, act)}
		if l.Act == ActLeakyReLU {
			l.Slope = 0.01
		}
		scale := math.Sqrt(2 / float64(in))
		for i := range l.W {
			l.W[i] = float64(float32(r.NormFloat64() * scale))
		}
		var c []float64 // the last layer: one point for all outputs
		if last {
			c = net.hiddenAt(point())
		}
		for i := 0; i < out; i++ {
			h := c
			if !last {
				h = net.hiddenAt(point())
			}
			s := 0.0
			for j, x := range h {
				s += l.W[i*in+j] * x
			}
			if last {
				s -= 0.01 * r.NormFloat64()
			}
			l.B[i] = float64(float32(-s))
		}
		net.Layers = append(net.Layers, l)
		in = out
	}
	if err := net.validate(); err != nil {
		return nil, nil, fmt.Errorf("nn: random policy: %w", err)
	}
	p, err := NewPolicyFromNetwork(m, d, net)
	if err != nil {
		return nil, nil, err
	}
	return p, d, nil
}

// hiddenAt evaluates the layers built so far at the network input x (the
// input itself when there are none).
func (n *Network) hiddenAt(x []float64) []float64 {
	cur := x
	for i := range n.Layers {
		l := &n.Layers[i]
		next := make([]float64, l.Out)
		affine(l, cur, next)
		cur = next
	}
	return cur
}
