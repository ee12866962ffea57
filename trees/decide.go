package trees

import (
	"fmt"
	"time"
)

// Verdict is the answer of the decision query. The names and order are
// those of package nn, so that PolIC3 treats both kinds of policy alike.
type Verdict int

const (
	// Unknown: the budget ran out before the question was settled.
	Unknown Verdict = iota
	// Proved: a is excluded, at every input of the box some sure class
	// beats it.
	Proved
	// Refuted: a is possible, the witness is an input of the box where a
	// beats every sure class.
	Refuted
)

// String names the verdict by what it says about the class: "excluded",
// "possible" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Proved:
		return "excluded"
	case Refuted:
		return "possible"
	}
	return "unknown"
}

// Decision is the answer of Excludes.
type Decision struct {
	Verdict Verdict
	// Witness is an input in the box where a wins (Refuted only), and
	// WitnessBox the part of the box in the witness's split cell: every
	// input there has the witness's scores, so a wins throughout it.
	Witness    []float64
	WitnessBox Box
	// Margin bounds max over the box of min over sure s of f_a - f_s:
	// Lower is attained at the witness (or -Inf), Upper is the search's
	// bound when it stopped.
	Lower, Upper float64
	Stats
}

// Excludes answers PolIC3's decision query (paper 004, condition (6)) for
// class a over the input box: Proved if for every x in the box some class
// s in sure, s != a, beats a, that is f_s(x) > f_a(x), or f_s(x) == f_a(x)
// and s < a (ties go to the earlier output, as the policy resolves them).
// Proved is sound; Refuted comes with a witness input where a beats
// every such s; Unknown means the budget ran out.
//
// Rather than masking with a penalty (paper 004 adds -P_max to the classes
// outside sure and a, then runs Veritas on the margin), the search maximises
// min over s of f_a - f_s directly, which is the same question without the
// penalty constant.
func (e *Ensemble) Excludes(box Box, a int, sure []int, opt Options) (Decision, error) {
	return e.excludes(box, a, sure, opt, nil)
}

// excludes is Excludes over the points of the box that within admits
// (nil: all of them; see stateRegion).
func (e *Ensemble) excludes(box Box, a int, sure []int, opt Options, within *stateRegion) (Decision, error) {
	if err := e.checkClass(a); err != nil {
		return Decision{}, err
	}
	var ts []term
	seen := map[int]bool{}
	for _, c := range sure {
		if err := e.checkClass(c); err != nil {
			return Decision{}, fmt.Errorf("trees: sure class: %w", unprefix(err))
		}
		if c == a || seen[c] {
			continue
		}
		seen[c] = true
		var tie int8
		if a < c {
			tie = 1
		}
		ts = append(ts, term{p: a, sp: 1, n: c, sn: -1, tie: tie})
	}
	start := time.Now()
	if len(ts) == 0 {
		// Nothing can beat a: every point of the box is a witness. Search
		// the maximum of f_a only to get a point of the box.
		ts = []term{{p: a, sp: 1, n: -1, tie: 1}}
	}
	s, err := e.newSearcher(box, ts, opt)
	if err != nil {
		return Decision{}, err
	}
	s.start = start
	s.within = within
	if within == nil && s.singleCell() {
		// The box lies in one split cell: one evaluation decides.
		s.point(s.root.box)
		v := s.value()
		d := Decision{Verdict: Proved, Lower: v.v, Upper: v.v, Stats: Stats{Generated: 1, Time: time.Since(start)}}
		if (lex{0, 0}).less(v) || (len(ts) == 1 && ts[0].n < 0) {
			d.Verdict, d.Witness = Refuted, append([]float64(nil), s.x...)
			d.WitnessBox = s.cellBox(d.Witness)
		}
		return d, nil
	}
	// a wins at x iff the objective is >lex (0, 0).
	zero := lex{0, 0}
	if len(ts) == 1 && ts[0].n < 0 {
		zero = negInf
	}
	s.floor = zero
	s.add(s.root)
	s.run(func() bool { return zero.less(s.best) })
	d := Decision{Lower: s.best.v, Upper: s.upper().v, Stats: s.stats}
	switch {
	case zero.less(s.best):
		d.Verdict = Refuted
		d.Witness = s.bestX
		d.WitnessBox = s.cellBox(s.bestX)
	case s.done && (within == nil || !within.unsure):
		d.Verdict = Proved
		d.Upper = min(d.Upper, 0)
	}
	return d, nil
}
