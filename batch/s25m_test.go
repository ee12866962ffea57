package batch

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// s25m: an attribute added to an instance after its runs finished
// replaced, in the report, a value of the same name the runs had recorded
// (the engine's states), while a run made after it keeps its output as
// vigil_states. A run now records the names of its instance's attributes
// (static_attributes), and the report moves such a value to vigil_NAME;
// a run that does not record them (made before) is refused where its value
// differs from the attribute's, since nothing tells which it is.
func TestS25mLateAttributeKeepsRunValues(t *testing.T) {
	x := &Experiment{File: "exp.toml", Data: "data/e"}
	r := &Run{ID: "bfs/m/line", Algorithm: "bfs", Domain: "m", Problem: "line", Attrs: map[string]any{"states": int64(100), "arch": "a"}}
	for _, c := range []struct {
		name string
		p    map[string]any
		want map[string]any
		err  string
	}{
		{"recorded by the engine, attributes listed",
			map[string]any{"states": 6.0, staticKey: []any{}},
			map[string]any{"states": int64(100), "vigil_states": 6.0, "arch": "a", staticKey: []any{}}, ""},
		{"an attribute when it ran",
			map[string]any{"states": 50.0, "vigil_states": 6.0, staticKey: []any{"states"}},
			map[string]any{"states": int64(100), "vigil_states": 6.0, "arch": "a", staticKey: []any{"states"}}, ""},
		{"an attribute when it ran, the engine silent on it",
			map[string]any{"states": 50.0, staticKey: []any{"arch", "states"}},
			map[string]any{"states": int64(100), "arch": "a", staticKey: []any{"arch", "states"}}, ""},
		{"not recorded",
			map[string]any{"depth": 5.0, staticKey: []any{}},
			map[string]any{"depth": 5.0, "states": int64(100), "arch": "a", staticKey: []any{}}, ""},
		{"made before the list, same value",
			map[string]any{"states": 100.0},
			map[string]any{"states": int64(100), "arch": "a"}, ""},
		{"made before the list, moved output",
			map[string]any{"states": 7.0, "vigil_states": 6.0},
			map[string]any{"states": int64(100), "vigil_states": 6.0, "arch": "a"}, ""},
		{"made before the list, another value",
			map[string]any{"states": 6.0},
			nil, "run bfs/m/line recorded states = 6, and exp.toml now gives its instance the attribute states = 100"},
	} {
		err := x.addAttrs(r, c.p)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.err)
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.err == "" && !reflect.DeepEqual(c.p, c.want):
			t.Errorf("%s: %v, want %v", c.name, c.p, c.want)
		}
	}
}

// s25m: a run records its instance's attribute names, sorted; an
// attribute may not take that name.
func TestS25mRunRecordsAttributeNames(t *testing.T) {
	src := peerSource("names", "true", `{ UNSAT = "safe", SAT = "unsafe" }`, "", "attributes = { zeta = 1, alpha = \"x\" }\n")
	x := loadOneModel(t, src)
	r := x.Runs[0]
	os.MkdirAll(x.RunDir(r), 0o755)
	os.WriteFile(filepath.Join(x.RunDir(r), "stdout"), []byte("UNSAT\n"), 0o644)
	os.WriteFile(filepath.Join(x.RunDir(r), "stderr"), nil, 0o644)
	p := x.properties(r, outcome{exitCode: 0}, nil)
	if got := p[staticKey]; !reflect.DeepEqual(got, []any{"alpha", "zeta"}) {
		t.Errorf("%s = %v, want [alpha zeta]", staticKey, got)
	}
	if !reserved[staticKey] {
		t.Errorf("%s is not reserved: an attribute could take it", staticKey)
	}
}

// s25m: an error about a report option from the experiment file's
// [report] section names its line there, as the file's other errors do;
// the same option given as a flag is named by the flag.
func TestS25mReportOptionErrorLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "exp.toml")
	src := "name = \"e\"\n[report]\nattributes = [\"coverage\"]\ngroup = [\"arhc\"]\n"
	os.WriteFile(path, []byte(src), 0o644)
	x := &Experiment{File: path}
	base := errors.New(`batch: group: no finished run of experiment e has the attribute "arhc"`)
	o := ReportOptions{}
	from := o.fromFile(ReportOptions{Group: []string{"arhc"}, Attributes: []string{"coverage"}})
	err := x.optionError(from, "group", base)
	var e *Error
	if !errors.As(err, &e) || e.Line != 4 || e.File != path || !strings.Contains(e.Msg, "[report] group: no finished run") {
		t.Fatalf("from the file: %v, want an *Error at %s:4", err, path)
	}
	flag := ReportOptions{Group: []string{"arhc"}}.fromFile(ReportOptions{Group: []string{"arch"}})
	if err := x.optionError(flag, "group", base); err != base {
		t.Fatalf("from a flag: %v, want the error as it was", err)
	}
}
