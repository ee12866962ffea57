package trees

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
)

// s32t: the box search (Excludes, Max, Min, Margin) against enumerating
// one point of every split cell, on ensembles whose leaves make the
// summation order matter: non-dyadic values (0.1 + 0.2 != 0.3), huge
// values that swallow small ones (1e16 + 1 - 1e16), values an ulp apart,
// exact ties between classes, float32 sums (XGBoost) and float64 sums
// (LightGBM, Veritas). The scores are recomputed here by their definition
// in lang/spec.md (base, then each tree's leaf in tree order, rounded as
// the format sums), apart from Ensemble.Scores, and the cells from the
// thresholds alone. The search pads its bounds by a tolerance for the
// reordered sums; a tolerance too small shows as a missed optimum or a
// wrong "excluded". VIGIL_S32T_MODELS sets the number of ensembles
// (default 300).

var s32tLeaves64 = []float64{0, 0.1, 0.2, 0.3, -0.1, -0.3, 1, -1, 3, 1.0 / 3, 2.0 / 3, 1e16, -1e16, 1e-16, 0x1p-53, 1 + 0x1p-52, 0.5, -2, 7e15, 4503599627370497}

var s32tLeaves32 = []float64{0, 0.1, 0.2, 0.3, -0.1, 1, -1, 3, 1.0 / 3, 16777216, -16777216, 0x1p-24, 1 + 0x1p-23, 0.5, 1e8, -1e8, 2.5e-8}

// s32tMaxTrees bounds the trees of an ensemble (VIGIL_S32T_TREES).
var s32tMaxTrees = 8

var s32tThresholds = []float64{-1, 0, 0.5, 1, 1.5, 2, 2.5, math.Nextafter(2, 3), 3, 0.1, 0.30000000000000004}

type s32tEns struct {
	e      *Ensemble
	f32    bool
	base   []float64
	trees  []Tree
	nclass int
	nf     int
}

func s32tRandom(rng *rand.Rand) *s32tEns {
	formats := []string{"veritas", "lightgbm", "xgboost"}
	format := formats[rng.IntN(3)]
	f32 := format == "xgboost"
	leaves := s32tLeaves64
	if f32 {
		leaves = s32tLeaves32
	}
	val := func() float64 {
		v := leaves[rng.IntN(len(leaves))]
		if rng.IntN(4) == 0 {
			v = -v
		}
		if f32 {
			v = float64(float32(v))
		}
		return v
	}
	nclass := 1 + rng.IntN(3)
	nf := 1 + rng.IntN(3)
	b := newBuilder(format, nclass)
	for c := range b.e.Base {
		if rng.IntN(2) == 0 {
			b.e.Base[c] = val()
		}
	}
	vector := rng.IntN(3) == 0
	ntrees := 1 + rng.IntN(s32tMaxTrees)
	for ti := 0; ti < ntrees; ti++ {
		t := Tree{Class: rng.IntN(nclass)}
		w := 1
		if vector {
			t.Class, w = -1, nclass
		}
		var grow func(d int) int
		grow = func(d int) int {
			me := len(t.Nodes)
			t.Nodes = append(t.Nodes, Node{})
			if d == 0 || rng.IntN(4) == 0 {
				leaf := len(t.Values) / w
				for k := 0; k < w; k++ {
					t.Values = append(t.Values, val())
				}
				t.Nodes[me] = Node{Feature: -1, Leaf: leaf}
				return me
			}
			f := rng.IntN(nf)
			th := s32tThresholds[rng.IntN(len(s32tThresholds))]
			l := grow(d - 1)
			r := grow(d - 1)
			t.Nodes[me] = Node{Feature: f, Threshold: th, Left: l, Right: r}
			return me
		}
		grow(1 + rng.IntN(3))
		b.e.Trees = append(b.e.Trees, t)
	}
	b.e.NumFeatures, b.e.Declared = nf, true
	// keep an independent copy of the raw trees before finish numbers them
	raw := make([]Tree, len(b.e.Trees))
	for i, t := range b.e.Trees {
		raw[i] = Tree{Class: t.Class, Nodes: slices.Clone(t.Nodes), Values: slices.Clone(t.Values)}
	}
	base := slices.Clone(b.e.Base)
	e, err := b.finish()
	if err != nil {
		panic(err)
	}
	return &s32tEns{e: e, f32: f32, base: base, trees: raw, nclass: nclass, nf: nf}
}

// scores is the definition: base, then each tree's leaf in tree order.
func (m *s32tEns) scores(x []float64) []float64 {
	out := make([]float64, m.nclass)
	for c := range out {
		if m.f32 {
			s := float32(m.base[c])
			for _, t := range m.trees {
				if v, ok := m.leaf(&t, x, c); ok {
					s += float32(v)
				}
			}
			out[c] = float64(s)
			continue
		}
		s := m.base[c]
		for _, t := range m.trees {
			if v, ok := m.leaf(&t, x, c); ok {
				s += v
			}
		}
		out[c] = s
	}
	return out
}

func (m *s32tEns) leaf(t *Tree, x []float64, c int) (float64, bool) {
	i := 0
	for t.Nodes[i].Feature >= 0 {
		n := t.Nodes[i]
		if x[n.Feature] < n.Threshold {
			i = n.Left
		} else {
			i = n.Right
		}
	}
	l := t.Nodes[i].Leaf
	if t.Class >= 0 {
		if t.Class != c {
			return 0, false
		}
		return t.Values[l], true
	}
	return t.Values[l*m.nclass+c], true
}

