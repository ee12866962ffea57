package trees

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// xcLGB is a generated LightGBM ensemble as the test evaluates it, apart
// from the package: a split goes left iff x <= threshold, except that a
// split of missing type Zero sends inputs within 1e-35 of 0 to its
// default side (LightGBM's NumericalDecision); scores sum the leaf values
// in tree order in float64, tree i scoring class i mod nclass.
type xcLGB struct {
	nclass       int
	feat, left   [][]int // left/right: >= 0 a node, < 0 leaf ~l
	right        [][]int
	thr          [][]float64
	zero, defLft [][]bool
	leaves       [][]float64
}

func (e *xcLGB) scores(x []float64) []float64 {
	s := make([]float64, e.nclass)
	for t := range e.feat {
		i := 0
		if len(e.feat[t]) == 0 {
			s[t%e.nclass] += e.leaves[t][0]
			continue
		}
		for i >= 0 {
			v := x[e.feat[t][i]]
			var goLeft bool
			if e.zero[t][i] && math.Abs(v) <= 1e-35 {
				goLeft = e.defLft[t][i]
			} else {
				goLeft = v <= e.thr[t][i]
			}
			if goLeft {
				i = e.left[t][i]
			} else {
				i = e.right[t][i]
			}
		}
		s[t%e.nclass] += e.leaves[t][^i]
	}
	return s
}

// xcLGBModel writes a random LightGBM text model over integer features
// lo..hi: thresholds on and around integers and halves (one float64 ulp
// either side), missing types None, Zero and NaN with random default
// sides, single-leaf trees, leaves that tie.
func xcLGBModel(dir string, seed uint64, lo, hi []int) (string, *xcLGB) {
	r := rand.New(rand.NewPCG(seed, 0x1469))
	nf := len(lo)
	nclass := 1 + r.IntN(3)
	e := &xcLGB{nclass: nclass}
	var b strings.Builder
	fmt.Fprintf(&b, "tree\nversion=v4\nnum_class=%d\nnum_tree_per_iteration=%d\nlabel_index=0\nmax_feature_idx=%d\n", nclass, nclass, nf-1)
	if nclass > 1 {
		fmt.Fprintf(&b, "objective=multiclass num_class:%d\n", nclass)
	} else {
		b.WriteString("objective=regression\n")
	}
	b.WriteString("\n")
	leafVals := []float64{0, 1, -1, 0.5, 0.25, 1e-17, -1e-17, 0.1, 0.2, 0.3}
	ntrees := nclass * (1 + r.IntN(5))
	for t := 0; t < ntrees; t++ {
		var feat, left, right []int
		var thr []float64
		var zero, dl []bool
		var leaves []float64
		var grow func(depth int) int // returns node index, or ^leaf
		grow = func(depth int) int {
			if depth == 0 || r.IntN(4) == 0 {
				leaves = append(leaves, leafVals[r.IntN(len(leafVals))])
				return ^(len(leaves) - 1)
			}
			i := len(feat)
			f := r.IntN(nf)
			k := float64(lo[f] - 1 + r.IntN(hi[f]-lo[f]+3))
			th := k
			switch r.IntN(5) {
			case 1:
				th = k + 0.5
			case 2:
				th = math.Nextafter(k, math.Inf(1))
			case 3:
				th = math.Nextafter(k, math.Inf(-1))
			}
			feat, thr = append(feat, f), append(thr, th)
			zero, dl = append(zero, r.IntN(10) == 0), append(dl, r.IntN(2) == 0)
			left, right = append(left, 0), append(right, 0)
			a := grow(depth - 1)
			c := grow(depth - 1)
			left[i], right[i] = a, c
			return i
		}
		if root := grow(r.IntN(4)); root < 0 {
			feat, left, right, thr, zero, dl = nil, nil, nil, nil, nil, nil
		}
		e.feat, e.left, e.right, e.thr = append(e.feat, feat), append(e.left, left), append(e.right, right), append(e.thr, thr)
		e.zero, e.defLft, e.leaves = append(e.zero, zero), append(e.defLft, dl), append(e.leaves, leaves)
		ints := func(xs []int) string {
			var s []string
			for _, x := range xs {
				s = append(s, strconv.Itoa(x))
			}
			return strings.Join(s, " ")
		}
		floats := func(xs []float64) string {
			var s []string
			for _, x := range xs {
				s = append(s, strconv.FormatFloat(x, 'g', 17, 64))
			}
			return strings.Join(s, " ")
		}
		dt := make([]int, len(feat))
		for i := range dt {
			mt := 0
			if zero[i] {
				mt = 1
			} else if r.IntN(2) == 0 {
				mt = 2
			}
			dt[i] = mt << 2
			if dl[i] {
				dt[i] |= 2
			}
		}
		fmt.Fprintf(&b, "Tree=%d\nnum_leaves=%d\nnum_cat=0\nsplit_feature=%s\nthreshold=%s\ndecision_type=%s\nleft_child=%s\nright_child=%s\nleaf_value=%s\nis_linear=0\nshrinkage=1\n\n\n",
			t, len(leaves), ints(feat), floats(thr), ints(dt), ints(left), ints(right), floats(leaves))
	}
	b.WriteString("end of trees\n")
	file := filepath.Join(dir, fmt.Sprintf("lgb%d.txt", seed))
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
	return file, e
}

