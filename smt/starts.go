package smt

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"vigil/symbolic"
)

// StartSolver returns the SMT fallback of explicit's start sampler
// (explicit.SamplerOptions.Solve) for model m: distinct
// solutions of the conditions, each found in a random orthant around a
// uniform point of the box (assumed bounds x >= p or x <= p per variable,
// dropped when they make the query unsatisfiable), then blocked. Draws
// from this set are spread over the solution space but not uniform over
// it; the sampler's description says so. At most 2 seconds are spent.
func StartSolver(m *symbolic.Model) func(ctx context.Context, conds []*symbolic.Cond, vars []symbolic.VarID, lo, hi []int, k int, r *rand.Rand) ([][]int, error) {
	return func(ctx context.Context, conds []*symbolic.Cond, vars []symbolic.VarID, lo, hi []int, k int, r *rand.Rand) ([][]int, error) {
		x, err := NewContext()
		if err != nil {
			return nil, err
		}
		defer x.Close()
		e, err := NewEncoder(x, m)
		if err != nil {
			return nil, err
		}
		s, err := x.NewSolver()
		if err != nil {
			return nil, err
		}
		for i, v := range vars {
			if err := s.Assert(x.And(x.Ge(e.Cur[v], x.Int(int64(lo[i]))), x.Le(e.Cur[v], x.Int(int64(hi[i]))))); err != nil {
				return nil, err
			}
		}
		for _, c := range conds {
			if err := s.Assert(e.Cond(c, e.Cur)); err != nil {
				return nil, err
			}
		}
		if err := x.Err(); err != nil {
			return nil, err
		}
		// Each check has a deterministic budget (Z3's rlimit), not a share
		// of a wall-clock one: the solutions found, and so every start
		// state drawn from them, are the same on a loaded machine (a 2 s
		// budget gave vigil env's reset(seed=1) other start states under
		// load). startChecks bounds the checks; the long timeout is only a
		// guard, whose expiry is an error, never fewer solutions.
		if err := s.SetLimits(Limits{Rlimit: startRlimit}); err != nil {
			return nil, err
		}
		parent := ctx
		ctx, cancel := context.WithTimeout(ctx, startGuard)
		defer cancel()
		checks := 0
		vs := make([]Term, len(vars))
		for i, v := range vars {
			vs[i] = e.Cur[v]
		}
		var out [][]int
		vals := make([]int64, len(vs))
		for len(out) < k && ctx.Err() == nil {
			// Random bounds around a uniform point, as many as hold.
			var bounds []Term
			for i := range vars {
				p := lo[i] + int(r.Int64N(int64(hi[i]-lo[i])+1))
				if r.IntN(2) == 0 {
					bounds = append(bounds, x.Ge(vs[i], x.Int(int64(p))))
				} else {
					bounds = append(bounds, x.Le(vs[i], x.Int(int64(p))))
				}
			}
			r.Shuffle(len(bounds), func(i, j int) { bounds[i], bounds[j] = bounds[j], bounds[i] })
			res := Unknown
			for {
				if err := s.Push(); err != nil {
					return nil, err
				}
				if len(bounds) > 0 {
					if err := s.Assert(x.And(bounds...)); err != nil {
						return nil, err
					}
				}
				if checks++; checks > startChecks {
					res = Unknown
					if perr := s.Pop(1); perr != nil {
						return nil, perr
					}
					break
				}
				res, err = s.CheckContext(ctx)
				if err != nil {
					return nil, err
				}
				if res == Unknown && ctx.Err() != nil {
					if err := parent.Err(); err != nil {
						return nil, err
					}
					return nil, fmt.Errorf("smt: sampling start states took longer than %v; the start condition is hard to satisfy", startGuard)
				}
				if res == Sat {
					err = s.Eval(vs, vals)
					if err != nil && ctx.Err() != nil {
						// The time limit's interrupt landed between the
						// check and the model: out of time, not an error.
						res, err = Unknown, nil
					}
				}
				if perr := s.Pop(1); err == nil {
					err = perr
				}
				if err != nil {
					return nil, err
				}
				if res != Unsat || len(bounds) == 0 {
					break
				}
				bounds = bounds[:len(bounds)/2]
			}
			if res != Sat {
				break // unsat: every solution found; unknown: out of time
			}
			sol := make([]int, len(vs))
			block := make([]Term, len(vs))
			for i, v := range vals {
				sol[i] = int(v)
				block[i] = x.Ne(vs[i], x.Int(v))
			}
			out = append(out, sol)
			if err := s.Assert(x.Or(block...)); err != nil {
				return nil, err
			}
		}
		if len(out) == 0 {
			if err := parent.Err(); err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("smt: found no start state within Z3's resource limit; the start condition is hard to satisfy")
		}
		return out, nil
	}
}

// The start solver's budgets: Z3's deterministic resource limit per check
// and the number of checks (each solution takes one, plus one per halving
// of its random bounds); startGuard only guards against a runaway.
const (
	startRlimit = 5_000_000
	startChecks = 4096
	startGuard  = 60 * time.Second
)
