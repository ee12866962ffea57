package ic3

import (
	"math"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// TestReview15bPackerOneToOne checks the memos' packed keys (8c3c812) on
// ranges at the ends of int: negative bounds, a range of 2^63+1 values,
// products just inside and just outside uint64. Two states with the same
// key would let levelOf or choice answer for the wrong state; a state
// outside the ranges must not pack.
func TestReview15bPackerOneToOne(t *testing.T) {
	type rng struct{ lo, hi int }
	cases := []struct {
		vars []rng
		ok   bool
	}{
		{[]rng{{-(1 << 62), 1 << 62}}, true},
		{[]rng{{math.MinInt, math.MaxInt}}, false},
		{[]rng{{math.MinInt, math.MaxInt - 1}}, true},
		{[]rng{{math.MinInt, -1}, {0, 1}}, false},
		{[]rng{{math.MinInt, -2}, {0, 1}}, true},
		{[]rng{{math.MinInt, -1}, {0, 2}}, false},
		{[]rng{{-3, 3}, {-(1 << 40), 1 << 20}, {0, 0}, {-1, 1 << 10}}, true},
		{[]rng{{math.MaxInt - 2, math.MaxInt}, {math.MinInt, math.MinInt + 5}}, true},
	}
	r := rand.New(rand.NewPCG(15, 2))
	for ci, c := range cases {
		m := &symbolic.Model{}
		for i, v := range c.vars {
			m.Vars = append(m.Vars, symbolic.Var{Name: string(rune('a' + i)), Lo: v.lo, Hi: v.hi})
		}
		p := newPacker(m)
		if p.ok != c.ok {
			t.Fatalf("case %d: packs %v, want %v", ci, p.ok, c.ok)
		}
		if !p.ok {
			continue
		}
		pick := func(v rng) int {
			switch r.IntN(4) {
			case 0:
				return v.lo
			case 1:
				return v.hi
			}
			span := uint64(v.hi) - uint64(v.lo) + 1
			if span == 0 {
				return int(uint64(v.lo) + r.Uint64())
			}
			return int(uint64(v.lo) + r.Uint64N(span))
		}
		seen := map[uint64]string{}
		for i := 0; i < 2000; i++ {
			s := make(symbolic.State, len(c.vars))
			for j, v := range c.vars {
				s[j] = pick(v)
			}
			k, ok := p.pack(s)
			if !ok {
				t.Fatalf("case %d: %v within the ranges does not pack", ci, s)
			}
			if old, dup := seen[k]; dup && old != m.FormatState(s) {
				t.Fatalf("case %d: %s and %s share the key %d", ci, old, m.FormatState(s), k)
			}
			seen[k] = m.FormatState(s)
			// one step outside a range does not pack
			j := r.IntN(len(s))
			if v := c.vars[j]; v.lo > math.MinInt && r.IntN(2) == 0 {
				s[j] = v.lo - 1
			} else if v.hi < math.MaxInt {
				s[j] = v.hi + 1
			} else {
				continue
			}
			if _, ok := p.pack(s); ok {
				t.Fatalf("case %d: %v outside the ranges packs", ci, s)
			}
		}
	}
}
