package smt

// Step packages the query IC3 asks most: "is there a transition from a
// state in box r, taking label a, into the frame F?" The transition
// relation is asserted once; frames are sets of clauses over the next
// state, each guarded by an activation literal (assumed while the frame is
// queried, asserted false to retire it); the box and the label are
// assumption literals, so an unsat answer comes with the box literals
// that suffice (the core).

import (
	"fmt"

	"vigil/internal/vigilerr"
	"vigil/symbolic"
)

// Step answers one-step queries of one model.
type Step struct {
	E    *Encoder
	S    *Solver
	T    *Transition
	Lits *Literals
	nact int
	as   []Term
	box  []Lit
	// witness: the terms Witness evaluates (current and next state, then
	// every outcome's literal), made once.
	witness, wlabel []Term
}

// NewStep encodes m's transition relation (selected by opts) into a fresh
// solver of x.
func NewStep(x *Context, m *symbolic.Model, opts TransOptions) (*Step, error) {
	e, err := NewEncoder(x, m)
	if err != nil {
		return nil, err
	}
	tr, err := e.Transition(opts)
	if err != nil {
		return nil, err
	}
	s, err := x.NewSolver()
	if err != nil {
		return nil, err
	}
	if err := s.Assert(tr.Formula); err != nil {
		s.Close()
		return nil, err
	}
	return &Step{E: e, S: s, T: tr, Lits: e.NewLiterals(s)}, nil
}

// Activation returns a fresh activation literal (pinned in the context).
func (st *Step) Activation() Term {
	st.nact++
	return st.E.X.Keep(st.E.X.BoolConst(fmt.Sprintf("act.%d", st.nact)))
}

// Block asserts act => ¬cube over the next state (next) or the current
// one: the clause that removes cube from the frame act activates.
func (st *Step) Block(act Term, cube []Lit, next bool) error {
	x := st.E.X
	mark := x.Mark()
	defer x.Release(mark)
	vs := st.E.Cur
	if next {
		vs = st.E.Next
	}
	return st.S.Assert(x.Implies(act, st.E.Clause(cube, vs)))
}

// BlockLabel asserts act => ¬(label ∧ cube) over the current state: the
// steps under label from the states of cube are left out of the queries
// that assume act (PolIC3: the policy never chooses label there).
func (st *Step) BlockLabel(act Term, label symbolic.LabelID, cube []Lit) error {
	if int(label) < 0 || int(label) >= len(st.T.Label) {
		return fmt.Errorf("smt: label %d out of range", label)
	}
	x := st.E.X
	mark := x.Mark()
	defer x.Release(mark)
	return st.S.Assert(x.Implies(act, x.Or(x.Not(st.T.Label[label]), st.E.Clause(cube, st.E.Cur))))
}

// Retire asserts ¬act for good: the frame's clauses stop mattering.
func (st *Step) Retire(act Term) error { return st.S.Assert(st.E.X.Not(act)) }

// Query decides whether some state in box (on the current state) has a
// transition under label (NoLabel: any label) into a state satisfying the
// clauses of the active frames acts.
func (st *Step) Query(box []Lit, label symbolic.LabelID, acts ...Term) (Result, error) {
	var err error
	st.box = append(st.box[:0], box...)
	st.as, err = st.Lits.AssumeAll(st.as[:0], box, false)
	if err != nil {
		return Unknown, err
	}
	if label != symbolic.NoLabel {
		if int(label) < 0 || int(label) >= len(st.T.Label) {
			return Unknown, fmt.Errorf("smt: label %d out of range", label)
		}
		st.as = append(st.as, st.T.Label[label])
	}
	st.as = append(st.as, acts...)
	return st.S.Check(st.as...)
}

// Core returns, after an Unsat Query, the box literals in the unsat core:
// a sub-box from which the query is still unsat.
func (st *Step) Core() ([]Lit, error) {
	idx, err := st.S.Core()
	if err != nil {
		return nil, err
	}
	var ls []Lit
	for _, i := range idx {
		if i < len(st.box) {
			ls = append(ls, st.box[i])
		}
	}
	return ls, nil
}

// WitnessLabel returns, after a Sat check, the current state and the
// label of the transition found: fewer terms to evaluate than Witness.
func (st *Step) WitnessLabel() (from symbolic.State, label symbolic.LabelID, err error) {
	n := len(st.E.Cur)
	if st.wlabel == nil {
		st.wlabel = append(append([]Term(nil), st.E.Cur...), st.T.Label...)
	}
	vals := make([]int64, len(st.wlabel))
	if err = st.S.Eval(st.wlabel, vals); err != nil {
		return
	}
	from = make(symbolic.State, n)
	for i := 0; i < n; i++ {
		from[i] = int(vals[i])
	}
	for l, v := range vals[n:] {
		if v == 1 {
			return from, symbolic.LabelID(l), nil
		}
	}
	return from, -1, vigilerr.Internalf("smt", "the model takes no label")
}

// Witness returns, after a Sat Query, the transition found: the current
// and next states and the command and outcome taken.
func (st *Step) Witness() (from, to symbolic.State, cmd, outcome int, err error) {
	// One evaluation for everything: each Eval fetches the model anew,
	// which costs more than evaluating the terms.
	n := len(st.E.Cur)
	if st.witness == nil {
		st.witness = append(append([]Term(nil), st.E.Cur...), st.E.Next...)
		for _, os := range st.T.Outcome {
			st.witness = append(st.witness, os...)
		}
	}
	vals := make([]int64, len(st.witness))
	if err = st.S.Eval(st.witness, vals); err != nil {
		return
	}
	from, to = make(symbolic.State, n), make(symbolic.State, n)
	for i := 0; i < n; i++ {
		from[i], to[i] = int(vals[i]), int(vals[n+i])
	}
	k := 2 * n
	for c, os := range st.T.Outcome {
		for j := range os {
			if vals[k] == 1 {
				return from, to, c, j, nil
			}
			k++
		}
	}
	return from, to, -1, -1, vigilerr.Internalf("smt", "the model takes no outcome")
}
