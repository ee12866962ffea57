package main

import (
	"fmt"
	"os"
	"path/filepath"
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
	})
}
