package ppa

// The policy's choice over SMT: per label, a term over a state vector that
// holds wherever the policy may choose the label there.
//
//   - rules and table policies: exactly (smt.Encoder.Chosen);
//   - networks: the exact encoding of ic3/cert (cert.EncodeNetwork): exact
//     scores on the rounded inputs, and the arg-max relaxed by each
//     score's float64 rounding bound, so the term over-approximates the
//     float64 choice (lang/spec.md, Policies);
//   - under `argmax all` (PlaJA without applicability filtering) a
//     learned policy chooses a label iff it is applicable and beats every
//     output, applicable or not; otherwise it beats every applicable one;
//   - ensembles (Jain et al. 2024): one indicator per leaf, the
//     conjunction of the split conditions on its path. A split "input <
//     T" of an input that reads one variable becomes an exact bound on
//     that variable (the values where the float64 input lies below T,
//     found by evaluating the input as Affine.Eval does); other splits
//     get a free Boolean that the exact affine value forces only outside
//     a rounding margin around T. Scores are exact rational sums of leaf
//     values; when the format's sums may round, the arg-max is relaxed by
//     a bound on that rounding, else ties break exactly as Choose breaks
//     them.
//
// An over-approximated choice only adds abstract transitions: safe
// verdicts stay sound, and counterexamples are replayed concretely.

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"

	"vigil/ic3/cert"
	"vigil/smt"
	"vigil/symbolic"
)

// chooser encodes one policy's choice.
type chooser struct {
	e      *smt.Encoder
	m      *symbolic.Model
	decl   *symbolic.PolicyDecl
	pol    symbolic.Policy // nn or trees; nil for rules, table and no policy
	par    symbolic.Params // pol's raw parameters
	lo, hi []int           // the variables' ranges
	// Exact reports that the encoding is the policy's float64 choice.
	exact bool
	n     int // encodings made, for fresh names
}

func newChooser(e *smt.Encoder, m *symbolic.Model, decl *symbolic.PolicyDecl, pol symbolic.Policy) (*chooser, error) {
	c := &chooser{e: e, m: m, decl: decl, pol: pol, exact: true}
	for _, v := range m.Vars {
		c.lo, c.hi = append(c.lo, v.Lo), append(c.hi, v.Hi)
	}
	if pol == nil {
		return c, nil
	}
	if l, ok := pol.(symbolic.Certifiable); ok {
		c.par = l.Params()
	}
	switch {
	case c.par.Network != nil:
		c.exact = false
	case c.par.Ensemble != nil:
		c.exact = ensembleExact(c.par)
	default:
		return nil, fmt.Errorf("ppa: a %T policy cannot be encoded in SMT", pol)
	}
	return c, nil
}

// chosen returns, per label, "the policy may choose the label in vs"
// (every applicable label when there is no policy) and constraints to
// assert alongside (definitions of auxiliary constants).
func (c *chooser) chosen(vs []smt.Term) (ch []smt.Term, side []smt.Term, err error) {
	e, x, m := c.e, c.e.X, c.m
	c.n++
	tag := fmt.Sprintf("p%d", c.n)
	app := e.Applicable(vs)
	if c.decl == nil {
		return app, nil, nil
	}
	var scores []smt.Term
	var errs []float64
	switch {
	case c.pol == nil:
		ch, err := e.Chosen(c.decl, vs)
		return ch, nil, err
	case c.par.Network != nil:
		ns, err := cert.EncodeNetwork(x, m, c.par, vs, c.lo, c.hi, tag)
		if err != nil {
			// The error named neither ppa nor a way out ("cert: the
			// network of policy pi has an activation other than ReLU
			// ..."): ppa needs the encoding of every network it checks.
			return nil, nil, fmt.Errorf("ppa: %s: %s; ppa needs the network's choice in SMT, which it encodes for piecewise-linear (ReLU) networks of at most %d weights: verify policy %s with --engine polic3 or bfs",
				c.decl.Pos, strings.TrimPrefix(err.Error(), "cert: "), cert.MaxWeights, c.decl.Name)
		}
		scores, errs, side = ns.Scores, ns.Err, ns.Side
	default:
		scores, errs, side, err = c.ensemble(c.par, vs, tag)
		if err != nil {
			return nil, nil, err
		}
	}
	outs := c.pol.Outputs()
	all := c.decl.ReadsAll()
	by := make([][]smt.Term, len(m.Labels))
	for i, a := range outs {
		if int(a) < 0 || int(a) >= len(m.Labels) {
			return nil, nil, fmt.Errorf("ppa: policy %s names label %d, which model %s lacks", c.decl.Name, a, m.Name)
		}
		var beats []smt.Term
		for j, b := range outs {
			if j == i {
				continue
			}
			var win smt.Term
			if errs[i] == 0 && errs[j] == 0 {
				// Exact: i beats j, or ties and comes first.
				if i < j {
					win = x.Ge(scores[i], scores[j])
				} else {
					win = x.Gt(scores[i], scores[j])
				}
			} else {
				// Relaxed: float64 may rank i at least as high as j.
				slack := new(big.Rat).SetFloat64(math.Nextafter(errs[i]+errs[j], math.Inf(1)))
				win = x.Le(scores[j], x.Linear(slack, []*big.Rat{big.NewRat(1, 1)}, scores[i:i+1]))
			}
			if all {
				beats = append(beats, win) // argmax all: every output is a rival
			} else {
				beats = append(beats, x.Implies(app[b], win))
			}
		}
		by[a] = append(by[a], x.And(append(beats, app[a])...))
	}
	ch = make([]smt.Term, len(m.Labels))
	for a := range ch {
		ch[a] = x.Or(by[a]...)
	}
	return ch, side, x.Err()
}

