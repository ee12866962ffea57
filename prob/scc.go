package prob

import (
	"context"
	"math"
	"math/big"
)

// Solving a strongly connected component of classes directly, for interval
// iteration (ii.go) when the component's cycles keep it inside with a
// probability so close to 1 that sweeps would take about 1/(1 - p) of them.
//
// The component's classes are the unknowns; every entry that leaves it
// ends in a decided state (0 or 1) or a class of a component solved
// before, whose bounds are final: the boundary. The problem is an MDP
// without end components (for max they are collapsed into classes, for min
// Prob0E has removed them), so every positional scheduler leaves the
// component with probability 1, its values solve a nonsingular linear
// system, and policy iteration (Howard) reaches the optimum. It runs in
// rational arithmetic on the float64 probabilities (each the rational it
// stands for rounded to nearest, within η = 2^-53 relative), with the
// entries that stay in their class (self-loops) dropped and each choice
// renormalised by what leaves its class: a choice's value is then
// (b + Σ p·x) / e, computed without the cancellation of 1 - p.
//
// Soundness. Under a fixed scheduler, the probability of being absorbed in
// a boundary state is, by the all-minors matrix-tree theorem, N(P) / D(P),
// where N and D are polynomials with non-negative coefficients,
// homogeneous of degree n (the component's classes; one outgoing edge per
// class in every forest), in the probabilities of the entries between
// different classes, self-loops not among them. Moving each such entry by
// a relative error of at most η moves N(P) / D(P) by a factor within
// [((1-η)/(1+η))^n, ((1+η)/(1-η))^n] ⊂ [1 - 2nη, 1 + 5nη] (for nη ≤ 2^-20)
// (O'Cinneide, Entrywise perturbation theory and error analysis for
// Markov chains, Numer. Math. 1993). A value is a non-negative
// combination of these absorption probabilities with the boundary's
// values, so the same factor bounds it, whatever the scheduler, and so
// the optimum over schedulers. The boundary's lower (upper) bounds give a
// lower (upper) bound, as the value grows with them. The rational result
// is multiplied by the factor and rounded outwards to float64.
//
// Entries below 2^-1000 (whose float64 may have lost its relative
// precision to underflow) make it decline; so do components of more than
// maxDirect classes (rationals grow with fill-in) and policy iteration
// that does not end within maxRounds rounds; interval iteration then goes
// on.

// maxDirect is the largest component solveComponent takes.
const maxDirect = 1000

// sccChoice is one choice of a class of the component in rationals: x_i =
// (b + Σ off[j]·x_j) / e, with b the boundary's share (lo and hi: with the
// boundary's lower and upper bounds).
type sccChoice struct {
	ch     uint32
	off    map[uint32]*big.Rat // position in the component -> probability
	e      *big.Rat            // the probability of leaving the class
	bLo    *big.Rat
	bHi    *big.Rat
	sameLH bool // bLo == bHi
}

