package symbolic

// Interval evaluation of expressions and conditions over a box (a range
// lo[v]..hi[v] per variable), for searches that cut a box into pieces and
// drop those where a condition fails throughout (ppa's region search).
// Model.Bounds answers the same question over the variables' whole
// ranges, in big integers; here the box changes at every call, so the
// arithmetic is int64 with overflow checks: a value whose bounds leave
// ±2^62 is top (any value), which decides no comparison. A condition is
// BoxTrue (BoxFalse) only when it holds (fails) in every state of the box:
// a search may drop a piece on that answer.

// BoxTruth is the three-valued truth of a condition over a box.
type BoxTruth uint8

const (
	BoxMaybe BoxTruth = iota // holds in some states of the box, or not decided
	BoxTrue                  // holds in every state of the box
	BoxFalse                 // fails in every state of the box
)

// Not is the truth of the negated condition.
func (t BoxTruth) Not() BoxTruth {
	switch t {
	case BoxTrue:
		return BoxFalse
	case BoxFalse:
		return BoxTrue
	}
	return BoxMaybe
}

func (t BoxTruth) String() string {
	return [...]string{"maybe", "true", "false"}[t]
}

// BoxInterval is an integer interval Lo..Hi that contains every value of
// an expression over a box, or Top (no bound within ±2^62).
type BoxInterval struct {
	Lo, Hi int64
	Top    bool
}

// boxLimit bounds the intervals' ends; beyond it a value is top, so that
// the sum of two ends never overflows.
const boxLimit = 1 << 62

func boxIval(lo, hi int64) BoxInterval {
	if lo < -boxLimit || hi > boxLimit || lo > hi {
		return BoxInterval{Top: true}
	}
	return BoxInterval{Lo: lo, Hi: hi}
}

func boxMul(a, b int64) (int64, bool) {
	p, ok := mul64(int(a), int(b))
	return int64(p), ok
}

// EvalBox returns an interval containing every value e takes on the
// states of the box lo..hi (one entry per variable of the model). A
// variable outside the box's length is top.
func EvalBox(e *Expr, lo, hi []int) BoxInterval {
	switch e.Op {
	case OpConst:
		return boxIval(int64(e.K), int64(e.K))
	case OpVar:
		if int(e.Var) < 0 || int(e.Var) >= len(lo) || int(e.Var) >= len(hi) {
			return BoxInterval{Top: true}
		}
		return boxIval(int64(lo[e.Var]), int64(hi[e.Var]))
	case OpAdd:
		acc := BoxInterval{}
		for _, a := range e.Args {
			v := EvalBox(a, lo, hi)
			if v.Top {
				return v
			}
			acc = boxIval(acc.Lo+v.Lo, acc.Hi+v.Hi) // both within ±2^62: no overflow
			if acc.Top {
				return acc
			}
		}
		return acc
	case OpSub:
		a, b := EvalBox(e.Args[0], lo, hi), EvalBox(e.Args[1], lo, hi)
		if a.Top || b.Top {
			return BoxInterval{Top: true}
		}
		return boxIval(a.Lo-b.Hi, a.Hi-b.Lo)
	case OpNeg:
		a := EvalBox(e.Args[0], lo, hi)
		if a.Top {
			return a
		}
		return boxIval(-a.Hi, -a.Lo)
	case OpMul:
		a := EvalBox(e.Args[0], lo, hi)
		if a.Top {
			return a
		}
		p, ok1 := boxMul(a.Lo, int64(e.K))
		q, ok2 := boxMul(a.Hi, int64(e.K))
		if !ok1 || !ok2 {
			return BoxInterval{Top: true}
		}
		return boxIval(min(p, q), max(p, q))
	case OpDiv:
		a := EvalBox(e.Args[0], lo, hi)
		if a.Top || e.K <= 0 {
			return BoxInterval{Top: true}
		}
		return boxIval(int64(FloorDiv(int(a.Lo), e.K)), int64(FloorDiv(int(a.Hi), e.K)))
	case OpMin, OpMax:
		a, b := EvalBox(e.Args[0], lo, hi), EvalBox(e.Args[1], lo, hi)
		if a.Top || b.Top {
			return BoxInterval{Top: true}
		}
		if e.Op == OpMin {
			return boxIval(min(a.Lo, b.Lo), min(a.Hi, b.Hi))
		}
		return boxIval(max(a.Lo, b.Lo), max(a.Hi, b.Hi))
	case OpAbs:
		a := EvalBox(e.Args[0], lo, hi)
		switch {
		case a.Top, a.Lo >= 0:
			return a
		case a.Hi <= 0:
			return boxIval(-a.Hi, -a.Lo)
		}
		return boxIval(0, max(-a.Lo, a.Hi))
	case OpIte:
		switch CondBox(e.Cond, lo, hi) {
		case BoxTrue:
			return EvalBox(e.Args[0], lo, hi)
		case BoxFalse:
			return EvalBox(e.Args[1], lo, hi)
		}
		a, b := EvalBox(e.Args[0], lo, hi), EvalBox(e.Args[1], lo, hi)
		if a.Top || b.Top {
			return BoxInterval{Top: true}
		}
		return boxIval(min(a.Lo, b.Lo), max(a.Hi, b.Hi))
	case OpBool:
		switch CondBox(e.Cond, lo, hi) {
		case BoxTrue:
			return boxIval(1, 1)
		case BoxFalse:
			return boxIval(0, 0)
		}
		return boxIval(0, 1)
	case OpProd:
		a, b := EvalBox(e.Args[0], lo, hi), EvalBox(e.Args[1], lo, hi)
		if a.Top || b.Top {
			return BoxInterval{Top: true}
		}
		var ps [4]int64
		for i, xy := range [4][2]int64{{a.Lo, b.Lo}, {a.Lo, b.Hi}, {a.Hi, b.Lo}, {a.Hi, b.Hi}} {
			p, ok := boxMul(xy[0], xy[1])
			if !ok {
				return BoxInterval{Top: true}
			}
			ps[i] = p
		}
		return boxIval(min(ps[0], ps[1], ps[2], ps[3]), max(ps[0], ps[1], ps[2], ps[3]))
	}
	return BoxInterval{Top: true}
}