// ensemble encodes an ensemble's class scores over vs by leaf indicators.
func (c *chooser) ensemble(p symbolic.Params, vs []smt.Term, tag string) ([]smt.Term, []float64, []smt.Term, error) {
	x := c.e.X
	ens := p.Ensemble
	if len(p.Decl.Inputs) < ens.NumFeatures {
		return nil, nil, nil, fmt.Errorf("ppa: policy %s: %d inputs for an ensemble of %d features", p.Decl.Name, len(p.Decl.Inputs), ens.NumFeatures)
	}
	zero := x.Real(new(big.Rat))
	var side []smt.Term
	splits := map[[2]uint64]smt.Term{}
	split := func(f int, t float64) smt.Term {
		key := [2]uint64{uint64(f), math.Float64bits(t)}
		if s, ok := splits[key]; ok {
			return s
		}
		s := c.split(&p.Decl.Inputs[f], t, vs, fmt.Sprintf("%s.s%d", tag, len(splits)), &side)
		splits[key] = s
		return s
	}
	sums := make([][]smt.Term, ens.NumClasses)
	for k, b := range ens.Base {
		sums[k] = append(sums[k], x.RealFloat(b))
	}
	for ti := range ens.Trees {
		t := &ens.Trees[ti]
		var walk func(n int, path []smt.Term)
		walk = func(n int, path []smt.Term) {
			nd := &t.Nodes[n]
			if nd.Feature < 0 {
				in := x.And(path...)
				if t.Class >= 0 {
					sums[t.Class] = append(sums[t.Class], x.Ite(in, x.RealFloat(t.Values[nd.Leaf]), zero))
					return
				}
				for k := 0; k < ens.NumClasses; k++ {
					v := t.Values[nd.Leaf*ens.NumClasses+k]
					if v != 0 {
						sums[k] = append(sums[k], x.Ite(in, x.RealFloat(v), zero))
					}
				}
				return
			}
			s := split(nd.Feature, nd.Threshold)
			k := len(path)
			walk(nd.Left, append(path[:k:k], s))
			walk(nd.Right, append(path[:k:k], x.Not(s)))
		}
		walk(0, nil)
	}
	scores := make([]smt.Term, ens.NumClasses)
	for k := range scores {
		scores[k] = x.Add(sums[k]...)
		if len(sums[k]) == 0 {
			scores[k] = zero
		}
	}
	tol := ensembleTol(ens)
	errs := make([]float64, ens.NumClasses)
	for k := range errs {
		errs[k] = tol
	}
	return scores, errs, side, x.Err()
}

