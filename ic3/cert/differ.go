package cert

// Policy facts that hold within the certificate's disequalities.
//
// A certificate whose header has "differ: X Y" lines states the invariant
// D ∧ (the union of boxes), D being the conjunction of X != Y over the
// pairs; the checks (init, consecution, safety) read it so, in the
// checker's own text (smtlib's vigil.differ). A fact marked "differ"
// claims its label is never chosen in the states of its region that also
// satisfy D. The checker re-checks such a fact by its own enumeration of
// those states (the region's box within the ranges, its atoms, and the
// pairs, pruned as the values are chosen variable by variable), with the
// policy's float64 scores and the fact's meaning (question.chosen, the
// same reading as every other fact), and refuses it when a state chooses
// the label or when the states, or the enumerator's partial assignments,
// exceed MaxDifferStates (MaxDifferNodes): nothing is assumed of a state
// it did not evaluate. The enumerator is this package's own: ic3's,
// which found the fact, is not imported.

import (
	"context"

	"vigil/symbolic"
)

// MaxDifferStates bounds the states of a differ fact's region within the
// disequalities that the checker evaluates; MaxDifferNodes bounds the
// enumerator's partial assignments (dead ends included).
const (
	MaxDifferStates = 200_000
	MaxDifferNodes  = 16 * MaxDifferStates
)

// differLimit is MaxDifferStates, lowered by tests.
var differLimit = MaxDifferStates

// differPrefer is the number of states within the disequalities up to
// which a fact not marked differ is also checked by enumerating them
// rather than by the whole-region methods (CheckWith): every fact is used
// only inside vigil.inv, which lies within the disequalities, so that is
// all a fact must hold on; on npuzzle 3x3 the interval proof of a
// network fact over a large box took seconds, the enumeration of its few
// thousand permutations milliseconds.
const differPrefer = 20_000

// countDiffer reports whether the states of lo..hi (within m's ranges)
// that satisfy atoms and differ on pairs number at most limit, counting
// them with the enumerator's own pruning and at most 16*limit partial
// states.
func countDiffer(m *symbolic.Model, lo, hi []int, atoms []symbolic.Atom, pairs [][2]symbolic.VarID, limit int) bool {
	n := len(m.Vars)
	l, h := make([]int, n), make([]int, n)
	for v := range n {
		l[v], h[v] = max(lo[v], m.Vars[v].Lo), min(hi[v], m.Vars[v].Hi)
		if l[v] > h[v] {
			return true
		}
	}
	earlier := make([][]int, n)
	for _, p := range pairs {
		i, j := min(int(p[0]), int(p[1])), max(int(p[0]), int(p[1]))
		earlier[j] = append(earlier[j], i)
	}
	s := make(symbolic.State, n)
	states, nodes := 0, 0
	var rec func(v int) bool
	rec = func(v int) bool {
		if v == n {
			for _, a := range atoms {
				if !a.Holds(s) {
					return true
				}
			}
			states++
			return states <= limit
		}
	values:
		for k := l[v]; k <= h[v]; k++ {
			if nodes++; nodes > 16*limit {
				return false
			}
			for _, u := range earlier[v] {
				if s[u] == k {
					continue values
				}
			}
			s[v] = k
			if !rec(v + 1) {
				return false
			}
		}
		return true
	}
	return rec(0)
}

// enumerateDiffer checks every state of lo..hi (within the ranges, Check
// made sure) that satisfies the question's atoms and the pairs of
// q.f.Differ: the policy must choose q.f.Label in none of them.
func (q *question) enumerateDiffer(ctx context.Context, lo, hi []int) error {
	n := len(lo)
	earlier := make([][]int, n) // earlier[j]: the i < j that j must differ from
	for _, p := range q.f.Differ {
		i, j := int(p[0]), int(p[1])
		if i < 0 || j < 0 || i >= n || j >= n || i == j {
			return errorf("policy fact: a disequality names variables %d and %d of %d", i, j, n)
		}
		if i > j {
			i, j = j, i
		}
		earlier[j] = append(earlier[j], i)
	}
	sc := make([]float64, len(q.p.Outputs()))
	s := make(symbolic.State, n)
	states, nodes := 0, 0
	tooMany := func() error {
		return tooLarge("within the disequalities: its region holds more than %d states that satisfy them (or the enumeration passed %d partial states); a differ fact must be small enough to enumerate", differLimit, 16*differLimit)
	}
	var rec func(v int) error
	rec = func(v int) error {
		if v == n {
			// Only the states of the region count, as countDiffer
			// counts them: a fact it sent here (at most differPrefer of
			// them) whose box held more than differLimit states within
			// the pairs, most of them outside its atoms, was refused.
			if !q.inRegion(s) {
				return nil
			}
			states++
			if states > differLimit {
				return tooMany()
			}
			if states&0xfff == 0 && ctx.Err() != nil {
				return errorf("policy fact not re-checked: %w", ctx.Err())
			}
			return q.checkState(s, sc)
		}
	values:
		for k := lo[v]; k <= hi[v]; k++ {
			nodes++
			if nodes > 16*differLimit {
				return tooMany()
			}
			for _, u := range earlier[v] {
				if s[u] == k {
					continue values
				}
			}
			s[v] = k
			if err := rec(v + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return rec(0)
}

// resolveDiffer maps the header's differ pairs to m's variables.
func (c *Cert) resolveDiffer(m *symbolic.Model) ([][2]symbolic.VarID, error) {
	var out [][2]symbolic.VarID
	for _, d := range c.Differ {
		var p [2]symbolic.VarID
		for k, n := range d {
			v := m.VarIndex(n)
			if v < 0 {
				return nil, errorf("a differ line names %s, which is not a variable of model %s", Quote(n), Quote(m.Name))
			}
			p[k] = v
		}
		if p[0] == p[1] {
			return nil, errorf("a differ line names variable %s twice", Quote(d[0]))
		}
		out = append(out, p)
	}
	return out, nil
}
