package prob

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"strings"

	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// Target returns the states whose status is st (Goal or Unsafe).
func (m *Model) Target(st explicit.Status) []bool {
	t := make([]bool, m.NumStates())
	for s, x := range m.Status {
		t[s] = x == st
	}
	return t
}

// Summary is a result seen from the start states.
type Summary struct {
	// Lower and Upper bound the value over the start states: the largest
	// (Max*) and smallest (Min*) start-state values, and their average
	// over the start states (the uniform start distribution). The largest
	// value lies between the largest lower bound and the largest upper
	// bound, which may be two states' (a tight bound of one state next to
	// a loose one of another), and so for the smallest.
	MaxLower, MaxUpper float64
	MinLower, MinUpper float64
	AvgLower, AvgUpper float64
	// Worst is the start state of the largest value (the smallest id on
	// ties); Best the one of the smallest.
	Worst, Best uint32
	// ExactMax, ExactMin and ExactAvg are the rational values when the
	// method was exact.
	ExactMax, ExactMin, ExactAvg *big.Rat
}

// Summarize returns the extremes and the average of r over m's start
// states.
func Summarize(m *Model, r *Result) Summary {
	var s Summary
	s.MinLower, s.MinUpper = 2, 2
	s.MaxLower, s.MaxUpper = -1, -1
	sum := new(big.Rat)
	for i := 0; i < m.Starts; i++ {
		id := uint32(i)
		l, u := r.Lower[id], r.Upper[id]
		if i == 0 || r.Value(id) > r.Value(s.Worst) {
			s.Worst = id
		}
		if i == 0 || r.Value(id) < r.Value(s.Best) {
			s.Best = id
		}
		if i == 0 {
			s.MaxLower, s.MaxUpper, s.MinLower, s.MinUpper = l, u, l, u
		}
		s.MaxLower, s.MaxUpper = max(s.MaxLower, l), max(s.MaxUpper, u)
		s.MinLower, s.MinUpper = min(s.MinLower, l), min(s.MinUpper, u)
		s.AvgLower += l
		s.AvgUpper += u
		if r.Exact != nil {
			sum.Add(sum, r.exactAt(id))
		}
	}
	if m.Starts > 0 {
		s.AvgLower /= float64(m.Starts)
		s.AvgUpper /= float64(m.Starts)
		if math.IsInf(s.AvgLower, 1) && !math.IsInf(s.MaxLower, 1) || math.IsInf(s.AvgUpper, 1) && !math.IsInf(s.MaxUpper, 1) {
			// finite expected rewards whose sum overflowed float64:
			// each divided first (+Inf is an infinite one)
			s.AvgLower, s.AvgUpper = 0, 0
			for i := range m.Starts {
				s.AvgLower += r.Lower[i] / float64(m.Starts)
				s.AvgUpper += r.Upper[i] / float64(m.Starts)
			}
		}
	}
	if r.Exact != nil {
		// The extremes compared as rationals: distinct values may have
		// one float64.
		for i := range uint32(m.Starts) {
			if r.exactAt(i).Cmp(r.exactAt(s.Worst)) > 0 {
				s.Worst = i
			}
			if r.exactAt(i).Cmp(r.exactAt(s.Best)) < 0 {
				s.Best = i
			}
		}
		s.ExactMax, s.ExactMin = r.exactAt(s.Worst), r.exactAt(s.Best)
		s.ExactAvg = sum.Quo(sum, big.NewRat(int64(m.Starts), 1))
	}
	return s
}

// exactAt is r.Exact[s], r.Inf where that is infinite (nil).
func (r *Result) exactAt(s uint32) *big.Rat {
	if r.Exact[s] == nil && r.Inf != nil {
		return r.Inf
	}
	return r.Exact[s]
}

// Schedule names the label each state's choice takes under r's scheduler
// (NoLabel where there is none).
func (m *Model) Schedule(r *Result) []symbolic.LabelID {
	out := make([]symbolic.LabelID, m.NumStates())
	for s, c := range r.Sched {
		out[s] = symbolic.NoLabel
		if c >= 0 {
			out[s] = m.Label[c]
		}
	}
	return out
}

