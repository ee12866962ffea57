package ppa

// Start cubes across refinement iterations. Where the start states are too
// many to list (startStates), the start cubes (the cubes that hold a start
// state) are found by SMT: a model of the start condition gives a cube,
// which is blocked, until none is left. be3's 465,120 start states give
// thousands of start cubes, and each iteration found them anew, each query
// under all the blocking clauses of the cubes before it.
//
// Refinement only appends predicates (ppa.go refine), so the predicates of
// an iteration begin with those of the last one, and each new start cube
// lies in exactly one old start cube: its values on the old predicates.
// The new start cubes are therefore found per old cube C, with C's
// literals asserted and only the new predicates' literals enumerated and
// blocked; nothing outside the old cubes needs asking, as every start
// state lies in one of them (the enumeration that found them was
// complete). Each old cube keeps a start state found in it (its witness):
// that state's cube is a new start cube without a query. When every new
// predicate is true throughout C's bounding box, or false throughout
// (interval evaluation, symbolic.CondBox), C holds one new cube only, the
// witness's, and no query is asked. The start cubes found are the same set
// as the enumeration from scratch finds.

import (
	"fmt"
	"sort"

	"vigil/smt"
	"vigil/symbolic"
)

// startCube is a start cube with a start state in it.
type startCube struct {
	vals    []bool
	witness symbolic.State // nil: none known
}

// startCubes returns the start cubes of the abstraction, whose solver of
// queries without the policy (freeSolver) holds the start condition (in a
// scope of explore's), by SMT: refined
// from the last iteration's where its predicates are a prefix of these,
// else enumerated.
func (ab *abstraction) startCubes() ([][]bool, error) {
	r := ab.r
	var cubes []startCube
	var err error
	if old := len(r.prevPreds); old > 0 && old <= ab.n && r.samePrefix(old) {
		cubes, err = ab.refineStarts(old)
	} else {
		cubes, err = ab.enumerateStarts()
	}
	if err != nil {
		return nil, err
	}
	if r.opts.checkStarts {
		if err := ab.compareStarts(cubes); err != nil {
			return nil, err
		}
	}
	r.prevStarts = cubes
	r.prevPreds = r.prevPreds[:0]
	for _, p := range r.preds.list[:ab.n] {
		r.prevPreds = append(r.prevPreds, p.c)
	}
	out := make([][]bool, len(cubes))
	for i, c := range cubes {
		out[i] = c.vals
	}
	return out, nil
}

// samePrefix reports whether the first n predicates are those of the last
// start cubes.
func (r *engine) samePrefix(n int) bool {
	for i, c := range r.prevPreds[:n] {
		if r.preds.list[i].c != c {
			return false
		}
	}
	return true
}

// enumerateStarts enumerates the start cubes by blocking clauses.
func (ab *abstraction) enumerateStarts() ([]startCube, error) {
	var out []startCube
	err := ab.cubesIn(0, nil, func(vals []bool, st symbolic.State) {
		out = append(out, startCube{vals, st})
	})
	return out, err
}

// refineStarts splits each of the last start cubes, over the first old
// predicates, by the predicates after them.
func (ab *abstraction) refineStarts(old int) ([]startCube, error) {
	r := ab.r
	var out []startCube
	for _, c := range r.prevStarts {
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		var first []bool // the witness's cube, when it lies in c
		if c.witness != nil {
			if v := r.valsOf(c.witness, ab.n); key(v[:old]) == key(c.vals) {
				first = v
			}
		}
		if first != nil && ab.decidedOnBox(c.vals, old) {
			out = append(out, startCube{first, c.witness})
			continue
		}
		var wit symbolic.State
		if first != nil {
			wit = c.witness
		}
		if err := ab.cubesIn(old, c.vals, func(vals []bool, st symbolic.State) {
			out = append(out, startCube{vals, st})
		}, startCube{first, wit}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decidedOnBox reports whether each predicate from old on is true
// throughout the bounding box of the cube vals (over the first old
// predicates), or false throughout: then the cube holds one cube of the
// predicates, at most.
func (ab *abstraction) decidedOnBox(vals []bool, old int) bool {
	r := ab.r
	lo, hi, size := r.box(vals)
	if size == 0 {
		return false
	}
	for p := old; p < ab.n; p++ {
		if symbolic.CondBox(r.preds.list[p].c, lo, hi) == symbolic.BoxMaybe {
			return false
		}
	}
	return true
}

// cubesIn enumerates the start cubes within the cube prefix over the
// first old predicates (old 0: all start cubes), calling f with each and
// a start state in it; known (when its vals are set) is one of them,
// reported without a query. Within the prefix only the literals of the
// predicates from old on are blocked.
func (ab *abstraction) cubesIn(old int, prefix []bool, f func([]bool, symbolic.State), known ...startCube) error {
	r, x, s := ab.r, ab.r.x, ab.freeSolver()
	if err := s.Push(); err != nil {
		return err
	}
	defer s.Pop(1)
	if old > 0 {
		if err := s.Assert(ab.cube(prefix, ab.pc[:old])); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	block := func(vals []bool) error {
		seen[key(vals)] = true
		return s.Assert(x.Not(ab.cube(vals[old:], ab.pc[old:ab.n])))
	}
	for _, k := range known {
		if k.vals == nil {
			continue
		}
		f(k.vals, k.witness)
		if err := block(k.vals); err != nil {
			return err
		}
	}
	for {
		res, err := r.check(s.Solver)
		if err != nil {
			return err
		}
		switch res {
		case smt.Unknown:
			return errUnknown
		case smt.Unsat:
			return nil
		}
		st, err := r.e.Decode(s.Solver, r.e.Cur)
		if err != nil {
			return err
		}
		vals := r.valsOf(st, ab.n)
		if seen[key(vals)] || key(vals[:old]) != key(prefix) {
			// Z3's encoding of a predicate and its evaluation in Go
			// disagree on this state (see allCubes): the cube of
			// Z3's own evaluation is reported and blocked, and the
			// state is no witness.
			if vals, err = ab.termValues(s, ab.pc); err != nil {
				return err
			}
			st = nil
		}
		f(vals, st)
		if err := block(vals); err != nil {
			return err
		}
	}
}

// compareStarts enumerates the start cubes from scratch and reports a
// difference from cubes (Options.checkStarts).
func (ab *abstraction) compareStarts(cubes []startCube) error {
	fresh, err := ab.enumerateStarts()
	if err != nil {
		return err
	}
	keys := func(cs []startCube) []string {
		var out []string
		for _, c := range cs {
			out = append(out, key(c.vals))
			if c.witness != nil && key(ab.r.valsOf(c.witness, ab.n)) != key(c.vals) {
				out = append(out, "witness outside "+key(c.vals))
			}
		}
		sort.Strings(out)
		return out
	}
	a, b := keys(cubes), keys(fresh)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Errorf("ppa: iteration %d: start cubes refined %v, enumerated %v", ab.r.stats.Iterations, a, b)
	}
	return nil
}
