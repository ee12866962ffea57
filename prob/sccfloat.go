package prob

import (
	"context"
	"math"
	"math/big"
)

// A component solved directly in interval arithmetic (session 30), for
// components too large for rationals: policy iteration in rationals of the
// float64 probabilities (scc.go) eliminates round a ring, and the
// numerators and denominators grow by about 53 bits a class (a ring of
// 300 classes of an MDP took 6 s of CPU, one of 1000 did not answer in
// 60 s). Here the same system is solved with every number an interval of
// big.Float numbers of a fixed precision, rounded outwards, so that each
// interval holds the rational that the rational solver would compute;
// nothing grows.
//
// Elimination (Grassmann, Taksar and Heyman's variant, GTH): a class's row
// keeps its entries into other classes (off) and what leaves the
// component (out, of value b); its divisor e is always recomputed as the
// sum Σ off + out, never as 1 - (what stays). Eliminating k from a row i
// that enters k with a: off_ij += a·off_kj/e_k (j ≠ i), out_i +=
// a·out_k/e_k, b_i += a·b_k/e_k, and the share a·off_ki/e_k that comes
// back to i is dropped (it is a self-loop, which the recomputed e_i
// leaves out). No subtraction anywhere: each operation on non-negative
// intervals, rounded outwards, moves their relative width by a few units
// of the precision, whatever the probabilities (a ring left with 10^-15 a
// step costs no more than one left with 1/2).
//
// Optimality. Policy iteration switches a class's choice only when the
// switch is proven better (the interval of its advantage excludes 0), so
// it cannot cycle. When no switch is proven, the scheduler σ is
// certified: for any scheduler τ, x^τ - x^σ = A_τ^{-1} g, where A_τ =
// diag(e) - Off is τ's system (A_τ^{-1} ≥ 0, as τ leaves the component
// with probability 1) and g_i = b_c + Σ off_cj x^σ_j - e_c x^σ_i the
// advantage of τ's choice c in class i. A_τ^{-1} maps out to the vector of
// ones (every class leaves) and b to x^τ, so if every choice's advantage
// is at most θ1·out_c + θ2·b_c then x^τ ≤ x^σ + θ1 + θ2·x^τ, i.e. the
// optimum (max) is at most (x^σ + θ1)/(1 - θ2); for min, with -g, at least
// (x^σ - θ1)/(1 + θ2). θ1 = 2^-100, θ2 = 2^-60: the bounds stay within a
// few ulps of float64. When the certificate fails (ties that the
// precision cannot tell apart), the precision is multiplied by 4, up to
// maxIntervalPrec bits; then it declines, and at once when a failing
// choice leaves nothing and collects nothing (its slack is 0: an exact
// tie fails at any precision). solveComponent and directReward then
// solve the component in rationals (within their time budget).
// The float64 probabilities' own error is O'Cinneide's factor, applied by
// solveComponent as for the rational solution.

// minIntervalClasses: smaller components are solved in rationals (exact
// on the float64 probabilities, and fast at this size). A variable for
// the tests, which lower it to put small components through the
// interval solver.
var minIntervalClasses = 48

// intervalTestPrec, when not 0, is the first precision tried instead of
// the computed one: the tests start as low as a few bits, where every
// interval is wide and a rounding the wrong way or a certificate the
// wrong way round shows as a bound that misses the optimum.
var intervalTestPrec uint

// maxIntervalPrec is the largest precision (bits) tried.
const maxIntervalPrec = 4096

// ival is an interval [lo, hi] of non-negative reals.
type ival struct{ lo, hi *big.Float }

// fops does arithmetic on intervals at one precision, rounding outwards.
type fops struct{ prec uint }

func (f fops) down() *big.Float {
	return new(big.Float).SetPrec(f.prec).SetMode(big.ToNegativeInf)
}

func (f fops) up() *big.Float {
	return new(big.Float).SetPrec(f.prec).SetMode(big.ToPositiveInf)
}

