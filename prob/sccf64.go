package prob

import (
	"context"
	"math"
	"slices"
)

// Solving a strongly connected component in float64 interval arithmetic,
// before the rational solution of scc.go (which it shares its problem
// with: read the comment there first). Rationals of the float64
// probabilities grow by about 53 bits a class round a ring, so an MDP ring
// of 1000 classes did not finish in a minute; session 30's big.Float
// intervals grew with the exponents instead (products of 2^-160,000,000
// on haddad-monmege). Here every number is a pair of float64 [lo, hi]
// that encloses the exact rational the rational solution would compute,
// each operation rounded outwards by one ulp (a result rounded to nearest
// is within half an ulp, so the next float outwards bounds it; in the
// subnormal range too, so underflow only widens). The cost of an
// operation is fixed, whatever the magnitudes.
//
// No subtraction is needed (Grassmann, Taksar and Heyman's elimination):
// a row of class i reads E_i x_i = b_i + Σ_j w_ij x_j, where L_i is what
// leaves the component from i (to decided states or solved components),
// b_i that mass weighted by the values there, w_ij what goes to class j
// of the component, and E_i = L_i + Σ_j w_ij (entries that stay in class i
// are dropped). Eliminating k from row i with f = w_ik / E_k adds f·L_k to
// L_i, f·b_k to b_i, f·w_kj to w_ij for j ≠ i, and drops f·w_ki (the
// self-loop it makes): E_i recomputed from the new L_i and w_i is the
// exact E_i - f·w_ki. All quantities are non-negative, so no interval
// straddles a cancellation; but a product adds its factors' relative
// widths, and an entry built from entries built in the last elimination
// can double its width per elimination (haddad-monmege eliminated from
// its middle outwards: [0, +Inf] after 150). The elimination gives up as
// soon as a divisor is known to less than 2^-20 and is tried once more
// in another order (dfsPostorder); round a ring, or along a chain from
// its end, the widths grow by a few ulps an elimination.
//
// MDPs: policy iteration on the midpoints, each scheduler's chain solved
// as above; then the final scheduler σ is certified. For max, the value of
// any scheduler is a lower bound of the optimum, so σ's lower ends are one.
// For the upper bound, with v = x^σ (exact, inside σ's intervals) and
// A_i(a) = T_a v - v_i the advantage of choice a of class i, every
// scheduler τ satisfies x^τ - v = N_τ A(τ) with N_τ ≥ 0 the expected
// visits under τ (every scheduler leaves the component with probability 1,
// the premise of scc.go). If A_i(a) ≤ (β·b_a + γ·L_a)/E_a for every
// choice, then, as N_τ (b/E) = x^τ and N_τ (L/E) = 1 (the probability of
// leaving), x^τ ≤ v + β·x^τ + γ: the optimum is at most (v + γ)/(1 - β).
// σ's own choices have advantage 0 exactly; the others' are bounded above
// with the intervals (T_a of v's upper ends, minus v_i's lower end, every
// operation rounded up), and β (relative, for tiny values) or else γ is
// the least that covers them (where σ's intervals are too wide for that,
// an advantage is bounded through differences of values instead,
// certdiff.go). Min is the mirror image: σ's upper ends are
// an upper bound, and the optimum is at least (v - γ)/(1 + β). A choice
// tied with σ's in a class that neither leaves nor collects (L = b = 0)
// cannot be certified, and the solution declines; so it does when both
// orders of elimination give up, when policy iteration has not settled in maxFloatRounds rounds and its
// scheduler cannot be certified closely (β or γ above 2^-20), when the
// fill-in exceeds maxFloatFill entries. O'Cinneide's factor is applied
// as in the rational solution; entries below 2^-1022, whose relative
// precision underflow lost, are read as intervals that hold their
// rationals instead (entryIval; the rational solution declines on
// entries below 2^-1000).
// Its callers intersect the bounds with interval iteration's and go on to
// the rational solution when they are not within epsilon.

// maxFloatFill bounds the entries of a component's rows during one
// elimination (the memory of the fill-in: about 60 bytes an entry, with
// the users' maps; the rational solution takes up to 1000 x 1000).
const maxFloatFill = 1 << 20

// maxFloatRounds bounds the rounds of floating policy iteration (the last
// round's scheduler is certified as it is).
const maxFloatRounds = 100

// ival is a closed interval [lo, hi] of non-negative reals.
type ival struct{ lo, hi float64 }

