package symbolic

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"sort"
	"strings"
	"sync"
)

// PolicyKind names how a policy computes its scores.
type PolicyKind string

const (
	KindNN    PolicyKind = "nn"
	KindTrees PolicyKind = "trees"
	KindRules PolicyKind = "rules"
	KindTable PolicyKind = "table"
)

// Symbolic tells whether a policy of kind k is written in the model
// (rules and table policies), so that an exact encoding of it exists; the
// other kinds read a network or an ensemble from a file.
func (k PolicyKind) Symbolic() bool { return k == KindRules || k == KindTable }

// SymbolicPolicies lists the names of m's rules and table policies, in
// declaration order.
func (m *Model) SymbolicPolicies() []string {
	var names []string
	for _, d := range m.Policies {
		if d.Kind.Symbolic() {
			names = append(names, d.Name)
		}
	}
	return names
}

// Affine is an affine map of the state to one real policy input:
// Const + sum Coef_i * Var_i with rational coefficients.
type Affine struct {
	Const Rat
	Terms []AffineTerm
	Pos   Pos
}

// AffineTerm is Coef * Var with a rational coefficient.
type AffineTerm struct {
	Coef Rat
	Var  VarID
}

// Eval returns the value of the affine input in state s: the float64
// nearest to the exact rational value Const + sum Coef_i * s[Var_i] (ties
// to even), as lang/spec.md defines a learned policy's input. Rounding
// once makes the value a monotone function of each variable (for terms of
// one sign) and keeps it within half an ulp of the exact value, which the
// certifiers and the fact checker rely on.
func (a *Affine) Eval(s State) float64 {
	if v, ok := a.evalSmall(s); ok {
		return v
	}
	r := new(big.Rat)
	if a.Const.Den != 0 {
		r.SetFrac64(a.Const.Num, a.Const.Den)
	}
	t := new(big.Rat)
	for _, term := range a.Terms {
		if term.Coef.Den == 0 {
			continue
		}
		t.SetFrac64(term.Coef.Num, term.Coef.Den)
		r.Add(r, t.Mul(t, new(big.Rat).SetInt64(int64(s[term.Var]))))
	}
	f, _ := r.Float64() // the nearest float64
	return f
}

// Signs returns, per variable of a model of nvars variables, the sign of
// its coefficient in a: the exact sum of the coefficients of its terms
// (0 for a variable a does not read). Eval is non-decreasing in each
// variable of sign +1 and non-increasing in each of sign -1, so over a
// box of states it is least and greatest at the corners these signs pick.
func (a *Affine) Signs(nvars int) []int {
	sum := make([]*big.Rat, nvars)
	for _, t := range a.Terms {
		if t.Coef.Den == 0 || int(t.Var) < 0 || int(t.Var) >= nvars {
			continue
		}
		if sum[t.Var] == nil {
			sum[t.Var] = new(big.Rat)
		}
		sum[t.Var].Add(sum[t.Var], big.NewRat(t.Coef.Num, t.Coef.Den))
	}
	sg := make([]int, nvars)
	for v, r := range sum {
		if r != nil {
			sg[v] = r.Sign()
		}
	}
	return sg
}

// Range returns the least and greatest value of Eval over the states of
// the box lo..hi (one bound per variable, inclusive): its values at the
// two corners Signs picks, using the scratch states cl and ch (len(lo)).
func (a *Affine) Range(signs []int, lo, hi []int, cl, ch State) (float64, float64) {
	copy(cl, lo)
	copy(ch, hi)
	for v, sg := range signs {
		if sg < 0 {
			cl[v], ch[v] = hi[v], lo[v]
		}
	}
	return a.Eval(cl), a.Eval(ch)
}

