package symbolic

import (
	"math"
	"math/rand/v2"
	"testing"
)

// regionStates enumerates the states of lo..hi that satisfy atoms.
func regionStates(atoms []Atom, lo, hi []int) []State {
	var out []State
	s := append(State(nil), lo...)
	for {
		ok := true
		for _, a := range atoms {
			ok = ok && a.Holds(s)
		}
		if ok {
			out = append(out, append(State(nil), s...))
		}
		v := 0
		for v < len(s) && s[v] == hi[v] {
			s[v] = lo[v]
			v++
		}
		if v == len(s) {
			return out
		}
		s[v]++
	}
}

// TestAtomRegionAgainstEnumeration checks Tighten (it keeps every state
// of the region, and says empty only when there is none), Find (a found
// state is in the region and the box, FindEmpty only when there is none)
// and LinearAtoms (the same integer points) on random boxes and atoms.
func TestAtomRegionAgainstEnumeration(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	for k := 0; k < 2000; k++ {
		nv := 1 + r.IntN(3)
		lo, hi := make([]int, nv), make([]int, nv)
		for v := range lo {
			a, b := r.IntN(21)-10, r.IntN(21)-10
			lo[v], hi[v] = min(a, b), max(a, b)
		}
		var atoms []Atom
		for n := 1 + r.IntN(3); len(atoms) < n; {
			var ts []Term
			for v := 0; v < nv; v++ {
				if c := r.IntN(9) - 4; c != 0 {
					ts = append(ts, Term{Coef: c, Var: VarID(v)})
				}
			}
			if f := NewForm(ts); f != nil {
				atoms = append(atoms, Atom{Form: f, Upper: r.IntN(2) == 0, K: r.IntN(31) - 15})
			}
		}
		reg, err := NewAtomRegion(nv, atoms)
		if err != nil {
			t.Fatal(err)
		}
		want := regionStates(atoms, lo, hi)
		tl, th := append([]int(nil), lo...), append([]int(nil), hi...)
		if !reg.Tighten(tl, th) {
			if len(want) > 0 {
				t.Fatalf("case %d: Tighten says empty, but %v is in the region", k, want[0])
			}
		} else {
			for _, s := range want {
				for v := range s {
					if s[v] < tl[v] || s[v] > th[v] {
						t.Fatalf("case %d: Tighten gives %v..%v, which drops %v", k, tl, th, s)
					}
				}
			}
		}
		near := make(State, nv)
		for v := range near {
			near[v] = lo[v] + r.IntN(hi[v]-lo[v]+1)
		}
		s, res := reg.Find(lo, hi, near, 1<<16)
		switch {
		case res == FindEmpty && len(want) > 0:
			t.Fatalf("case %d: Find says empty, but %v is in the region", k, want[0])
		case res == FindFound && !reg.Holds(s):
			t.Fatalf("case %d: Find gives %v, outside the region", k, s)
		case res == FindUnknown:
			t.Fatalf("case %d: Find ran out of budget", k)
		}
		la := reg.LinearAtoms()
		for _, st := range regionStates(nil, lo, hi) {
			in := true
			for _, a := range la {
				sum := int64(0)
				for i, v := range a.Vars {
					sum += a.Coef[i] * int64(st[v])
				}
				in = in && sum <= a.K
			}
			if in != reg.Holds(st) {
				t.Fatalf("case %d: LinearAtoms and Holds disagree at %v", k, st)
			}
		}
	}
}

// TestAtomRegionOverflow checks that Holds is exact and Tighten stays
// sound where int64 arithmetic overflows.
func TestAtomRegionOverflow(t *testing.T) {
	f := NewForm([]Term{{Coef: math.MaxInt64 / 2, Var: 0}, {Coef: -(math.MaxInt64 / 2), Var: 1}})
	reg, err := NewAtomRegion(2, []Atom{{Form: f, Upper: true, K: 0}})
	if err != nil {
		t.Fatal(err)
	}
	if !reg.Holds(State{3, 3}) || reg.Holds(State{4, 3}) || !reg.Holds(State{-4, 3}) {
		t.Errorf("Holds is not exact on huge coefficients")
	}
	lo, hi := []int{-4, -4}, []int{4, 4}
	if !reg.Tighten(lo, hi) {
		t.Errorf("Tighten drops a region with states")
	}
	g := NewForm([]Term{{Coef: 1, Var: 0}})
	reg, _ = NewAtomRegion(1, []Atom{{Form: g, K: math.MinInt64}, {Form: g, Upper: true, K: math.MaxInt64}})
	lo, hi = []int{math.MinInt64}, []int{math.MaxInt64}
	if !reg.Tighten(lo, hi) || len(reg.LinearAtoms()) != 1 {
		t.Errorf("extreme bounds: Tighten %v..%v, %d linear atoms", lo, hi, len(reg.LinearAtoms()))
	}
}

func TestAtomRegionBadAtoms(t *testing.T) {
	if _, err := NewAtomRegion(2, []Atom{{}}); err == nil {
		t.Errorf("nil form: no error")
	}
	if _, err := NewAtomRegion(2, []Atom{{Form: NewForm([]Term{{Coef: 1, Var: 2}})}}); err == nil {
		t.Errorf("variable out of range: no error")
	}
}
