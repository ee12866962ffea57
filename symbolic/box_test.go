package symbolic_test

import (
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
	"vigil/symbolic/gen"
)

// TestBoxSound: interval evaluation over a box bounds every value an
// expression takes there, and a condition it calls yes (no) holds (fails)
// in every state of the box, on the guards, assignments and property
// conditions of random models (with intermediate values near 2^62 where
// gen.Options.Large puts them) and random sub-boxes. A wrong no would
// drop a box of ppa's region search that holds a transition: a wrong
// safe.
func TestBoxSound(t *testing.T) {
	decided := 0
	for seed := uint64(1); seed <= 300; seed++ {
		m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 7, MaxDepth: 3, Large: seed%3 == 0})
		var conds []*symbolic.Cond
		var exprs []*symbolic.Expr
		for ci := range m.Commands {
			c := &m.Commands[ci]
			conds = append(conds, c.Guard)
			for _, o := range c.Outcomes {
				for _, a := range o.Assigns {
					exprs = append(exprs, a.Value)
				}
			}
		}
		for _, p := range m.Properties {
			for _, c := range []*symbolic.Cond{p.Start, p.Unsafe, p.Goal} {
				if c != nil {
					conds = append(conds, c)
				}
			}
		}
		rng := rand.New(rand.NewPCG(seed, 3))
		for k := 0; k < 20; k++ {
			lo, hi := make([]int, len(m.Vars)), make([]int, len(m.Vars))
			for v := range m.Vars {
				a := m.Vars[v].Lo + rng.IntN(m.Vars[v].Hi-m.Vars[v].Lo+1)
				b := m.Vars[v].Lo + rng.IntN(m.Vars[v].Hi-m.Vars[v].Lo+1)
				lo[v], hi[v] = min(a, b), max(a, b)
			}
			states := gen.BoxStates(lo, hi)
			for _, c := range conds {
				got := symbolic.CondBox(c, lo, hi)
				if got != symbolic.BoxMaybe {
					decided++
				}
				for _, s := range states {
					if h := c.Holds(s); (got == symbolic.BoxTrue && !h) || (got == symbolic.BoxFalse && h) {
						t.Fatalf("seed %d: %s is %v over %v..%v, but %v in %s", seed, m.CondString(c), got, lo, hi, h, m.FormatState(s))
					}
				}
			}
			for _, e := range exprs {
				iv := symbolic.EvalBox(e, lo, hi)
				if iv.Top {
					continue
				}
				for _, s := range states {
					v, ok := e.EvalInt(s)
					if ok && (int64(v) < iv.Lo || int64(v) > iv.Hi) {
						t.Fatalf("seed %d: %s is %d in %s, outside its interval %d..%d over %v..%v", seed, m.ExprString(e), v, m.FormatState(s), iv.Lo, iv.Hi, lo, hi)
					}
				}
			}
		}
	}
	if decided == 0 {
		t.Fatal("no condition was decided over a box: the test exercises nothing")
	}
}

// TestBoxOverflow: values past ±2^62 are top, and decide no comparison.
func TestBoxOverflow(t *testing.T) {
	big := 1 << 61
	x := symbolic.V(0)
	e := &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{x, x, x}} // up to 3·2^61 > 2^62
	if iv := symbolic.EvalBox(e, []int{0}, []int{big}); !iv.Top {
		t.Fatalf("x+x+x over 0..2^61 is %+v, want top", iv)
	}
	c := symbolic.Compare(e, symbolic.Ge, symbolic.Lit(0))
	if got := symbolic.CondBox(c, []int{0}, []int{big}); got != symbolic.BoxMaybe {
		t.Fatalf("x+x+x >= 0 over 0..2^61 is %v, want maybe (top decides nothing)", got)
	}
	if got := symbolic.CondBox(symbolic.Compare(x, symbolic.Ge, symbolic.Lit(0)), []int{0}, []int{big}); got != symbolic.BoxTrue {
		t.Fatalf("x >= 0 over 0..2^61 is %v, want true", got)
	}
}
