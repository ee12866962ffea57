package cert

import (
	"context"
	"errors"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"vigil/symbolic"
)

// hashPolicy scores each output by a hash of the state and a seed: an
// arbitrary policy (ties and NaN included) that the checker can only
// evaluate.
type hashPolicy struct {
	outs []symbolic.LabelID
	seed uint64
}

func (p *hashPolicy) Outputs() []symbolic.LabelID { return p.outs }
func (p *hashPolicy) Scores(s symbolic.State, dst []float64) error {
	for i := range dst {
		h := fnv.New64a()
		var b [8]byte
		for _, x := range append(append([]int(nil), s...), i, int(p.seed)) {
			for k := range b {
				b[k] = byte(uint64(x) >> (8 * k))
			}
			h.Write(b[:])
		}
		switch v := h.Sum64() % 9; v {
		case 7:
			dst[i] = math.NaN()
		case 8:
			dst[i] = math.Inf(-1)
		default:
			dst[i] = float64(v % 4) // ties are common
		}
	}
	return nil
}

// TestReview18bDifferOracle: differ facts on random models, policies,
// boxes (partly outside the ranges), atoms and pairs, with small state
// limits, against brute force over the ranges: the checker never accepts
// a fact whose label the policy may choose in a state of the region that
// satisfies the pairs (an independent reading of "may choose": the label
// scores a number other than -Inf and no sure label scores more, or as
// much and comes first); and a refusal as a FactFailure names such a
// state.
func TestReview18bDifferOracle(t *testing.T) {
	defer func() { differLimit = MaxDifferStates }()
	rng := rand.New(rand.NewPCG(18, 2))
	accepted, refused := 0, 0
	for it := 0; it < 3000; it++ {
		n := 2 + rng.IntN(3)
		m := &symbolic.Model{Name: "r"}
		for v := range n {
			lo := rng.IntN(5) - 2
			m.Vars = append(m.Vars, symbolic.Var{Name: string(rune('a' + v)), Lo: lo, Hi: lo + rng.IntN(4)})
		}
		nl := 2 + rng.IntN(3)
		for l := range nl {
			m.Labels = append(m.Labels, symbolic.Label{Name: string(rune('x' + l))})
		}
		p := &hashPolicy{seed: rng.Uint64()}
		for l := range nl {
			p.outs = append(p.outs, symbolic.LabelID(l))
		}
		if rng.IntN(4) == 0 { // a label twice, or one missing
			p.outs[rng.IntN(nl)] = symbolic.LabelID(rng.IntN(nl))
		}
		f := Fact{Lo: make([]int, n), Hi: make([]int, n), Label: symbolic.LabelID(rng.IntN(nl))}
		for v := range n {
			f.Lo[v] = m.Vars[v].Lo - 1 + rng.IntN(3)
			f.Hi[v] = m.Vars[v].Hi + 1 - rng.IntN(3)
		}
		for l := range nl {
			if l != int(f.Label) && rng.IntN(2) == 0 {
				f.Sure = append(f.Sure, symbolic.LabelID(l))
			}
		}
		for range rng.IntN(3) {
			var ts []symbolic.Term
			for v := range n {
				if c := rng.IntN(5) - 2; c != 0 {
					ts = append(ts, symbolic.Term{Coef: c, Var: symbolic.VarID(v)})
				}
			}
			if len(ts) == 0 {
				continue
			}
			f.Atoms = append(f.Atoms, symbolic.Atom{Form: symbolic.NewForm(ts), Upper: rng.IntN(2) == 0, K: rng.IntN(7) - 3})
		}
		for range 1 + rng.IntN(3) {
			i, j := rng.IntN(n), rng.IntN(n)
			if i != j {
				f.Differ = append(f.Differ, [2]symbolic.VarID{symbolic.VarID(i), symbolic.VarID(j)})
			}
		}
		if len(f.Differ) == 0 {
			continue
		}
		differLimit = 1 + rng.IntN(12)
		bad := oracleBad(m, p, f)
		err := NewFactChecker(m, p).Check(context.Background(), f)
		var ff *FactFailure
		switch {
		case err == nil:
			accepted++
			if bad != nil {
				t.Fatalf("accepted a false fact %+v on %+v (limit %d): chosen at %v", f, m.Vars, differLimit, bad)
			}
		case errors.As(err, &ff):
			refused++
			if bad == nil {
				t.Fatalf("refused a true fact %+v on %+v: %v", f, m.Vars, err)
			}
		}
	}
	if accepted < 100 || refused < 100 {
		t.Errorf("too few of each: %d accepted, %d refused as false", accepted, refused)
	}
}

// oracleBad returns a state of the ranges, in f's box, satisfying f's
// atoms and pairs, where p may choose f.Label; nil when there is none.
func oracleBad(m *symbolic.Model, p *hashPolicy, f Fact) symbolic.State {
	n := len(m.Vars)
	s := make(symbolic.State, n)
	sc := make([]float64, len(p.outs))
	var rec func(v int) symbolic.State
	rec = func(v int) symbolic.State {
		if v == n {
			for _, a := range f.Atoms {
				if !a.Holds(s) {
					return nil
				}
			}
			for _, d := range f.Differ {
				if s[d[0]] == s[d[1]] {
					return nil
				}
			}
			p.Scores(s, sc)
			for i, o := range p.outs {
				if o != f.Label || math.IsNaN(sc[i]) || math.IsInf(sc[i], -1) {
					continue
				}
				beaten := false
				for j, o2 := range p.outs {
					if o2 == f.Label {
						continue
					}
					sure := false
					for _, l := range f.Sure {
						sure = sure || l == o2
					}
					if sure && !math.IsNaN(sc[j]) && !math.IsInf(sc[j], -1) && (sc[j] > sc[i] || sc[j] == sc[i] && j < i) {
						beaten = true
					}
				}
				if !beaten {
					return append(symbolic.State(nil), s...)
				}
			}
			return nil
		}
		for k := max(m.Vars[v].Lo, f.Lo[v]); k <= min(m.Vars[v].Hi, f.Hi[v]); k++ {
			s[v] = k
			if b := rec(v + 1); b != nil {
				return b
			}
		}
		return nil
	}
	return rec(0)
}
