// Package smtbench is the IC3-sized query workload shared by smt's benchmarks
// and the cmd/smt-rss measurement program: one-step transitions from a
// random box, under a random label, into a frame of random clauses.
package smtbench

import (
	"fmt"
	"math/rand/v2"

	"vigil/smt"
	"vigil/symbolic"
)

// Workload holds one solver with the transition relation asserted and a
// frame of clauses over the next state guarded by an activation literal.
type Workload struct {
	M     *symbolic.Model
	X     *smt.Context
	E     *smt.Encoder
	S     *smt.Solver
	T     *smt.Transition
	Lits  *smt.Literals
	Act   smt.Term    // activates Frame
	Frame [][]smt.Lit // each clause is the negation of its cube
	r     *rand.Rand
	as    []smt.Term
	// Sat and Unsat count the answers.
	Sat, Unsat int
}

// New builds the workload for m with a frame of n clauses.
func New(m *symbolic.Model, seed uint64, n int) (*Workload, error) {
	x, err := smt.NewContext()
	if err != nil {
		return nil, err
	}
	w := &Workload{M: m, X: x, r: rand.New(rand.NewPCG(seed, 1))}
	fail := func(err error) (*Workload, error) { x.Close(); return nil, err }
	if w.E, err = smt.NewEncoder(x, m); err != nil {
		return fail(err)
	}
	if w.T, err = w.E.Transition(smt.TransOptions{Property: m.Property("")}); err != nil {
		return fail(err)
	}
	if w.S, err = x.NewSolver(); err != nil {
		return fail(err)
	}
	if err := w.S.Assert(w.T.Formula); err != nil {
		return fail(err)
	}
	w.Lits = w.E.NewLiterals(w.S)
	w.Act = x.Keep(x.BoolConst("frame.act"))
	for i := 0; i < n; i++ {
		c := w.point(2)
		w.Frame = append(w.Frame, c)
		if err := w.S.Assert(x.Implies(w.Act, w.E.Clause(c, w.E.Next))); err != nil {
			return fail(err)
		}
	}
	// Make every literal a box can use now, outside any scope.
	for v := range m.Vars {
		for k := m.Vars[v].Lo; k <= m.Vars[v].Hi; k++ {
			for _, up := range []bool{false, true} {
				if _, err := w.Lits.Assume(smt.Lit{Var: symbolic.VarID(v), Upper: up, K: k}, false); err != nil {
					return fail(err)
				}
			}
		}
	}
	return w, x.Err()
}

// cube returns a random cube of n bound literals (n distinct variables
// when the model has enough).
func (w *Workload) cube(n int) []smt.Lit {
	var ls []smt.Lit
	for i := 0; i < n; i++ {
		v := symbolic.VarID(w.r.IntN(len(w.M.Vars)))
		vr := &w.M.Vars[v]
		ls = append(ls, smt.Lit{Var: v, Upper: w.r.IntN(2) == 0, K: vr.Lo + w.r.IntN(vr.Size())})
	}
	return ls
}

// point returns the cube of a random partial assignment to n variables
// (what IC3 blocks before generalising).
func (w *Workload) point(n int) []smt.Lit {
	var vars []symbolic.VarID
	var vals []int
	for i := 0; i < n; i++ {
		v := symbolic.VarID(w.r.IntN(len(w.M.Vars)))
		vars = append(vars, v)
		vals = append(vals, w.M.Vars[v].Lo+w.r.IntN(w.M.Vars[v].Size()))
	}
	return smt.Point(vars, vals)
}

func (w *Workload) query() ([]smt.Lit, symbolic.LabelID) {
	return w.cube(2 + w.r.IntN(4)), symbolic.LabelID(w.r.IntN(len(w.M.Labels)))
}

func (w *Workload) count(r smt.Result) error {
	switch r {
	case smt.Sat:
		w.Sat++
	case smt.Unsat:
		w.Unsat++
	default:
		return fmt.Errorf("bench: unknown: %s", w.S.ReasonUnknown())
	}
	return nil
}

// Assume runs one query with the box, the label and the frame as
// assumption literals, and takes the unsat core when there is one.
func (w *Workload) Assume() error {
	box, l := w.query()
	var err error
	w.as, err = w.Lits.AssumeAll(w.as[:0], box, false)
	if err != nil {
		return err
	}
	w.as = append(w.as, w.T.Label[l], w.Act)
	r, err := w.S.Check(w.as...)
	if err != nil {
		return err
	}
	if r == smt.Unsat {
		if _, err := w.S.Core(); err != nil {
			return err
		}
	}
	return w.count(r)
}

// Push runs one query without assumption literals: push, assert the box
// cube, the label and the 20 frame clauses as terms, check, pop.
func (w *Workload) Push() error {
	box, l := w.query()
	x, e := w.X, w.E
	mark := x.Mark()
	defer x.Release(mark)
	if err := w.S.Push(); err != nil {
		return err
	}
	ts := []smt.Term{e.Cube(box, e.Cur), w.T.Label[l]}
	for _, c := range w.Frame {
		ts = append(ts, e.Clause(c, e.Next))
	}
	if err := w.S.Assert(x.And(ts...)); err != nil {
		return err
	}
	r, err := w.S.Check()
	if err != nil {
		return err
	}
	if err := w.S.Pop(1); err != nil {
		return err
	}
	return w.count(r)
}

// Close frees the workload's context.
func (w *Workload) Close() { w.X.Close() }