// split returns "float64 input a < t" over vs.
func (c *chooser) split(a *symbolic.Affine, t float64, vs []smt.Term, name string, side *[]smt.Term) smt.Term {
	x, m := c.e.X, c.m
	signs := a.Signs(len(m.Vars))
	var reads []int
	for v, s := range signs {
		if s != 0 {
			reads = append(reads, v)
		}
	}
	st := make(symbolic.State, len(m.Vars))
	for v := range st {
		st[v] = m.Vars[v].Lo
	}
	switch len(reads) {
	case 0:
		if a.Eval(st) < t {
			return x.True()
		}
		return x.False()
	case 1:
		// Monotone in the one variable: the values below t form a prefix
		// (sign +1) or a suffix (sign -1) of its range.
		v := reads[0]
		lo, hi := m.Vars[v].Lo, m.Vars[v].Hi
		below := func(k int) bool { st[v] = k; return a.Eval(st) < t }
		if signs[v] > 0 {
			// largest k with below(k), or lo-1
			l, h := lo-1, hi
			for l < h {
				mid := l + (h-l+1)/2
				if below(mid) {
					l = mid
				} else {
					h = mid - 1
				}
			}
			return x.Le(vs[v], x.Int(int64(l)))
		}
		// smallest k with below(k), or hi+1
		l, h := lo, hi+1
		for l < h {
			mid := l + (h-l)/2
			if below(mid) {
				h = mid
			} else {
				l = mid + 1
			}
		}
		return x.Ge(vs[v], x.Int(int64(l)))
	}
	// Several variables: the exact value decides outside a margin that
	// covers the rounding of the input to float64 (fl is monotone and
	// fl(t) = t, so exact >= t goes right; exact < t - 2u|t| - 2^-1070
	// rounds below t and goes left).
	b := x.BoolConst(name)
	cs := make([]*big.Rat, len(a.Terms))
	ts := make([]smt.Term, len(a.Terms))
	for k, term := range a.Terms {
		cs[k], ts[k] = big.NewRat(term.Coef.Num, term.Coef.Den), x.ToReal(vs[term.Var])
	}
	k0 := new(big.Rat)
	if a.Const.Den != 0 {
		k0.SetFrac64(a.Const.Num, a.Const.Den)
	}
	exact := x.Linear(k0, cs, ts)
	tr := new(big.Rat).SetFloat64(t)
	margin := new(big.Rat).SetFloat64(2*math.Abs(t)*0x1p-53 + 0x1p-1070)
	*side = append(*side,
		x.Implies(x.Ge(exact, x.Real(tr)), x.Not(b)),
		x.Implies(x.Lt(exact, x.Real(new(big.Rat).Sub(tr, margin))), b))
	return b
}

// ensembleTol bounds the rounding error of an ensemble's score sums, as
// the trees loader does: 0 when every sum is exact (every value a multiple
// of 2^low and twice the largest sum below 2^(low+digits)).
func ensembleTol(e *symbolic.Ensemble) float64 {
	digits := 53
	if e.Float32 { // float32 sums (XGBoost)
		digits = 24
	}
	mag := 0.0
	low := math.MaxInt
	note := func(v float64) {
		if v == 0 {
			return
		}
		frac, exp := math.Frexp(math.Abs(v))
		mt := uint64(frac * (1 << 53))
		low = min(low, exp-53+bits.TrailingZeros64(mt))
	}
	for _, b := range e.Base {
		mag += math.Abs(b)
		note(b)
	}
	for ti := range e.Trees {
		mx := 0.0
		for _, v := range e.Trees[ti].Values {
			mx = max(mx, math.Abs(v))
			note(v)
		}
		mag += mx
	}
	if low == math.MaxInt || (low > -1000 && 2*mag < math.Ldexp(1, low+digits)) {
		return 0
	}
	return 8 * float64(len(e.Trees)+2) * mag * math.Ldexp(1, -digits)
}

// ensembleExact reports whether the leaf encoding is the float64 choice:
// exact sums and splits that each read one variable.
func ensembleExact(p symbolic.Params) bool {
	if ensembleTol(p.Ensemble) != 0 {
		return false
	}
	for f := 0; f < p.Ensemble.NumFeatures && f < len(p.Decl.Inputs); f++ {
		n := 0
		for _, s := range p.Decl.Inputs[f].Signs(maxVar(p.Decl.Inputs[f])) {
			if s != 0 {
				n++
			}
		}
		if n > 1 {
			return false
		}
	}
	return true
}

func maxVar(a symbolic.Affine) int {
	n := 0
	for _, t := range a.Terms {
		n = max(n, int(t.Var)+1)
	}
	return n
}
