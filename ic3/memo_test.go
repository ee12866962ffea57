package ic3

import (
	"math"
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
// than levelReplay additions, by a new scan. Half the runs number the
// states within the ranges (packer); states outside them are asked too.
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
		if i%2 == 0 {
			r.pack = newPacker(m) // states within the ranges in a map of uint64
		}
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
				s := symbolic.State{rng.IntN(12) - 1, rng.IntN(12) - 1} // some outside the ranges
				if got, want := r.levelOf(s), r.frameLevel(s); got != want {
					t.Fatalf("run %d, op %d: level of %v is %d, remembered %d", i, op, s, want, got)
				}
				if k := 1 + rng.IntN(len(r.frames)-1); r.blockedAt(s, k) != (r.frameLevel(s) >= k) {
					t.Fatalf("run %d, op %d: blockedAt(%v, %d) disagrees with the scan", i, op, s, k)
				}
			}
		}
	}
}

func init() {
	// Every level the index answers in this package's tests is compared
	// with a scan of the frames (scanLevel).
	checkLevelIndex = true
}

// TestLevelIndex holds the index of levelindex.go against a scan of the
// boxes added, on ranges that share buckets (a variable of 2,001 values,
// one of 3 and one constant), boxes with a linear atom over two
// variables, boxes added again at higher levels, and states outside the
// ranges.
func TestLevelIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := &symbolic.Model{Vars: []symbolic.Var{
		{Name: "x", Lo: -1000, Hi: 1000}, {Name: "y", Lo: 0, Hi: 2}, {Name: "z", Lo: 5, Hi: 5},
	}}
	f := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: -3, Var: 1}})
	val := func(v int) int {
		x := &m.Vars[v]
		if rng.IntN(50) == 0 {
			return x.Hi + 1 // outside: the index scans
		}
		return x.Lo + rng.IntN(x.Hi-x.Lo+1)
	}
	var added []box
	var levels []int
	for i := 0; i < 3000; i++ {
		var b box
		if i > 0 && rng.IntN(5) == 0 {
			b = added[rng.IntN(len(added))] // the same box again (a push)
		} else {
			for v := range m.Vars {
				if rng.IntN(3) == 0 {
					continue
				}
				lo, hi := val(v), val(v)
				if lo > hi {
					lo, hi = hi, lo
				}
				b = append(b, smt.Lit{Var: symbolic.VarID(v), K: lo}, smt.Lit{Var: symbolic.VarID(v), Upper: true, K: hi})
			}
			if rng.IntN(4) == 0 {
				b = append(b, smt.FormLit(f, rng.IntN(2) == 0, rng.IntN(400)-200))
			}
			b = b.sorted()
		}
		k := 1 + rng.IntN(10)
		added, levels = append(added, b), append(levels, k)
		if i%100 != 99 {
			continue
		}
		ix := newLevelIndex(m)
		adds := make([]levelAdd, len(added))
		for j := range added {
			adds[j] = levelAdd{added[j], levels[j]}
		}
		ix.catchUp(adds[:len(adds)/2])
		ix.catchUp(adds)
		for q := 0; q < 200; q++ {
			s := symbolic.State{val(0), val(1), val(2)}
			want := 0
			for j, b := range added {
				if levels[j] > want && b.holds(s) {
					want = levels[j]
				}
			}
			if got := ix.levelOf(s); got != want {
				t.Fatalf("after %d boxes: level of %v is %d, the index says %d", len(added), s, want, got)
			}
		}
	}
}

// TestPacker checks that packer numbers the states within the ranges one
// to one, refuses the states outside them, and gives up on ranges whose
// product does not fit in 64 bits.
func TestPacker(t *testing.T) {
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "x", Lo: -3, Hi: 4}, {Name: "y", Lo: 0, Hi: 0}, {Name: "z", Lo: 10, Hi: 14}}}
	p := newPacker(m)
	seen := map[uint64]symbolic.State{}
	for x := -4; x <= 5; x++ {
		for y := -1; y <= 1; y++ {
			for z := 9; z <= 15; z++ {
				s := symbolic.State{x, y, z}
				k, ok := p.pack(s)
				in := x >= -3 && x <= 4 && y == 0 && z >= 10 && z <= 14
				if ok != in {
					t.Fatalf("pack(%v) ok = %v, want %v", s, ok, in)
				}
				if !ok {
					continue
				}
				if o, dup := seen[k]; dup {
					t.Fatalf("pack(%v) = pack(%v) = %d", s, o, k)
				}
				seen[k] = s
			}
		}
	}
	if len(seen) != 8*5 {
		t.Errorf("%d states numbered, want 40", len(seen))
	}
	wide := &symbolic.Model{Vars: []symbolic.Var{{Name: "a", Lo: math.MinInt32, Hi: math.MaxInt32}, {Name: "b", Lo: math.MinInt32, Hi: math.MaxInt32}, {Name: "c", Lo: 0, Hi: 1}}}
	if w := newPacker(wide); w.ok {
		t.Error("three variables of 2^32, 2^32 and 2 values pack into 64 bits")
	}
	huge := &symbolic.Model{Vars: []symbolic.Var{{Name: "a", Lo: math.MinInt, Hi: math.MaxInt}}}
	if w := newPacker(huge); w.ok {
		t.Error("a variable of 2^64 values packs")
	}
}
