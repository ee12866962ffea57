package jani

// Differential test of expression lowering: random JANI expressions over two
// variables are lowered to the IR and evaluated on every state of a small
// grid; the result must equal a direct evaluation of the JANI expression in
// exact rational arithmetic (the reference below follows the JANI
// specification, independent of the lowering's scaled forms).

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"vigil/symbolic"
)

type ref2 struct {
	num *big.Rat
	b   bool
}

// janiEval evaluates n with x = s[0], y = s[1], p = s[2] != 0; ok is false
// on division by zero.
func janiEval(n *node, s []int64) (ref2, bool) {
	switch n.kind {
	case kNumber:
		r, _ := new(big.Rat).SetString(n.str)
		return ref2{num: r}, true
	case kBool:
		return ref2{b: n.b}, true
	case kString:
		switch n.str {
		case "x":
			return ref2{num: big.NewRat(s[0], 1)}, true
		case "y":
			return ref2{num: big.NewRat(s[1], 1)}, true
		case "p":
			return ref2{b: s[2] != 0}, true
		}
		panic("unknown name " + n.str)
	}
	op := n.get("op").str
	arg := func(k string) (ref2, bool) { return janiEval(n.get(k), s) }
	floor := func(r *big.Rat) *big.Rat { return new(big.Rat).SetInt(new(big.Int).Div(r.Num(), r.Denom())) }
	switch op {
	case "¬", "floor", "ceil", "abs", "sgn", "trc":
		a, ok := arg("exp")
		if !ok {
			return a, false
		}
		r := new(big.Rat)
		switch op {
		case "¬":
			return ref2{b: !a.b}, true
		case "floor":
			r = floor(a.num)
		case "ceil":
			r.Neg(floor(new(big.Rat).Neg(a.num)))
		case "abs":
			r.Abs(a.num)
		case "sgn":
			r.SetInt64(int64(a.num.Sign()))
		case "trc":
			if a.num.Sign() >= 0 {
				r = floor(a.num)
			} else {
				r.Neg(floor(new(big.Rat).Neg(a.num)))
			}
		}
		return ref2{num: r}, true
	case "ite":
		c, ok := arg("if")
		if !ok {
			return c, false
		}
		if c.b {
			return arg("then")
		}
		return arg("else")
	}
	a, ok1 := arg("left")
	b, ok2 := arg("right")
	if !ok1 || !ok2 {
		return a, false
	}
	r := new(big.Rat)
	switch op {
	case "∧":
		return ref2{b: a.b && b.b}, true
	case "∨":
		return ref2{b: a.b || b.b}, true
	case "⇒":
		return ref2{b: !a.b || b.b}, true
	case "=", "≠":
		eq := a.b == b.b
		if a.num != nil {
			eq = a.num.Cmp(b.num) == 0
		}
		return ref2{b: eq == (op == "=")}, true
	case "<":
		return ref2{b: a.num.Cmp(b.num) < 0}, true
	case "≤":
		return ref2{b: a.num.Cmp(b.num) <= 0}, true
	case ">":
		return ref2{b: a.num.Cmp(b.num) > 0}, true
	case "≥":
		return ref2{b: a.num.Cmp(b.num) >= 0}, true
	case "+":
		r.Add(a.num, b.num)
	case "-":
		r.Sub(a.num, b.num)
	case "*":
		r.Mul(a.num, b.num)
	case "/":
		if b.num.Sign() == 0 {
			return a, false
		}
		r.Quo(a.num, b.num)
	case "%":
		// a - b * trunc(a / b), Storm's remainder: the sign of a
		q := new(big.Rat).Quo(a.num, b.num)
		t := floor(q)
		if q.Sign() < 0 && !q.IsInt() {
			t.Add(t, big.NewRat(1, 1))
		}
		r.Sub(a.num, new(big.Rat).Mul(b.num, t))
	case "min":
		r.Set(a.num)
		if b.num.Cmp(a.num) < 0 {
			r.Set(b.num)
		}
	case "max":
		r.Set(a.num)
		if b.num.Cmp(a.num) > 0 {
			r.Set(b.num)
		}
	default:
		panic("op " + op)
	}
	return ref2{num: r}, true
}

