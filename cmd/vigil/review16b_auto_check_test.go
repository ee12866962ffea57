package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/cli"
	"vigil/smt"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// TestAutoChecksTheWinner (review16b): the auto portfolio checks its
// winner's answer as a single engine's is checked. With the answer
// corrupted (corruptAnswer, as TestInternalErrorExits70 does for each
// engine) the portfolio exits 70 and prints no verdict, writes no
// certificate and no run file, whichever member wins: bfs on a small
// model, ic3 (its invariant emptied) where bfs cannot finish, and bfs, ic3
// or the hunter on a deep counterexample (its last step dropped).
func TestAutoChecksTheWinner(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	small := write("small.spec", "model small\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty at2 { unsafe x == 2 }\n")
	large := write("large.spec", "model large\nvar x : 0 .. 1000000000 = 0\nvar y : 0 .. 1000000000 = 0\n"+
		"action a when x < 1000000000 -> x' = x + 1\naction b when y < x -> y' = y + 1\nproperty p { unsafe y > x }\n")
	deep := write("deep.spec", "model deep\nvar x : 0 .. 200 = 0\nvar y : 0 .. 1000000\n"+
		"action step when x < 200 -> x' = x + 1\naction jog when x < 200 -> x' = x + 1, y' = min(y + 1, 1000000)\n"+
		"policy rules go {\n    when y < 500000 -> step\n    otherwise -> jog\n}\nproperty p { start x == 0  unsafe x == 90 }\n")
	dropLast := func(tr []explicit.Step) []explicit.Step { return tr[:len(tr)-1] }
	noBoxes := func([][]smt.Lit) [][]smt.Lit { return [][]smt.Lit{} }
	for _, c := range []struct {
		name string
		hook *verify.Tamper
		spec string
		want string
	}{
		{"bfs counterexample", &verify.Tamper{Trace: dropLast}, small, "does not replay"},
		{"ic3 invariant", &verify.Tamper{Invariant: noBoxes}, large, "the ic3 invariant does not check"},
		{"deep counterexample", &verify.Tamper{Trace: dropLast}, deep, "does not replay"},
	} {
		t.Run(c.name, func(t *testing.T) {
			corruptAnswer = c.hook
			defer func() { corruptAnswer = nil }()
			certFile, runFile := filepath.Join(dir, c.name+".smt2"), filepath.Join(dir, c.name+".json")
			var stdout, stderr bytes.Buffer
			code := cli.Main([]string{"verify", c.spec, "--engine", "auto", "--quiet", "--timeout", "60s", "--cert", certFile, "--record", runFile},
				&cli.Env{Stdout: &stdout, Stderr: &stderr})
			if code != cli.ExitBug {
				t.Errorf("exit code %d, want %d (internal error)\nstdout: %s\nstderr: %s", code, cli.ExitBug, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) || !strings.Contains(stderr.String(), "This is a bug in vigil") {
				t.Errorf("stderr %q does not say %q and that it is a bug", stderr.String(), c.want)
			}
			if strings.Contains(stdout.String(), "safe") {
				t.Errorf("a verdict was printed: %s", stdout.String())
			}
			for _, f := range []string{certFile, runFile} {
				if _, err := os.Stat(f); err == nil {
					t.Errorf("%s was written", filepath.Base(f))
				}
			}
		})
	}
}