// StateOf returns the state with id s.
func (m *Model) StateOf(s uint32) symbolic.State {
	st := make(symbolic.State, len(m.G.M.Vars))
	m.G.L.Unpack(m.Store.Get(s), st)
	return st
}

// Unsupported returns why vigil prob cannot compute a property read from a
// JANI model ("" when it can): expected rewards are not probabilities.
// Time-, step- and reward-bounded, steady-state and nested properties are
// not imported at all (the import notes name them).
func Unsupported(p *symbolic.Property) string {
	if p == nil || p.Query == nil {
		return ""
	}
	switch p.Query.Op {
	case "Emin", "Emax":
		r := p.Query.Reward
		switch {
		case r == nil:
			return fmt.Sprintf("property %s is an expected reward (%s) whose reward was not read; vigil prob computes expected rewards of JANI models' transient variables", p.Name, p.Query.Op)
		case r.Unsupported != "":
			return fmt.Sprintf("property %s is an expected reward (%s) that vigil prob does not compute: %s", p.Name, p.Query.Op, r.Unsupported)
		case p.Query.Bounds != nil && p.Query.Bounds.Instant:
		case p.Goal == nil || p.Unsafe.Op != symbolic.CFalse:
			return fmt.Sprintf("property %s is an expected reward (%s) of other than reaching a goal (\"reach\"), which vigil prob does not compute", p.Name, p.Query.Op)
		}
	}
	return ""
}

// Query is one probability vigil prob computes: Pmax or Pmin of reaching
// the goal (or the unsafe) states, possibly as a complement (P(G ψ) = 1 -
// P(F ¬ψ)) and compared with a bound.
type Query struct {
	Name       string
	Target     explicit.Status // Goal or Unsafe
	Max        bool
	Complement bool    // the value asked for is 1 - P
	Until      bool    // the unsafe states stop a run before the goal: ¬unsafe U goal
	Weak       bool    // a complemented weak until: ψ W goal with unsafe = ¬ψ ∧ ¬goal
	Cmp        string  // "", or a comparison with Bound
	Bound      float64 //
	// BoundExact is the bound as written, exactly (a decimal such as
	// 0.3333333333333333 is not the float64 Bound, nor is 1/3 that
	// decimal); nil: Bound.
	BoundExact *big.Rat
	// Filter is the JANI filter function over the start states (filter.go);
	// "": the largest value for Pmax, the smallest for Pmin.
	Filter string
	// FilterStates, when not nil, is the filter's states: the reachable
	// states where it holds (as Storm reads a filter over a state
	// formula), written FilterText; nil: the start states.
	FilterStates *symbolic.Cond
	FilterText   string
	// Where is the position of the property (for errors), "" when unknown.
	Where string
	// Reward, when not nil, makes the query an expected reward (Emin,
	// Emax: reward.go) of reaching the goal, not a probability.
	Reward *symbolic.Reward
	// Bounds, when not nil, bound the query (bounded.go): steps or an
	// accumulated reward, or the reward of the first steps.
	Bounds *symbolic.PathBounds
	// Written is the property's name as its JANI file writes it (""
	// when it is Name).
	Written string
}

