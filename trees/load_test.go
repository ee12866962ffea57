package trees

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// XGBoost sums float32 leaves in float32; vigil sums them in float64. The
// margins therefore agree to float32 precision, while a split taken the
// wrong way would shift a margin by a whole leaf value.
func marginsClose(got, want float64) bool {
	return math.Abs(got-want) <= 2e-6*(1+math.Abs(want))
}

func TestXGBoostAgreesWithXGBoost(t *testing.T) {
	data, err := os.ReadFile("testdata/xgb_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]struct {
		Inputs  [][]float64 `json:"inputs"`
		Margins [][]float64 `json:"margins"`
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	if len(exp) < 4 {
		t.Fatalf("only %d fixtures", len(exp))
	}
	for name, fx := range exp {
		t.Run(name, func(t *testing.T) {
			e, err := Load(filepath.Join("testdata", name))
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.ScoresBatch(fx.Inputs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range fx.Margins {
				for c := range want {
					if !marginsClose(got[i][c], want[c]) {
						t.Errorf("input %d %v class %d: vigil %v, XGBoost %v", i, fx.Inputs[i], c, got[i][c], want[c])
					}
				}
			}
		})
	}
}

// TestXGBThreshold checks the float32 rounding boundary directly.
func TestXGBThreshold(t *testing.T) {
	for _, th := range []float32{0, 1, -1, 0.1, -0.1, 3.3, 1e-40, -1e-40, math.MaxFloat32, -math.MaxFloat32, 1.0000001, 16777217} {
		T := xgbThreshold(th)
		for _, x := range []float64{T, math.Nextafter(T, math.Inf(-1)), math.Nextafter(T, math.Inf(1)), float64(th),
			math.Nextafter(float64(th), math.Inf(-1)), math.Nextafter(float64(th), math.Inf(1))} {
			if (float32(x) < th) != (x < T) {
				t.Errorf("threshold %v: x=%v: float32 says %v, T=%v says %v", th, x, float32(x) < th, T, x < T)
			}
		}
	}
}

func TestOnewayPoliciesAgreeWithXGBoost(t *testing.T) {
	data, err := os.ReadFile("testdata/oneway_expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp struct {
		States    [][4]int    `json:"states"`
		Argmax    []int       `json:"argmax"`
		Sample    []int       `json:"sample"`
		Margins   [][]float64 `json:"margins"`
		NNArgmax  []int       `json:"nn_argmax"`
		NNMargins [][]float64 `json:"nn_margins"`
	}
	if err := json.Unmarshal(data, &exp); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		file    string
		argmax  []int
		margins [][]float64
	}{
		{"oneway_trees.json", exp.Argmax, exp.Margins},
		{"oneway_trees_nn.json", exp.NNArgmax, exp.NNMargins},
	} {
		e, err := Load("../specs/policies/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		if e.NumClasses != 6 || e.NumFeatures != 4 {
			t.Fatalf("%s: classes %d features %d, want 6 and 4", c.file, e.NumClasses, e.NumFeatures)
		}
		if len(c.argmax) != len(exp.States) || len(c.margins) != len(exp.Sample) {
			t.Fatalf("%s: fixture incomplete", c.file)
		}
		sc := make([]float64, 6)
		// The inputs exactly as symbolic.Affine.Eval computes them.
		input := func(s [4]int) []float64 {
			return []float64{0.0 + (1.0/15)*float64(s[0]), 0.0 + (1.0/3)*float64(s[1]), 0.0 + (1.0/3)*float64(s[2]), 0.0 + 1.0*float64(s[3])}
		}
		for i, s := range exp.States {
			if err := e.Scores(input(s), sc); err != nil {
				t.Fatal(err)
			}
			best := 0
			for k := range sc {
				if sc[k] > sc[best] {
					best = k
				}
			}
			if best != c.argmax[i] {
				t.Errorf("%s: state %v: vigil chooses %d, XGBoost %d (scores %v)", c.file, s, best, c.argmax[i], sc)
			}
		}
		for j, i := range exp.Sample {
			e.Scores(input(exp.States[i]), sc)
			for k, want := range c.margins[j] {
				if !marginsClose(sc[k], want) {
					t.Errorf("%s: state %v class %d: vigil %v, XGBoost %v", c.file, exp.States[i], k, sc[k], want)
				}
			}
		}
	}
}