// up is the next float64 above x (x itself when +Inf).
func up(x float64) float64 {
	if x > 0 && x <= math.MaxFloat64 {
		return math.Float64frombits(math.Float64bits(x) + 1)
	}
	return math.Nextafter(x, math.Inf(1))
}

// down is the next float64 below x, for x ≥ 0 (0 stays 0: the results it
// rounds are of non-negative operands); MaxFloat64 for +Inf.
func down(x float64) float64 {
	if x > 0 {
		return math.Float64frombits(math.Float64bits(x) - 1)
	}
	if x == 0 {
		return 0
	}
	return math.Nextafter(x, math.Inf(-1))
}

func iadd(a, b ival) ival {
	switch {
	case b.hi == 0:
		return a
	case a.hi == 0:
		return b
	}
	lo := a.lo + b.lo
	if a.lo != 0 && b.lo != 0 {
		lo = down(lo)
	}
	return ival{lo, up(a.hi + b.hi)}
}

func imul(a, b ival) ival {
	if a.hi == 0 || b.hi == 0 {
		return ival{}
	}
	return ival{down(a.lo * b.lo), up(a.hi * b.hi)}
}

// idiv is a / b; b.lo = 0 gives an upper end of +Inf.
func idiv(a, b ival) ival {
	if a.hi == 0 {
		return ival{}
	}
	hi := math.Inf(1)
	if b.lo > 0 {
		hi = up(a.hi / b.lo)
	}
	return ival{down(a.lo / b.hi), hi}
}

func point(x float64) ival { return ival{x, x} }

func (a ival) mid() float64 {
	if math.IsInf(a.hi, 1) {
		return a.lo
	}
	return a.lo/2 + a.hi/2
}

// fchoice is one choice of a class in interval arithmetic: E·x_i = b +
// Σ w·x_j over the component's other classes j.
type fchoice struct {
	to []uint32 // positions in the component
	w  []ival
	L  ival // what leaves the component
	b  ival // L weighted by the values it reaches (lower or upper bounds)
	E  ival // L + Σ w
}

// buildFloat writes component comp's choices with the boundary's lower
// (upper = false) or upper bounds (entries below 2^-1022 as intervals:
// entryIval); ok is false when a choice stays in its class.
func (q *quotient) buildFloat(comp []int32, pos map[int32]uint32, one []bool, upper bool) ([][]fchoice, bool) {
	m := q.g.m
	out := make([][]fchoice, len(comp))
	acc := map[uint32]ival{}
	for i, c := range comp {
		if len(q.choices[c]) == 0 {
			return nil, false
		}
		for _, ch := range q.choices[c] {
			var fc fchoice
			clear(acc)
			var order []uint32
			for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
				t := m.To[e]
				tc := q.class[t]
				if tc == c {
					continue
				}
				pi, ok := entryIval(m.P[e])
				if !ok {
					return nil, false
				}
				fc.E = iadd(fc.E, pi)
				switch j, in := pos[tc]; {
				case tc >= 0 && in:
					if _, seen := acc[j]; !seen {
						order = append(order, j)
					}
					acc[j] = iadd(acc[j], pi)
				case tc >= 0:
					fc.L = iadd(fc.L, pi)
					v := q.lo[tc]
					if upper {
						v = q.hi[tc]
					}
					fc.b = iadd(fc.b, imul(pi, point(v)))
				default:
					fc.L = iadd(fc.L, pi)
					if one[t] {
						fc.b = iadd(fc.b, pi)
					}
				}
			}
			if fc.E.hi == 0 {
				return nil, false
			}
			for _, j := range order {
				fc.to = append(fc.to, j)
				fc.w = append(fc.w, acc[j])
			}
			out[i] = append(out[i], fc)
		}
	}
	return out, true
}

// entryIval is the interval that holds the rational a float64 entry p
// stands for, as the solution reads it: p itself at or above 2^-1022
// (O'Cinneide's factor covers its relative error of 2^-53); below, where
// underflow lost the relative precision (a rational below 2^-1075 is a
// 0), [p - 2^-1074, p + 2^-1074], exact (subnormals are multiples of
// 2^-1074), which holds the rational outright: the elimination encloses
// the solution for every entry in its interval, and the factor is then
// needed only for the other entries (perturbing those alone). A model's
// entries are positive rationals (Build drops outcomes of probability
// 0), so the lower end 0 of an entry that is a float64 0 stands for a
// positive one. ok is false for a NaN or negative p. Before session 32's
// review, entries below 2^-1000 made the solution decline, and a ring
// left with 10^-300 a step that held one (a self-loop's exit scaled by
// 2^-1000, or an outcome of 2^-1076) was iterated until --timeout.
func entryIval(p float64) (ival, bool) {
	switch {
	case p >= 0x1p-1022:
		return point(p), true
	case p >= 0:
		return ival{max(p-0x1p-1074, 0), p + 0x1p-1074}, true
	}
	return ival{}, false
}

