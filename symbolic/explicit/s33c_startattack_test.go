package explicit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"vigil/internal/gencond"
	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS33cStartBoundsAttack: the box StartBounds narrows to holds every
// start state and Starts lists exactly the start states, for random
// start conditions (gencond.StartCond: negations, disjunctions and implications
// around comparisons of divisions, max, min, abs, minus, multiples, sums
// and if-then-else, constants at the ends of int64) over x, a Boolean b
// and y of small ranges near 0 and at the ends of the ranges vigil
// allows, brute-forced with the IR's exact Holds.
func TestS33cStartBoundsAttack(t *testing.T) {
	n, deadline := 4000, time.Now().Add(60*time.Second)
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(33, 4))
	bases := []int64{0, -3, 1 << 62, -(1 << 62), 1<<63 - 8, -(1<<63 - 1), 1 << 40, -6}
	checked, states, narrowed := 0, 0, 0
	for i := 0; i < n && time.Now().Before(deadline); i++ {
		bx, by := bases[rng.IntN(len(bases))], bases[rng.IntN(len(bases))]
		wx, wy := int64(rng.IntN(6)), int64(rng.IntN(6))
		start := gencond.StartCond(rng)
		src := fmt.Sprintf("model r\nvar x : %d .. %d = %d\nvar b : bool = false\nvar y : %d .. %d = %d\naction a -> skip\nproperty q { start %s unsafe false }\n",
			bx, bx+wx, bx, by, by+wy, by, start)
		m, diags := lang.LoadSource("r.spec", []byte(src), lang.Options{})
		if m == nil {
			if r := diags.Render(); strings.Contains(r, "E0303") || strings.Contains(r, "E0305") {
				continue // a constant beyond int64, a range at its end
			}
			t.Fatalf("%s\n%s", src, diags.Render())
		}
		prop := m.Properties[0]
		var want []string
		for x := m.Vars[0].Lo; x <= m.Vars[0].Hi; x++ {
			for b := 0; b <= 1; b++ {
				for y := m.Vars[2].Lo; y <= m.Vars[2].Hi; y++ {
					if s := (symbolic.State{x, b, y}); prop.Start.Holds(s) {
						want = append(want, fmt.Sprint(s))
					}
				}
			}
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, ok := g.StartBounds()
		for _, w := range want {
			var x, b, y int
			fmt.Sscanf(w, "[%d %d %d]", &x, &b, &y)
			if !ok || x < lo[0] || x > hi[0] || b < lo[1] || b > hi[1] || y < lo[2] || y > hi[2] {
				t.Fatalf("start %s over x %d..%d, y %d..%d: start state %s outside the bounds %v..%v (ok %v)", start, bx, bx+wx, by, by+wy, w, lo, hi, ok)
			}
		}
		if !ok || lo[0] > m.Vars[0].Lo || hi[0] < m.Vars[0].Hi || lo[2] > m.Vars[2].Lo || hi[2] < m.Vars[2].Hi || lo[1] > 0 || hi[1] < 1 {
			narrowed++
		}
		var got []string
		err = g.Starts(func(s symbolic.State) bool { got = append(got, fmt.Sprint(s)); return true })
		if len(want) == 0 {
			if err == nil {
				t.Fatalf("start %s: states %v, want none (an error)", start, got)
			}
		} else if err != nil || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("start %s over x %d..%d, y %d..%d: states %v (%v), want %v", start, bx, bx+wx, by, by+wy, got, err, want)
		}
		checked++
		states += len(want)
	}
	if checked < 100 {
		t.Fatalf("only %d conditions checked", checked)
	}
	t.Logf("%d start conditions (%d narrowed the box), %d start states", checked, narrowed, states)
}

// TestS33cStartNegatedDisjunction: a start condition that bounds
// variables of 2^40 values under a negated disjunction or implication,
// a double negation, or in each disjunct of a disjunction, is enumerated
// from its bounds (the hull of the disjuncts' boxes for a disjunction):
// bfs walked x's 2^40 values times y's for `start !(x < K || y != 3)`
// and for `start (x == 3 || x == 5) && y == 2` where bdd answered at
// once. The start states are exactly the condition's.
func TestS33cStartNegatedDisjunction(t *testing.T) {
	for _, tc := range []struct {
		start string
		want  string
	}{
		{"!(x < 1099511627773 || y != 3)", "[[1099511627773 3] [1099511627774 3] [1099511627775 3]]"},
		{"!(x >= 2 => y > 4) && !!(x < 4)", "[[2 0] [2 1] [2 2] [2 3] [2 4] [3 0] [3 1] [3 2] [3 3] [3 4]]"},
		{"!(!(x / 2 == 3) || !(y == x))", "[[6 6] [7 7]]"},
		{"!(x != 5 || max(y, 2) > 2)", "[[5 0] [5 1] [5 2]]"},
		{"!(x < 3 || x > 4 || y < 1099511627775)", "[[3 1099511627775] [4 1099511627775]]"},
		{"(x == 3 || x == 5) && y == 2", "[[3 2] [5 2]]"},
		{"!(x != 4 && x != 6) && y == 1", "[[4 1] [6 1]]"},
		{"(x > 1099511627773 || y < 0) && y <= 1", "[[1099511627774 0] [1099511627774 1] [1099511627775 0] [1099511627775 1]]"},
		{"(y >= 7 => x == 9) && y >= 7 && y <= 8", "[[9 7] [9 8]]"},
		{"(abs(x - 100) <= 1 || x / 1000 == 7 && x < 7002) && y == 0", "[[99 0] [100 0] [101 0] [7000 0] [7001 0]]"},
	} {
		src := fmt.Sprintf("model w\nvar x : 0 .. 1099511627775 = 0\nvar y : 0 .. 1099511627775 = 0\naction step when x < 10 -> x' = x + 1\nproperty q { start %s unsafe x == 20 }\n", tc.start)
		m, diags := lang.LoadSource("w.spec", []byte(src), lang.Options{})
		if m == nil {
			t.Fatal(diags.Render())
		}
		g, err := explicit.New(m, m.Properties[0])
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var got []string
		err = g.StartsContext(ctx, func(s symbolic.State) bool { got = append(got, fmt.Sprint(s)); return len(got) < 100 })
		cancel()
		if err != nil {
			t.Fatalf("start %s: %v", tc.start, err)
		}
		if "["+strings.Join(got, " ")+"]" != tc.want {
			t.Errorf("start %s: start states %v, want %s", tc.start, got, tc.want)
		}
	}
}
