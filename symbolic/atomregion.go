package symbolic

// Integer points of a box that satisfy linear atoms, for the certifiers
// of learned policies (RegionCertifiable): nn and trees both need to test
// whether a sub-box can meet the atoms, to shrink it to the atoms'
// consequences, to test a state, and to find a state of the region near
// a given one.
//
// All arithmetic is on int64 with overflow checks. Where a computation
// would overflow, the region is treated more loosely (an atom is not
// used to shrink a box, a box is kept): keeping a box that does not meet
// the atoms is allowed, dropping one that does is not. Holds is exact
// (it falls back on math/big).

import (
	"fmt"
	"math/big"
)

// AtomRegion is a conjunction of atoms over the variables of a model of
// a given size, prepared for box reasoning. The box itself is passed to
// each method, so one AtomRegion serves every sub-box of a search.
type AtomRegion struct {
	nvars int
	atoms []regionAtom
}

// regionAtom is sum coef[i] * x[vars[i]] <= k when upper, >= k else.
type regionAtom struct {
	vars  []int
	coef  []int64
	k     int64
	upper bool
}

// NewAtomRegion checks atoms against a model of nvars variables and
// prepares them. A nil form or a variable out of range is an error that
// names the atom.
func NewAtomRegion(nvars int, atoms []Atom) (*AtomRegion, error) {
	r := &AtomRegion{nvars: nvars}
	for j, a := range atoms {
		if a.Form == nil {
			return nil, fmt.Errorf("symbolic: region atom %d has no linear form (nil); give every atom a form built by NewForm", j+1)
		}
		ra := regionAtom{k: int64(a.K), upper: a.Upper}
		for _, t := range a.Form.Terms() {
			if int(t.Var) < 0 || int(t.Var) >= nvars {
				return nil, fmt.Errorf("symbolic: region atom %d reads variable #%d, but the model has %d variables", j+1, t.Var, nvars)
			}
			ra.vars = append(ra.vars, int(t.Var))
			ra.coef = append(ra.coef, int64(t.Coef))
		}
		r.atoms = append(r.atoms, ra)
	}
	return r, nil
}

// Len is the number of atoms.
func (r *AtomRegion) Len() int { return len(r.atoms) }

// Holds reports exactly whether state s satisfies every atom.
func (r *AtomRegion) Holds(s State) bool {
	for i := range r.atoms {
		if !r.atoms[i].holds(s) {
			return false
		}
	}
	return true
}

func (a *regionAtom) holds(s State) bool {
	v, ok := int64(0), true
	for i, x := range a.vars {
		p, ok1 := mulInt64(a.coef[i], int64(s[x]))
		var ok2 bool
		v, ok2 = addInt64(v, p)
		if !ok1 || !ok2 {
			ok = false
			break
		}
	}
	if !ok { // exact, in big integers
		sum, t := new(big.Int), new(big.Int)
		for i, x := range a.vars {
			sum.Add(sum, t.Mul(big.NewInt(a.coef[i]), big.NewInt(int64(s[x]))))
		}
		c := sum.Cmp(big.NewInt(a.k))
		if a.upper {
			return c <= 0
		}
		return c >= 0
	}
	if a.upper {
		return v <= a.k
	}
	return v >= a.k
}

func addInt64(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// termRange returns the least and greatest value of c*x for x in lo..hi.
func termRange(c int64, lo, hi int) (int64, int64, bool) {
	p, ok1 := mulInt64(c, int64(lo))
	q, ok2 := mulInt64(c, int64(hi))
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return min(p, q), max(p, q), true
}

// formRange returns the least and greatest value of the atom's form over
// the box; ok is false on overflow.
func (a *regionAtom) formRange(lo, hi []int) (mn, mx int64, ok bool) {
	for i, x := range a.vars {
		p, q, ok := termRange(a.coef[i], lo[x], hi[x])
		if !ok {
			return 0, 0, false
		}
		var ok1, ok2 bool
		mn, ok1 = addInt64(mn, p)
		mx, ok2 = addInt64(mx, q)
		if !ok1 || !ok2 {
			return 0, 0, false
		}
	}
	return mn, mx, true
}

// floorDiv and ceilDiv divide rounding toward -Inf and +Inf (b != 0).
func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) == (b < 0)) {
		q++
	}
	return q
}

// maxTightenRounds bounds the rounds of bound propagation in Tighten
// (two atoms such as x <= y - 1 and y <= x + 5 converge slowly over a
// large box; stopping early only keeps the box looser).
const maxTightenRounds = 16

