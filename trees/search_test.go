package trees

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// randomEnsemble builds a small ensemble with thresholds and leaf values
// drawn from small sets, so that ties between cells and classes are common.
func randomEnsemble(rng *rand.Rand, nf, nclass, ntrees, depth int, vector bool) *Ensemble {
	b := newBuilder("test", nclass)
	for c := range b.e.Base {
		b.e.Base[c] = float64(rng.Intn(3) - 1)
	}
	for ti := 0; ti < ntrees; ti++ {
		t := Tree{Class: rng.Intn(nclass)}
		if vector {
			t.Class = -1
		}
		var grow func(d int) int
		grow = func(d int) int {
			me := len(t.Nodes)
			t.Nodes = append(t.Nodes, Node{})
			if d == 0 || rng.Intn(4) == 0 {
				t.Nodes[me] = Node{Feature: -1, Leaf: len(t.Nodes)} // fixed below
				w := 1
				if vector {
					w = nclass
				}
				leaf := len(t.Values) / w
				for k := 0; k < w; k++ {
					t.Values = append(t.Values, float64(rng.Intn(7)-3)/2)
				}
				t.Nodes[me].Leaf = leaf
				return me
			}
			f := rng.Intn(nf)
			th := float64(rng.Intn(9)) / 2
			l := grow(d - 1)
			r := grow(d - 1)
			t.Nodes[me] = Node{Feature: f, Threshold: th, Left: l, Right: r}
			return me
		}
		grow(depth)
		b.e.Trees = append(b.e.Trees, t)
	}
	b.e.NumFeatures, b.e.Declared = nf, true
	e, err := b.finish()
	if err != nil {
		panic(err)
	}
	return e
}

func randomBox(rng *rand.Rand, nf int) Box {
	b := make(Box, nf)
	for f := range b {
		switch rng.Intn(4) {
		case 0:
			b[f] = Interval{math.Inf(-1), math.Inf(1)}
		default:
			lo := float64(rng.Intn(10)-1) / 2
			b[f] = Interval{lo, lo + float64(rng.Intn(6))/2}
		}
	}
	return b
}

// cells enumerates a representative point of every split cell in the box.
func cells(e *Ensemble, box Box, visit func(x []float64)) {
	nf := e.NumFeatures
	lo, hi := make([]int, nf), make([]int, nf)
	for f := 0; f < nf; f++ {
		lo[f], hi[f] = e.cellOf(f, box[f].Lo), e.cellOf(f, box[f].Hi)
	}
	c := append([]int(nil), lo...)
	x := make([]float64, nf)
	for {
		for f := 0; f < nf; f++ {
			x[f] = e.cellPoint(f, c[f], box[f].Lo, box[f].Hi)
		}
		visit(x)
		f := 0
		for f < nf && c[f] == hi[f] {
			c[f] = lo[f]
			f++
		}
		if f == nf {
			return
		}
		c[f]++
	}
}

func inBox(x []float64, box Box) bool {
	for f, iv := range box {
		if x[f] < iv.Lo || x[f] > iv.Hi {
			return false
		}
	}
	return true
}

func wins(sc []float64, a int, sure []int) bool {
	for _, s := range sure {
		if s == a {
			continue
		}
		if sc[s] > sc[a] || (sc[s] == sc[a] && s < a) {
			return false
		}
	}
	return true
}

func TestSearchAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 400; iter++ {
		nf := 1 + rng.Intn(3)
		nclass := 1 + rng.Intn(3)
		e := randomEnsemble(rng, nf, nclass, 1+rng.Intn(5), 1+rng.Intn(3), rng.Intn(2) == 0)
		box := randomBox(rng, nf)
		sc := make([]float64, nclass)
		for c := 0; c < nclass; c++ {
			bmax, bmin, bmarg := math.Inf(-1), math.Inf(1), math.Inf(-1)
			cells(e, box, func(x []float64) {
				e.Scores(x, sc)
				bmax = max(bmax, sc[c])
				bmin = min(bmin, sc[c])
				m := math.Inf(1)
				for o := range sc {
					if o != c {
						m = min(m, sc[c]-sc[o])
					}
				}
				bmarg = max(bmarg, m)
			})
			r, err := e.Max(box, c, Options{})
			if err != nil || !r.Exact || r.Lower != bmax || r.Upper != bmax {
				t.Fatalf("iter %d: Max class %d = %+v, %v; brute force %v", iter, c, r, err, bmax)
			}
			checkWitness(t, e, box, r.Witness, func(s []float64) bool { return s[c] == bmax })
			cells(e, r.WitnessBox, func(x []float64) {
				e.Scores(x, sc)
				if sc[c] != bmax || !inBox(x, box) {
					t.Fatalf("iter %d: witness box %v holds %v scoring %v, not the max %v", iter, r.WitnessBox, x, sc[c], bmax)
				}
			})
			r, err = e.Min(box, c, Options{})
			if err != nil || !r.Exact || r.Lower != bmin {
				t.Fatalf("iter %d: Min class %d = %+v, %v; brute force %v", iter, c, r, err, bmin)
			}
			checkWitness(t, e, box, r.Witness, func(s []float64) bool { return s[c] == bmin })
			if nclass > 1 {
				r, err = e.Margin(box, c, Options{})
				if err != nil || !r.Exact || r.Lower != bmarg {
					t.Fatalf("iter %d: Margin class %d = %+v, %v; brute force %v", iter, c, r, err, bmarg)
				}
			}
			// Budgeted searches bracket the optimum.
			r, _ = e.Max(box, c, Options{MaxNodes: 1})
			if r.Lower > bmax || r.Upper < bmax {
				t.Fatalf("iter %d: budgeted Max [%v, %v] misses %v", iter, r.Lower, r.Upper, bmax)
			}
		}
		for a := 0; a < nclass; a++ {
			var sure []int
			for c := 0; c < nclass; c++ {
				if rng.Intn(3) > 0 {
					sure = append(sure, c)
				}
			}
			can := false
			cells(e, box, func(x []float64) {
				e.Scores(x, sc)
				if wins(sc, a, sure) {
					can = true
				}
			})
			d, err := e.Excludes(box, a, sure, Options{})
			if err != nil {
				t.Fatal(err)
			}
			switch d.Verdict {
			case Proved:
				if can {
					t.Fatalf("iter %d: Excludes(a=%d, sure=%v) = excluded, but a wins in some cell", iter, a, sure)
				}
			case Refuted:
				checkWitness(t, e, box, d.Witness, func(s []float64) bool { return wins(s, a, sure) })
				cells(e, d.WitnessBox, func(x []float64) {
					e.Scores(x, sc)
					if !wins(sc, a, sure) || !inBox(x, box) {
						t.Fatalf("iter %d: a=%d does not win at %v in the witness box %v", iter, a, x, d.WitnessBox)
					}
				})
			default:
				t.Fatalf("iter %d: unknown without a budget", iter)
			}
			if (d.Verdict == Refuted) != can {
				t.Fatalf("iter %d: verdict %v, brute force can=%v", iter, d.Verdict, can)
			}
			// Any budget: never a wrong verdict.
			d, _ = e.Excludes(box, a, sure, Options{MaxNodes: 1 + rng.Intn(3)})
			if (d.Verdict == Proved && can) || (d.Verdict == Refuted && !can) {
				t.Fatalf("iter %d: budgeted verdict %v wrong", iter, d.Verdict)
			}
		}
	}
}

func checkWitness(t *testing.T, e *Ensemble, box Box, x []float64, ok func([]float64) bool) {
	t.Helper()
	if x == nil || !inBox(x, box) {
		t.Fatalf("witness %v not in box %v", x, box)
	}
	sc := make([]float64, e.NumClasses)
	e.Scores(x, sc)
	if !ok(sc) {
		t.Fatalf("witness %v does not attain the answer (scores %v)", x, sc)
	}
}

// TestSearchLargerEnsembles repeats the brute-force comparison on larger
// ensembles with real-valued leaves, where the search must branch deeply.
func TestSearchLargerEnsembles(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for iter := 0; iter < 40; iter++ {
		nclass := 2 + rng.Intn(3)
		e := randomEnsemble(rng, 3, nclass, 6+rng.Intn(6), 4, rng.Intn(2) == 0)
		for ti := range e.Trees { // real-valued leaves: few ties
			for i := range e.Trees[ti].Values {
				e.Trees[ti].Values[i] += rng.Float64()
			}
		}
		box := Box{{-1, 5}, {0, 4}, {math.Inf(-1), math.Inf(1)}}
		sc := make([]float64, nclass)
		for c := 0; c < nclass; c++ {
			best := math.Inf(-1)
			cells(e, box, func(x []float64) {
				e.Scores(x, sc)
				m := math.Inf(1)
				for o := range sc {
					if o != c {
						m = min(m, sc[c]-sc[o])
					}
				}
				best = max(best, m)
			})
			r, err := e.Margin(box, c, Options{})
			if err != nil || !r.Exact || r.Lower != best {
				t.Fatalf("iter %d class %d: margin %+v %v, brute force %v", iter, c, r, err, best)
			}
			var sure []int
			for o := 0; o < nclass; o++ {
				if o != c {
					sure = append(sure, o)
				}
			}
			d, err := e.Excludes(box, c, sure, Options{})
			if err != nil || (d.Verdict == Refuted) != (best > 0) || d.Verdict == Unknown {
				t.Fatalf("iter %d class %d: verdict %v, best margin %v", iter, c, d.Verdict, best)
			}
		}
	}
}

