package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// s30xSpec declares two ensemble policies over different inputs: a
// --policy-file whose splits read three features binds only wide; one
// whose splits read two fits both, which bind different inputs: an error
// that asks for --policy.
const s30xSpec = `model m
var x : 0 .. 3
var y : 0 .. 3
var z : 0 .. 3
action a -> x' = 0
action b -> y' = 0
policy trees wide "w.json" {
    inputs  x, y, z
    outputs a, b
}
policy trees narrow "n.json" {
    inputs  y, z
    outputs a, b
}
property p {
    start x == 0
    unsafe x == 3
}
`

// veritas is a one-tree Veritas ensemble whose split reads feature f.
func s30xVeritas(f int) string {
	return `{"at_type":"CLF_MEAN","base_scores":[0.0,0.0],"trees":[{"num_leaf_values":2,"split_type":"LtSplit","structure":{"feat_id":` +
		string(rune('0'+f)) + `,"split_value":1.5,"left":{"leaf_value":[1.0,0.0]},"right":{"leaf_value":[0.0,1.0]}}}]}`
}

// A --policy-file rewritten with the same size and modification time (a
// copy with preserved times, an archive's fixed dates, a rewrite within
// the clock's resolution) is bound by its own counts, not by those of the
// file that was there before: the first file, with three features, binds
// wide only; the second, with two, fits wide and narrow, which is an
// error (kept counts bound it to wide and verified with it).
func TestS30xFileDimsSameSizeAndTime(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "m.spec")
	pf := filepath.Join(dir, "p.json")
	for name, text := range map[string]string{spec: s30xSpec, filepath.Join(dir, "w.json"): s30xVeritas(2), filepath.Join(dir, "n.json"): s30xVeritas(1)} {
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v1, v2 := s30xVeritas(2), s30xVeritas(1)
	if len(v1) != len(v2) {
		t.Fatal("the two files must have one size")
	}
	if err := os.WriteFile(pf, []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := os.Chtimes(pf, at, at); err != nil {
		t.Fatal(err)
	}
	opts := Options{Files: Files{PolicyFile: pf}, PolicyDefault: ThePolicy}
	l, err := Load(spec, opts)
	if err != nil {
		t.Fatalf("first load: %v", err)
	}
	if got := l.Policy; got == nil || len(got.Inputs) != 3 {
		t.Fatalf("first load: policy %+v; want wide's three inputs", got)
	}
	if err := os.WriteFile(pf, []byte(v2), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(pf, at, at); err != nil {
		t.Fatal(err)
	}
	l, err = Load(spec, opts)
	if err == nil || !strings.Contains(err.Error(), "bind different inputs") {
		var in int
		if l != nil && l.Policy != nil {
			in = len(l.Policy.Inputs)
		}
		t.Fatalf("second load, a two-feature file of the first's size and time: err %v (policy with %d inputs); want the error that wide and narrow both fit", err, in)
	}
}