// solveComponent solves the component comp (class ids, as components
// returns them) given the final bounds of everything it leads to, and
// returns a lower and an upper bound per member (in comp's order); ok is
// false when it declines (see above).
func (q *quotient) solveComponent(ctx context.Context, comp []int32, one []bool) (lo, hi []float64, ok bool, err error) {
	m := q.g.m
	n := len(comp)
	if n > maxDirect {
		return nil, nil, false, nil
	}
	pos := make(map[int32]uint32, n)
	for i, c := range comp {
		pos[c] = uint32(i)
	}
	rat := func(f float64) *big.Rat { return new(big.Rat).SetFloat64(f) }
	choices := make([][]sccChoice, n)
	same := true
	for i, c := range comp {
		if len(q.choices[c]) == 0 {
			return nil, nil, false, nil // decided elsewhere; never in a cycle
		}
		for _, ch := range q.choices[c] {
			sc := sccChoice{ch: ch, off: map[uint32]*big.Rat{}, e: new(big.Rat), bLo: new(big.Rat), bHi: new(big.Rat)}
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				t := m.To[e]
				tc := q.class[t]
				if tc == c {
					continue
				}
				if !(m.P[e] >= 0x1p-1000) {
					return nil, nil, false, nil
				}
				p := rat(m.P[e])
				sc.e.Add(sc.e, p)
				switch j, in := pos[tc]; {
				case tc >= 0 && in:
					if v, ok := sc.off[j]; ok {
						v.Add(v, p)
					} else {
						sc.off[j] = p
					}
				case tc >= 0:
					sc.bLo.Add(sc.bLo, new(big.Rat).Mul(p, rat(q.lo[tc])))
					sc.bHi.Add(sc.bHi, new(big.Rat).Mul(p, rat(q.hi[tc])))
				case one[t]:
					sc.bLo.Add(sc.bLo, p)
					sc.bHi.Add(sc.bHi, p)
				}
			}
			if sc.e.Sign() == 0 {
				return nil, nil, false, nil // stays in its class: cannot happen without end components
			}
			sc.sameLH = sc.bLo.Cmp(sc.bHi) == 0
			same = same && sc.sameLH
			choices[i] = append(choices[i], sc)
		}
	}
	if ctx.Err() != nil {
		return nil, nil, false, nil
	}
	// The first scheduler: per class the best choice by the midpoints of
	// the current bounds (interval iteration has run for a while).
	sched := make([]int, n)
	for i := range comp {
		bestV := 0.0
		for k, sc := range choices[i] {
			sum := 0.0
			for e := m.EntryStart[sc.ch]; e < m.EntryStart[sc.ch+1]; e++ {
				t := m.To[e]
				switch tc := q.class[t]; {
				case tc >= 0:
					sum += m.P[e] * (q.lo[tc] + q.hi[tc]) / 2
				case one[t]:
					sum += m.P[e]
				}
			}
			if k == 0 || q.max && sum > bestV || !q.max && sum < bestV {
				sched[i], bestV = k, sum
			}
		}
	}
	xLo, err := policyIteration(ctx, choices, sched, false, q.max)
	if xLo == nil || err != nil {
		return nil, nil, false, err
	}
	xHi := xLo
	if !same {
		if xHi, err = policyIteration(ctx, choices, sched, true, q.max); xHi == nil || err != nil {
			return nil, nil, false, err
		}
	}
	// The perturbation factor: 1 - 2nη below, 1 + 5nη above.
	eta := new(big.Rat).SetFrac64(1, 1<<53)
	nn := new(big.Rat).SetInt64(int64(n))
	down := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).Mul(new(big.Rat).Mul(nn, eta), big.NewRat(2, 1)))
	up := new(big.Rat).Add(big.NewRat(1, 1), new(big.Rat).Mul(new(big.Rat).Mul(nn, eta), big.NewRat(5, 1)))
	lo, hi = make([]float64, n), make([]float64, n)
	for i := range comp {
		l := new(big.Rat).Mul(xLo[i], down)
		f, exact := l.Float64()
		if !exact && new(big.Rat).SetFloat64(f).Cmp(l) > 0 {
			f = math.Nextafter(f, math.Inf(-1))
		}
		lo[i] = min(max(f, 0), 1)
		u := new(big.Rat).Mul(xHi[i], up)
		f, exact = u.Float64()
		if !exact && new(big.Rat).SetFloat64(f).Cmp(u) < 0 {
			f = math.Nextafter(f, math.Inf(1))
		}
		hi[i] = min(max(f, 0), 1)
	}
	return lo, hi, true, nil
}