// String is the query in PRISM's notation.
func (q Query) String() string {
	op := "Pmin"
	if q.Max {
		op = "Pmax"
	}
	what := "F goal"
	if q.Until {
		what = "¬unsafe U goal"
	}
	if q.Target == explicit.Unsafe {
		what = "F unsafe"
	}
	if q.Complement {
		// 1 - Pmin(F unsafe) = Pmax(G ¬unsafe), and the other way round.
		what = "G ¬unsafe"
		if q.Weak {
			what = "¬unsafe W goal"
		}
		op = map[string]string{"Pmin": "Pmax", "Pmax": "Pmin"}[op]
	}
	if q.Reward != nil {
		op = "Emin(" + q.Reward.Name + ")"
		if q.Max {
			op = "Emax(" + q.Reward.Name + ")"
		}
	}
	if b := q.Bounds; b != nil {
		switch {
		case b.Instant:
			what = "C<=" + b.Upper.RatString()
		case b.Steps:
			lo, hi := b.StepRange()
			bound := "<=" + hi.String()
			if lo.Sign() > 0 {
				bound = fmt.Sprintf("[%s,%s]", lo, hi)
			}
			what = strings.Replace(what, "F ", "F"+bound+" ", 1)
			what = strings.Replace(what, " U ", " U"+bound+" ", 1)
		default:
			what += " with " + b.Text
		}
	}
	s := fmt.Sprintf("%s=? [%s]", op, what)
	if q.Cmp != "" {
		s = fmt.Sprintf("%s%s%g [%s]", op, q.Cmp, q.Bound, what)
		if math.IsInf(q.Bound, 0) && q.BoundExact != nil {
			// beyond float64 (1e400): as written, not +Inf
			s = fmt.Sprintf("%s%s%s [%s]", op, q.Cmp, new(big.Float).SetRat(q.BoundExact).Text('g', 10), what)
		}
	}
	if q.Filter != "" {
		states := "initial"
		if q.FilterStates != nil {
			states = q.FilterText
		}
		s = fmt.Sprintf("filter(%s, %s, %s)", q.Filter, s, states)
	}
	return s
}

// PropertyQuery returns the query of a property read from a JANI model
// (Property.Query set), or why vigil prob does not compute it.
func PropertyQuery(p *symbolic.Property) (Query, error) {
	if why := Unsupported(p); why != "" {
		return Query{}, fmt.Errorf("prob: %s: %s", p.Pos, why)
	}
	if p.Query == nil {
		return Query{}, fmt.Errorf("prob: %s: property %s is not a probability of the model file (P=?, Pmax=?, Pmin=?); vigil prob computes Pr(reach unsafe) and Pr(reach goal) for it", p.Pos, p.Name)
	}
	q := Query{Name: p.Name, Cmp: p.Query.Cmp, Bound: p.Query.Bound, Filter: p.Query.Filter, FilterStates: p.Query.FilterStates, FilterText: p.Query.FilterText,
		Bounds: p.Query.Bounds, Written: p.Query.Written}
	if r, ok := new(big.Rat).SetString(p.Query.BoundText); ok {
		q.BoundExact = r
	}
	switch p.Query.Op {
	case "Pmax":
		q.Max = true
	case "Pmin":
	case "Emin", "Emax":
		q.Reward, q.Max, q.Target = p.Query.Reward, p.Query.Op == "Emax", explicit.Goal
		q.Where = p.Pos.String()
		if why := checkFilter(q, 0); why != "" {
			return Query{}, fmt.Errorf("prob: %s: property %s: %s", p.Pos, p.Name, why)
		}
		return q, nil
	default:
		return Query{}, fmt.Errorf("prob: %s: property %s is a qualitative path property (%s), not a probability; vigil verify and vigil safe decide those", p.Pos, p.Name, p.Query.Op)
	}
	switch {
	case p.Query.Always:
		// P(G ψ) = 1 - P(F ¬ψ), with max and min exchanged.
		q.Target, q.Complement, q.Max = explicit.Unsafe, true, !q.Max
	case p.Query.Weak:
		// P(ψ W φ) = 1 - P(¬φ U (¬ψ ∧ ¬φ)): the goal φ is terminal, so
		// the second is P(F unsafe).
		q.Target, q.Complement, q.Max, q.Weak = explicit.Unsafe, true, !q.Max, true
	case p.Goal != nil:
		q.Target = explicit.Goal
		q.Until = p.Unsafe.Op != symbolic.CFalse
	default:
		q.Target = explicit.Unsafe
	}
	q.Where = p.Pos.String()
	if why := checkFilter(q, 0); why != "" {
		return Query{}, fmt.Errorf("prob: %s: property %s: %s", p.Pos, p.Name, why)
	}
	return q, nil
}

