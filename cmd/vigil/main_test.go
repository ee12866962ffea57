package main

import (
	"os"
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
// the external corpus through $CORPUS (skip with `[!exec:...]`-style
// conditions where it is absent).
func TestScripts(t *testing.T) {
	wd, _ := os.Getwd()
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("SPECS", wd+"/../../specs")
			env.Setenv("CORPUS", wd+"/../../../shared/corpus")
			return nil
		},
		UpdateScripts: os.Getenv("UPDATE_SCRIPTS") != "",
	})
}
