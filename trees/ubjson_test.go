package trees

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ubjPairs are testdata/ubj/*.json with their .ubj twins (make.py: the
// same XGBoost booster saved both ways).
func ubjPairs(t testing.TB) []string {
	names, _ := filepath.Glob("testdata/ubj/*.ubj")
	if len(names) < 4 {
		t.Fatalf("testdata/ubj: %d UBJSON models, want 4", len(names))
	}
	return names
}

// TestUBJSONMatchesJSON: XGBoost's UBJSON model decodes to the document
// of its JSON save (every number equal as float64, so thresholds and
// leaves keep their bits), and the ensembles score alike at random inputs
// and at every threshold.
func TestUBJSONMatchesJSON(t *testing.T) {
	for _, ubj := range ubjPairs(t) {
		js := strings.TrimSuffix(ubj, ".ubj") + ".json"
		ub, err := os.ReadFile(ubj)
		if err != nil {
			t.Fatal(err)
		}
		jb, err := os.ReadFile(js)
		if err != nil {
			t.Fatal(err)
		}
		dec, err := ubjsonToJSON(ub)
		if err != nil {
			t.Fatalf("%s: %v", ubj, err)
		}
		var a, b any
		if err := json.Unmarshal(dec, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(jb, &b); err != nil {
			t.Fatal(err)
		}
		if path := sameDoc("", a, b); path != "" {
			t.Errorf("%s: the decoded document differs from %s at %s", ubj, js, path)
		}
		eu, err := Parse(ub)
		if err != nil {
			t.Fatalf("%s: %v", ubj, err)
		}
		ej, err := Parse(jb)
		if err != nil {
			t.Fatalf("%s: %v", js, err)
		}
		r := rand.New(rand.NewPCG(20, uint64(len(ub))))
		x := make([]float64, ej.NumFeatures)
		su, sj := make([]float64, ej.NumClasses), make([]float64, ej.NumClasses)
		var thresholds []float64
		for _, tr := range ej.Trees {
			for _, n := range tr.Nodes {
				if n.Feature >= 0 {
					thresholds = append(thresholds, n.Threshold)
				}
			}
		}
		for i := 0; i < 2000; i++ {
			for k := range x {
				x[k] = float64(r.IntN(41)-20) / 3
				if i%2 == 1 && len(thresholds) > 0 {
					x[k] = thresholds[r.IntN(len(thresholds))]
				}
			}
			if err := eu.Scores(x, su); err != nil {
				t.Fatal(err)
			}
			if err := ej.Scores(x, sj); err != nil {
				t.Fatal(err)
			}
			for c := range su {
				if math.Float64bits(su[c]) != math.Float64bits(sj[c]) {
					t.Fatalf("%s at %v: class %d scores %v from UBJSON, %v from JSON", ubj, x, c, su[c], sj[c])
				}
			}
		}
	}
}

// TestUBJSONMalformed: every cut of a model, and hand-made documents
// that lie about their sizes, are errors naming UBJSON and a byte, never
// a panic or a huge allocation.
func TestUBJSONMalformed(t *testing.T) {
	ub, err := os.ReadFile(ubjPairs(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n < len(ub); n += 1 + n/50 {
		if _, err := Parse(ub[:n]); err == nil {
			t.Errorf("the first %d of %d bytes loaded", n, len(ub))
		}
	}
	for name, doc := range map[string]string{
		"huge count":        "{L\x00\x00\x00\x00\x00\x00\x00\x07learner[#L\x7f\xff\xff\xff\xff\xff\xff\xff]}",
		"count past end":    "{L\x00\x00\x00\x00\x00\x00\x00\x07learner[$d#l\x00\x10\x00\x00\x00}",
		"negative length":   "{L\x00\x00\x00\x00\x00\x00\x00\x07learnerSi\xff}",
		"typed, no count":   "{L\x00\x00\x00\x00\x00\x00\x00\x07learner[$d\x00}",
		"unknown marker":    "{L\x00\x00\x00\x00\x00\x00\x00\x07learnerq}",
		"NaN":               "{L\x00\x00\x00\x00\x00\x00\x00\x07learnerd\x7f\xc0\x00\x00}",
		"trailing bytes":    "{L\x00\x00\x00\x00\x00\x00\x00\x07learnerZ}}}",
		"deep":              "{L\x00\x00\x00\x00\x00\x00\x00\x07learner" + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "}",
		"bad high-prec":     "{L\x00\x00\x00\x00\x00\x00\x00\x07learnerHi\x03abc}",
		"minimal, no trees": "{L\x00\x00\x00\x00\x00\x00\x00\x07learner{L\x00\x00\x00\x00\x00\x00\x00\x10gradient_booster{}}}",
	} {
		_, err := Parse([]byte(doc))
		if err == nil || !strings.HasPrefix(err.Error(), "trees: ") {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if name != "minimal, no trees" && !strings.Contains(err.Error(), "UBJSON model, byte ") {
			t.Errorf("%s: %v, want the byte named", name, err)
		}
		if name == "minimal, no trees" && !strings.Contains(err.Error(), "decoded from UBJSON") {
			t.Errorf("%s: %v, want it said that the model was decoded from UBJSON", name, err)
		}
	}
}

func FuzzLoadUBJSON(f *testing.F) {
	for _, name := range ubjPairs(f) {
		b, _ := os.ReadFile(name)
		f.Add(b)
	}
	f.Add([]byte("{L\x00\x00\x00\x00\x00\x00\x00\x07learner[$U#i\x03\x01\x02\x03}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if !bytes.HasPrefix(bytes.TrimSpace(data), []byte("{")) {
			return
		}
		exercise(t, Parse, data)
	})
}

// sameDoc returns the first path where the documents a and b differ ("":
// none). Numbers are equal when their float32 roundings are: XGBoost's
// JSON writes a float32 by its shortest decimal (-0.8333334), UBJSON by
// its bits, which ubjsonToJSON writes as the float64 it equals
// (-0.8333333730697632).
func sameDoc(path string, a, b any) string {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return path
		}
		for k := range x {
			if _, ok := y[k]; !ok {
				return path + "." + k
			}
			if p := sameDoc(path+"."+k, x[k], y[k]); p != "" {
				return p
			}
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return path
		}
		for i := range x {
			if p := sameDoc(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); p != "" {
				return p
			}
		}
	case float64:
		y, ok := b.(float64)
		if !ok || float32(x) != float32(y) {
			return path
		}
	default:
		if a != b {
			return path
		}
	}
	return ""
}
