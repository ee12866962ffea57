package cert

// Policy facts: the exclusions that a PolIC3 invariant for a learned policy
// rests on ("in this box the policy never chooses a, given the labels of
// Sure are applicable"), re-checked by methods that share nothing with the
// certifiers that found them (nn's bound propagation and input splitting,
// trees' Veritas-style search).
//
// The semantics is symbolic.Choose's: the policy chooses Label in state s
// iff Label is an output whose score is not -Inf or NaN and it beats every
// applicable output (a higher score, or an equal one earlier in the output
// order). Only Sure is known to be applicable, so the fact holds iff in
// every state of the box some output a' of Sure, a' != Label, has
// score(a') > score(Label), or an equal score and an earlier position.
// Under `argmax all` (symbolic.PolicyDecl.ArgMaxAll) every output is a
// rival, applicable or not.
//
// The semantics is float64 evaluation (lang/spec.md, Policies): the
// policy's inputs are the exact affine values rounded to the nearest
// float64, the network is evaluated layer by layer with every product and
// sum rounded (nn.Evaluator, the code bfs and vigil run use: it defines
// the semantics and is not a certifier), and the arg-max compares those
// scores. A fact is proved here in three ways, none of which uses nn's
// bounds or branch and bound:
//   - interval branch and bound (intervals.go): outward-rounded intervals
//     of the exact network on the box's float64 inputs, widened by a
//     forward error bound of float64 evaluation of its own (enclose);
//   - a box of at most ExactStates states, and every small box the
//     interval search leaves open, is decided state by state by float64
//     evaluation, the semantics itself (so near-ties and infinities are
//     decided exactly as the policy runs);
//   - a larger box goes to one SMT query over the reals: the network's
//     exact encoding (the declaration's affine inputs with their rational
//     coefficients, each widened by its rounding to float64, NNet clipping
//     and normalisation, every dense layer with its float64 weights as the
//     dyadic rationals they are, ReLU, the output de-normalisation; nn's
//     loaders reduce ONNX Gemm, MatMul, Add, Sub, Relu and Flatten to
//     these) and "Label wins" relaxed by the rounding error bound of each
//     score, so unsat proves the fact for float64 evaluation. Where that
//     bound does not exist (evaluation might overflow to an infinity on
//     the box) only enumeration decides.
// Networks with Tanh, Sigmoid, LeakyReLU or a final Softmax have no exact
// encoding: their facts are proved by the interval search (Softmax
// networks get no intervals) and, where it fails, by enumerating the
// box's states, up to MaxCells.
// Z3 proves such facts only for small networks (for the 32x32 network of
// specs/oneway.spec it does not finish within a minute on a box of 5,000
// states, which enumeration settles in a fraction of a second): give
// CheckFact a deadline. A counterexample is reported with its float64
// scores and its exact ones; Z3's counterexample fails the check even
// when float64 evaluation does not confirm it (the relaxed query then
// cannot prove the fact, and the certificate claimed the whole box).
// TestCheckFactNearTie shows both directions.
//
// Ensembles are checked by enumeration: for each tree, the regions of the
// state box that reach each leaf (each split "input < T" is turned into a
// set of values of the one variable the input reads, by evaluating the
// input exactly as Affine.Eval does), then every combination of regions
// across the trees whose intersection is not empty, depth first, summing
// the leaf values in tree order, rounded as the format sums (addScore:
// float32 sums for XGBoost, float64 for the others) as trees' evaluation
// does, so each cell's scores are bit-identical to evaluation. XGBoost's float32
// comparisons are already normalised into float64 thresholds by the
// loader (the meaning evaluation uses too).
//
// A fact over a region with linear atoms (a relational lemma's cell,
// Fact.Atoms) counts only the states of its box that satisfy the atoms:
// enumeration and exact evaluation skip the others, the SMT query asserts
// the atoms over the integers, the interval search drops sub-boxes whose
// real relaxation misses them (simplex.go) and bounds the first layer's
// sums over that relaxation (preBounds), and the leaf search of an
// ensemble skips leaf regions that an atom excludes (region.go). A
// counterexample always satisfies the atoms.
//
// The checker reads the network's and the ensemble's raw parameters
// (symbolic.Params: layers, weights, normalisation; trees, thresholds,
// leaves, base scores, float32 sums) through symbolic.Certifiable and
// never imports nn or trees: their certifiers stay out of its reach. When a split reads an input of several
// variables, the split is a linear atom over the state (oblique.go) and
// the leaf regions are boxes with atoms.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sort"
	"strings"

	"vigil/smt"
	"vigil/symbolic"
)

// Fact says: in every state of the box Lo..Hi (inclusive, per model
// variable) that satisfies every atom of Atoms (its region; none: the
// whole box) the policy never chooses Label, given every label of Sure is
// applicable throughout the region.
type Fact struct {
	Lo, Hi []int
	Atoms  []symbolic.Atom
	Label  symbolic.LabelID
	Sure   []symbolic.LabelID
	// Differ, when not empty, are the pairs of variables that differ in
	// every state the fact claims (a "differ" fact of a certificate with
	// disequalities): only those states count, and they are enumerated
	// (differ.go).
	Differ [][2]symbolic.VarID
}

// MaxCells bounds the work of the enumerations: the tree-leaf combinations
// visited, or the states of a box that is enumerated state by state.
const MaxCells = 1_000_000

// cellLimit is MaxCells, lowered by tests.
var cellLimit = MaxCells

// MaxWeights bounds the size of a network that CheckFact encodes.
const MaxWeights = 1 << 20

// maxScan bounds the values of a variable scanned for one split of an
// input that is not monotone in its variable.
const maxScan = 1 << 16

