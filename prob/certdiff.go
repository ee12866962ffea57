package prob

import "math"

// A certificate on differences of values (session 32). certify bounds each
// choice a's advantage A = T_a v - v_i over σ's value from the intervals
// of σ's values v; their widths (a few ulps an elimination: 4·10^-11
// relative round a ring of 20,000 classes, 10^-12 at 900) enter A whole,
// while the certificate needs A below 2^-20 of what a leaves with (10^-16
// of the value on a ring left with 10^-9 a step), and it declined. Here A
// is computed through differences of values instead, without v_j and v_i
// apart: with E_a = L_a + Σ_j w_aj,
//
//	E_a·A = b_a - L_a·v_i + Σ_j w_aj·(v_j - v_i),
//
// where L_a·v_i is small (L_a is what leaves), and a difference v_j - v_i
// is the sum of the steps δ along σ's path between them: a class k whose
// σ-choice enters one class s(k) of the component has E_σ v_k = b_σ +
// w_σ v_s + ... exactly, so δ_k = v_k - v_s(k) = (b_σ - L_σ·v_s(k)) / E_σ,
// again with v only times what leaves. Each δ is known to a few ulps of
// itself (plus L/E times v's width), so a path of a few hundred steps
// keeps the difference tight. Farther apart, v_j - v_i = φ_j - φ_i, with
// φ_k the steps summed from k to the end of its σ path (a class without
// a single successor, or the cycle it enters: one class of the cycle is
// the root); the widths then add up along the whole path, still far
// below the values' (a ring of 900 classes: about 10^-9 of what A must
// stay below). Every quantity is an enclosure (the exact E, L, b, w lie
// in their intervals, the identities hold for them), each operation
// rounded outwards, signed intervals here (sival). Classes on different
// roots get v_j - v_i from the intervals; and certify keeps, per choice,
// the smaller of this bound and its own.
//
// Policy iteration also uses the differences (improveSure): improve does
// not switch for gains below 2^-40 of the value (rounding must not make
// it cycle), which left near ties whose advantage the certificate
// refused (the reward ring left with 10^-7 a step: β 1.4·10^-5 at 900
// classes); a choice whose advantage is surely positive through the
// differences is an exact improvement, so switching cannot cycle.

// maxDiffPath bounds the σ path a difference is summed along.
const maxDiffPath = 64

// sival is a closed interval [lo, hi] of reals of either sign.
type sival struct{ lo, hi float64 }

