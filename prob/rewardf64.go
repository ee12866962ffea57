package prob

import (
	"context"
	"math"
)

// directRewardFloat solves the component cs of an expected reward in
// float64 intervals (sccf64.go), before the rational directReward, whose
// problem it shares (read the comment there): each choice's row is
// E·x_i = b + Σ w·x_j with b its reward (an interval around the rational)
// plus what it leaves with times the boundary's values (lower or upper
// bounds), L what leaves the component (into the boundary or the goal).
// Emax's schedulers are all proper; Emin drops the choices that never
// leave their class and starts from a proper scheduler (the best by the
// lower bounds, or an attractor's), and floating policy iteration declines
// if it meets an improper one. The certificate of sccf64.go holds for
// every proper scheduler (N_τ(b/E) = x^τ, N_τ(L/E) = 1), and an improper
// one's value is infinite, above any lower bound of Emin. The bounds are
// widened by O'Cinneide's factor as directReward's; ok is false when it
// declines or ctx ends.
func (rs *rewardSolver) directRewardFloat(ctx context.Context, cs []int32, cls []int32, chList, chStart []uint32, lo, hi []float64) (l, h []float64, ok bool) {
	m := rs.m
	n := len(cs)
	pos := make(map[int32]uint32, n)
	for j, i := range cs {
		pos[i] = uint32(j)
	}
	build := func(upper bool) ([][]fchoice, bool) {
		out := make([][]fchoice, n)
		acc := map[uint32]ival{}
		for j, i := range cs {
			for _, c := range chList[chStart[i]:chStart[i+1]] {
				var fc fchoice
				fc.b = ival{max(floatBelow(rs.rew[c]), 0), floatAbove(rs.rew[c])}
				if !(fc.b.hi <= math.MaxFloat64) {
					return nil, false
				}
				clear(acc)
				var order []uint32
				for x := m.EntryStart[c]; x < m.EntryStart[c+1]; x++ {
					tc := cls[m.To[x]]
					if tc == i {
						continue
					}
					pi, ok := entryIval(m.P[x])
					if !ok {
						return nil, false
					}
					fc.E = iadd(fc.E, pi)
					if k, in := pos[tc]; tc >= 0 && in {
						if _, seen := acc[k]; !seen {
							order = append(order, k)
						}
						acc[k] = iadd(acc[k], pi)
						continue
					}
					fc.L = iadd(fc.L, pi)
					if tc >= 0 {
						v := lo[tc]
						if upper {
							v = hi[tc]
						}
						if !(v <= math.MaxFloat64) {
							return nil, false
						}
						fc.b = iadd(fc.b, imul(pi, point(v)))
					}
				}
				if fc.E.hi == 0 {
					if rs.max {
						return nil, false // an end component: not in Emax's finite region
					}
					continue // repeated for ever at a positive reward: never Emin's choice
				}
				for _, k := range order {
					fc.to = append(fc.to, k)
					fc.w = append(fc.w, acc[k])
				}
				out[j] = append(out[j], fc)
			}
			if len(out[j]) == 0 {
				return nil, false
			}
		}
		return out, true
	}
	chLo, ok := build(false)
	if !ok {
		return nil, nil, false
	}
	chHi, _ := build(true)
	same := true
	for j := range chLo {
		for k := range chLo[j] {
			same = same && chLo[j][k].b == chHi[j][k].b
		}
	}
	// The first scheduler: the best choices by the lower bounds iterated
	// so far, or an attractor's when not proper.
	mid := make([]float64, n)
	for j, i := range cs {
		mid[j] = lo[i]
	}
	sched := make([]int, n)
	improve(chLo, mid, sched, rs.max, true)
	if !properF(chLo, sched) && !attractorF(chLo, sched) {
		return nil, nil, false
	}
	firstSched(ctx, chLo, sched, mid, rs.max, false)
	// Emax: the lower bound is any scheduler's value, the upper one
	// certified; Emin the other way round.
	var xLo, xHi []ival
	if rs.max {
		if xHi, ok = floatPolicyIteration(ctx, chHi, sched, true, true, false); !ok {
			return nil, nil, false
		}
		if same {
			xLo = xHi
		} else if xLo, ok = floatPolicyIteration(ctx, chLo, sched, true, false, false); !ok {
			return nil, nil, false
		}
	} else {
		if xLo, ok = floatPolicyIteration(ctx, chLo, sched, false, true, false); !ok {
			return nil, nil, false
		}
		if same {
			xHi = xLo
		} else if xHi, ok = floatPolicyIteration(ctx, chHi, sched, false, false, false); !ok {
			return nil, nil, false
		}
	}
	if ctx.Err() != nil {
		return nil, nil, false
	}
	nf := float64(n)
	downF := down(1 - 2*nf*0x1p-53)
	upF := up(1 + 5*nf*0x1p-53)
	l, h = make([]float64, n), make([]float64, n)
	for j := range n {
		l[j] = max(down(xLo[j].lo*downF), 0)
		h[j] = up(xHi[j].hi * upF)
		if !(h[j] <= math.MaxFloat64) || math.IsNaN(l[j]) {
			return nil, nil, false
		}
	}
	return l, h, true
}

// attractorF is attractor (rewardii.go) on float64 choices.
func attractorF(choices [][]fchoice, sched []int) bool {
	n := len(choices)
	done := make([]bool, n)
	left := n
	for left > 0 {
		var round []int
		for i := range choices {
			if done[i] {
				continue
			}
			for k := range choices[i] {
				fc := &choices[i][k]
				moves := fc.L.hi > 0
				for _, j := range fc.to {
					moves = moves || done[j]
				}
				if moves {
					sched[i] = k
					round = append(round, i)
					break
				}
			}
		}
		if len(round) == 0 {
			return false
		}
		for _, i := range round {
			done[i] = true
		}
		left -= len(round)
	}
	return true
}
