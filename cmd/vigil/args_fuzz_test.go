package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"vigil/internal/cli"
)

// fuzzCommands are the commands FuzzArgs runs: those that read a model
// and flags and answer quickly on a small model (not batch, bench, lsp,
// serve or train, which start processes, servers or long runs).
var fuzzCommands = map[string]bool{"check": true, "fmt": true, "explore": true, "verify": true, "safe": true, "export": true, "faults": true, "prob": true, "help": true, "version": true}

// FuzzArgs runs vigil's command line, in process, on arbitrary arguments
// (separated by spaces; $S is a small model, tarjansafe with D=3): a wrong
// flag or value is a usage error or an input error, never a panic (exit
// 70), and every command answers within 20 s. Constant overrides (-D)
// are run when their value is small (at most three digits, or a name):
// larger ones may make the model as large as they like. Paths the
// mutator writes are left out (it runs in a temporary directory).
// Crashers stay in testdata/fuzz/FuzzArgs.
func FuzzArgs(f *testing.F) {
	for _, s := range []string{
		"check $S",
		"check $S --json",
		"fmt -d $S",
		"explore $S --engine bfs --json",
		"explore $S --engine bdd --max-nodes 10",
		"verify $S --policy hasty --engine bfs",
		"verify $S --policy patient --engine ic3 --timeout 5s --json",
		"verify $S --policy hasty --engine ppa -j 2 --max-states 100",
		"verify $S --policy hasty --engine bdd --property no_crash",
		"verify $S --policy nope --engine nope",
		"safe $S --policy hasty --radius 2 --algo tarjan --state layer=1,side=true",
		"safe $S --policy hasty --radius 0 --algo propu-bdd --all --cubes 3",
		"safe $S --policy hasty --radius inf --starts",
		"verify $S --policy hasty --engine bfs --record $O",
		"faults $S --policy hasty --run $O --seed 3",
		"export --jani $S --property no_crash --policy hasty -o $O",
		"export --chc $S --policy hasty -o $O",
		"prob $S --policy hasty",
		"verify $S --policy hasty --engine bfs --timeout -1s --workers 0 --max-states -5",
		"help verify",
		"verify $S -D D=2 --policy hasty --engine ic3",
		"safe $S -D=D=0 --policy patient --radius 1 --algo ipi",
		"explore $S -D D=-1 --engine bfs",
		"check $S -D D=true -D nope=1",
		"verify $S --D D= --policy hasty",
	} {
		f.Add(s)
	}
	src, err := os.ReadFile("../../specs/tarjansafe.spec")
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	spec := filepath.Join(dir, "m.spec")
	small := strings.Replace(string(src), "const D = 5", "const D = 3", 1)
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 || !fuzzCommands[args[0]] {
			return
		}
		if !smallDefines(args) {
			return
		}
		for i, a := range args {
			if strings.Contains(a, "/") {
				return // a path of the mutator's own: it may be anywhere
			}
			a = strings.ReplaceAll(a, "$S", spec)
			args[i] = strings.ReplaceAll(a, "$O", filepath.Join(dir, "out"))
		}
		runFuzzedArgs(t, dir, args, func() {
			if err := os.WriteFile(spec, []byte(small), 0o644); err != nil {
				t.Fatal(err)
			}
		})
	})
}

// runFuzzedArgs runs vigil with a fuzzed command line in dir, where
// relative paths (-o x.jani) land, after prepare has put the fixtures
// back, and fails on no answer within 20 s or an internal error; it
// returns the output.
func runFuzzedArgs(t *testing.T, dir string, args []string, prepare func()) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	prepare()
	code, out, done := runBounded(args, 20*time.Second)
	if !done {
		t.Fatalf("vigil %s: no answer within 20 s", strings.Join(args, " "))
	}
	if code == cli.ExitBug {
		t.Fatalf("vigil %s: exit %d (a bug):\n%s", strings.Join(args, " "), code, out)
	}
	return out
}

// smallDefines reports whether every constant override among args (-D
// NAME=VALUE, -D=NAME=VALUE, with one or two dashes) has a value of at
// most three digits or no digit at all, so that the model stays small.
func smallDefines(args []string) bool {
	small := func(def string) bool {
		_, v, _ := strings.Cut(def, "=")
		digits := strings.Count(v, "0") + strings.Count(v, "1") + strings.Count(v, "2") +
			strings.Count(v, "3") + strings.Count(v, "4") + strings.Count(v, "5") +
			strings.Count(v, "6") + strings.Count(v, "7") + strings.Count(v, "8") + strings.Count(v, "9")
		return digits == 0 || (digits <= 3 && strings.Trim(v, "-0123456789") == "")
	}
	for i := 0; i < len(args); i++ {
		name, value, hasValue := strings.Cut(strings.TrimLeft(args[i], "-"), "=")
		if !strings.HasPrefix(args[i], "-") || name != "D" {
			continue
		}
		if hasValue {
			if !small(value) {
				return false
			}
			continue
		}
		if i+1 < len(args) && !small(args[i+1]) {
			return false
		}
		i++
	}
	return true
}
