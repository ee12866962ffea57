package lang

import (
	"math/rand"
	"strings"
	"testing"

	"vigil/symbolic"
)

// TestS29lNeverHoldsSound checks neverHolds, the interval reasoning that
// lets E0405 and E0803 say a guard holds in no state of the ranges,
// against every state of random small models: where it says c never has
// a truth value, no state gives it that value. It must also find the
// plain cases (x > 5 over 0 .. 3, x > 1 && x < 1).
func TestS29lNeverHoldsSound(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	m := &symbolic.Model{Vars: []symbolic.Var{
		{Name: "x", Lo: 0, Hi: 3}, {Name: "y", Lo: -2, Hi: 2}, {Name: "b", Lo: 0, Hi: 1, Bool: true},
	}}
	var expr func(d int) *symbolic.Expr
	expr = func(d int) *symbolic.Expr {
		switch k := rng.Intn(6); {
		case d == 0 || k < 2:
			return symbolic.V(symbolic.VarID(rng.Intn(2)))
		case k == 2:
			return symbolic.Lit(rng.Intn(11) - 5)
		case k == 3:
			return &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{expr(d - 1), expr(d - 1)}}
		case k == 4:
			return &symbolic.Expr{Op: symbolic.OpMul, K: rng.Intn(5) - 2, Args: []*symbolic.Expr{expr(d - 1)}}
		default:
			return &symbolic.Expr{Op: symbolic.OpSub, Args: []*symbolic.Expr{expr(d - 1), expr(d - 1)}}
		}
	}
	var cond func(d int) *symbolic.Cond
	cond = func(d int) *symbolic.Cond {
		switch k := rng.Intn(8); {
		case d == 0 || k < 3:
			return symbolic.Compare(expr(2), symbolic.CmpOp(rng.Intn(6)), expr(1))
		case k == 3:
			return &symbolic.Cond{Op: symbolic.CNot, Args: []*symbolic.Cond{cond(d - 1)}}
		case k == 4:
			return &symbolic.Cond{Op: symbolic.COr, Args: []*symbolic.Cond{cond(d - 1), cond(d - 1)}}
		case k == 5:
			return &symbolic.Cond{Op: symbolic.CImplies, Args: []*symbolic.Cond{cond(d - 1), cond(d - 1)}}
		case k == 6:
			return &symbolic.Cond{Op: symbolic.CVar, Var: 2}
		default:
			return &symbolic.Cond{Op: symbolic.CAnd, Args: []*symbolic.Cond{cond(d - 1), cond(d - 1), cond(d - 1)}}
		}
	}
	found := [2]int{}
	for n := 0; n < 20000; n++ {
		c := cond(3)
		for wi, want := range []bool{false, true} {
			if !neverHolds(m, c, want) {
				continue
			}
			found[wi]++
			for x := 0; x <= 3; x++ {
				for y := -2; y <= 2; y++ {
					for b := 0; b <= 1; b++ {
						if s := (symbolic.State{x, y, b}); c.Holds(s) == want {
							t.Fatalf("neverHolds(%v, %v) but it is %v in x=%d y=%d b=%d", c, want, want, x, y, b)
						}
					}
				}
			}
		}
	}
	if found[0] == 0 || found[1] == 0 {
		t.Errorf("neverHolds decided nothing: %v", found)
	}
	x, k := symbolic.V(0), symbolic.Lit
	for _, c := range []*symbolic.Cond{
		symbolic.Compare(x, symbolic.Gt, k(5)),
		{Op: symbolic.CAnd, Args: []*symbolic.Cond{symbolic.Compare(x, symbolic.Gt, k(1)), symbolic.Compare(k(1), symbolic.Gt, x)}},
		{Op: symbolic.CAnd, Args: []*symbolic.Cond{symbolic.Compare(x, symbolic.Eq, k(2)), symbolic.Compare(x, symbolic.Ge, k(3))}},
	} {
		if !neverHolds(m, c, true) {
			t.Errorf("neverHolds(%v) = false, want true", c)
		}
	}
	// (saturated bounds decide nothing)
	big := &symbolic.Expr{Op: symbolic.OpMul, K: 1 << 62, Args: []*symbolic.Expr{&symbolic.Expr{Op: symbolic.OpMul, K: 1 << 62, Args: []*symbolic.Expr{symbolic.V(1)}}}}
	if neverHolds(m, symbolic.Compare(big, symbolic.Gt, k(1<<62)), true) {
		t.Errorf("neverHolds of a comparison of a saturated operand")
	}
}

// TestS29lFmtShortTail: fmt keeps a short last operand with the one
// before it (s29l_fmt_short_tail.txtar), every piece within MaxWidth
// where a break point allows, and its output formats to itself.
func TestS29lFmtShortTail(t *testing.T) {
	var lines []string
	for _, op := range []string{" + ", " - ", " && ", " || "} {
		for n := 1; n <= 14; n++ {
			var b strings.Builder
			b.WriteString("action s when x < 3 -> x' = ")
			for k := 0; k < n; k++ {
				if k > 0 {
					b.WriteString(op)
				}
				b.WriteString(strings.Repeat("x", 3+(k*7)%11))
			}
			lines = append(lines, b.String()+op+"1")
		}
	}
	for _, l := range lines {
		src := "model f\nvar x : 0 .. 3 = 0\n" + l + "\n"
		out, diags := Format("f.spec", []byte(src))
		if len(diags) > 0 {
			continue // a type error of the made-up text is no concern here
		}
		again, _ := Format("f.spec", out)
		if string(again) != string(out) {
			t.Fatalf("fmt is no fixed point:\n%s\nthen\n%s", out, again)
		}
		for _, p := range strings.Split(string(out), "\n") {
			if tp := strings.TrimSpace(p); tp != "" && len(tp) <= 4 && strings.HasPrefix(p, "        ") {
				t.Errorf("a short operand alone on a line %q of\n%s", p, out)
			}
		}
	}
}
