package prob

import (
	"context"
	"fmt"
	"math/big"

	"vigil/internal/vigilerr"
)

// maxRounds bounds policy iteration's improvement rounds.
const maxRounds = 1000

// solveExact is policy iteration in rational arithmetic, seeded by r.Sched
// (interval iteration's scheduler): it solves the chain the scheduler
// induces exactly, and switches a state's choice only to one that is
// strictly better, until no state can improve. The final values satisfy
// the Bellman equations exactly in every state, which makes them the
// optimum (see the package comment). zero are the states precomputation
// set to 0 (for min: Prob0E, whose scheduler is kept).
func solveExact(ctx context.Context, m *Model, g *graph, r *Result, target, zero []bool) error {
	n := m.NumStates()
	sched := append([]int32(nil), r.Sched...)
	for s := 0; s < n; s++ {
		if sched[s] < 0 && m.RowStart[s+1] > m.RowStart[s] && !target[s] {
			sched[s] = int32(m.RowStart[s])
		}
	}
	q := new(big.Rat)
	for round := 1; round <= maxRounds; round++ {
		x, err := chainValues(ctx, m, g, sched, target)
		if err != nil {
			return err
		}
		improved := false
		for s := 0; s < n; s++ {
			if target[s] || m.RowStart[s+1] == m.RowStart[s] {
				continue
			}
			if !r.Max && zero[s] {
				if x[s].Sign() != 0 {
					return vigilerr.Internalf("prob", "state %d has Pmin 0 but its scheduler reaches the target with probability %s", s, x[s].RatString())
				}
				continue
			}
			best := sched[s]
			bestV := x[s]
			for c := m.RowStart[s]; c < m.RowStart[s+1]; c++ {
				q.SetInt64(0)
				for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
					if t := x[m.To[e]]; t.Sign() != 0 {
						q.Add(q, new(big.Rat).Mul(m.Exact[e], t))
					}
				}
				if cmp := q.Cmp(bestV); r.Max && cmp > 0 || !r.Max && cmp < 0 {
					best, bestV = int32(c), new(big.Rat).Set(q)
				}
			}
			if best != sched[s] {
				sched[s] = best
				improved = true
			}
		}
		r.Rounds++
		if !improved {
			r.Exact = x
			r.Sched = sched
			for s := 0; s < n; s++ {
				if target[s] {
					r.Sched[s] = -1
				}
				f, _ := x[s].Float64()
				r.Lower[s], r.Upper[s] = f, f
			}
			return nil
		}
	}
	return fmt.Errorf("prob: the exact method did not converge in %d rounds of policy iteration (use --method ii)", maxRounds)
}

// chainValues returns the probability of reaching target in the chain
// that sched induces: 1 on target, 0 where the chain cannot reach it, and
// the solution of x = P x elsewhere, by sparse Gaussian elimination.
func chainValues(ctx context.Context, m *Model, g *graph, sched []int32, target []bool) ([]*big.Rat, error) {
	reach := reachUnder(g, sched, target)
	return newChainSystem(m, sched, target, reach).solve(ctx)
}

// solve eliminates the unknowns and substitutes back: every x is set.
func (sys *chainSystem) solve(ctx context.Context) ([]*big.Rat, error) {
	order, err := sys.eliminate(ctx)
	if err != nil {
		return nil, err
	}
	// Back substitution: a row mentions only states eliminated after it.
	x := sys.x
	for i := len(order) - 1; i >= 0; i-- {
		k := order[i]
		v := new(big.Rat).Set(sys.b[k])
		for j, a := range sys.rows[k] {
			v.Add(v, new(big.Rat).Mul(a, x[j]))
		}
		x[k] = v
	}
	return x, nil
}

// reachUnder returns the states that reach target under sched.
func reachUnder(g *graph, sched []int32, target []bool) []bool {
	return g.backwardBy(target, func(s uint32, c int) bool { return sched[s] == int32(c) })
}

// chainSystem is the linear system of a Markov chain's reachability
// probabilities, solved by Gaussian elimination in exact rationals: x[s]
// is known (1 on target, 0 where target is not reached), or
// x_s = b[s] + sum rows[s][t] x_t over the unknown t.
type chainSystem struct {
	x     []*big.Rat
	rows  []map[uint32]*big.Rat
	b     []*big.Rat
	users []map[uint32]bool // users[t]: the rows that mention t
}

