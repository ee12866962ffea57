package bdd

// Bit-vector circuits over BDDs. A bvec is a two's-complement vector,
// least significant bit first, together with an interval [lo, hi] that
// contains every value it takes on in-range states. Each operation first
// computes the result's interval, picks the smallest width w that holds
// it, and then works modulo 2^w: operands are sign-extended or truncated to
// w bits, and since the true result fits in w bits, the w-bit result of
// modular arithmetic is exact. Intervals are computed in int64 with
// overflow checks; a result that needs more than maxWidth bits is an error
// (errWide), reported with the expression by the encoder.

import (
	"errors"
	"math"
	"math/bits"
)

// maxWidth bounds the width of every vector: intervals are int64.
const maxWidth = 64

var errWide = errors.New("too wide")

type bvec struct {
	bits   []Node // least significant first
	lo, hi int
}

func (v bvec) width() int { return len(v.bits) }

// widthOf returns the smallest two's-complement width that holds lo..hi.
func widthOf(lo, hi int) int {
	w := 1
	for w < 64 && (lo < -(1<<(w-1)) || hi > 1<<(w-1)-1) {
		w++
	}
	return w
}

func addOK(a, b int) (int, bool) {
	c := a + b
	return c, !((a > 0 && b > 0 && c < 0) || (a < 0 && b < 0 && c >= 0))
}

// subOK returns a-b and whether it lies in int64; b may be MinInt (a -
// MinInt fits when a < 0, as in x + MinInt - MinInt).
func subOK(a, b int) (int, bool) {
	c := a - b
	return c, (a^b)&(a^c) >= 0
}

// mulOK returns a·b and whether it lies in int64 (MinInt included:
// 2^62·-2 is).
func mulOK(a, b int) (int, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	hi, lo := bits.Mul64(uabs(a), uabs(b))
	if (a < 0) != (b < 0) {
		if hi != 0 || lo > 1<<63 {
			return 0, false
		}
		return int(-lo), true
	}
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	return int(lo), true
}

// uabs is |a| as an unsigned number (|MinInt| is 2^63).
func uabs(a int) uint64 {
	if a < 0 {
		return -uint64(a)
	}
	return uint64(a)
}

// cst returns the constant k.
func (m *mgr) cst(k int) bvec {
	w := widthOf(k, k)
	v := bvec{bits: make([]Node, w), lo: k, hi: k}
	for i := range w {
		v.bits[i] = m.from(uint64(k)>>uint(i)&1 == 1)
	}
	return v
}

// resize sign-extends or truncates v to w bits (keeping v's interval; the
// caller guarantees that the values it cares about fit).
func resize(v bvec, w int) []Node {
	out := make([]Node, w)
	n := copy(out, v.bits)
	for i := n; i < w; i++ {
		out[i] = v.bits[len(v.bits)-1]
	}
	return out
}

// addBits adds two w-bit vectors and a carry-in, modulo 2^w.
func (m *mgr) addBits(a, b []Node, carry Node) []Node {
	out := make([]Node, len(a))
	for i := range a {
		axb := m.xor(a[i], b[i])
		out[i] = m.xor(axb, carry)
		if i+1 < len(a) {
			// majority(a, b, carry)
			carry = m.or(m.and(a[i], b[i]), m.and(carry, axb))
		}
	}
	return out
}

func (m *mgr) notBits(a []Node) []Node {
	out := make([]Node, len(a))
	for i := range a {
		out[i] = m.not(a[i])
	}
	return out
}

func (m *mgr) add(a, b bvec) (bvec, error) {
	lo, ok1 := addOK(a.lo, b.lo)
	hi, ok2 := addOK(a.hi, b.hi)
	if !ok1 || !ok2 {
		return bvec{}, errWide
	}
	if a.lo == a.hi && b.lo == b.hi {
		return m.cst(lo), nil
	}
	w := widthOf(lo, hi)
	return bvec{bits: m.addBits(resize(a, w), resize(b, w), m.fls()), lo: lo, hi: hi}, nil
}

