// Package smt is vigil's binding to the Z3 SMT solver (through cgo, against
// the system's libz3; on Debian and Ubuntu: apt-get install libz3-dev) and
// the encoding of symbolic models into it: conditions, expressions, variable
// ranges, the transition relation and boxes of states as assumption
// literals. No other package of vigil imports "C".
//
// # Ownership
//
// A Context owns everything made from it and is used by one goroutine at a
// time; only Context.Interrupt may be called from elsewhere (to stop a
// running check). Close frees the context, its solvers and its terms.
//
// Terms live in the context's arena: every constructor takes one Z3
// reference and records it. Context.Mark and Context.Release(mark) drop
// the references of the terms made since the mark, in one sweep, so that a
// hot loop (one IC3 query) builds its temporary terms after a mark and
// releases them afterwards; terms made before the mark (the transition
// relation) stay valid. Context.Keep pins a term until Close, beyond any
// Release, for terms that outlive the scope they were made in (assumption
// literals, activation literals); small integer literals and true/false
// are pinned by the context itself. A Term is a plain value without a
// finalizer: no cleanup ever runs on another goroutine, and nothing is
// freed behind the caller's back. Using a term after its release, or
// mixing terms of two contexts, is a bug the binding does not detect (and
// may crash in Z3).
//
// Solvers are freed with Solver.Close (or with their context). A solver
// rebuilds itself every DefaultRecycle checks at scope level 0 (same
// assertions, same limits): Z3 4.8.12 otherwise slows down and grows over
// long runs of checks. Models are never handed out: Solver.Eval reads the
// model of the last check in one call and frees it. Strings from Z3 are
// copied at once.
//
// # Errors
//
// Z3 runs with a null error handler, so an error sets an error code that
// every call checks: nothing unwinds or exits through cgo frames. Term
// constructors record the first error in the context (Context.Err) and
// return the zero Term from then on; Assert and Check report it. A check
// stopped by a timeout, a resource limit or an interruption answers
// Unknown, never Sat or Unsat.
//
// # Encoding
//
// An Encoder maps a symbolic.Model onto integer constants, one per variable
// for the current state and one for the next state (Booleans are 0/1
// integers, as in the IR). Expressions are encoded exactly: if/min/max/abs
// become ite terms and division by a positive constant is SMT-LIB's div,
// which rounds toward negative infinity for positive divisors. See
// encode.go for the transition relation, box.go for bound literals and
// boxes, and step.go for IC3's one-step query (Step). check.go holds the
// range and deadlock checks behind vigil check --bounds and --deadlocks.
//
// Z3 4.8.12's pseudo-Boolean atmost constraint loses models under push/pop
// with blocking clauses (the cross-check tests found it), so the binding
// does not offer it and the encoding picks the outcome with an integer.
package smt
