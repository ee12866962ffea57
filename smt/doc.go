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
// relation, cached literals) stay valid. A Term is a plain value without a
// finalizer: no cleanup ever runs on another goroutine, and nothing is
// freed behind the caller's back. Using a term after its release, or
// mixing terms of two contexts, is a bug the binding does not detect.
//
// Solvers are freed with Solver.Close (or with their context). Models are
// never handed out: Solver.Eval reads the model of the last check in one
// call and frees it. Strings from Z3 are copied at once.
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
// encode.go for the transition relation and box.go for boxes.
package smt