// solveComponentFloat solves component comp in float64 intervals (see
// above); ok is false when it declines. It stops when ctx ends.
func (q *quotient) solveComponentFloat(ctx context.Context, comp []int32, one []bool) (lo, hi []float64, ok bool) {
	n := len(comp)
	pos := make(map[int32]uint32, n)
	for i, c := range comp {
		pos[c] = uint32(i)
	}
	chLo, ok := q.buildFloat(comp, pos, one, false)
	if !ok {
		return nil, nil, false
	}
	same := true
	chHi, _ := q.buildFloat(comp, pos, one, true)
	for i := range chLo {
		for k := range chLo[i] {
			same = same && chLo[i][k].b == chHi[i][k].b
		}
	}
	// The first scheduler: per class the best choice by the midpoints of
	// the current bounds.
	mid := make([]float64, n)
	for i, c := range comp {
		mid[i] = (q.lo[c] + q.hi[c]) / 2
	}
	sched := make([]int, n)
	improve(chHi, mid, sched, q.max, true)
	// max: the lower bound is any scheduler's value, the upper one
	// certified; min: the other way round.
	var xLo, xHi []ival
	var okL, okH bool
	if xHi, okH = floatPolicyIteration(ctx, chHi, sched, q.max, q.max, true); !okH {
		return nil, nil, false
	}
	if same {
		xLo, okL = xHi, true
		if !q.max {
			// Certify the lower end on the same values.
			xLo, okL = certify(chHi, sched, xHi, false)
		}
	} else {
		xLo, okL = floatPolicyIteration(ctx, chLo, sched, q.max, !q.max, true)
	}
	if !okL || ctx.Err() != nil {
		return nil, nil, false
	}
	// O'Cinneide's factor (scc.go): 1 - 2nη below, 1 + 5nη above, rounded
	// outwards (nη ≤ 2^-20 for n ≤ 2^33).
	nf := float64(n)
	downF := down(1 - 2*nf*0x1p-53)
	upF := up(1 + 5*nf*0x1p-53)
	lo, hi = make([]float64, n), make([]float64, n)
	for i := range n {
		lo[i] = min(max(down(xLo[i].lo*downF), 0), 1)
		h := up(xHi[i].hi * upF)
		if !(h <= 1) {
			h = 1
		}
		hi[i] = max(h, 0)
	}
	return lo, hi, true
}

// improve sets sched, per class, to the best choice by the values x (the
// midpoints of the choices' intervals); with all, every class takes its
// best; otherwise a class switches only when the gain is more than 2^-40
// of the value (rounding must not make it cycle). It reports whether a
// class switched.
func improve(choices [][]fchoice, x []float64, sched []int, max, all bool) bool {
	changed := false
	for i, cs := range choices {
		cur := choiceMid(&cs[sched[i]], x)
		best, bestV := sched[i], cur
		for k := range cs {
			if k == sched[i] {
				continue
			}
			v := choiceMid(&cs[k], x)
			if max && v > bestV || !max && v < bestV {
				best, bestV = k, v
			}
		}
		if best != sched[i] && (all || math.Abs(bestV-cur) > 0x1p-40*math.Abs(cur)) {
			sched[i] = best
			changed = true
		}
	}
	return changed
}

// choiceMid is (b + Σ w·x) / E on midpoints.
func choiceMid(fc *fchoice, x []float64) float64 {
	s := fc.b.mid()
	for k, j := range fc.to {
		s += fc.w[k].mid() * x[j]
	}
	e := fc.E.mid()
	if e == 0 {
		return 0
	}
	return s / e
}

