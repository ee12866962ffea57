package cert

import (
	"context"
	"strconv"

	"vigil/smt"
)

// rlimitKey is the key of WithRlimit's limit in a context.
type rlimitKey struct{}

// WithRlimit returns a copy of ctx under which the checks of this package
// (Check, CheckWith, a FactChecker's Check) bound each of their Z3 queries
// by Z3's deterministic resource limit n (rlimit, Z3's own units of work;
// 0: no limit, as without it). vigil cert check --rlimit sets it. A query
// that reaches the limit is undecided: the check ends with an
// *Inconclusive whose Reason says that the resource limit was reached,
// never with a valid answer and never with a *Failure. The limit bounds
// Z3 only: a small model's conditions and a small box's policy facts are
// decided by exact evaluation, without Z3, under any limit.
//
// The limit is the caller's own, for its own check: it is read from the
// context of that check, never from a process-wide setting.
func WithRlimit(ctx context.Context, n uint32) context.Context {
	return context.WithValue(ctx, rlimitKey{}, n)
}

// rlimitOf is the limit WithRlimit put in ctx, 0 when none.
func rlimitOf(ctx context.Context) uint32 {
	n, _ := ctx.Value(rlimitKey{}).(uint32)
	return n
}

// limitSolver sets the resource limit of ctx, if any, on sv, one of the
// checker's solvers, after the checker's own tuning.
func limitSolver(ctx context.Context, sv *smt.Solver) error {
	n := rlimitOf(ctx)
	if n == 0 {
		return nil
	}
	if err := sv.SetParams(smt.Param{Name: "rlimit", Value: strconv.FormatUint(uint64(n), 10)}); err != nil {
		return errorf("%v", err)
	}
	return nil
}

// undecided is the *Inconclusive of a query of the condition that Z3 left
// undecided under ctx, which has not ended; reason is Z3's ReasonUnknown.
//
// Z3 says "canceled" both when it is interrupted and when its resource
// limit runs out (Z3_solver_get_reason_unknown after rlimit, with Z3
// 4.8.12's API, on the one-shot solvers of the conditions); its
// incremental solver (the policy facts' queries) says only "unknown"
// then. A check whose context ended is a stop, never an *Inconclusive
// (the callers tell it first); so a "canceled" here, or Z3's "max.
// resource limit exceeded", or a bare "unknown" under a limit, is the
// resource limit: the message says so, and how to raise it, instead of
// reading like an interruption (or saying "unknown: unknown").
func undecided(ctx context.Context, condition, reason string) *Inconclusive {
	u := inconclusive(condition, reason)
	limit := reason == "canceled" || reason == "max. resource limit exceeded"
	if reason == "unknown" && rlimitOf(ctx) > 0 {
		limit = true
	}
	if limit {
		u.Rlimit = rlimitOf(ctx)
		if u.Rlimit == 0 {
			// no limit of the caller's: Z3 gave up by a limit of its
			// own (memory_max_size, max_memory), not an interrupt
			u.Reason = "Z3 stopped at a resource limit of its own (reason " + strconv.Quote(reason) + "), not interrupted"
		} else {
			u.Reason = "the resource limit was reached (--rlimit " + strconv.FormatUint(uint64(u.Rlimit), 10) + " per Z3 query; a larger --rlimit, or 0 for no limit, lets Z3 go on)"
		}
	}
	return u
}
