package batch

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var code = regexp.MustCompile(`error\[B000\d\]: `)

// Each bad experiment file is given with the error it must produce,
// position included.
func TestParseErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.spec"), nil, 0o644)
	head := "name = \"x\"\n[[algorithms]]\nname = \"a\"\nargs = [\"check\", \"{model}\"]\n"
	for _, c := range []struct{ src, want string }{
		{head + "[[instances]]\nmodels = [\"a.spec\"]\nmodel = 1\n", `:7:1: unknown key "instances.model" (did you mean "models"?)`},
		{head + "[[instances]]\nmodels = [\"a.spec\", \"*.jani\"]\n", `:6:21: "*.jani" matches no file`},
		{"name = \"x\"\n[limits]\nwall = \"5\"\n", `:3:8: time limit "5" has no unit`},
		{"name = \"x\"\n[limits]\nmemory = \"5 XB\"\n", `:3:10: memory limit "5 XB": unknown unit "XB"`},
		{"name = \"x\"\n[limits]\nmemory = \"100MiB\"\n" + head[11:] + "[[instances]]\nmodels = [\"a.spec\"]\n", `:3:1: memory limit 100 MiB is below the 192 MiB`},
		{"name = \"x\"\nrepetitions = 2\nseeds = [1]\n", `:2:1: give repetitions or seeds, not both`},
		{"name = \"x\"\nseeds = [1, 1]\n", `:2:1: seed 1 is listed twice`},
		{"name = \"x\"\nrepetitions = 30000000\n", `:2:1: 30000000 repetitions is more than the 10000 a batch runs`},
		{"name = \"x y\"\n", `:1:1: experiment name "x y" is not a plain directory name: use only letters`},
		{"data = \"d\"\n", `: the experiment has no name`},
		{"name = \"x\"\n", `: no [[algorithms]]`},
		{head, `: no [[instances]]`},
		{head + "[[algorithms]]\nname = \"a\"\nargs = [\"x\"]\n[[instances]]\nmodels = [\"a.spec\"]\n", `:6:1: algorithm "a" is declared twice`},
		{head + "[[instances]]\nmodels = [\"a.spec\"]\n[[instances]]\nmodels = [\"a.spec\"]\n", `:7:1: run a/a/a appears twice`},
		{head + "[[instances]]\nmodels = [\"a.spec\"]\nattributes = { error = \"x\" }\n", `:7:16: attribute "error" is one the batch writes itself`},
		{head + "[[instances]]\nmodels = [\"/abs/a.spec\"]\n", `"/abs/a.spec": write paths relative to the experiment file`},
		{"name = \"x\"\n[[algorithms]]\nname = \"a\"\nargs = [\"x\", \"--flag={defines}\"]\n", `:4:1: algorithm "a": {defines} expands to several arguments`},
		{"name = \"x\"\n[[algorithms]]\nname = \"a\"\nargs = [\"x\"]\nverdicts = { sat = \"safe\" }\n", `:5:1: algorithm "a": verdicts map the output of a program`},
		{"name = \"x\"\n[[algorithms]]\nname = \"a\"\nprogram = \"z3\"\nargs = [\"x\"]\n", `:4:1: algorithm "a" runs z3: say which of its answers are verdicts`},
		{head + "[[instances]]\nmodels = [\"a.spec\"]\n[report]\nbaseline = \"b\"\n", `:8:1: baseline "b" is not an algorithm of this experiment`},
		{head + "[[instances]]\nmodels = [\"a.spec\"]\n[report]\nscatter = [\"a\"]\n", `:8:1: scatter "a": want two algorithms X:Y`},
		{head + "[[instances]]\nmodels = [\"a.spec\"]\n[report]\nbasline = \"a\"\n", `unknown key "report.basline" (did you mean "baseline"?)`},
		// A value of the wrong type is named by its key, in the file's
		// terms, not by Go's struct field (session 24).
		{head + "[[instances]]\nmodels = [\"a.spec\"]\n[report]\ngroup = \"domain\"\n", `:8:9: group: want a list of strings (["a", "b"]), not a string`},
		{"name = \"x\"\n[[algorithms]]\nname = \"a\"\nprogram = [\"sh\"]\n", `:4:11: program: want a string, not a list`},
		{head + "[[instances]]\nname = 5\nmodels = [\"a.spec\"]\n", `:6:8: name: want a string, not a whole number`},
	} {
		path := filepath.Join(dir, "exp.toml")
		_, err := Parse(path, []byte(c.src))
		if err == nil || !strings.Contains(code.ReplaceAllString(err.Error(), ""), c.want) {
			t.Errorf("%q:\n got %v\nwant ...%s...", c.src, err, c.want)
		}
	}
}

