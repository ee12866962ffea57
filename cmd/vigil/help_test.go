package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"vigil/internal/cli"
)

func runCapture(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = cli.Main(args, &cli.Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")})
	return code, out.String(), errb.String()
}

// helpPaths lists every command and sub-command.
func helpPaths() [][]string {
	var paths [][]string
	for name := range cli.Commands {
		paths = append(paths, strings.Fields(name))
	}
	sort.Slice(paths, func(i, j int) bool { return strings.Join(paths[i], " ") < strings.Join(paths[j], " ") })
	return paths
}

// TestHelpEverywhere: for every command and sub-command, vigil help X,
// vigil X --help and vigil X -h print the same text on stdout, with a
// synopsis and examples, and exit 0.
func TestHelpEverywhere(t *testing.T) {
	paths := helpPaths()
	if len(paths) < 20 {
		t.Fatalf("only %d commands registered", len(paths))
	}
	for _, p := range paths {
		name := strings.Join(p, " ")
		t.Run(name, func(t *testing.T) {
			code, want, stderr := runCapture(append([]string{"help"}, p...)...)
			if code != cli.ExitOK || stderr != "" {
				t.Fatalf("vigil help %s: exit %d, stderr %q", name, code, stderr)
			}
			for _, h := range []string{"--help", "-h", "-help"} {
				code, got, stderr := runCapture(append(append([]string(nil), p...), h)...)
				if code != cli.ExitOK || stderr != "" || got != want {
					t.Errorf("vigil %s %s: exit %d, stderr %q, stdout differs from vigil help %s: %v\n%s", name, h, code, stderr, name, got != want, got)
				}
			}
			if !strings.Contains(want, "usage: vigil "+name) {
				t.Errorf("vigil help %s: no synopsis (usage: vigil %s ...):\n%s", name, name, want)
			}
			if !strings.Contains(want, "\nExamples:\n  vigil ") {
				t.Errorf("vigil help %s: no examples:\n%s", name, want)
			}
		})
	}
}

func TestHelpTopicsAndRoot(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"-h"}, {"help", "exit-codes"}, {"help", "help"}} {
		code, out, stderr := runCapture(args...)
		if code != cli.ExitOK || out == "" || stderr != "" {
			t.Errorf("vigil %s: exit %d, stderr %q", strings.Join(args, " "), code, stderr)
		}
	}
	_, out, _ := runCapture("help", "exit-codes")
	for _, want := range []string{"  0 ", "  1 ", "  2 ", "  3 ", "  4 ", "  70 "} {
		if !strings.Contains(out, want) {
			t.Errorf("vigil help exit-codes lacks %q", want)
		}
	}
	if code, _, stderr := runCapture("help", "nosuch"); code != cli.ExitUsage || !strings.Contains(stderr, "unknown command or topic") {
		t.Errorf("vigil help nosuch: exit %d, %q", code, stderr)
	}
}

// TestPanicIsABug: a panic in a command exits 70 with a "bug" message,
// never 2 (a usage error, and the Go runtime's panic code).
func TestPanicIsABug(t *testing.T) {
	cli.Register(&cli.Command{Name: "panic-for-test", Usage: "vigil panic-for-test", Run: func(*cli.Env, []string) int { panic("boom") }})
	defer delete(cli.Commands, "panic-for-test")
	code, _, stderr := runCapture("panic-for-test")
	if code != cli.ExitBug || !strings.Contains(stderr, "bug in vigil") || !strings.Contains(stderr, "boom") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	code, stdout, _ := runCapture("panic-for-test", "--json")
	var je cli.JSONError
	if code != cli.ExitBug || json.Unmarshal([]byte(stdout), &je) != nil || je.Exit != cli.ExitBug || !strings.Contains(je.Error, "boom") {
		t.Fatalf("--json: exit %d, stdout %q", code, stdout)
	}
}

// TestJSONErrors: under --json a failing command prints one JSON error
// object on stdout, with the position of a diagnostic.
func TestJSONErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.spec")
	if err := os.WriteFile(bad, []byte("model m\nvar x : 0 .. 3 = 0\naction a when y > 0 -> x' = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		exit int
		file string
		line int
		want string
	}{
		{[]string{"verify", bad, "--json"}, cli.ExitError, bad, 3, "y"},
		{[]string{"explore", filepath.Join(dir, "none.spec"), "--json"}, cli.ExitError, "", 0, "none.spec"},
		{[]string{"verify", bad, "--json", "--timeout", "soon"}, cli.ExitUsage, "", 0, "want a duration"},
		{[]string{"verify", bad, "--json", "--max-states", "-3"}, cli.ExitUsage, "", 0, "negative"},
		{[]string{"nn", "eval", "--json"}, cli.ExitUsage, "", 0, ""},
	} {
		code, stdout, _ := runCapture(tc.args...)
		var je cli.JSONError
		if err := json.Unmarshal([]byte(stdout), &je); err != nil {
			t.Errorf("vigil %s: stdout is not a JSON error: %v\n%s", strings.Join(tc.args, " "), err, stdout)
			continue
		}
		if code != tc.exit || je.Exit != code || je.Error == "" || je.File != tc.file || je.Line != tc.line || !strings.Contains(je.Error, tc.want) {
			t.Errorf("vigil %s: exit %d, %+v", strings.Join(tc.args, " "), code, je)
		}
	}
}

// TestHelpExamplesFilesExist: the repository files that help examples
// name (specs/..., bench/...) exist, and no example names a path outside
// the repository (../), which a reader of the help does not have.
func TestHelpExamplesFilesExist(t *testing.T) {
	repoFile := regexp.MustCompile(`^(specs|bench)/[^*{]+\.(spec|jani|toml|json|onnx|nnet)$`)
	for name, c := range cli.Commands {
		for _, ex := range c.Examples {
			for _, tok := range strings.Fields(ex) {
				tok = strings.Trim(tok, `"';`)
				if strings.Contains(tok, "../") {
					t.Errorf("vigil help %s: example %q names %s, outside the repository", name, ex, tok)
				}
				if !repoFile.MatchString(tok) {
					continue
				}
				if _, err := os.Stat(filepath.Join("..", "..", tok)); err != nil {
					t.Errorf("vigil help %s: example %q names %s, which is not in the repository", name, ex, tok)
				}
			}
		}
	}
}

// TestSharedFlagTypes: in every command, --timeout (and --budget) is a
// durationFlag (a duration or bare seconds, never negative) and the
// counts are countFlags (whole numbers >= 0).
func TestSharedFlagTypes(t *testing.T) {
	durations := map[string]bool{"timeout": true, "budget": true}
	counts := map[string]bool{"max-states": true, "max-nodes": true, "nodes": true, "start-index": true, "cubes": true}
	seen := 0
	for name, c := range cli.Commands {
		_, fs := cli.ProbeFlags(c)
		if fs == nil {
			continue
		}
		fs.VisitAll(func(f *flag.Flag) {
			switch {
			case durations[f.Name]:
				seen++
				if _, ok := f.Value.(cli.DurationValue); !ok {
					t.Errorf("vigil %s --%s is a %T; register it with timeoutFlag or addDurationFlag", name, f.Name, f.Value)
				}
			case counts[f.Name]:
				seen++
				if _, ok := f.Value.(cli.CountValue); !ok {
					t.Errorf("vigil %s --%s is a %T; register it with addCountFlag", name, f.Name, f.Value)
				}
			}
		})
	}
	if seen < 10 {
		t.Fatalf("only %d shared flags found", seen)
	}
}
