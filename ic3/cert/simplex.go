package cert

// An exact rational simplex (math/big) over the real relaxation of a
// fact's region: the real points of the box lo..hi that satisfy the
// region's linear atoms. Its feasibility drops sub-boxes without a real
// point (so without an integer one), and its optima bound an affine
// function (a network's first-layer pre-activation) over the region, a
// sound over-approximation of the function's values on the region's
// integer points. It is written for this checker and shares no code with
// the certifiers (nn's CROWN with input constraints).
//
// The method is the textbook two-phase simplex on a full tableau with
// Bland's rule (no cycling): variables y = x - lo >= 0, the rows
// y_v <= hi_v - lo_v and each atom as a row of <=, slack variables, and
// for each row of negative right side an artificial variable whose sum
// phase 1 minimises. Problems are small (a model's variables and a
// region's atoms), so the tableau is dense. The network's bounds use
// upperBound and lowerBound, dual bounds in exact arithmetic whose
// multipliers come from the same simplex run in float64: the exact
// optimum (max, min) is kept for the tests that hold them to it.

import (
	"math"
	"math/big"
	"slices"

	"vigil/symbolic"
)

// polytope is a feasible basis of the region's constraints, ready for
// phase 2 (nil rows: the region has no real point).
type polytope struct {
	n     int          // structural variables (the model's)
	cols  int          // structural + slack columns
	rows  [][]*big.Rat // each cols+1 long: coefficients, then the right side
	basis []int
	lo    []int
	width []*big.Rat   // hi - lo per variable: y's bounds
	atomA [][]*big.Rat // the atoms as rows atomA[i] · y <= atomB[i]
	atomB []*big.Rat
	frows [][]float64 // rows in float64, made by upperBound when first asked
}

// newPolytope runs phase 1 on lo..hi ∧ atoms and returns the feasible
// tableau, or ok false when the region has no real point.
func newPolytope(lo, hi []int, atoms []symbolic.Atom) (*polytope, bool) {
	n := len(lo)
	type row struct {
		a []*big.Rat
		b *big.Rat
	}
	var rs []row
	for v := range lo {
		a := zeros(n)
		a[v].SetInt64(1)
		rs = append(rs, row{a, big.NewRat(int64(hi[v])-int64(lo[v]), 1)})
	}
	for _, at := range atoms {
		// sum c x <= K, x = y + lo: sum c y <= K - sum c lo (negated for >=).
		a := zeros(n)
		k := big.NewRat(int64(at.K), 1)
		for _, t := range at.Form.Terms() {
			a[t.Var].SetInt64(int64(t.Coef))
			k.Sub(k, big.NewRat(int64(t.Coef)*int64(lo[t.Var]), 1))
		}
		if !at.Upper {
			for _, c := range a {
				c.Neg(c)
			}
			k.Neg(k)
		}
		rs = append(rs, row{a, k})
	}
	p := &polytope{n: n, lo: lo}
	for i, r := range rs {
		if i < n {
			p.width = append(p.width, r.b)
		} else {
			p.atomA = append(p.atomA, r.a)
			p.atomB = append(p.atomB, r.b)
		}
	}
	m := len(rs)
	art := 0
	for _, r := range rs {
		if r.b.Sign() < 0 {
			art++
		}
	}
	cols := n + m
	total := cols + art
	p.cols = cols
	tab := make([][]*big.Rat, m)
	basis := make([]int, m)
	k := 0
	for i, r := range rs {
		t := zeros(total + 1)
		for j, c := range r.a {
			t[j].Set(c)
		}
		t[n+i].SetInt64(1)
		t[total].Set(r.b)
		basis[i] = n + i
		if r.b.Sign() < 0 {
			for _, c := range t {
				c.Neg(c)
			}
			t[cols+k].SetInt64(1)
			basis[i] = cols + k
			k++
		}
		tab[i] = t
	}
	if art > 0 {
		// Phase 1: minimise the sum of the artificial variables, i.e.
		// maximise its negation; its reduced costs are minus the sum of
		// the rows where an artificial variable is basic.
		obj := zeros(total + 1)
		for i := range tab {
			if basis[i] >= cols {
				for j, c := range tab[i] {
					if j < cols || j == total {
						obj[j].Sub(obj[j], c)
					}
				}
			}
		}
		maximise(tab, basis, obj, total)
		if obj[total].Sign() != 0 {
			return nil, false // the sum stays positive: infeasible
		}
		// Drive the artificial variables out of the basis (degenerate
		// pivots); a row with no other nonzero entry is redundant.
		for i := 0; i < len(tab); i++ {
			if basis[i] < cols {
				continue
			}
			piv := -1
			for j := 0; j < cols; j++ {
				if tab[i][j].Sign() != 0 {
					piv = j
					break
				}
			}
			if piv < 0 {
				tab = append(tab[:i], tab[i+1:]...)
				basis = append(basis[:i], basis[i+1:]...)
				i--
				continue
			}
			pivot(tab, basis, nil, i, piv, total)
		}
		for i, t := range tab {
			tab[i] = append(t[:cols], t[total])
		}
	}
	p.rows, p.basis = tab, basis
	return p, true
}

