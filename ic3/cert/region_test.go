package cert

import (
	"context"
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/nn"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/gen"
	"vigil/trees"
)

// randomAtoms returns up to three atoms over m's variables whose
// constants are chosen around their values at a random state of the box,
// so that they cut it often.
func randomAtoms(rng *rand.Rand, m *symbolic.Model, lo, hi []int) []symbolic.Atom {
	var out []symbolic.Atom
	s := make(symbolic.State, len(lo))
	for k := rng.IntN(4); k > 0; k-- {
		var ts []symbolic.Term
		for v := range m.Vars {
			if c := rng.IntN(7) - 3; c != 0 && rng.IntN(2) == 0 {
				ts = append(ts, symbolic.Term{Coef: c, Var: symbolic.VarID(v)})
			}
		}
		f := symbolic.NewForm(ts)
		if f == nil {
			continue
		}
		for v := range s {
			s[v] = lo[v] + rng.IntN(hi[v]-lo[v]+1)
		}
		out = append(out, symbolic.Atom{Form: f, Upper: rng.IntN(2) == 0, K: f.Eval(s) + rng.IntN(5) - 2})
	}
	return out
}

func holdsAll(atoms []symbolic.Atom, s symbolic.State) bool {
	for _, a := range atoms {
		if !a.Holds(s) {
			return false
		}
	}
	return true
}

// bruteHoldsRegion decides the fact by enumerating its region.
func bruteHoldsRegion(t *testing.T, p symbolic.Policy, f Fact) bool {
	holds := true
	testutil.BoxStates(f.Lo, f.Hi, func(s symbolic.State) {
		if holdsAll(f.Atoms, s) {
			holds = holds && !bruteChosen(t, p, s, f.Label, f.Sure)
		}
	})
	return holds
}

// checkRegion runs CheckFact on a fact with atoms and compares it with
// enumeration of the region: the same answer, and a counterexample in
// the region. It returns whether the fact holds and whether CheckFact
// decided.
func checkRegion(t *testing.T, what string, m *symbolic.Model, p symbolic.Policy, f Fact) (holds, decided bool) {
	t.Helper()
	want := bruteHoldsRegion(t, p, f)
	err := CheckFact(context.Background(), m, p, f)
	var ff *FactFailure
	switch {
	case err == nil:
		if !want {
			t.Errorf("%s: region %v..%v %v label %d sure %v: CheckFact holds, enumeration finds a state where it is chosen", what, f.Lo, f.Hi, f.Atoms, f.Label, f.Sure)
		}
	case errors.As(err, &ff):
		if want {
			t.Errorf("%s: region %v..%v %v label %d sure %v: CheckFact fails (%v), enumeration says it holds", what, f.Lo, f.Hi, f.Atoms, f.Label, f.Sure, err)
			break
		}
		if !inBox(ff.State, f.Lo, f.Hi) || !holdsAll(f.Atoms, ff.State) {
			t.Fatalf("%s: witness %v outside the region %v..%v %v", what, ff.State, f.Lo, f.Hi, f.Atoms)
		}
		if !ff.Confirmed || !bruteChosen(t, p, ff.State, f.Label, f.Sure) {
			t.Errorf("%s: witness %v is not confirmed by evaluation: %v", what, ff.State, err)
		}
	case errors.Is(err, errIntervalBudget):
		return want, false
	default:
		t.Errorf("%s: region %v..%v %v label %d sure %v: CheckFact cannot decide: %v", what, f.Lo, f.Hi, f.Atoms, f.Label, f.Sure, err)
		return want, false
	}
	return want, true
}