// TestS29tLightGBMAgainstEnumeration is TestS29tSearchAgainstEnumeration
// for LightGBM text models (x <= t, missing type Zero, float64 sums):
// a file is refused only for a Zero split whose threshold would send an
// input within 1e-35 of 0 off its default side; otherwise scores, max, min and decisions over state boxes
// agree with enumerating the test's evaluator.
func TestS29tLightGBMAgainstEnumeration(t *testing.T) {
	dir := t.TempDir()
	n := xcModels(t, 250)
	loaded, refused, queries := 0, 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r := rand.New(rand.NewPCG(seed, 30))
		nv := 1 + r.IntN(3)
		lo, hi := make([]int, nv), make([]int, nv)
		for v := range lo {
			lo[v] = []int{0, -3, -1, 2, 1 << 40}[r.IntN(5)]
			hi[v] = lo[v] + r.IntN(5)
		}
		file, xe := xcLGBModel(dir, seed, lo, hi)
		m := &symbolic.Model{Name: "xl"}
		d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindTrees, File: file}
		for v := 0; v < nv; v++ {
			m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("v%d", v), Lo: lo[v], Hi: hi[v]})
			d.Inputs = append(d.Inputs, symbolic.Affine{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}})
		}
		for c := 0; c < xe.nclass; c++ {
			m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprintf("l%d", c)})
			d.Outputs = append(d.Outputs, symbolic.LabelID(c))
		}
		p, err := NewPolicy(m, d)
		if err != nil {
			// only a Zero split whose threshold sends some input within
			// 1e-35 of 0 off its default side
			bad := false
			for t := range xe.feat {
				for i := range xe.feat[t] {
					th := xe.thr[t][i]
					if xe.zero[t][i] && !(xe.defLft[t][i] && 1e-35 <= th) && !(!xe.defLft[t][i] && th < -1e-35) {
						bad = true
					}
				}
			}
			if !bad || !strings.Contains(err.Error(), "missing_type=Zero") {
				t.Fatalf("seed %d: %v", seed, err)
			}
			refused++
			continue
		}
		loaded++
		input := func(s []int) []float64 {
			x := make([]float64, nv)
			for v := range x {
				x[v] = float64(s[v])
			}
			return x
		}
		got := make([]float64, xe.nclass)
		testutil.BoxStates(lo, hi, func(s symbolic.State) {
			want := xe.scores(input(s))
			if err := p.Scores(s, got); err != nil {
				t.Fatal(err)
			}
			for c := range want {
				if got[c] != want[c] {
					t.Fatalf("seed %d: state %v class %d: score %v, LightGBM's evaluation %v", seed, s, c, got[c], want[c])
				}
			}
		})
		vb := make(Box, nv)
		for v := range vb {
			vb[v] = Interval{float64(lo[v]), float64(hi[v])}
		}
		for c := 0; c < xe.nclass; c++ {
			imax, imin := math.Inf(-1), math.Inf(1)
			testutil.BoxStates(lo, hi, func(s symbolic.State) {
				v := xe.scores(input(s))[c]
				imax, imin = max(imax, v), min(imin, v)
			})
			rmax, err1 := p.varEns.Max(vb, c, Options{})
			rmin, err2 := p.varEns.Min(vb, c, Options{})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !rmax.Exact || rmax.Lower != imax || !rmin.Exact || rmin.Lower != imin {
				t.Fatalf("seed %d class %d: max %v min %v, enumeration %v %v", seed, c, rmax.Lower, rmin.Lower, imax, imin)
			}
		}
		for q := 0; q < 10; q++ {
			slo, shi := make([]int, nv), make([]int, nv)
			for v := range slo {
				a, b := lo[v]+r.IntN(hi[v]-lo[v]+1), lo[v]+r.IntN(hi[v]-lo[v]+1)
				slo[v], shi[v] = min(a, b), max(a, b)
			}
			a := r.IntN(xe.nclass)
			var sure []int
			for c := 0; c < xe.nclass; c++ {
				if r.IntN(3) != 0 {
					sure = append(sure, c)
				}
			}
			possible := false
			testutil.BoxStates(slo, shi, func(s symbolic.State) {
				sc := xe.scores(input(s))
				ok := true
				for _, c := range sure {
					if c != a && (sc[c] > sc[a] || sc[c] == sc[a] && c < a) {
						ok = false
					}
				}
				possible = possible || ok
			})
			sr, err := p.Excludes(slo, shi, a, sure, Options{})
			if err != nil {
				t.Fatal(err)
			}
			queries++
			if sr.Verdict == Unknown || (sr.Verdict == Refuted) != possible {
				t.Fatalf("seed %d: box %v..%v class %d vs %v: %v, enumeration says possible=%v", seed, slo, shi, a, sure, sr.Verdict, possible)
			}
		}
	}
	if loaded == 0 {
		t.Fatal("no model loaded")
	}
	t.Logf("%d LightGBM models loaded, %d refused (Zero splits against 0), %d decision queries", loaded, refused, queries)
}
