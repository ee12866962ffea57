package jani

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A .jani2nnet interface sets the reading of the arg-max as PlaJA does:
// no "filter" or "filter": false is argmax all (the arg-max over every
// output, stuck where it is not applicable), "filter": true argmax
// applicable; ReadingNote says so for the first.
func TestInterfaceFilter(t *testing.T) {
	m, _ := load(t, "counter.jani", map[string]string{"N": "3"})
	dir := t.TempDir()
	for _, c := range []struct {
		filter string
		all    bool
	}{{"", true}, {`"filter": false,`, true}, {`"filter": true,`, false}} {
		path := filepath.Join(dir, "i.jani2nnet")
		src := `{"file": "x.nnet", ` + c.filter + ` "input": [{"automaton": null, "name": "x"}], "output": ["inc"]}`
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		d, err := LoadPolicyFile(m, path)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if d.ArgMaxAll != c.all || d.ReadsAll() != c.all {
			t.Errorf("%s: ArgMaxAll %t, want %t", src, d.ArgMaxAll, c.all)
		}
		note := ReadingNote(d)
		if (note != "") != c.all || c.all && !strings.Contains(note, "arg-max over all outputs") {
			t.Errorf("%s: note %q", src, note)
		}
	}
}
