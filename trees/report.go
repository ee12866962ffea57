package trees

// The reports of vigil trees bound, decide and info: their --json shapes
// and their text, next to the results they describe.

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// Num is a float64 that JSON writes as null when it is infinite or NaN
// (an unbounded side of a box, a bound the search never found).
type Num float64

// MarshalJSON writes x as a JSON number, or null.
func (x Num) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(x), 0) || math.IsNaN(float64(x)) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(x))
}

// BoxJSON is a box as the reports write it: [lo, hi] per feature, null
// for no bound.
type BoxJSON [][2]Num

// NewBoxJSON converts b.
func NewBoxJSON(b Box) *BoxJSON {
	out := make(BoxJSON, len(b))
	for i, iv := range b {
		out[i] = [2]Num{Num(iv.Lo), Num(iv.Hi)}
	}
	return &out
}

// BoundReport is the answer of Max, Min or Margin as vigil trees bound
// prints it (fields in the order of the JSON object's keys).
type BoundReport struct {
	Class      int       `json:"class"`
	Exact      bool      `json:"exact"`
	Lower      Num       `json:"lower"`
	Nodes      int       `json:"nodes"`
	Objective  string    `json:"objective"` // max, min or margin
	Seconds    float64   `json:"seconds"`
	Stopped    Stop      `json:"stopped,omitempty"`
	Upper      Num       `json:"upper"`
	Value      *Num      `json:"value,omitempty"` // exact only
	Witness    []float64 `json:"witness"`
	WitnessBox *BoxJSON  `json:"witness_box,omitempty"` // exact only
	// Why says which budget ended an inexact search and what to raise,
	// in the caller's words (the command names its flags); text only.
	Why string `json:"-"`
}

// NewBoundReport describes r, the answer for objective (max, min or
// margin) of class.
func NewBoundReport(objective string, class int, r Result) *BoundReport {
	rep := &BoundReport{Objective: objective, Class: class, Exact: r.Exact, Lower: Num(r.Lower), Upper: Num(r.Upper),
		Witness: r.Witness, Nodes: r.Nodes, Seconds: r.Time.Seconds(), Stopped: r.Stopped}
	if r.Exact {
		v := Num(r.Lower)
		rep.Value, rep.WitnessBox = &v, NewBoxJSON(r.WitnessBox)
	}
	return rep
}

// WriteText writes the optimum (or the bounds and why the search
// stopped), the witness, and the effort.
func (r *BoundReport) WriteText(w io.Writer) error {
	what := fmt.Sprintf("%s class %d", r.Objective, r.Class)
	if r.Objective == "margin" {
		what = fmt.Sprintf("max margin of class %d", r.Class)
	}
	if r.Exact {
		fmt.Fprintf(w, "%s = %s (exact)\n", what, strconv.FormatFloat(float64(r.Lower), 'g', -1, 64))
	} else {
		fmt.Fprintf(w, "%s in [%s, %s] (budget exhausted: %s)\n", what,
			strconv.FormatFloat(float64(r.Lower), 'g', -1, 64), strconv.FormatFloat(float64(r.Upper), 'g', -1, 64), r.Why)
	}
	if r.Witness != nil {
		fmt.Fprintf(w, "witness %s\n", FormatVector(r.Witness))
	}
	_, err := fmt.Fprintf(w, "nodes %d, %.3f s\n", r.Nodes, r.Seconds)
	return err
}

// DecideReport is the answer of Excludes as vigil trees decide prints it
// (fields in the order of the JSON object's keys).
type DecideReport struct {
	Nodes      int       `json:"nodes"`
	Seconds    float64   `json:"seconds"`
	Stopped    Stop      `json:"stopped,omitempty"`
	Verdict    string    `json:"verdict"` // excluded, possible or unknown
	Witness    []float64 `json:"witness,omitempty"`
	WitnessBox *BoxJSON  `json:"witness_box,omitempty"`
	// Why says which budget ended an unknown search and what to raise,
	// in the caller's words; text only.
	Why string `json:"-"`
}

// NewDecideReport describes d.
func NewDecideReport(d Decision) *DecideReport {
	rep := &DecideReport{Verdict: d.Verdict.String(), Nodes: d.Nodes, Seconds: d.Time.Seconds(), Stopped: d.Stopped}
	if d.Witness != nil {
		rep.Witness, rep.WitnessBox = d.Witness, NewBoxJSON(d.WitnessBox)
	}
	return rep
}

// WriteText writes the verdict, why an unknown search stopped, the
// witness, and the effort.
func (r *DecideReport) WriteText(w io.Writer) error {
	fmt.Fprintln(w, r.Verdict)
	if r.Verdict == Unknown.String() && r.Why != "" {
		fmt.Fprintf(w, "stopped: %s\n", r.Why)
	}
	if r.Witness != nil {
		fmt.Fprintf(w, "witness %s\n", FormatVector(r.Witness))
	}
	_, err := fmt.Fprintf(w, "nodes %d, %.3f s\n", r.Nodes, r.Seconds)
	return err
}

// InfoReport describes an ensemble as vigil trees info prints it (fields
// in the order of the JSON object's keys).
type InfoReport struct {
	Base     []float64 `json:"base"`
	Classes  int       `json:"classes"`
	Features int       `json:"features"`
	Format   string    `json:"format"`
	Leaves   int       `json:"leaves"`
	Trees    int       `json:"trees"`
}

// Info describes e.
func (e *Ensemble) Info() *InfoReport {
	return &InfoReport{Format: e.Format, Classes: e.NumClasses, Features: e.NumFeatures, Trees: len(e.Trees), Leaves: e.NumLeaves(), Base: e.Base}
}

// WriteText writes one NAME VALUE line per figure.
func (r *InfoReport) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, "format %s\nclasses %d\nfeatures %d\ntrees %d\nleaves %d\nbase %s\n",
		r.Format, r.Classes, r.Features, r.Trees, r.Leaves, FormatVector(r.Base))
	return err
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

// ParseClasses reads a comma-separated list of class indices, such as
// vigil trees decide --sure takes; an empty list is nil.
func ParseClasses(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not a class index", f)
		}
		out = append(out, v)
	}
	return out, nil
}
