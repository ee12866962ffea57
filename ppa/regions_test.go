package ppa

import (
	"math/rand"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestCubeRegions: the regions of a cube of random linear literals (x <=
// k, x == k, x != k, sums with coefficients, Boolean variables) hold
// exactly the cube's states, one region each, on every state of a small
// model.
func TestCubeRegions(t *testing.T) {
	m := testutil.LoadSource(t, "regions.spec", `model regions
var x : -3 .. 4 = 0
var y : 0 .. 6 = 0
var z : -2 .. 2 = 0
var g : bool = false
action a -> g' = !g
property p { unsafe g && x <= -1 }
`)
	rng := rand.New(rand.NewSource(1))
	term := func() *symbolic.Expr {
		v := symbolic.V(symbolic.VarID(rng.Intn(3)))
		if k := rng.Intn(5) - 2; k != 1 {
			return &symbolic.Expr{Op: symbolic.OpMul, K: k, Args: []*symbolic.Expr{v}}
		}
		return v
	}
	var states []symbolic.State
	for x := -3; x <= 4; x++ {
		for y := 0; y <= 6; y++ {
			for z := -2; z <= 2; z++ {
				for g := 0; g <= 1; g++ {
					states = append(states, symbolic.State{x, y, z, g})
				}
			}
		}
	}
	cubes, nonEmpty := 0, 0
	for i := 0; i < 3000; i++ {
		var preds []*symbolic.Cond
		var vals []bool
		for j := rng.Intn(4); j >= 0; j-- {
			var c *symbolic.Cond
			if rng.Intn(6) == 0 {
				c = &symbolic.Cond{Op: symbolic.CVar, Var: 3}
			} else {
				l := term()
				if rng.Intn(2) == 0 {
					l = &symbolic.Expr{Op: symbolic.OpAdd, Args: []*symbolic.Expr{l, term()}}
				}
				c = symbolic.Compare(l, symbolic.CmpOp(rng.Intn(6)), symbolic.Lit(rng.Intn(7)-3))
			}
			preds, vals = append(preds, c), append(vals, rng.Intn(2) == 0)
		}
		gs, ok := cubeRegions(m, preds, vals)
		if !ok {
			continue
		}
		cubes++
		for _, s := range states {
			in := true
			for k, c := range preds {
				in = in && c.Holds(s) == vals[k]
			}
			n := 0
			for _, g := range gs {
				if g.holds(s) {
					n++
				}
			}
			if in && n != 1 || !in && n != 0 {
				t.Fatalf("cube %v of %d literals, state %v: in the cube %v, in %d of its %d regions", vals, len(preds), s, in, n, len(gs))
			}
			if in {
				nonEmpty++
			}
		}
	}
	if cubes < 2000 {
		t.Errorf("only %d of 3000 cubes as regions", cubes)
	}
	t.Logf("%d cubes as regions, %d (cube, state) memberships", cubes, nonEmpty)
}