// FactFailure is the error of CheckFact when the fact does not hold: a
// state of the box where the policy may choose Label although every label
// of Sure is applicable.
type FactFailure struct {
	State symbolic.State
	Label symbolic.LabelID
	// Scores are the policy's float64 scores at State (output order);
	// Exact are the scores of the exact encoding (networks only).
	Scores []float64
	Exact  []*big.Rat
	// Confirmed reports that float64 evaluation chooses Label at State too
	// (given Sure); false only for a counterexample of the SMT query over a
	// network, which is relaxed by the rounding error bounds.
	Confirmed bool
	msg       string
}

func (f *FactFailure) Error() string { return "cert: " + f.msg }

// CheckFact re-checks f for a learned policy (a symbolic.Certifiable
// whose Params hold a network or an ensemble) by a method that shares
// nothing with their certifiers; it returns nil when the fact holds, a
// *FactFailure naming a counterexample state otherwise, and an error
// saying why when it cannot decide (too large, interrupted, an
// unsupported input map). The box is intersected with the variables'
// ranges first (states lie in them). Other policies are re-checked by
// enumerating the box when it has at most MaxCells states. CheckFact
// evaluates p, so p must not be in use by another goroutine.
func CheckFact(ctx context.Context, m *symbolic.Model, p symbolic.Policy, f Fact) error {
	return NewFactChecker(m, p).Check(ctx, f)
}

// FactChecker re-checks facts of one policy as CheckFact does, building
// the network's exact encoding once for all of them (a certificate has
// hundreds to thousands of facts; rebuilding it took a fifth of vigil
// cert check's time).
type FactChecker struct {
	m   *symbolic.Model
	p   symbolic.Policy
	par symbolic.Params // p's raw parameters (none unless p is Certifiable)
	ev  *exactNet       // built by the first network fact
}

// NewFactChecker returns a checker of p's facts on m. A network's or an
// ensemble's facts are checked on its raw parameters
// (symbolic.Certifiable.Params), never by its certifier; p's Scores is
// float64 evaluation, the semantics.
func NewFactChecker(m *symbolic.Model, p symbolic.Policy) *FactChecker {
	fc := &FactChecker{m: m, p: p}
	if c, ok := p.(symbolic.Certifiable); ok {
		fc.par = c.Params()
	}
	return fc
}

// Check is CheckFact(ctx, m, p, f) for the checker's m and p.
func (fc *FactChecker) Check(ctx context.Context, f Fact) error {
	m, p := fc.m, fc.p
	if err := ctx.Err(); err != nil {
		return errorf("policy fact not re-checked: %w", err)
	}
	if len(f.Lo) != len(m.Vars) || len(f.Hi) != len(m.Vars) {
		return errorf("policy fact: the box has %d/%d bounds for the %d variables of model %s", len(f.Lo), len(f.Hi), len(m.Vars), m.Name)
	}
	if f.Label < 0 || int(f.Label) >= len(m.Labels) {
		return errorf("policy fact: label %d does not exist in model %s", f.Label, m.Name)
	}
	for _, l := range f.Sure {
		if l < 0 || int(l) >= len(m.Labels) {
			return errorf("policy fact: sure label %d does not exist in model %s", l, m.Name)
		}
	}
	for _, a := range f.Atoms {
		if a.Form == nil || !a.Form.Fits(m) {
			return errorf("policy fact: the atom %s cannot be evaluated exactly over model %s's ranges", atomString(m, a), m.Name)
		}
	}
	lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
	for v, va := range m.Vars {
		lo[v], hi[v] = max(f.Lo[v], va.Lo), min(f.Hi[v], va.Hi)
		if lo[v] > hi[v] {
			return nil // no state in the box
		}
	}
	q := newQuestion(m, p, f)
	if len(q.label) == 0 {
		return nil // not an output: never chosen
	}
	atoms, empty := cutAtoms(lo, hi, f.Atoms)
	if empty {
		return nil // no state of the box satisfies the atoms
	}
	if len(atoms) > 0 {
		if _, ok := newPolytope(lo, hi, atoms); !ok {
			return nil // not even a real point of the box does
		}
	}
	q.atoms = atoms
	if len(f.Differ) == 0 {
		q.project(lo, hi)
	}
	switch {
	case len(f.Differ) > 0:
		return q.enumerateDiffer(ctx, lo, hi)
	case fc.par.Network != nil:
		return q.network(ctx, fc.par, lo, hi, &fc.ev)
	case fc.par.Ensemble != nil:
		return q.ensemble(ctx, fc.par, lo, hi)
	}
	return q.enumerate(ctx, lo, hi, fmt.Sprintf("%T policies have no exact encoding", p))
}

// project narrows lo..hi, in place, to its least value on every variable
// that neither the policy's inputs nor the region's atoms read: the
// policy's scores and the region's membership are the same for every
// value of such a variable, so the fact holds on the box when it holds
// on that slice, and a state of the slice where it fails lies in the
// region. (A split part of PolIC3, split.go, spans such a variable whole:
// a counter of 0..5000 beside a network's one input made the part
// 41 million states, beyond enumeration, though 8,192 inputs decide it.)
// Only for learned policies (nn, trees), whose scores are functions of
// their declared inputs; not within disequalities, which read every
// variable.
func (q *question) project(lo, hi []int) {
	c, ok := q.p.(symbolic.Certifiable)
	if !ok {
		return
	}
	d := c.Params().Decl
	if d == nil || len(d.Inputs) == 0 {
		return
	}
	read := make([]bool, len(lo))
	mark := func(v symbolic.VarID) bool {
		if int(v) < 0 || int(v) >= len(read) {
			return false
		}
		read[v] = true
		return true
	}
	for _, in := range d.Inputs {
		for _, t := range in.Terms {
			if t.Coef.Num != 0 && !mark(t.Var) {
				return
			}
		}
	}
	for _, a := range q.atoms {
		for _, t := range a.Form.Terms() {
			if !mark(t.Var) {
				return
			}
		}
	}
	for v := range hi {
		if !read[v] {
			hi[v] = lo[v]
		}
	}
}