func (m *mgr) sub(a, b bvec) (bvec, error) {
	lo, ok1 := subOK(a.lo, b.hi)
	hi, ok2 := subOK(a.hi, b.lo)
	if !ok1 || !ok2 {
		return bvec{}, errWide
	}
	if a.lo == a.hi && b.lo == b.hi {
		return m.cst(lo), nil
	}
	w := widthOf(lo, hi)
	return bvec{bits: m.addBits(resize(a, w), m.notBits(resize(b, w)), m.tru()), lo: lo, hi: hi}, nil
}

func (m *mgr) neg(a bvec) (bvec, error) { return m.sub(m.cst(0), a) }

// shl returns a·2^k modulo 2^w as w bits.
func (m *mgr) shl(a []Node, k int) []Node {
	out := make([]Node, len(a))
	for i := range out {
		if i < k {
			out[i] = m.fls()
		} else {
			out[i] = a[i-k]
		}
	}
	return out
}

// mulConst returns k·a, as a sum of shifted copies of a (canonical signed
// digits of k, so that runs of ones cost one addition and one subtraction).
func (m *mgr) mulConst(a bvec, k int) (bvec, error) {
	l1, ok1 := mulOK(a.lo, k)
	l2, ok2 := mulOK(a.hi, k)
	// k = -2^63 is taken too: its product fits only for a in 0 .. 1, and
	// its non-adjacent form is one digit, -1 at bit 63 (-(a << 63) mod
	// 2^64, which is -2^63 at a = 1): a model whose NEG * x with x = 1
	// (a constant of the IR, -2^63 * -x0) was refused as needing more
	// than 64 bits though every value fits
	if !ok1 || !ok2 {
		return bvec{}, errWide
	}
	lo, hi := min(l1, l2), max(l1, l2)
	if k == 0 || a.lo == a.hi {
		return m.cst(lo), nil
	}
	w := widthOf(lo, hi)
	x := resize(a, w)
	acc := resize(m.cst(0), w)
	// Non-adjacent form of k: digits in {-1, 0, 1}.
	n := k
	for i := 0; n != 0 && i < w; i++ {
		if n&1 != 0 {
			d := 2 - (n & 3) // 1 when n ≡ 1 (mod 4), -1 when n ≡ 3
			sh := m.shl(x, i)
			if d > 0 {
				acc = m.addBits(acc, sh, m.fls())
			} else {
				acc = m.addBits(acc, m.notBits(sh), m.tru())
			}
			n -= d
		}
		n >>= 1
	}
	return bvec{bits: acc, lo: lo, hi: hi}, nil
}

// mul returns a·b for two vectors (shift and add, one conditional addition
// per bit of b): the IR's OpProd (a JANI model's product of two variables).
func (m *mgr) mul(a, b bvec) (bvec, error) {
	if b.lo == b.hi {
		return m.mulConst(a, b.lo)
	}
	if a.lo == a.hi {
		return m.mulConst(b, a.lo)
	}
	c := [4]int{}
	for i, p := range [4][2]int{{a.lo, b.lo}, {a.lo, b.hi}, {a.hi, b.lo}, {a.hi, b.hi}} {
		v, ok := mulOK(p[0], p[1])
		if !ok {
			return bvec{}, errWide
		}
		c[i] = v
	}
	lo, hi := min(c[0], c[1], c[2], c[3]), max(c[0], c[1], c[2], c[3])
	w := widthOf(lo, hi)
	x, y := resize(a, w), resize(b, w)
	acc := resize(m.cst(0), w)
	for i := range w {
		sh := m.shl(x, i)
		sum := m.addBits(acc, sh, m.fls())
		acc = m.muxBits(y[i], sum, acc)
	}
	return bvec{bits: acc, lo: lo, hi: hi}, nil
}

// muxBits returns c ? a : b bitwise (equal widths).
func (m *mgr) muxBits(c Node, a, b []Node) []Node {
	out := make([]Node, len(a))
	for i := range a {
		out[i] = m.ite(c, a[i], b[i])
	}
	return out
}

