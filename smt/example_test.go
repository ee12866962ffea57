package smt_test

import (
	"fmt"

	"vigil/smt"
	"vigil/symbolic"
)

// Example asks IC3's question: is there a transition from the box
// x >= 2, y <= 1, taking label inc, into the frame x' <= 1? The unsat core
// says that x >= 2 alone rules it out.
func Example() {
	m := &symbolic.Model{
		Vars:   []symbolic.Var{{Name: "x", Hi: 3}, {Name: "y", Hi: 3}},
		Labels: []symbolic.Label{{Name: "inc"}},
		Commands: []symbolic.Command{{
			Label: 0,
			Guard: symbolic.Compare(symbolic.V(0), symbolic.Lt, symbolic.Lit(3)),
			Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{
				Var:   0,
				Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(0), symbolic.Lit(1)}},
			}}}},
		}},
	}
	x, err := smt.NewContext()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer x.Close()
	e, _ := smt.NewEncoder(x, m)
	tr, _ := e.Transition(smt.TransOptions{})
	s, _ := x.NewSolver()
	s.Assert(tr.Formula)
	s.Assert(e.Cube([]smt.Lit{{Var: 0, Upper: true, K: 1}}, e.Next)) // the frame
	box := []smt.Lit{{Var: 0, K: 2}, {Var: 1, Upper: true, K: 1}}
	lits := e.NewLiterals(s)
	as, _ := lits.AssumeAll(nil, box, false)
	r, _ := s.Check(append(as, tr.Label[0])...)
	fmt.Println(r)
	core, _ := s.Core()
	for _, i := range core {
		if i < len(box) {
			fmt.Println("needed:", box[i].Format(m))
		}
	}
	// Output:
	// unsat
	// needed: x >= 2
}