// TestCheckFactRegions compares CheckFact on facts over regions (a box
// and linear atoms) with enumeration of the region, for networks (the
// interval search with the simplex's first-layer bounds, exact
// evaluation, and the SMT query over the whole box) and ensembles (the
// leaf search, which skips leaf regions disjoint from the atoms).
func TestCheckFactRegions(t *testing.T) {
	for _, mode := range []string{"default", "intervals", "query"} {
		t.Run(mode, func(t *testing.T) {
			switch mode {
			case "intervals":
				intervalOnly = true
			case "query":
				exactStates, sampleWitnesses, useIntervals = 0, false, false
			}
			defer func() {
				exactStates, sampleWitnesses, useIntervals, intervalOnly = ExactStates, true, true, false
			}()
			rng := rand.New(rand.NewPCG(27, 27))
			var n, holds, cut, open int
			for seed := uint64(0); seed < 60; seed++ {
				m := gen.Model(seed, gen.Options{MaxVars: 3, MaxRange: 40})
				outs := randomOutputs(rng, m)
				np, d, err := nn.Random(m, outs, seed, [][]int{{4}, {6}, {3, 3}}[seed%3])
				if err != nil {
					t.Fatal(err)
				}
				if seed%2 == 1 {
					// NNet clipping (active on some states: inputs lie in
					// [0, 1]) and normalisation: the simplex then bounds
					// only the inputs the box keeps unclipped.
					net := np.Net.Clone()
					for i := 0; i < net.Inputs(); i++ {
						net.InMin = append(net.InMin, 0.1*rng.Float64())
						net.InMax = append(net.InMax, 0.7+0.3*rng.Float64())
						net.InMean = append(net.InMean, rng.Float64()-0.5)
						net.InRange = append(net.InRange, 0.5+rng.Float64())
					}
					if np, err = nn.NewPolicyFromNetwork(m, d, net); err != nil {
						t.Fatal(err)
					}
				}
				tp, _, err := trees.Random(m, outs, seed, 1+int(seed%5), 1+int(seed%4))
				if err != nil {
					t.Fatal(err)
				}
				for k := 0; k < 4; k++ {
					lo, hi := randomBox(rng, m)
					f := Fact{Lo: lo, Hi: hi, Atoms: randomAtoms(rng, m, lo, hi), Label: symbolic.LabelID(rng.IntN(len(m.Labels))), Sure: randomSure(rng, m)}
					pols := []symbolic.Policy{np}
					if mode == "default" {
						pols = append(pols, tp)
					}
					for _, p := range pols {
						h, d := checkRegion(t, mode, m, p, f)
						if !d {
							open++
							continue
						}
						n++
						if h {
							holds++
						}
						if len(f.Atoms) > 0 {
							cut++
						}
					}
				}
			}
			t.Logf("%d facts decided (%d hold, %d with atoms), %d left open", n, holds, cut, open)
			if holds == 0 || holds == n || cut < n/3 {
				t.Errorf("the comparison needs both answers and atoms")
			}
		})
	}
}