// Ids stay the same when an edit adds algorithms, instances or models.
func TestIDsStableAcrossAdditions(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.spec", "b.spec", "c.spec"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	one := "name = \"x\"\n[[algorithms]]\nname = \"a\"\nargs = [\"check\", \"{model}\"]\n[[instances]]\ndomain = \"d\"\nmodels = [\"a.spec\", \"b.spec\"]\n"
	two := "name = \"x\"\n[[algorithms]]\nname = \"z\"\nargs = [\"check\", \"{model}\", \"--json\"]\n[[algorithms]]\nname = \"a\"\nargs = [\"check\", \"{model}\"]\n[[instances]]\ndomain = \"d\"\nmodels = [\"*.spec\"]\n[[instances]]\ndomain = \"e\"\nmodels = [\"a.spec\"]\n"
	x1, err := Parse(filepath.Join(dir, "exp.toml"), []byte(one))
	if err != nil {
		t.Fatal(err)
	}
	x2, err := Parse(filepath.Join(dir, "exp.toml"), []byte(two))
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, r := range x2.Runs {
		ids[r.ID] = strings.Join(r.Args, " ")
	}
	for _, r := range x1.Runs {
		if ids[r.ID] != strings.Join(r.Args, " ") {
			t.Errorf("run %s (%v) is not in the extended experiment with the same command", r.ID, r.Args)
		}
	}
	if len(x2.Runs) != 8 {
		t.Errorf("%d runs, want 8", len(x2.Runs))
	}
}

func TestLimits(t *testing.T) {
	for s, want := range map[string]int64{"512MiB": 512 << 20, "2G": 2 << 30, "4GB": 4e9, "1.5GiB": 3 << 29} {
		if got, err := ParseSize(s); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", s, got, err, want)
		}
	}
	if _, err := ParseDuration("10"); err == nil {
		t.Error("ParseDuration accepted a bare number")
	}
}

func TestFlatten(t *testing.T) {
	p := map[string]any{}
	flatten(p, "", map[string]any{
		"verdict": "safe", "time": 3.0, "ic3": map[string]any{"frames": 4.0},
		"biases": []any{"loop", "novelty"}, "bugs": []any{map[string]any{"state": "x=1"}, map[string]any{"state": "x=2"}}, "faults": []any{},
		"wall": map[string]any{"time": 9.0}, "kind": "engine's", "size": []any{1.0},
	}, map[string]any{"kind": "static", "size_count": 3})
	want := map[string]any{"verdict": "safe", "vigil_time": 3.0, "ic3_frames": 4.0, "biases": []any{"loop", "novelty"}, "biases_count": 2, "bugs_count": 2, "faults": []any{}, "faults_count": 0,
		"vigil_wall_time": 9.0, "vigil_kind": "engine's", "size": []any{1.0}, "vigil_size_count": 1}
	if fmt.Sprint(p) != fmt.Sprint(want) {
		t.Errorf("flatten gave %v, want %v", p, want)
	}
}

// Every experiment shipped in bench/ loads, expands to runs with distinct
// ids, and names model and policy files that exist: an edit to specs/ or
// bench/polic3 that breaks one is caught here, not hours into a sweep.
func TestShippedExperimentsLoad(t *testing.T) {
	files, err := filepath.Glob("../bench/*.toml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiment files in ../bench (%v)", err)
	}
	fileArg := regexp.MustCompile(`\.(spec|jani|onnx|nnet|json|txt|model)$`)
	for _, f := range files {
		x, err := Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if len(x.Runs) == 0 {
			t.Errorf("%s: no runs", f)
		}
		seen := map[string]bool{}
		for _, r := range x.Runs {
			if seen[r.ID] {
				t.Errorf("%s: run id %s twice", f, r.ID)
			}
			seen[r.ID] = true
			for _, a := range r.Args {
				if !fileArg.MatchString(a) || strings.HasPrefix(a, "-") {
					continue
				}
				p := a
				if !filepath.IsAbs(p) {
					p = filepath.Join(x.Dir, p)
				}
				if _, err := os.Stat(p); err != nil {
					t.Errorf("%s: run %s names %s, which does not exist", f, r.ID, a)
				}
			}
		}
		t.Logf("%s: %d runs", f, len(x.Runs))
	}
}

