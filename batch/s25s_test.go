package batch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// s25s: an error about a key of an experiment file points at the key's
// own line and column however the key is spelled: under a table header,
// dotted at the top level, quoted, in an inline table, in an array of
// tables or of inline tables.
func TestS25sKeyLines(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.spec"), nil, 0o644)
	algos := "[[algorithms]]\nname = \"a\"\nargs = [\"verify\"]\n"
	inst := "[[instances]]\nmodels = [\"m.spec\"]\n"
	for _, tc := range []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"table", "name = \"e\"\n" + algos + inst + "[report]\nbaseline = \"zz\"\n", 8, 1, `baseline "zz" is not`},
		{"dotted", "name = \"e\"\nreport.baseline = \"zz\"\n" + algos + inst, 2, 8, `baseline "zz" is not`},
		{"dotted spaced", "name = \"e\"\nreport . baseline = \"zz\"\n" + algos + inst, 2, 10, `baseline "zz" is not`},
		{"quoted", "name = \"e\"\n\"report\".'baseline' = \"zz\"\n" + algos + inst, 2, 10, `baseline "zz" is not`},
		{"quoted under table", "name = \"e\"\n" + algos + inst + "[\"report\"]\n  \"baseline\" = \"zz\"\n", 8, 3, `baseline "zz" is not`},
		{"inline", "name = \"e\"\nreport = {group = [\"x\"], baseline = \"zz\"}\n" + algos + inst, 2, 26, `baseline "zz" is not`},
		{"inline multiline array", "name = \"e\"\nreport = {group = [\n  \"x\"], scatter = [\"a:q\"]}\n" + algos + inst, 3, 9, `"q" is not an algorithm`},
		{"dotted limits", "name = \"e\"\nlimits.memory = \"1MiB\"\n" + algos + inst, 2, 8, "memory limit 1 MiB"},
		{"inline limits", "name = \"e\"\nlimits = {time = \"5s\", wall = \"1s\"}\n" + algos + inst, 2, 24, "wall limit 1s"},
		{"inline bare number", "name = \"e\"\nlimits = { time = 5 }\n" + algos + inst, 2, 19, `time limit "5" has no unit`},
		{"second array table", "name = \"e\"\n" + algos + algos + inst, 6, 1, `algorithm "a" is declared twice`},
		{"array of inline tables", "name = \"e\"\nalgorithms = [{name = \"a\", args = [\"verify\"]},\n  {name = \"a\", args = [\"x\"]}]\n" + inst, 3, 4, `algorithm "a" is declared twice`},
		{"dotted in array table", "name = \"e\"\n" + algos + "[[algorithms]]\nname = \"b\"\nargs = [\"x\"]\nverdicts.sat = \"safe\"\n" + inst, 8, 1, "verdicts map the output"},
		{"subtable of array table", "name = \"e\"\n" + algos + "[[algorithms]]\nname = \"b\"\nargs = [\"x\"]\n[algorithms.verdicts]\nsat = \"safe\"\n" + inst, 8, 1, "verdicts map the output"},
		{"inline instance", "name = \"e\"\ninstances = [{models = [\"m.spec\"], policies = [\"p\", \"p\"]}]\n" + algos, 2, 53, `"p" is listed twice`},
		{"verdict entry", "name = \"e\"\n" + algos + "[[algorithms]]\nname = \"z\"\nprogram = \"z3\"\nargs = [\"q\"]\nverdicts = { sat = \"safe\", unknown = \"unknown\" }\n" + inst, 9, 28, `unknown = "unknown" is no verdict`},
		{"quoted verdict entry", "name = \"e\"\n" + algos + "[[algorithms]]\nname = \"z\"\nprogram = \"z3\"\nargs = [\"q\"]\n[algorithms.verdicts]\nsat = \"safe\"\n\"sat. \" = \"safe\"\n" + inst, 11, 1, `the line "sat. " has spaces`},
		{"attribute entry", "name = \"e\"\n" + algos + inst + "attributes.arch = \"x\"\nattributes.error = \"x\"\n", 8, 12, `attribute "error" is one the batch writes`},
		{"unknown inline", "name = \"e\"\nreport = {grup = [\"x\"]}\n" + algos + inst, 2, 11, `unknown key "report.grup" (did you mean "group"?)`},
		{"unknown dotted", "name = \"e\"\nreport.grup = [\"x\"]\n" + algos + inst, 2, 8, `unknown key "report.grup" (did you mean "group"?)`},
		{"wrong type inline", "name = \"e\"\nreport = {group = 1}\n" + algos + inst, 2, 19, "group: want a list of strings"},
		{"wrong type array of inline tables", "name = \"e\"\nalgorithms = [{name = \"a\", args = 3}]\n" + inst, 2, 35, "args: want a list of strings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, "exp.toml")
			_, err := Parse(path, []byte(tc.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("got %d:%d %q, want %d:%d %q\n%s", e.Line, e.Col, e.Msg, tc.line, tc.col, tc.msg, tc.src)
			}
		})
	}
}

