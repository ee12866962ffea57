package nn

// The reports of vigil nn verify, bound and corpus: their --json shapes
// and their text, next to the results they describe, and the box syntax
// of vigil nn bound.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// VerifyReport is a VerifyResult as vigil nn verify --json prints it
// (fields in the order of the JSON object's keys).
type VerifyReport struct {
	Input   []float64 `json:"input,omitempty"` // sat only
	Nodes   int       `json:"nodes"`
	Output  []float64 `json:"output,omitempty"` // sat only
	Seconds float64   `json:"seconds"`
	// Stopped says what ended an unknown early when it was not a limit
	// of the search: "interrupted" (Ctrl-C, SIGTERM).
	Stopped string `json:"stopped,omitempty"`
	Verdict Answer `json:"verdict"`
}

// MarshalJSON writes r with an output that overflowed (+Inf: a
// counterexample may have one, as Y_0 >= 5 holds for it) as the string
// "inf" (JSONNumbers); encoding/json has no number for it and refused the
// whole report.
func (r VerifyReport) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Input   []any   `json:"input,omitempty"`
		Nodes   int     `json:"nodes"`
		Output  []any   `json:"output,omitempty"`
		Seconds float64 `json:"seconds"`
		Stopped string  `json:"stopped,omitempty"`
		Verdict Answer  `json:"verdict"`
	}{JSONNumbers(r.Input), r.Nodes, JSONNumbers(r.Output), r.Seconds, r.Stopped, r.Verdict})
}

// Report is the result in its --json shape.
func (r VerifyResult) Report() VerifyReport {
	rep := VerifyReport{Verdict: r.Answer, Nodes: r.Nodes, Seconds: r.Elapsed.Seconds()}
	if r.Answer == Sat {
		rep.Input, rep.Output = r.Input, r.Output
	}
	return rep
}

// WriteText writes the answer, and for sat the counterexample, as vigil
// nn verify prints them.
func (r VerifyResult) WriteText(w io.Writer) error { return r.Report().WriteText(w) }

// WriteText writes the verdict, and for sat the counterexample, as vigil
// nn verify prints them.
func (r VerifyReport) WriteText(w io.Writer) error {
	if r.Stopped != "" {
		fmt.Fprintf(w, "%s: %s after %d boxes\n", r.Verdict, r.Stopped, r.Nodes)
		return nil
	}
	fmt.Fprintln(w, r.Verdict)
	if r.Verdict == Sat {
		fmt.Fprintf(w, "input  %s\noutput %s\n", FormatVector(r.Input), FormatVector(r.Output))
	}
	return nil
}

// FormatVector writes xs comma-separated, each in the shortest form that
// reads back the same float64.
func FormatVector(xs []float64) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

// ParseVector reads an input point written as comma-separated finite
// numbers (0.5,-1,2e-3), as vigil nn eval and vigil trees eval take it.
func ParseVector(s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number; give comma-separated numbers such as 0.5,-1,2e-3", f)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%q is not a finite number; inputs must be finite", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// ParseBox reads an input box written LOWER:UPPER per input,
// comma-separated (0:1,-1:1): finite bounds with lower <= upper.
func ParseBox(s string) (Box, error) {
	var box Box
	for _, part := range strings.Split(s, ",") {
		lo, hi, ok := strings.Cut(part, ":")
		l, err1 := strconv.ParseFloat(strings.TrimSpace(lo), 64)
		h, err2 := strconv.ParseFloat(strings.TrimSpace(hi), 64)
		// a number beyond float64 (1e400) parses as ±Inf with ErrRange:
		// it is a bound, not finite, which the next check says
		if !ok || notNumber(err1) || notNumber(err2) {
			return Box{}, fmt.Errorf("%q is not LOWER:UPPER; give one per input, comma-separated, such as 0:1,-1:1", part)
		}
		if math.IsNaN(l) || math.IsNaN(h) || math.IsInf(l, 0) || math.IsInf(h, 0) || l > h {
			return Box{}, fmt.Errorf("%q is not an interval of finite numbers with lower <= upper", part)
		}
		box.Lo, box.Hi = append(box.Lo, l), append(box.Hi, h)
	}
	return box, nil
}

// notNumber reports whether err is strconv.ParseFloat's error for text
// that is no number (not one out of float64's range).
func notNumber(err error) bool {
	return err != nil && !errors.Is(err, strconv.ErrRange)
}

// BoundsReport is vigil nn bound's answer: the bounds of each output
// over a box, found with Method.
type BoundsReport struct {
	Lower  []float64 `json:"lower"`
	Method string    `json:"method"`
	Upper  []float64 `json:"upper"`
}

// MarshalJSON writes r with an infinite bound (none is known) as "inf"
// or "-inf" (JSONNumbers).
func (r BoundsReport) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Lower  []any  `json:"lower"`
		Method string `json:"method"`
		Upper  []any  `json:"upper"`
	}{JSONNumbers(r.Lower), r.Method, JSONNumbers(r.Upper)})
}