// policyIteration runs Howard's policy iteration on a component's
// choices from the scheduler sched (updated in place), maximising (max)
// or minimising, with the boundary's upper bounds (upper) or lower bounds,
// and returns the optimal values (nil when it declines).
//
// Every scheduler it solves must leave the component with probability 1
// (proper); it declines when one does not (a singular system). Without
// end components (probabilities; Emax) every scheduler is proper. With
// them (Emin, whose end components of positive reward remain) it must
// start from a proper scheduler, and then improvement keeps it proper: an
// improper scheduler has an infinite value somewhere (its end component
// collects a positive reward for ever), which an improvement of finite
// values cannot choose (Bertsekas and Tsitsiklis, An analysis of
// stochastic shortest path problems, Math. Oper. Res. 1991, Prop. 3).
func policyIteration(ctx context.Context, choices [][]sccChoice, sched []int, upper, max bool) ([]*big.Rat, error) {
	n := len(choices)
	for round := 0; round < maxRounds; round++ {
		if !proper(choices, sched) {
			return nil, nil
		}
		// x_i = b/e + Σ (off_j/e) x_j under the scheduler.
		sys := &chainSystem{x: make([]*big.Rat, n), rows: make([]map[uint32]*big.Rat, n), b: make([]*big.Rat, n), users: make([]map[uint32]bool, n)}
		for i := range choices {
			sc := &choices[i][sched[i]]
			inv := new(big.Rat).Inv(sc.e)
			b := sc.bLo
			if upper {
				b = sc.bHi
			}
			sys.b[i] = new(big.Rat).Mul(b, inv)
			row := make(map[uint32]*big.Rat, len(sc.off))
			for j, p := range sc.off {
				row[j] = new(big.Rat).Mul(p, inv)
				if sys.users[j] == nil {
					sys.users[j] = map[uint32]bool{}
				}
				sys.users[j][uint32(i)] = true
			}
			sys.rows[i] = row
		}
		x, err := sys.solve(ctx)
		if ctx.Err() != nil {
			return nil, nil // interval iteration reports the stop
		}
		if err != nil {
			return nil, err
		}
		improved := false
		v := new(big.Rat)
		for i := range choices {
			if ctx.Err() != nil { // x may have thousands of digits
				return nil, nil
			}
			best, bestV := sched[i], x[i]
			for k := range choices[i] {
				if k == sched[i] {
					continue
				}
				sc := &choices[i][k]
				if upper {
					v.Set(sc.bHi)
				} else {
					v.Set(sc.bLo)
				}
				for j, p := range sc.off {
					if x[j].Sign() != 0 {
						v.Add(v, new(big.Rat).Mul(p, x[j]))
						spend(ctx, (1+ratBits(x[j])>>8)*unitsRatEntry)
					}
				}
				v.Quo(v, sc.e)
				if cmp := v.Cmp(bestV); max && cmp > 0 || !max && cmp < 0 {
					best, bestV = k, new(big.Rat).Set(v)
				}
			}
			if best != sched[i] {
				sched[i] = best
				improved = true
			}
		}
		if !improved {
			return x, nil
		}
		if ctx.Err() != nil {
			return nil, nil
		}
	}
	return nil, nil
}

// proper says whether every class of the component leaves it with
// probability 1 under sched: whether every class reaches, by the chosen
// choices' entries between classes, a class whose choice may leave the
// component (a choice's e > 0 counts what leaves its class, so a class
// whose choice enters no other class of the component leaves it).
func proper(choices [][]sccChoice, sched []int) bool {
	n := len(choices)
	pred := make([][]uint32, n)
	out := make([]bool, n)
	var queue []uint32
	for i := range choices {
		sc := &choices[i][sched[i]]
		if sc.e.Sign() == 0 {
			return false
		}
		sum := new(big.Rat)
		for j, p := range sc.off {
			pred[j] = append(pred[j], uint32(i))
			sum.Add(sum, p)
		}
		if sum.Cmp(sc.e) < 0 { // some of what leaves the class leaves the component
			out[i] = true
			queue = append(queue, uint32(i))
		}
	}
	return allReachOut(pred, out, queue)
}

// allReachOut reports whether every class reaches one marked in out,
// following pred (the classes that move to each class) back from queue
// (the marked classes); it marks out as it goes.
func allReachOut(pred [][]uint32, out []bool, queue []uint32) bool {
	for len(queue) > 0 {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, i := range pred[j] {
			if !out[i] {
				out[i] = true
				queue = append(queue, i)
			}
		}
	}
	for _, o := range out {
		if !o {
			return false
		}
	}
	return true
}
