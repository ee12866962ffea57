package main

import (
	"context"
	"errors"
	"fmt"
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

// TestBenchExportsParse is issue 27's "bad input" check: the question of
// every instance of every benchmark experiment in bench/ is exported as
// CHC, and the z3 binary parses the export. The questions are those an
// experiment gives Spacer (an algorithm with a program and a preparation
// step that exports, as in bench/ic3scaling.toml), made with that
// experiment's own command, and those it gives vigil verify (model, -D
// values, policy, property and PlaJA conditions), exported over the same
// arguments; a learned policy, which export refuses by design, is
// skipped. Spacer may need longer than the second it gets here to answer,
// but it must never report an error in the file: that would be a bug in
// the export.
func TestBenchExportsParse(t *testing.T) {
	if _, err := smtlib.Z3Path(); err != nil {
		t.Skipf("no z3 binary: %v", err)
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "bench", "*.toml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no experiment in bench/ (%v)", err)
	}
	tmp := t.TempDir()
	seen := map[string]bool{}
	checked, learned := 0, 0
	for _, file := range files {
		x, err := batch.Load(file)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		for _, r := range x.Runs {
			question := filepath.Join(tmp, fmt.Sprintf("q%d.smt2", len(seen)))
			var args []string
			switch {
			case r.Program != "" && slices.Contains(r.Prepare, "--chc"):
				for _, a := range r.Prepare {
					args = append(args, strings.ReplaceAll(a, "{run_dir}/question.smt2", question))
				}
			case len(r.Args) > 1 && r.Args[0] == "verify":
				args = exportArgs(r.Args, question)
			default:
				continue
			}
			key := x.Dir + "\x00" + strings.Join(args, "\x00")
			key = strings.ReplaceAll(key, question, "")
			if seen[key] {
				continue
			}
			seen[key] = true
			// This test binary is vigil with VIGIL_TEST_AS_VIGIL=1; the
			// export runs in the experiment's directory, as batch runs it.
			cmd := exec.Command(os.Args[0], args...)
			cmd.Dir = x.Dir
			cmd.Env = append(os.Environ(), "VIGIL_TEST_AS_VIGIL=1")
			out, err := cmd.CombinedOutput()
			if err != nil && strings.Contains(string(out), "only rules and table policies can be exported exactly") {
				learned++
				continue
			}
			if err != nil {
				t.Errorf("%s: %s: vigil %s: %v\n%s", file, r.ID, strings.Join(args, " "), err, out)
				continue
			}
			if _, err := os.Stat(question); err != nil {
				t.Errorf("%s: %s: vigil %s wrote no %s: the test expects the export in {run_dir}/question.smt2", file, r.ID, strings.Join(args, " "), filepath.Base(question))
				continue
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			zout, err := smtlib.RunZ3(ctx, question)
			timedOut := errors.Is(ctx.Err(), context.DeadlineExceeded)
			cancel()
			if strings.Contains(zout, "(error") || err != nil && !timedOut {
				t.Errorf("%s: %s: z3 on the CHC export of vigil %s: %v\n%s", file, r.ID, strings.Join(args, " "), err, zout)
			}
			checked++
		}
	}
	if checked < 31 {
		t.Errorf("only %d questions of bench/ were exported; bench/ic3scaling.toml alone has 31", checked)
	}
	t.Logf("%d CHC exports parse in z3; %d questions with a learned policy skipped", checked, learned)
}

// exportArgs are the vigil export --chc arguments of the question a
// vigil verify command decides: its model, -D values, policy, property
// and PlaJA conditions, without the engine's options.
func exportArgs(verify []string, out string) []string {
	args := []string{"export", "--chc", verify[1]}
	keep := map[string]bool{"-D": true, "--policy": true, "--policy-file": true, "--property": true, "--start": true, "--unsafe": true}
	for i := 2; i < len(verify); i++ {
		if keep[verify[i]] && i+1 < len(verify) {
			args = append(args, verify[i], verify[i+1])
			i++
		}
	}
	return append(args, "-o", out)
}