// TestSimplexAgainstVertices compares the simplex's feasibility and
// optima over random boxes of two variables with up to three atoms with
// the polygon's vertices (every intersection of two constraint lines
// that satisfies all constraints), computed exactly.
func TestSimplexAgainstVertices(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x, y := symbolic.VarID(0), symbolic.VarID(1)
	type line struct{ a, b, c *big.Rat } // a x + b y <= c
	feasible, infeasible := 0, 0
	for iter := 0; iter < 2000; iter++ {
		lo := []int{rng.IntN(20) - 10, rng.IntN(20) - 10}
		hi := []int{lo[0] + rng.IntN(15), lo[1] + rng.IntN(15)}
		var atoms []symbolic.Atom
		ls := []line{
			{big.NewRat(1, 1), new(big.Rat), big.NewRat(int64(hi[0]), 1)},
			{big.NewRat(-1, 1), new(big.Rat), big.NewRat(int64(-lo[0]), 1)},
			{new(big.Rat), big.NewRat(1, 1), big.NewRat(int64(hi[1]), 1)},
			{new(big.Rat), big.NewRat(-1, 1), big.NewRat(int64(-lo[1]), 1)},
		}
		for k := rng.IntN(4); k > 0; k-- {
			a, b := rng.IntN(9)-4, rng.IntN(9)-4
			f := symbolic.NewForm([]symbolic.Term{{Coef: a, Var: x}, {Coef: b, Var: y}})
			if f == nil {
				continue
			}
			upper := rng.IntN(2) == 0
			kk := rng.IntN(60) - 30
			atoms = append(atoms, symbolic.Atom{Form: f, Upper: upper, K: kk})
			if upper {
				ls = append(ls, line{big.NewRat(int64(a), 1), big.NewRat(int64(b), 1), big.NewRat(int64(kk), 1)})
			} else {
				ls = append(ls, line{big.NewRat(int64(-a), 1), big.NewRat(int64(-b), 1), big.NewRat(int64(-kk), 1)})
			}
		}
		var verts [][2]*big.Rat
		t1, t2 := new(big.Rat), new(big.Rat)
		for i := range ls {
			for j := i + 1; j < len(ls); j++ {
				det := new(big.Rat).Sub(t1.Mul(ls[i].a, ls[j].b), t2.Mul(ls[i].b, ls[j].a))
				if det.Sign() == 0 {
					continue
				}
				px := new(big.Rat).Sub(t1.Mul(ls[i].c, ls[j].b), t2.Mul(ls[i].b, ls[j].c))
				px.Quo(px, det)
				py := new(big.Rat).Sub(t1.Mul(ls[i].a, ls[j].c), t2.Mul(ls[i].c, ls[j].a))
				py.Quo(py, det)
				ok := true
				for _, l := range ls {
					v := new(big.Rat).Add(t1.Mul(l.a, px), t2.Mul(l.b, py))
					if v.Cmp(l.c) > 0 {
						ok = false
						break
					}
				}
				if ok {
					verts = append(verts, [2]*big.Rat{px, py})
				}
			}
		}
		poly, ok := newPolytope(lo, hi, atoms)
		if ok != (len(verts) > 0) {
			t.Fatalf("box %v..%v atoms %v: simplex feasible %t, %d vertices", lo, hi, atoms, ok, len(verts))
		}
		if !ok {
			infeasible++
			continue
		}
		feasible++
		c := []*big.Rat{big.NewRat(int64(rng.IntN(11)-5), int64(1+rng.IntN(3))), big.NewRat(int64(rng.IntN(11)-5), 1)}
		k := big.NewRat(int64(rng.IntN(7)-3), 1)
		var want, wantMin *big.Rat
		for _, v := range verts {
			val := new(big.Rat).Add(k, new(big.Rat).Add(t1.Mul(c[0], v[0]), t2.Mul(c[1], v[1])))
			if want == nil || val.Cmp(want) > 0 {
				want = val
			}
			if wantMin == nil || val.Cmp(wantMin) < 0 {
				wantMin = val
			}
		}
		if got := poly.max(k, c); got.Cmp(want) != 0 {
			t.Fatalf("box %v..%v atoms %v: max of %v + %v·x is %v, the vertices give %v", lo, hi, atoms, k, c, got, want)
		}
		if got := poly.min(k, c); got.Cmp(wantMin) != 0 {
			t.Fatalf("box %v..%v atoms %v: min of %v + %v·x is %v, the vertices give %v", lo, hi, atoms, k, c, got, wantMin)
		}
		// The bounds on a rounded objective: never inside the range,
		// and no further out than the rounding allows. The first
		// coefficient is also given as a float64's (a network weight's)
		// long denominator, times a third.
		if iter%2 == 1 {
			c[0] = new(big.Rat).Mul(new(big.Rat).SetFloat64(rng.Float64()-0.5), big.NewRat(1, 3))
			want, wantMin = nil, nil
			for _, v := range verts {
				val := new(big.Rat).Add(k, new(big.Rat).Add(t1.Mul(c[0], v[0]), t2.Mul(c[1], v[1])))
				if want == nil || val.Cmp(want) > 0 {
					want = val
				}
				if wantMin == nil || val.Cmp(wantMin) < 0 {
					wantMin = val
				}
			}
		}
		most := 1.0
		for _, cv := range c {
			f, _ := cv.Float64()
			most = max(most, math.Abs(f))
		}
		slack := new(big.Rat).SetFloat64(most * float64(hi[0]-lo[0]+hi[1]-lo[1]+2) * 0x1p-30)
		up, down := poly.upperBound(k, c), poly.lowerBound(k, c)
		if up.Cmp(want) < 0 || new(big.Rat).Sub(up, want).Cmp(slack) > 0 {
			t.Fatalf("box %v..%v atoms %v: upper bound of %v + %v·x is %v, the max is %v", lo, hi, atoms, k, c, up, want)
		}
		if down.Cmp(wantMin) > 0 || new(big.Rat).Sub(wantMin, down).Cmp(slack) > 0 {
			t.Fatalf("box %v..%v atoms %v: lower bound of %v + %v·x is %v, the min is %v", lo, hi, atoms, k, c, down, wantMin)
		}
	}
	if feasible < 200 || infeasible < 50 {
		t.Errorf("%d feasible and %d infeasible polytopes: both are needed", feasible, infeasible)
	}
}

// brakingNet loads bench/ic3scaling/learned/braking_net.spec at N and
// its network policy.
func brakingNet(t *testing.T, n string) (*symbolic.Model, symbolic.Policy) {
	t.Helper()
	return learnedFamily(t, "braking_net.spec", n)
}

// learnedFamily loads the family spec of bench/ic3scaling/learned at N
// and its learned policy (the network and trees tests share it).
func learnedFamily(t *testing.T, spec, n string) (*symbolic.Model, symbolic.Policy) {
	t.Helper()
	file := filepath.Join("..", "..", "bench", "ic3scaling", "learned", spec)
	m, diags := lang.Load(file, lang.Options{Defines: map[string]string{"N": n}})
	if diags.HasErrors() {
		t.Fatalf("%s: %s", file, diags.Render())
	}
	p, err := symbolic.Instantiate(m, m.Policies[0])
	if err != nil {
		t.Fatal(err)
	}
	return m, p
}