// TestBudgets checks that exhausted budgets give Unknown or a correct
// answer, never a wrong one, and that anytime bounds bracket the optimum.
func TestBudgets(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	e := randomEnsemble(rng, 3, 3, 12, 4, true)
	box := Box{{-1, 5}, {-1, 5}, {-1, 5}}
	exact, _ := e.Margin(box, 1, Options{})
	if !exact.Exact {
		t.Fatal("no exact margin")
	}
	can := false
	sc := make([]float64, 3)
	cells(e, box, func(x []float64) {
		e.Scores(x, sc)
		can = can || wins(sc, 1, []int{0, 2})
	})
	for _, opt := range []Options{{MaxNodes: 1}, {MaxNodes: 3}, {MaxOpen: 2}, {MaxMemory: 1}, {Timeout: 1}} {
		r, err := e.Margin(box, 1, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Exact && r.Stopped == StopNone || r.Exact && r.Stopped != StopNone {
			t.Errorf("%+v: exact %v but stopped by %q", opt, r.Exact, r.Stopped)
		}
		if (opt.MaxOpen > 0 || opt.MaxMemory > 0) && !r.Exact && r.Stopped != StopMemory {
			t.Errorf("%+v: stopped by %q, want the memory limit", opt, r.Stopped)
		}
		if r.Lower > exact.Lower || r.Upper < exact.Lower {
			t.Errorf("%+v: bounds [%v, %v] miss the optimum %v", opt, r.Lower, r.Upper, exact.Lower)
		}
		d, _ := e.Excludes(box, 1, []int{0, 2}, opt)
		if d.Verdict == Refuted && !can || d.Verdict == Proved && can {
			t.Errorf("%+v: wrong verdict %v (brute force: can win %v)", opt, d.Verdict, can)
		}
	}
}

func TestExactSums(t *testing.T) {
	for _, c := range []struct {
		file  string
		exact bool
	}{
		{"testdata/lgb_multi.txt", true},
		{"testdata/veritas_small.json", true},
		// XGBoost sums in float32: its leaves need more than 24 bits together.
		{"../specs/policies/oneway_trees.json", false},
	} {
		e, err := Load(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if (e.tol == 0) != c.exact {
			t.Errorf("%s: tolerance %v, want exact sums %v", c.file, e.tol, c.exact)
		}
	}
}

// TestMaskingAgrees checks Excludes against paper 004's masking
// construction (section 3.3.2): add -P to every class outside sure and a,
// with P larger than any score difference, and ask whether the margin of a
// stays negative. With real-valued leaves ties do not occur, so both
// formulations must agree exactly.
func TestMaskingAgrees(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	for iter := 0; iter < 150; iter++ {
		nclass := 2 + rng.Intn(4)
		e := randomEnsemble(rng, 3, nclass, 2+rng.Intn(6), 3, rng.Intn(2) == 0)
		for ti := range e.Trees {
			for i := range e.Trees[ti].Values {
				e.Trees[ti].Values[i] += rng.Float64()
			}
		}
		e.number()
		box := randomBox(rng, 3)
		a := rng.Intn(nclass)
		var sure []int
		for c := 0; c < nclass; c++ {
			if c != a && rng.Intn(2) == 0 {
				sure = append(sure, c)
			}
		}
		if len(sure) == 0 {
			continue
		}
		// P exceeds every possible difference of two class scores.
		p := 1.0
		for _, b := range e.Base {
			p += 2 * math.Abs(b)
		}
		for ti := range e.Trees {
			m := 0.0
			for _, v := range e.Trees[ti].Values {
				m = max(m, math.Abs(v))
			}
			p += 2 * m
		}
		g := *e
		g.Base = append([]float64(nil), e.Base...)
		for c := range g.Base {
			if c != a && !slices.Contains(sure, c) {
				g.Base[c] -= p
			}
		}
		g.number()
		r, err := g.Margin(box, a, Options{})
		if err != nil || !r.Exact {
			t.Fatal(err, r)
		}
		d, err := e.Excludes(box, a, sure, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if (d.Verdict == Proved) != (r.Lower < 0) {
			t.Fatalf("iter %d: Excludes says %v, masked margin is %v", iter, d.Verdict, r.Lower)
		}
	}
}