// Answer is a query's value over the start states.
type Answer struct {
	Query   Query
	Result  *Result
	Summary Summary
	// Value, Lower and Upper are the answer: with one start state its
	// value; with several, the largest for Pmax and the smallest for Pmin
	// (the start state is chosen like the scheduler's choices). A
	// complemented query's answer is 1 - P.
	Value, Lower, Upper float64
	Exact               *big.Rat // method exact
	// Holds is "true", "false" or "unknown" (the bounds straddle the
	// bound) for a query with a comparison; "" under the filter "count",
	// and under "values" when the start states disagree.
	Holds string
	// Extreme is what Value is over the start states under a filter
	// function (filter.go): "largest", "smallest", "average", "sum",
	// "count" (of the start states where the comparison holds), "values"
	// (Value as without a filter; Values has each); "" without a filter.
	Extreme string
	Values  []StateAnswer // filter "values": the answer in each start state
	// Filtered is the filter's states where Query.FilterStates is set:
	// the reachable states where it holds (nil otherwise: the start
	// states). At is the one of them whose value is the answer under
	// "min" or "max" (valid when HasAt).
	Filtered []uint32
	At       uint32
	HasAt    bool
	// beyond is a finite reduced value whose float64 bound overflowed
	// (a sum of expected rewards near float64's top): Ask refuses it.
	beyond *big.Rat
}

// Ask solves q on m. A filter over a state formula (q.FilterStates)
// reduces over m's states where it holds: m is then built with
// Options.Full (SolveProperty does), to hold the states past goal and
// unsafe ones that Storm's model has.
func Ask(ctx context.Context, m *Model, q Query, opt SolveOptions) (*Answer, error) {
	states := m.Starts
	var filtered []uint32
	if q.FilterStates != nil {
		for id := range uint32(m.NumStates()) {
			if q.FilterStates.Holds(m.StateOf(id)) {
				filtered = append(filtered, id)
			}
		}
		if len(filtered) == 0 {
			return nil, &FilterError{fmt.Sprintf("prob: %s: property %s: no reachable state satisfies its filter's states (%s), so its filter function %q has nothing to reduce (of %d reachable states)", q.Where, q.Name, q.FilterText, q.Filter, m.NumStates())}
		}
		states = len(filtered)
	}
	if why := checkFilter(q, states); why != "" {
		return nil, &FilterError{fmt.Sprintf("prob: %s: property %s: %s", q.Where, q.Name, why)}
	}
	opt.Max = q.Max
	var r *Result
	var err error
	if q.Bounds != nil {
		r, err = solveBounded(ctx, m, q, opt, opt.maxStates)
	} else if q.Reward != nil {
		var rew []*big.Rat
		who := "property " + q.Name
		if q.Where != "" {
			who = q.Where + ": " + who
		}
		if rew, err = ChoiceRewards(ctx, m, q.Reward, who); err != nil {
			return nil, err
		}
		r, err = SolveReward(ctx, m, m.Target(explicit.Goal), rew, opt)
		if err == nil && q.Cmp != "" {
			// An infinite value compares as r.Inf: above the bound too
			// (inf ≤ 1e400 is false).
			b := q.BoundExact
			if b == nil {
				b = new(big.Rat).SetFloat64(q.Bound)
			}
			if b != nil {
				r.coverBound(b)
			}
		}
	} else {
		r, err = Solve(ctx, m, m.Target(q.Target), opt)
	}
	if err != nil {
		return nil, err
	}
	a := &Answer{Query: q, Result: r, Summary: Summarize(m, r), Filtered: filtered}
	s := a.Summary
	a.Lower, a.Upper, a.Exact = s.MinLower, s.MinUpper, s.ExactMin
	if q.Max {
		a.Lower, a.Upper, a.Exact = s.MaxLower, s.MaxUpper, s.ExactMax
	}
	// The bounds as rationals: 1 - u in float64 rounds (1 - 1e-20 is 1),
	// so a complement is taken exactly and rounded outwards.
	lo, hi := ratOf(r, a.Lower), ratOf(r, a.Upper)
	if a.Exact != nil {
		// The float64 bounds of an exact value enclose it: 1e-3000 is
		// [0, 5e-324], not [0, 0], which would say it is 0.
		lo, hi = a.Exact, a.Exact
		a.Lower, a.Upper = r.below(lo), r.above(hi)
	}
	if q.Complement {
		one := big.NewRat(1, 1)
		lo, hi = new(big.Rat).Sub(one, hi), new(big.Rat).Sub(one, lo)
		a.Lower, a.Upper = floatBelow(lo), floatAbove(hi)
		if a.Exact != nil {
			a.Exact = lo
		}
	}
	a.Value = mid(a.Lower, a.Upper)
	if a.Exact != nil && !r.IsInf(a.Exact) {
		a.Value, _ = a.Exact.Float64()
	}
	if q.Cmp != "" {
		b := q.BoundExact
		if b == nil {
			b = new(big.Rat)
			if b.SetFloat64(q.Bound) == nil {
				return nil, fmt.Errorf("prob: property %s: the bound %g is not a number", q.Name, q.Bound)
			}
		}
		a.Holds = holds(lo, hi, q.Cmp, b)
		if q.Filter != "" {
			applyFilter(m, a, b)
		}
	} else if q.Filter != "" {
		applyFilter(m, a, nil)
	}
	if a.beyond != nil {
		return nil, &FilterError{fmt.Sprintf("prob: %s: property %s: the %s over the start states, %s, is finite but beyond float64 (+Inf would say infinite); vigil prob reports values up to %g", q.Where, q.Name, a.Extreme, new(big.Float).SetRat(a.beyond).Text('g', 10), math.MaxFloat64)}
	}
	return a, nil
}

