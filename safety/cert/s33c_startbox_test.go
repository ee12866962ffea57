package cert

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"vigil/internal/gencond"
	"vigil/lang"
)

// TestS33cStartBoxSound: the box the checker narrows the start
// enumeration to (startBox) holds every start state, for random start
// conditions (gencond.StartCond) over x and y of small ranges placed near 0 and
// at the ends of the ranges vigil allows, brute-forced; and the start
// states the checker enumerates are exactly the brute force's.
func TestS33cStartBoxSound(t *testing.T) {
	n, deadline := 4000, time.Now().Add(60*time.Second)
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(33, 3))
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
		var want [][]int
		for x := m.Vars[0].Lo; x <= m.Vars[0].Hi; x++ {
			for b := 0; b <= 1; b++ {
				for y := m.Vars[2].Lo; y <= m.Vars[2].Hi; y++ {
					if s := []int{x, b, y}; prop.Start.Holds(s) {
						want = append(want, s)
					}
				}
			}
		}
		lo, hi, ok := startBox(m, prop.Start)
		for _, s := range want {
			if !ok || s[0] < lo[0] || s[0] > hi[0] || s[1] < lo[1] || s[1] > hi[1] || s[2] < lo[2] || s[2] > hi[2] {
				t.Fatalf("start %s over x %d..%d, y %d..%d: start state %v outside the box %v..%v (ok %v)", start, bx, bx+wx, by, by+wy, s, lo, hi, ok)
			}
		}
		if !ok || lo[0] > m.Vars[0].Lo || hi[0] < m.Vars[0].Hi || lo[2] > m.Vars[2].Lo || hi[2] < m.Vars[2].Hi || lo[1] > 0 || hi[1] < 1 {
			narrowed++
		}
		ch := &checker{m: m, prop: prop}
		var got [][]int
		if err := ch.starts(func(s []int) bool { got = append(got, s); return true }); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("start %s over x %d..%d, y %d..%d: start states %v, want %v", start, bx, bx+wx, by, by+wy, got, want)
		}
		checked++
		states += len(want)
	}
	if checked < 100 {
		t.Fatalf("only %d conditions checked", checked)
	}
	t.Logf("%d start conditions (%d narrowed the box), %d start states", checked, narrowed, states)
}

// TestS33cStartBoxWide: a start condition that bounds a variable of 2^40
// values is enumerated from its bounds: `start 3 <= x && x <= 4` (the
// reproducer: the checker walked 2^31 values, 283 s, and called a valid
// certificate invalid), and the forms the narrowing reads; the start
// states are exactly the condition's. Past MaxStartWork the check is a
// limit (IsTooMuchStartWork), not a refutation.
func TestS33cStartBoxWide(t *testing.T) {
	for _, tc := range []struct {
		start string
		want  string
	}{
		{"3 <= x && x <= 4", "[3 4]"},
		{"x == 1099511627775", "[1099511627775]"},
		{"x >= 1099511627774", "[1099511627774 1099511627775]"},
		{"!(x > 2) && x != 1", "[0 2]"},
		{"!(x < 5 || x > 6)", "[5 6]"},
		{"2 * x - 7 < 0 && -x <= -2", "[2 3]"},
		{"x / 2 == 3", "[6 7]"},
		{"-(x / 2) == -3", "[6 7]"},
		{"max(x, 3) == 3 && x != 1", "[0 2 3]"},
		{"min(x / 1000, 5) >= 5 && x < 5002", "[5000 5001]"},
		{"abs(x - 5) <= 1", "[4 5 6]"},
		{"abs(x - 5) < 0", "[]"},
		{"x > 1099511627775", "[]"},
		{"x == 3 || x == 5", "[3 5]"},
		{"!(x != 4 && x != 6)", "[4 6]"},
		{"x > 1099511627773 || x < 0", "[1099511627774 1099511627775]"},
		{"(x > 7 => x == 9) && x >= 8", "[9]"},
		{"abs(x - 100) <= 1 || x / 1000 == 7 && x < 7002", "[99 100 101 7000 7001]"},
		{"x < 0 || x > 1099511627775", "[]"},
	} {
		src := fmt.Sprintf("model w\nvar x : 0 .. 1099511627775 = 0\naction step when x < 10 -> x' = x + 1\nproperty q { start %s unsafe x == 20 }\n", tc.start)
		m, diags := lang.LoadSource("w.spec", []byte(src), lang.Options{})
		if m == nil {
			t.Fatal(diags.Render())
		}
		ch := &checker{m: m, prop: m.Properties[0]}
		got := []int{}
		if err := ch.starts(func(s []int) bool { got = append(got, s[0]); return true }); err != nil {
			t.Fatalf("start %s: %v", tc.start, err)
		}
		if fmt.Sprint(got) != tc.want {
			t.Errorf("start %s: start states %v, want %s", tc.start, got, tc.want)
		}
	}

	src := "model w\nvar x : 0 .. 1099511627775 = 0\naction step when x < 10 -> x' = x + 1\nproperty q { start x != 5 unsafe x == 20 }\n"
	m, diags := lang.LoadSource("w.spec", []byte(src), lang.Options{})
	if m == nil {
		t.Fatal(diags.Render())
	}
	old := MaxStartWork
	MaxStartWork = 1000
	defer func() { MaxStartWork = old }()
	ch := &checker{m: m, prop: m.Properties[0]}
	err := ch.starts(func([]int) bool { return true })
	if err == nil || !IsTooMuchStartWork(err) || !strings.Contains(err.Error(), "x in 0..1099511627775") {
		t.Fatalf("start x != 5 over 2^40 values under MaxStartWork 1000: %v, want the limit", err)
	}
	if IsTooMuchStartWork(errorf("the start state x=3 is not in the invariant")) {
		t.Fatal("IsTooMuchStartWork holds for a refutation")
	}
}
