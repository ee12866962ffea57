package prob

// The report of vigil prob: one Figures per query answered (the --json
// shape), and the text the command prints for a property.

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Figures is one query's answer as vigil prob --json prints it: the value
// and its bounds, the extremes and average over the start states, and the
// size of the model solved.
type Figures struct {
	// Property is the property's name as its file writes it; ID is
	// vigil's identifier for it (a JANI name that is no identifier, such
	// as goal, is renamed goal_ at import; --property takes either).
	Property string  `json:"property"`
	ID       string  `json:"id"`
	Query    string  `json:"query"`
	Value    float64 `json:"value"`
	Lower    float64 `json:"lower"`
	Upper    float64 `json:"upper"`
	Exact    string  `json:"exact,omitempty"`
	Holds    string  `json:"holds,omitempty"`
	// FilterStates is the filter's state formula where it is not the
	// initial states, and Filtered the number of reachable states where
	// it holds, over which the filter function reduced the values.
	FilterStates string `json:"filter_states,omitempty"`
	Filtered     int    `json:"filter_state_count,omitempty"`
	Method       string `json:"method"`
	States       int    `json:"states"`
	Choices      int    `json:"choices"`
	Iterations   int    `json:"iterations"`
	Rounds       int    `json:"rounds,omitempty"`
	// FloatComponents and RationalComponents: the strongly connected
	// components interval iteration solved directly, in float64
	// intervals and in rationals (Result's fields of those names).
	FloatComponents    int     `json:"float_components,omitempty"`
	RationalComponents int     `json:"rational_components,omitempty"`
	Seconds            float64 `json:"seconds"`
	Starts             int     `json:"start_states"`
	Max                float64 `json:"max"`
	Min                float64 `json:"min"`
	Average            float64 `json:"average"`
	// MaxBounds, MinBounds and AvgBounds enclose Max, Min and Average
	// (lower, upper) when they are not exact: interval iteration's
	// bounds, of which the three are the midpoints.
	MaxBounds []float64 `json:"max_bounds,omitempty"`
	MinBounds []float64 `json:"min_bounds,omitempty"`
	AvgBounds []float64 `json:"average_bounds,omitempty"`
	Worst     string    `json:"worst_start"`
	Best      string    `json:"best_start"`
	Zero      int       `json:"prob0_states"`
	One       int       `json:"prob1_states"`
	Policy    string    `json:"policy,omitempty"`
	Labels    []string  `json:"worst_start_label,omitempty"`
	Blame     []Blamed  `json:"blame,omitempty"`
	// Stuck is the number of reachable states where the policy is stuck
	// (its runs end there).
	Stuck int `json:"stuck_states,omitempty"`
	// Uneven is the number of reachable states where a command's
	// state-dependent probabilities do not sum to 1 (Model.Uneven).
	Uneven int `json:"uneven_states,omitempty"`
	// Values is the answer in each start state, for a JANI property
	// whose filter function is "values".
	Values []StateFigures `json:"values,omitempty"`
	// Extreme is which start state's value Value is, "largest" or
	// "smallest" (NewFigures sets it; "": read from Query's operator), or
	// under a JANI filter function what Value is over the start states:
	// "average", "sum", "count", "values" (Answer.Extreme). On a Markov
	// chain Query reads P=? and says no more.
	Extreme string `json:"-"`
	// At and AtLabels are the start state whose value is the answer
	// (Worst for the largest, Best for the smallest) and the label the
	// scheduler takes there; "" and nil when not set.
	At       string   `json:"-"`
	AtLabels []string `json:"-"`
}