// question is a fact in output indices.
type question struct {
	m     *symbolic.Model
	p     symbolic.Policy
	f     Fact
	label []int // the outputs that are Label (normally one)
	sure  []int // the outputs in Sure, other than Label
	// atoms are the region's atoms that the box does not imply (Check):
	// only states that satisfy them count.
	atoms []symbolic.Atom
}

// inRegion reports whether s satisfies the question's atoms.
func (q *question) inRegion(s symbolic.State) bool {
	for _, a := range q.atoms {
		if !a.Holds(s) {
			return false
		}
	}
	return true
}

func newQuestion(m *symbolic.Model, p symbolic.Policy, f Fact) *question {
	q := &question{m: m, p: p, f: f}
	all := false // argmax all (the declaration's reading): every output is a rival
	if c, ok := p.(symbolic.Certifiable); ok {
		all = c.Params().Decl.ReadsAll()
	}
	for i, o := range p.Outputs() {
		switch {
		case o == f.Label:
			q.label = append(q.label, i)
		case all || hasLabel(f.Sure, o):
			q.sure = append(q.sure, i)
		}
	}
	return q
}

func hasLabel(ls []symbolic.LabelID, l symbolic.LabelID) bool {
	for _, k := range ls {
		if k == l {
			return true
		}
	}
	return false
}

// qualifies reports whether a score can be chosen at all.
func qualifies(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, -1) }

// chosen reports whether the policy may choose Label with scores sc: some
// output i of Label qualifies and no sure output j beats it (j beats i
// when it qualifies and scores higher, or equally high and comes first).
func (q *question) chosen(sc []float64) bool {
	for _, i := range q.label {
		if !qualifies(sc[i]) {
			continue
		}
		beaten := false
		for _, j := range q.sure {
			if qualifies(sc[j]) && (sc[j] > sc[i] || sc[j] == sc[i] && j < i) {
				beaten = true
				break
			}
		}
		if !beaten {
			return true
		}
	}
	return false
}

// failure builds the counterexample at s; exact are the encoding's scores
// (nil when the scores came from evaluation).
func (q *question) failure(s symbolic.State, exact []*big.Rat) error {
	sc := make([]float64, len(q.p.Outputs()))
	ff := &FactFailure{State: s, Label: q.f.Label, Exact: exact}
	var b strings.Builder
	fmt.Fprintf(&b, "policy fact fails: in state %s the policy may choose %s over the surely applicable labels {%s}",
		q.m.FormatState(s), q.m.Labels[q.f.Label].Name, q.labelNames())
	if err := q.p.Scores(s, sc); err != nil {
		fmt.Fprintf(&b, " (float64 evaluation failed: %v)", err)
	} else {
		ff.Scores, ff.Confirmed = sc, q.chosen(sc)
		fmt.Fprintf(&b, "; float64 scores %s", q.scoreString(func(i int) string { return fmt.Sprint(sc[i]) }))
	}
	if exact != nil {
		fmt.Fprintf(&b, "; exact scores %s", q.scoreString(func(i int) string { return exact[i].RatString() }))
	}
	if ff.Scores != nil && !ff.Confirmed {
		b.WriteString("; float64 evaluation does not choose it there, but the fact could not be proved within the rounding error bounds, and it claims every state of the box")
	}
	ff.msg = b.String()
	return ff
}

func (q *question) labelNames() string {
	names := make([]string, len(q.f.Sure))
	for i, l := range q.f.Sure {
		names[i] = q.m.Labels[l].Name
	}
	return strings.Join(names, ", ")
}

