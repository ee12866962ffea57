package ic3

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
)

// TestStatesDBoundary holds statesD (the states of a box within the
// disequality invariant D that meetsBad, stepsOut, APFT and the
// invariant's facts are answered on by evaluation) to a brute-force scan:
// whenever it says the box is small it must return every state of the
// box that satisfies D (and only states of the box), exactly at the
// limits smallBox and apftSmall and one beyond them, and on random boxes
// of random models with random pairs.
func TestStatesDBoundary(t *testing.T) {
	brute := func(r *run, b box) []string {
		lo, hi := r.bounds(b)
		var out []string
		s := slices.Clone(symbolic.State(lo))
		for {
			if b.holds(s) && r.inD(s) {
				out = append(out, fmt.Sprint(s))
			}
			i := 0
			for ; i < len(s); i++ {
				if s[i] < hi[i] {
					s[i]++
					break
				}
				s[i] = lo[i]
			}
			if i == len(s) || len(lo) == 0 {
				return out
			}
		}
	}
	check := func(r *run, b box, limit int, what string) (complete bool, inD int) {
		want := brute(r, b)
		got, small := r.statesD(b, limit)
		var gotD []string
		for _, s := range got {
			if !b.holds(s) {
				t.Fatalf("%s: statesD returned %v outside the box", what, s)
			}
			if r.inD(s) {
				gotD = append(gotD, fmt.Sprint(s))
			}
		}
		slices.Sort(want)
		slices.Sort(gotD)
		if small && !slices.Equal(want, gotD) {
			t.Fatalf("%s: statesD(limit %d) says complete with %d states of D, brute force finds %d", what, limit, len(gotD), len(want))
		}
		if !small && len(want) <= limit {
			// not wrong (the enumerator's node budget may cut it short),
			// but at the exact limits below it must not
			return false, len(want)
		}
		return small, len(want)
	}
	// Exact limits: one pair x0 != x1, x2 fixed.
	m := &symbolic.Model{Vars: []symbolic.Var{{Name: "x0", Lo: 0, Hi: 300}, {Name: "x1", Lo: 0, Hi: 300}, {Name: "x2", Lo: 0, Hi: 3}}}
	r := &run{m: m, learned: &learned{}, differ: newDiffer([][2]symbolic.VarID{{0, 1}}, 3)}
	for _, c := range []struct {
		a, b, limit, n int
		small          bool
	}{
		{8, 9, smallBox, 64, true}, {5, 14, smallBox, 65, false},
		{16, 17, apftSmall, 256, true}, {1, 258, apftSmall, 257, false},
	} {
		b := r.boxOf([]int{0, 0, 1}, []int{c.a - 1, c.b - 1, 1})
		small, n := check(r, b, c.limit, fmt.Sprintf("box %dx%d", c.a, c.b))
		if n != c.n || small != c.small {
			t.Errorf("box %dx%d, limit %d: %d states of D, small %v; want %d, %v", c.a, c.b, c.limit, n, small, c.n, c.small)
		}
	}
	// Random models, pairs and boxes (some with a linear atom).
	rng := rand.New(rand.NewPCG(13, 13))
	hits := map[int]int{}
	for range 300 {
		n := 2 + rng.IntN(4)
		m := &symbolic.Model{}
		for v := range n {
			m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("x%d", v), Lo: rng.IntN(3) - 1, Hi: 3 + rng.IntN(6)})
		}
		var pairs [][2]symbolic.VarID
		for i := range n {
			for j := i + 1; j < n; j++ {
				if rng.IntN(3) > 0 {
					pairs = append(pairs, [2]symbolic.VarID{symbolic.VarID(i), symbolic.VarID(j)})
				}
			}
		}
		r := &run{m: m, learned: &learned{}, differ: newDiffer(pairs, n)}
		if r.differ == nil {
			continue
		}
		for range 20 {
			lo, hi := make([]int, n), make([]int, n)
			for v, va := range m.Vars {
				lo[v] = va.Lo + rng.IntN(va.Hi-va.Lo+1)
				hi[v] = lo[v] + rng.IntN(va.Hi-lo[v]+1)
			}
			b := r.boxOf(lo, hi)
			if rng.IntN(3) == 0 {
				f := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: -1, Var: symbolic.VarID(n - 1)}})
				b = append(b, smt.FormLit(f, rng.IntN(2) == 0, rng.IntN(5)-2)).sorted()
			}
			for _, limit := range []int{smallBox, apftSmall} {
				if small, _ := check(r, b, limit, fmt.Sprintf("model %v pairs %v box %v", m.Vars, pairs, b)); small {
					hits[limit]++
				}
			}
		}
	}
	t.Logf("boxes decided small: %v", hits)
}

// TestExcludedWithinBudget holds excludedWithin, which since session 13
// answers before the certifier, to its budget exactly: a region of
// exactly differBudget states of D (x0 over 200 values, x1 over 251, x0 !=
// x1) is decided in full, with the label found where it wins only in
// the last state enumerated (x0 = 199, x1 = 250) and excluded where it
// wins nowhere; one of 50,200 states is not decided (left to the
// certifier), never answered "excluded".
func TestExcludedWithinBudget(t *testing.T) {
	m := loadSpec(t, `
model budget
var x0 : 0 .. 199
var x1 : 0 .. 251
action a when x0 >= 0 -> x0' = x0
action b when x0 >= 0 -> x1' = x1
property p {
    start x0 == 0 && x1 == 1
    unsafe x0 == 199 && x1 == 251
}
`)
	d := newDiffer([][2]symbolic.VarID{{0, 1}}, 2)
	for _, c := range []struct {
		hi1   int
		shift float64 // a's score is x0 + x1 - shift, b's 0
		ok    bool
		w     symbolic.State
	}{
		{250, 448.5, false, symbolic.State{199, 250}}, // exactly the budget; a wins in the last state only
		{250, 1000, true, nil},                        // exactly the budget; a never wins
		{251, 1000, false, nil},                       // one column more: beyond the budget, undecided
		{251, 449.5, false, nil},
	} {
		if n := d.atLeast([]int{0, 0}, []int{199, c.hi1}); c.hi1 == 250 && n != differBudget {
			t.Fatalf("the region holds at least %d states of D, want exactly %d", n, differBudget)
		}
		net := &nn.Network{Layers: []nn.Layer{{In: 2, Out: 2, W: []float64{1, 1, 0, 0}, B: []float64{-c.shift, 0}}}}
		decl := &symbolic.PolicyDecl{Name: "n", Kind: symbolic.KindNN, Outputs: []symbolic.LabelID{0, 1}}
		for v := range 2 {
			decl.Inputs = append(decl.Inputs, symbolic.Affine{Const: symbolic.Rat{Num: 0, Den: 1},
				Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}})
		}
		p, err := nn.NewPolicyFromNetwork(m, decl, net)
		if err != nil {
			t.Fatal(err)
		}
		l := &learned{pol: p}
		ok, w, err := l.excludedWithin(d, []int{0, 0}, []int{199, c.hi1}, nil, 0, []symbolic.LabelID{0, 1})
		if err != nil {
			t.Fatal(err)
		}
		if ok != c.ok || !slices.Equal(w, c.w) {
			t.Errorf("x1 <= %d, a = x0+x1-%v: excluded %v, witness %v; want %v, %v", c.hi1, c.shift, ok, w, c.ok, c.w)
		}
	}
}