func zeros(n int) []*big.Rat {
	out := make([]*big.Rat, n)
	for i := range out {
		out[i] = new(big.Rat)
	}
	return out
}

// pivot makes column col basic in row r (and updates obj, when not nil).
func pivot(tab [][]*big.Rat, basis []int, obj []*big.Rat, r, col, last int) {
	pr := tab[r]
	inv := new(big.Rat).Inv(pr[col])
	for _, c := range pr[:last+1] {
		c.Mul(c, inv)
	}
	t := new(big.Rat)
	elim := func(row []*big.Rat) {
		f := new(big.Rat).Set(row[col])
		if f.Sign() == 0 {
			return
		}
		for j := 0; j <= last; j++ {
			if pr[j].Sign() != 0 {
				row[j].Sub(row[j], t.Mul(f, pr[j]))
			}
		}
	}
	for i, row := range tab {
		if i != r {
			elim(row)
		}
	}
	if obj != nil {
		elim(obj)
	}
	basis[r] = col
}

// maximise runs the simplex on tab (feasible basis) for the objective
// row obj: obj[j] are the reduced costs (maximise while one is negative;
// obj[last] then holds the optimum's value with the sign of the row,
// see max). It reports false when the objective is unbounded (never for
// a box's polytope).
func maximise(tab [][]*big.Rat, basis []int, obj []*big.Rat, last int) bool {
	ratio, best := new(big.Rat), new(big.Rat)
	for {
		col := -1
		for j := 0; j < last; j++ {
			if obj[j].Sign() < 0 {
				col = j // Bland: the first improving column
				break
			}
		}
		if col < 0 {
			return true
		}
		r := -1
		for i, row := range tab {
			if row[col].Sign() <= 0 {
				continue
			}
			ratio.Quo(row[last], row[col])
			if c := ratio.Cmp(best); r < 0 || c < 0 || c == 0 && basis[i] < basis[r] {
				r = i
				best.Set(ratio)
			}
		}
		if r < 0 {
			return false
		}
		pivot(tab, basis, obj, r, col, last)
	}
}

// min returns the least value of konst + sum c[v] x_v over the polytope.
func (p *polytope) min(konst *big.Rat, c []*big.Rat) *big.Rat {
	r := p.max(new(big.Rat).Neg(konst), negate(c))
	return r.Neg(r)
}

// upperBound returns a value at least the greatest of konst + sum c[v]
// x_v over the polytope's real points: a dual bound, by weak duality.
// For multipliers lam[i] >= 0 of the atoms (rows a_i · y <= b_i, y = x -
// lo, 0 <= y <= width) and every real point,
//
//	c·y = sum lam[i] a_i·y + (c - sum lam[i] a_i)·y
//	    <= sum lam[i] b_i + sum_v max(0, (c - sum lam[i] a_i)_v) width_v,
//
// whatever lam is; the multipliers come from a float64 simplex on the
// same tableau (the atoms' dual values at its optimum), so the bound is
// the optimum up to float64 rounding, and the exact arithmetic is a few
// products per variable instead of the exact simplex's pivots, whose
// objective row carries a network weight's long denominators (npuzzle
// 2x3's certificate: most of the checker's 0.42 s). An optimum the float
// simplex misses (an iteration limit, a NaN) costs tightness, never
// soundness: lam = 0 gives the box's interval bound.
func (p *polytope) upperBound(konst *big.Rat, c []*big.Rat) *big.Rat {
	lam := p.floatDuals(c)
	val := new(big.Rat).Set(konst)
	t := new(big.Rat)
	r := make([]*big.Rat, p.n) // c - sum lam a, then its positive part
	for v := range r {
		r[v] = new(big.Rat)
		if v < len(c) && c[v] != nil {
			r[v].Set(c[v])
			val.Add(val, t.Mul(c[v], big.NewRat(int64(p.lo[v]), 1)))
		}
	}
	for i, l := range lam {
		if !(l > 0) || math.IsInf(l, 0) {
			continue
		}
		lr := new(big.Rat).SetFloat64(l)
		val.Add(val, t.Mul(lr, p.atomB[i]))
		for v, a := range p.atomA[i] {
			if a.Sign() != 0 {
				r[v].Sub(r[v], t.Mul(lr, a))
			}
		}
	}
	for v, rv := range r {
		if rv.Sign() > 0 {
			val.Add(val, t.Mul(rv, p.width[v]))
		}
	}
	return val
}

