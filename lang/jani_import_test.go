package lang

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"vigil/lang/jani"
	"vigil/symbolic"
)

// TestJANIImportIR: a .spec that imports a JANI model and adds a property
// lowers to exactly the model jani.Load gives, plus that property (built
// here from equivalent PlaJA condition files). -D reaches the JANI model's
// open constant N and its real constant p-fail. The import path is
// absolute, so positions in both models name the same file.
func TestJANIImportIR(t *testing.T) {
	model, err := filepath.Abs("testdata/jani/counter.jani")
	if err != nil {
		t.Fatal(err)
	}
	defs := map[string]string{"N": "3", "p-fail": "1/2"}
	want, err := jani.Load(model, defs)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	start := write("start.jani", `{"op": "state-condition", "exp": {"op": "=", "left": "x", "right": 0},
		"locations": [{"automaton": "main", "location": "run"}]}`)
	unsafe := write("unsafe.jani", `{"op": "∧", "left": {"op": "=", "left": "x", "right": "N"}, "right": "done"}`)
	if err := jani.AddProperty(want, start, unsafe); err != nil {
		t.Fatal(err)
	}
	spec := write("in.spec", `import "`+model+`"
property safety {
    start  x == 0 && at_main_run
    unsafe x == N && done
}
`)
	got, diags := Load(spec, Options{Defines: defs})
	if diags.HasErrors() {
		t.Fatal(diags.Render())
	}
	if len(diags) > 0 {
		t.Errorf("unexpected warnings:\n%s", diags.Render())
	}
	// The environment is the JANI model's, positions included.
	for _, part := range []struct {
		name      string
		got, want any
	}{
		{"consts", got.Consts, want.Consts},
		{"vars", got.Vars, want.Vars},
		{"labels", got.Labels, want.Labels},
		{"preds", got.Preds, want.Preds},
		{"commands", got.Commands, want.Commands},
	} {
		if !reflect.DeepEqual(part.got, part.want) {
			t.Errorf("%s differ:\ngot  %+v\nwant %+v", part.name, part.got, part.want)
		}
	}
	if got.Commands[0].Outcomes[0].Weight != (symbolic.Rat{Num: 1, Den: 2}) {
		t.Errorf("-D p-fail=1/2 did not reach the JANI model: weight %v", got.Commands[0].Outcomes[0].Weight)
	}
	var g, w bytes.Buffer
	symbolic.Print(&g, got)
	symbolic.Print(&w, want)
	if g.String() != w.String() {
		t.Errorf("lowered models differ:\n--- spec importing jani ---\n%s--- jani plus property ---\n%s", g.String(), w.String())
	}
}