// floatPolicyIteration runs policy iteration from sched (updated in place)
// and returns the final scheduler's values; with cert, certified as the
// optimum's bound on the optimising side (upper for max, lower for min);
// prob says the values are probabilities (at most 1). ok is false when it
// declines or ctx ends.
func floatPolicyIteration(ctx context.Context, choices [][]fchoice, sched []int, max, cert, prob bool) ([]ival, bool) {
	n := len(choices)
	x := make([]float64, n)
	rounds := maxFloatRounds
	if floatRoundsTest > 0 {
		rounds = floatRoundsTest
	}
	for round := 1; ; round++ {
		if !properF(choices, sched) {
			return nil, false
		}
		v, ok := solveChainFloat(ctx, choices, sched, prob)
		if !ok {
			return nil, false
		}
		// improve's (and properF's, certify's) pass over the choices
		for i := range choices {
			for k := range choices[i] {
				spend(ctx, (2+len(choices[i][k].to))*unitsFloatEntry)
			}
		}
		for i := range v {
			x[i] = v[i].mid()
		}
		// The last round's scheduler is certified as it is (the
		// certificate holds for any; a poor one needs a large β or γ
		// and declines).
		if round < rounds && (improve(choices, x, sched, max, false) || cert && !diffOffTest && improveSure(choices, sched, v, max)) {
			if ctx.Err() != nil {
				return nil, false
			}
			continue
		}
		if !cert {
			return v, true
		}
		return certify(choices, sched, v, max)
	}
}

// floatRoundsTest (tests only), when positive, replaces maxFloatRounds:
// at 1 the certificate meets the first scheduler, however poor.
var floatRoundsTest int

// certify bounds the optimum from σ's values v (see above): upwards for
// max (v's upper ends), downwards for min. ok is false when no β or γ
// covers the advantages.
func certify(choices [][]fchoice, sched []int, v []ival, max bool) ([]ival, bool) {
	beta, gamma := 0.0, 0.0 // the least that cover every choice
	betaOK, gammaOK := true, true
	var dc *diffCert // differences of values (certdiff.go), when needed
	for i, cs := range choices {
		for k := range cs {
			if k == sched[i] {
				continue
			}
			fc := &cs[k]
			var adv float64 // an upper bound of A (max) or of -A (min)
			if max {
				s := fc.b
				for t, j := range fc.to {
					s = iadd(s, imul(fc.w[t], v[j]))
				}
				tv := idiv(s, fc.E).hi
				adv = math.Nextafter(tv-v[i].lo, math.Inf(1))
			} else {
				s := fc.b
				for t, j := range fc.to {
					s = iadd(s, imul(fc.w[t], v[j]))
				}
				tv := idiv(s, fc.E).lo
				adv = math.Nextafter(v[i].hi-tv, math.Inf(1))
			}
			// adv·E (an upper bound of E·A), rounded up; or through
			// differences of values when smaller.
			need := math.Inf(1)
			if !math.IsNaN(adv) && adv <= 0 {
				continue
			}
			if !math.IsNaN(adv) && !math.IsInf(adv, 1) {
				need = up(adv * fc.E.hi)
			}
			if (!(need <= 0x1p-20*fc.b.lo) || !(need <= 0x1p-20*fc.L.lo) || diffOnlyTest) && !diffOffTest {
				if dc == nil {
					dc = newDiffCert(choices, sched, v)
				}
				if diffOnlyTest {
					need = dc.need(fc, i, max)
				} else {
					need = min(need, dc.need(fc, i, max))
				}
			}
			if math.IsInf(need, 1) {
				return nil, false
			}
			if need <= 0 {
				continue
			}
			// need / b (and / L), rounded up; b and L at their lower
			// ends.
			if fc.b.lo > 0 {
				beta = math.Max(beta, up(need/fc.b.lo))
			} else {
				betaOK = false
			}
			if fc.L.lo > 0 {
				gamma = math.Max(gamma, up(need/fc.L.lo))
			} else {
				gammaOK = false
			}
		}
	}
	if !betaOK || beta > 0x1p-20 {
		beta = 0
		if !gammaOK || gamma > 0x1p-20 {
			return nil, false
		}
	} else {
		gamma = 0
	}
	out := make([]ival, len(v))
	for i := range v {
		if max {
			h := v[i].hi
			if gamma > 0 {
				h = up(h + gamma)
			}
			if beta > 0 {
				h = up(h / down(1-beta))
			}
			out[i] = ival{v[i].lo, h}
		} else {
			l := v[i].lo
			if gamma > 0 {
				l = math.Max(math.Nextafter(l-gamma, math.Inf(-1)), 0)
			}
			if beta > 0 {
				l = down(l / up(1+beta))
			}
			out[i] = ival{l, v[i].hi}
		}
	}
	return out, true
}