// evalSmall is Eval in int64 arithmetic: the value as N/L over the least
// common denominator L; when |N| and L are at most 2^53 both are exact
// float64 values and one IEEE division rounds N/L correctly. ok is false
// when an intermediate result does not fit (Eval then uses big.Rat).
func (a *Affine) evalSmall(s State) (v float64, ok bool) {
	const lim = 1 << 53
	l := int64(1)
	den := func(r Rat) bool {
		if r.Den == 0 {
			return true
		}
		if r.Den < 0 {
			return false
		}
		g := gcd64(l, r.Den)
		n, ok := mulInt64(l/g, r.Den)
		l = n
		return ok && l <= lim
	}
	if !den(a.Const) {
		return 0, false
	}
	for _, t := range a.Terms {
		if !den(t.Coef) {
			return 0, false
		}
	}
	n := int64(0)
	add := func(r Rat, x int64) bool {
		if r.Den == 0 {
			return true
		}
		c, ok1 := mulInt64(r.Num, l/r.Den)
		p, ok2 := mulInt64(c, x)
		if !ok1 || !ok2 {
			return false
		}
		sum := n + p
		if (p > 0 && sum < n) || (p < 0 && sum > n) {
			return false
		}
		n = sum
		return true
	}
	if !add(a.Const, 1) {
		return 0, false
	}
	for _, t := range a.Terms {
		if !add(t.Coef, int64(s[t.Var])) {
			return 0, false
		}
	}
	if n > lim || n < -lim {
		return 0, false
	}
	return float64(n) / float64(l), true
}