func (f fops) rat(r *big.Rat) ival {
	return ival{f.down().SetRat(r), f.up().SetRat(r)}
}

// addTo adds b to a in place.
func (f fops) addTo(a, b ival) {
	a.lo.Add(a.lo, b.lo)
	a.hi.Add(a.hi, b.hi)
}

func (f fops) mul(a, b ival) ival {
	return ival{f.down().Mul(a.lo, b.lo), f.up().Mul(a.hi, b.hi)}
}

// quo divides a by b (b.lo > 0).
func (f fops) quo(a, b ival) ival {
	return ival{f.down().Quo(a.lo, b.hi), f.up().Quo(a.hi, b.lo)}
}

// ichoice is an sccChoice in intervals; out is what leaves the component.
type ichoice struct {
	off      map[uint32]ival
	e, out   ival
	bLo, bHi ival
}

// intervalPolicyIteration is policyIteration (scc.go) in interval
// arithmetic: it returns an interval per class that holds the optimal
// value of the system with the boundary's lower (upper false) or upper
// bounds, or nil when it declines. sched is updated in place. prob says
// the values are probabilities (at most 1); otherwise they are expected
// rewards (b holds the choice's reward too, and the certificate's θ2·b
// bounds the advantage by θ2 times the reward and boundary value
// collected, which A_τ^{-1} maps to x^τ just the same).
func intervalPolicyIteration(ctx context.Context, choices [][]sccChoice, sched []int, upper, max, prob bool) (lo, hi []float64, prec uint) {
	n := len(choices)
	// The precision: enough for the smallest share that leaves (a
	// choice's advantage is compared with θ·out where the values carry
	// e-relative errors), the classes' count (the error grows with the
	// eliminations), and 128 bits besides.
	worst := 0
	outs := make([][]*big.Rat, n)
	for i := range choices {
		outs[i] = make([]*big.Rat, len(choices[i]))
		for k := range choices[i] {
			sc := &choices[i][k]
			out := new(big.Rat).Set(sc.e)
			for _, p := range sc.off {
				out.Sub(out, p)
			}
			outs[i][k] = out
			if out.Sign() > 0 {
				// log2(e/out), roughly
				if d := (sc.e.Num().BitLen() - sc.e.Denom().BitLen()) - (out.Num().BitLen() - out.Denom().BitLen()); d > worst {
					worst = d
				}
			}
		}
	}
	prec = uint(128 + worst + 2*bitsOf(n))
	if intervalTestPrec > 0 {
		prec = intervalTestPrec
	}
	for ; prec <= maxIntervalPrec; prec *= 4 {
		f := fops{prec}
		ich := make([][]ichoice, n)
		for i := range choices {
			ich[i] = make([]ichoice, len(choices[i]))
			for k := range choices[i] {
				sc := &choices[i][k]
				c := ichoice{off: make(map[uint32]ival, len(sc.off)), e: f.rat(sc.e), out: f.rat(outs[i][k]), bLo: f.rat(sc.bLo), bHi: f.rat(sc.bHi)}
				for j, p := range sc.off {
					c.off[j] = f.rat(p)
				}
				ich[i][k] = c
			}
		}
		x, certified, ok := f.iterate(ctx, ich, sched, upper, max, prob)
		if !ok {
			return nil, nil, 0
		}
		if !certified {
			continue
		}
		// The optimum from σ's values and the certificate's θ1, θ2.
		lo, hi = make([]float64, n), make([]float64, n)
		th1, th2 := math.Ldexp(1, -100), math.Ldexp(1, -60)
		for i := range x {
			l, _ := x[i].lo.Float64() // rounded to nearest: step down once
			h, _ := x[i].hi.Float64()
			l, h = math.Nextafter(l, math.Inf(-1)), math.Nextafter(h, math.Inf(1))
			if max {
				// 1-th2 (and 1+th2 below) round to 1 in float64, so the
				// division does nothing: the factor (2^-60 relative, under
				// one ulp) and the sum's rounding are covered by the two
				// steps up, each at least one ulp (2^-53 relative)
				h = math.Nextafter((h+th1)/(1-th2), math.Inf(1))
				h = math.Nextafter(h, math.Inf(1))
			} else {
				l = math.Nextafter((l-th1)/(1+th2), math.Inf(-1))
				l = math.Nextafter(l, math.Inf(-1))
			}
			lo[i], hi[i] = math.Max(l, 0), math.Max(h, 0)
			if prob {
				lo[i], hi[i] = math.Min(lo[i], 1), math.Min(hi[i], 1)
			} else if math.IsInf(hi[i], 1) {
				return nil, nil, 0
			}
		}
		return lo, hi, prec
	}
	return nil, nil, 0
}

