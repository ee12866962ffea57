package ic3

import (
	"math/rand/v2"
	"slices"
	"testing"

	"vigil/smt"
	"vigil/symbolic"
)

// TestLevelMemo holds the remembered levels of concrete states (levelOf
// with levelMemo) against a scan of the frames, while the frames change
// as IC3 changes them: a clause learned at a level drops the clauses of
// the levels up to it that it subsumes, and a push moves a clause to a
// higher level. States are asked again after each change, so that
// remembered levels are brought up to date by replay, and after more
// than levelReplay additions, by a new scan.
func TestLevelMemo(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "x", Lo: 0, Hi: 9}, {Name: "y", Lo: 0, Hi: 9}}}
	randBox := func() box {
		var b box
		for v := range m.Vars {
			lo, hi := rng.IntN(10), rng.IntN(10)
			if lo > hi {
				lo, hi = hi, lo
			}
			b = append(b, smt.Lit{Var: symbolic.VarID(v), K: lo}, smt.Lit{Var: symbolic.VarID(v), Upper: true, K: hi})
		}
		return b.sorted()
	}
	for i := 0; i < 20; i++ {
		r := &run{m: m, learned: &learned{}, frames: make([][]box, 2)}
		for op := 0; op < 400; op++ {
			switch n := len(r.frames) - 1; {
			case rng.IntN(40) == 0:
				r.frames = append(r.frames, nil) // a new level
			case rng.IntN(2) == 0:
				b, k := randBox(), 1+rng.IntN(n)
				for j := 1; j <= k; j++ {
					r.frames[j] = slices.DeleteFunc(r.frames[j], func(c box) bool { return c.within(b) })
				}
				r.frames[k] = append(r.frames[k], b)
				r.levels.added(b, k)
			default:
				k := 1 + rng.IntN(n)
				if k == n || len(r.frames[k]) == 0 {
					continue
				}
				i, to := rng.IntN(len(r.frames[k])), k+1+rng.IntN(n-k)
				b := r.frames[k][i]
				r.frames[k] = slices.Delete(r.frames[k], i, i+1)
				r.frames[to] = append(r.frames[to], b)
				r.levels.added(b, to)
			}
			for q := 0; q < 5; q++ {
				s := symbolic.State{rng.IntN(10), rng.IntN(10)}
				if got, want := r.levelOf(s), r.scanLevel(s); got != want {
					t.Fatalf("run %d, op %d: level of %v is %d, remembered %d", i, op, s, want, got)
				}
				if k := 1 + rng.IntN(len(r.frames)-1); r.blockedAt(s, k) != (r.scanLevel(s) >= k) {
					t.Fatalf("run %d, op %d: blockedAt(%v, %d) disagrees with the scan", i, op, s, k)
				}
			}
		}
	}
}