func gcd64(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mulInt64 returns a*b and whether it did not overflow.
func mulInt64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// Rule is one line `when Cond -> Label` of a rules policy.
type Rule struct {
	Cond  *Cond // True for `otherwise`
	Label LabelID
	Pos   Pos
}

// PolicyDecl is a lowered `policy` declaration. The file formats of nn and
// trees policies are loaded by their packages through RegisterKind; rules
// and table policies are complete here.
type PolicyDecl struct {
	Name string
	Kind PolicyKind
	// File is the policy file resolved against the declaring .spec file's
	// directory ("" for rules). Interface is the resolved `interface` file.
	File      string
	Interface string
	Inputs    []Affine  // nn, trees: one per model input, in order
	Outputs   []LabelID // nn, trees, table: output labels in order
	Rules     []Rule    // rules: in order; the last one may be `otherwise`
	Table     *Table    // table: the loaded CSV
	// ArgMaxAll (nn, trees) is the reading `argmax all`: the arg-max
	// ranges over every output, and the policy is stuck where the
	// winning label is not applicable (PlaJA without applicability
	// filtering). False is `argmax applicable`, the arg-max over the
	// applicable outputs. See Choose and ChooseAll.
	ArgMaxAll bool
	// Output (nn) names the ONNX graph output holding the scores, from
	// `output "NAME"`; "" for the graph's only output.
	Output string
	Pos    Pos
}

// ReadsAll reports whether d is a learned (nn or trees) policy read
// `argmax all`; rules and table policies always choose among the
// applicable labels. d may be nil.
func (d *PolicyDecl) ReadsAll() bool {
	return d != nil && d.ArgMaxAll && (d.Kind == KindNN || d.Kind == KindTrees)
}

// Rivals returns the outputs a label must beat to be chosen, given that
// the labels of sure are applicable: sure itself under `argmax
// applicable`, every output under `argmax all` (where a label is chosen
// iff it is applicable and beats every qualifying output, applicable or
// not). Certifiers (Certifiable.Exclude) ask their question against the
// rivals, so that one answer serves both readings. (Asking against sure
// alone would stay sound under argmax all, since a label that beats every
// output beats sure, but it would exclude less, and its Possible
// witnesses need not choose the label.)
func (d *PolicyDecl) Rivals(sure []LabelID) []LabelID {
	if d.ReadsAll() {
		return d.Outputs
	}
	return sure
}

// Table is the content of a table policy's CSV file: each row a full state
// (values in Model.Vars order) and its label.
type Table struct {
	Rows   []State
	Labels []LabelID
}

// Policy maps a state to scores, one per output label; the chosen label is
// the arg-max over the applicable outputs (see Choose), or, for a policy
// that reads `argmax all` (Unfiltered), the arg-max over all outputs when
// it is applicable (see ChooseAll). ChooseFor and Decide pick the rule.
//
// Implementations need not be safe for concurrent use; engines that work in
// parallel instantiate one policy per goroutine.
type Policy interface {
	// Outputs lists the output labels in order (the tie-break order).
	Outputs() []LabelID
	// Scores writes one score per output into dst (len(dst) ==
	// len(Outputs())). A score of -Inf (or NaN) means "never choose".
	Scores(s State, dst []float64) error
}

// Choose applies the arg-max rule: among outputs whose label is applicable
// and whose score is not -Inf or NaN, the highest score wins; ties go to the
// earliest output. It returns NoLabel when no output qualifies (the policy is
// stuck).
func Choose(outputs []LabelID, scores []float64, applicable func(LabelID) bool) LabelID {
	best := NoLabel
	bestScore := math.Inf(-1)
	for i, l := range outputs {
		sc := scores[i]
		if math.IsNaN(sc) || math.IsInf(sc, -1) || !applicable(l) {
			continue
		}
		if best == NoLabel || sc > bestScore {
			best, bestScore = l, sc
		}
	}
	return best
}

// ChooseAll applies the arg-max rule of `argmax all` (PlaJA's policy
// without applicability filtering): the arg-max over every output by
// Choose's rule (NaN and -Inf never win, ties go to the earliest output),
// chosen when its label is applicable; NoLabel (stuck) when it is not or
// when no output qualifies.
func ChooseAll(outputs []LabelID, scores []float64, applicable func(LabelID) bool) LabelID {
	best := Choose(outputs, scores, func(LabelID) bool { return true })
	if best != NoLabel && !applicable(best) {
		return NoLabel
	}
	return best
}

// TotalScores is implemented by policies whose Scores never fails on a
// state of their model (nn.Policy, trees.Policy, TablePolicy,
// RulesPolicy). The safety deciders may then skip the search for policy
// errors (lang/spec.md, "Range errors"). It is a promise the policy makes
// itself: a type that wraps one of these does not inherit it, so a
// wrapper whose Scores may fail is searched as it should be.
type TotalScores interface {
	// TotalScores reports that Scores never returns an error on a state
	// with the model's variables.
	TotalScores() bool
}

// Unfiltered is implemented by policies whose arg-max may range over all
// outputs (nn.Policy and trees.Policy, from their declaration's
// ArgMaxAll).
type Unfiltered interface {
	// ArgMaxAll reports that the policy reads `argmax all`.
	ArgMaxAll() bool
}

// ReadsAll reports whether p reads `argmax all` (Unfiltered).
func ReadsAll(p Policy) bool {
	u, ok := p.(Unfiltered)
	return ok && u.ArgMaxAll()
}

// ChooseFor applies p's arg-max rule to its scores: ChooseAll when p
// reads `argmax all`, else Choose.
func ChooseFor(p Policy, scores []float64, applicable func(LabelID) bool) LabelID {
	if ReadsAll(p) {
		return ChooseAll(p.Outputs(), scores, applicable)
	}
	return Choose(p.Outputs(), scores, applicable)
}

// Decide evaluates p in s and applies its arg-max rule (ChooseFor).
// scratch may be nil.
func Decide(p Policy, s State, applicable func(LabelID) bool, scratch []float64) (LabelID, error) {
	out := p.Outputs()
	if cap(scratch) < len(out) {
		scratch = make([]float64, len(out))
	}
	scratch = scratch[:len(out)]
	if err := p.Scores(s, scratch); err != nil {
		return NoLabel, err
	}
	return ChooseFor(p, scratch, applicable), nil
}

// Certifiable is the one interface between a policy and the engines that
// reason about it over sets of states (PolIC3, predicate abstraction, the
// certificate checker), so that they import neither nn nor trees. It has
// three parts:
//   - evaluation (Policy): the float64 scores on a state, the policy's
//     semantics (lang/spec.md, Policies);
//   - certification (Exclude): the policy's own answer to "is label a
//     ever chosen in this box of states?" (nn: CROWN with input splitting;
//     trees: box search);
//   - raw parameters (Params): the network's layers or the ensemble's
//     trees, for a checker that re-derives an answer by code that shares
//     nothing with Exclude (ic3/cert re-checks PolIC3's facts so).
//
// nn.Policy, trees.Policy, RulesPolicy and TablePolicy implement it.
type Certifiable interface {
	Policy
	// Exclude reports whether label a is never chosen in any state of
	// the integer box lo..hi (one inclusive bound per model variable),
	// given that every label of sure is applicable throughout the box:
	// Excluded when proved, Possible with a state of the box where a
	// beats every label of sure (when the certifier found one), or
	// Undecided when the certifier's budget ran out. A label that is not
	// an output is Excluded. A policy that reads `argmax all` answers
	// against every output instead of sure (PolicyDecl.Rivals).
	Exclude(lo, hi []int, a LabelID, sure []LabelID) (Exclusion, State, error)
	// Params returns the policy's raw parameters. They are shared with
	// the policy: callers must not change them.
	Params() Params
}

// Atom is a linear constraint over a model's variables: Form <= K when
// Upper, else Form >= K. A region (RegionCertifiable) is a box of integer
// states and a conjunction of atoms: the integer points of a polytope.
type Atom struct {
	Form  *Form
	Upper bool
	K     int
}

// Holds reports whether s satisfies a (exactly: the form's value is an
// int, see Form.Fits).
func (a Atom) Holds(s State) bool {
	v := a.Form.Eval(s)
	if a.Upper {
		return v <= a.K
	}
	return v >= a.K
}

// RegionCertifiable is a Certifiable that also certifies over regions
// that are not boxes: the states of a box that satisfy linear atoms, the
// regions of relational lemmas (PolIC3, package ic3). Certifying over the
// region rather than its bounding box matters where the box holds states
// the region does not, where the label wins (an invariant v <= d: the box
// of a cell along the diagonal holds states on both sides).
type RegionCertifiable interface {
	Certifiable
	// ExcludeWithin answers Exclude for the states of the box lo..hi
	// that satisfy every atom (none: Exclude itself), given that every
	// label of sure is applicable throughout that region. A Possible
	// state lies in the region. The answer must be sound for the integer
	// points of the region; an over-approximation (such as the real
	// points of the polytope) is allowed.
	ExcludeWithin(lo, hi []int, atoms []Atom, a LabelID, sure []LabelID) (Exclusion, State, error)
}

// Exclusion is a certifier's answer (Certifiable.Exclude).
type Exclusion uint8

const (
	Undecided Exclusion = iota // the certifier ran out of budget
	Excluded                   // the label is never chosen in the box
	Possible                   // a state of the box where the label wins
)

func (e Exclusion) String() string {
	switch e {
	case Excluded:
		return "excluded"
	case Possible:
		return "possible"
	}
	return "undecided"
}

// Params is the raw description of a policy: its declaration (the affine
// inputs, the output labels, the rules or the table) and, for a learned
// policy, exactly one of the network's and the ensemble's parameters.
type Params struct {
	Decl     *PolicyDecl
	Network  *Network  // nn policies
	Ensemble *Ensemble // trees policies
}

// LoadFunc builds a policy of a registered kind from its declaration.
// The policies of kinds nn and trees implement Certifiable.
type LoadFunc func(m *Model, d *PolicyDecl) (Policy, error)

var (
	kindsMu sync.RWMutex
	kinds   = map[PolicyKind]LoadFunc{}
)

// RegisterKind installs the loader of a policy kind; nn and trees register
// theirs from their packages' init functions.
//
// Registration is how a file format plugs in (database/sql's drivers and
// image's decoders work the same way): the engines (explicit, safety,
// ic3, ppa, ic3/cert) build a policy from its declaration with
// Instantiate and use it through Policy and Certifiable, so none of them
// imports nn or trees, and a program links in the formats it supports by
// importing their packages (cmd/vigil does; a test or a tool that needs
// learned policies imports them, blank when it calls nothing of theirs).
// Without the import, Instantiate reports that the kind is not supported
// by the build.
func RegisterKind(k PolicyKind, f LoadFunc) {
	kindsMu.Lock()
	defer kindsMu.Unlock()
	kinds[k] = f
}

// Instantiate builds the executable policy of a declaration.
func Instantiate(m *Model, d *PolicyDecl) (Policy, error) {
	switch d.Kind {
	case KindRules:
		return NewRulesPolicy(d), nil
	case KindTable:
		return NewTablePolicy(m, d), nil
	}
	kindsMu.RLock()
	f := kinds[d.Kind]
	kindsMu.RUnlock()
	if f == nil {
		return nil, ErrorAt(d.Pos, "policy %s: %s policies are not supported by this build of vigil (a Go program links them in by importing package vigil/%s; see symbolic.RegisterKind)", d.Name, d.Kind, d.Kind)
	}
	return f(m, d)
}

// RulesPolicy is a decision list. It scores each label by the earliest rule
// that names it and whose condition holds (earlier rules score higher), so
// that Choose picks the first rule whose condition holds and whose label is
// applicable, exactly the semantics of `rules`.
type RulesPolicy struct {
	decl    *PolicyDecl
	rules   []Rule
	outputs []LabelID
	slot    []int // rule index -> output index
}

// NewRulesPolicy builds the decision list of a rules declaration.
func NewRulesPolicy(d *PolicyDecl) *RulesPolicy {
	p := &RulesPolicy{decl: d, rules: d.Rules}
	idx := map[LabelID]int{}
	for _, r := range d.Rules {
		i, ok := idx[r.Label]
		if !ok {
			i = len(p.outputs)
			idx[r.Label] = i
			p.outputs = append(p.outputs, r.Label)
		}
		p.slot = append(p.slot, i)
	}
	return p
}

// Outputs lists the labels the rules name, in order of first appearance.
func (p *RulesPolicy) Outputs() []LabelID { return p.outputs }

// Scores gives each label len(rules)-i for the first rule i naming it whose
// condition holds, -Inf if there is none.
func (p *RulesPolicy) Scores(s State, dst []float64) error {
	for i := range dst {
		dst[i] = math.Inf(-1)
	}
	n := len(p.rules)
	for i := range p.rules {
		j := p.slot[i]
		if !math.IsInf(dst[j], -1) {
			continue
		}
		if p.rules[i].Cond.Holds(s) {
			dst[j] = float64(n - i)
		}
	}
	return nil
}

// TablePolicy maps listed states to their label; other states are stuck.
type TablePolicy struct {
	decl    *PolicyDecl
	outputs []LabelID
	slot    map[LabelID]int
	rows    map[string]LabelID
}

// NewTablePolicy indexes a table declaration's rows.
func NewTablePolicy(m *Model, d *PolicyDecl) *TablePolicy {
	p := &TablePolicy{decl: d, slot: map[LabelID]int{}, rows: map[string]LabelID{}}
	add := func(l LabelID) {
		if _, ok := p.slot[l]; !ok {
			p.slot[l] = len(p.outputs)
			p.outputs = append(p.outputs, l)
		}
	}
	for _, l := range d.Outputs {
		add(l)
	}
	if d.Table != nil {
		for i, r := range d.Table.Rows {
			add(d.Table.Labels[i])
			p.rows[stateKey(r)] = d.Table.Labels[i]
		}
	}
	return p
}

func stateKey(s State) string {
	var b strings.Builder
	for i, v := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, v)
	}
	return b.String()
}

