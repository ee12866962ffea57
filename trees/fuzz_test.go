package trees

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"vigil/internal/fuzzseed"
)

func seeds(f *testing.F, pattern string) {
	fuzzseed.AddFiles(f, pattern)
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
	for _, s := range veritasEdgeCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkVeritasFast(t, data)
		exercise(t, ParseVeritas, data)
	})
}

// veritasEdgeCases are inputs where the fast Veritas decoder must read
// exactly what encoding/json reads (the first two and the last three) or
// give up (the others).
var veritasEdgeCases = []string{
	`{"trees":[{"structure":{"leaf_value":1}}],"base_scores":[0]}`,
	`{"trees":[{"structure":{"leaf_value":[1,2]}}],"base_scores":[0,0],"extra":{"a":[1,{"b":true}],"c":"x"}}`,
	`{"trees":[{"structure":{"leaf_value":1,"leaf_value":2}}],"base_scores":[0]}`,
	`{"Trees":[{"structure":{"leaf_value":1}}],"base_scores":[0]}`,
	`{"trees":[{"structure":{"LEAF_VALUE":1}}],"base_scores":[0]}`,
	`{"at_type":"RE\u0047R","trees":[{"structure":{"leaf_value":1}}],"base_scores":[0]}`,
	`{"trees":[{"structure":{"feat_id":1.0,"split_value":1,"left":{"leaf_value":1},"right":{"leaf_value":2}}}],"base_scores":[0]}`,
	`{"trees":[{"structure":{"feat_id":1,"split_value":1e400,"left":{"leaf_value":1},"right":{"leaf_value":2}}}],"base_scores":[0]}`,
	`{"trees":[{"structure":null}],"base_scores":[0]}`,
	`{"trees":[{"structure":{"leaf_value":1}}],"base_scores":[0]} x`,
	`{"trees":[{"structure":{"leaf_value":01}}],"base_scores":[0]}`,
	`{"trees":[{"structure":{"leaf_value":"1"}}],"base_scores":[0]}`,
	`{"trees":[],"base_scores":[],"at_type":"CLF_MEAN"}`,
	`{"trees":[{"structure":{"feat_id":-0,"split_value":-0.0,"left":{"leaf_value":1e-400},"right":{"leaf_value":[]}}}],"base_scores":[0]}`,
	` {"trees" : [ { "structure" : { "leaf_value" : [ 1 ] } } ] , "base_scores" : [ 0 ] } ` + "\n",
}

// checkVeritasFast: when the fast Veritas decoder reads data, encoding/json
// reads it too, into the same file.
func checkVeritasFast(t *testing.T, data []byte) {
	t.Helper()
	got, ok := decodeVeritasFast(data)
	if !ok {
		return
	}
	var want veritasFile
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("the fast decoder reads %q, encoding/json does not: %v", data, err)
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("the fast decoder reads %q as\n%s\nencoding/json as\n%s", data, g, w)
	}
}

// TestVeritasFast: the fast decoder reads the corpus and the fixtures as
// encoding/json does, and gives up on the edge cases it cannot be sure of.
func TestVeritasFast(t *testing.T) {
	paths, _ := filepath.Glob("testdata/veritas_*.json")
	corpus, _ := filepath.Glob(filepath.Join(corpusDir, "*.json"))
	read := 0
	for _, p := range append(paths, corpus...) {
		if filepath.Base(p) == "expected.json" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := decodeVeritasFast(data); !ok {
			t.Errorf("%s: the fast decoder gives up on a well-formed model", p)
		}
		checkVeritasFast(t, data)
		read++
	}
	t.Logf("%d models read", read)
	for _, s := range veritasEdgeCases {
		checkVeritasFast(t, []byte(s))
	}
	for _, s := range veritasEdgeCases[2:12] {
		if _, ok := decodeVeritasFast([]byte(s)); ok {
			t.Errorf("the fast decoder reads %s; it should leave it to encoding/json", s)
		}
	}
}

// FuzzParseBox reads arbitrary text as vigil trees' --box (over the four
// features of xgb_multi.json) and --sure values: nothing panics; an
// accepted box has one non-empty interval per feature, with no NaN, and
// the search over it answers with a witness inside it.
func FuzzParseBox(f *testing.F) {
	for _, s := range []string{"0:0..30,2:..<5", "", "1:..", "3:-1e308..1e308", "0:Inf..Inf", "0:..<-1.7976931348623157e308", "0:1..<1", "0:5e-324..<5e-324", "1,2", "0,x", "-1"} {
		f.Add(s)
	}
	data, err := os.ReadFile("testdata/xgb_multi.json")
	if err != nil {
		f.Fatal(err)
	}
	e, err := ParseXGBoost(data)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ParseClasses(s)
		box, err := ParseBox(s, e.NumFeatures)
		if err != nil {
			return
		}
		if len(box) != e.NumFeatures {
			t.Fatalf("%d intervals for %d features", len(box), e.NumFeatures)
		}
		for i, iv := range box {
			if !(iv.Lo <= iv.Hi) || math.IsInf(iv.Lo, 1) || math.IsInf(iv.Hi, -1) {
				t.Fatalf("feature %d: empty interval %v accepted", i, iv)
			}
		}
		r, err := e.Max(box, 0, Options{MaxNodes: 50})
		if err != nil {
			t.Fatal(err)
		}
		for i, x := range r.Witness {
			if !(box[i].Lo <= x && x <= box[i].Hi) {
				t.Fatalf("witness %v outside the box %v", r.Witness, box)
			}
		}
	})
}