// floatDuals returns multipliers for upperBound: the atoms' dual values
// at the optimum of max c·y found by a float64 simplex from the phase-1
// basis (nil when it finds none).
func (p *polytope) floatDuals(c []*big.Rat) []float64 {
	if len(p.atomA) == 0 {
		return nil
	}
	if p.frows == nil {
		p.frows = make([][]float64, len(p.rows))
		for i, row := range p.rows {
			p.frows[i] = make([]float64, len(row))
			for j, x := range row {
				p.frows[i][j], _ = x.Float64()
			}
		}
	}
	last := p.cols
	tab := make([][]float64, len(p.frows))
	for i, row := range p.frows {
		tab[i] = slices.Clone(row)
	}
	basis := slices.Clone(p.basis)
	obj := make([]float64, last+1)
	for v, cv := range c {
		if cv != nil {
			f, _ := cv.Float64()
			obj[v] = -f
		}
	}
	for i, b := range basis {
		if f := obj[b]; f != 0 {
			for j := range obj {
				obj[j] -= f * tab[i][j]
			}
		}
	}
	const eps = 1e-12
	for iter := 0; ; iter++ {
		if iter == 100*(last+1) {
			return nil
		}
		col := -1
		for j := 0; j < last; j++ {
			if obj[j] < -eps {
				col = j // Bland: the first improving column
				break
			}
		}
		if col < 0 {
			break
		}
		r, best := -1, 0.0
		for i, row := range tab {
			if row[col] <= eps {
				continue
			}
			ratio := row[last] / row[col]
			if r < 0 || ratio < best || ratio == best && basis[i] < basis[r] {
				r, best = i, ratio
			}
		}
		if r < 0 {
			return nil
		}
		pr := tab[r]
		inv := 1 / pr[col]
		for j := range pr {
			pr[j] *= inv
		}
		for i, row := range tab {
			if f := row[col]; i != r && f != 0 {
				for j := range row {
					row[j] -= f * pr[j]
				}
			}
		}
		if f := obj[col]; f != 0 {
			for j := range obj {
				obj[j] -= f * pr[j]
			}
		}
		basis[r] = col
	}
	// The reduced cost of row i's slack (column n+i) is its dual value;
	// the atoms' rows follow the n rows of the box.
	lam := make([]float64, len(p.atomA))
	for i := range lam {
		lam[i] = obj[2*p.n+i]
	}
	return lam
}

// lowerBound is upperBound's counterpart: at most the least value of
// konst + sum c[v] x_v over the polytope.
func (p *polytope) lowerBound(konst *big.Rat, c []*big.Rat) *big.Rat {
	r := p.upperBound(new(big.Rat).Neg(konst), negate(c))
	return r.Neg(r)
}

func negate(c []*big.Rat) []*big.Rat {
	neg := make([]*big.Rat, len(c))
	for v, cv := range c {
		if cv != nil {
			neg[v] = new(big.Rat).Neg(cv)
		}
	}
	return neg
}

// max returns the greatest value of konst + sum c[v] x_v over the
// polytope's real points (c per model variable, nil entries 0).
func (p *polytope) max(konst *big.Rat, c []*big.Rat) *big.Rat {
	tab := make([][]*big.Rat, len(p.rows))
	for i, row := range p.rows {
		tab[i] = make([]*big.Rat, len(row))
		for j, x := range row {
			tab[i][j] = new(big.Rat).Set(x)
		}
	}
	basis := append([]int(nil), p.basis...)
	last := p.cols
	// Objective row z - sum c y = value: reduced costs -c, expressed in
	// the current basis.
	obj := zeros(last + 1)
	for v, cv := range c {
		if cv != nil {
			obj[v].Neg(cv)
		}
	}
	t := new(big.Rat)
	for i, b := range basis {
		if f := new(big.Rat).Set(obj[b]); f.Sign() != 0 {
			for j := 0; j <= last; j++ {
				obj[j].Sub(obj[j], t.Mul(f, tab[i][j]))
			}
		}
	}
	maximise(tab, basis, obj, last)
	// obj[last] is the optimum of sum c y; x = y + lo.
	val := new(big.Rat).Set(obj[last])
	val.Add(val, konst)
	for v, cv := range c {
		if cv != nil {
			val.Add(val, t.Mul(cv, big.NewRat(int64(p.lo[v]), 1)))
		}
	}
	return val
}
