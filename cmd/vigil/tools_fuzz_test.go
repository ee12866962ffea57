package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"

	"vigil/internal/cli"
)

// toolCommands are the commands FuzzToolArgs runs: those FuzzArgs leaves
// out that read files of their own (networks, ensembles, VNNLIB
// properties, certificates, run files, JANI) and answer quickly.
var toolCommands = map[string]bool{"nn": true, "trees": true, "cert": true, "run": true, "import": true}

// FuzzToolArgs runs vigil's command line, in process, on arbitrary
// arguments for the commands FuzzArgs leaves out (nn, trees, cert check,
// run, import), with placeholders for files written beside a small model
// ($S, tarjansafe with D=3): $N a JSON network, $X an ONNX network, $T an
// XGBoost ensemble, $V a VNNLIB property, $C and $I the safety and
// invariant certificates verify --cert writes for $S, $R a run file
// verify --record writes, $J a JANI model and $P its PA property file
// (specs/plaja), $O an output path. A wrong flag or value is a usage or
// input error, never a panic (exit 70), and every command answers within
// 20 s. Numbers of more than three digits are left out (a budget of
// 10^4 runs of 10^4 steps takes as long as it says), as are paths the
// mutator writes (it runs in a temporary directory). Crashers stay in
// testdata/fuzz/FuzzToolArgs.
func FuzzToolArgs(f *testing.F) {
	for _, s := range []string{
		"nn eval $N --input 1,-1",
		"nn eval $X --input 1e308,0,0,0 --json",
		"nn bound $X --box 0:20,0:3,0:3,0:1 --method alpha",
		"nn bound $N --box -1e308:1e308,-1e308:1e308 --method crown --json",
		"nn verify $N $V --timeout 5s",
		"nn verify $X $V --timeout 5s --json",
		"trees info $T",
		"trees eval $T --input 1,0,3,0 --json",
		"trees bound $T --box 0:0..20,1:0..3 --max 0",
		"trees bound $T --box 0:..<5 --margin 1 --nodes 100",
		"trees decide $T --box 0:0..20,1:0..3 --class 1 --sure 0,2",
		"trees decide $T --class 0 --sure 1 --nodes 100 --json",
		"cert check $C",
		"cert check $I --json",
		"cert check $C -D D=3",
		"cert check $I --spec $S -D D=2",
		"run $S --policy hasty --seed 3 --steps 20",
		"run $S --policy patient --from layer=1,side=true --outcomes first --json",
		"run $S --policy hasty --replay $R",
		"run $S --policy hasty --start-index 2 --record $O",
		"run $J -D N=3 --start $P --unsafe $P --policy-file $P --steps 10",
		"import $J -D N=3",
		"import $J",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	files := map[string]string{}
	copyFile := func(key, from, name string) {
		b, err := os.ReadFile(from)
		if err != nil {
			f.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			f.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			f.Fatal(err)
		}
		if key != "" {
			files[key] = p
		}
	}
	src, err := os.ReadFile("../../specs/tarjansafe.spec")
	if err != nil {
		f.Fatal(err)
	}
	small := []byte(strings.Replace(string(src), "const D = 5", "const D = 3", 1))
	files["$S"] = filepath.Join(dir, "m.spec")
	copyFile("$X", "../../specs/policies/oneway_32x32.onnx", "net.onnx")
	copyFile("$T", "../../specs/policies/oneway_trees.json", "trees.json")
	copyFile("$J", "../../specs/plaja/counter.jani", "counter.jani")
	copyFile("$P", "../../specs/plaja/pa.jani", "pa.jani")
	copyFile("", "../../specs/plaja/start.jani", "start.jani")
	copyFile("", "../../specs/plaja/reach.jani", "reach.jani")
	copyFile("", "../../specs/plaja/net/counter.jani2nnet", "net/counter.jani2nnet")
	copyFile("", "../../specs/plaja/net/counter.nnet", "net/counter.nnet")
	write := func(key, name, text string) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			f.Fatal(err)
		}
		files[key] = p
	}
	write("$N", "net.json", `{"format": "vigil-nn", "version": 1, "layers": [
  {"weights": [[1, -1], [2, -1]], "bias": [0, 0], "activation": "relu"},
  {"weights": [[1, -1]], "bias": [0]}]}`)
	write("$V", "p.vnnlib", "(declare-const X_0 Real)\n(declare-const X_1 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 -1))\n(assert (<= X_0 2))\n(assert (>= X_1 -2))\n(assert (<= X_1 1))\n(assert (>= Y_0 2.5))\n")
	files["$C"], files["$I"], files["$R"] = filepath.Join(dir, "c.json"), filepath.Join(dir, "c.smt2"), filepath.Join(dir, "run.json")
	files["$O"] = filepath.Join(dir, "out")
	// The fixtures that vigil writes: a safety certificate (bfs), an
	// invariant certificate (ic3) and a run file.
	if err := os.WriteFile(files["$S"], small, 0o644); err != nil {
		f.Fatal(err)
	}
	for _, args := range [][]string{
		{"verify", files["$S"], "--policy", "patient", "--engine", "bfs", "--cert", files["$C"]},
		{"verify", files["$S"], "--policy", "patient", "--engine", "ic3", "--cert", files["$I"]},
		{"verify", files["$S"], "--policy", "hasty", "--engine", "bfs", "--record", files["$R"]},
	} {
		if code, out, _ := runBounded(args, time.Minute); code == cli.ExitBug || code == cli.ExitUsage || code == cli.ExitError {
			f.Fatalf("vigil %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
	}
	fixtures := map[string][]byte{}
	for k, p := range files {
		if b, err := os.ReadFile(p); err == nil && k != "$O" {
			fixtures[p] = b
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 || !toolCommands[args[0]] {
			return
		}
		if !smallDefines(args) || longNumber(line) {
			return
		}
		for i, a := range args {
			if strings.Contains(a, "/") {
				return // a path of the mutator's own: it may be anywhere
			}
			for k, p := range files {
				a = strings.ReplaceAll(a, k, p)
			}
			args[i] = a
		}
		// A command may have overwritten a fixture (-o, --record): put
		// them back.
		out := runFuzzedArgs(t, dir, args, func() {
			for p, b := range fixtures {
				if err := os.WriteFile(p, b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
		for _, internal := range []string{"Go struct field", "cannot unmarshal", "json: unsupported", "goroutine "} {
			if strings.Contains(out, internal) {
				t.Fatalf("vigil %s: Go internals in the output:\n%s", strings.Join(args, " "), out)
			}
		}
	})
}

// longNumber reports whether s has a run of more than three digits.
func longNumber(s string) bool {
	run := 0
	for _, r := range s {
		if unicode.IsDigit(r) {
			if run++; run > 3 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
