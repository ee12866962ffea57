package nn

// Bounds over a region that is not a box (symbolic.RegionCertifiable):
// the integer states of a box lo..hi that satisfy linear atoms
// sum_v a_jv s_v <= K_j.
//
// CROWN ends every backward pass with a linear function of the
// normalised network inputs, G = sum_i A_i z_i + b, and concretises it
// over the input box. Each input is an affine function of the state,
// z_i(s) = N_i(fl(aff_i(s))) (symbolic.Affine.Eval rounds once, the input
// transform is exact in the bounds' real arithmetic), so on states
// G(s) = sum_v C_v s_v + C_0 + sum_i A_i eps_i(s), where eps_i is the
// rounding of the input, at most E_i = 2^-52 max|x_i| / range_i. For any
// lambda >= 0 (Lagrangian duality), on the states of the region
//
//	G(s) >= sum_v (C_v + sum_j lambda_j a_jv) s_v + C_0 - lambda·K - sum_i |A_i| E_i,
//
// and the minimum of the right-hand side over the box is a sum of one
// corner per variable. regionBounds.lower evaluates this in interval
// arithmetic rounded outward (the exact rationals C_v enclosed by two
// float64 values), so the bound is rigorous whatever lambda is; lambda
// is chosen by coordinate ascent over the breakpoints -C_v / a_jv of the
// dual function, each of which is concave and piecewise linear in one
// lambda_j. Inputs that the input clip can reach on the sub-box are not
// affine there; they enter by their interval, as in the box bound.
//
// The bounder uses lower for the first layer's pre-activations (rigorous:
// W and B are exact) and at the end of every backward pass, taking the
// larger of the box and the region bound. exactLower goes further where
// every ReLU is stable on the region: the network is then an affine map
// of the inputs there, composed in interval arithmetic, and its rigorous
// lower bound closes a box by more than the rounding error of float64
// evaluation alone (prover.rslack), without the margin that covers the
// bounder's unrounded arithmetic: on the cells along a diagonal of
// braking_net at N = 10^9 the winning score difference is 10^-9, the
// margin itself.

import (
	"math"
	"math/big"

	"vigil/symbolic"
)

// inputMap encloses each network input, after the input transform, as an
// affine function of the state: z_i = sum over vars[i] of
// [dlo, dhi] * s_v + [d0lo, d0hi], before the rounding of Affine.Eval.
type inputMap struct {
	vars       [][]int
	dlo, dhi   [][]float64
	d0lo, d0hi []float64
}

// enclose returns float64 values lo <= r <= hi, equal when r is one.
func enclose(r *big.Rat) (float64, float64) {
	f, exact := r.Float64()
	if exact {
		return f, f
	}
	return roundDown(f), roundUp(f)
}

// inputMaps builds (once) the enclosures of the policy's inputs, or nil
// when the input transform has a range that is not positive and finite.
func (p *Policy) inputMaps() *inputMap {
	if p.imap != nil || p.imapBad {
		return p.imap
	}
	net := p.Net
	im := &inputMap{}
	for i, a := range p.inputs {
		coef := map[int]*big.Rat{}
		var order []int
		for _, t := range a.Terms {
			if t.Coef.Den == 0 {
				continue
			}
			v := int(t.Var)
			if coef[v] == nil {
				coef[v] = new(big.Rat)
				order = append(order, v)
			}
			coef[v].Add(coef[v], big.NewRat(t.Coef.Num, t.Coef.Den))
		}
		c0 := new(big.Rat)
		if a.Const.Den != 0 {
			c0.SetFrac64(a.Const.Num, a.Const.Den)
		}
		var r *big.Rat
		if net.InMean != nil {
			if !(net.InRange[i] > 0) || math.IsInf(net.InRange[i], 0) || math.IsNaN(net.InMean[i]) || math.IsInf(net.InMean[i], 0) {
				p.imapBad = true
				return nil
			}
			r = new(big.Rat).SetFloat64(net.InRange[i])
			c0.Sub(c0, new(big.Rat).SetFloat64(net.InMean[i]))
			c0.Quo(c0, r)
		}
		var vs []int
		var lo, hi []float64
		for _, v := range order {
			c := coef[v]
			if c.Sign() == 0 {
				continue
			}
			if r != nil {
				c = new(big.Rat).Quo(c, r)
			}
			l, h := enclose(c)
			vs, lo, hi = append(vs, v), append(lo, l), append(hi, h)
		}
		l0, h0 := enclose(c0)
		im.vars, im.dlo, im.dhi = append(im.vars, vs), append(im.dlo, lo), append(im.dhi, hi)
		im.d0lo, im.d0hi = append(im.d0lo, l0), append(im.d0hi, h0)
	}
	p.imap = im
	return im
}