// Outputs lists the table's labels.
func (p *TablePolicy) Outputs() []LabelID { return p.outputs }

// Scores gives the listed label of s score 1 and every other label -Inf.
func (p *TablePolicy) Scores(s State, dst []float64) error {
	for i := range dst {
		dst[i] = math.Inf(-1)
	}
	if l, ok := p.rows[stateKey(s)]; ok {
		dst[p.slot[l]] = 1
	}
	return nil
}

// Params returns the table's declaration (its rows are Decl.Table).
func (p *TablePolicy) Params() Params { return Params{Decl: p.decl} }

// TotalScores: a table's scores are defined on every state (a state
// without a row is stuck, not an error).
func (p *TablePolicy) TotalScores() bool { return true }

// Exclude decides exactly: label a may be chosen in the box iff a row
// in the box lists a (the last row of a state counts, as in Scores);
// every other state of the box is stuck.
func (p *TablePolicy) Exclude(lo, hi []int, a LabelID, sure []LabelID) (Exclusion, State, error) {
	if err := checkBox(lo, hi); err != nil {
		return Undecided, nil, err
	}
	if p.decl.Table == nil {
		return Excluded, nil, nil
	}
	for _, r := range p.decl.Table.Rows {
		if len(r) == len(lo) && inBox(r, lo, hi) && p.rows[stateKey(r)] == a {
			return Possible, append(State(nil), r...), nil
		}
	}
	return Excluded, nil, nil
}

