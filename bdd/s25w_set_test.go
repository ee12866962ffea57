package bdd

import (
	"context"
	"math/rand"
	"testing"
)

// s25w: the state cube set builds top-down (levels sorted descending)
// is the conjunction of its variables whatever the order, duplicates and
// gaps of the levels it is given.
func TestS25wSetIsConjunction(t *testing.T) {
	const n = 64
	m, err := newMgr(context.Background(), n, n, DefaultMaxNodes)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(25))
	for trial := 0; trial < 200; trial++ {
		var levels []int
		for k := rng.Intn(n + 8); k > 0; k-- {
			levels = append(levels, rng.Intn(n))
		}
		want := m.tru()
		for _, l := range levels {
			want = m.and(want, m.ithvar(l))
		}
		if got := m.set(levels); !m.equal(got, want) {
			t.Fatalf("set(%v) is not the conjunction of its variables", levels)
		}
	}
}