// regionBounds bounds linear functions of the normalised inputs over
// the states of a sub-box (setBox) that satisfy the atoms.
type regionBounds struct {
	net   *Network
	im    *inputMap
	nvars int
	atoms []symbolic.LinearAtom
	// Per atom and term: the coefficient enclosed (int64 may not be a
	// float64), its nearest value; per atom the bound's enclosure.
	akd, aku, am [][]float64
	ku, km       []float64

	// The sub-box: the state bounds as float64 (rounded outward); per
	// input whether it is affine on the sub-box (the clip does not
	// reach it), its rounding bound E_i, and for the others the interval
	// of its normalised value.
	sd, su       []float64
	linear       []bool
	e, zlo, zhi  []float64
	clo, chi, cp []float64 // per variable, scratch
	lam          []float64 // per atom
	nl, nh       []float64 // scratch rows (upper)
}

func newRegionBounds(p *Policy, reg *symbolic.AtomRegion) *regionBounds {
	im := p.inputMaps()
	if im == nil {
		return nil
	}
	nin := p.Net.Inputs()
	rb := &regionBounds{net: p.Net, im: im, nvars: p.nvars, atoms: reg.LinearAtoms(),
		sd: make([]float64, p.nvars), su: make([]float64, p.nvars),
		clo: make([]float64, p.nvars), chi: make([]float64, p.nvars), cp: make([]float64, p.nvars),
		linear: make([]bool, nin), e: make([]float64, nin), zlo: make([]float64, nin), zhi: make([]float64, nin),
		nl: make([]float64, nin), nh: make([]float64, nin)}
	for _, a := range rb.atoms {
		var d, u, m []float64
		for _, c := range a.Coef {
			l, h := intEnclose(c)
			d, u, m = append(d, l), append(u, h), append(m, float64(c))
		}
		rb.akd, rb.aku, rb.am = append(rb.akd, d), append(rb.aku, u), append(rb.am, m)
		_, h := intEnclose(a.K)
		rb.ku, rb.km = append(rb.ku, h), append(rb.km, float64(a.K))
	}
	rb.lam = make([]float64, len(rb.atoms))
	return rb
}

// intEnclose returns float64 values lo <= x <= hi.
func intEnclose(x int64) (float64, float64) {
	const exact = 1 << 53
	f := float64(x)
	if x >= -exact && x <= exact {
		return f, f
	}
	return roundDown(f), roundUp(f)
}

// setBox prepares bounds over the states of lo..hi whose network inputs
// lie in the raw input box in (Policy.InputBox(lo, hi)).
func (rb *regionBounds) setBox(lo, hi []int, in Box) {
	for v := range lo {
		l, _ := intEnclose(int64(lo[v]))
		_, h := intEnclose(int64(hi[v]))
		rb.sd[v], rb.su[v] = l, h
	}
	net := rb.net
	for i := range in.Lo {
		xl, xh := in.Lo[i], in.Hi[i]
		rb.linear[i] = net.InMin == nil || (net.InMin[i] <= xl && xh <= net.InMax[i])
		if rb.linear[i] {
			// |fl(t) - t| <= 2^-53 |t| + 2^-1075, and |t| is within a
			// factor 1 + 2^-52 of |fl(t)|: 2^-52 max|fl(t)| covers both.
			e := roundUp(roundUp(0x1p-52*max(math.Abs(xl), math.Abs(xh))) + subnorm)
			if net.InMean != nil {
				e = roundUp(e / net.InRange[i])
			}
			rb.e[i] = e
			continue
		}
		zl, zh := min(max(xl, net.InMin[i]), net.InMax[i]), min(max(xh, net.InMin[i]), net.InMax[i])
		if net.InMean != nil {
			zl = roundDown(roundDown(zl-net.InMean[i]) / net.InRange[i])
			zh = roundUp(roundUp(zh-net.InMean[i]) / net.InRange[i])
		}
		rb.zlo[i], rb.zhi[i] = zl, zh
	}
}

// up and down are roundUp and roundDown (the next float64 toward +Inf
// and -Inf) by integer steps on the bits where x is finite and not 0,
// several times faster than math.Nextafter on this path.
func up(x float64) float64 {
	switch {
	case x > 0 && x < math.MaxFloat64:
		return math.Float64frombits(math.Float64bits(x) + 1)
	case x < 0 && x >= -math.MaxFloat64:
		return math.Float64frombits(math.Float64bits(x) - 1)
	}
	return roundUp(x)
}

func down(x float64) float64 {
	switch {
	case x > 0 && x <= math.MaxFloat64:
		return math.Float64frombits(math.Float64bits(x) - 1)
	case x < 0 && x > -math.MaxFloat64:
		return math.Float64frombits(math.Float64bits(x) + 1)
	}
	return roundDown(x)
}

