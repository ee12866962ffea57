// Package testutil holds the small helpers that the tests of several
// packages (nn, trees, ic3/cert, ...) would otherwise each write again:
// enumerating the states of a box or a model and listing a model's
// labels. It is imported by tests only.
package testutil

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"vigil/symbolic"
)

// BoxStates calls visit on every state of the integer box lo..hi, the
// first variable varying fastest. visit must not keep s: the same slice
// is reused for the next state.
func BoxStates(lo, hi []int, visit func(s symbolic.State)) {
	s := append(symbolic.State(nil), lo...)
	for {
		visit(s)
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			return
		}
		s[v]++
	}
}

// ModelBox returns the box of all in-range states of m.
func ModelBox(m *symbolic.Model) (lo, hi []int) {
	for _, v := range m.Vars {
		lo, hi = append(lo, v.Lo), append(hi, v.Hi)
	}
	return lo, hi
}

// ModelStates calls visit on every in-range state of m (see BoxStates).
func ModelStates(m *symbolic.Model, visit func(s symbolic.State)) {
	lo, hi := ModelBox(m)
	BoxStates(lo, hi, visit)
}

// LabelsReversed returns every label of m, last first, so that a policy
// built with these outputs does not list them in label order.
func LabelsReversed(m *symbolic.Model) []symbolic.LabelID {
	var ls []symbolic.LabelID
	for l := len(m.Labels) - 1; l >= 0; l-- {
		ls = append(ls, symbolic.LabelID(l))
	}
	return ls
}

// MakePolicy builds a learned policy for model m with outputs outs from
// seed (nn.Random, trees.Random and the like, adapted).
type MakePolicy func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error)

// RecordPolicies returns a policy factory for the conformance suites: mk
// with every label of the model, in label order, as outputs; each policy
// built is recorded in pols under its declaration, so that a verifier
// that is given the declaration finds the executable policy.
func RecordPolicies(pols map[*symbolic.PolicyDecl]symbolic.Policy, mk MakePolicy) func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
	return func(m *symbolic.Model, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		outs := make([]symbolic.LabelID, len(m.Labels))
		for i := range outs {
			outs[i] = symbolic.LabelID(i)
		}
		p, d, err := mk(m, outs, seed)
		if err == nil {
			pols[d] = p
		}
		return p, d, err
	}
}

// ArgMaxAll adapts mk to policies read `argmax all` (PlaJA without
// applicability filtering): the declaration mk returns, which the policy
// keeps, gets ArgMaxAll.
func ArgMaxAll(mk MakePolicy) MakePolicy {
	return func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (symbolic.Policy, *symbolic.PolicyDecl, error) {
		p, d, err := mk(m, outs, seed)
		if err != nil {
			return nil, nil, err
		}
		d.ArgMaxAll = true
		if !symbolic.ReadsAll(p) {
			return nil, nil, fmt.Errorf("testutil: a %T policy does not follow its declaration's argmax all", p)
		}
		return p, d, nil
	}
}

// LearnedFile builds a learned policy for model m with outputs outs from
// seed, as the value its file holds (a network or ensemble, written as
// JSON) and its declaration.
type LearnedFile func(m *symbolic.Model, outs []symbolic.LabelID, seed uint64) (file any, d *symbolic.PolicyDecl, err error)

// ArgMaxAllFiles returns a policy factory for the safety suite
// (conformance.GenerateWith): mk's policy with the model's labels in
// reversed order as outputs, read `argmax all`, its file written to dir
// as net<seed>.json, which the declaration names, so that a checker that
// loads the policy from its file (safety/cert) sees the same one.
func ArgMaxAllFiles(dir string, mk LearnedFile) func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
	return func(m *symbolic.Model, seed uint64) (*symbolic.PolicyDecl, error) {
		v, d, err := mk(m, LabelsReversed(m), seed)
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		d.File = filepath.Join(dir, fmt.Sprintf("net%d.json", seed))
		d.ArgMaxAll = true
		return d, os.WriteFile(d.File, b, 0o644)
	}
}
