package prob

// JANI filter functions over the initial states. A JANI property is
// {"op": "filter", "fun": F, "states": {"op": "initial"}, "values": V}:
// V is computed in every initial state and F reduces those values to the
// answer, as Storm reads it (storm-cli-utilities printFilteredResult):
//
//   - V a probability (P=?): "min", "max", "sum", "avg" of the values, or
//     "values", all of them;
//   - V a comparison with a bound (P≥0.4 [...]): "∀" (holds in every
//     initial state), "∃" (in some), "count" (in how many), or "values".
//
// Storm refuses the other pairings, and "argmin" and "argmax" (sets of
// states); so does vigil prob, naming the property and what to write.
// A property without a filter (which Storm does not read) keeps vigil's
// reading: the largest value over the start states for Pmax, the
// smallest for Pmin.

import (
	"fmt"
	"math"
	"math/big"
)

// checkFilter says why vigil prob cannot answer q's filter function on a
// model of starts start states (0: not known yet), or "" when it can.
// Over one start state every filter but "count" leaves the value as it
// is, so a function of numbers over a comparison (or of truth values
// over a probability), which Storm refuses, is refused only when there
// are several: a model with one initial state keeps its answer.
func checkFilter(q Query, starts int) string {
	each := "each initial state"
	if starts > 1 {
		each = fmt.Sprintf("each of the model's %d initial states", starts)
	}
	switch q.Filter {
	case "", "values":
		return ""
	case "min", "max", "sum", "avg":
		if q.Cmp != "" && starts > 1 {
			return fmt.Sprintf("its filter function %q reduces probabilities, but its values compare a probability with the bound %s (true or false in %s), which Storm refuses too: use \"fun\": \"∀\", \"∃\", \"count\" or \"values\" over the comparison, or drop the comparison to reduce the probabilities themselves", q.Filter, fmt.Sprint(q.Bound), each)
		}
	case "∀", "∃", "count":
		if q.Cmp == "" && (starts > 1 || q.Filter == "count") {
			return fmt.Sprintf("its filter function %q reduces truth values, but its values are probabilities (one in %s), which Storm refuses too: compare the probability with a bound ({\"op\": \"≥\", \"left\": {\"op\": \"Pmax\", ...}, \"right\": 0.5}), or use \"fun\": \"min\", \"max\", \"sum\", \"avg\" or \"values\"", q.Filter, each)
		}
	case "argmin", "argmax":
		return fmt.Sprintf("its filter function %q asks for a set of states, which vigil prob does not print (nor does Storm): use \"fun\": %q; vigil prob names a start state that attains it (best_start, worst_start in --json)", q.Filter, q.Filter[3:])
	default:
		return fmt.Sprintf("its filter function %q is not one JANI defines (\"min\", \"max\", \"sum\", \"avg\", \"count\", \"∀\", \"∃\", \"argmin\", \"argmax\", \"values\")", q.Filter)
	}
	return ""
}

// FilterError is Ask's refusal of a filter function that the model's
// several start states make meaningless (checkFilter), or of a negative
// reward (ChoiceRewards): vigil prob --property all skips the property,
// as it skips those PropertyQuery refuses.
type FilterError struct{ msg string }

func (e *FilterError) Error() string { return e.msg }

// StateAnswer is the answer in one start state (filter "values").
type StateAnswer struct {
	State        uint32
	Lower, Upper float64
	Exact        *big.Rat // method exact
	Holds        string   // with a comparison: "true", "false" or "unknown"
}

// stateBounds are the bounds of q's quantity in state s (1 - P for a
// complement), exact rationals when r is exact.
func stateBounds(q Query, r *Result, s uint32) (lo, hi *big.Rat) {
	if r.Inf != nil && math.IsInf(r.Upper[s], 1) && (r.Exact == nil || r.Exact[s] == nil) {
		return r.Inf, r.Inf
	}
	if r.Exact != nil {
		lo, hi = r.Exact[s], r.Exact[s]
	} else {
		lo, hi = new(big.Rat).SetFloat64(r.Lower[s]), new(big.Rat).SetFloat64(r.Upper[s])
	}
	if q.Complement {
		one := big.NewRat(1, 1)
		lo, hi = new(big.Rat).Sub(one, hi), new(big.Rat).Sub(one, lo)
	}
	return lo, hi
}