func sdown(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
func sup(x float64) float64   { return math.Nextafter(x, math.Inf(1)) }

// ssub is a - b for non-negative a, b.
func ssub(a, b ival) sival { return sival{sdown(a.lo - b.hi), sup(a.hi - b.lo)} }

func sadd(a, b sival) sival { return sival{sdown(a.lo + b.lo), sup(a.hi + b.hi)} }

// smul is a·w for w ≥ 0.
func smul(a sival, w ival) sival {
	lo, hi := a.lo*w.hi, a.hi*w.hi
	if a.lo >= 0 {
		lo = a.lo * w.lo
	}
	if a.hi < 0 {
		hi = a.hi * w.lo
	}
	return sival{sdown(lo), sup(hi)}
}

// sdiv is a / e for e > 0 (e.lo > 0).
func sdiv(a sival, e ival) sival {
	lo, hi := a.lo/e.lo, a.hi/e.lo
	if a.lo >= 0 {
		lo = a.lo / e.hi
	}
	if a.hi < 0 {
		hi = a.hi / e.hi
	}
	return sival{sdown(lo), sup(hi)}
}

// diffCert holds σ's steps: next[k] = s(k) (-1 when σ's choice enters
// no single class of the component), step[k] = δ_k.
type diffCert struct {
	next []int32
	step []sival
	v    []ival
	// root[k] is where k's σ path ends (a class without next, or one
	// on the cycle it enters), phi[k] encloses v_k - v_root (the steps
	// summed along the path): v_j - v_i = phi[j] - phi[i] on one root.
	root []int32
	phi  []sival
}

func newDiffCert(choices [][]fchoice, sched []int, v []ival) *diffCert {
	n := len(choices)
	d := &diffCert{next: make([]int32, n), step: make([]sival, n), v: v}
	for k := range choices {
		d.next[k] = -1
		fc := &choices[k][sched[k]]
		if len(fc.to) != 1 || !(fc.E.lo > 0) {
			continue
		}
		s := fc.to[0]
		st := sdiv(ssub(fc.b, imul(fc.L, v[s])), fc.E)
		if math.IsNaN(st.lo) || math.IsNaN(st.hi) || math.IsInf(st.lo, 0) || math.IsInf(st.hi, 0) {
			continue
		}
		d.next[k], d.step[k] = int32(s), st
	}
	d.root, d.phi = make([]int32, n), make([]sival, n)
	state := make([]uint8, n) // 0 new, 1 on the current path, 2 done
	var path []int32
	for k := range int32(n) {
		path = path[:0]
		x := k
		for state[x] != 2 {
			if state[x] == 1 || d.next[x] < 0 {
				d.root[x], state[x] = x, 2 // a cycle's class, or the end
				break
			}
			state[x] = 1
			path = append(path, x)
			x = d.next[x]
		}
		for p := len(path) - 1; p >= 0; p-- {
			if y := path[p]; state[y] != 2 {
				nx := d.next[y]
				d.root[y], d.phi[y], state[y] = d.root[nx], sadd(d.step[y], d.phi[nx]), 2
			}
		}
	}
	return d
}

// diff encloses v_j - v_i.
func (d *diffCert) diff(i, j uint32) sival {
	if i == j {
		return sival{}
	}
	// i → … → j: v_i - v_j is the sum of the steps
	sum, k := sival{}, int32(i)
	for range maxDiffPath {
		if d.next[k] < 0 {
			break
		}
		sum, k = sadd(sum, d.step[k]), d.next[k]
		if k == int32(j) {
			return sival{-sum.hi, -sum.lo}
		}
	}
	// j → … → i: v_j - v_i is the sum
	sum, k = sival{}, int32(j)
	for range maxDiffPath {
		if d.next[k] < 0 {
			break
		}
		sum, k = sadd(sum, d.step[k]), d.next[k]
		if k == int32(i) {
			return sum
		}
	}
	if d.root[i] == d.root[j] {
		pj, pi := d.phi[j], d.phi[i]
		if x := (sival{sdown(pj.lo - pi.hi), sup(pj.hi - pi.lo)}); !math.IsNaN(x.lo) && !math.IsNaN(x.hi) {
			return x
		}
	}
	return ssub(d.v[j], d.v[i])
}

// ea encloses E_a·A for choice fc of class i.
func (d *diffCert) ea(fc *fchoice, i int) sival {
	x := ssub(fc.b, imul(fc.L, d.v[i]))
	for t, j := range fc.to {
		x = sadd(x, smul(d.diff(uint32(i), j), fc.w[t]))
	}
	return x
}

// improveSure switches, per class, to the choice whose advantage over σ
// is surely positive (max; negative for min) and largest, computed
// through differences: improve leaves gains below 2^-40 of the value
// (rounding must not make it cycle), and near ties on a ring left with
// 10^-7 a step then fail the certificate (advantages of 10^-12 of the
// value, where it needs 10^-13); a sure gain is an exact improvement, so
// policy iteration cannot cycle on it. It reports whether a class switched.
func improveSure(choices [][]fchoice, sched []int, v []ival, max bool) bool {
	d := newDiffCert(choices, sched, v)
	changed := false
	for i, cs := range choices {
		best, bestG := -1, 0.0
		for k := range cs {
			if k == sched[i] {
				continue
			}
			fc := &cs[k]
			x := d.ea(fc, i)
			g := x.lo // a lower bound of E·A (max) or of -E·A (min)
			if !max {
				g = -x.hi
			}
			if math.IsNaN(x.lo) || math.IsNaN(x.hi) || !(g > 0) || !(fc.E.hi > 0) || math.IsInf(fc.E.hi, 1) {
				continue
			}
			if g /= fc.E.hi; g > bestG {
				best, bestG = k, g
			}
		}
		if best >= 0 {
			sched[i] = best
			changed = true
		}
	}
	return changed
}

// need bounds E_a·A from above (max) or E_a·(-A) (min) for choice fc of
// class i; +Inf when it cannot.
func (d *diffCert) need(fc *fchoice, i int, max bool) float64 {
	x := d.ea(fc, i)
	r := x.hi
	if !max {
		r = -x.lo
	}
	if math.IsNaN(x.lo) || math.IsNaN(x.hi) {
		return math.Inf(1)
	}
	return r
}