// JSONNumbers returns xs as vigil's JSON writes them: a finite entry as
// a number, an infinite one, which JSON has no number for, as the string
// "inf" or "-inf" (as vigil prob --json writes an infinite expected
// reward), a NaN (+Inf - Inf in a layer) as "nan". Before, all three were
// null, which says nothing of which it was.
func JSONNumbers(xs []float64) []any {
	if xs == nil {
		return nil
	}
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = JSONNumber(x)
	}
	return out
}

// JSONNumber is x as JSONNumbers writes it.
func JSONNumber(x float64) any {
	switch {
	case math.IsNaN(x):
		return "nan"
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return x
}

// boundText writes the bound x with 8 significant digits, rounded
// outward (up for an upper bound, down for a lower one), so that the
// printed interval holds the computed one: rounded to the nearest, the
// lower bound 734.1741599999998 (vigil nn eval's output at the box's
// corner) was printed 734.17416, above the output. Where the 8-digit
// neighbour does not read back on the right side of x, x is written
// whole (the shortest form that reads back as x).
func boundText(x float64, up bool) string {
	outside := func(s string) bool {
		v, err := strconv.ParseFloat(s, 64)
		return err == nil && (up && v >= x || !up && v <= x)
	}
	s := strconv.FormatFloat(x, 'g', 8, 64)
	if outside(s) {
		return s
	}
	// One unit of the eighth digit outward: d.ddddddde±X as the integer
	// dddddddd times 10^(X-7).
	e := strconv.FormatFloat(x, 'e', 7, 64)
	neg := strings.HasPrefix(e, "-")
	mant, exp, _ := strings.Cut(strings.TrimPrefix(e, "-"), "e")
	digits, err1 := strconv.ParseInt(strings.Replace(mant, ".", "", 1), 10, 64)
	pow, err2 := strconv.Atoi(exp)
	if err1 == nil && err2 == nil {
		if up != neg {
			digits++
		} else if digits--; digits < 1e7 {
			// 1.0000000e+08 down is 9.9999999e+07, not 9.999999e+07.
			digits, pow = digits*10+9, pow-1
		}
		sign := ""
		if neg {
			sign = "-"
		}
		if v, err := strconv.ParseFloat(fmt.Sprintf("%s%de%d", sign, digits, pow-7), 64); err == nil {
			if s := strconv.FormatFloat(v, 'g', 8, 64); outside(s) {
				return s
			}
		}
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// WriteText writes one line per output, yI in [lo, hi], each bound
// rounded outward (boundText).
func (r BoundsReport) WriteText(w io.Writer) error {
	for i := range r.Lower {
		if _, err := fmt.Fprintf(w, "y%d in [%s, %s]\n", i, boundText(r.Lower[i], false), boundText(r.Upper[i], true)); err != nil {
			return err
		}
	}
	return nil
}

// CorpusLine is one instance of a corpus run: the answer and its
// judgement (vigil nn corpus prints one per instance).
type CorpusLine struct {
	Expected string        `json:"expected"`
	Nodes    int           `json:"nodes"`
	Network  string        `json:"onnx"`
	Outcome  CorpusOutcome `json:"outcome"`
	Seconds  float64       `json:"seconds"`
	Verdict  Answer        `json:"verdict"`
	Property string        `json:"vnnlib"`
}

// NewCorpusLine describes the run of ci.
func NewCorpusLine(ci CorpusInstance, res VerifyResult, outcome CorpusOutcome) CorpusLine {
	return CorpusLine{Network: ci.Network, Property: ci.Property, Expected: ci.Expected, Verdict: res.Answer,
		Outcome: outcome, Seconds: res.Elapsed.Seconds(), Nodes: res.Nodes}
}

// WriteText writes the line as a table row.
func (l CorpusLine) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "%-34s %-30s %-7s %-7s %-7s %8.3fs %7d nodes\n", l.Network, l.Property, l.Expected, l.Verdict, l.Outcome, l.Seconds, l.Nodes)
	return err
}

// CorpusSummary counts a corpus run's outcomes.
type CorpusSummary struct {
	Correct int     `json:"correct"`
	Seconds float64 `json:"seconds"`
	Unknown int     `json:"unknown"`
	Wrong   int     `json:"wrong"`
	// Limit is the per-instance time limit, for the text.
	Limit time.Duration `json:"-"`
	total time.Duration
}

// Add counts one instance that took elapsed.
func (s *CorpusSummary) Add(outcome CorpusOutcome, elapsed time.Duration) {
	s.total += elapsed
	s.Seconds = s.total.Seconds()
	switch outcome {
	case CorpusUnknown:
		s.Unknown++
	case CorpusWrong:
		s.Wrong++
	default:
		s.Correct++
	}
}

// WriteText writes the counts, the total and mean time, and the limit.
func (s *CorpusSummary) WriteText(w io.Writer) error {
	n := s.Correct + s.Wrong + s.Unknown
	_, err := fmt.Fprintf(w, "%d instances: %d correct, %d wrong, %d unknown; %.2fs total, %.3fs mean (limit %s)\n",
		n, s.Correct, s.Wrong, s.Unknown, s.Seconds, s.Seconds/float64(max(n, 1)), s.Limit)
	return err
}