// Tighten shrinks the box lo..hi in place to a box that holds every
// integer point of lo..hi that satisfies the atoms (bound propagation:
// each atom bounds each of its variables given the others' ranges). It
// returns false when no integer point of the box satisfies the atoms
// (lo and hi are then unspecified). A box it keeps may still hold no
// point of the region.
func (r *AtomRegion) Tighten(lo, hi []int) bool {
	for round := 0; round < maxTightenRounds; round++ {
		changed := false
		for j := range r.atoms {
			a := &r.atoms[j]
			mn, mx, ok := a.formRange(lo, hi)
			if !ok {
				continue
			}
			if (a.upper && mn > a.k) || (!a.upper && mx < a.k) {
				return false
			}
			for i, x := range a.vars {
				c := a.coef[i]
				p, q, _ := termRange(c, lo[x], hi[x]) // fits: formRange did
				var rest int64
				if a.upper {
					rest = mn - p // the least value of the other terms
				} else {
					rest = mx - q // their greatest value
				}
				bound, ok := addInt64(a.k, -rest)
				if !ok {
					continue
				}
				// upper: c*x <= bound; lower: c*x >= bound.
				var nlo, nhi = int64(lo[x]), int64(hi[x])
				if a.upper == (c > 0) {
					nhi = min(nhi, floorDiv(bound, c)) // x <= bound/c
				} else {
					nlo = max(nlo, ceilDiv(bound, c)) // x >= bound/c
				}
				if nlo > nhi {
					return false
				}
				if int(nlo) != lo[x] || int(nhi) != hi[x] {
					lo[x], hi[x] = int(nlo), int(nhi)
					changed = true
					// The atom's range changed: recompute it.
					if mn, mx, ok = a.formRange(lo, hi); !ok {
						break
					}
				}
			}
		}
		if !changed {
			return true
		}
	}
	return true
}

// FindResult is the outcome of Find.
type FindResult uint8

const (
	FindUnknown FindResult = iota // the budget ran out
	FindFound                     // a state of the region
	FindEmpty                     // the box holds no state of the region
)

// Find searches the box lo..hi for a state that satisfies every atom,
// preferring values near the state near (variables that no atom reads
// take near's value, clamped to the box): depth first, fixing one
// variable of the atoms at a time after bound propagation, within budget
// boxes. It returns the state and FindFound, or FindEmpty when the box
// holds no such state, or FindUnknown when the budget ran out.
func (r *AtomRegion) Find(lo, hi []int, near State, budget int) (State, FindResult) {
	s := make(State, len(lo))
	for v := range s {
		s[v] = min(max(near[v], lo[v]), hi[v])
	}
	if len(r.atoms) == 0 {
		return s, FindFound
	}
	inAtom := make([]bool, len(lo))
	for _, a := range r.atoms {
		for _, x := range a.vars {
			inAtom[x] = true
		}
	}
	type box struct{ lo, hi []int }
	stack := []box{{append([]int(nil), lo...), append([]int(nil), hi...)}}
	for n := 0; len(stack) > 0; n++ {
		if n >= budget {
			return nil, FindUnknown
		}
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !r.Tighten(b.lo, b.hi) {
			continue
		}
		v := -1
		for x := range b.lo {
			if inAtom[x] && b.lo[x] < b.hi[x] {
				v = x
				break
			}
		}
		if v < 0 {
			for x := range s {
				if inAtom[x] {
					s[x] = b.lo[x]
				}
			}
			if r.Holds(s) {
				return s, FindFound
			}
			continue
		}
		t := min(max(near[v], b.lo[v]), b.hi[v])
		// Pushed in reverse order of trial: t itself, then the values
		// below it, then those above.
		if t < b.hi[v] {
			l, h := append([]int(nil), b.lo...), append([]int(nil), b.hi...)
			l[v] = t + 1
			stack = append(stack, box{l, h})
		}
		if t > b.lo[v] {
			l, h := append([]int(nil), b.lo...), append([]int(nil), b.hi...)
			h[v] = t - 1
			stack = append(stack, box{l, h})
		}
		b.lo[v], b.hi[v] = t, t
		stack = append(stack, b)
	}
	return nil, FindEmpty
}

// LinearAtom is an atom written as sum Coef[i] * x[Vars[i]] <= K.
type LinearAtom struct {
	Vars []int
	Coef []int64
	K    int64
}

// LinearAtoms returns the atoms as LinearAtoms (an atom Form >= K as
// -Form <= -K), each divided by the greatest common divisor of its
// coefficients with K rounded down, which integer points allow. An atom
// whose negation overflows is left out: the result then describes a
// larger region, which is sound for a lower bound over the region.
func (r *AtomRegion) LinearAtoms() []LinearAtom {
	var out []LinearAtom
	for _, a := range r.atoms {
		la := LinearAtom{Vars: a.vars, K: a.k}
		ok := true
		g := int64(0)
		for _, c := range a.coef {
			if !a.upper {
				if c == minInt64 {
					ok = false
				}
				c = -c
			}
			la.Coef = append(la.Coef, c)
			g = gcd64(g, max(c, -c))
		}
		if !a.upper {
			if a.k == minInt64 {
				ok = false
			}
			la.K = -a.k
		}
		if !ok {
			continue
		}
		if g > 1 {
			for i := range la.Coef {
				la.Coef[i] /= g
			}
			la.K = floorDiv(la.K, g)
		}
		out = append(out, la)
	}
	return out
}

const minInt64 = -1 << 63
