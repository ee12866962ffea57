package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"vigil/batch"
	"vigil/smt/smtlib"
)

// TestBenchExportsParse is issue 27's "bad input" check: every instance of
// every benchmark experiment in bench/ that gives a question to Spacer
// (an algorithm with a program and a preparation step, as in
// bench/ic3scaling.toml) is exported with that experiment's own vigil
// export command, and the z3 binary parses the export. Spacer may need
// longer than the second it gets here to answer, but it must never
// report an error in the file: that would be a bug in the export.
func TestBenchExportsParse(t *testing.T) {
	if _, err := smtlib.Z3Path(); err != nil {
		t.Skipf("no z3 binary: %v", err)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "bench", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiment in bench/ (%v)", err)
	}
	tmp := t.TempDir()
	checked := 0
	for _, file := range files {
		x, err := batch.Load(file)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for _, r := range x.Runs {
			if r.Program == "" || len(r.Prepare) == 0 || !slices.Contains(r.Prepare, "--chc") {
				continue
			}
			dir := filepath.Join(tmp, strings.ReplaceAll(r.ID, "/", "_"))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			args := make([]string, len(r.Prepare))
			for i, a := range r.Prepare {
				args[i] = strings.ReplaceAll(a, "{run_dir}", dir)
			}
			// This test binary is vigil with VIGIL_TEST_AS_VIGIL=1; the
			// export runs in the experiment's directory, as batch runs it.
			cmd := exec.Command(os.Args[0], args...)
			cmd.Dir = x.Dir
			cmd.Env = append(os.Environ(), "VIGIL_TEST_AS_VIGIL=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: %s: vigil %s: %v\n%s", file, r.ID, strings.Join(args, " "), err, out)
				continue
			}
			question := filepath.Join(dir, "question.smt2")
			if _, err := os.Stat(question); err != nil {
				t.Errorf("%s: %s: the preparation step wrote no %s: the test expects -o {run_dir}/question.smt2", file, r.ID, filepath.Base(question))
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			out, err := smtlib.RunZ3(ctx, question)
			timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
			cancel()
			if strings.Contains(out, "(error") || err != nil && !timedOut {
				t.Errorf("%s: %s: z3 on the CHC export of vigil %s: %v\n%s", file, r.ID, strings.Join(args, " "), err, out)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Fatal("no benchmark experiment gives Spacer a question (bench/ic3scaling.toml should)")
	}
	t.Logf("%d CHC exports parse in z3", checked)
}
