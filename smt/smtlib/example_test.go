package smtlib_test

import (
	"os"

	"vigil/smt/smtlib"
	"vigil/symbolic"
)

// ExampleWriteCHC writes the Horn clauses of a counter that must not
// reach 3; `z3 FILE` answers unsat (unsafe): x counts 0, 1, 2, 3.
func ExampleWriteCHC() {
	m := &symbolic.Model{
		Name:   "count",
		Vars:   []symbolic.Var{{Name: "x", Hi: 3, HasInit: true}},
		Labels: []symbolic.Label{{Name: "inc"}},
		Commands: []symbolic.Command{{
			Label: 0,
			Guard: symbolic.Compare(symbolic.V(0), symbolic.Lt, symbolic.Lit(3)),
			Outcomes: []symbolic.Outcome{{Assigns: []symbolic.Assign{{
				Var:   0,
				Value: &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{symbolic.V(0), symbolic.Lit(1)}},
			}}}},
		}},
		Properties: []*symbolic.Property{{Name: "p", Unsafe: symbolic.Compare(symbolic.V(0), symbolic.Eq, symbolic.Lit(3))}},
	}
	if err := smtlib.WriteCHC(os.Stdout, smtlib.Question{Model: m, Property: m.Properties[0]}); err != nil {
		panic(err)
	}
	// Output:
	// ; model count, property p, no policy: every applicable label may be taken
	// ; start states: the variables' initial values
	// ; a state is one Int per variable (a Boolean is 0 or 1 and holds when
	// ; non-zero); the next state's copy of |x| is |x'|:
	// ;   |x| 0..3 init 0
	// ; Horn clauses: sat = safe (an inductive invariant vigil.inv excludes every
	// ; bad state), unsat = unsafe (a bad state is reachable).
	// (set-logic HORN)
	//
	// ; every variable is within its range
	// (define-fun vigil.inrange ((|x| Int)) Bool
	//   (<= 0 |x| 3))
	//
	// ; the unsafe condition of property p
	// (define-fun vigil.unsafe ((|x| Int)) Bool
	//   (= |x| 3))
	//
	// ; terminal states (unsafe or goal) have no successors
	// (define-fun vigil.terminal ((|x| Int)) Bool
	//   (vigil.unsafe |x|))
	//
	// ; start states
	// (define-fun vigil.init ((|x| Int)) Bool
	//   (and (vigil.inrange |x|) (= |x| 0)))
	//
	// (declare-fun vigil.inv (Int) Bool)
	// (assert (forall ((|x| Int)) (=> (vigil.init |x|) (vigil.inv |x|))))
	//
	// ; one step: s and s' are in range, s is not terminal, a command is enabled in s
	// ; whose label the policy chooses (any label without a policy), and s' is one
	// ; of its outcomes
	// (assert (forall ((|x| Int) (|x'| Int)) (=> (and (vigil.inv |x|) (vigil.inrange |x|) (vigil.inrange |x'|) (not (vigil.terminal |x|))
	//     ; action inc
	//       (and (< |x| 3) (= |x'| (+ |x| 1))))
	//   (vigil.inv |x'|))))
	//
	// ; no reachable state is bad: unsafe, or not terminal where an enabled outcome
	// ; would leave a variable's range (the explicit engine's range error)
	// (assert (forall ((|x| Int)) (=> (and (vigil.inv |x|) (vigil.inrange |x|)
	//   (or (vigil.unsafe |x|)
	//     (and (not (vigil.terminal |x|))
	//     (or
	//       ; action inc
	//       (and (< |x| 3) (not (<= 0 (+ |x| 1) 3)))))))
	//   false)))
	// (check-sat)
}