// bitsOf is the bit length of n.
func bitsOf(n int) int {
	b := 0
	for ; n > 0; n >>= 1 {
		b++
	}
	return b
}

// iterate runs policy iteration at f's precision from sched: the last
// scheduler's values and whether it is certified optimal (see above); ok
// false when it declines (the context's end, an improper scheduler, a
// divisor that is not positive, too many rounds).
func (f fops) iterate(ctx context.Context, ich [][]ichoice, sched []int, upper, max, prob bool) (x []ival, certified, ok bool) {
	th1 := f.down().SetMantExp(big.NewFloat(1), -100)
	th2 := f.down().SetMantExp(big.NewFloat(1), -60)
	bOf := func(c *ichoice) ival {
		if upper {
			return c.bHi
		}
		return c.bLo
	}
	for round := 0; round < maxRounds; round++ {
		if ctx.Err() != nil || !properI(ich, sched) {
			return nil, false, false
		}
		x, ok = f.solveChain(ctx, ich, sched, bOf, prob)
		if !ok {
			return nil, false, false
		}
		// Improvement: a switch only where proven better.
		improved, certified, hopeless := false, true, false
		for i := range ich {
			if i&63 == 0 && ctx.Err() != nil {
				return nil, false, false
			}
			best, bestMid := -1, new(big.Float)
			for k := range ich[i] {
				if k == sched[i] {
					continue
				}
				c := &ich[i][k]
				// g = b + Σ off·x_j - e·x_i, as an interval.
				b := bOf(c)
				gLo, gHi := f.down().Set(b.lo), f.up().Set(b.hi)
				for j, p := range c.off {
					gLo.Add(gLo, f.down().Mul(p.lo, x[j].lo))
					gHi.Add(gHi, f.up().Mul(p.hi, x[j].hi))
				}
				gLo.Sub(gLo, f.up().Mul(c.e.hi, x[i].hi))
				gHi.Sub(gHi, f.down().Mul(c.e.lo, x[i].lo))
				if max && gLo.Sign() > 0 || !max && gHi.Sign() < 0 {
					// proven better: the most so by the midpoint
					mid := f.down().Add(gLo, gHi)
					if !max {
						mid.Neg(mid)
					}
					if best < 0 || mid.Cmp(bestMid) > 0 {
						best, bestMid = k, mid
					}
					continue
				}
				// the certificate: g ≤ θ1·out + θ2·b (max), -g ≤ ... (min)
				slack := f.down().Add(f.down().Mul(th1, c.out.lo), f.down().Mul(th2, b.lo))
				if max && gHi.Cmp(slack) > 0 || !max && f.down().Neg(gLo).Cmp(slack) > 0 {
					certified = false
					// a choice that leaves nothing and collects nothing
					// must be proven no better at all: an exact tie
					// (TestIntervalTieFallsBack) never is
					hopeless = hopeless || slack.Sign() == 0
				}
			}
			if best >= 0 {
				sched[i] = best
				improved = true
			}
		}
		if !improved {
			if hopeless {
				return nil, false, false // no precision helps
			}
			return x, certified, true
		}
	}
	return nil, false, false
}

