package ppa_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// shiftQuestions are generated models moved far from 0 (gen.Shift:
// integer variables stored at offsets up to ±2^40, a variable of one
// value), with range errors, large intermediate values and initial-state
// starts mixed by seed as in genQuestions.
func shiftQuestions(n int, yield func(diffQuestion)) {
	for seed := uint64(1); seed <= uint64(n); seed++ {
		o := gen.Options{RangeErrors: seed%2 == 0, InitialStart: seed%5 == 0, MaxDepth: 2 + int(seed%2)}
		m := gen.Shift(gen.Model(seed+700000, o), rand.New(rand.NewPCG(seed, 2)))
		yield(diffQuestion{name: fmt.Sprintf("shifted seed %d %+v", seed+700000, o), m: m})
	}
}

// TestS28bShiftPPA: ppa agrees with bfs on shifted models under the
// rules policy, none, a random network and a random tree ensemble; a
// safe answer carries a certificate the independent checker accepted.
func TestS28bShiftPPA(t *testing.T) {
	runDiffer(t, "ppa", func(y func(diffQuestion)) { shiftQuestions(diffModels(20, 60), y) })
}

// TestS28bConformanceTables: ppa against bfs under random table policies
// (gen.Table: stuck states, inapplicable labels, overridden rows, rows
// that are no state), every safe answer certified.
func TestS28bConformanceTables(t *testing.T) {
	learned(t, 100, false, func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		d := gen.Table(m, rand.New(rand.NewPCG(seed, 3)))
		return symbolic.NewTablePolicy(m, d), d, nil
	})
}
