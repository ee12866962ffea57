package testutil

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// RegionCase is one question to a region certifier
// (symbolic.RegionCertifiable.ExcludeWithin): may A be chosen in some
// state of the box Lo..Hi that satisfies Atoms, with Sure applicable?
type RegionCase struct {
	Lo, Hi []int
	Atoms  []symbolic.Atom
	A      symbolic.LabelID
	Sure   []symbolic.LabelID
}

// RegionWins answers a case by evaluating every state of the box that
// satisfies the atoms: the states where A is chosen. It is the oracle
// the nn and trees region certifiers are both compared with.
func RegionWins(p symbolic.Policy, c RegionCase) [][]int {
	out := p.Outputs()
	sc := make([]float64, len(out))
	avail := func(l symbolic.LabelID) bool {
		if l == c.A {
			return true
		}
		for _, s := range c.Sure {
			if s == l {
				return true
			}
		}
		return false
	}
	var wins [][]int
	s := append(symbolic.State(nil), c.Lo...)
	for {
		holds := true
		for _, at := range c.Atoms {
			holds = holds && at.Holds(s)
		}
		if holds {
			if err := p.Scores(s, sc); err != nil {
				panic(err)
			}
			if symbolic.Choose(out, sc, avail) == c.A {
				wins = append(wins, append([]int(nil), s...))
			}
		}
		v := 0
		for v < len(s) && s[v] == c.Hi[v] {
			s[v] = c.Lo[v]
			v++
		}
		if v == len(s) {
			return wins
		}
		s[v]++
	}
}

// RegionDisagreement compares a certifier's answer with enumeration
// (RegionWins): an Excluded answer must have no winning state in the
// region, a Possible state must lie in the region and let A win. It
// returns a description of the disagreement, or "".
func RegionDisagreement(p symbolic.Policy, c RegionCase, ex symbolic.Exclusion, s symbolic.State) string {
	wins := RegionWins(p, c)
	switch ex {
	case symbolic.Excluded:
		if len(wins) > 0 {
			return fmt.Sprintf("excluded, but label %d wins at %v", c.A, wins[0])
		}
	case symbolic.Possible:
		for v := range s {
			if s[v] < c.Lo[v] || s[v] > c.Hi[v] {
				return fmt.Sprintf("possible at %v, outside the box", s)
			}
		}
		for _, at := range c.Atoms {
			if !at.Holds(s) {
				return fmt.Sprintf("possible at %v, which violates an atom", s)
			}
		}
		for _, w := range wins {
			if fmt.Sprint(w) == fmt.Sprint([]int(s)) {
				return ""
			}
		}
		return fmt.Sprintf("possible at %v, where label %d does not win", s, c.A)
	}
	return ""
}

// RandomAtoms returns k random atoms over nv variables whose boundary
// passes near a random state of the box lo..hi (so the region is often a
// part of the box, sometimes empty, sometimes all of it).
func RandomAtoms(r *rand.Rand, nv, k int, lo, hi []int) []symbolic.Atom {
	var atoms []symbolic.Atom
	for len(atoms) < k {
		var ts []symbolic.Term
		for v := 0; v < nv; v++ {
			if c := r.IntN(7) - 3; c != 0 && r.IntN(3) > 0 {
				ts = append(ts, symbolic.Term{Coef: c, Var: symbolic.VarID(v)})
			}
		}
		f := symbolic.NewForm(ts)
		if f == nil {
			continue
		}
		s := make(symbolic.State, nv)
		for v := range s {
			s[v] = lo[v] + r.IntN(hi[v]-lo[v]+1)
		}
		atoms = append(atoms, symbolic.Atom{Form: f, Upper: r.IntN(2) == 0, K: f.Eval(s) + r.IntN(5) - 2})
	}
	return atoms
}

// RegionModel returns a model named "region" with nv variables x0, x1,
// ... ranging over lo..hi and nl labels l0, l1, ..., for random policies
// whose region answers are checked by enumeration.
func RegionModel(nv, nl, lo, hi int) *symbolic.Model {
	m := &symbolic.Model{Name: "region"}
	for v := 0; v < nv; v++ {
		m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprint("x", v), Lo: lo, Hi: hi})
	}
	for l := 0; l < nl; l++ {
		m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprint("l", l)})
	}
	return m
}

// AskRegion asks p the case c (ExcludeWithin), failing t on an error, and
// returns the answer and its disagreement with enumeration
// (RegionDisagreement; "" when it agrees).
func AskRegion(t testing.TB, p symbolic.RegionCertifiable, c RegionCase) (symbolic.Exclusion, string) {
	t.Helper()
	ex, s, err := p.ExcludeWithin(c.Lo, c.Hi, c.Atoms, c.A, c.Sure)
	if err != nil {
		t.Fatal(err)
	}
	return ex, RegionDisagreement(p, c, ex, s)
}