// properI is proper (scc.go) on interval choices.
func properI(ich [][]ichoice, sched []int) bool {
	n := len(ich)
	pred := make([][]uint32, n)
	out := make([]bool, n)
	var queue []uint32
	for i := range ich {
		c := &ich[i][sched[i]]
		for j := range c.off {
			pred[j] = append(pred[j], uint32(i))
		}
		if c.out.hi.Sign() > 0 {
			out[i] = true
			queue = append(queue, uint32(i))
		}
	}
	return allReach(pred, out, queue)
}

// solveChain solves the chain of sched by GTH elimination in intervals:
// x_i = (b_i + Σ off_ij x_j) / e_i with e_i = Σ off_ij + out_i. ok is false
// at the context's end or when a divisor's lower bound is not positive.
func (f fops) solveChain(ctx context.Context, ich [][]ichoice, sched []int, bOf func(*ichoice) ival, prob bool) (x []ival, ok bool) {
	n := len(ich)
	rows := make([]map[uint32]ival, n)
	out := make([]ival, n)
	b := make([]ival, n)
	users := make([]map[uint32]bool, n)
	for i := range ich {
		c := &ich[i][sched[i]]
		row := make(map[uint32]ival, len(c.off))
		for j, p := range c.off {
			row[j] = ival{new(big.Float).Copy(p.lo), new(big.Float).Copy(p.hi)}
			if users[j] == nil {
				users[j] = map[uint32]bool{}
			}
			users[j][uint32(i)] = true
		}
		rows[i] = row
		out[i] = ival{new(big.Float).Copy(c.out.lo), new(big.Float).Copy(c.out.hi)}
		bb := bOf(c)
		b[i] = ival{new(big.Float).Copy(bb.lo), new(big.Float).Copy(bb.hi)}
	}
	e := make([]ival, n)
	work := 0
	for k := range n {
		row := rows[k]
		ek := ival{f.down().Set(out[k].lo), f.up().Set(out[k].hi)}
		for _, p := range row {
			f.addTo(ek, p)
		}
		if ek.lo.Sign() <= 0 {
			return nil, false
		}
		e[k] = ek
		for i := range users[k] {
			if i == uint32(k) {
				continue
			}
			ri := rows[i]
			a := f.quo(ri[uint32(k)], ek)
			delete(ri, uint32(k))
			for j, akj := range row {
				if work++; work&1023 == 0 && ctx.Err() != nil {
					return nil, false
				}
				if j == i {
					continue // comes back to i: a self-loop, dropped (GTH)
				}
				add := f.mul(a, akj)
				if v, ok := ri[j]; ok {
					f.addTo(v, add)
				} else {
					ri[j] = add
					if users[j] == nil {
						users[j] = map[uint32]bool{}
					}
					users[j][i] = true
				}
			}
			if out[k].hi.Sign() > 0 {
				f.addTo(out[i], f.mul(a, out[k]))
			}
			if b[k].hi.Sign() > 0 {
				f.addTo(b[i], f.mul(a, b[k]))
			}
			// the entry back into i was dropped: i no longer uses itself
			delete(users[i], i)
		}
		users[k] = nil
		for j := range row {
			delete(users[j], uint32(k))
		}
	}
	x = make([]ival, n)
	one := big.NewFloat(1)
	for k := n - 1; k >= 0; k-- {
		lo, hi := f.down().Set(b[k].lo), f.up().Set(b[k].hi)
		for j, p := range rows[k] {
			lo.Add(lo, f.down().Mul(p.lo, x[j].lo))
			hi.Add(hi, f.up().Mul(p.hi, x[j].hi))
		}
		lo.Quo(lo, e[k].hi)
		hi.Quo(hi, e[k].lo)
		if prob && hi.Cmp(one) > 0 { // a probability: at most 1
			hi.Set(one)
		}
		x[k] = ival{lo, hi}
	}
	return x, true
}