// divmod returns floor(a/k) and a mod k (in 0..k-1) for k > 0 by long
// division: a is shifted by a multiple of k to be non-negative, then the
// quotient bits are found from the most significant down, keeping the
// partial remainder below k. Where that shift would leave int64 (a can
// be near -2^63 and far above it), a's sign is split off instead
// (divSigned): a division never needs more bits than its operand.
func (m *mgr) divmod(a bvec, k int) (q, r bvec, err error) {
	if k <= 0 {
		return bvec{}, bvec{}, errors.New("divisor must be positive")
	}
	qlo, qhi := floorDiv(a.lo, k), floorDiv(a.hi, k)
	if k == 1 {
		return a, m.cst(0), nil
	}
	if a.lo == a.hi {
		return m.cst(qlo), m.cst(a.lo - k*qlo), nil
	}
	// shift = k·ceil(-lo/k) when lo < 0, so that a + shift >= 0.
	shift := 0
	if a.lo < 0 {
		s, ok := mulOK(-floorDiv(a.lo, k), k)
		if !ok {
			q, r := m.divSigned(a, k, qlo, qhi)
			return q, r, nil
		}
		shift = s
	}
	top, ok := addOK(a.hi, shift)
	if !ok {
		q, r := m.divSigned(a, k, qlo, qhi)
		return q, r, nil
	}
	x, err := m.add(a, m.cst(shift)) // 0 .. top
	if err != nil {
		return bvec{}, bvec{}, err
	}
	n := bits.Len64(uint64(top)) // unsigned bits of x
	qbits, rem := m.udiv(resize(x, n+1)[:n], k)
	qu := bvec{bits: append(qbits, m.fls()), lo: 0, hi: top / k}
	q, err = m.add(qu, m.cst(-shift/k))
	if err != nil {
		return bvec{}, bvec{}, err
	}
	q = bvec{bits: resize(q, widthOf(qlo, qhi)), lo: qlo, hi: qhi}
	r = bvec{bits: rem, lo: 0, hi: k - 1}
	r.bits = resize(r, widthOf(0, k-1))
	return q, r, nil
}

// udiv divides the unsigned number ub (least significant bit first) by
// k > 0: the quotient's len(ub) bits and the remainder (0..k-1) as a
// signed vector of bits.Len64(2k-1)+1 bits.
func (m *mgr) udiv(ub []Node, k int) (qbits, rem []Node) {
	n := len(ub)
	rw := bits.Len64(uint64(2*k-1)) + 1 // remainder register, signed headroom
	rem = resize(m.cst(0), rw)
	kv := resize(m.cst(k), rw)
	qbits = make([]Node, n)
	for i := n - 1; i >= 0; i-- {
		// rem = 2·rem + bit i (rem < k, so 2·rem+1 < 2k fits)
		sh := make([]Node, rw)
		sh[0] = ub[i]
		copy(sh[1:], rem[:rw-1])
		ge := m.not(m.sltBits(sh, kv))
		diff := m.addBits(sh, m.notBits(kv), m.tru())
		rem = m.muxBits(ge, diff, sh)
		qbits[i] = ge
	}
	return qbits, rem
}

// divSigned is divmod for an operand a whose shift to non-negative values
// would leave int64. With s a's sign bit, t = a with every bit flipped
// where s holds is -a-1 >= 0 for negative a (and a otherwise), and
// floor(a/k) = -floor((-a-1)/k) - 1 there (ceil(n/k) = floor((n-1)/k) + 1
// for n = -a >= 1): the quotient of t with every bit flipped where s
// holds, and the remainder k-1 - (t mod k). t has one bit less than a,
// so nothing leaves a's width.
func (m *mgr) divSigned(a bvec, k int, qlo, qhi int) (q, r bvec) {
	w := len(a.bits)
	s := a.bits[w-1]
	t := make([]Node, w-1)
	for i := range t {
		t[i] = m.xor(a.bits[i], s)
	}
	qt, rt := m.udiv(t, k)
	qb := make([]Node, w)
	for i := range qt {
		qb[i] = m.xor(qt[i], s)
	}
	qb[w-1] = s
	q = bvec{bits: resize(bvec{bits: qb}, widthOf(qlo, qhi)), lo: qlo, hi: qhi}
	// k-1 - rt, as rw bits (0 .. k-1 fits)
	km1 := resize(m.cst(k-1), len(rt))
	neg := m.addBits(km1, m.notBits(rt), m.tru())
	r = bvec{bits: m.muxBits(s, neg, rt), lo: 0, hi: k - 1}
	r.bits = resize(r, widthOf(0, k-1))
	return q, r
}