// Params returns the rules' declaration (the rules are Decl.Rules).
func (p *RulesPolicy) Params() Params { return Params{Decl: p.decl} }

// TotalScores: rules are defined on every state (none firing is stuck,
// not an error).
func (p *RulesPolicy) TotalScores() bool { return true }

// MaxExcludeStates is the largest box RulesPolicy.Exclude decides, state
// by state.
const MaxExcludeStates = 1 << 12

// Exclude decides by evaluating the rules in every state of a box of at
// most MaxExcludeStates states; a larger box is Undecided (engines encode
// rules in SMT instead, exactly).
func (p *RulesPolicy) Exclude(lo, hi []int, a LabelID, sure []LabelID) (Exclusion, State, error) {
	return ExcludeByEnumeration(p, lo, hi, a, sure, MaxExcludeStates)
}

// ExcludeByEnumeration answers Certifiable.Exclude for p by evaluating p
// in every state of the box lo..hi, when it has at most limit states
// (else Undecided): Possible with the first state where a beats every
// label of sure by Choose's rule (every output when p reads `argmax
// all`), else Excluded.
func ExcludeByEnumeration(p Policy, lo, hi []int, a LabelID, sure []LabelID, limit int) (Exclusion, State, error) {
	if err := checkBox(lo, hi); err != nil {
		return Undecided, nil, err
	}
	n := 1
	for v := range lo {
		if n *= hi[v] - lo[v] + 1; n > limit {
			return Undecided, nil, nil
		}
	}
	out := p.Outputs()
	sc := make([]float64, len(out))
	avail := func(l LabelID) bool { return l == a || slices.Contains(sure, l) }
	if ReadsAll(p) {
		avail = func(LabelID) bool { return true }
	}
	s := append(State(nil), lo...)
	for {
		if err := p.Scores(s, sc); err != nil {
			return Undecided, nil, err
		}
		if Choose(out, sc, avail) == a {
			return Possible, s, nil
		}
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			return Excluded, nil, nil
		}
		s[v]++
	}
}

func checkBox(lo, hi []int) error {
	if len(lo) != len(hi) {
		return fmt.Errorf("symbolic: a box with %d lower and %d upper bounds", len(lo), len(hi))
	}
	for v := range lo {
		if lo[v] > hi[v] {
			return fmt.Errorf("symbolic: the box is empty in variable %d", v)
		}
	}
	return nil
}

func inBox(s State, lo, hi []int) bool {
	for v := range s {
		if s[v] < lo[v] || s[v] > hi[v] {
			return false
		}
	}
	return true
}

// SortedLabels returns label IDs sorted by name (for stable reports).
func (m *Model) SortedLabels(ls []LabelID) []LabelID {
	out := append([]LabelID(nil), ls...)
	sort.Slice(out, func(i, j int) bool { return m.Labels[out[i]].Name < m.Labels[out[j]].Name })
	return out
}

var (
	_ Certifiable = (*RulesPolicy)(nil)
	_ Certifiable = (*TablePolicy)(nil)
)
