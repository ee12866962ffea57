package trees

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/testutil"
	"vigil/lang"
	"vigil/symbolic"
)

// TestReview20rPolicyAgainstStates: the state-level query (what PolIC3,
// ppa and cert check ask) over XGBoost files with rounding float32 sums,
// read through scaled, shifted and decreasing inputs (x / 3, 1 - x / 7,
// 5 - 2 * y, (x - 1) / 10: the lifting to state variables swaps the
// children of a decreasing input), against every state of random boxes
// evaluated by the independent raw float32 reading of the trees.
func TestReview20rPolicyAgainstStates(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	dir := t.TempDir()
	inputs := []string{"x / 3", "1 - x / 7", "5 - 2 * y", "(x - 1) / 10", "y", "-x"}
	// Thresholds that the inputs reach or straddle once rounded.
	review := review20rThresholds
	defer func() { review20rThresholds = review }()
	review20rThresholds = []float32{0, 0.5, 1.0 / 3, 2.0 / 3, 1, 1.5, -0.5, 0.1, 0.7, -1.0 / 7, 3, 5, 11}
	proved, refuted := 0, 0
	for iter := 0; iter < 60; iter++ {
		nclass := 2 + rng.Intn(2)
		data, raws, base := review20rEnsemble(rng, 2, nclass, 1+rng.Intn(5))
		file := filepath.Join(dir, "m.json")
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		in := []string{inputs[rng.Intn(len(inputs))], inputs[rng.Intn(len(inputs))]}
		outs := []string{"a", "b", "c"}[:nclass]
		src := "var x : 0 .. 12 = 0\nvar y : -3 .. 3 = 0\n"
		for _, o := range outs {
			src += "action " + o + " -> x' = x\n"
		}
		src += `policy trees pi "` + file + `" {` + "\n inputs " + strings.Join(in, ", ") + "\n outputs " + strings.Join(outs, ", ") + "\n}\n"
		m, diags := lang.LoadSource(filepath.Join(dir, "m.spec"), []byte(src), lang.Options{})
		if diags.HasErrors() {
			t.Fatalf("%s\n%s", diags.Render(), src)
		}
		pol, err := symbolic.Instantiate(m, m.Policies[0])
		if err != nil {
			t.Fatal(err)
		}
		p := pol.(*Policy)
		if exact, why := p.Exact(); !exact {
			t.Fatalf("inputs %v: not exact: %s", in, why)
		}
		ref := func(s symbolic.State) []float64 {
			x := []float64{p.Decl.Inputs[0].Eval(s), p.Decl.Inputs[1].Eval(s)}
			sc := make([]float32, nclass)
			copy(sc, base)
			for i := range raws {
				sc[raws[i].class] += raws[i].leaf(x)
			}
			out := make([]float64, nclass)
			for c := range sc {
				out[c] = float64(sc[c])
			}
			return out
		}
		for q := 0; q < 20; q++ {
			lo, hi := make([]int, 2), make([]int, 2)
			for v, va := range m.Vars {
				a, b := va.Lo+rng.Intn(va.Size()), va.Lo+rng.Intn(va.Size())
				lo[v], hi[v] = min(a, b), max(a, b)
			}
			a := rng.Intn(nclass)
			var sure []int
			for c := 0; c < nclass; c++ {
				if c != a || rng.Intn(2) == 0 {
					sure = append(sure, c)
				}
			}
			can := false
			testutil.BoxStates(lo, hi, func(s symbolic.State) {
				can = can || wins(ref(s), a, sure)
			})
			d, err := p.Excludes(lo, hi, a, sure, Options{})
			if err != nil {
				t.Fatal(err)
			}
			switch d.Verdict {
			case Proved:
				proved++
				if can {
					t.Fatalf("inputs %v box %v..%v: class %d excluded but wins in a state\n%s", in, lo, hi, a, data)
				}
			case Refuted:
				refuted++
				if !wins(ref(d.Witness), a, sure) {
					t.Fatalf("inputs %v: witness %v does not let class %d win\n%s", in, d.Witness, a, data)
				}
				testutil.BoxStates(d.WitnessLo, d.WitnessHi, func(s symbolic.State) {
					if !wins(ref(s), a, sure) {
						t.Fatalf("inputs %v: class %d does not win at %v in the witness box %v..%v\n%s", in, a, s, d.WitnessLo, d.WitnessHi, data)
					}
				})
			default:
				t.Fatalf("unknown without a budget")
			}
			if (d.Verdict == Refuted) != can {
				t.Fatalf("inputs %v box %v..%v class %d: verdict %v, states say can=%v\n%s", in, lo, hi, a, d.Verdict, can, data)
			}
		}
	}
	if proved == 0 || refuted == 0 {
		t.Fatalf("only %d excluded and %d possible answers: the test checks too little", proved, refuted)
	}
}