// scoreString lists the scores of Label and the sure outputs.
func (q *question) scoreString(val func(int) string) string {
	idx := append(append([]int(nil), q.label...), q.sure...)
	sort.Ints(idx)
	parts := make([]string, len(idx))
	for k, i := range idx {
		parts[k] = q.m.Labels[q.p.Outputs()[i]].Name + "=" + val(i)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// boxSize returns the number of states of lo..hi.
func boxSize(lo, hi []int) float64 {
	n := 1.0
	for v := range lo {
		n *= float64(hi[v] - lo[v] + 1)
	}
	return n
}

// enumerate checks every state of lo..hi with the policy's own scores;
// why says why no better method applies, for the error beyond MaxCells.
func (q *question) enumerate(ctx context.Context, lo, hi []int, why string) error {
	if n := boxSize(lo, hi); n > float64(cellLimit) {
		return tooLarge("%s, and the box has %.4g states, more than the %d that are enumerated", why, n, cellLimit)
	}
	sc := make([]float64, len(q.p.Outputs()))
	return eachBoxState(ctx, lo, hi, func(s symbolic.State) error { return q.checkState(s, sc) })
}

// checkState checks one state s of the fact's box with the policy's own
// scores (sc is scratch space for them): a failure when s lies in the
// fact's region and the policy chooses the label there.
func (q *question) checkState(s symbolic.State, sc []float64) error {
	if !q.inRegion(s) {
		return nil
	}
	if err := q.p.Scores(s, sc); err != nil {
		return errorf("policy fact: %w", err)
	}
	if q.chosen(sc) {
		return q.failure(append(symbolic.State(nil), s...), nil)
	}
	return nil
}

// ratOf returns the value of a symbolic rational (0 when unset, as
// Rat.Float reads it).
func ratOf(r symbolic.Rat) *big.Rat {
	if r.Den == 0 {
		return new(big.Rat)
	}
	return big.NewRat(r.Num, r.Den)
}

// floatRat returns the rational value of a finite float64.
func floatRat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

// exactNet evaluates a network policy in exact rational arithmetic, with
// the meaning of the SMT encoding: rational input coefficients, float64
// weights as the dyadic rationals they are. Inside the layers every value
// is an integer over one common denominator D: a layer whose weights and
// biases are integers once scaled by 2^shift maps (X, D) to
// (W·X + B·D, D·2^shift) with integer arithmetic only, and ReLU is the
// sign of the numerator.
type exactNet struct {
	coef   [][]*big.Rat // per input, per variable (nil: no term)
	konst  []*big.Rat
	lo, hi []*big.Rat // clip bounds per input (nil: none)
	mean   []*big.Rat // (x - mean) * inv per input (nil: none)
	inv    []*big.Rat
	layers []exactLayer
	omul   []*big.Rat // output transform y*omul + oadd (nil: none)
	oadd   []*big.Rat
	x, y   []*big.Int // scratch numerators
	// pwl is false when the network has an activation other than ReLU
	// (Tanh, Sigmoid, LeakyReLU) or a final Softmax: it has no exact
	// rational encoding here, scores returns nil, and facts are proved
	// by interval arithmetic or by enumerating states only.
	pwl bool
}

type exactLayer struct {
	in, out int
	w, b    []*big.Int // scaled by 2^shift
	shift   uint
	relu    bool
}

// dyadic returns the odd integer m and exponent e with x = m·2^e (m = 0 for 0).
func dyadic(x float64) (*big.Int, int) {
	if x == 0 {
		return new(big.Int), 0
	}
	f, e := math.Frexp(x)
	m := int64(f * (1 << 53)) // exact: f has 53 significant bits
	e -= 53
	for m%2 == 0 {
		m /= 2
		e++
	}
	return big.NewInt(m), e
}

func newExactNet(m *symbolic.Model, p symbolic.Params) (*exactNet, error) {
	net := p.Network
	ev := &exactNet{}
	for i, a := range p.Decl.Inputs {
		row := make([]*big.Rat, len(m.Vars))
		for _, t := range a.Terms {
			if t.Var < 0 || int(t.Var) >= len(m.Vars) {
				return nil, errorf("policy %s: input %d reads variable %d, which model %s lacks", p.Decl.Name, i+1, t.Var, m.Name)
			}
			if row[t.Var] == nil {
				row[t.Var] = new(big.Rat)
			}
			row[t.Var].Add(row[t.Var], ratOf(t.Coef))
		}
		ev.coef = append(ev.coef, row)
		ev.konst = append(ev.konst, ratOf(a.Const))
		var lo, hi, mean, inv *big.Rat
		if net.InMin != nil {
			if !math.IsInf(net.InMin[i], -1) {
				lo = floatRat(net.InMin[i])
			}
			if !math.IsInf(net.InMax[i], 1) {
				hi = floatRat(net.InMax[i])
			}
		}
		if net.InMean != nil {
			mean, inv = floatRat(net.InMean[i]), new(big.Rat).Inv(floatRat(net.InRange[i]))
		}
		ev.lo, ev.hi = append(ev.lo, lo), append(ev.hi, hi)
		ev.mean, ev.inv = append(ev.mean, mean), append(ev.inv, inv)
	}
	width := net.Inputs()
	ev.pwl = net.Out == symbolic.OutNone
	for _, l := range net.Layers {
		if l.Act != symbolic.ActLinear && l.Act != symbolic.ActReLU {
			ev.pwl = false
		}
		el := exactLayer{in: l.In, out: l.Out, relu: l.Act == symbolic.ActReLU, w: make([]*big.Int, len(l.W)), b: make([]*big.Int, len(l.B))}
		exp := 0
		for k, v := range append(append([]float64(nil), l.W...), l.B...) {
			mant, e := dyadic(v)
			if k < len(l.W) {
				el.w[k] = mant
			} else {
				el.b[k-len(l.W)] = mant
			}
			if mant.Sign() != 0 {
				exp = min(exp, e)
			}
		}
		el.shift = uint(-exp)
		for k, v := range append(append([]float64(nil), l.W...), l.B...) {
			_, e := dyadic(v)
			t := el.w
			if k >= len(l.W) {
				t, k = el.b, k-len(l.W)
			}
			if t[k].Sign() != 0 {
				t[k].Lsh(t[k], uint(e-exp))
			}
		}
		ev.layers = append(ev.layers, el)
		width = max(width, l.Out)
	}
	if net.OutMean != nil {
		for i := range net.OutMean {
			ev.omul = append(ev.omul, floatRat(net.OutRange[i]))
			ev.oadd = append(ev.oadd, floatRat(net.OutMean[i]))
		}
	}
	ev.x, ev.y = make([]*big.Int, width), make([]*big.Int, width)
	for i := range ev.x {
		ev.x[i], ev.y[i] = new(big.Int), new(big.Int)
	}
	return ev, nil
}

// clipNormalise applies input i's clipping and normalisation to x, in
// place.
func (ev *exactNet) clipNormalise(i int, x *big.Rat) {
	if ev.lo[i] != nil && x.Cmp(ev.lo[i]) < 0 {
		x.Set(ev.lo[i])
	}
	if ev.hi[i] != nil && x.Cmp(ev.hi[i]) > 0 {
		x.Set(ev.hi[i])
	}
	if ev.mean[i] != nil {
		x.Mul(x.Sub(x, ev.mean[i]), ev.inv[i])
	}
}

// scores returns the exact outputs at state s (nil for a network
// without an exact encoding).
func (ev *exactNet) scores(s symbolic.State) []*big.Rat {
	if !ev.pwl {
		return nil
	}
	// Inputs as rationals, then over their common denominator d.
	in := make([]*big.Rat, len(ev.konst))
	d := big.NewInt(1)
	t := new(big.Rat)
	for i, row := range ev.coef {
		x := new(big.Rat).Set(ev.konst[i])
		for v, c := range row {
			if c != nil {
				x.Add(x, t.Mul(c, t.SetInt64(int64(s[v]))))
			}
		}
		ev.clipNormalise(i, x)
		in[i] = x
		g := new(big.Int).GCD(nil, nil, d, x.Denom())
		d.Mul(d, new(big.Int).Quo(x.Denom(), g))
	}
	cur := ev.x[:len(in)]
	for i, x := range in {
		cur[i].Mul(x.Num(), new(big.Int).Quo(d, x.Denom()))
	}
	next := ev.y
	p := new(big.Int)
	for _, l := range ev.layers {
		out := next[:l.out]
		for i := 0; i < l.out; i++ {
			acc := out[i].Mul(l.b[i], d)
			for j, w := range l.w[i*l.in : (i+1)*l.in] {
				if w.Sign() != 0 && cur[j].Sign() != 0 {
					acc.Add(acc, p.Mul(w, cur[j]))
				}
			}
			if l.relu && acc.Sign() < 0 {
				acc.SetInt64(0)
			}
		}
		d = new(big.Int).Lsh(d, l.shift)
		cur, next = out, cur[:cap(cur)]
	}
	ys := make([]*big.Rat, len(cur))
	for i, y := range cur {
		ys[i] = new(big.Rat).SetFrac(y, d)
		if ev.omul != nil {
			ys[i].Add(ys[i].Mul(ys[i], ev.omul[i]), ev.oadd[i])
		}
	}
	return ys
}

// network decides the fact for a network policy with SMT queries over
// its exact encoding.
func (q *question) network(ctx context.Context, p symbolic.Params, lo, hi []int, cached **exactNet) error {
	net := p.Network
	weights := 0
	for _, l := range net.Layers {
		weights += len(l.W)
	}
	if weights > MaxWeights {
		return tooLarge("the network has %d weights, more than the %d that are encoded exactly", weights, MaxWeights)
	}
	if len(p.Decl.Inputs) != net.Inputs() {
		return errorf("policy %s: %d inputs for a network of %d", p.Decl.Name, len(p.Decl.Inputs), net.Inputs())
	}
	in, out := net.Inputs(), net.Outputs()
	for _, v := range []struct {
		name string
		vals []float64
		n    int
		inf  float64 // the infinity allowed (an absent clip bound), 0: none
	}{{"input minimum", net.InMin, in, math.Inf(-1)}, {"input maximum", net.InMax, in, math.Inf(1)},
		{"input mean", net.InMean, in, 0}, {"input range", net.InRange, in, 0},
		{"output mean", net.OutMean, out, 0}, {"output range", net.OutRange, out, 0}} {
		if v.vals != nil && len(v.vals) != v.n {
			return errorf("policy %s: %d values for the network's %s, want %d", p.Decl.Name, len(v.vals), v.name, v.n)
		}
		for _, y := range v.vals {
			if math.IsNaN(y) || math.IsInf(y, 0) && y != v.inf {
				return errorf("cannot re-check the policy fact: the network's %s %v is not a real number", v.name, y)
			}
		}
	}
	if (net.InMin == nil) != (net.InMax == nil) || (net.InMean == nil) != (net.InRange == nil) || (net.OutMean == nil) != (net.OutRange == nil) {
		return errorf("policy %s: the network's normalisation lacks a minimum, maximum, mean or range", p.Decl.Name)
	}
	ev := *cached
	if ev == nil {
		var err error
		if ev, err = newExactNet(q.m, p); err != nil {
			return err
		}
		*cached = ev
	}
	// Interval branch and bound first (intervals.go): cheap, and it
	// settles most facts whose label loses by a margin. What it leaves
	// open, a box small enough is decided state by state, by exact
	// evaluation. In a larger box, witnesses are cheap to confirm and
	// expensive to find: states where float64 evaluation chooses Label
	// are confirmed by exact evaluation first, and when none is (a
	// near-tie proves nothing), one SMT query over the whole box decides.
	// A box of at most intervalExact states is evaluated at once: the
	// interval proof would evaluate it whenever its first bound fails, and
	// the bound costs more than the few evaluations (PolIC3's certificates
	// of small models have mostly such facts).
	if useIntervals && boxSize(lo, hi) <= intervalExact {
		return q.evaluate(ctx, ev, lo, hi)
	}
	if useIntervals {
		if done, err := q.intervalProof(ctx, net, ev, lo, hi); done || err != nil {
			return err
		}
		if intervalOnly {
			return errIntervalBudget
		}
	}
	if boxSize(lo, hi) <= float64(exactStates) {
		return q.evaluate(ctx, ev, lo, hi)
	}
	if !ev.pwl {
		// Tanh and Sigmoid have no exact encoding for Z3 (and this
		// checker encodes no LeakyReLU or Softmax): what the
		// intervals left open is decided state by state.
		return q.enumerate(ctx, lo, hi, fmt.Sprintf("the interval search did not prove it, and policy %s's network (%s) has no exact SMT encoding", p.Decl.Name, describeNet(net)))
	}
	sc := make([]float64, len(q.p.Outputs()))
	for _, w := range sampleStates(lo, hi) {
		if !q.inRegion(w) {
			continue
		}
		if err := q.p.Scores(w, sc); err != nil || !q.chosen(sc) || !sampleWitnesses {
			continue
		}
		return q.failure(w, ev.scores(w))
	}
	return q.networkQuery(ctx, p, ev, lo, hi)
}

// evaluate decides the fact on lo..hi state by state with float64
// evaluation, the policy's semantics; a counterexample also gets its
// exact scores, to show how near the tie is.
func (q *question) evaluate(ctx context.Context, ev *exactNet, lo, hi []int) error {
	sc := make([]float64, len(q.p.Outputs()))
	return eachBoxState(ctx, lo, hi, func(s symbolic.State) error {
		if !q.inRegion(s) {
			return nil
		}
		if err := q.p.Scores(s, sc); err != nil {
			return errorf("policy fact: %w", err)
		}
		if q.chosen(sc) {
			return q.failure(append(symbolic.State(nil), s...), ev.scores(s))
		}
		return nil
	})
}

// networkQuery decides the fact by one SMT query over the box, on the
// exact encoding of the network.
func (q *question) networkQuery(ctx context.Context, p symbolic.Params, ev *exactNet, lo, hi []int) error {
	net := p.Network
	x, err := smt.NewContext()
	if err != nil {
		return err
	}
	defer x.Close()
	sv, err := x.NewSolver()
	if err != nil {
		return err
	}
	state := make([]smt.Term, len(q.m.Vars))
	var box []smt.Term
	for v, va := range q.m.Vars {
		state[v] = x.IntConst(va.Name)
		box = append(box, x.Ge(state[v], x.Int(int64(lo[v]))), x.Le(state[v], x.Int(int64(hi[v]))))
	}
	box = append(box, atomTerms(x, state, q.atoms)...)
	// The rounding error bound of each score over the box.
	xl, xh := ev.inputBounds(lo, hi)
	en := ev.enclose(net, xl, xh, nil)
	if !en.finite {
		return tooLarge("float64 evaluation of policy %s might overflow on the box, which has %.4g states, more than the %d that are evaluated one by one", p.Decl.Name, boxSize(lo, hi), exactStates)
	}
	// The exact scores, each affine input rounded to float64: the input
	// is x + d with |d| <= 2^-53 |x| + 2^-1075 (encodeScores).
	enc, err := encodeScores(x, q.m, p, state, en.err, "q")
	if err != nil {
		return err
	}
	box = append(box, enc.Side...)
	cur := enc.Scores
	// Label may be chosen in float64: some output i of Label is not
	// beaten by any sure output j, so the exact scores satisfy
	// score(j) <= score(i) + err(i) + err(j) (relaxed: a float64 tie or
	// win of i is within the rounding errors of the exact scores).
	var wins []smt.Term
	for _, i := range q.label {
		var c []smt.Term
		for _, j := range q.sure {
			slack := new(big.Rat).SetFloat64(up(en.err[i] + en.err[j]))
			c = append(c, x.Le(cur[j], x.Linear(slack, []*big.Rat{big.NewRat(1, 1)}, cur[i:i+1])))
		}
		wins = append(wins, x.And(c...))
	}
	if err := x.Err(); err != nil {
		return errorf("encoding policy %s: %w", p.Decl.Name, err)
	}
	for _, t := range append(box, x.Or(wins...)) {
		if err := sv.Assert(t); err != nil {
			return err
		}
	}
	res, err := sv.CheckContext(ctx)
	if err != nil {
		return err
	}
	switch res {
	case smt.Unsat:
		return nil
	case smt.Unknown:
		if ctx.Err() == nil {
			return undecided(ctx, "policy fact", sv.ReasonUnknown())
		}
		return errorf("policy fact not re-checked: Z3 gave no answer (%s)", sv.ReasonUnknown())
	}
	vals := make([]int64, len(state))
	if err := sv.Eval(state, vals); err != nil {
		return err
	}
	s := make(symbolic.State, len(vals))
	for v, k := range vals {
		s[v] = int(k)
	}
	if !inBox(s, lo, hi) || !q.inRegion(s) {
		return errorf("policy %s: Z3's counterexample %s lies outside the fact's region; this is a bug of the fact checker", p.Decl.Name, q.m.FormatState(s))
	}
	return q.failure(s, ev.scores(s))
}

// describeNet names a network's activations, for messages.
func describeNet(net *symbolic.Network) string {
	var parts []string
	seen := map[string]bool{}
	for _, l := range net.Layers {
		if a := l.Act.String(); !seen[a] && l.Act != symbolic.ActLinear {
			seen[a] = true
			parts = append(parts, a)
		}
	}
	if net.Out != symbolic.OutNone {
		parts = append(parts, net.Out.String())
	}
	return strings.Join(parts, ", ")
}

func inBox(s symbolic.State, lo, hi []int) bool {
	for v := range s {
		if s[v] < lo[v] || s[v] > hi[v] {
			return false
		}
	}
	return true
}

// ExactStates is the largest box whose states network checks evaluate
// one by one, exactly (about 0.1 ms per state for a 32x32 network);
// larger boxes go to Z3, which in practice proves facts over boxes of
// thousands of states only for networks of a few dozen neurons.
// maxSamples bounds the states of a larger box that are evaluated in
// float64, looking for a witness, before the query over the whole box.
const (
	ExactStates = 1 << 20
	maxSamples  = 64
)

// exactStates is ExactStates, and sampleWitnesses enables the float64
// witness search; the tests that exercise the query over the whole box
// turn both down.
var (
	exactStates     = ExactStates
	sampleWitnesses = true
	// useIntervals enables the interval search; intervalOnly (tests)
	// makes its running out of boxes an error instead of going on.
	useIntervals, intervalOnly = true, false
)

var errIntervalBudget = &Error{Msg: "the interval search ran out of boxes"}

// sampleStates returns up to maxSamples states of lo..hi: all of them in a
// small box, else its corners and its centre and, deterministically
// scattered, states in between.
func sampleStates(lo, hi []int) []symbolic.State {
	var out []symbolic.State
	if boxSize(lo, hi) <= maxSamples {
		eachBoxState(context.Background(), lo, hi, func(s symbolic.State) error {
			out = append(out, append(symbolic.State(nil), s...))
			return nil
		})
		return out
	}
	n := len(lo)
	for c := 0; c < 1<<min(n, 5); c++ {
		s := make(symbolic.State, n)
		for v := range s {
			s[v] = lo[v]
			if v < 5 && c>>v&1 == 1 {
				s[v] = hi[v]
			}
		}
		out = append(out, s)
	}
	r := rand.New(rand.NewPCG(uint64(n), 0x66616374)) // "fact"
	mid := make(symbolic.State, n)
	for v := range mid {
		mid[v] = lo[v] + (hi[v]-lo[v])/2
	}
	out = append(out, mid)
	for len(out) < maxSamples {
		s := make(symbolic.State, n)
		for v := range s {
			s[v] = lo[v] + int(r.Int64N(int64(hi[v]-lo[v])+1))
		}
		out = append(out, s)
	}
	return out
}

// eachBoxState calls f on the states of lo..hi in order until f returns
// an error, which it returns; it stops with an error when ctx is done.
// f must not keep s.
func eachBoxState(ctx context.Context, lo, hi []int, f func(s symbolic.State) error) error {
	s := append(symbolic.State(nil), lo...)
	for k := 0; ; k++ {
		if k&0xff == 0 && ctx.Err() != nil {
			return errorf("policy fact not re-checked: %w", ctx.Err())
		}
		if err := f(s); err != nil {
			return err
		}
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			return nil
		}
		s[v]++
	}
}

// An interval of a variable's values, inclusive.
type valueSpan struct{ lo, hi int }

// leafRegion is a part of the box that reaches one leaf: a box of states
// (per variable lo..hi) and, below an oblique split (oblique.go), linear
// atoms; atoms is nil where every split on the way cuts the box into boxes.
type leafRegion struct {
	lo, hi []int
	atoms  []symbolic.Atom
	leaf   int
}

// splitter turns the splits of one input into sets of values of the one
// variable it reads.
type splitter struct {
	a     *symbolic.Affine
	v     int   // the variable read, -1 for a constant input
	dir   int   // +1 non-decreasing, -1 non-increasing, 0 neither
	s     []int // scratch state for Affine.Eval
	konst float64
}

// newSplitter analyses input a: which variable it reads and whether its
// float64 value is monotone in it. Each step of Affine.Eval, x += c·v, is
// monotone in v (rounding is monotone), so terms of one sign make a
// monotone input. ok is false when the input reads several variables.
func newSplitter(a *symbolic.Affine, nvars int) (*splitter, bool) {
	sp := &splitter{a: a, v: -1, s: make([]int, nvars)}
	pos, neg := false, false
	for _, t := range a.Terms {
		c := t.Coef.Float()
		if c == 0 {
			continue // adds ±0: no effect on the value
		}
		if sp.v >= 0 && int(t.Var) != sp.v {
			return nil, false
		}
		sp.v = int(t.Var)
		pos, neg = pos || c > 0, neg || c < 0
	}
	switch {
	case pos && !neg:
		sp.dir = 1
	case neg && !pos:
		sp.dir = -1
	}
	if sp.v < 0 {
		sp.konst = a.Eval(sp.s)
	}
	return sp, true
}

func (sp *splitter) at(val int) float64 {
	sp.s[sp.v] = val
	return sp.a.Eval(sp.s)
}

// split returns the values of lo..hi whose input is below t (left) and the
// others (right), as interval lists.
func (sp *splitter) split(lo, hi int, t float64) (left, right []valueSpan, err error) {
	all := []valueSpan{{lo, hi}}
	switch {
	case sp.v < 0:
		if sp.konst < t {
			return all, nil, nil
		}
		return nil, all, nil
	case sp.dir > 0: // below t exactly for the values before the first at >= t
		k := lo + sort.Search(hi-lo+1, func(i int) bool { return !(sp.at(lo+i) < t) })
		return valueSpans(lo, k-1), valueSpans(k, hi), nil
	case sp.dir < 0: // below t from the first value whose input is below t
		k := lo + sort.Search(hi-lo+1, func(i int) bool { return sp.at(lo+i) < t })
		return valueSpans(k, hi), valueSpans(lo, k-1), nil
	}
	if hi-lo+1 > maxScan {
		return nil, nil, tooLarge("an input is not monotone in its variable, whose range %d..%d is too wide to scan", lo, hi)
	}
	for val := lo; val <= hi; val++ {
		side := &right
		if sp.at(val) < t {
			side = &left
		}
		if n := len(*side); n > 0 && (*side)[n-1].hi == val-1 {
			(*side)[n-1].hi = val
		} else {
			*side = append(*side, valueSpan{val, val})
		}
	}
	return left, right, nil
}

func valueSpans(lo, hi int) []valueSpan {
	if lo > hi {
		return nil
	}
	return []valueSpan{{lo, hi}}
}

// ensemble decides the fact for a tree-ensemble policy by enumerating the
// cells of leaf combinations: the regions of the box that reach each
// leaf of each tree, then every non-empty intersection of one region per
// tree.
func (q *question) ensemble(ctx context.Context, p symbolic.Params, lo, hi []int) error {
	e := p.Ensemble
	if len(e.Base) != e.NumClasses || len(q.p.Outputs()) != e.NumClasses {
		return errorf("policy %s: %d classes for %d outputs", p.Decl.Name, e.NumClasses, len(q.p.Outputs()))
	}
	splitters, several, err := q.splitters(p)
	if err != nil {
		return err
	}
	if several >= 0 {
		return q.ensembleOblique(ctx, p, lo, hi) // oblique.go
	}
	return q.leafCells(ctx, p, splitters, nil, lo, hi)
}

// leafCells cuts the box lo..hi into the regions that reach each leaf of
// each tree (leafRegions, oblique.go) and decides the fact over their cells
// (combine); obs, nil when every split cuts boxes into boxes, holds the
// inputs over several variables (oblique.go).
func (q *question) leafCells(ctx context.Context, p symbolic.Params, sps []*splitter, obs []*obliqueInput, lo, hi []int) error {
	e := p.Ensemble
	regs := make([][]leafRegion, len(e.Trees))
	total := 0
	for ti := range e.Trees {
		var err error
		if regs[ti], err = q.leafRegions(&e.Trees[ti], sps, obs, lo, hi, &total); err != nil {
			if err == errTooManyRegions {
				return tooLarge("the trees of policy %s cut the box into more than %d leaf regions", p.Decl.Name, cellLimit)
			}
			return err
		}
	}
	err := q.combine(ctx, p, regs, lo, hi)
	var ff *FactFailure
	if errors.As(err, &ff) && !ff.Confirmed {
		// The cell's sums and evaluation at its corner disagree: a bug of
		// this checker, never a reason to accept the fact.
		ff.msg += "; evaluation disagrees with the leaf enumeration (a checker bug)"
	}
	return err
}

// splitters returns, per input that a split reads, its splitter; several
// is the first such input that reads several variables (-1 when none
// does), whose splits do not cut a box into boxes.
func (q *question) splitters(p symbolic.Params) (sps []*splitter, several int, err error) {
	e, inputs := p.Ensemble, p.Decl.Inputs
	sps = make([]*splitter, len(inputs))
	for ti := range e.Trees {
		for _, n := range e.Trees[ti].Nodes {
			if n.Feature < 0 {
				continue
			}
			if n.Feature >= len(inputs) {
				return nil, -1, errorf("policy %s: a split reads input %d of %d", p.Decl.Name, n.Feature+1, len(inputs))
			}
			if sps[n.Feature] != nil {
				continue
			}
			sp, ok := newSplitter(&inputs[n.Feature], len(q.m.Vars))
			if !ok {
				return nil, n.Feature, nil
			}
			sps[n.Feature] = sp
		}
	}
	return sps, -1, nil
}

// errTooManyRegions: the trees cut the box into more than cellLimit leaf
// regions.
var errTooManyRegions = errors.New("too many leaf regions")

// combine visits, depth first over the trees in evaluation order, every
// non-empty intersection of one leaf region per tree (a cell: boxes
// intersected, atoms joined, dropped when it holds no real point),
// summing the leaf values as the ensemble's evaluation does, so a cell's
// scores are bit-identical to evaluation at any of its states; it fails
// at the first cell where Label may be chosen, at an integer state of
// the cell's region if it has one. Both the axis-aligned enumeration
// (ensemble) and the oblique one (ensembleOblique) use it, so the sums
// and the cell tests are written once.
func (q *question) combine(ctx context.Context, p symbolic.Params, regs [][]leafRegion, lo, hi []int) error {
	e := p.Ensemble
	nv := len(q.m.Vars)
	nc := e.NumClasses
	sums := make([][]float64, len(e.Trees)+1)
	for k := range sums {
		sums[k] = make([]float64, nc)
	}
	copy(sums[0], e.Base)
	blo, bhi := make([][]int, len(e.Trees)+1), make([][]int, len(e.Trees)+1)
	for k := range blo {
		blo[k], bhi[k] = make([]int, nv), make([]int, nv)
	}
	copy(blo[0], lo)
	copy(bhi[0], hi)
	atoms := make([][]symbolic.Atom, len(e.Trees)+1)
	cells := 0
	var dfs func(k int) error
	dfs = func(k int) error {
		if k == len(e.Trees) {
			if !q.chosen(sums[k]) {
				return nil
			}
			all := q.atoms
			if len(atoms[k]) > 0 {
				all = append(append([]symbolic.Atom(nil), q.atoms...), atoms[k]...)
			}
			if len(all) == 0 {
				return q.failure(append(symbolic.State(nil), blo[k]...), nil)
			}
			// The cell's scores are the same in all its states: a
			// counterexample needs one that is in the region.
			s, err := regionPoint(ctx, blo[k], bhi[k], all)
			if err != nil || s == nil {
				return err // no state in the cell: nothing is chosen there
			}
			return q.failure(s, nil)
		}
		t := &e.Trees[k]
	next:
		for _, r := range regs[k] {
			for v := 0; v < nv; v++ {
				l, h := max(blo[k][v], r.lo[v]), min(bhi[k][v], r.hi[v])
				if l > h {
					continue next
				}
				blo[k+1][v], bhi[k+1][v] = l, h
			}
			// With no atoms from the trees, feasible tests the box against q.atoms only.
			var ok bool
			if atoms[k+1], ok = joinAtoms(atoms[k], r.atoms); !ok || !q.feasible(blo[k+1], bhi[k+1], atoms[k+1]) {
				continue
			}
			if cells++; cells > cellLimit {
				return tooLarge("the leaf combinations of policy %s over the box exceed %d cells", p.Decl.Name, cellLimit)
			}
			if cells&0xfff == 0 && ctx.Err() != nil {
				return errorf("policy fact not re-checked: %w", ctx.Err())
			}
			copy(sums[k+1], sums[k])
			if t.Class >= 0 {
				sums[k+1][t.Class] = addScore(e, sums[k+1][t.Class], t.Values[r.leaf])
			} else {
				for c, w := range t.Values[r.leaf*nc : (r.leaf+1)*nc] {
					sums[k+1][c] = addScore(e, sums[k+1][c], w)
				}
			}
			if err := dfs(k + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return dfs(0)
}

// addScore is one step of an ensemble's score sum, s + v, rounded as the
// format sums (symbolic.Ensemble): to float32 when Float32 is set (every
// base and leaf value is then a float32 value), else to float64.
func addScore(e *symbolic.Ensemble, s, v float64) float64 {
	if e.Float32 {
		return float64(float32(s) + float32(v))
	}
	return s + v
}