// applyFilter sets a's answer from its query's filter function over m's
// start states (checkFilter has accepted it); b is the bound of a
// comparison (nil without one). lo and hi bound the answer: the answer
// is exact when a.Exact is set.
func applyFilter(m *Model, a *Answer, b *big.Rat) {
	q := a.Query
	n := m.Starts
	id := func(i int) uint32 { return uint32(i) }
	if a.Filtered != nil {
		// over the reachable states where the filter's formula holds
		n = len(a.Filtered)
		id = func(i int) uint32 { return a.Filtered[i] }
	} else if n == 0 || n == 1 && q.Filter != "count" {
		return // one value, as Ask computed it
	}
	exact := a.Result.Exact != nil
	set := func(lo, hi *big.Rat, exact bool) {
		a.Lower, a.Upper, a.Exact = a.Result.below(lo), a.Result.above(hi), nil
		a.Value = (a.Lower + a.Upper) / 2
		if exact {
			a.Exact = lo
			a.Value, _ = lo.Float64()
		}
	}
	// extreme sets the answer to the smallest (or largest) value over the
	// start states: its bounds are the smallest (largest) of the bounds.
	extreme := func(largest bool) (lo, hi *big.Rat) {
		for i := range n {
			l, h := stateBounds(q, a.Result, id(i))
			if lo == nil || better(l, lo, largest) {
				lo = l
				a.At, a.HasAt = id(i), true
			}
			if hi == nil || better(h, hi, largest) {
				hi = h
			}
		}
		set(lo, hi, exact)
		a.Extreme = "smallest"
		if largest {
			a.Extreme = "largest"
		}
		return lo, hi
	}
	switch q.Filter {
	case "min", "max":
		extreme(q.Filter == "max")
	case "sum", "avg":
		lo, hi := new(big.Rat), new(big.Rat)
		for i := range n {
			l, h := stateBounds(q, a.Result, id(i))
			lo.Add(lo, l)
			hi.Add(hi, h)
		}
		a.Extreme = "sum"
		if q.Filter == "avg" && n > 0 {
			k := big.NewRat(int64(n), 1)
			lo.Quo(lo, k)
			hi.Quo(hi, k)
			a.Extreme = "average"
		}
		set(lo, hi, exact)
	case "∀", "∃":
		// A value that holds by a monotone comparison (≥, >, ≤, <) holds
		// in every start state when it holds for the extreme one (the
		// smallest for ≥, >), in some when for the other extreme: the
		// bounds of an extreme are the extremes of the bounds, so even
		// "unknown" agrees with the states' three-valued conjunction.
		forall := q.Filter == "∀"
		switch q.Cmp {
		case "≥", ">":
			lo, hi := extreme(!forall)
			a.Holds = holds(lo, hi, q.Cmp, b)
		case "≤", "<":
			lo, hi := extreme(forall)
			a.Holds = holds(lo, hi, q.Cmp, b)
		default: // = and ≠: state by state
			yes, no := 0, 0
			for i := range n {
				l, h := stateBounds(q, a.Result, id(i))
				switch holds(l, h, q.Cmp, b) {
				case "true":
					yes++
				case "false":
					no++
				}
			}
			a.Holds = "unknown"
			switch {
			case forall && no > 0, !forall && yes == 0 && no == n:
				a.Holds = "false"
			case forall && yes == n, !forall && yes > 0:
				a.Holds = "true"
			}
		}
	case "count":
		yes, maybe := 0, 0
		for i := range n {
			l, h := stateBounds(q, a.Result, id(i))
			switch holds(l, h, q.Cmp, b) {
			case "true":
				yes++
			case "unknown":
				maybe++
			}
		}
		set(big.NewRat(int64(yes), 1), big.NewRat(int64(yes+maybe), 1), maybe == 0)
		a.Holds, a.Extreme = "", "count"
	case "values":
		a.Values = make([]StateAnswer, n)
		yes, no := 0, 0
		for i := range n {
			l, h := stateBounds(q, a.Result, id(i))
			v := StateAnswer{State: id(i), Lower: a.Result.below(l), Upper: a.Result.above(h)}
			if exact {
				v.Exact = l
			}
			if b != nil {
				v.Holds = holds(l, h, q.Cmp, b)
				switch v.Holds {
				case "true":
					yes++
				case "false":
					no++
				}
			}
			a.Values[i] = v
		}
		a.Extreme = "values"
		if b != nil {
			// One truth value only when every start state agrees.
			a.Holds = ""
			switch {
			case yes == n:
				a.Holds = "true"
			case no == n:
				a.Holds = "false"
			}
		}
	}
}

// better says whether x is beyond y: larger when largest, else smaller.
func better(x, y *big.Rat, largest bool) bool {
	if largest {
		return x.Cmp(y) > 0
	}
	return x.Cmp(y) < 0
}

// shownFilter is the filter function the query's text names: none where
// it changes nothing, the filter a property without one has (max for
// Pmax, min for Pmin), or one start state under any but "count".
func shownFilter(q Query, starts int) string {
	def := "min"
	if q.Max != q.Complement { // Pmax as written
		def = "max"
	}
	if q.FilterStates == nil && (q.Filter == def || starts == 1 && q.Filter != "count") {
		return ""
	}
	return q.Filter
}

// below and above are floatBelow and floatAbove, +Inf for a value that
// is infinite (at least r.Inf).
func (r *Result) below(x *big.Rat) float64 {
	if r.IsInf(x) {
		return math.Inf(1)
	}
	return floatBelow(x)
}

func (r *Result) above(x *big.Rat) float64 {
	if r.IsInf(x) {
		return math.Inf(1)
	}
	return floatAbove(x)
}

// IsInf says whether x, a value reduced from r's, is infinite.
func (r *Result) IsInf(x *big.Rat) bool { return r.InfAt != nil && x.Cmp(r.InfAt) >= 0 }