// properF says whether every class leaves the component with probability
// 1 under sched (as proper in scc.go).
func properF(choices [][]fchoice, sched []int) bool {
	n := len(choices)
	pred := make([][]uint32, n)
	out := make([]bool, n)
	var queue []uint32
	for i := range choices {
		fc := &choices[i][sched[i]]
		for _, j := range fc.to {
			pred[j] = append(pred[j], uint32(i))
		}
		if fc.L.hi > 0 {
			out[i] = true
			queue = append(queue, uint32(i))
		}
	}
	return allReachOut(pred, out, queue)
}

// solveChainFloat solves the chain sched picks by the elimination above,
// in the component's order, and when that declines in depth-first
// postorder along the chain's entries (dfsPostorder), and returns intervals that hold its values
// (probabilities, at most 1, with prob; otherwise it declines when an
// upper end is infinite).
func solveChainFloat(ctx context.Context, choices [][]fchoice, sched []int, prob bool) ([]ival, bool) {
	n := len(choices)
	order := make([]uint32, n)
	for i := range order {
		order[i] = uint32(i)
	}
	if v, ok := solveChainOrdered(ctx, choices, sched, prob, order); ok || ctx.Err() != nil {
		return v, ok
	}
	return solveChainOrdered(ctx, choices, sched, prob, dfsPostorder(choices, sched))
}

// solveChainOrdered is solveChainFloat's elimination in the given order.
func solveChainOrdered(ctx context.Context, choices [][]fchoice, sched []int, prob bool, order []uint32) ([]ival, bool) {
	n := len(choices)
	rows := make([]map[uint32]ival, n)
	users := make([]map[uint32]struct{}, n)
	L := make([]ival, n)
	b := make([]ival, n)
	fill := 0
	for i := range choices {
		fc := &choices[i][sched[i]]
		row := make(map[uint32]ival, len(fc.to))
		for t, j := range fc.to {
			row[j] = fc.w[t]
			if users[j] == nil {
				users[j] = map[uint32]struct{}{}
			}
			users[j][uint32(i)] = struct{}{}
		}
		fill += len(row)
		rows[i], L[i], b[i] = row, fc.L, fc.b
	}
	spend(ctx, (4*n+fill)*unitsFloatEntry)
	E := make([]ival, n)
	work := 0
	var keys []uint32
	for _, k := range order {
		row := rows[k]
		// (the sums in a fixed order, not the map's: the same bits
		// every run)
		keys = sortedKeys(row, keys)
		e := L[k]
		for _, j := range keys {
			e = iadd(e, row[j])
		}
		E[k] = e
		// The pivot's work, spent before it (so that where the budget
		// runs out does not depend on the order of the users), and the
		// fill it may add at most.
		if spend(ctx, (4+len(row)+len(users[k])*(1+len(row)))*unitsFloatEntry); ctx.Err() != nil || fill+len(users[k])*len(row) > 4*maxFloatFill {
			return nil, false
		}
		// The intervals' relative widths may double from one
		// elimination to the next (a product of two entries adds their
		// widths; haddad-monmege's chain, eliminated from its middle,
		// reaches [0, +Inf] after 150): give up as soon as a divisor is
		// known to less than 2^-20, where the rational solution will do.
		if !(e.lo > 0 && e.hi <= e.lo*(1+0x1p-20)) {
			return nil, false
		}
		for i := range users[k] {
			ri := rows[i]
			f := idiv(ri[k], e)
			delete(ri, k)
			fill--
			L[i] = iadd(L[i], imul(f, L[k]))
			b[i] = iadd(b[i], imul(f, b[k]))
			for j, wkj := range row {
				if j == i {
					continue // the self-loop: E_i is recomputed from L_i and the row
				}
				if old, seen := ri[j]; seen {
					ri[j] = iadd(old, imul(f, wkj))
				} else {
					ri[j] = imul(f, wkj)
					fill++
					if users[j] == nil {
						users[j] = map[uint32]struct{}{}
					}
					users[j][i] = struct{}{}
				}
			}
			if work += 1 + len(row); work > 1<<14 {
				work = 0
				if ctx.Err() != nil { // the caller's deadline (the budget was spent above)
					return nil, false
				}
			}
		}
		users[k] = nil
		for j := range row {
			delete(users[j], k)
		}
		if fill > maxFloatFill {
			return nil, false
		}
	}
	// Back substitution: row k mentions only classes eliminated after it.
	x := make([]ival, n)
	for idx := n - 1; idx >= 0; idx-- {
		k := order[idx]
		s := b[k]
		keys = sortedKeys(rows[k], keys)
		for _, j := range keys {
			s = iadd(s, imul(rows[k][j], x[j]))
		}
		v := idiv(s, E[k])
		switch {
		case prob && (math.IsNaN(v.hi) || v.hi > 1):
			v.hi = 1 // a probability
		case !(v.hi <= math.MaxFloat64) || math.IsNaN(v.lo):
			return nil, false
		}
		if prob && v.lo > 1 {
			v.lo = 1
		}
		x[k] = v
		if spend(ctx, (1+len(rows[k]))*unitsFloatEntry); idx&0xfff == 0 && ctx.Err() != nil {
			return nil, false
		}
	}
	return x, true
}