// TestCheckFactBrakingDiagonal: braking_net's policy chooses down (not
// up) on the diagonal v = d, but up below it: the fact "up never chosen
// given down" holds over the region v - d >= 0 of a large box, which is
// false over its bounding box, and widening the atom's constant (v - d
// >= -2, a forged region) makes it false with a state of the region.
// At N = 10^9 the boxes are far too large to enumerate: only the
// simplex's bounds (or Z3) decide.
func TestCheckFactBrakingDiagonal(t *testing.T) {
	for _, n := range []string{"1000", "1000000000"} {
		m, p := brakingNet(t, n)
		d, v := m.VarIndex("d"), m.VarIndex("v")
		up, down := m.LabelIndex("up"), m.LabelIndex("down")
		N := m.Vars[v].Hi
		lo, hi := make([]int, 2), make([]int, 2)
		lo[d], hi[d], lo[v], hi[v] = 1, N, 1, N
		diag := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: v}, {Coef: -1, Var: d}})
		f := Fact{Lo: lo, Hi: hi, Atoms: []symbolic.Atom{{Form: diag, K: 0}}, Label: up, Sure: []symbolic.LabelID{down}}
		if err := CheckFact(context.Background(), m, p, f); err != nil {
			t.Errorf("N=%s: the diagonal fact is refused: %v", n, err)
		}
		box := f
		box.Atoms = nil
		var ff *FactFailure
		if err := CheckFact(context.Background(), m, p, box); !errors.As(err, &ff) {
			t.Errorf("N=%s: the fact over the bounding box: got %v, want a counterexample", n, err)
		}
		forged := f
		forged.Atoms = []symbolic.Atom{{Form: diag, K: -2}}
		err := CheckFact(context.Background(), m, p, forged)
		if !errors.As(err, &ff) || ff.State[v]-ff.State[d] < -2 || !ff.Confirmed {
			t.Errorf("N=%s: the widened fact: got %v, want a confirmed counterexample with v - d >= -2", n, err)
		}
	}
}

// TestFactLitRoundTrip: a fact's region literals, bounds and linear
// atoms, are written to the header and read back exactly; malformed
// atoms are refused with a message.
func TestFactLitRoundTrip(t *testing.T) {
	m, _ := brakingNet(t, "1000")
	d, v := m.VarIndex("d"), m.VarIndex("v")
	f := symbolic.NewForm([]symbolic.Term{{Coef: 2, Var: v}, {Coef: -3, Var: d}})
	for _, l := range []smt.Lit{{Var: d, K: 4}, {Var: v, Upper: true, K: -7}, smt.FormLit(f, true, -5), smt.FormLit(f, false, 12)} {
		s, err := FormatFactLit(m, l)
		if err != nil {
			t.Fatal(err)
		}
		back, err := parseLit(m, s)
		if err != nil || back != l {
			t.Errorf("%v written as %q reads back as %v, %v", l, s, back, err)
		}
	}
	for _, s := range []string{"2*v+-3*q<=1", "2*v+v<=1", "0*v<=1", "x*v<=1", "2*v+-3*d<=z"} {
		if _, err := parseLit(m, s); err == nil || !strings.Contains(err.Error(), "policy fact") {
			t.Errorf("%q: got %v, want an error about the policy fact", s, err)
		}
	}
}

// TestFactLitUnwritable: a literal whose text would not read back (a
// variable name holding the format's separators, as JANI names may) is an
// error of FormatFactLit, which vigil verify reports as an internal
// error, never a fact written with another region.
func TestFactLitUnwritable(t *testing.T) {
	m := &symbolic.Model{Name: "odd", Vars: []symbolic.Var{{Name: "a*b", Hi: 9}, {Name: "c+d", Hi: 9}, {Name: "e,f", Hi: 9}, {Name: "g", Hi: 9}}}
	f := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: -1, Var: 3}})
	g := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 1}, {Coef: 2, Var: 3}})
	for _, l := range []smt.Lit{smt.FormLit(g, false, 1), {Var: 2, K: 3}, {Var: 7, K: 1}} {
		if s, err := FormatFactLit(m, l); err == nil {
			t.Errorf("%v: written as %q, want an error", l, s)
		}
	}
	// A * in a name is no separator of its own: the term's first * is.
	for l, want := range map[smt.Lit]string{{Var: 0, Upper: true, K: 4}: "a*b<=4", smt.FormLit(f, true, 0): "1*a*b+-1*g<=0"} {
		if s, err := FormatFactLit(m, l); err != nil || s != want {
			t.Errorf("%v: %q, %v; want %q", l, s, err, want)
		}
	}
}
