package fuzz

import (
	"strconv"
	"strings"
	"time"

	"vigil/symbolic"
)

// DistinctBug is a bug (paper 000: a state that is (r-)safe, yet the
// policy's run from it is unsafe) with the unsafe run that shows it first.
type DistinctBug struct {
	State symbolic.State
	Case  int           // index into SafetyResult.Cases
	Step  int           // the bug's step on that run
	At    time.Duration // when that run was found, since fuzzing began
}

// DistinctFault is a fault with the unsafe run that shows it first.
type DistinctFault struct {
	SafetyFault
	Case int // index into SafetyResult.Cases
}

// Distinct is what a safety test found, each bug and fault once.
type Distinct struct {
	Bugs   []DistinctBug   // in the order the analysed unsafe runs show them
	Faults []DistinctFault // likewise
	// WithBugs counts the analysed unsafe runs with a bug; Unanalysed the
	// unsafe runs whose analysis a budget or an interrupt cut short.
	WithBugs, Unanalysed int
}

// Distinct de-duplicates the bugs and faults of the analysed unsafe runs:
// two bugs are the same when their states are, two faults when their
// states and the policy's labels are. Each keeps the first run and step
// that show it.
func (r *SafetyResult) Distinct() *Distinct {
	d := &Distinct{Bugs: []DistinctBug{}, Faults: []DistinctFault{}}
	seenBug, seenFault := map[string]bool{}, map[string]bool{}
	for ci, c := range r.Cases {
		if !c.Analysed {
			d.Unanalysed++
			continue
		}
		if len(c.Bugs) > 0 {
			d.WithBugs++
		}
		for _, i := range c.Bugs {
			s := c.Run.Steps[i].State
			if k := stateKey(s); !seenBug[k] {
				seenBug[k] = true
				d.Bugs = append(d.Bugs, DistinctBug{State: s, Case: ci, Step: i, At: c.Run.At})
			}
		}
		for _, f := range c.Faults {
			if k := stateKey(f.State) + "/" + strconv.Itoa(int(f.Label)); !seenFault[k] {
				seenFault[k] = true
				d.Faults = append(d.Faults, DistinctFault{SafetyFault: f, Case: ci})
			}
		}
	}
	return d
}

// stateKey is a map key that is equal for equal states.
func stateKey(s symbolic.State) string {
	var b strings.Builder
	for i, v := range s {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	return b.String()
}
