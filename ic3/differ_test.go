package ic3

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"vigil/lang"
	"vigil/nn"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
)

// loadSpec writes src as a .spec file and loads it.
func loadSpec(t *testing.T, src string) *symbolic.Model {
	t.Helper()
	path := filepath.Join(t.TempDir(), "m.spec")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	m, diags := lang.Load(path, lang.Options{})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	return m
}

// TestDifferPairsHoudini: a pair that one label breaks is dropped, a pair
// that only held because of a dropped one is dropped in the next round,
// a pair a start state violates is dropped, variables whose ranges do
// not overlap are no candidates, and the pair every step keeps stays.
func TestDifferPairsHoudini(t *testing.T) {
	m := loadSpec(t, `
model h
var a : 0 .. 3
var b : 0 .. 3
var c : 0 .. 3
var d : 0 .. 3
var e : 10 .. 12
action swap -> a' = b, b' = a
action copy when c != a -> c' = a
action bump when e < 12 -> e' = e + 1
property p {
    start a == 0 && b == 1 && c == 2 && d <= 1 && e == 10
    unsafe a == b
}
`)
	// copy makes c equal to a: (a,c) goes; then swap can make c equal to
	// b: (b,c) goes; d may start equal to a or b; (a,b) stays.
	wantPairs(t, "copy", m, [][2]symbolic.VarID{{0, 1}})
	// Without copy, (a,c) and (b,c) are inductive together.
	m2 := loadSpec(t, `
model h2
var a : 0 .. 3
var b : 0 .. 3
var c : 0 .. 3
action swap -> a' = b, b' = a
action rot -> a' = c, c' = b, b' = a
property p {
    start a == 0 && b == 1 && c == 2
    unsafe a == b
}
`)
	wantPairs(t, "rotations", m2, [][2]symbolic.VarID{{0, 1}, {0, 2}, {1, 2}})
}

// wantPairs checks differPairs on m, by SMT alone and with the drops by
// evaluation first (sampleDrop): both must find want.
func wantPairs(t *testing.T, name string, m *symbolic.Model, want [][2]symbolic.VarID) {
	t.Helper()
	pairs, err := differPairs(context.Background(), m, m.Property(""), nil)
	if err != nil || !slices.Equal(pairs, want) {
		t.Errorf("%s: pairs %v (%v), want %v", name, pairs, err, want)
	}
	g, err := explicit.New(m, m.Property(""))
	if err != nil {
		t.Fatal(err)
	}
	if pairs, err = differPairs(context.Background(), m, m.Property(""), g); err != nil || !slices.Equal(pairs, want) {
		t.Errorf("%s, with evaluation first: pairs %v (%v), want %v", name, pairs, err, want)
	}
}

// TestDifferEach compares the enumerator with a brute-force scan of
// boxes: the same states, in the same order, and the budget reported.
func TestDifferEach(t *testing.T) {
	pairs := [][2]symbolic.VarID{{0, 1}, {0, 2}, {1, 2}, {2, 3}}
	d := newDiffer(pairs, 4)
	for _, bx := range [][2][]int{
		{{0, 0, 0, 0}, {3, 3, 3, 3}},
		{{1, 0, 2, 0}, {2, 3, 2, 5}},
		{{0, 0, 0, 0}, {0, 0, 3, 3}}, // a = b always: no state
		{{2, 0, 0, 0}, {1, 3, 3, 3}}, // empty box
	} {
		lo, hi := bx[0], bx[1]
		var got, want []symbolic.State
		if !d.each(lo, hi, func(s symbolic.State) bool { got = append(got, slices.Clone(s)); return true }) {
			t.Fatalf("box %v..%v: enumeration cut short", lo, hi)
		}
		s := slices.Clone(lo)
		empty := false
		for v := range lo {
			empty = empty || lo[v] > hi[v]
		}
		for !empty {
			if d.holds(s) {
				want = append(want, slices.Clone(s))
			}
			v := len(s) - 1
			for v >= 0 && s[v] == hi[v] {
				s[v] = lo[v]
				v--
			}
			if v < 0 {
				break
			}
			s[v]++
		}
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Errorf("box %v..%v: enumerated %v, want %v", lo, hi, got, want)
		}
	}
	// eachUpTo with a budget: complete up to it (the box of 4^4 states
	// holds 72 of D), cut short beyond it, never more than the budget
	// handed to f.
	lo, hi := []int{0, 0, 0, 0}, []int{3, 3, 3, 3}
	for _, c := range []struct {
		budget int
		whole  bool
	}{{71, false}, {72, true}, {73, true}, {1, false}} {
		n := 0
		whole := d.eachUpTo(lo, hi, c.budget, func(symbolic.State) bool { n++; return true })
		if whole != c.whole || n > c.budget || whole && n != 72 {
			t.Errorf("eachUpTo(budget %d): %d states, whole %v; want whole %v", c.budget, n, whole, c.whole)
		}
	}
	// Beyond the budget the enumeration stops and says so.
	big := newDiffer([][2]symbolic.VarID{{0, 1}}, 3)
	if big.each([]int{0, 0, 0}, []int{99, 99, 99}, func(symbolic.State) bool { return true }) {
		t.Error("a region of 990,000 states within D was enumerated in full")
	}
}

