package symbolic

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// edges are values around the ends of int64 and around zero.
var edges = []int{0, 1, -1, 2, -2, 3, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
	1 << 62, -1 << 62, 1<<32 + 1, -(1 << 32), 3037000499, 3037000500, -3037000500, math.MaxInt32, math.MinInt32}

func TestCheckedOpsAgreeWithBig(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	vals := append([]int(nil), edges...)
	for range 200 {
		vals = append(vals, int(r.Uint64()), int(r.Uint64()>>uint(r.IntN(64))))
	}
	check := func(name string, a, b int, got int, ok bool, want *big.Int) {
		t.Helper()
		if ok != want.IsInt64() || ok && int64(got) != want.Int64() {
			t.Fatalf("%s(%d, %d) = %d, %v; exact %s", name, a, b, got, ok, want)
		}
	}
	for _, a := range vals {
		A := big.NewInt(int64(a))
		n, ok := neg64(a)
		check("neg", a, 0, n, ok, new(big.Int).Neg(A))
		n, ok = abs64(a)
		check("abs", a, 0, n, ok, new(big.Int).Abs(A))
		for _, b := range vals {
			B := big.NewInt(int64(b))
			c, ok := add64(a, b)
			check("add", a, b, c, ok, new(big.Int).Add(A, B))
			c, ok = sub64(a, b)
			check("sub", a, b, c, ok, new(big.Int).Sub(A, B))
			c, ok = mul64(a, b)
			check("mul", a, b, c, ok, new(big.Int).Mul(A, B))
		}
	}
}

// The example: (x*B + x*B) / B is exactly 2x, although x*B + x*B
// leaves int64 for x == 1.
func TestEvalIsExact(t *testing.T) {
	const B = 1 << 62
	x := V(0)
	xb := &Expr{Op: OpMul, K: B, Args: []*Expr{x}}
	e := &Expr{Op: OpDiv, K: B, Args: []*Expr{{Op: OpAdd, Args: []*Expr{xb, xb}}}}
	for _, v := range []int{-2, -1, 0, 1, 2} {
		if got := e.Eval(State{v}); got != 2*v {
			t.Errorf("x=%d: (x*B + x*B)/B = %d, want %d", v, got, 2*v)
		}
	}
	sum := &Expr{Op: OpAdd, Args: []*Expr{xb, xb}}
	if got := sum.Eval(State{1}); got != math.MaxInt64 {
		t.Errorf("x*B + x*B at x=1 = %d, want the saturated %d", got, math.MaxInt64)
	}
	if v, ok := sum.EvalInt(State{-1}); !ok || v != math.MinInt64 {
		t.Errorf("EvalInt(x*B + x*B) at x=-1 = %d, %v; want MinInt64, true", v, ok)
	}
	if v, ok := sum.EvalInt(State{-2}); ok || v != math.MinInt64 {
		t.Errorf("EvalInt(x*B + x*B) at x=-2 = %d, %v; want MinInt64 (saturated), false", v, ok)
	}
	if got := sum.ValueString(State{2}); got != "18446744073709551616" {
		t.Errorf("ValueString = %s", got)
	}
	// 2^63 > MaxInt64 although the saturated values compare equal.
	big1 := Compare(sum, Gt, Lit(math.MaxInt64))
	if !big1.Holds(State{1}) {
		t.Error("x*B + x*B > MaxInt64 at x=1 should hold")
	}
	three := &Expr{Op: OpAdd, Args: []*Expr{xb, xb, xb}}
	if Compare(sum, Eq, three).Holds(State{1}) {
		t.Error("2^63 == 3*2^62 should not hold, though both saturate")
	}
	if !Compare(sum, Lt, three).Holds(State{1}) {
		t.Error("2^63 < 3*2^62 should hold")
	}
	// -MinInt64 and abs(MinInt64) are 2^63.
	mn := Lit(math.MinInt64)
	for _, op := range []Op{OpNeg, OpAbs} {
		e := &Expr{Op: op, Args: []*Expr{mn}}
		if !Compare(e, Gt, Lit(math.MaxInt64)).Holds(nil) {
			t.Errorf("%s(MinInt64) > MaxInt64 should hold", op)
		}
	}
	// Floor division of a value beyond int64.
	d := &Expr{Op: OpDiv, K: 4, Args: []*Expr{{Op: OpNeg, Args: []*Expr{{Op: OpAdd, Args: []*Expr{xb, xb, Lit(1)}}}}}}
	if got := d.Eval(State{1}); got != -(1<<61)-1 {
		t.Errorf("-(2^63+1)/4 = %d, want %d", got, -(1<<61)-1)
	}
	// A product of two variables.
	p := &Expr{Op: OpProd, Args: []*Expr{V(0), V(1)}}
	pp := &Expr{Op: OpDiv, K: 1 << 40, Args: []*Expr{{Op: OpProd, Args: []*Expr{p, p}}}}
	if got := pp.Eval(State{1 << 20, 1 << 20}); got != 1<<40 {
		t.Errorf("(x*y)^2 / 2^40 = %d, want 2^40", got)
	}
}

func TestLinearizeRefusesOverflow(t *testing.T) {
	xb := &Expr{Op: OpMul, K: 1 << 62, Args: []*Expr{V(0)}}
	if _, ok := Linearize(&Expr{Op: OpAdd, Args: []*Expr{xb, xb}}); ok {
		t.Error("x*2^62 + x*2^62 has a coefficient 2^63: Linearize must refuse it")
	}
	if l, ok := Linearize(&Expr{Op: OpSub, Args: []*Expr{xb, xb}}); !ok || len(l.Terms) != 0 {
		t.Errorf("x*2^62 - x*2^62 = %v, %v; want 0", l, ok)
	}
	if _, ok := Linearize(&Expr{Op: OpNeg, Args: []*Expr{Lit(math.MinInt64)}}); ok {
		t.Error("-MinInt64 must be refused")
	}
}

