package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets testscript run this binary as the `vigil` command inside
// scripts, without a separate build.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"vigil": func() {
			os.Exit(run(os.Args[1:], &env{stdout: os.Stdout, stderr: os.Stderr, stdin: os.Stdin}))
		},
	})
}

// TestScripts runs testdata/script/*.txtar: one or more files per
// subcommand. Scripts can reach the repository's specs/ through $SPECS and
// the external corpus through $CORPUS (scripts that need it skip with
// `[!corpus] skip`).
func TestScripts(t *testing.T) {
	wd, _ := os.Getwd()
	corpus := filepath.Join(wd, "..", "..", "..", "shared", "corpus")
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("SPECS", wd+"/../../specs")
			env.Setenv("CORPUS", corpus)
			return nil
		},
		// [corpus] holds when ../shared/corpus is present; scripts that use
		// it start with: [!corpus] skip 'the external corpus is absent'
		Condition: func(cond string) (bool, error) {
			if cond == "corpus" {
				_, err := os.Stat(corpus)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exitcode N PROGRAM ARGS... runs PROGRAM like exec and
			// checks that it exits with code N.
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exitcode N PROGRAM [ARGS...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exitcode: %q is not an exit code", args[0])
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("exitcode: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited with code %d, want %d", args[1], got, want)
				}
			},
		},
	})
}
