package explicit_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"vigil/lang"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// TestS33bStartDivisionWide: a start condition that bounds a variable of
// 2^40 values through a division, max, min, abs or negation is
// enumerated from the bounds it implies (6 <= x <= 7 for x / 2 == 3),
// not value by value: bfs ran for hours on `start x / 2 == 3` where bdd
// answered at once. The start states are exactly those of the condition.
func TestS33bStartDivisionWide(t *testing.T) {
	for _, tc := range []struct {
		start string
		want  []int
	}{
		{"x / 2 == 3", []int{6, 7}},
		{"3 == x / 2", []int{6, 7}},
		{"max(x, 3) == 3", []int{0, 1, 2, 3}},
		{"abs(x - 5) <= 1", []int{4, 5, 6}},
		{"min(x / 3, 1000) >= 999 && x / 3 < 1000", []int{2997, 2998, 2999}},
		{"-(x / 4) > -2", []int{0, 1, 2, 3, 4, 5, 6, 7}},
		{"!(x / 7 != 2)", []int{14, 15, 16, 17, 18, 19, 20}},
		{"max(x - 10, -x) <= -1 && x / 1099511627775 == 0", []int{1, 2, 3, 4, 5, 6, 7, 8, 9}},
		{"(x / 1000) / 1000 == 1000", nil}, // 10^9 .. 10^9+999999: counted below
	} {
		src := fmt.Sprintf("model w\nvar x : 0 .. 1099511627775 = 0\naction step when x < 10 -> x' = x + 1\nproperty q { start %s unsafe x == 20 }\n", tc.start)
		m, diags := lang.LoadSource("w.spec", []byte(src), lang.Options{})
		if m == nil {
			t.Fatal(diags.Render())
		}
		g, err := explicit.New(m, m.Properties[0])
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var got []int
		err = g.StartsContext(ctx, func(s symbolic.State) bool {
			got = append(got, s[0])
			return len(got) <= 2_000_000
		})
		cancel()
		if err != nil {
			t.Fatalf("start %s: %v", tc.start, err)
		}
		if tc.want == nil {
			if len(got) != 1_000_000 || got[0] != 1_000_000_000 || got[len(got)-1] != 1_000_999_999 {
				t.Errorf("start %s: %d states from %d to %d, want 10^6 from 10^9", tc.start, len(got), got[0], got[len(got)-1])
			}
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("start %s: start states %v, want %v", tc.start, got, tc.want)
		}
	}
}

// TestS33bStartBoundsSound: the box StartBounds narrows to holds every
// state of the start condition, for random conditions built from
// divisions (by constants up to 2^63-1), max, min, abs, negation and
// if-then-else over two variables of small ranges at random places
// (near 0 and the ends of int64), with constants up to the ends of
// int64 (intermediate values beyond int64 are exact), compared with a
// brute force over the ranges; and the start states enumerated are
// exactly those of the brute force.
func TestS33bStartBoundsSound(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(33, 2))
	consts := []int64{0, 1, 2, 3, 7, -1, -5, 1 << 31, 1 << 62, -(1 << 62), 1<<63 - 1, -(1<<63 - 1), 1<<62 + 3}
	bases := []int64{0, -3, 1 << 62, -(1 << 62), 1<<63 - 12, -(1<<63 - 2), 1 << 40}
	lit := func(c int64) string {
		if c < 0 {
			return fmt.Sprintf("(%d)", c)
		}
		return fmt.Sprint(c)
	}
	var expr func(d int) string
	expr = func(d int) string {
		if d == 0 || rng.IntN(4) == 0 {
			switch rng.IntN(3) {
			case 0:
				return "x"
			case 1:
				return "y"
			}
			if rng.IntN(2) == 0 {
				return fmt.Sprintf("(x + %s)", lit(consts[rng.IntN(len(consts))]))
			}
			return fmt.Sprintf("(y - x + %d)", rng.IntN(5)-2)
		}
		a := expr(d - 1)
		switch rng.IntN(6) {
		case 0:
			k := []int64{1, 2, 3, 7, 1 << 31, 1 << 62, 1<<63 - 1}[rng.IntN(7)]
			return fmt.Sprintf("(%s / %d)", a, k)
		case 1:
			return fmt.Sprintf("max(%s, %s)", a, expr(d-1))
		case 2:
			return fmt.Sprintf("min(%s, %s)", a, expr(d-1))
		case 3:
			return fmt.Sprintf("abs(%s)", a)
		case 4:
			return fmt.Sprintf("(-%s)", a)
		}
		return fmt.Sprintf("(if x > y then %s else %s)", a, expr(d-1))
	}
	ops := []string{"<", "<=", "==", "!=", ">", ">="}
	checked, states := 0, 0
	for i := 0; i < n; i++ {
		bx, by := bases[rng.IntN(len(bases))], bases[rng.IntN(len(bases))]
		wx, wy := int64(rng.IntN(6)), int64(rng.IntN(6))
		var conj []string
		for j := 0; j <= rng.IntN(2); j++ {
			e := expr(1 + rng.IntN(3))
			c := lit(consts[rng.IntN(len(consts))])
			if rng.IntN(2) == 0 {
				c = fmt.Sprint(rng.IntN(7) - 3)
			}
			cond := fmt.Sprintf("%s %s %s", e, ops[rng.IntN(len(ops))], c)
			if rng.IntN(2) == 0 {
				cond = fmt.Sprintf("%s %s %s", c, ops[rng.IntN(len(ops))], e)
			}
			if rng.IntN(5) == 0 {
				cond = "!(" + cond + ")"
			}
			conj = append(conj, cond)
		}
		start := strings.Join(conj, " && ")
		src := fmt.Sprintf("model r\nvar x : %d .. %d = %d\nvar y : %d .. %d = %d\naction a -> skip\nproperty q { start %s unsafe false }\n",
			bx, bx+wx, bx, by, by+wy, by, start)
		m, diags := lang.LoadSource("r.spec", []byte(src), lang.Options{})
		if m == nil {
			if strings.Contains(diags.Render(), "E0303") { // a constant subexpression beyond int64
				continue
			}
			t.Fatalf("%s\n%s", src, diags.Render())
		}
		prop := m.Properties[0]
		var want []string
		for x := m.Vars[0].Lo; ; x++ {
			for y := m.Vars[1].Lo; ; y++ {
				if s := (symbolic.State{x, y}); prop.Start.Holds(s) {
					want = append(want, fmt.Sprint(s))
				}
				if y == m.Vars[1].Hi {
					break
				}
			}
			if x == m.Vars[0].Hi {
				break
			}
		}
		g, err := explicit.New(m, prop)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi, ok := g.StartBounds()
		for _, w := range want {
			var x, y int
			fmt.Sscanf(w, "[%d %d]", &x, &y)
			if !ok || x < lo[0] || x > hi[0] || y < lo[1] || y > hi[1] {
				t.Fatalf("start %s over x %d..%d, y %d..%d: state %s outside the bounds %v..%v (ok %v)", start, bx, bx+wx, by, by+wy, w, lo, hi, ok)
			}
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
	if checked < n/2 {
		t.Fatalf("only %d of %d conditions checked", checked, n)
	}
	t.Logf("%d start conditions, %d start states", checked, states)
}
