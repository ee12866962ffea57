// Package symbolic is vigil's typed intermediate representation: the one model
// every engine consumes. A Model has bounded integer variables (Booleans are
// 0/1 variables), integer expressions that are linear plus if/min/max/abs and
// division by a positive constant (over mathematical integers: arith.go),
// conditions, labelled guarded commands with
// (weighted) non-deterministic outcomes, policies and properties.
//
// The front ends (package lang for .spec files, lang/jani for JANI) lower into
// this package; engines import it and never the front ends. Every node carries a
// Pos so that an engine's answer can cite the source line it came from.
//
// Design notes:
//   - Identifiers are dense indices: VarID indexes Model.Vars, LabelID indexes
//     Model.Labels. Engines keep per-variable and per-label data in slices.
//   - A concrete state is a []int indexed by VarID (State). The packed explicit
//     engine builds on top of this valuation.
//   - Expressions and conditions are small trees with an Op tag rather than
//     interfaces, so that evaluation is a switch and the SMT/BDD encoders can
//     walk them without type assertions.
package symbolic

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// Pos is a source position: file, 1-based line and column. The zero Pos means
// "unknown" (for nodes synthesised by an engine).
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p names a real source position.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string {
	switch {
	case p.File == "" && p.Line == 0:
		return "-"
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// VarID indexes Model.Vars.
type VarID int32

// LabelID indexes Model.Labels. NoLabel means "none" (a stuck policy).
type LabelID int32

// NoLabel is the LabelID of "no label".
const NoLabel LabelID = -1

// State is a concrete valuation of all variables, indexed by VarID.
// Boolean variables hold 0 or 1.
type State []int

// Var is a bounded integer or Boolean variable.
type Var struct {
	Name    string
	Lo, Hi  int // inclusive range; Booleans are 0..1
	Bool    bool
	HasInit bool
	Init    int
	Pos     Pos
	// Values names the values of an enum variable (value Lo+i is
	// Values[i]); nil for integers and Booleans. Engines see the
	// integers; states print the names.
	Values []string
}

// ValueName returns how value x of v prints: an enum value's name, true
// or false, or the integer.
func (v *Var) ValueName(x int) string {
	switch {
	case v.Bool && x == 0:
		return "false"
	case v.Bool:
		return "true"
	case v.Values != nil && x >= v.Lo && x-v.Lo < len(v.Values):
		return v.Values[x-v.Lo]
	}
	return strconv.Itoa(x)
}

// Size is the number of values of the variable's range.
func (v *Var) Size() int { return v.Hi - v.Lo + 1 }

// Label is an action label.
type Label struct {
	Name string
	Pos  Pos
}

// Const is a folded constant, kept for printing and for reports.
type Const struct {
	Name  string
	Value int
	Pos   Pos
}

// ArrayConst is an array constant (const G = [2, 0, 1], or its -D value),
// folded: arrays are lowered away, so the model keeps its values only for
// reports and run files (a run replays only on the same values). Values
// of a bool array are 0 and 1, with Bool set.
type ArrayConst struct {
	Name   string
	Values []int
	Bool   bool
	Pos    Pos
}

// RealConst is a real-valued constant, exactly: Value is a rational in
// big.Rat's RatString form ("1/10", "3").
type RealConst struct {
	Name  string
	Value string
	Pos   Pos
}

// Pred is a named condition. Uses of a pred are inlined during lowering; the
// declaration is kept so the printer can write it back.
type Pred struct {
	Name string
	Cond *Cond
	Pos  Pos
}

// Model is a complete lowered model: environment, policies and properties.
type Model struct {
	Name   string
	Consts []Const
	// ArrayConsts are the array constants, folded (see ArrayConst).
	ArrayConsts []ArrayConst
	// Dropped are a JANI model's properties the import could not read,
	// by name, with the reason (its note), so that asking for one says
	// why rather than "no property".
	Dropped map[string]string
	// Reals are the real-valued constants of a JANI model (a probability
	// set with -D p=0.1), which Consts, integers, cannot hold: kept for
	// reports and run files (a run replays only on the same values).
	Reals []RealConst
	// StartsRestricted (JANI import) says that the model's initial states
	// are not just its variables' initial values (a restrict-initial, or a
	// variable without an initial value): only its properties' start
	// conditions say which they are, so a command run without a property
	// takes the import's property "initial" or is refused
	// (SelectProperty), never the initial values alone.
	StartsRestricted bool
	// Start is that start condition when StartsRestricted (nil
	// otherwise): the start of a property that PlaJA files add without a
	// start condition of their own, and of vigil import's .spec.
	Start      *Cond
	Vars       []Var
	Labels     []Label
	Preds      []Pred
	Commands   []Command
	Policies   []*PolicyDecl
	Properties []*Property
	// Type is the JANI model type ("lts", "mdp", "dtmc") of a model read
	// from JANI, "" for a .spec model. In a "dtmc" the commands enabled in
	// a state are one choice, each taken with equal probability (as Storm
	// builds it), not a choice among them; vigil prob reads it so.
	Type string
	// RestrictInitial is a JANI model's restrict-initial alone (nil: none,
	// or one that folds to true), without the variables' initial values
	// that Start adds: a PlaJA start condition (--start) is combined with
	// it, not with the initial values it replaces.
	RestrictInitial *Cond
}

// Command is one guarded command: `action Label when Guard -> o1 | o2 ...`.
type Command struct {
	Label    LabelID
	Guard    *Cond // never nil: True when the source has no guard
	Outcomes []Outcome
	Pos      Pos
	// Cost is what taking the command costs (`action ... cost EXPR`), an
	// integer expression that is at least 1 on the variables' ranges (so
	// a run costs at least its number of steps); nil means 1. Goal-mode testing sums it along runs, vigil env pays
	// it as the step's reward, and the JANI export writes it as a reward.
	Cost *Expr
}

// CostIn is the command's cost in state s (1 when it has none).
func (c *Command) CostIn(s State) int {
	if c.Cost == nil {
		return 1
	}
	return c.Cost.Eval(s)
}

// Outcome is one possible effect of a command. Variables not assigned keep
// their values; every right-hand side reads the old state.
type Outcome struct {
	// Weight is the weight as written (Rat{} when none was written);
	// Prob is the normalised probability used for simulation and sampling.
	Weight Rat
	Prob   float64
	// ProbFactors, when not empty, is a state-dependent probability (a
	// JANI destination's probability expression): the outcome's weight in
	// state s is the product of the factors' Num(s)/Den(s). An outcome of
	// one JANI edge has one factor; one of synchronised edges has one per
	// edge whose destination's probability reads the state, and one more
	// for the product of the others' constant probabilities when that is
	// not 1. Each factor is a probability of its own: it must lie in
	// [0, 1] with a non-zero denominator (BadProb), so that a product of
	// two negative factors is no probability. Lowering already guards the
	// command so that the outcome is absent where the product is 0 and
	// no factor is bad; the explicit engine reports a state where some
	// factor is bad, and simulation and vigil prob take the product
	// (ProbAt, exact: the product of two 64-bit numerators may leave 64
	// bits).
	ProbFactors []ProbFactor
	Assigns     []Assign // sorted by Var, each Var at most once
	Pos         Pos
	// Rewards are what the outcome assigns to transient numeric
	// variables (JANI rewards on destinations), at most one per name:
	// vigil prob reads them for expected rewards (Reward.Outcomes); every
	// other engine ignores them (a .spec command's cost is Command.Cost).
	Rewards []OutcomeReward
	// Accesses are the reads and writes of array elements (lang's
	// arrays, flattened) whose index may leave the array's range, in the
	// command's guard and this outcome. Such an access is a range error
	// of the outcome, which sets a carrier variable one above its range
	// there; a range error's message names the access and its index
	// rather than the carrier (explicit.RangeError). No engine reads them.
	Accesses []ArrayAccess
}

// ArrayAccess is a read or write of an array element at an index that
// may leave the array's range (Outcome.Accesses).
type ArrayAccess struct {
	Text   string // as written, a[i]
	Index  *Expr
	Lo, Hi int // the array's index range
	Write  bool
	Pos    Pos
	// When holds where the access is evaluated (behind the left
	// operands and if conditions it is under) and its index is out of
	// range; its nodes may be shared with other accesses' When
	When *Cond
	// With, when set, names a second write of the outcome (as written)
	// at WithPos: the access is the two writes of one element, When
	// holds where their indices meet, and Index is the element's index
	// (Lo and Hi are the array's range, which it may be inside)
	With    string
	WithPos Pos
}

// ProbFactor is one factor Num/Den of an outcome's state-dependent
// probability (Outcome.ProbFactors): the probability of one JANI
// destination, or a constant.
type ProbFactor struct {
	Num, Den *Expr
	Pos      Pos // the destination it is the probability of
	// ZeroSum marks the factor 0/0 of the one outcome that JANI import
	// gives an edge in the states where it is enabled and the
	// probabilities of all its destinations are 0: they sum to 0, not 1,
	// which is no distribution (and no weights to normalise). Being 0/0,
	// the factor is bad for every check (BadProb, ProbAt); the flag only
	// lets messages say "sum to 0" rather than "division by zero".
	ZeroSum bool
}

// StateProb reports whether o's probability depends on the state.
func (o *Outcome) StateProb() bool { return len(o.ProbFactors) > 0 }

// BadProb is the condition "some factor of o's state-dependent
// probability lies outside [0, 1] or divides by zero" (ProbFactor.Bad of
// each factor). It is false when o has no state-dependent probability.
// Where o's command is enabled and expanded, the explicit engine reports
// it as a range error of the outcome's probability; the symbolic engines
// (smt, bdd, the CHC export) count it among the range errors. It compares
// each factor's numerator and denominator, never their products, so it is
// as linear as the factors are.
func (o *Outcome) BadProb() *Cond {
	var cs []*Cond
	for _, f := range o.ProbFactors {
		if !f.Pos.IsValid() {
			f.Pos = o.Pos
		}
		cs = append(cs, f.Bad())
	}
	if len(cs) == 1 {
		return cs[0]
	}
	return Or(cs...)
}

// Bad is the condition "Num/Den lies outside [0, 1] or divides by zero":
// Den = 0, or Num/Den < 0, or Num/Den > 1, stated without division.
func (f ProbFactor) Bad() *Cond {
	n, d := f.Num, f.Den
	if n.Op == OpConst && d.Op == OpConst {
		if badFrac(big.NewInt(int64(n.K)), big.NewInt(int64(d.K))) {
			return True()
		}
		return False()
	}
	at := func(c *Cond) *Cond {
		if c.Op != CTrue && c.Op != CFalse {
			c.Pos = f.Pos
		}
		return c
	}
	cmp := func(l *Expr, c CmpOp, r *Expr) *Cond { return at(Compare(l, c, r)) }
	// outside [0, 1] when d > 0, and when d < 0 (the signs flip)
	pos := at(Or(cmp(n, Lt, Lit(0)), cmp(n, Gt, d)))
	neg := at(Or(cmp(n, Gt, Lit(0)), cmp(n, Lt, d)))
	if d.Op == OpConst {
		switch {
		case d.K > 0:
			return pos
		case d.K < 0:
			return neg
		}
		return True()
	}
	return at(Or(
		cmp(d, Eq, Lit(0)),
		at(And(cmp(d, Gt, Lit(0)), pos)),
		at(And(cmp(d, Lt, Lit(0)), neg)),
	))
}

// At is the factor's numerator and denominator in state s, exactly,
// the denominator made non-negative (both negated when it is negative).
func (f ProbFactor) At(s State) (num, den *big.Int) {
	num, den = f.Num.EvalBig(s), f.Den.EvalBig(s)
	if den.Sign() < 0 {
		num, den = new(big.Int).Neg(num), new(big.Int).Neg(den)
	}
	return num, den
}

// badFrac reports whether num/den is no probability: den is 0 or the
// quotient lies outside [0, 1].
func badFrac(num, den *big.Int) bool {
	if den.Sign() < 0 {
		num, den = new(big.Int).Neg(num), new(big.Int).Neg(den)
	}
	return den.Sign() == 0 || num.Sign() < 0 || num.Cmp(den) > 0
}

// ProbAt is o's state-dependent probability in state s, the exact
// product of its factors; bad is the index of the first factor that lies
// outside [0, 1] or divides by zero in s (p is then nil), else -1. It
// returns (nil, -1) when o has no state-dependent probability.
func (o *Outcome) ProbAt(s State) (p *big.Rat, bad int) {
	if len(o.ProbFactors) == 0 {
		return nil, -1
	}
	num, den := big.NewInt(1), big.NewInt(1)
	for i, f := range o.ProbFactors {
		n, d := f.At(s)
		if badFrac(n, d) {
			return nil, i
		}
		num.Mul(num, n)
		den.Mul(den, d)
	}
	return new(big.Rat).SetFrac(num, den), -1
}

// Assign is `Var' = Value`. For Boolean variables Value is an OpBool (or a
// constant 0/1).
type Assign struct {
	Var   VarID
	Value *Expr
	Pos   Pos
}

// Property is `property Name { start .. unsafe .. goal .. }`.
type Property struct {
	Name   string
	Start  *Cond // nil: the single state given by the variables' initial values
	Unsafe *Cond // never nil
	Goal   *Cond // nil: no goal
	Pos    Pos
	// FromModel marks a property read from the model file itself (a JANI
	// model's properties section): a command whose property is optional
	// does not select it by default, and so sees the whole model.
	FromModel bool
	// Query is the quantity a property read from a JANI model asks for
	// (nil for .spec properties): Pmin, Pmax, Emin, Emax, or ∀/∃ for a
	// qualitative path formula, with the bound it is compared with.
	Query *Query
	// Predicates are the abstraction predicates a PlaJA PA property names
	// (its "predicates" member), at PredicatePos (same length). Only
	// predicate abstraction (verify --engine ppa) reads them; every other
	// engine ignores them, and the commands say so.
	Predicates   []*Cond
	PredicatePos []Pos
}

// Query is the operator of a JANI property: Op is "Pmin", "Pmax", "Emin",
// "Emax", "∀" or "∃"; Always says the path formula is G (the property's
// Unsafe is the negated invariant, so P(G ψ) = 1 - P(F Unsafe)); Weak says
// it is a weak until ψ W φ (Unsafe is ¬ψ ∧ ¬φ and Goal φ, both terminal,
// so P(ψ W φ) = 1 - P(F Unsafe)); Cmp and Bound, when Cmp is set, are the
// comparison with a constant (P≥1 [...]).
type Query struct {
	Op     string
	Always bool
	Weak   bool
	Cmp    string // "", "=", "≠", "<", "≤", ">", "≥"
	Bound  float64
	// BoundText is the bound as written (a decimal number), which vigil
	// prob compares with exactly; "" when unknown.
	BoundText string
	// Filter is the JANI filter function over the initial states ("min",
	// "max", "sum", "avg", "count", "∀", "∃", "argmin", "argmax",
	// "values"); "" for a property without a filter (the largest value
	// over the initial states for Pmax, the smallest for Pmin).
	Filter string
	// FilterStates, when not nil, is the filter's "states" where it is
	// not {"op": "initial"}: Filter reduces the values in the reachable
	// states where it holds (as Storm reads such a filter), not in the
	// initial ones. Only vigil prob reads it; FilterText is it as
	// written, for messages.
	FilterStates *Cond
	FilterText   string
	// Reward is what an expected-reward query (Emin, Emax) accumulates
	// until Goal (reward.go); nil for other queries.
	Reward *Reward
	// Bounds, when not nil, bound the path formula or make the expected
	// reward one over the first steps (bounds.go); only vigil prob
	// computes such a query.
	Bounds *PathBounds
	// Written is the property's name as the JANI file writes it, where
	// the import renamed it (Property.Name is an identifier); "" when
	// they agree.
	Written string
}

// Rat is a non-negative or signed rational number p/q with q > 0 when set.
// The zero value (Den == 0) means "not given".
type Rat struct {
	Num, Den int64
}

// IsSet reports whether the rational was given.
func (r Rat) IsSet() bool { return r.Den != 0 }

// Float returns the rational as a float64 (0 when unset).
func (r Rat) Float() float64 {
	if r.Den == 0 {
		return 0
	}
	return float64(r.Num) / float64(r.Den)
}

func (r Rat) String() string {
	if r.Den == 0 {
		return "?"
	}
	if r.Den == 1 {
		return fmt.Sprint(r.Num)
	}
	return fmt.Sprintf("%d/%d", r.Num, r.Den)
}

// VarIndex returns the VarID of the named variable, or -1.
func (m *Model) VarIndex(name string) VarID {
	for i := range m.Vars {
		if m.Vars[i].Name == name {
			return VarID(i)
		}
	}
	return -1
}

// LabelIndex returns the LabelID of the named label, or NoLabel.
func (m *Model) LabelIndex(name string) LabelID {
	for i := range m.Labels {
		if m.Labels[i].Name == name {
			return LabelID(i)
		}
	}
	return NoLabel
}

// Property returns the named property, or nil. With name "" it returns the
// only property when there is exactly one.
func (m *Model) Property(name string) *Property {
	if name == "" {
		if len(m.Properties) == 1 {
			return m.Properties[0]
		}
		return nil
	}
	for _, p := range m.Properties {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Policy returns the named policy declaration, or nil. With name "" it
// returns the only policy when there is exactly one.
func (m *Model) Policy(name string) *PolicyDecl {
	if name == "" {
		if len(m.Policies) == 1 {
			return m.Policies[0]
		}
		return nil
	}
	for _, p := range m.Policies {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// StateSpaceSize returns the product of the variables' range sizes as a
// float64 (it may exceed 2^64) and log2 of it.
func (m *Model) StateSpaceSize() (size float64, log2 float64) {
	size = 1
	for i := range m.Vars {
		n := float64(m.Vars[i].Size())
		size *= n
		log2 += math.Log2(n)
	}
	return size, log2
}

// InitialState returns the state given by the variables' initial values, or
// an error naming the first variable without one.
func (m *Model) InitialState() (State, error) {
	s := make(State, len(m.Vars))
	for i := range m.Vars {
		v := &m.Vars[i]
		if !v.HasInit {
			return nil, fmt.Errorf("symbolic: variable %s (%s) has no initial value and no start condition is given (declare an initial value, or select a property with a start condition, or give --start)", v.Name, v.Pos)
		}
		s[i] = v.Init
	}
	return s, nil
}

// InRange reports the first variable of s outside its range, or -1.
func (m *Model) InRange(s State) VarID {
	for i := range m.Vars {
		if s[i] < m.Vars[i].Lo || s[i] > m.Vars[i].Hi {
			return VarID(i)
		}
	}
	return -1
}

// FormatState writes s as `name=value` pairs (Booleans as true/false, enum
// values by name, an array as `on=[1,0,2]`), the
// form `vigil run --from` reads back.
func (m *Model) FormatState(s State) string {
	b := make([]byte, 0, 16*len(s))
	value := func(i int) {
		if m.Vars[i].Bool || m.Vars[i].Values != nil {
			b = append(b, m.Vars[i].ValueName(s[i])...)
		} else {
			b = strconv.AppendInt(b, int64(s[i]), 10)
		}
	}
	for r, run := range m.VarRuns() {
		if r > 0 {
			b = append(b, ' ')
		}
		b = append(b, run.Name...)
		b = append(b, '=')
		if !run.Array {
			value(run.First)
			continue
		}
		b = append(b, '[')
		for i := run.First; i < run.First+run.N; i++ {
			if i > run.First {
				b = append(b, ',')
			}
			value(i)
		}
		b = append(b, ']')
	}
	return string(b)
}

// Applicable writes into app[l] whether label l is applicable in s (some
// command of l has a true guard). len(app) must be len(m.Labels).
func (m *Model) Applicable(s State, app []bool) {
	clear(app)
	for i := range m.Commands {
		c := &m.Commands[i]
		if !app[c.Label] && c.Guard.Holds(s) {
			app[c.Label] = true
		}
	}
}
