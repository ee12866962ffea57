package trees

import (
	"encoding/json"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

const corpusDir = "../../shared/corpus/trees/veritas"

type corpusEntry struct {
	Features int                `json:"features"`
	Classes  int                `json:"classes"`
	Global   map[string]float64 `json:"global"`
	Box030   map[string]float64 `json:"box_0_30"`
}

// TestVeritasCorpus checks exactness against expected.json: the global and
// [0, 30)-box maxima and minima (and margins where listed).
func TestVeritasCorpus(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpusDir, "expected.json"))
	if err != nil {
		t.Skipf("corpus absent (%v): the external Veritas corpus lives in ../shared/corpus", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for name, msg := range raw {
		if name[0] == '_' {
			continue
		}
		var want corpusEntry
		if err := json.Unmarshal(msg, &want); err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			e, err := Load(filepath.Join(corpusDir, name))
			if err != nil {
				t.Fatal(err)
			}
			if e.NumFeatures > want.Features || e.NumClasses != want.Classes {
				t.Fatalf("features %d classes %d, want %d and %d", e.NumFeatures, e.NumClasses, want.Features, want.Classes)
			}
			global := make(Box, e.NumFeatures)
			box := make(Box, e.NumFeatures)
			for f := range global {
				global[f] = Interval{math.Inf(-1), math.Inf(1)}
				box[f] = Interval{0, math.Nextafter(30, 0)}
			}
			for _, c := range []struct {
				name string
				box  Box
				want map[string]float64
			}{{"global", global, want.Global}, {"box_0_30", box, want.Box030}} {
				for key, v := range c.want {
					got, ok := corpusQuery(t, e, c.box, key)
					if !ok {
						continue
					}
					if !close(got, v) {
						t.Errorf("%s %s = %v, want %v", c.name, key, got, v)
					}
				}
			}
		})
	}
}

func corpusQuery(t *testing.T, e *Ensemble, box Box, key string) (float64, bool) {
	var r Result
	var err error
	var class int
	switch {
	case key == "max":
		r, err = e.Max(box, 0, Options{})
	case key == "min":
		r, err = e.Min(box, 0, Options{})
	case len(key) > len("margin_max_class") && key[:len("margin_max_class")] == "margin_max_class":
		class = int(key[len(key)-1] - '0')
		r, err = e.Margin(box, class, Options{})
	default:
		t.Logf("unknown expectation %q", key)
		return 0, false
	}
	if err != nil {
		t.Fatal(err)
	}
	if !r.Exact {
		t.Fatalf("%s: search did not finish: %+v", key, r)
	}
	t.Logf("%s = %v (%d nodes, %v)", key, r.Lower, r.Nodes, r.Time)
	return r.Lower, true
}

func close(a, b float64) bool {
	return math.Abs(a-b) <= 1e-9*max(1, math.Abs(b))
}

// TestVeritasCorpusForest checks the random forest of the corpus, whose
// expected.json lists no optima (its 4.2 million split cells are too many
// for routine brute force): every class margin search finishes, its witness
// attains it, and no random input exceeds it.
func TestVeritasCorpusForest(t *testing.T) {
	e, err := Load(filepath.Join(corpusDir, "rf_model.json"))
	if err != nil {
		t.Skipf("corpus absent (%v): the external Veritas corpus lives in ../shared/corpus", err)
	}
	box := make(Box, e.NumFeatures)
	for f := range box {
		box[f] = Interval{-1, 4}
	}
	rng := rand.New(rand.NewSource(9))
	sc := make([]float64, e.NumClasses)
	x := make([]float64, e.NumFeatures)
	for c := 0; c < e.NumClasses; c++ {
		r, err := e.Margin(box, c, Options{})
		if err != nil || !r.Exact {
			t.Fatalf("class %d: %+v %v", c, r, err)
		}
		e.Scores(r.Witness, sc)
		if m := margin(sc, c); m != r.Lower {
			t.Fatalf("class %d: witness margin %v, search %v", c, m, r.Lower)
		}
		for i := 0; i < 2000; i++ {
			for f := range x {
				x[f] = float64(rng.Intn(11))/2 - 1
			}
			e.Scores(x, sc)
			if m := margin(sc, c); m > r.Lower {
				t.Fatalf("class %d: input %v has margin %v above the optimum %v", c, x, m, r.Lower)
			}
		}
	}
}

func margin(sc []float64, c int) float64 {
	m := math.Inf(1)
	for o := range sc {
		if o != c {
			m = min(m, sc[c]-sc[o])
		}
	}
	return m
}
