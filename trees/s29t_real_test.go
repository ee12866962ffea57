package trees

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/symbolic"
)

// TestS29tRealXGBoostSearch trains XGBoost models over small integer grids
// with the installed XGBoost (testdata/s29t/make.py: multi-class with
// num_parallel_tree 1..3, set base scores, the exact, hist and approx
// tree methods, the scikit-learn interface, a regression model, features
// around 2^24) and checks the search against XGBoost's own margins at
// every grid point: the policy's scores equal them; the lifted max and min
// of each class equal the grid's; and every decision query over random
// sub-boxes (ties to the earlier output) agrees with the grid, its witness
// box included.
func TestS29tRealXGBoostSearch(t *testing.T) {
	if err := exec.Command("/usr/bin/python3", "-c", "import xgboost, numpy").Run(); err != nil {
		t.Skip("python3-xgboost not installed")
	}
	dir := t.TempDir()
	if out, err := exec.Command("/usr/bin/python3", filepath.Join("testdata", "s29t", "make.py"), dir).CombinedOutput(); err != nil {
		t.Fatalf("make.py: %v\n%s", err, out)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*.grid.json"))
	if len(names) < 12 {
		t.Fatalf("make.py wrote %d models", len(names))
	}
	queries := 0
	for _, gname := range names {
		file := strings.TrimSuffix(gname, ".grid.json") + ".json"
		var g struct {
			Lo, Hi  []int
			Points  [][]int
			Margins [][]float64
		}
		b, err := os.ReadFile(gname)
		if err == nil {
			err = json.Unmarshal(b, &g)
		}
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(file)
		nv := len(g.Lo)
		nclass := len(g.Margins[0])
		m := &symbolic.Model{Name: "real"}
		d := &symbolic.PolicyDecl{Name: "pi", Kind: symbolic.KindTrees, File: file}
		for v := 0; v < nv; v++ {
			m.Vars = append(m.Vars, symbolic.Var{Name: fmt.Sprintf("v%d", v), Lo: g.Lo[v], Hi: g.Hi[v]})
			d.Inputs = append(d.Inputs, symbolic.Affine{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: symbolic.VarID(v)}}})
		}
		for c := 0; c < nclass; c++ {
			m.Labels = append(m.Labels, symbolic.Label{Name: fmt.Sprintf("l%d", c)})
			d.Outputs = append(d.Outputs, symbolic.LabelID(c))
		}
		p, err := NewPolicy(m, d)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if ok, why := p.Exact(); !ok {
			t.Fatalf("%s: not lifted: %s", name, why)
		}
		// index the grid
		at := map[string][]float64{}
		key := func(s []int) string { return fmt.Sprint(s) }
		got := make([]float64, nclass)
		for i, s := range g.Points {
			at[key(s)] = g.Margins[i]
			if err := p.Scores(s, got); err != nil {
				t.Fatal(err)
			}
			for c := range got {
				if got[c] != g.Margins[i][c] {
					t.Fatalf("%s: state %v class %d: score %v, XGBoost %v", name, s, c, got[c], g.Margins[i][c])
				}
			}
		}
		for c := 0; c < nclass; c++ {
			imax, imin := math.Inf(-1), math.Inf(1)
			for _, mg := range g.Margins {
				imax, imin = max(imax, mg[c]), min(imin, mg[c])
			}
			vb := make(Box, nv)
			for v := range vb {
				vb[v] = Interval{float64(g.Lo[v]), float64(g.Hi[v])}
			}
			rmax, err1 := p.varEns.Max(vb, c, Options{})
			rmin, err2 := p.varEns.Min(vb, c, Options{})
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if !rmax.Exact || rmax.Lower != imax || !rmin.Exact || rmin.Lower != imin {
				t.Fatalf("%s class %d: max %v (exact %v), min %v (exact %v); XGBoost's grid: %v, %v", name, c, rmax.Lower, rmax.Exact, rmin.Lower, rmin.Exact, imax, imin)
			}
		}
		if nclass < 2 {
			continue
		}
		r := rand.New(rand.NewPCG(uint64(len(name)), uint64(nclass)))
		for q := 0; q < 40; q++ {
			slo, shi := make([]int, nv), make([]int, nv)
			for v := range slo {
				a, b := g.Lo[v]+r.IntN(g.Hi[v]-g.Lo[v]+1), g.Lo[v]+r.IntN(g.Hi[v]-g.Lo[v]+1)
				slo[v], shi[v] = min(a, b), max(a, b)
			}
			a := r.IntN(nclass)
			var sure []int
			for c := 0; c < nclass; c++ {
				if c != a && r.IntN(4) != 0 {
					sure = append(sure, c)
				}
			}
			wins := func(s []int) bool {
				mg := at[key(s)]
				for _, c := range sure {
					if mg[c] > mg[a] || (mg[c] == mg[a] && c < a) {
						return false
					}
				}
				return true
			}
			possible := false
			testutil.BoxStates(slo, shi, func(s symbolic.State) { possible = possible || wins(s) })
			sr, err := p.Excludes(slo, shi, a, sure, Options{})
			if err != nil {
				t.Fatal(err)
			}
			queries++
			what := fmt.Sprintf("%s: box %v..%v, class %d vs %v", name, slo, shi, a, sure)
			switch {
			case sr.Verdict == Unknown:
				t.Fatalf("%s: unknown", what)
			case (sr.Verdict == Proved) == possible:
				t.Fatalf("%s: %v, but the grid says possible=%v", what, sr.Verdict, possible)
			case sr.Verdict == Refuted:
				testutil.BoxStates(sr.WitnessLo, sr.WitnessHi, func(s symbolic.State) {
					for v := range s {
						if s[v] < slo[v] || s[v] > shi[v] {
							t.Fatalf("%s: witness box %v..%v leaves the box", what, sr.WitnessLo, sr.WitnessHi)
						}
					}
					if !wins(s) {
						t.Fatalf("%s: state %v of the witness box does not let it win", what, s)
					}
				})
			}
		}
	}
	t.Logf("%d models, %d decision queries", len(names), queries)
}
