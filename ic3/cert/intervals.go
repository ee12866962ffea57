package cert

// Interval branch and bound for network facts: a method of its own (not
// nn's linear bound propagation), in float64 interval arithmetic rounded
// outward after every operation, so that each interval holds the exact
// real value: inputs are bounded exactly in rationals (an affine input is
// extreme at the box's corners) and then rounded outward; every product
// and sum of a layer is rounded outward too. A box where every output of
// Label is beaten by an output of Sure over the whole interval is done; a
// box of at most intervalExact states is decided state by state by exact
// evaluation; any other box is split in two on the variable that moves
// the inputs most. Beyond intervalBoxes boxes the caller falls back to
// one SMT query over the whole box.

import (
	"context"
	"math"
	"math/big"

	"vigil/nn"
	"vigil/symbolic"
)

// intervalBoxes bounds the boxes one fact's interval search bounds, and
// boxes of at most intervalExact states are evaluated state by state
// (splitting further costs about as much as exact evaluation there).
const (
	intervalBoxes = 200_000
	intervalExact = 16
)

func down(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }
func up(x float64) float64   { return math.Nextafter(x, math.Inf(1)) }

// ratDown and ratUp round a rational outward to float64.
func ratDown(r *big.Rat) float64 {
	f, exact := r.Float64()
	if exact {
		return f
	}
	return down(f)
}

func ratUp(r *big.Rat) float64 {
	f, exact := r.Float64()
	if exact {
		return f
	}
	return up(f)
}

// mulIv is an outward-rounded enclosure of w * [lo, hi] for a float w.
func mulIv(w, lo, hi float64) (float64, float64) {
	a, b := w*lo, w*hi
	if a > b {
		a, b = b, a
	}
	return down(a), up(b)
}

// inputBounds returns outward-rounded bounds of the network's inputs
// (after clipping and normalisation) over the state box lo..hi.
func (ev *exactNet) inputBounds(lo, hi []int) (xl, xh []float64) {
	t := new(big.Rat)
	for i, row := range ev.coef {
		l, h := new(big.Rat).Set(ev.konst[i]), new(big.Rat).Set(ev.konst[i])
		for v, c := range row {
			if c == nil {
				continue
			}
			a, b := lo[v], hi[v]
			if c.Sign() < 0 {
				a, b = b, a
			}
			l.Add(l, t.Mul(c, t.SetInt64(int64(a))))
			h.Add(h, t.Mul(c, t.SetInt64(int64(b))))
		}
		ev.clipNormalise(i, l)
		ev.clipNormalise(i, h)
		if l.Cmp(h) > 0 {
			l, h = h, l
		}
		xl, xh = append(xl, ratDown(l)), append(xh, ratUp(h))
	}
	return xl, xh
}

// beaten reports whether, over the input box xl..xh, every output of the
// fact's label is beaten by some output of sure (a strictly higher score
// throughout; ties are left to the exact methods).
func (q *question) beaten(net *nn.Network, ev *exactNet, xl, xh []float64) bool {
	cl, ch := xl, xh
	last := len(net.Layers) - 1
	for k, l := range net.Layers[:last] {
		nl, nh := make([]float64, l.Out), make([]float64, l.Out)
		for i := 0; i < l.Out; i++ {
			sl, sh := l.B[i], l.B[i]
			for j, w := range l.W[i*l.In : (i+1)*l.In] {
				a, b := mulIv(w, cl[j], ch[j])
				sl, sh = down(sl+a), up(sh+b)
			}
			if net.Layers[k].ReLU {
				sl, sh = max(sl, 0), max(sh, 0)
			}
			nl[i], nh[i] = sl, sh
		}
		cl, ch = nl, nh
	}
	l := net.Layers[last]
	// score(j) - score(i) over the last layer's input box: the difference
	// of the two rows, each weight difference enclosed, then the output
	// transform when there is one.
	diff := func(j, i int) float64 {
		if ev.omul != nil || l.ReLU {
			return math.Inf(-1) // bounded per output below
		}
		s := down(l.B[j] - l.B[i])
		for k := 0; k < l.In; k++ {
			dl, dh := down(l.W[j*l.In+k]-l.W[i*l.In+k]), up(l.W[j*l.In+k]-l.W[i*l.In+k])
			p := min(dl*cl[k], dl*ch[k], dh*cl[k], dh*ch[k])
			s = down(s + down(p))
		}
		return s
	}
	out := func(i int) (float64, float64) {
		sl, sh := l.B[i], l.B[i]
		for k, w := range l.W[i*l.In : (i+1)*l.In] {
			a, b := mulIv(w, cl[k], ch[k])
			sl, sh = down(sl+a), up(sh+b)
		}
		if l.ReLU {
			sl, sh = max(sl, 0), max(sh, 0)
		}
		if ev.omul != nil {
			ml, mh := ratDown(ev.omul[i]), ratUp(ev.omul[i])
			al, ah := ratDown(ev.oadd[i]), ratUp(ev.oadd[i])
			p := []float64{ml * sl, ml * sh, mh * sl, mh * sh}
			sl = down(down(min(p[0], p[1], p[2], p[3])) + al)
			sh = up(up(max(p[0], p[1], p[2], p[3])) + ah)
		}
		return sl, sh
	}
	for _, i := range q.label {
		_, ih := out(i)
		ok := false
		for _, j := range q.sure {
			if j == i {
				continue
			}
			if d := diff(j, i); d > 0 {
				ok = true
				break
			}
			if jl, _ := out(j); jl > ih {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// intervalProof decides the fact on lo..hi by interval branch and bound
// (see the top of this file): done with a nil error when it holds, a
// *FactFailure from the exact evaluation of a small box when it does not,
// and not done when the search ran out of boxes.
func (q *question) intervalProof(ctx context.Context, net *nn.Network, ev *exactNet, lo, hi []int) (done bool, err error) {
	if len(q.label) == 0 {
		return true, nil
	}
	type item struct{ lo, hi []int }
	stack := []item{{append([]int(nil), lo...), append([]int(nil), hi...)}}
	for n := 0; len(stack) > 0; n++ {
		if n == intervalBoxes {
			return false, nil
		}
		if n%256 == 0 && ctx.Err() != nil {
			return false, ctx.Err()
		}
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		xl, xh := ev.inputBounds(b.lo, b.hi)
		if q.beaten(net, ev, xl, xh) {
			continue
		}
		if boxSize(b.lo, b.hi) <= intervalExact {
			err := eachBoxState(ctx, b.lo, b.hi, func(s symbolic.State) error {
				if ys := ev.scores(s); q.chosenExact(ys) {
					return q.failure(append(symbolic.State(nil), s...), ys)
				}
				return nil
			})
			if err != nil {
				return true, err
			}
			continue
		}
		// Split the variable that moves the inputs most.
		best, score := -1, 0.0
		for v := range b.lo {
			if b.hi[v] == b.lo[v] {
				continue
			}
			s := 0.0
			for _, row := range ev.coef {
				if c := row[v]; c != nil {
					f, _ := c.Float64()
					s += math.Abs(f)
				}
			}
			if s *= float64(b.hi[v] - b.lo[v]); best < 0 || s > score {
				best, score = v, s
			}
		}
		mid := b.lo[best] + (b.hi[best]-b.lo[best])/2
		l, h := append([]int(nil), b.hi...), append([]int(nil), b.lo...)
		l[best], h[best] = mid, mid+1
		stack = append(stack, item{b.lo, l}, item{h, b.hi})
	}
	return true, nil
}