// newChainSystem writes the system of the chain sched induces.
func newChainSystem(m *Model, sched []int32, target, reach []bool) *chainSystem {
	n := m.NumStates()
	sys := &chainSystem{x: make([]*big.Rat, n), rows: make([]map[uint32]*big.Rat, n), b: make([]*big.Rat, n), users: make([]map[uint32]bool, n)}
	x, users := sys.x, sys.users
	for s := 0; s < n; s++ {
		switch {
		case target[s]:
			x[s] = big.NewRat(1, 1)
		case !reach[s]:
			x[s] = new(big.Rat)
		}
	}
	for s := 0; s < n; s++ {
		if x[s] != nil {
			continue
		}
		c := sched[s]
		row := map[uint32]*big.Rat{}
		bs := new(big.Rat)
		for e := m.EntryStart[c]; e < m.EntryStart[c+1]; e++ {
			t := m.To[e]
			switch {
			case target[t]:
				bs.Add(bs, m.Exact[e])
			case x[t] != nil: // cannot reach: 0
			default:
				if v, ok := row[t]; ok {
					row[t] = new(big.Rat).Add(v, m.Exact[e])
				} else {
					row[t] = m.Exact[e]
				}
				if users[t] == nil {
					users[t] = map[uint32]bool{}
				}
				users[t][uint32(s)] = true
			}
		}
		sys.rows[s], sys.b[s] = row, bs
	}
	return sys
}

// eliminate eliminates the unknowns in breadth-first order (mostly
// forward models make few rows mention an earlier state) and returns
// that order; afterwards each row mentions only unknowns eliminated
// after it.
func (sys *chainSystem) eliminate(ctx context.Context) ([]uint32, error) {
	rows, b, users := sys.rows, sys.b, sys.users
	var order []uint32
	one := big.NewRat(1, 1)
	for s := range sys.x {
		if sys.x[s] != nil {
			continue
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("prob: exact solution stopped: %w", context.Cause(ctx))
		}
		order = append(order, uint32(s))
		k := uint32(s)
		row := rows[k]
		if self, ok := row[k]; ok {
			// x_k = (b_k + sum_{j≠k} a_kj x_j) / (1 - a_kk)
			delete(row, k)
			delete(users[k], k)
			f := new(big.Rat).Sub(one, self)
			if f.Sign() == 0 {
				return nil, vigilerr.Internalf("prob", "state %d is absorbing but was not found by precomputation", k)
			}
			f.Inv(f)
			for j, a := range row {
				row[j] = new(big.Rat).Mul(a, f)
			}
			b[k] = new(big.Rat).Mul(b[k], f)
		}
		// The pivot's work (as counted below), spent before it, so that
		// where a budget runs out (work.go) does not depend on the
		// order of the maps.
		if _, budget := ctx.(*workCtx); budget {
			rowBits, userBits := 0, 0
			for _, akj := range row {
				rowBits += ratBits(akj) >> 8
			}
			for i := range users[k] {
				userBits += ratBits(rows[i][k]) >> 8
			}
			spend(ctx, (len(users[k])*len(row)+len(row)*userBits+len(users[k])*rowBits)*unitsRatEntry)
			if ctx.Err() != nil {
				return nil, fmt.Errorf("prob: exact solution stopped: %w", ctx.Err())
			}
		}
		work := 0
		for i := range users[k] {
			ri := rows[i]
			a := ri[k]
			delete(ri, k)
			for j, akj := range row {
				// One elimination may update thousands of rows of
				// thousands of rationals each (fill-in), rationals of
				// thousands of digits (a ring of float64 probabilities):
				// look at ctx within it, by the work done (a product and
				// a sum with its gcd grow with the digits).
				if work += 1 + ratBits(a)>>8 + ratBits(akj)>>8; work > 1<<12 {
					if ctx.Err() != nil {
						return nil, fmt.Errorf("prob: exact solution stopped: %w", context.Cause(ctx))
					}
					work = 0
				}
				add := new(big.Rat).Mul(a, akj)
				if v, ok := ri[j]; ok {
					v = new(big.Rat).Add(v, add)
					if v.Sign() == 0 {
						delete(ri, j)
						delete(users[j], i)
					} else {
						ri[j] = v
					}
				} else {
					ri[j] = add
					if users[j] == nil {
						users[j] = map[uint32]bool{}
					}
					users[j][i] = true
				}
			}
			if b[k].Sign() != 0 {
				b[i] = new(big.Rat).Add(b[i], new(big.Rat).Mul(a, b[k]))
			}
		}
		users[k] = nil
		for j := range row {
			delete(users[j], k)
		}
	}
	return order, nil
}

// ratBits is the size of x in bits (numerator and denominator).
func ratBits(x *big.Rat) int {
	return x.Num().BitLen() + x.Denom().BitLen()
}
