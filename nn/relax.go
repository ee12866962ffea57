package nn

// Linear relaxations of the activations other than ReLU, for CROWN's
// backward pass (bounds.go) and alpha-CROWN (alpha.go).
//
// Tanh and Sigmoid are S-shaped: convex on (-inf, 0], concave on
// [0, inf). Over a pre-activation interval [l, u] the lines are chosen as
// auto_LiRPA chooses them (operators/activation_base.py, s_shaped.py):
//
//   - u <= 0 (convex): the chord from l to u above, the tangent at the
//     midpoint below;
//   - l >= 0 (concave): the tangent at the midpoint above, the chord below;
//   - l < 0 < u: above, the tangent at a point d in [0, u] that passes
//     through (l, f(l)) (found by bisection, keeping the side where the
//     tangent is above f(l)), or the chord when even the tangent at u is
//     below f(l); below, symmetrically, the tangent at d in [l, 0] through
//     (u, f(u)), or the chord.
//
// Each line is sound for the exact function in exact arithmetic; computed
// in float64 (and from math.Tanh, which is not correctly rounded) it can
// be off by a few units in the last place of its values, times the size of
// the interval. Every line is therefore moved outward by
// relaxSlack (1 + max(|l|, |u|)), several hundred times that error
// (about 1e-14 (1 + 2 max(|l|, |u|)): tanh's error and the slope's,
// times the distance from the tangent point).
// Intervals narrower than relaxFlat, and intervals that are not finite,
// get constant lines: the outward-rounded values at the ends (actDown,
// actUp), which are the interval bounds of the activation.
//
// LeakyReLU with slope a in [0, 1] is relaxed as ReLU is: above, the chord
// from (l, a l) to (u, u); below, the line of slope 1 or a through the
// origin, whichever is closer (1 when u > -l).
//
// Clip to [a, b] is flat, then the identity, then flat. Over [l, u]
// with a kink inside, each side gets the chord where the function is
// convex or concave there (l < a < u <= b: the chord above; a <= l < b
// < u: the chord below), and otherwise a line through the kink: below,
// through (a, a) with a slope k in [0, min(1, (b-a)/(u-a))] (under the
// identity right of a, under b at u); above, through (b, b) with k in
// [0, min(1, (b-a)/(b-l))]. k is the largest slope when the identity
// part beyond the kink is longer than the flat part before it, else 0
// (as CROWN chooses ReLU's lower slope). Lines that are not exact are
// moved outward by relaxSlack (1 + the largest magnitude of l, u, a, b).

import "math"

const (
	relaxSlack = 1e-11
	relaxFlat  = 1e-7
	bisections = 40
)

// line is y = k x + c.
type line struct{ k, c float64 }

// deriv returns the derivative of an S-shaped activation at x.
func deriv(l *Layer, x float64) float64 {
	v := applyAct(l, x)
	if l.Act == ActTanh {
		return 1 - v*v
	}
	return v * (1 - v)
}

// relax returns a lower and an upper line of l's activation over [lo, hi]
// (l.Act is neither linear nor ReLU).
func relax(l *Layer, lo, hi float64) (lower, upper line) {
	if l.Act == ActLeakyReLU {
		return relaxLeaky(l, lo, hi)
	}
	if l.Act == ActClip {
		return relaxClip(l, lo, hi)
	}
	if !(hi-lo >= relaxFlat) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		if math.IsNaN(lo) || math.IsNaN(hi) {
			lo, hi = math.Inf(-1), math.Inf(1)
		}
		return line{0, actDown(l, lo)}, line{0, actUp(l, hi)}
	}
	fl, fh := applyAct(l, lo), applyAct(l, hi)
	chord := line{k: (fh - fl) / (hi - lo)}
	chord.c = fl - chord.k*lo
	tangent := func(d float64) line {
		k := deriv(l, d)
		return line{k, applyAct(l, d) - k*d}
	}
	mid := lo + (hi-lo)/2
	switch {
	case hi <= 0:
		upper = chord
	case lo >= 0:
		upper = tangent(mid)
	default:
		// above(d): how far the tangent at d passes above (lo, f(lo));
		// it grows with d on [0, hi].
		above := func(d float64) float64 { t := tangent(d); return t.k*lo + t.c - fl }
		if above(hi) <= 0 {
			upper = chord
		} else {
			a, b := 0.0, hi
			for range bisections {
				m := a + (b-a)/2
				if above(m) >= 0 {
					b = m
				} else {
					a = m
				}
			}
			upper = tangent(b)
		}
	}
	switch {
	case lo >= 0:
		lower = chord
	case hi <= 0:
		lower = tangent(mid)
	default:
		// below(d): how far the tangent at d passes below (hi, f(hi));
		// it grows as d falls on [lo, 0].
		below := func(d float64) float64 { t := tangent(d); return fh - (t.k*hi + t.c) }
		if below(lo) <= 0 {
			lower = chord
		} else {
			a, b := lo, 0.0
			for range bisections {
				m := a + (b-a)/2
				if below(m) >= 0 {
					a = m
				} else {
					b = m
				}
			}
			lower = tangent(a)
		}
	}
	s := relaxSlack * (1 + max(math.Abs(lo), math.Abs(hi)))
	lower.c -= s
	upper.c += s
	return lower, upper
}

