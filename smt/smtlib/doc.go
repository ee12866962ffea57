// Package smtlib prints a model's safety question as SMT-LIB2 text, in
// three forms: the transition system for other solvers (WriteSystem,
// vigil export --smt2), constrained Horn clauses for Z3's Spacer
// (WriteCHC, vigil export --chc), and a certificate that an inductive
// invariant proves the question safe, checked by the stock z3 binary
// (WriteCert, vigil verify --engine ic3 --cert FILE). It is plain Go: it
// does not import the Z3 binding (package smt) and builds with
// CGO_ENABLED=0 (TestBuildsWithoutCgo), it shares no code with the
// binding's encoder (Encoder.Transition, which ic3 searches with), and
// the tests check that the two, and the explicit engine, agree. CertScript
// gives a certificate's checks as text for a solver's SMT-LIB2 front end:
// the independent certificate checker (package ic3/cert) solves them so.
// It also gives each check over the current state alone (Check.Post, the
// successor replaced by each outcome's values) and their disjunction
// (Script.Posts), which the checker evaluates in every state of a small
// model instead of asking Z3.
//
// # What z3 FILE proves
//
// Only the file's own definitions: that the vigil.inv written in the file
// contains the vigil.init written there, is closed under the vigil.trans
// written there and excludes the vigil.bad written there. Nothing in the
// file ties those definitions to a model file, its -D values or a policy:
// an edited vigil.trans passes z3 as readily as the true one. That binding
// is vigil cert check's job, which rebuilds every definition from the
// model the header names (checking its hash and -D values) and reads only
// the invariant and the header from the file. A learned policy's facts
// ("label a is never chosen in box i") are header comments: z3 never
// checks them; vigil cert check re-checks each against the policy. What
// z3 does check of a learned policy's file is what the facts are used
// for: consecution and range errors per label, each over the part of the
// invariant outside the regions of the facts that exclude the label
// (vigil.inv.<a>), as vigil cert check does with the regions it rebuilds
// from the header.
//
// # The question
//
// A Question is a model, a property and an optional rules or table
// policy. A state s is one Int per model variable; a Boolean is 0 or 1
// and holds when non-zero. The printed definitions follow the explicit
// engine (symbolic/explicit) exactly:
//
//	vigil.inrange(s)   every variable within its range
//	vigil.init(s)      inrange(s) and the start condition, or s = the initial values
//	vigil.unsafe(s)    the property's unsafe condition
//	vigil.terminal(s)  unsafe(s) or the goal: no successors
//	vigil.app.<a>(s)   some command of label a has a true guard (with a policy)
//	vigil.rule.<n>(s)  rule n fires: its condition holds and its label is applicable
//	vigil.chosen.<a>(s) the policy chooses a: the first rule that fires names a;
//	                   for a table, s is a row labelled a (the last row of s wins)
//	                   and a is applicable. No label holds where the policy is stuck.
//	vigil.trans(s, s') inrange(s), inrange(s'), not terminal(s), and for some command
//	                   c of label a (chosen by the policy) and outcome j: guard_c(s)
//	                   and every s'_v is outcome j's value for v (s_v if unassigned)
//	vigil.rangeerr(s)  not terminal(s) and an enabled (chosen) command has an outcome
//	                   whose value leaves a variable's range
//	vigil.bad(s)       inrange(s) and (unsafe(s) or rangeerr(s))
//
// The explicit engine reports a reachable range error as an error; here it
// is bad, so that "safe" rules it out. A learned policy's certificate
// (WriteCertFacts) writes no vigil.rangeerr and vigil.bad: the policy is
// not encoded, so range errors are written per label,
//
//	vigil.rangeerr.<a>(s) not terminal(s) and an enabled command of label a
//	                      has an outcome whose value leaves a variable's range
//
// and checked, after consecution, as "rangeerr <a>": vigil.inv.<a>(s),
// inrange(s) and vigil.rangeerr.<a>(s) must be unsat, for each label a
// whose commands may leave a range; the safety check is then vigil.inv,
// inrange and vigil.unsafe. (A range error counts only under the label
// the policy chooses, and a fact that excludes a label there says the
// policy does not choose it.) The relation is a plain disjunction
// with no choice variables, so the Horn clauses need no extra quantified
// variables. Expressions are exact: division by a positive constant is
// SMT-LIB's div, which floors for positive divisors, negative numerals
// are (- 5). A definition holds no ite term (Z3 4.8.12's parser takes
// time exponential in their nesting to read a define-fun that has them,
// see lift.go): an atom over min, max, abs, if or a condition used as a
// number is written as the disjunction of its cases, (= |x'| (min |x| 3))
// as (or (and (<= |x| 3) (= |x'| |x|)) (and (> |x| 3) (= |x'| 3))), and a
// policy's first-rule choice with and, or and not. Only where an atom
// would have more than 64 cases, and in the checks' one-point formulas
// (Check.Post, asserted rather than defined), are min, max, abs and if
// ite terms (operands that are not symbols or numerals bound once with
// let, to vigil.a and vigil.b).
//
// Every function takes the state as parameters named like the variables,
// |x| for the current state and |x'| for the next one, so that one
// definition serves both. A variable name that cannot be quoted (it holds
// | or \ or a control character), that is an SMT-LIB reserved word or
// Core or Ints symbol (and, div, _, ...), or that makes a symbol collide
// with another (x and x', or a variable named vigil.init) is an error, as
// are learned (nn, trees) policies, which have no exact encoding.
//
// # Horn clauses
//
// WriteCHC writes (set-logic HORN), the definitions, an unknown predicate
// (declare-fun vigil.inv (Int ... Int) Bool) and three clauses (the second
// left out when no command has an outcome): init => inv; inv(s),
// inrange(s), inrange(s'), not terminal(s) and the commands' disjuncts of
// trans(s, s') => inv(s'); inv(s), inrange(s) and (unsafe(s) or (not
// terminal(s) and rangeerr's disjuncts)) => false. They are init => inv,
// inv and trans => inv', inv and bad => false with vigil.trans,
// vigil.rangeerr and vigil.bad written out rather than defined, and any
// other definition whose body holds an ite term (a condition with an atom
// of more than maxCases cases), or uses one that does, bound with let
// inside each clause that uses it rather than defined: Z3 4.8.12 reads a
// define-fun with ite terms slowly (lift.go) and a clause's constraint as
// a plain term. z3 FILE answers sat when the question is safe and unsat
// when a bad state is reachable.
//
// # Certificates
//
// WriteCert writes a self-contained file: the caller's header lines as
// comments, a comment block naming the question, the definitions, the
// invariant, the state constants and three checks, each of which z3 must
// answer unsat. The invariant is a union of boxes; its definition has
// exactly this line structure, which the independent certificate checker
// parses (a box per line, each the conjunction of its bound literals
// Var >= K or Var <= K, or of linear atoms sum C*Var >= K or <= K written
// (>= (+ (* C |x|) |y|) K) with exact integer coefficients, numerals
// negative as (- K); an empty box is the line true; an empty invariant
// is the single line false; with a linear atom the comment line says "a
// union of regions (conjunctions of bounds and linear atoms)"):
//
//	; vigil ic3 certificate
//	; model counter, property p, policy pi (rules)
//	... (the definitions of vigil.init, vigil.trans, vigil.bad and their helpers)
//
//	; the invariant: a union of boxes, one per line
//	(define-fun vigil.inv ((|x| Int) (|y| Int)) Bool
//	(or
//	(and (>= |x| 1) (<= |y| 5))
//	(and (<= |x| (- 2)))
//	true
//	))
//
//	(declare-const |x| Int)
//	(declare-const |y| Int)
//	(declare-const |x'| Int)
//	(declare-const |y'| Int)
//	(echo "init")
//	(push 1)
//	(assert (and (vigil.init |x| |y|) (not (vigil.inv |x| |y|))))
//	(check-sat)
//	(pop 1)
//	(echo "consecution")
//	(push 1)
//	(assert (and (vigil.inv |x| |y|) (vigil.trans |x| |y| |x'| |y'|) (not (vigil.inv |x'| |y'|))))
//	(check-sat)
//	(pop 1)
//	(echo "safety")
//	(push 1)
//	(assert (and (vigil.inv |x| |y|) (vigil.bad |x| |y|)))
//	(check-sat)
//	(pop 1)
//
// and an empty invariant is
//
//	(define-fun vigil.inv ((|x| Int) (|y| Int)) Bool
//	false
//	)
//
// With disequalities (Question.Differ, PolIC3's invariant for models
// whose steps permute values) a definition of them comes first and
// vigil.inv conjoins it, with the same line structure inside:
//
//	; the disequality invariant: these pairs of variables differ (the header's differ lines)
//	(define-fun vigil.differ ((|x| Int) (|y| Int)) Bool
//	  (not (= |x| |y|)))
//	; the invariant: the disequalities and a union of boxes, one per line
//	(define-fun vigil.inv ((|x| Int) (|y| Int)) Bool
//	(and (vigil.differ |x| |y|)
//	(or
//	(and (>= |x| 1) (<= |y| 5))
//	)))
//
// (several pairs: (and (not (= |x| |y|)) ...)).
//
// z3 FILE then prints init, unsat, consecution, unsat, safety, unsat
// (one per line) for a valid certificate; a sat names the check that
// fails. A model without variables applies its functions by name alone
// (vigil.init rather than (vigil.init)).
//
// RunZ3 runs the z3 binary on a file, for tests and for commands that
// hand a file to Z3.
package smtlib
