package cert

import (
	"context"
	"fmt"
	"strconv"

	"vigil/smt"
)

// WithRlimit is smt.WithRlimit: the one resource limit of a context,
// which every CheckContext of package smt applies to its check, the
// checks of this package (Check, CheckWith, a FactChecker's Check)
// included. It bounds each of their Z3 queries by Z3's deterministic
// resource limit n (rlimit, Z3's own units of work; 0: no limit, as
// without it). vigil cert check --rlimit sets it, and so does vigil
// verify --rlimit, for the SMT engines' queries and for the check of
// the invariant they find alike. A query that reaches the limit is
// undecided: the check ends with an *Inconclusive whose Reason says that
// the resource limit was reached, never with a valid answer and never
// with a *Failure. The limit bounds Z3 only: a small model's conditions
// and a small box's policy facts are decided by exact evaluation,
// without Z3, under any limit.
//
// The limit is the caller's own, for its own check: it is read from the
// context of that check, never from a process-wide setting. Only smt's
// plumbing is shared with the engines, none of their code (doc.go).
func WithRlimit(ctx context.Context, n uint32) context.Context {
	return smt.WithRlimit(ctx, n)
}

// undecided is the *Inconclusive of a query of the condition that Z3 left
// undecided under ctx, which has not ended; reason is the solver's
// ReasonUnknown.
//
// Under a limit (smt.RlimitOf(ctx) > 0) the checker's solvers take it
// from ctx (smt.Solver.CheckContext), and smt says "resource limit
// (rlimit N)" when a check runs out of it; Z3's own words for that are
// "canceled" (its one-shot solvers, with Z3 4.8.12's API), "max.
// resource limit exceeded", or only "unknown" (its incremental solver).
// A check whose context ended is a stop, never an *Inconclusive (the
// callers tell it first); so each of these is the resource limit: the
// message says so, and how to raise it, in the words of both commands
// that set it (each has --rlimit), instead of reading like an
// interruption (or saying "unknown: unknown").
func undecided(ctx context.Context, condition, reason string) *Inconclusive {
	u := inconclusive(condition, reason)
	n := smt.RlimitOf(ctx)
	limit := reason == "canceled" || reason == "max. resource limit exceeded"
	if n > 0 && (reason == "unknown" || reason == fmt.Sprintf("resource limit (rlimit %d)", n)) {
		limit = true
	}
	if limit {
		u.Rlimit = n
		if n == 0 {
			// no limit of the caller's: Z3 gave up by a limit of its
			// own (memory_max_size, max_memory), not an interrupt
			u.Reason = "Z3 stopped at a resource limit of its own (reason " + strconv.Quote(reason) + "), not interrupted"
		} else {
			u.Reason = "the resource limit was reached (--rlimit " + strconv.FormatUint(uint64(n), 10) + " per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)"
		}
	}
	return u
}