// relaxLeaky relaxes LeakyReLU over [lo, hi].
func relaxLeaky(l *Layer, lo, hi float64) (lower, upper line) {
	a := l.Slope
	switch {
	case lo >= 0:
		return line{1, 0}, line{1, 0}
	case hi <= 0:
		return line{a, 0}, line{a, 0}
	case math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi):
		// No finite upper line: a steep one with an infinite
		// intercept keeps every bound that uses it at infinity.
		return line{a, 0}, line{1, math.Inf(1)}
	}
	k := (hi - a*lo) / (hi - lo)
	upper = line{k, hi - k*hi}
	upper.c += relaxSlack * (1 + max(-lo, hi))
	lower = line{a, 0}
	if hi > -lo {
		lower.k = 1
	}
	return lower, upper
}

// relaxClip relaxes Clip to [l.Lo, l.Hi] over [lo, hi].
func relaxClip(l *Layer, lo, hi float64) (lower, upper line) {
	a, b := l.Lo, l.Hi
	switch {
	case hi <= a:
		return line{0, a}, line{0, a}
	case lo >= b:
		return line{0, b}, line{0, b}
	case lo >= a && hi <= b:
		return line{1, 0}, line{1, 0}
	case math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi):
		// Clip is monotone: the values at the ends bound it.
		if math.IsNaN(lo) {
			lo = math.Inf(-1)
		}
		if math.IsNaN(hi) {
			hi = math.Inf(1)
		}
		return line{0, clip(l, lo)}, line{0, clip(l, hi)}
	}
	// Here lo < hi are finite, and a or b (or both) lies strictly inside.
	s := relaxSlack * (1 + max(-lo, hi, math.Abs(clip(l, lo)), math.Abs(clip(l, hi))))
	if lo >= a {
		// a <= lo < b < hi: concave, the chord from (lo, lo) to (hi, b).
		k := (b - lo) / (hi - lo)
		lower = line{k, lo - k*lo}
	} else {
		// lo < a < hi: through (a, a).
		kmax := 1.0
		if hi > b {
			kmax = min(1, (b-a)/(hi-a))
		}
		k := 0.0
		if min(hi, b)-a > a-lo {
			k = kmax
		}
		lower = line{k, a - k*a}
	}
	if hi <= b {
		// lo < a < hi <= b: convex, the chord from (lo, a) to (hi, hi).
		k := (hi - a) / (hi - lo)
		upper = line{k, a - k*lo}
	} else {
		// lo < b < hi: through (b, b).
		kmax := 1.0
		if lo < a {
			kmax = min(1, (b-a)/(b-lo))
		}
		k := 0.0
		if b-max(lo, a) > hi-b {
			k = kmax
		}
		upper = line{k, b - k*b}
	}
	lower.c -= s
	upper.c += s
	return lower, upper
}

// postBounds returns interval bounds of l's activation over [lo, hi],
// outward-rounded for the exact function.
func postBounds(l *Layer, lo, hi float64) (float64, float64) {
	switch l.Act {
	case ActLinear:
		return lo, hi
	case ActReLU:
		return max(lo, 0), max(hi, 0)
	}
	if math.IsNaN(lo) {
		lo = math.Inf(-1)
	}
	if math.IsNaN(hi) {
		hi = math.Inf(1)
	}
	return actDown(l, lo), actUp(l, hi)
}