// Bounds and Fits are sound: every value on a sample of states lies in the
// bounds, and Fits means wrapping evaluation agrees with exact evaluation.
func TestBoundsSound(t *testing.T) {
	m := &Model{Vars: []Var{{Name: "x", Lo: -3, Hi: 3}, {Name: "y", Lo: 1 << 40, Hi: 1<<40 + 2}}}
	x, y := V(0), V(1)
	mul := func(k int, a *Expr) *Expr { return &Expr{Op: OpMul, K: k, Args: []*Expr{a}} }
	add := func(as ...*Expr) *Expr { return &Expr{Op: OpAdd, Args: as} }
	prod := func(a, b *Expr) *Expr { return &Expr{Op: OpProd, Args: []*Expr{a, b}} }
	exprs := []*Expr{
		add(mul(1<<62, x), mul(1<<62, x)),
		{Op: OpDiv, K: 1 << 62, Args: []*Expr{add(mul(1<<62, x), mul(1<<62, x))}},
		prod(y, y),
		{Op: OpDiv, K: 1 << 40, Args: []*Expr{prod(y, y)}},
		{Op: OpAbs, Args: []*Expr{mul(math.MaxInt64, x)}},
		{Op: OpMin, Args: []*Expr{prod(y, y), x}},
		{Op: OpIte, Cond: Compare(prod(y, y), Gt, x), Args: []*Expr{x, y}},
		{Op: OpNeg, Args: []*Expr{add(x, Lit(math.MinInt64+3))}},
		add(x, y),
	}
	for i, e := range exprs {
		lo, hi := m.Bounds(e)
		fits := m.Fits(e)
		for xv := -3; xv <= 3; xv++ {
			for yv := 1 << 40; yv <= 1<<40+2; yv++ {
				s := State{xv, yv}
				v := e.EvalBig(s)
				if (lo != math.MinInt64 && v.Cmp(big.NewInt(int64(lo))) < 0) || (hi != math.MaxInt64 && v.Cmp(big.NewInt(int64(hi))) > 0) {
					t.Errorf("expr %d at %v = %s outside Bounds %d..%d", i, s, v, lo, hi)
				}
				if fits && (!v.IsInt64() || wrapEval(e, s) != int(v.Int64())) {
					t.Errorf("expr %d fits, but wrapping evaluation at %v differs from %s", i, s, v)
				}
			}
		}
	}
	if m.Fits(exprs[0]) || m.Fits(exprs[1]) || m.Fits(exprs[6]) || !m.Fits(exprs[8]) {
		t.Error("Fits misjudges the sample expressions")
	}
	if lo, hi := m.Bounds(exprs[1]); lo != -6 || hi != 6 {
		t.Errorf("Bounds((x*B+x*B)/B) = %d..%d, want -6..6", lo, hi)
	}
	// x*B alone leaves int64 for x == 3: both products are reported, not
	// the sum and the quotient that enclose them.
	sum := exprs[1].Args[0]
	if ovs := m.Overflows(exprs[1], nil); len(ovs) != 2 || ovs[0].Expr != sum.Args[0] || ovs[1].Expr != sum.Args[1] {
		t.Errorf("Overflows((x*B+x*B)/B) = %v, want the two products", ovs)
	}
}

// wrapEval is the old, wrapping evaluator.
func wrapEval(e *Expr, s State) int {
	a := func(i int) int { return wrapEval(e.Args[i], s) }
	switch e.Op {
	case OpConst:
		return e.K
	case OpVar:
		return s[e.Var]
	case OpAdd:
		v := 0
		for i := range e.Args {
			v += a(i)
		}
		return v
	case OpSub:
		return a(0) - a(1)
	case OpNeg:
		return -a(0)
	case OpMul:
		return e.K * a(0)
	case OpProd:
		return a(0) * a(1)
	case OpDiv:
		return FloorDiv(a(0), e.K)
	case OpMin:
		return min(a(0), a(1))
	case OpMax:
		return max(a(0), a(1))
	case OpAbs:
		return max(a(0), -a(0))
	case OpIte:
		if e.Cond.Holds(s) {
			return a(0)
		}
		return a(1)
	}
	if e.Cond.Holds(s) {
		return 1
	}
	return 0
}

func TestCheckRanges(t *testing.T) {
	for _, v := range []Var{{Name: "a", Lo: math.MinInt64, Hi: 0}, {Name: "b", Lo: 0, Hi: math.MaxInt64}, {Name: "c", Lo: 2, Hi: 1}} {
		if err := (&Model{Vars: []Var{v}}).CheckRanges(); err == nil {
			t.Errorf("range %d..%d accepted", v.Lo, v.Hi)
		}
	}
	if err := (&Model{Vars: []Var{{Name: "d", Lo: math.MinInt64 + 1, Hi: math.MaxInt64 - 1}}}).CheckRanges(); err != nil {
		t.Error(err)
	}
}

// Lit(MinInt64) prints as an expression the front end folds back (-2^63
// has no literal).
func TestPrintMinInt64(t *testing.T) {
	m := &Model{Vars: []Var{{Name: "x", Lo: 0, Hi: 1}}}
	e := &Expr{Op: OpMul, K: 2, Args: []*Expr{{Op: OpAdd, Args: []*Expr{V(0), Lit(math.MinInt64)}}}}
	if got, want := m.ExprString(e), "2 * (x + (-9223372036854775807 - 1))"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	e = &Expr{Op: OpMul, K: math.MinInt64, Args: []*Expr{V(0)}}
	if got, want := m.ExprString(e), "(-9223372036854775807 - 1) * x"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
