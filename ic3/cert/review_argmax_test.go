package cert

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"vigil/lang"
	"vigil/symbolic"
)

// TestCheckFactArgMaxAllTieRegion: a region fact that holds only under
// argmax all. The network scores x (applicable only where v > d + 5) and
// up equally on the diagonal d = v, x listed first: read argmax all, x
// wins and up is never chosen there; read argmax applicable, up wins. A
// certificate whose model hash was forged for the other reading reaches
// CheckFact with the declaration as loaded, so the fact must hold for the
// first reading and fail for the second (bench/adversarial
// review_region_argmax_all_tie is the command-line case).
func TestCheckFactArgMaxAllTieRegion(t *testing.T) {
	dir := t.TempDir()
	spec := `model tie
const N = 1000
var d : 0 .. N = 500
var v : 0 .. N = 0
action go when d > 0 -> d' = d - 1
action x when v > d + 5 -> skip
action up when v < N -> v' = v + 1
action down when v > 0 -> v' = v - 1
action stop -> skip
policy nn net "tie.json" {
    inputs  (d - v - 1) / N, (v - d + 1) / N
    outputs go, x, up, down, stop
    argmax all
}
property p { unsafe v > d }
`
	net := `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[1, 0], [0, 1]], "bias": [0, 0], "activation": "relu"}, {"weights": [[0, 0], [0, 1], [1, 1], [0, 0], [0, 0]], "bias": [0, 0, 0, 0, 0]}]}`
	for name, text := range map[string]string{"tie.spec": spec, "tie.json": net} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, all := range []bool{true, false} {
		m, diags := lang.Load(filepath.Join(dir, "tie.spec"), lang.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Render())
		}
		decl := *m.Policies[0]
		decl.ArgMaxAll = all
		p, err := symbolic.Instantiate(m, &decl)
		if err != nil {
			t.Fatal(err)
		}
		d, v := m.VarIndex("d"), m.VarIndex("v")
		sure := []symbolic.LabelID{m.LabelIndex("go"), m.LabelIndex("up"), m.LabelIndex("down"), m.LabelIndex("stop")}
		lo, hi := make([]int, 2), make([]int, 2)
		lo[d], hi[d], lo[v], hi[v] = 1, 1000, 1, 999
		diag := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: d}, {Coef: -1, Var: v}})
		f := Fact{Lo: lo, Hi: hi, Atoms: []symbolic.Atom{{Form: diag, K: 0}, {Form: symbolic.NewForm([]symbolic.Term{{Coef: -1, Var: d}, {Coef: 1, Var: v}}), K: 0}},
			Label: m.LabelIndex("up"), Sure: sure}
		err = CheckFact(context.Background(), m, p, f)
		if all && err != nil {
			t.Errorf("argmax all: the fact up-never-chosen on d = v fails: %v", err)
		}
		var ff *FactFailure
		if !all && (!errors.As(err, &ff) || ff.State[d] != ff.State[v]) {
			t.Errorf("argmax applicable: the fact up-never-chosen on d = v: got %v, want a counterexample on the diagonal (up wins there)", err)
		}
	}
}