// dfsPostorder is the second order of elimination: the classes in
// depth-first postorder along the entries of the choices sched picks
// (from class 0, then from any class not yet visited). On haddad-monmege,
// whose JANI model numbers the states from the middle outwards (where the
// intervals' widths double per elimination), it eliminates the two chains
// from their far ends to the middle, and the widths grow by a few ulps an
// elimination. (On the MDP rings it is the component's order that holds
// and this one that declines.)
func dfsPostorder(choices [][]fchoice, sched []int) []uint32 {
	n := len(choices)
	order := make([]uint32, 0, n)
	seen := make([]bool, n)
	type frame struct{ i, next uint32 }
	var stack []frame
	for root := range uint32(n) {
		if seen[root] {
			continue
		}
		seen[root] = true
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			to := choices[top.i][sched[top.i]].to
			if int(top.next) < len(to) {
				j := to[top.next]
				top.next++
				if !seen[j] {
					seen[j] = true
					stack = append(stack, frame{j, 0})
				}
				continue
			}
			order = append(order, top.i)
			stack = stack[:len(stack)-1]
		}
	}
	return order
}

// diffOffTest (tests only) turns the differences of values off (certify
// as in session 31), for the tests' counts before and after.
var diffOffTest bool

// diffOnlyTest (tests only) bounds every advantage through the
// differences alone (not the smaller of the two bounds), so that small
// systems, whose intervals are tight, exercise them against brute force.
var diffOnlyTest bool

// sortedKeys returns row's keys in increasing order (in buf's storage).
func sortedKeys(row map[uint32]ival, buf []uint32) []uint32 {
	buf = buf[:0]
	for j := range row {
		buf = append(buf, j)
	}
	slices.Sort(buf)
	return buf
}

// firstSched improves policy iteration's first scheduler sched (read off
// iterated bounds x, which after few sweeps may say little: the reward
// ring of bench/adversarial/s32p_reward_ring_3000.txtar, numbered
// breadth-first, took 700 Howard rounds from it, 9 switches a round).
// Its rival takes per class the best choice as if every successor had
// the class's own value x_i (the choice's reward against what it leaves
// with: alt, which leaves three times as fast at the same reward, for
// Emin, in every class at once). When the rival is proper and differs,
// both chains are solved, and the first scheduler becomes the best
// choices by the better of the two values in each class (for min their
// minimum v satisfies T v ≤ v, so the greedy scheduler's value is at
// most either's when it is proper; for max the mirror image); when that
// scheduler is not proper, or a chain declines, sched is kept. Policy
// iteration and its certificate go on from it as before: the first
// scheduler changes the rounds, never what is certified. The cost is two
// chain solutions, counted in ctx's work units as any.
func firstSched(ctx context.Context, choices [][]fchoice, sched []int, x []float64, max, prob bool) {
	n := len(choices)
	rival := make([]int, n)
	differs := false
	for i, cs := range choices {
		best, bestV := 0, 0.0
		for k := range cs {
			fc := &cs[k]
			s := fc.b.mid()
			for _, w := range fc.w {
				s += w.mid() * x[i]
			}
			v := 0.0
			if e := fc.E.mid(); e != 0 {
				v = s / e
			}
			if k == 0 || max && v > bestV || !max && v < bestV {
				best, bestV = k, v
			}
		}
		rival[i] = best
		differs = differs || best != sched[i]
	}
	if !differs || !properF(choices, rival) || !properF(choices, sched) {
		return
	}
	v1, ok := solveChainFloat(ctx, choices, sched, prob)
	if !ok {
		return
	}
	v2, ok := solveChainFloat(ctx, choices, rival, prob)
	if !ok {
		return
	}
	y := make([]float64, n)
	for i := range y {
		a, b := v1[i].mid(), v2[i].mid()
		if max == (b > a) {
			a = b
		}
		y[i] = a
	}
	cand := append([]int(nil), sched...)
	improve(choices, y, cand, max, true)
	if properF(choices, cand) {
		copy(sched, cand)
	}
}