// gen writes a random expression as JSON: numeric when num, else Boolean.
// Products and divisions keep one constant side so that the result is
// linear; % gets a non-zero integer constant.
func gen(r *rand.Rand, depth int, num bool) string {
	lit := func() string {
		switch r.IntN(3) {
		case 0:
			return fmt.Sprint(r.IntN(7) - 3)
		case 1:
			return fmt.Sprintf("%d.5", r.IntN(3))
		}
		return fmt.Sprintf("-%d.25", r.IntN(2))
	}
	if depth == 0 {
		if num {
			return []string{`"x"`, `"y"`, lit()}[r.IntN(3)]
		}
		return []string{`"p"`, `true`, `false`}[r.IntN(3)]
	}
	bin := func(op string, a, b string) string {
		return fmt.Sprintf(`{"op": %q, "left": %s, "right": %s}`, op, a, b)
	}
	un := func(op string, a string) string { return fmt.Sprintf(`{"op": %q, "exp": %s}`, op, a) }
	d := depth - 1
	if num {
		switch r.IntN(11) {
		case 0:
			return bin("+", gen(r, d, true), gen(r, d, true))
		case 1:
			return bin("-", gen(r, d, true), gen(r, d, true))
		case 2:
			return bin("*", lit(), gen(r, d, true))
		case 3:
			return bin("/", gen(r, d, true), []string{"2", "3", "-2", "0.5", "1.5"}[r.IntN(5)])
		case 4:
			return bin("%", un("floor", gen(r, d, true)), []string{"1", "2", "3", "4", "-3"}[r.IntN(5)])
		case 5:
			return bin([]string{"min", "max"}[r.IntN(2)], gen(r, d, true), gen(r, d, true))
		case 6:
			return un([]string{"floor", "ceil", "abs", "sgn", "trc"}[r.IntN(5)], gen(r, d, true))
		case 7:
			return fmt.Sprintf(`{"op": "ite", "if": %s, "then": %s, "else": %s}`, gen(r, d, false), gen(r, d, true), gen(r, d, true))
		}
		return gen(r, 0, true)
	}
	switch r.IntN(6) {
	case 0:
		return bin([]string{"∧", "∨", "⇒"}[r.IntN(3)], gen(r, d, false), gen(r, d, false))
	case 1:
		return un("¬", gen(r, d, false))
	case 2:
		return bin([]string{"=", "≠"}[r.IntN(2)], gen(r, d, false), gen(r, d, false))
	case 3:
		return fmt.Sprintf(`{"op": "ite", "if": %s, "then": %s, "else": %s}`, gen(r, d, false), gen(r, d, false), gen(r, d, false))
	}
	return bin([]string{"=", "≠", "<", "≤", ">", "≥"}[r.IntN(6)], gen(r, d, true), gen(r, d, true))
}

func TestLoweringAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sc := func(name string) (ref, bool) {
		switch name {
		case "x":
			return ref{v: 0}, true
		case "y":
			return ref{v: 1}, true
		case "p":
			return ref{v: 2, isBool: true}, true
		}
		return ref{}, false
	}
	lowered, skipped := 0, 0
	for i := 0; i < 3000; i++ {
		num := i%2 == 0
		src := gen(r, 1+r.IntN(4), num)
		n, err := parseJSON("gen.jani", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		l := newLowerer("gen.jani", []byte(src))
		v, ok := l.expr(n, sc)
		if !ok {
			// Expected only for division by zero and constants out of range.
			msg := l.errs.Err().Error()
			if !strings.Contains(msg, "division by zero") && !strings.Contains(msg, "beyond") {
				t.Errorf("%s: %v", src, msg)
			}
			skipped++
			continue
		}
		lowered++
		for i := 0; i < 9*9*2; i++ {
			x, y, p := int64(i%9-4), int64(i/9%9-4), int64(i/81)
			{
				s := symbolic.State{int(x), int(y), int(p)}
				want, ok := janiEval(n, []int64{x, y, p})
				if !ok {
					continue
				}
				if num {
					var got *big.Rat
					if v.isConst() {
						got = v.k
					} else {
						got = big.NewRat(int64(v.e.Eval(s)), v.den)
					}
					if got.Cmp(want.num) != 0 {
						t.Fatalf("%s at x=%d y=%d p=%d: IR %s, reference %s", src, x, y, p, got.RatString(), want.num.RatString())
					}
				} else {
					got := condOf(v).Holds(s)
					if got != want.b {
						t.Fatalf("%s at x=%d y=%d p=%d: IR %v, reference %v", src, x, y, p, got, want.b)
					}
				}
			}
		}
	}
	t.Logf("%d lowered, %d skipped", lowered, skipped)
	if lowered < 2000 {
		t.Errorf("only %d of 3000 expressions lowered (%d skipped)", lowered, skipped)
	}
}
