package jani_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/lang"
	"vigil/lang/jani"
	"vigil/load"
)

// TestReview21eZeroProbabilityRefused: an outcome of probability 0 (weight
// 0, or no weight where the given ones sum to 1) has no JANI form: Storm,
// mcsta and vigil's reader drop such a destination, while vigil verify
// takes every outcome as possible. The export wrote it with probability 0,
// and the model, unsafe only through it, imported back safe (explore
// counted 2 states instead of 3). It is now refused, naming the outcome.
func TestReview21eZeroProbabilityRefused(t *testing.T) {
	for _, c := range []struct{ name, outcomes, why string }{
		{"weight 0", "1: x' = 2 | 0: x' = 0", "its weight is 0"},
		{"no share left", "1: x' = 2 | x' = 0", "no weight and the given weights sum to 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "model zw\nvar x : 0 .. 2 = 1\naction step when x == 1 -> " + c.outcomes + "\nproperty p { unsafe x == 0 }\n"
			m, diags := lang.LoadSource("zw.spec", []byte(src), lang.Options{})
			if m == nil || diags.HasErrors() {
				t.Fatal(diags.Render())
			}
			var b bytes.Buffer
			err := jani.Export(&b, m, m.Property("p"), nil)
			if err == nil {
				back, _, derr := jani.Decode("zw.jani", b.Bytes(), nil)
				if derr != nil {
					t.Fatalf("export succeeded and does not import back: %v", derr)
				}
				t.Fatalf("export wrote outcome 2 with probability 0: the model has %d states, the JANI read back %d\n%s",
					counts(t, m, "p").States, counts(t, back, "p_avoid").States, b.String())
			}
			for _, want := range []string{"zw.spec:3:", "outcome 2 of action step has probability 0", c.why, "positive weight"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q lacks %q", err, want)
				}
			}
		})
	}
	// a positive weight everywhere exports and reads back with every
	// outcome
	m, back, _, _ := exportImport(t, "model zw\nvar x : 0 .. 2 = 1\naction step when x == 1 -> 1: x' = 2 | 1/1000: x' = 0\nproperty p { unsafe x == 0 }\n", "p")
	if a, b := counts(t, m, "p"), counts(t, back, "p_avoid"); a != b {
		t.Errorf("positive weights: the .spec explores to %+v, the JANI to %+v", a, b)
	}
}

// TestReview21eCostNamedLikeConstant: the transient cost variable took the
// name "cost" even when a constant of the model had it; JANI's constants
// and variables share one namespace, so the export assigned to the
// constant and did not import back. The variable now takes a free name.
func TestReview21eCostNamedLikeConstant(t *testing.T) {
	m, back, text, _ := exportImport(t, `model c1
const cost = 2
var x : 0 .. 5 = 0
action step when x < 5 -> x' = x + 1
action jump when x < 3 cost cost + x -> x' = x + cost
property p { unsafe x == 4 goal x == 5 }
`, "p")
	if !strings.Contains(text, `"name": "cost_"`) {
		t.Errorf("the transient cost variable is not cost_:\n%s", text)
	}
	if a, b := counts(t, m, "p"), counts(t, back, "p"); a != b {
		t.Errorf("the .spec explores to %+v, the JANI to %+v", a, b)
	}
}

// TestReview21eImportStateProbability: vigil import printed a destination
// whose probability reads the state (x/2) as an outcome without a weight:
// vigil prob on the .spec gave it an equal share, and the explicit
// engine's check that the probability lies in [0, 1] (x == 3 gives 3/2, a
// probability error of vigil verify on the .jani) was gone, so verify on
// the .spec said safe. .spec weights are constants: the import refuses it,
// naming the destination.
func TestReview21eImportStateProbability(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "pr.jani")
	src := `{"jani-version": 1, "name": "pr", "type": "mdp",
 "variables": [{"name": "x", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 3}, "initial-value": 0},
               {"name": "y", "type": {"kind": "bounded", "base": "int", "lower-bound": 0, "upper-bound": 1}, "initial-value": 0}],
 "actions": [{"name": "a"}, {"name": "b"}],
 "automata": [{"name": "m", "locations": [{"name": "l"}], "initial-locations": ["l"],
   "edges": [
     {"location": "l", "action": "b", "guard": {"exp": {"op": "<", "left": "x", "right": 3}}, "destinations": [{"location": "l", "assignments": [{"ref": "x", "value": {"op": "+", "left": "x", "right": 1}}]}]},
     {"location": "l", "action": "a", "guard": {"exp": {"op": ">", "left": "x", "right": 0}}, "destinations": [
        {"location": "l", "probability": {"exp": {"op": "/", "left": "x", "right": 2}}, "assignments": [{"ref": "y", "value": 0}]},
        {"location": "l", "probability": {"exp": {"op": "-", "left": 1, "right": {"op": "/", "left": "x", "right": 2}}}, "assignments": [{"ref": "y", "value": 0}]}]}]}],
 "system": {"elements": [{"automaton": "m"}]}, "properties": []}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	im, err := load.Import(file, load.ImportOptions{})
	if err == nil {
		t.Fatalf("vigil import printed the state-dependent probability as a constant share:\n%s", im.Spec)
	}
	for _, want := range []string{"pr.jani#automata[0].edges[1].destinations[0]", "a probability that depends on the state", "run vigil on the .jani file itself"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}