// points calls visit with one point of every split cell of the box,
// found from the thresholds: the box's low end and every threshold inside.
func (m *s32tEns) points(box Box, visit func(x []float64)) {
	per := make([][]float64, m.nf)
	for f := 0; f < m.nf; f++ {
		var ths []float64
		for _, t := range m.trees {
			for _, n := range t.Nodes {
				if n.Feature == f {
					ths = append(ths, n.Threshold)
				}
			}
		}
		lo := box[f].Lo
		if math.IsInf(lo, -1) {
			lo = -1e300
		}
		pts := []float64{lo}
		for _, th := range ths {
			if th > lo && th <= box[f].Hi {
				pts = append(pts, th)
			}
		}
		per[f] = pts
	}
	x := make([]float64, m.nf)
	var rec func(f int)
	rec = func(f int) {
		if f == m.nf {
			visit(x)
			return
		}
		for _, v := range per[f] {
			x[f] = v
			rec(f + 1)
		}
	}
	rec(0)
}

func s32tBox(rng *rand.Rand, nf int) Box {
	b := make(Box, nf)
	for f := range b {
		switch rng.IntN(5) {
		case 0:
			b[f] = Interval{math.Inf(-1), math.Inf(1)}
		case 1:
			th := s32tThresholds[rng.IntN(len(s32tThresholds))]
			b[f] = Interval{th, th}
		default:
			lo := float64(rng.IntN(8)-2) / 2
			b[f] = Interval{lo, lo + float64(rng.IntN(6))/2}
		}
	}
	return b
}

func s32tBeats(sc []float64, s, a int) bool {
	return sc[s] > sc[a] || (sc[s] == sc[a] && s < a)
}

func s32tModels(t *testing.T, env string, def int) int {
	if v := os.Getenv(env); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	return def
}

func TestS32tSearchSummationOrder(t *testing.T) {
	n := s32tModels(t, "VIGIL_S32T_MODELS", 300)
	s32tMaxTrees = s32tModels(t, "VIGIL_S32T_TREES", 8)
	stats := map[string]int{}
	for seed := 0; seed < n; seed++ {
		rng := rand.New(rand.NewPCG(32, uint64(seed)))
		m := s32tRandom(rng)
		e := m.e
		if m.e.tol > 0 {
			stats["tol>0"]++
		}
		for q := 0; q < 4; q++ {
			box := s32tBox(rng, m.nf)
			where := fmt.Sprintf("seed %d (%s, %d classes, %d trees) box %v", seed, e.Format, m.nclass, len(m.trees), box)
			var pts [][]float64
			m.points(box, func(x []float64) { pts = append(pts, slices.Clone(x)) })
			for c := 0; c < m.nclass; c++ {
				bmax, bmin, bmarg := math.Inf(-1), math.Inf(1), math.Inf(-1)
				for _, x := range pts {
					sc := m.scores(x)
					bmax, bmin = max(bmax, sc[c]), min(bmin, sc[c])
					mg := math.Inf(1)
					for o := range sc {
						if o != c {
							mg = min(mg, sc[c]-sc[o])
						}
					}
					bmarg = max(bmarg, mg)
				}
				r, err := e.Max(box, c, Options{})
				if err != nil || !r.Exact || r.Lower != bmax {
					t.Fatalf("%s: Max class %d = %v..%v exact %v (%v); enumeration %v", where, c, r.Lower, r.Upper, r.Exact, err, bmax)
				}
				r, err = e.Min(box, c, Options{})
				if err != nil || !r.Exact || r.Lower != bmin {
					t.Fatalf("%s: Min class %d = %v..%v exact %v (%v); enumeration %v", where, c, r.Lower, r.Upper, r.Exact, err, bmin)
				}
				if m.nclass > 1 {
					r, err = e.Margin(box, c, Options{})
					if err != nil || !r.Exact || r.Lower != bmarg {
						t.Fatalf("%s: Margin class %d = %v..%v exact %v (%v); enumeration %v", where, c, r.Lower, r.Upper, r.Exact, err, bmarg)
					}
				}
				// every sure set
				for mask := 0; mask < 1<<m.nclass; mask++ {
					var sure []int
					for s := 0; s < m.nclass; s++ {
						if mask&(1<<s) != 0 {
							sure = append(sure, s)
						}
					}
					can := false
					for _, x := range pts {
						sc := m.scores(x)
						w := true
						for _, s := range sure {
							if s != c && s32tBeats(sc, s, c) {
								w = false
							}
						}
						if w {
							can = true
							break
						}
					}
					d, err := e.Excludes(box, c, sure, Options{})
					if err != nil {
						t.Fatal(err)
					}
					stats[d.Verdict.String()]++
					if d.Verdict == Unknown || (d.Verdict == Refuted) != can {
						t.Fatalf("%s: Excludes(a=%d, sure=%v) = %v; enumeration: a can win %v", where, c, sure, d.Verdict, can)
					}
					// a budget never makes a wrong verdict
					if b, err := e.Excludes(box, c, sure, Options{MaxNodes: 1 + rng.IntN(3)}); err != nil || (b.Verdict == Proved && can) || (b.Verdict == Refuted && !can) {
						t.Fatalf("%s: budgeted Excludes(a=%d, sure=%v) = %v (%v); enumeration: a can win %v", where, c, sure, b.Verdict, err, can)
					}
					if d.Verdict == Refuted {
						sc := m.scores(d.Witness)
						for _, s := range sure {
							if s != c && s32tBeats(sc, s, c) {
								t.Fatalf("%s: Excludes(a=%d, sure=%v): witness %v scores %v, a loses", where, c, sure, d.Witness, sc)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d ensembles: %v", n, stats)
}