// The [report] options checked only when a report is made (an attribute
// no run has) are placed the same way.
func TestS25sReportOptionLines(t *testing.T) {
	dir := t.TempDir()
	base := errors.New(`batch: group: no finished run of experiment e has the attribute "arhc"`)
	for _, tc := range []struct {
		src       string
		line, col int
	}{
		{"name = \"e\"\n[report]\ngroup = [\"arhc\"]\n", 3, 1},
		{"name = \"e\"\nreport.group = [\"arhc\"]\n", 2, 8},
		{"name = \"e\"\nreport = { attributes = [\"coverage\"], group = [\"arhc\"] }\n", 2, 39},
		{"name = \"e\"\n'report'.\"group\" = [\"arhc\"]\n", 2, 10},
	} {
		path := filepath.Join(dir, "exp.toml")
		os.WriteFile(path, []byte(tc.src), 0o644)
		x := &Experiment{File: path}
		from := ReportOptions{}.fromFile(ReportOptions{Group: []string{"arhc"}})
		var e *Error
		if err := x.optionError(from, "group", base); !errors.As(err, &e) || e.Line != tc.line || e.Col != tc.col {
			t.Errorf("%s: got %v, want an *Error at %d:%d", tc.src, err, tc.line, tc.col)
		}
	}
}

// No experiment file, however garbled, makes the position lookup panic,
// and every position it gives lies in the file.
func FuzzS25sKeyPositions(f *testing.F) {
	for _, s := range []string{
		"name = \"e\"\nreport.baseline = \"zz\"\n[[algorithms]]\nname = \"a\"\nargs = [\"verify\"]\n[[instances]]\nmodels = [\"m.spec\"]\n",
		"name = \"e\"\nalgorithms = [{name = \"a\", args = [\"verify\"]},\n  {name = \"a\", args = 3}]\n",
		"name = \"e\"\n[ \"report\" ]\n'grup' = 1\n",
		"name = \"e\"\r\nlimits = { time = 5 }\r\n",
		"[[algorithms]]\n[algorithms.verdicts]\nsat = \"\"\n[[ algorithms ]]\n",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Parse(filepath.Join(dir, "exp.toml"), []byte(src))
		var e *Error
		if errors.As(err, &e) && e.Line > strings.Count(src, "\n")+1 {
			t.Errorf("line %d of a %d-line file", e.Line, strings.Count(src, "\n")+1)
		}
		for _, key := range []string{"report.group", "algorithms.0.name", "limits.time", "instances.1.models.0"} {
			if l, _ := keyPos([]byte(src), key); l > strings.Count(src, "\n")+1 {
				t.Errorf("%s at line %d of a %d-line file", key, l, strings.Count(src, "\n")+1)
			}
		}
	})
}