// mulLo and mulHi bound x*y from below and above (exact when a factor
// is 0).
func mulLo(x, y float64) float64 {
	if x == 0 || y == 0 {
		return 0
	}
	return down(x * y)
}

func mulHi(x, y float64) float64 {
	if x == 0 || y == 0 {
		return 0
	}
	return up(x * y)
}

// imul encloses the product of the intervals [al, ah] and [bl, bh].
func imul(al, ah, bl, bh float64) (float64, float64) {
	lo := min(mulLo(al, bl), mulLo(al, bh), mulLo(ah, bl), mulLo(ah, bh))
	hi := max(mulHi(al, bl), mulHi(al, bh), mulHi(ah, bl), mulHi(ah, bh))
	return lo, hi
}

func addLo(x, y float64) float64 {
	if y == 0 {
		return x
	}
	return down(x + y)
}

func addHi(x, y float64) float64 {
	if y == 0 {
		return x
	}
	return up(x + y)
}

// lower returns a rigorous lower bound, over the states of the sub-box
// that satisfy the atoms, of sum_i A_i z_i(s) + b for some A_i in
// [alo_i, ahi_i] and b >= blo (A and b need not be float64 values, only
// enclosed). It is -Inf where the arithmetic overflows.
func (rb *regionBounds) lower(alo, ahi []float64, blo float64) float64 {
	clear(rb.clo)
	clear(rb.chi)
	c0 := blo
	im := rb.im
	for i := range alo {
		al, ah := alo[i], ahi[i]
		if al == 0 && ah == 0 {
			continue
		}
		if !rb.linear[i] {
			l, _ := imul(al, ah, rb.zlo[i], rb.zhi[i])
			c0 = addLo(c0, l)
			continue
		}
		for t, v := range im.vars[i] {
			l, h := imul(al, ah, im.dlo[i][t], im.dhi[i][t])
			rb.clo[v], rb.chi[v] = addLo(rb.clo[v], l), addHi(rb.chi[v], h)
		}
		l, _ := imul(al, ah, im.d0lo[i], im.d0hi[i])
		c0 = addLo(c0, l)
		c0 = addLo(c0, -mulHi(max(math.Abs(al), math.Abs(ah)), rb.e[i]))
	}
	rb.chooseLambda()
	total := c0
	for j, a := range rb.atoms {
		lam := rb.lam[j]
		if lam == 0 {
			continue
		}
		total = addLo(total, -mulHi(lam, rb.ku[j]))
		for t, v := range a.Vars {
			rb.clo[v] = addLo(rb.clo[v], mulLo(lam, rb.akd[j][t]))
			rb.chi[v] = addHi(rb.chi[v], mulHi(lam, rb.aku[j][t]))
		}
	}
	for v := range rb.clo {
		l, _ := imul(rb.clo[v], rb.chi[v], rb.sd[v], rb.su[v])
		total = addLo(total, l)
	}
	// +Inf is no bound either: the coefficients may have overflowed
	// where the values they multiply are small (bounds.go, noBound).
	return noBound(total)
}

// upper is minus the lower bound of the negated function: a rigorous
// upper bound of sum_i A_i z_i + b for A in [alo, ahi], b <= bhi.
func (rb *regionBounds) upper(alo, ahi []float64, bhi float64) float64 {
	nl, nh := rb.nl[:len(alo)], rb.nh[:len(alo)]
	for i := range alo {
		nl[i], nh[i] = -ahi[i], -alo[i]
	}
	return -rb.lower(nl, nh, -bhi)
}

// lambdaSweeps is the number of rounds of coordinate ascent over the
// multipliers of several atoms.
const lambdaSweeps = 4

// chooseLambda picks the multipliers for the coefficients in clo..chi
// (their midpoints) by coordinate ascent on the dual function. Only the
// final evaluation in lower needs to be rigorous.
func (rb *regionBounds) chooseLambda() {
	clear(rb.lam)
	if len(rb.atoms) == 0 {
		return
	}
	cp := rb.cp
	for v := range cp {
		cp[v] = rb.clo[v]/2 + rb.chi[v]/2
		if math.IsInf(cp[v], 0) || math.IsNaN(cp[v]) {
			return
		}
	}
	sweeps := lambdaSweeps
	if len(rb.atoms) == 1 {
		sweeps = 1
	}
	for range sweeps {
		for j, a := range rb.atoms {
			am := rb.am[j]
			for t, v := range a.Vars {
				cp[v] -= rb.lam[j] * am[t]
			}
			value := func(l float64) float64 {
				s := -l * rb.km[j]
				for t, v := range a.Vars {
					c := cp[v] + l*am[t]
					s += min(c*rb.sd[v], c*rb.su[v])
				}
				return s
			}
			best, bl := value(0), 0.0
			for t, v := range a.Vars {
				if am[t] == 0 {
					continue
				}
				l := -cp[v] / am[t]
				if l > 0 && !math.IsInf(l, 0) {
					if f := value(l); f > best {
						best, bl = f, l
					}
				}
			}
			rb.lam[j] = bl
			for t, v := range a.Vars {
				cp[v] += bl * am[t]
			}
		}
	}
}