// CondBox returns whether c holds in every state of the box lo..hi
// (BoxTrue), in none (BoxFalse), or neither is shown (BoxMaybe).
func CondBox(c *Cond, lo, hi []int) BoxTruth {
	switch c.Op {
	case CTrue:
		return BoxTrue
	case CFalse:
		return BoxFalse
	case CVar:
		if int(c.Var) < 0 || int(c.Var) >= len(lo) || int(c.Var) >= len(hi) {
			return BoxMaybe
		}
		l, h := lo[c.Var], hi[c.Var]
		switch {
		case l == 0 && h == 0:
			return BoxFalse
		case l > 0 || h < 0:
			return BoxTrue
		}
		return BoxMaybe
	case CCmp:
		a, b := EvalBox(c.L, lo, hi), EvalBox(c.R, lo, hi)
		if a.Top || b.Top {
			return BoxMaybe
		}
		return cmpBox(c.Cmp, a, b)
	case CNot:
		return CondBox(c.Args[0], lo, hi).Not()
	case CAnd:
		out := BoxTrue
		for _, a := range c.Args {
			switch CondBox(a, lo, hi) {
			case BoxFalse:
				return BoxFalse
			case BoxMaybe:
				out = BoxMaybe
			}
		}
		return out
	case COr:
		out := BoxFalse
		for _, a := range c.Args {
			switch CondBox(a, lo, hi) {
			case BoxTrue:
				return BoxTrue
			case BoxMaybe:
				out = BoxMaybe
			}
		}
		return out
	case CImplies:
		a := CondBox(c.Args[0], lo, hi)
		if a == BoxFalse {
			return BoxTrue
		}
		b := CondBox(c.Args[1], lo, hi)
		switch {
		case b == BoxTrue:
			return BoxTrue
		case a == BoxTrue && b == BoxFalse:
			return BoxFalse
		}
		return BoxMaybe
	}
	return BoxMaybe
}

// cmpBox compares two intervals: BoxTrue when a op b for every pair of
// values, BoxFalse when for none.
func cmpBox(op CmpOp, a, b BoxInterval) BoxTruth {
	switch op {
	case Eq:
		if a.Lo == a.Hi && b.Lo == b.Hi && a.Lo == b.Lo {
			return BoxTrue
		}
		if a.Hi < b.Lo || b.Hi < a.Lo {
			return BoxFalse
		}
	case Ne:
		return cmpBox(Eq, a, b).Not()
	case Lt:
		if a.Hi < b.Lo {
			return BoxTrue
		}
		if a.Lo >= b.Hi {
			return BoxFalse
		}
	case Le:
		if a.Hi <= b.Lo {
			return BoxTrue
		}
		if a.Lo > b.Hi {
			return BoxFalse
		}
	case Gt:
		return cmpBox(Lt, b, a)
	case Ge:
		return cmpBox(Le, b, a)
	}
	return BoxMaybe
}