// ratOf is the float64 bound x of a value of r as a rational: r.Inf for
// an infinite one.
func ratOf(r *Result, x float64) *big.Rat {
	if math.IsInf(x, 1) && r.Inf != nil {
		return r.Inf
	}
	return new(big.Rat).SetFloat64(x)
}

// mid is the midpoint of [lo, hi]: (lo + hi) / 2 overflows to +Inf
// above MaxFloat64 / 2, which stands for an infinite expected reward.
func mid(lo, hi float64) float64 {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return (lo + hi) / 2
	}
	return lo/2 + hi/2
}

// floatBelow and floatAbove round r to a float64 towards -inf and +inf.
func floatBelow(r *big.Rat) float64 {
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		// beyond float64 (SetFloat64 would be nil)
		if f > 0 {
			return math.MaxFloat64
		}
		return f
	}
	if new(big.Rat).SetFloat64(f).Cmp(r) > 0 {
		f = math.Nextafter(f, math.Inf(-1))
	}
	return f
}

func floatAbove(r *big.Rat) float64 {
	f, _ := r.Float64()
	if math.IsInf(f, 0) {
		if f < 0 {
			return -math.MaxFloat64
		}
		return f
	}
	if new(big.Rat).SetFloat64(f).Cmp(r) < 0 {
		f = math.Nextafter(f, math.Inf(1))
	}
	return f
}

// holds says whether a value in [lo, hi] compares with b as cmp says:
// "true" or "false" when every value of the interval agrees, else
// "unknown" (for "=", a value strictly inside the interval may be b or
// not).
func holds(lo, hi *big.Rat, cmp string, b *big.Rat) string {
	cl, ch := lo.Cmp(b), hi.Cmp(b) // -1, 0, +1
	var yes, no bool
	switch cmp {
	case "=":
		yes, no = cl == 0 && ch == 0, ch < 0 || cl > 0
	case "≠":
		yes, no = ch < 0 || cl > 0, cl == 0 && ch == 0
	case "<":
		yes, no = ch < 0, cl >= 0
	case "≤":
		yes, no = ch <= 0, cl > 0
	case ">":
		yes, no = cl > 0, ch <= 0
	default: // ≥
		yes, no = cl >= 0, ch < 0
	}
	switch {
	case yes:
		return "true"
	case no:
		return "false"
	}
	return "unknown"
}