// exactLower returns rigorous lower bounds of the bound rows (rows,
// flat, one row per offset, over the outputs after the output transform)
// over the states of the sub-box that satisfy the atoms, when the
// network is affine there: every activation is the identity, a ReLU
// whose rigorous pre-activation bounds do not straddle 0 or a Clip whose
// bounds straddle neither of its ends, and there is no
// final Softmax. ok is false otherwise.
func (rb *regionBounds) exactLower(rows, off []float64) (lb []float64, ok bool) {
	net := rb.net
	if net.Out != OutNone {
		return nil, false
	}
	nin := net.Inputs()
	// The current layer's input is M z + m, M enclosed by [mlo, mhi]
	// (width x nin, flat) and m by [vlo, vhi]: first the identity.
	width := nin
	mlo, mhi := make([]float64, nin*nin), make([]float64, nin*nin)
	for i := 0; i < nin; i++ {
		mlo[i*nin+i], mhi[i*nin+i] = 1, 1
	}
	vlo, vhi := make([]float64, nin), make([]float64, nin)
	for k := range net.Layers {
		l := &net.Layers[k]
		if l.Act != ActLinear && l.Act != ActReLU && l.Act != ActClip {
			return nil, false
		}
		plo, phi := make([]float64, l.Out*nin), make([]float64, l.Out*nin)
		qlo, qhi := make([]float64, l.Out), make([]float64, l.Out)
		for i := 0; i < l.Out; i++ {
			ql, qh := l.B[i], l.B[i]
			pl, ph := plo[i*nin:(i+1)*nin], phi[i*nin:(i+1)*nin]
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				if w == 0 {
					continue
				}
				x, y := imul(w, w, vlo[j], vhi[j])
				ql, qh = addLo(ql, x), addHi(qh, y)
				for c := 0; c < nin; c++ {
					x, y := imul(w, w, mlo[j*nin+c], mhi[j*nin+c])
					pl[c], ph[c] = addLo(pl[c], x), addHi(ph[c], y)
				}
			}
			qlo[i], qhi[i] = ql, qh
			if l.Act == ActReLU {
				switch {
				case rb.lower(pl, ph, ql) >= 0: // the identity
				case rb.upper(pl, ph, qh) <= 0: // constantly 0
					clear(pl)
					clear(ph)
					qlo[i], qhi[i] = 0, 0
				default:
					return nil, false
				}
			}
			if l.Act == ActClip {
				// Exact as ReLU is: s < Lo gives Lo and s > Hi gives
				// Hi, and the identity between.
				switch {
				case l.Lo <= rb.lower(pl, ph, ql) && rb.upper(pl, ph, qh) <= l.Hi: // the identity
				case rb.upper(pl, ph, qh) <= l.Lo || rb.lower(pl, ph, ql) >= l.Hi:
					c := l.Lo
					if rb.lower(pl, ph, ql) >= l.Hi {
						c = l.Hi
					}
					if math.IsInf(c, 0) {
						return nil, false
					}
					clear(pl)
					clear(ph)
					qlo[i], qhi[i] = c, c
				default:
					return nil, false
				}
			}
		}
		mlo, mhi, vlo, vhi, width = plo, phi, qlo, qhi, l.Out
	}
	nout := width
	lb = make([]float64, len(off))
	alo, ahi := make([]float64, nin), make([]float64, nin)
	for r := range off {
		clear(alo)
		clear(ahi)
		bl := off[r]
		for j, c := range rows[r*nout : (r+1)*nout] {
			if c == 0 {
				continue
			}
			cl, ch := c, c
			if net.OutMean != nil {
				// c (y R + M) = (c R) y + c M.
				x, _ := imul(c, c, net.OutMean[j], net.OutMean[j])
				bl = addLo(bl, x)
				cl, ch = imul(c, c, net.OutRange[j], net.OutRange[j])
			}
			x, _ := imul(cl, ch, vlo[j], vhi[j])
			bl = addLo(bl, x)
			for i := 0; i < nin; i++ {
				x, y := imul(cl, ch, mlo[j*nin+i], mhi[j*nin+i])
				alo[i], ahi[i] = addLo(alo[i], x), addHi(ahi[i], y)
			}
		}
		lb[r] = rb.lower(alo, ahi, bl)
	}
	return lb, true
}
