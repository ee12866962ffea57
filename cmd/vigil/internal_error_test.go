package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/internal/cli"
	"vigil/internal/vigilerr"
	"vigil/smt"
	"vigil/symbolic"
	"vigil/symbolic/explicit"
	"vigil/verify"
)

// The internal-error paths are those a correct engine never takes: vigil
// checks its own answer (a counterexample replays, an invariant checks)
// before printing it. corruptAnswer alters the engine's answer so that
// the check fails; vigil must then exit 70, never 1 (bad input), and
// print no verdict.
func TestInternalErrorExits70(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "m.spec")
	src := "model m\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty unsafe_at_2 { unsafe x == 2 }\nproperty never { unsafe x == 3 && x == 0 }\n"
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	dropLast := func(tr []explicit.Step) []explicit.Step { return tr[:len(tr)-1] }
	noBoxes := func([][]smt.Lit) [][]smt.Lit { return [][]smt.Lit{} }
	// A linear atom over a variable the model lacks: the checker cannot
	// write it, which must be an internal error naming it, never a
	// silently dropped atom.
	badAtom := func(inv [][]smt.Lit) [][]smt.Lit {
		f := symbolic.NewForm([]symbolic.Term{{Coef: 1, Var: 0}, {Coef: 2, Var: 7}})
		return append(inv, []smt.Lit{smt.FormLit(f, true, 3)})
	}
	for _, c := range []struct {
		name string
		hook *verify.Tamper
		args []string
		want string
		json bool
	}{
		{"bfs counterexample", &verify.Tamper{Trace: dropLast}, []string{"--engine", "bfs", "--property", "unsafe_at_2"}, "vigil verify: internal error: the counterexample does not replay", false},
		{"ic3 counterexample", &verify.Tamper{Trace: dropLast}, []string{"--engine", "ic3", "--property", "unsafe_at_2"}, "vigil verify: internal error: the ic3 counterexample does not replay in the explicit semantics", false},
		{"bdd counterexample", &verify.Tamper{Trace: dropLast}, []string{"--engine", "bdd", "--property", "unsafe_at_2"}, "vigil verify: internal error: the BDD counterexample does not replay", false},
		{"ic3 invariant", &verify.Tamper{Invariant: noBoxes}, []string{"--engine", "ic3", "--property", "never"}, "vigil verify: internal error: the ic3 invariant does not check", false},
		{"ic3 invariant, inexpressible atom", &verify.Tamper{Invariant: badAtom}, []string{"--engine", "ic3", "--property", "never"}, "linear atom 1*v0+2*v7 <= 3 on variable 7, which model m lacks", false},
		{"ic3 counterexample, json", &verify.Tamper{Trace: dropLast}, []string{"--engine", "ic3", "--property", "unsafe_at_2", "--json"}, "internal error: the ic3 counterexample does not replay", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			corruptAnswer = c.hook
			defer func() { corruptAnswer = nil }()
			var stdout, stderr bytes.Buffer
			code := cli.Main(append([]string{"verify", spec}, c.args...), &cli.Env{Stdout: &stdout, Stderr: &stderr})
			if code != cli.ExitBug {
				t.Errorf("exit code %d, want %d (internal error)\nstdout: %s\nstderr: %s", code, cli.ExitBug, stdout.String(), stderr.String())
			}
			if !strings.Contains(stderr.String(), c.want) || !strings.Contains(stderr.String(), "This is a bug in vigil") {
				t.Errorf("stderr %q does not say %q and that it is a bug", stderr.String(), c.want)
			}
			if !c.json {
				if strings.Contains(stdout.String(), "safe") {
					t.Errorf("a verdict was printed: %s", stdout.String())
				}
				return
			}
			var obj struct {
				Error    string `json:"error"`
				ExitCode int    `json:"exit_code"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &obj); err != nil || obj.ExitCode != cli.ExitBug || !strings.Contains(obj.Error, "internal error") {
				t.Errorf("--json: stdout %s (%v), want an error object with exit_code 70", stdout.String(), err)
			}
		})
	}
	// Without the hook the same commands give their verdicts.
	for _, c := range [][]string{{"--engine", "bfs", "--property", "unsafe_at_2"}, {"--engine", "ic3", "--property", "never"}} {
		var stdout, stderr bytes.Buffer
		if code := cli.Main(append([]string{"verify", spec}, c...), &cli.Env{Stdout: &stdout, Stderr: &stderr}); code != cli.ExitUnsafe && code != cli.ExitOK {
			t.Errorf("%v: exit code %d: %s", c, code, stderr.String())
		}
	}
}

// An engine's own internal error (a vigilerr.Internal), reported by a
// command as a plain error ("vigil CMD: pkg: internal error: ..."), exits
// 70 too, also when wrapped; an error whose text merely reads "internal
// error" does not: the exit code follows the error's type, not its text.
func TestPackageInternalErrorExits70(t *testing.T) {
	for _, c := range []struct {
		err    error
		stderr string
		want   int
	}{
		{vigilerr.Internalf("explicit", "no predecessor while rebuilding a counterexample"), "vigil probe: explicit: internal error: no predecessor while rebuilding a counterexample\n", cli.ExitBug},
		{vigilerr.InternalAtf("smt", symbolic.Pos{File: "m.spec", Line: 3, Col: 5}, "witness %s does not replay", "x=1"), "vigil probe: smt: m.spec:3:5: internal error: witness x=1 does not replay\n", cli.ExitBug},
		{fmt.Errorf("run step 2: %w", vigilerr.Internalf("safety", "no proof that x=1 is not safe")), "vigil probe: run step 2: safety: internal error: no proof that x=1 is not safe\n", cli.ExitBug},
		{errors.New("m.spec:3:1: unknown variable \"y\" in // vigil x: internal error: "), "vigil probe: m.spec:3:1: unknown variable \"y\" in // vigil x: internal error: \n", cli.ExitError},
		{errors.New("m.spec: no such file or directory"), "vigil probe: m.spec: no such file or directory\n", cli.ExitError},
	} {
		name := "internal-error-probe"
		cli.Commands[name] = &cli.Command{Name: name, Run: func(e *cli.Env, args []string) int {
			fmt.Fprintf(e.Stderr, "vigil probe: %v\n", c.err)
			return cli.ExitFor(c.err)
		}}
		var stdout, stderr bytes.Buffer
		code := cli.Main([]string{name}, &cli.Env{Stdout: &stdout, Stderr: &stderr})
		delete(cli.Commands, name)
		if code != c.want {
			t.Errorf("%q: exit code %d, want %d", c.stderr, code, c.want)
		}
		if stderr.String() != c.stderr {
			t.Errorf("stderr %q, want %q", stderr.String(), c.stderr)
		}
	}
}