// StateFigures is the answer in one start state (JANI filter "values").
type StateFigures struct {
	State string  `json:"state"`
	Value float64 `json:"value"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
	Exact string  `json:"exact,omitempty"`
	Holds string  `json:"holds,omitempty"`
}

// Blamed is one costly decision (Decision) with state and label names.
type Blamed struct {
	State     string  `json:"state"`
	Label     string  `json:"label"`
	Better    string  `json:"better"`
	Gap       float64 `json:"gap"`
	Before    float64 `json:"before"`
	After     float64 `json:"after"`
	BeforeMax float64 `json:"before_max"`
	AfterMax  float64 `json:"after_max"`
}

// NewFigures describes the answer a on pm, solved with method (ii or
// exact) under the policy named policy ("" for the MDP). On a Markov
// chain (chain) a query without a bound reads P, not Pmax or Pmin.
func NewFigures(pm *Model, a *Answer, policy string, chain bool, method string) Figures {
	m := pm.G.M
	s := a.Summary
	shown := a.Query
	shown.Filter = shownFilter(a.Query, pm.Starts)
	q := shown.String()
	if chain && policy != "" && a.Query.Cmp == "" {
		q = strings.Replace(strings.Replace(q, "Pmax", "P", 1), "Pmin", "P", 1)
	}
	name := a.Query.Name
	if a.Query.Written != "" {
		name = a.Query.Written
	}
	f := Figures{
		Property: name, Query: q, ID: a.Query.Name, Value: a.Value, Lower: a.Lower, Upper: a.Upper, Holds: a.Holds,
		Method: method, States: pm.NumStates(), Choices: pm.NumChoices(), Iterations: a.Result.Iterations, Rounds: a.Result.Rounds,
		FloatComponents: a.Result.FloatComponents, RationalComponents: a.Result.RationalComponents,
		Seconds: (pm.Elapsed + a.Result.Elapsed).Seconds(), Starts: pm.Starts,
		Max: mid(s.MaxLower, s.MaxUpper), Min: mid(s.MinLower, s.MinUpper), Average: mid(s.AvgLower, s.AvgUpper),
		Worst: m.FormatState(pm.StateOf(s.Worst)), Best: m.FormatState(pm.StateOf(s.Best)),
		Zero: a.Result.Zero, One: a.Result.One, Policy: policy,
		Extreme: "smallest",
	}
	if a.Query.Max != a.Query.Complement {
		// Pmax's answer is the largest start-state value; 1 - Pmax is
		// the smallest (Ask).
		f.Extreme = "largest"
	}
	if a.Extreme != "" {
		f.Extreme = a.Extreme
	}
	if a.Exact != nil {
		f.Exact = a.Exact.RatString()
		if a.Result.IsInf(a.Exact) {
			f.Exact = "inf"
		}
	}
	for _, v := range a.Values {
		sf := StateFigures{State: m.FormatState(pm.StateOf(v.State)), Value: mid(v.Lower, v.Upper), Lower: v.Lower, Upper: v.Upper, Holds: v.Holds}
		if v.Exact != nil {
			sf.Exact = v.Exact.RatString()
			sf.Value, _ = v.Exact.Float64()
			if a.Result.IsInf(v.Exact) {
				sf.Exact, sf.Value = "inf", math.Inf(1)
			}
		}
		f.Values = append(f.Values, sf)
	}
	if s.MaxLower != s.MaxUpper || s.MinLower != s.MinUpper || s.AvgLower != s.AvgUpper {
		f.MaxBounds = []float64{s.MaxLower, s.MaxUpper}
		f.MinBounds = []float64{s.MinLower, s.MinUpper}
		f.AvgBounds = []float64{s.AvgLower, s.AvgUpper}
	}
	if a.Query.Complement {
		f.Max, f.Min = 1-f.Min, 1-f.Max
		f.Average = 1 - f.Average
		f.Worst, f.Best = f.Best, f.Worst
		if f.MaxBounds != nil {
			f.MaxBounds, f.MinBounds = []float64{1 - s.MinUpper, 1 - s.MinLower}, []float64{1 - s.MaxUpper, 1 - s.MaxLower}
			f.AvgBounds = []float64{1 - s.AvgUpper, 1 - s.AvgLower}
		}
	}
	// The summary's Worst and Best are those of P; for a complement
	// (1 - P) they trade places, as f.Worst and f.Best did above.
	worst, best := s.Worst, s.Best
	if a.Query.Complement {
		worst, best = best, worst
	}
	labelAt := func(id uint32) []string {
		if c := a.Result.Sched[id]; c >= 0 {
			return []string{m.Labels[pm.Label[c]].Name}
		}
		return nil
	}
	f.Labels = labelAt(worst)
	f.At, f.AtLabels = f.Worst, f.Labels
	if f.Extreme == "smallest" {
		f.At, f.AtLabels = f.Best, labelAt(best)
	}
	if a.Query.FilterStates != nil {
		f.FilterStates, f.Filtered = a.Query.FilterText, len(a.Filtered)
		f.At, f.AtLabels = "", nil
		if a.HasAt {
			f.At, f.AtLabels = m.FormatState(pm.StateOf(a.At)), labelAt(a.At)
		}
	}
	return f
}

// NewBlamed names the decisions ds that Blame found on mdp.
func NewBlamed(mdp *Model, ds []Decision) []Blamed {
	m := mdp.G.M
	var out []Blamed
	for _, d := range ds {
		out = append(out, Blamed{State: m.FormatState(mdp.StateOf(d.State)), Label: m.Labels[d.Label].Name, Better: m.Labels[d.Better].Name,
			Gap: d.Gap, Before: d.BeforeAvg, After: d.AfterAvg, BeforeMax: d.BeforeMax, AfterMax: d.AfterMax})
	}
	return out
}

// Report is what vigil prob prints for one property: its figures, with
// the model solved and the times.
type Report struct {
	Model, Property string
	Policy          string // "" for the MDP over all labels
	Chain           bool   // the policy leaves no choice open
	DTMC            bool   // a JANI dtmc: no choices (fuse.go)
	Method          string // ii or exact
	States, Choices int
	Build, Total    time.Duration
	Figures         []Figures
	Blame           bool // --blame was asked: Figures[0].Blame holds the decisions
	// Stuck is the number of reachable states where the policy is stuck
	// (Model.Stuck), FirstStuck the first of them.
	Stuck      int
	FirstStuck string
	// Uneven is the number of states where a command's state-dependent
	// probabilities do not sum to 1 (Model.Uneven), FirstUneven the
	// first such command, state and sum.
	Uneven      int
	FirstUneven string
}

// WriteText writes the report as vigil prob prints it.
func (r *Report) WriteText(w io.Writer) error {
	who := "over all label choices (MDP)"
	if r.DTMC {
		who = "a JANI dtmc (the edges enabled in a state are taken with equal probability, as Storm reads it)"
	}
	if r.Policy != "" {
		who = "under policy " + r.Policy
		if r.Chain {
			who += " (a Markov chain)"
		} else {
			who += " (several commands of a chosen label stay open: Pmax and Pmin bound the value)"
			if len(r.Figures) > 0 && strings.HasPrefix(r.Figures[0].Query, "E") {
				who = "under policy " + r.Policy + " (several commands of a chosen label stay open: Emax and Emin bound the value)"
			}
		}
	}
	fmt.Fprintf(w, "model %s, property %s, %s\n", r.Model, r.Property, who)
	if r.Stuck > 0 {
		fmt.Fprintf(w, "  policy %s is stuck in %d of the %d states (first %s): its runs end there and reach nothing more\n", r.Policy, r.Stuck, r.States, r.FirstStuck)
	}
	if r.Uneven > 0 {
		fmt.Fprintf(w, "  note: in %d of the %d states the probabilities of a JANI edge that read the state do not sum to 1 (first: %s); vigil prob reads them as weights, divided by their sum, where Storm takes them as they are\n", r.Uneven, r.States, r.FirstUneven)
	}
	for _, f := range r.Figures {
		val := valueText(f.Value, f.Lower, f.Upper, f.Exact)
		if f.Holds != "" {
			val = f.Holds + ": " + val
		}
		which := f.Extreme
		if which == "" {
			which = "largest"
			if strings.HasPrefix(f.Query, "Pmin") || strings.HasPrefix(f.Query, "Emin") {
				which = "smallest"
			}
		}
		switch {
		case f.FilterStates != "":
			over := fmt.Sprintf("the %d reachable states where %s", f.Filtered, f.FilterStates)
			switch which {
			case "count":
				val = fmt.Sprintf("%s (of %s, those where it holds)", f.Exact, over)
				if f.Exact == "" {
					val = fmt.Sprintf("between %g and %g (of %s, those where it holds; in the others the bounds straddle the bound)", f.Lower, f.Upper, over)
				}
			case "values":
				val = fmt.Sprintf("one value per state, in %s", over)
			default:
				val = fmt.Sprintf("%s (the %s over %s)", val, which, over)
			}
		case which == "count":
			val = fmt.Sprintf("%s (the start states, of %d, where it holds)", f.Exact, f.Starts)
			if f.Exact == "" {
				val = fmt.Sprintf("between %g and %g (the start states, of %d, where it holds; in the others the bounds straddle the bound)", f.Lower, f.Upper, f.Starts)
			}
		case which == "values":
			val = fmt.Sprintf("one value per start state (%d)", f.Starts)
		case f.Starts > 1:
			val = fmt.Sprintf("%s (the %s over the start states)", val, which)
		}
		fmt.Fprintf(w, "  %s = %s\n", f.Query, val)
		for i, v := range f.Values {
			if i == maxTextValues && len(f.Values) > maxTextValues+1 {
				fmt.Fprintf(w, "    ... %d more (--json lists them all)\n", len(f.Values)-i)
				break
			}
			sv := valueText(v.Value, v.Lower, v.Upper, v.Exact)
			if v.Holds != "" {
				sv = v.Holds + ": " + sv
			}
			fmt.Fprintf(w, "    %s: %s\n", v.State, sv)
		}
		if f.Starts > 1 && f.FilterStates == "" {
			fmt.Fprintf(w, "    over %d start states: max %s at %s; min %s at %s; average %s\n", f.Starts, withBounds(f.Max, f.MaxBounds), f.Worst, withBounds(f.Min, f.MinBounds), f.Best, withBounds(f.Average, f.AvgBounds))
		}
		at, labels := f.At, f.AtLabels
		if at == "" && f.FilterStates == "" {
			at, labels = f.Worst, f.Labels
		}
		if len(labels) > 0 && r.Policy == "" && !r.DTMC && (which == "largest" || which == "smallest" || f.Starts == 1) {
			fmt.Fprintf(w, "    attained by taking %s in %s\n", strings.Join(labels, ", "), at)
		}
	}
	if r.Blame && len(r.Figures) > 0 {
		blame := r.Figures[0].Blame
		if len(blame) == 0 {
			fmt.Fprintf(w, "no costly decision: in no visited state does another label lower Pr(reach unsafe) one step ahead\n")
		} else {
			fmt.Fprintf(w, "costliest decisions (Pr(reach unsafe) from the start states, average; largest in brackets):\n")
		}
		for i, b := range blame {
			fmt.Fprintf(w, "  %d. %s: %s instead of %s: %.6g -> %.6g (%.6g -> %.6g)\n", i+1, b.State, b.Better, b.Label, b.Before, b.After, b.BeforeMax, b.AfterMax)
		}
	}
	_, err := fmt.Fprintf(w, "engine prob (%s): %d states, %d choices, build %.3fs, total %.3fs\n", r.Method, r.States, r.Choices, r.Build.Seconds(), r.Total.Seconds())
	return err
}

// maxTextValues is how many start states' values (filter "values") the
// text lists.
const maxTextValues = 20

// valueText writes a value: exact, or with its bounds.
func valueText(v, lo, hi float64, exact string) string {
	if exact == "inf" || math.IsInf(lo, 1) {
		return "inf (the goal is missed with positive probability)"
	}
	val := valueDigits(v)
	if exact != "" {
		return exact + " ≈ " + approx(exact, val)
	}
	return val + " (bounds [" + lowerDigits(lo) + ", " + upperDigits(hi) + "])"
}

// valueDigits writes v to 10 significant digits, unless that rounds it
// to exactly 0 or 1 (1 - 2^-50 read "1", a certainty it is not): then
// in full (the shortest text that parses back to v).
func valueDigits(v float64) string {
	s := strconv.FormatFloat(v, 'g', 10, 64)
	if r, _ := strconv.ParseFloat(s, 64); r != v && (r == 0 || r == 1) {
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	return s
}

// lowerDigits writes a lower bound to 10 significant digits, rounded
// down: to nearest, the bound 0.9999999999999987 read "1" ("bounds [1,
// 1]" for a probability below 1), and 0.12499999999999997 read "0.125",
// so that a comparison with 0.125 was "unknown" with bounds that seemed
// to decide it.
func lowerDigits(x float64) string { return directed(x, false) }

// upperDigits writes an upper bound to 10 significant digits, rounded up.
func upperDigits(x float64) string { return directed(x, true) }

// directed writes x to 10 significant digits, rounded up or down.
func directed(x float64, up bool) string {
	s := strconv.FormatFloat(x, 'g', 10, 64)
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return s
	}
	// compared as decimals: the float64 nearest s may be x itself where s
	// lies on the wrong side of it (upperDigits(0.1) read "0.1", below the
	// float64 0.1000000000000000055511151231257827)
	if r, ok := new(big.Rat).SetString(s); ok {
		if c := r.Cmp(new(big.Rat).SetFloat64(x)); up && c >= 0 || !up && c <= 0 {
			return s
		}
	}
	// x is d.ddddddddd × 10^e rounded to nearest the wrong way: one unit
	// of the 10th digit back, n × 10^(e-9), lies on the right side
	mant, exp, _ := strings.Cut(strconv.FormatFloat(x, 'e', 9, 64), "e")
	n, err1 := strconv.ParseInt(strings.Replace(mant, ".", "", 1), 10, 64)
	e, err2 := strconv.Atoi(exp)
	if err1 != nil || err2 != nil {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	switch {
	case up:
		n++
	case n == 1_000_000_000:
		// 1.000000000: one unit back is 0.9999999999, a digit more
		n, e = n*10-1, e-1
	default:
		n--
	}
	// written from the decimal itself, not from the float64 nearest it:
	// below 2.2e-308 that float64 has fewer digits, and 5e-324's upper
	// bound came back as 4.940656458e-324, below it
	d, ok := new(big.Rat).SetString(strconv.FormatInt(n, 10) + "e" + strconv.Itoa(e-9))
	if !ok {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return new(big.Float).SetPrec(256).SetRat(d).Text('g', 10)
}

// approx writes the rational r to 10 significant digits, beyond float64's
// exponent range too (1e-3000, which float64 rounds to 0); def when r does
// not parse.
func approx(r, def string) string {
	x, ok := new(big.Rat).SetString(r)
	if !ok {
		return def
	}
	f := new(big.Float).SetPrec(200).SetRat(x)
	t := f.Text('g', 10)
	if t == "1" && x.Cmp(big.NewRat(1, 1)) != 0 || t == "0" && x.Sign() != 0 {
		// 1125899906842623/1125899906842624 ≈ 0.99999999999999911182,
		// not ≈ 1
		if t = f.Text('g', 20); t != "1" {
			return t
		}
		// closer still (1 - 10^-36 read ≈ 1 at 20 digits too): the
		// distance to 1
		d := new(big.Rat).Sub(x, big.NewRat(1, 1))
		sign := " + "
		if d.Sign() < 0 {
			sign = " - "
			d.Neg(d)
		}
		return "1" + sign + new(big.Float).SetPrec(200).SetRat(d).Text('g', 10)
	}
	return t
}

// NoteThreshold is the estimated size (bytes) from which Note has
// something to say.
const NoteThreshold = 1 << 30

// Note is the warning vigil prob prints before building a model that may
// be large: the most states it can have and the memory that many would
// take, or "" when the estimate is below NoteThreshold. maxStates is the
// limit Build was given (0: none).
func (e Estimate) Note(maxStates int) string {
	if e.Bytes < NoteThreshold {
		return ""
	}
	bound := fmt.Sprintf("%.0f", e.Bound)
	if e.Log2Bound > 30 {
		bound = fmt.Sprintf("2^%.1f", e.Log2Bound)
	}
	why := "the product of the variables' ranges; the reachable states are usually far fewer, and --max-states N gives up beyond N"
	if maxStates > 0 && float64(maxStates) <= e.Bound {
		why = "--max-states"
	}
	return fmt.Sprintf("at most %s states (%s), at most %.0f bytes each: up to %s", bound, why, e.BytesPerState, sizeText(e.Bytes))
}

// sizeText writes b bytes in B, KiB, MiB, GiB, TiB, PiB, or as a power of two
// beyond.
func sizeText(b float64) string {
	for _, u := range []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB"} {
		if b < 1024 {
			return fmt.Sprintf("%.1f %s", b, u)
		}
		b /= 1024
	}
	return fmt.Sprintf("2^%.1f bytes", math.Log2(b)+60)
}

// withBounds writes v, with its bounds when they differ (interval
// iteration's, of which v is the midpoint).
func withBounds(v float64, b []float64) string {
	if math.IsInf(v, 1) {
		return "inf"
	}
	if len(b) == 2 && b[0] != b[1] {
		return valueDigits(v) + " (bounds [" + lowerDigits(b[0]) + ", " + upperDigits(b[1]) + "])"
	}
	return valueDigits(v)
}

// MarshalJSON writes an infinite value (an expected reward whose goal is
// missed with positive probability) as the string "inf", which JSON has
// no number for; the rest as usual.
func (f Figures) MarshalJSON() ([]byte, error) {
	type plain Figures
	fs := []*float64{&f.Value, &f.Lower, &f.Upper, &f.Max, &f.Min, &f.Average}
	names := []string{"value", "lower", "upper", "max", "min", "average"}
	bounds := map[string][]float64{"max_bounds": f.MaxBounds, "min_bounds": f.MinBounds, "average_bounds": f.AvgBounds}
	inf := false
	for _, x := range fs {
		inf = inf || math.IsInf(*x, 0)
	}
	for _, b := range bounds {
		for _, x := range b {
			inf = inf || math.IsInf(x, 0)
		}
	}
	if !inf {
		return json.Marshal(plain(f))
	}
	var infs []string
	for i, x := range fs {
		if math.IsInf(*x, 0) {
			*x = 0
			infs = append(infs, names[i])
		}
	}
	g := plain(f)
	g.MaxBounds, g.MinBounds, g.AvgBounds = nil, nil, nil
	b, err := json.Marshal(g)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, err
	}
	for _, k := range infs {
		obj[k] = "inf"
	}
	for k, bs := range bounds {
		if bs == nil {
			continue
		}
		out := make([]any, len(bs))
		for i, x := range bs {
			out[i] = x
			if math.IsInf(x, 0) {
				out[i] = "inf"
			}
		}
		obj[k] = out
	}
	return json.Marshal(obj)
}

// MarshalJSON writes an infinite value as "inf" (Figures.MarshalJSON).
func (v StateFigures) MarshalJSON() ([]byte, error) {
	type plain StateFigures
	if !math.IsInf(v.Value, 0) && !math.IsInf(v.Lower, 0) && !math.IsInf(v.Upper, 0) {
		return json.Marshal(plain(v))
	}
	return json.Marshal(struct {
		State string `json:"state"`
		Value string `json:"value"`
		Lower string `json:"lower"`
		Upper string `json:"upper"`
		Exact string `json:"exact,omitempty"`
		Holds string `json:"holds,omitempty"`
	}{v.State, "inf", "inf", "inf", v.Exact, v.Holds})
}
