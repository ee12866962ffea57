package lang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/fuzzseed"
)

// ifaceModel declares an NNet policy whose inputs and outputs come from a
// PlaJA interface file (policy nn NAME "FILE.nnet" { interface "i.jani2nnet" }).
const ifaceModel = `model ifc
var x : 0 .. 3 = 0
var b : bool = false
var a : [0 .. 1] of 0 .. 2 = [0, 0]
action up when x < 3 -> x' = x + 1
action down when x > 0 -> x' = x - 1
policy nn pi "i.nnet" {
    interface "i.jani2nnet"
}
property p { unsafe x == 3 }
`

// FuzzS31zInterface reads arbitrary bytes as a .spec policy's PlaJA
// interface file (lang's own reader, lowerer.iface, apart from the jani
// package's, which FuzzPlaJA covers): nothing panics; a rejection is a
// diagnostic (E0507/E0508) naming the interface file, without Go's
// internals; an accepted interface gives the policy inputs and outputs
// of the model.
func FuzzS31zInterface(f *testing.F) {
	for _, s := range []string{
		`{"file": "i.nnet", "input": [{"name": "x"}], "output": ["up", "down"]}`,
		`{"file": "i.nnet", "filter": true, "input": [{"name": "x"}, {"name": "b"}, {"name": "a[1]"}], "output": [{"name": "up"}, "down"]}`,
		`{"input": [{"name": "a", "index": 1}], "output": ["up", "up"]}`,
		`{"input": [{"name": "nope"}], "output": ["left", 3, null]}`,
		`{"input": {}, "output": "up"}`,
		`{"filter": 1}`, `[]`, ``, `{"input": [null], "output": [{}]}`,
	} {
		f.Add([]byte(s))
		for _, v := range fuzzseed.Variants([]byte(s)) {
			f.Add(v)
		}
	}
	dir := f.TempDir()
	spec := filepath.Join(dir, "ifc.spec")
	if err := os.WriteFile(spec, []byte(ifaceModel), 0o644); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "i.nnet"), []byte("placeholder"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "i.jani2nnet"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, diags := LoadFile(spec, Options{})
		if diags.HasErrors() {
			out := diags.Render()
			if !strings.Contains(out, "i.jani2nnet") {
				t.Fatalf("a rejected interface without its file named:\n%s", out)
			}
			for _, internal := range []string{"Go struct field", "runtime error", "goroutine "} {
				if strings.Contains(out, internal) {
					t.Fatalf("Go internals in the diagnostic:\n%s", out)
				}
			}
			return
		}
		p := m.Policy("pi")
		if p == nil {
			t.Fatal("the policy loaded without its declaration")
		}
		for i, in := range p.Inputs {
			for _, tm := range in.Terms {
				if tm.Var < 0 || int(tm.Var) >= len(m.Vars) {
					t.Fatalf("input %d reads variable %d of %d", i, tm.Var, len(m.Vars))
				}
			}
		}
		for i, o := range p.Outputs {
			if o < 0 || int(o) >= len(m.Labels) {
				t.Fatalf("output %d is label %d of %d", i, o, len(m.Labels))
			}
		}
	})
}
