package trees

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/symbolic"
)

// s32uVeritasJSON writes e (one class per tree) as a Veritas JSON file.
func s32uVeritasJSON(e *Ensemble) ([]byte, error) {
	type node map[string]any
	var walk func(t *Tree, i int) node
	walk = func(t *Tree, i int) node {
		n := t.Nodes[i]
		if n.Feature < 0 {
			v := make([]float64, e.NumClasses)
			v[t.Class] = t.Values[n.Leaf]
			return node{"leaf_value": v}
		}
		return node{"feat_id": n.Feature, "split_value": n.Threshold, "left": walk(t, n.Left), "right": walk(t, n.Right)}
	}
	var trees []any
	for ti := range e.Trees {
		trees = append(trees, map[string]any{"num_leaf_values": e.NumClasses, "split_type": "LtSplit", "structure": walk(&e.Trees[ti], 0)})
	}
	return json.Marshal(map[string]any{"at_type": "CLF_MEAN", "base_scores": e.Base, "trees": trees})
}

// TestS32uWriteStopModel writes, when VIGIL_S32U_WRITE names a
// directory, the model of trees/FIGURES.md's stop figure: six variables
// 0..1000 read by 200 trees of depth 8 (three classes, class a leading
// by 100), where PolIC3's queries whether b is ever chosen take seconds
// each. Without the variable it checks that the file loads and agrees
// with the ensemble it was written from.
func TestS32uWriteStopModel(t *testing.T) {
	e := s29Ensemble(t, rand.New(rand.NewPCG(32, 21)), s29Shape{Trees: 200, Depth: 8, Features: 6, Classes: 3,
		Thresholds: 1000, Leaf: (*rand.Rand).NormFloat64})
	e.Base[0] += 100
	js, err := s32uVeritasJSON(e)
	if err != nil {
		t.Fatal(err)
	}
	dir := os.Getenv("VIGIL_S32U_WRITE")
	if dir == "" {
		dir = t.TempDir()
	}
	var vars []string
	for v := 0; v < 6; v++ {
		vars = append(vars, fmt.Sprintf("var v%d : 0 .. 1000 = 500", v))
	}
	spec := "// trees/FIGURES.md's stop figure (TestS32uWriteStopModel): a, b, c move\n" +
		"// the state; b alone reaches the unsafe corner.\nmodel s32ustop\n" + strings.Join(vars, "\n") + "\n" +
		"var done : 0 .. 1 = 0\n" +
		"action a when done == 0 && v0 < 1000 -> v0' = v0 + 1\n" +
		"action b when done == 0 -> done' = 1\n" +
		"action c when done == 0 && v1 > 0 -> v1' = v1 - 1\n" +
		"property p { unsafe done == 1 }\n" +
		"policy trees pi \"s32u_stop.json\" {\n    inputs v0, v1, v2, v3, v4, v5\n    outputs a, b, c\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "s32u_stop.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "s32u_stop.spec"), []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Load(filepath.Join(dir, "s32u_stop.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	x, s1, s2 := make([]float64, 6), make([]float64, 3), make([]float64, 3)
	for i := 0; i < 200; i++ {
		for f := range x {
			x[f] = float64(r.IntN(1001))
		}
		if err := e.Scores(x, s1); err != nil {
			t.Fatal(err)
		}
		if err := back.Scores(x, s2); err != nil {
			t.Fatal(err)
		}
		for c := range s1 {
			if s1[c] != s2[c] {
				t.Fatalf("at %v class %d: written %v, read back %v", x, c, s1[c], s2[c])
			}
		}
	}
}

// BenchmarkS32uLift: lifting the splits of 1,000 trees of depth 10 over
// six variables of range ±2^53 to the state variables (Policy.lift, run
// by NewPolicy at load; trees/FIGURES.md).
func BenchmarkS32uLift(b *testing.B) {
	m := s32uStopModel()
	p, _, err := Random(m, []symbolic.LabelID{0, 1, 2}, 3, 1000, 10)
	if err != nil {
		b.Fatal(err)
	}
	for v := range m.Vars {
		m.Vars[v].Lo, m.Vars[v].Hi = -1<<53, 1<<53
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if e, why := p.lift(); e == nil {
			b.Fatal(why)
		}
	}
}
