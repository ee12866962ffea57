package prob

import "math"

// leaveRatio bounds (r + Σ p_e·v_e) / Σ p_e over the entries e of choice
// ch that leave its class (leaves(t)), for the rationals p_e the float64
// entries stand for, r in [rlo, rhi] and v_e = val(t): the value of
// repeating ch until it leaves, when it stays with a probability so close
// to 1 that it leaves with less than 2^-900 in all (a self-loop left with
// 2^-950 was iterated until --timeout: 2^950 sweeps). The entries are
// scaled up by the power of two 2^-s that brings the largest to [1/2, 1]
// (exact: a float64 times a power of two below 1; the ratio does not
// change with r scaled as well), so the divisor is no longer tiny. A
// rational p_e is within half an ulp of its float64 (one ulp outwards
// covers it) where that is normal, within 2^-1075 where it underflowed
// (below 2^-1022: the relative precision is lost), so each entry counts
// as [down(p) - 2^-1052, up(p) + 2^-1052] scaled; every operation is
// rounded outwards (sccf64.go's ival). A divisor whose interval reaches 0
// (every leaving entry's rational below 2^-1075, its float64 0) gives an
// upper end of +Inf. ok is false when no entry leaves.
func leaveRatio(m *Model, ch uint32, leaves func(t uint32) bool, val func(t uint32) float64, rlo, rhi float64) (ival, bool) {
	top, any := 0.0, false
	for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
		if leaves(m.To[e]) {
			top, any = max(top, m.P[e]), true
		}
	}
	if !any {
		return ival{}, false
	}
	_, s := math.Frexp(top) // 0 for top = 0
	s = min(s, 0)           // scaling up only (halving a subnormal could lose a bit)
	ds := math.Ldexp(0x1p-1052, -s)
	// exact, or beyond float64: +Inf above, MaxFloat64 below (a lower
	// bound still; +Inf there would make the quotient's lower end +Inf,
	// above a value that k entries could bring back below MaxFloat64)
	num := ival{min(math.Ldexp(rlo, -s), math.MaxFloat64), math.Ldexp(rhi, -s)}
	var den ival
	for e := m.EntryStart[ch]; e < m.EntryStart[ch+1]; e++ {
		t := m.To[e]
		if !leaves(t) {
			continue
		}
		p := math.Ldexp(m.P[e], -s)
		pe := ival{max(down(down(p)-ds), 0), up(up(p) + ds)}
		den = iadd(den, pe)
		num = iadd(num, imul(pe, point(val(t))))
	}
	return idiv(num, den), true
}