func floorDiv(a, k int) int {
	q := a / k
	if a%k != 0 && (a < 0) != (k < 0) {
		q--
	}
	return q
}

// sltBits is the signed a < b for equal widths.
func (m *mgr) sltBits(a, b []Node) Node {
	w := len(a)
	lt := m.fls()
	for i := 0; i < w-1; i++ {
		// lt_i = (¬a ∧ b) ∨ (a ⇔ b) ∧ lt_{i-1}
		lt = m.ite(m.iff(a[i], b[i]), lt, b[i])
	}
	// Sign bit: a negative and b not means a < b.
	s := w - 1
	return m.ite(m.iff(a[s], b[s]), lt, a[s])
}

func (m *mgr) eqBits(a, b []Node) Node {
	r := m.tru()
	for i := len(a) - 1; i >= 0; i-- {
		r = m.and(r, m.iff(a[i], b[i]))
	}
	return r
}

// common returns a and b at a common width that holds both intervals.
func common(a, b bvec) ([]Node, []Node) {
	w := max(widthOf(min(a.lo, b.lo), max(a.hi, b.hi)), 1)
	return resize(a, w), resize(b, w)
}

// cmp returns the BDD of a op b, op one of ==, !=, <, <=, >, >=.
func (m *mgr) cmp(a bvec, op cmpOp, b bvec) Node {
	// Decided by the intervals alone?
	switch op {
	case opLt:
		if a.hi < b.lo {
			return m.tru()
		}
		if a.lo >= b.hi {
			return m.fls()
		}
	case opEq:
		if a.hi < b.lo || b.hi < a.lo {
			return m.fls()
		}
		if a.lo == a.hi && b.lo == b.hi {
			return m.tru()
		}
	}
	x, y := common(a, b)
	switch op {
	case opEq:
		return m.eqBits(x, y)
	case opLt:
		return m.sltBits(x, y)
	}
	panic("bdd: bad comparison")
}

type cmpOp uint8

const (
	opEq cmpOp = iota
	opLt
)

func (m *mgr) mux(c Node, a, b bvec) bvec {
	if m.isTrue(c) {
		return a
	}
	if m.isFalse(c) {
		return b
	}
	x, y := common(a, b)
	return bvec{bits: m.muxBits(c, x, y), lo: min(a.lo, b.lo), hi: max(a.hi, b.hi)}
}

func (m *mgr) minv(a, b bvec) bvec {
	r := m.mux(m.cmp(a, opLt, b), a, b)
	lo, hi := min(a.lo, b.lo), min(a.hi, b.hi)
	return bvec{bits: resize(r, widthOf(lo, hi)), lo: lo, hi: hi}
}

func (m *mgr) maxv(a, b bvec) bvec {
	r := m.mux(m.cmp(a, opLt, b), b, a)
	lo, hi := max(a.lo, b.lo), max(a.hi, b.hi)
	return bvec{bits: resize(r, widthOf(lo, hi)), lo: lo, hi: hi}
}

func (m *mgr) absv(a bvec) (bvec, error) {
	if a.lo >= 0 {
		return a, nil
	}
	n, err := m.neg(a)
	if err != nil {
		return bvec{}, err
	}
	if a.hi <= 0 {
		return n, nil
	}
	r := m.mux(a.bits[len(a.bits)-1], n, a)
	hi := max(-a.lo, a.hi)
	return bvec{bits: resize(r, widthOf(0, hi)), lo: 0, hi: hi}, nil
}
