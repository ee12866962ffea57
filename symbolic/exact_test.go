package symbolic_test

import (
	"math/big"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// refEval is an independent reference: every operation in math/big, no
// int64 fast path.
func refEval(e *symbolic.Expr, s symbolic.State) *big.Int {
	a := func(i int) *big.Int { return refEval(e.Args[i], s) }
	k := big.NewInt(int64(e.K))
	switch e.Op {
	case symbolic.OpConst:
		return k
	case symbolic.OpVar:
		return big.NewInt(int64(s[e.Var]))
	case symbolic.OpAdd:
		v := new(big.Int)
		for i := range e.Args {
			v.Add(v, a(i))
		}
		return v
	case symbolic.OpSub:
		return new(big.Int).Sub(a(0), a(1))
	case symbolic.OpNeg:
		return new(big.Int).Neg(a(0))
	case symbolic.OpMul:
		return new(big.Int).Mul(k, a(0))
	case symbolic.OpProd:
		return new(big.Int).Mul(a(0), a(1))
	case symbolic.OpDiv: // floor: q = (x - (x mod k)) / k with 0 <= x mod k < k
		x := a(0)
		r := new(big.Int).Mod(x, k)
		return new(big.Int).Quo(new(big.Int).Sub(x, r), k)
	case symbolic.OpMin, symbolic.OpMax:
		x, y := a(0), a(1)
		if (x.Cmp(y) < 0) == (e.Op == symbolic.OpMin) {
			return x
		}
		return y
	case symbolic.OpAbs:
		return new(big.Int).Abs(a(0))
	case symbolic.OpIte:
		if refHolds(e.Cond, s) {
			return a(0)
		}
		return a(1)
	}
	if refHolds(e.Cond, s) {
		return big.NewInt(1)
	}
	return new(big.Int)
}

func refHolds(c *symbolic.Cond, s symbolic.State) bool {
	switch c.Op {
	case symbolic.CTrue:
		return true
	case symbolic.CFalse:
		return false
	case symbolic.CVar:
		return s[c.Var] != 0
	case symbolic.CCmp:
		return c.Cmp.Holds(refEval(c.L, s).Cmp(refEval(c.R, s)), 0)
	case symbolic.CNot:
		return !refHolds(c.Args[0], s)
	case symbolic.CAnd:
		for _, a := range c.Args {
			if !refHolds(a, s) {
				return false
			}
		}
		return true
	case symbolic.COr:
		for _, a := range c.Args {
			if refHolds(a, s) {
				return true
			}
		}
		return false
	}
	return !refHolds(c.Args[0], s) || refHolds(c.Args[1], s)
}

// TestExactAgainstReference: on every state of generated models with
// large constants, Eval, EvalBig and Holds agree with the all-big
// reference on every expression and condition, and Bounds contains every
// value.
func TestExactAgainstReference(t *testing.T) {
	checked, beyond := 0, 0
	for seed := uint64(1); seed <= 120; seed++ {
		m := gen.Model(seed, gen.Options{Large: true, RangeErrors: true})
		var exprs []*symbolic.Expr
		var conds []*symbolic.Cond
		for _, c := range m.Commands {
			conds = append(conds, c.Guard)
			for _, o := range c.Outcomes {
				for _, a := range o.Assigns {
					exprs = append(exprs, a.Value)
				}
			}
		}
		for _, r := range m.Policies[0].Rules {
			conds = append(conds, r.Cond)
		}
		p := m.Properties[0]
		conds = append(conds, p.Unsafe)
		if p.Start != nil {
			conds = append(conds, p.Start)
		}
		// Every node, so that intermediate values beyond int64 are checked.
		var walk func(e *symbolic.Expr)
		var walkc func(c *symbolic.Cond)
		var all []*symbolic.Expr
		walk = func(e *symbolic.Expr) {
			all = append(all, e)
			for _, a := range e.Args {
				walk(a)
			}
			if e.Cond != nil {
				walkc(e.Cond)
			}
		}
		walkc = func(c *symbolic.Cond) {
			if c.Op == symbolic.CCmp {
				walk(c.L)
				walk(c.R)
			}
			for _, a := range c.Args {
				walkc(a)
			}
		}
		for _, e := range exprs {
			walk(e)
		}
		for _, c := range conds {
			walkc(c)
		}
		exprs = all
		s := make(symbolic.State, len(m.Vars))
		var rec func(i int)
		rec = func(i int) {
			if i < len(s) {
				for v := m.Vars[i].Lo; v <= m.Vars[i].Hi; v++ {
					s[i] = v
					rec(i + 1)
				}
				return
			}
			for _, e := range exprs {
				want := refEval(e, s)
				if got := e.EvalBig(s); got.Cmp(want) != 0 {
					t.Fatalf("seed %d: %s at %v: EvalBig %s, reference %s", seed, m.ExprString(e), s, got, want)
				}
				got, ok := e.EvalInt(s)
				if ok != want.IsInt64() || ok && int64(got) != want.Int64() {
					t.Fatalf("seed %d: %s at %v: EvalInt %d %v, reference %s", seed, m.ExprString(e), s, got, ok, want)
				}
				if !ok {
					beyond++
				}
				if lo, hi := m.Bounds(e); ok && (got < lo || got > hi) {
					t.Fatalf("seed %d: %s at %v = %d outside Bounds %d..%d", seed, m.ExprString(e), s, got, lo, hi)
				}
				checked++
			}
			for _, c := range conds {
				if got, want := c.Holds(s), refHolds(c, s); got != want {
					t.Fatalf("seed %d: %s at %v: Holds %v, reference %v", seed, m.CondString(c), s, got, want)
				}
				checked++
			}
		}
		rec(0)
	}
	t.Logf("%d evaluations checked, %d values beyond int64", checked, beyond)
	if beyond == 0 {
		t.Error("no value beyond int64: the generator's large expressions are missing")
	}
}
