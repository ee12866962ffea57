package cert

// An exported entry to the network encoding that networkQuery builds, for
// engines that ask their own questions about a network policy over SMT
// (ppa's abstract transitions and concrete path queries). The encoding is
// networkQuery's: the affine inputs with their rational coefficients, each
// widened by its rounding to float64, NNet clipping and normalisation,
// every dense layer with its float64 weights as exact dyadic rationals,
// ReLU as ite, the output de-normalisation; each score comes with the
// bound enclose computes on how far float64 evaluation may be from it.

import (
	"fmt"
	"math"
	"math/big"

	"vigil/smt"
	"vigil/symbolic"
)

// NetworkScores is a network policy's scores encoded over one state.
type NetworkScores struct {
	// Scores are real terms, one per output: the exact network on the
	// state's inputs, each input within its float64 rounding of the
	// exact affine value.
	Scores []smt.Term
	// Err bounds, per output, |float64 score - exact score| on every
	// state of the box the encoding was made for.
	Err []float64
	// Side are constraints on the rounding variables the encoding
	// introduces; assert them (they hold for some rounding at every
	// state).
	Side []smt.Term
}

// EncodeNetwork encodes the scores of the network policy whose raw
// parameters are p (symbolic.Certifiable.Params) over the integer
// state terms state (one per model variable) in x. The rounding error
// bounds hold on the box lo..hi (pass the variables' ranges for a bound
// valid everywhere); tag makes the rounding variables' names unique per
// state vector. It fails for networks beyond MaxWeights, malformed
// normalisations, and networks whose float64 evaluation might overflow on
// the box.
func EncodeNetwork(x *smt.Context, m *symbolic.Model, p symbolic.Params, state []smt.Term, lo, hi []int, tag string) (*NetworkScores, error) {
	net := p.Network
	if net == nil || p.Decl == nil {
		return nil, errorf("EncodeNetwork needs a network policy's parameters")
	}
	weights := 0
	for _, l := range net.Layers {
		weights += len(l.W)
	}
	if weights > MaxWeights {
		return nil, errorf("the network of policy %s has %d weights, more than the %d that are encoded exactly", p.Decl.Name, weights, MaxWeights)
	}
	if len(p.Decl.Inputs) != net.Inputs() {
		return nil, errorf("policy %s: %d inputs for a network of %d", p.Decl.Name, len(p.Decl.Inputs), net.Inputs())
	}
	if (net.InMin == nil) != (net.InMax == nil) || (net.InMean == nil) != (net.InRange == nil) || (net.OutMean == nil) != (net.OutRange == nil) {
		return nil, errorf("policy %s: the network's normalisation lacks a minimum, maximum, mean or range", p.Decl.Name)
	}
	ev, err := newExactNet(m, p)
	if err != nil {
		return nil, err
	}
	if !ev.pwl {
		return nil, errorf("the network of policy %s has an activation other than ReLU (Tanh, Sigmoid, LeakyReLU) or a final Softmax, which has no exact SMT encoding", p.Decl.Name)
	}
	xl, xh := ev.inputBounds(lo, hi)
	en := ev.enclose(net, xl, xh, nil)
	if !en.finite {
		return nil, errorf("float64 evaluation of policy %s might overflow on the states of the model; its scores cannot be encoded with a rounding bound", p.Decl.Name)
	}
	return encodeScores(x, m, p, state, en.err, tag)
}

// encodeScores encodes the exact scores of network policy p over the
// integer state terms state, each affine input within its float64
// rounding (the rounding variables are named with tag), with err the
// per-output bounds on float64 evaluation's distance from them. Both
// EncodeNetwork and the fact checker's whole-box query (networkQuery)
// use it; the caller has checked the network's shape and computed err.
func encodeScores(x *smt.Context, m *symbolic.Model, p symbolic.Params, state []smt.Term, err []float64, tag string) (*NetworkScores, error) {
	net := p.Network
	out := &NetworkScores{Err: err}
	zero := x.Real(new(big.Rat))
	uRat := new(big.Rat).SetFloat64(unitRound)
	tiny := new(big.Rat).SetFloat64(tinyErr)
	cur := make([]smt.Term, net.Inputs())
	for i, a := range p.Decl.Inputs {
		cs := make([]*big.Rat, len(a.Terms))
		ts := make([]smt.Term, len(a.Terms))
		for k, t := range a.Terms {
			if t.Var < 0 || int(t.Var) >= len(state) {
				return nil, errorf("policy %s: input %d reads variable %d, which model %s lacks", p.Decl.Name, i+1, t.Var, m.Name)
			}
			cs[k], ts[k] = ratOf(t.Coef), x.ToReal(state[t.Var])
		}
		exact := x.Linear(ratOf(a.Const), cs, ts)
		d := x.RealConst(fmt.Sprintf("%s.round_%d", tag, i))
		abs := x.Ite(x.Ge(exact, zero), exact, x.Neg(exact))
		bound := x.Linear(tiny, []*big.Rat{uRat}, []smt.Term{abs})
		out.Side = append(out.Side, x.Le(d, bound), x.Ge(d, x.Neg(bound)))
		cur[i] = x.Add(exact, d)
	}
	for i := range cur {
		if net.InMin != nil {
			if !math.IsInf(net.InMin[i], -1) {
				l := x.RealFloat(net.InMin[i])
				cur[i] = x.Ite(x.Lt(cur[i], l), l, cur[i])
			}
			if !math.IsInf(net.InMax[i], 1) {
				h := x.RealFloat(net.InMax[i])
				cur[i] = x.Ite(x.Gt(cur[i], h), h, cur[i])
			}
		}
		if net.InMean != nil {
			inv := new(big.Rat).Inv(floatRat(net.InRange[i]))
			k := new(big.Rat).Mul(floatRat(net.InMean[i]), inv)
			cur[i] = x.Linear(k.Neg(k), []*big.Rat{inv}, cur[i:i+1])
		}
	}
	for li, l := range net.Layers {
		next := make([]smt.Term, l.Out)
		cs := make([]*big.Rat, l.In)
		for i := 0; i < l.Out; i++ {
			for j := range cs {
				cs[j] = floatRat(l.W[i*l.In+j])
			}
			s := x.Linear(floatRat(l.B[i]), cs, cur)
			if l.Act == symbolic.ActReLU {
				// A named neuron keeps the term a DAG of linear size.
				n := x.RealConst(fmt.Sprintf("%s.n%d_%d", tag, li, i))
				out.Side = append(out.Side, x.Eq(n, x.Ite(x.Gt(s, zero), s, zero)))
				s = n
			}
			next[i] = s
		}
		cur = next
	}
	if net.OutMean != nil {
		for i := range cur {
			cur[i] = x.Linear(floatRat(net.OutMean[i]), []*big.Rat{floatRat(net.OutRange[i])}, cur[i:i+1])
		}
	}
	out.Scores = cur
	if err := x.Err(); err != nil {
		return nil, errorf("encoding policy %s: %w", p.Decl.Name, err)
	}
	return out, nil
}
