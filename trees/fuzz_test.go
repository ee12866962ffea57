package trees

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"vigil/internal/fuzzseed"
)

func seeds(f *testing.F, pattern string) {
	paths, _ := filepath.Glob(pattern)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		for _, v := range fuzzseed.Variants(data) {
			f.Add(v)
		}
	}
	f.Add(fuzzseed.Deep("[", "1", "]"))
	f.Add(fuzzseed.Deep(`{"left":`, `{"leaf_value":1}`, "}"))
}

// exercise loads data with parse and, when it loads, evaluates and searches
// it: nothing may panic, and loaded ensembles must be usable.
func exercise(t *testing.T, parse func([]byte) (*Ensemble, error), data []byte) {
	e, err := parse(data)
	if err != nil {
		if len(err.Error()) < 7 || err.Error()[:7] != "trees: " {
			t.Fatalf("error without prefix: %v", err)
		}
		return
	}
	if e.NumFeatures > 1<<12 || len(e.Trees) > 1<<10 {
		return
	}
	x := make([]float64, e.NumFeatures)
	sc := make([]float64, e.NumClasses)
	if err := e.Scores(x, sc); err != nil {
		t.Fatal(err)
	}
	box := make(Box, e.NumFeatures)
	for i := range box {
		box[i] = Interval{-1, 1}
	}
	r, err := e.Max(box, 0, Options{MaxNodes: 50})
	if err != nil {
		t.Fatal(err)
	}
	if r.Witness != nil {
		e.Scores(r.Witness, sc)
		if sc[0] < r.Lower || math.IsNaN(r.Upper) {
			t.Fatalf("witness scores %v below lower bound %v", sc[0], r.Lower)
		}
	}
	if _, err := e.Excludes(box, 0, []int{e.NumClasses - 1}, Options{MaxNodes: 50}); err != nil {
		t.Fatal(err)
	}
}

func FuzzLoadXGBoost(f *testing.F) {
	seeds(f, "testdata/xgb_*.json")
	f.Fuzz(func(t *testing.T, data []byte) { exercise(t, ParseXGBoost, data) })
}

func FuzzLoadLightGBM(f *testing.F) {
	seeds(f, "testdata/lgb_*.txt")
	f.Fuzz(func(t *testing.T, data []byte) { exercise(t, ParseLightGBM, data) })
}

func FuzzLoadVeritas(f *testing.F) {
	seeds(f, "testdata/veritas_*.json")
	f.Add([]byte(`{"at_type":"REGR","base_scores":[1],"trees":[{"num_leaf_values":1,"split_type":"LtSplit","structure":{"feat_id":0,"split_value":0.5,"left":{"leaf_value":[1]},"right":{"leaf_value":[2]}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) { exercise(t, ParseVeritas, data) })
}
