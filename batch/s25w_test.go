package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// s25w: a run made before static_attributes was recorded, with a value
// that differs from an attribute of the same name now, is told apart by
// its stdout, kept in its directory: a key of its output is its own value
// (moved to vigil_KEY), any other an attribute that has changed since
// (the new value). Without a readable stdout it is still refused.
func TestS25wOldRunFromStdout(t *testing.T) {
	dir := t.TempDir()
	x := &Experiment{File: "exp.toml", Data: dir}
	r := &Run{ID: "bfs/m/line", Algorithm: "bfs", Domain: "m", Problem: "line", Attrs: map[string]any{"states": int64(100), "size": int64(2)}}
	p := map[string]any{"states": 6.0, "size": 1.0}
	if err := x.addAttrs(r, p); err == nil {
		t.Fatalf("no stdout: %v, want the run refused", p)
	}
	os.MkdirAll(x.RunDir(r), 0o755)
	os.WriteFile(filepath.Join(x.RunDir(r), "stdout"), []byte(`{"verdict": "unsafe", "states": 6}`), 0o644)
	p = map[string]any{"states": 6.0, "size": 1.0}
	if err := x.addAttrs(r, p); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"states": int64(100), "vigil_states": 6.0, "size": int64(2)}
	if !reflect.DeepEqual(p, want) {
		t.Fatalf("%v, want %v", p, want)
	}
}