// Names become directories under the data directory: every name that is
// not one plain path component is refused at the field it comes from,
// with the experiment file's name and position.
func TestNamesArePlainComponents(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "exp")
	os.MkdirAll(filepath.Join(dir, "specs"), 0o755)
	for _, f := range []string{"specs/a.spec", "../outside.spec", "specs/..spec", "specs/.hidden.spec"} {
		os.WriteFile(filepath.Join(dir, f), nil, 0o644)
	}
	algo := "[[algorithms]]\nname = \"a\"\nargs = [\"check\", \"{model}\"]\n"
	for _, c := range []struct{ src, want string }{
		{"name = \"..\"\n" + algo, `exp.toml:1:1: experiment name ".." is not a plain directory name`},
		{"name = \".\"\n" + algo, `exp.toml:1:1: experiment name "." is not a plain directory name`},
		{"name = \"x\"\n[[algorithms]]\nname = \"..\"\nargs = [\"check\"]\n", `exp.toml:3:1: algorithm name ".." is not a plain directory name (it would lead out of the data directory)`},
		{"name = \"x\"\n[[algorithms]]\nname = \"a/b\"\nargs = [\"check\"]\n", `exp.toml:3:1: algorithm name "a/b" is not a plain directory name: use only letters`},
		{"name = \"x\"\n[[algorithms]]\nname = \"/tmp\"\nargs = [\"check\"]\n", `exp.toml:3:1: algorithm name "/tmp" is not a plain directory name`},
		{"name = \"x\"\n[[algorithms]]\nname = \".a\"\nargs = [\"check\"]\n", `exp.toml:3:1: algorithm name ".a" starts with '.'`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \"..\"\nmodels = [\"specs/a.spec\"]\n", `exp.toml:6:1: domain ".." is not a plain directory name`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \".\"\nmodels = [\"specs/a.spec\"]\n", `exp.toml:6:1: domain "." is not a plain directory name`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \"../../etc\"\nmodels = [\"specs/a.spec\"]\n", `exp.toml:6:1: domain "../../etc" is not a plain directory name`},
		{"name = \"x\"\n" + algo + "[[instances]]\nmodels = [\"../*.spec\"]\n", `exp.toml:6:1: domain "..", taken from the directory of model "../outside.spec", is not a plain directory name (it would lead out of the data directory): use letters, digits, '.', '_', '+' and '-', not only dots; set domain = "..." in this [[instances]]`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \"d\"\nname = \"..\"\nmodels = [\"specs/a.spec\"]\n", `exp.toml:7:1: problem name "..", made from name, is not a plain directory name`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \"d\"\nmodels = [\"specs/..spec\"]\n", `exp.toml:7:1: problem name ".", made from model "specs/..spec", is not a plain directory name`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \"d\"\nmodels = [\"specs/.hidden.spec\"]\n", `exp.toml:7:1: problem name ".hidden", made from model "specs/.hidden.spec", starts with '.'`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \"d\"\nmodels = [\"specs/a.spec\"]\nproperties = [\"../p\"]\n", `exp.toml:8:1: problem name "a-../p", made from property "../p", is not a plain directory name`},
		{"name = \"x\"\n" + algo + "[[instances]]\ndomain = \"d\"\nmodels = [\"specs/a.spec\"]\npolicies = [\"p q\"]\n", `exp.toml:8:1: problem name "a-p q", made from policy "p q", is not a plain directory name`},
	} {
		_, err := Parse(filepath.Join(dir, "exp.toml"), []byte(c.src))
		if err == nil || !strings.Contains(code.ReplaceAllString(err.Error(), ""), c.want) {
			t.Errorf("%q:\n got %v\nwant ...%s...", c.src, err, c.want)
		}
	}
}

// {policy} alone expands to nothing without a policy; after a flag it is
// an error that points to {policy_flag}, which expands to the flag and its
// value or to nothing.
func TestPolicyPlaceholders(t *testing.T) {
	vars := map[string]string{"model": "m.spec", "policy": ""}
	got, err := expand([]string{"run", "{model}", "{policy}", "{policy_flag}"}, vars, map[string][]string{"policy_flag": nil})
	if err != nil || strings.Join(got, " ") != "run m.spec" {
		t.Errorf("no policy: %q, %v", got, err)
	}
	if _, err := expand([]string{"run", "--policy", "{policy}"}, vars, nil); err == nil || !strings.Contains(err.Error(), "write {policy_flag} in place of both") {
		t.Errorf("--policy {policy} without a policy: %v", err)
	}
	vars["policy"] = "net.onnx"
	got, err = expand([]string{"run", "{policy_flag}", "x{policy}"}, vars, map[string][]string{"policy_flag": {"--policy-file", "net.onnx"}})
	if err != nil || strings.Join(got, " ") != "run --policy-file net.onnx xnet.onnx" {
		t.Errorf("a policy file: %q, %v", got, err)
	}
	if err := checkPlaceholders("--x={policy_flag}"); err == nil {
		t.Error("{policy_flag} inside an argument: no error")
	}
}