// TestExcludedWithin checks the engine's certification within D against
// evaluation of every state: on a random network over three variables
// that must differ pairwise, each label and box, "excluded" only when no
// state of the box within D lets the policy choose the label over the
// sure labels, and a witness that does.
func TestExcludedWithin(t *testing.T) {
	m := loadSpec(t, `
model w
var a : 0 .. 4
var b : 0 .. 4
var c : 0 .. 4
action l0 -> a' = b, b' = a
action l1 -> b' = c, c' = b
action l2 -> a' = c, c' = a
property p {
    start a == 0 && b == 1 && c == 2
    unsafe a == 4
}
`)
	d := newDiffer([][2]symbolic.VarID{{0, 1}, {0, 2}, {1, 2}}, 3)
	outs := []symbolic.LabelID{0, 1, 2}
	excluded, possible := 0, 0
	for seed := uint64(1); seed <= 20; seed++ {
		p, _, err := nn.Random(m, outs, seed, []int{6})
		if err != nil {
			t.Fatal(err)
		}
		l := &learned{pol: p}
		sc := make([]float64, 3)
		for _, bx := range [][2][]int{{{0, 0, 0}, {4, 4, 4}}, {{0, 1, 0}, {1, 2, 4}}, {{3, 0, 0}, {4, 1, 1}}} {
			lo, hi := bx[0], bx[1]
			for a := range symbolic.LabelID(3) {
				sure := []symbolic.LabelID{(a + 1) % 3}
				ok, w, err := l.excludedWithin(d, lo, hi, nil, a, sure)
				if err != nil {
					t.Fatal(err)
				}
				// brute force
				chosen := false
				for x := lo[0]; x <= hi[0]; x++ {
					for y := lo[1]; y <= hi[1]; y++ {
						for z := lo[2]; z <= hi[2]; z++ {
							s := symbolic.State{x, y, z}
							if !d.holds(s) {
								continue
							}
							if err := p.Scores(s, sc); err != nil {
								t.Fatal(err)
							}
							if chosenGiven(sc, []int{int(a)}, []int{int(sure[0])}) {
								chosen = true
							}
						}
					}
				}
				if ok == chosen {
					t.Fatalf("seed %d, box %v..%v, label %d: excluded %v, but some state within D chooses it: %v", seed, lo, hi, a, ok, chosen)
				}
				if !ok {
					possible++
					if w == nil || !d.holds(w) {
						t.Fatalf("seed %d: no witness within D (%v)", seed, w)
					}
					if err := p.Scores(w, sc); err != nil || !chosenGiven(sc, []int{int(a)}, []int{int(sure[0])}) {
						t.Fatalf("seed %d: witness %v does not choose label %d", seed, w, a)
					}
				} else {
					excluded++
				}
			}
		}
	}
	if excluded == 0 || possible == 0 {
		t.Errorf("%d exclusions, %d possible: want both", excluded, possible)
	}
}

// TestDifferAtLeast checks the lower bound on a region's states within D
// against the enumeration's count.
func TestDifferAtLeast(t *testing.T) {
	d := newDiffer([][2]symbolic.VarID{{0, 1}, {0, 2}, {1, 2}, {2, 3}, {0, 3}}, 4)
	for _, bx := range [][2][]int{
		{{0, 0, 0, 0}, {3, 3, 3, 3}},
		{{0, 0, 0, 0}, {5, 1, 7, 2}},
		{{1, 0, 2, 0}, {2, 3, 2, 5}},
		{{0, 0, 0, 0}, {0, 0, 3, 3}},
	} {
		n := 0
		d.each(bx[0], bx[1], func(symbolic.State) bool { n++; return true })
		if lb := d.atLeast(bx[0], bx[1]); lb > n {
			t.Errorf("box %v..%v: lower bound %d, but %d states", bx[0], bx[1], lb, n)
		}
	}
}
