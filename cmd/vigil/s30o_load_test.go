package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"vigil/internal/cli"
	"vigil/internal/untildone"
)

// s30oRecordToFIFO returns the arguments of a vigil verify that answers
// unsafe, prints its answer and then blocks, not polling its context, on
// opening its --record file: a FIFO no one reads. The second-signal tests
// use it as their phase that does not poll (before session 30 they used
// verify --policy all reading its model from a FIFO, which now stops at
// the first signal).
func s30oRecordToFIFO(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	out := filepath.Join(dir, "run.fifo")
	if err := syscall.Mkfifo(out, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	spec := filepath.Join(dir, "u.spec")
	text := "model u\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty p {\n    unsafe x == 3\n}\n"
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"verify", spec, "--property", "p", "--record", out}
}

// s30oFIFOs makes, in a new directory, FIFOs no one writes named like a
// model, an ensemble, a network and a VNNLIB property (reading one blocks
// for good, as a loader that does not poll is held by a large file), and
// a run file naming property p and policy q (vigil faults --run).
func s30oFIFOs(t *testing.T) (spec, ens, net, prop, run string) {
	t.Helper()
	dir := t.TempDir()
	spec, ens, net, prop = filepath.Join(dir, "blocked.spec"), filepath.Join(dir, "blocked.json"), filepath.Join(dir, "blocked.onnx"), filepath.Join(dir, "blocked.vnnlib")
	for _, f := range []string{spec, ens, net} {
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Skip("no FIFO:", err)
		}
	}
	run = filepath.Join(dir, "run.json")
	if err := os.WriteFile(run, []byte(`{"property": "p", "policy": "q"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prop, []byte("(declare-const X_0 Real)\n(declare-const Y_0 Real)\n(assert (>= X_0 0))\n(assert (<= X_0 1))\n(assert (>= Y_0 0))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return spec, ens, net, prop, run
}

// s30oBlocked is a command whose load blocks on one of s30oFIFOs' files:
// the command's name as its messages give it, its arguments (without
// those a test adds) and the file it reports as loading.
type s30oBlocked struct {
	cmd  string
	args []string
	file string
}

// s30oBlockedCommands are the commands whose loading did not stop at the
// first signal nor at --timeout (verify --policy all's and faults'
// preloads of the model; trees bound and decide and nn verify, whose
// loads ran before they watched the signals and started their limit):
// the signal and the timeout tests run each, adding their own flags.
func s30oBlockedCommands(spec, ens, net, prop, run string) []s30oBlocked {
	return []s30oBlocked{
		{"verify", []string{"verify", spec, "--property", "p", "--policy", "all"}, spec},
		{"faults", []string{"faults", spec, "--run", run}, spec},
		{"trees bound", []string{"trees", "bound", ens, "--margin", "0"}, ens},
		{"trees decide", []string{"trees", "decide", ens, "--class", "1", "--sure", "0"}, ens},
		{"nn verify", []string{"nn", "verify", net, prop}, net},
	}
}

// TestS30oFirstSignalStopsLoading: the commands whose loading did not
// stop at the first Ctrl-C or SIGTERM (s30oBlockedCommands; the signal
// ended trees and nn with 130 or 143 and no word of what they were doing)
// stop waiting for the load at once: "interrupted while loading", exit 4,
// as the other commands with an unknown outcome. Before, verify --policy
// all and faults went on waiting for the FIFO (the test's limit ran out).
// Each command is run with SIGINT, and with SIGTERM under --timeout 1h,
// with a variant of its flags (a --policy list of globs, faults with
// --property given, trees bound with --max).
func TestS30oFirstSignalStopsLoading(t *testing.T) {
	if testing.Short() {
		t.Skip("starts vigil in a subprocess")
	}
	spec, ens, net, prop, run := s30oFIFOs(t)
	variant := map[string][]string{
		"verify":      {"verify", spec, "--policy", "a*,b"},
		"faults":      {"faults", spec, "--run", run, "--property", "p"},
		"trees bound": {"trees", "bound", ens, "--max", "0"},
	}
	for _, c := range s30oBlockedCommands(spec, ens, net, prop, run) {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			args := c.args
			if sig == syscall.SIGTERM {
				if v, ok := variant[c.cmd]; ok {
					args = v
				}
				args = append(slices.Clone(args), "--timeout", "1h")
			}
			t.Run(c.cmd+" "+sig.String(), func(t *testing.T) {
				code, stdout, stderr, late := signalVigil(t, args, 5*time.Second, timedSignal{300 * time.Millisecond, sig})
				t.Logf("exit %d, %v after the signal", code, late.Round(time.Millisecond))
				want := fmt.Sprintf("vigil %s: interrupted while loading %s; no results\n", c.cmd, c.file)
				if code != 4 || stderr != want || stdout != "" {
					t.Errorf("exit %d, stdout %q, stderr %q; want 4 and %q", code, stdout, stderr, want)
				}
			})
		}
	}
}

// TestS30oTimeoutCountsLoading: --timeout bounds the loading of these
// commands too (s30oBlockedCommands), once: verify --policy all and faults
// report the stop of their preload at the command's own load without
// loading again (one message, one timeout: a second load would wait
// another second), and trees bound and decide and nn verify start their
// limit before the load (before, they waited for the FIFO for good: their
// limit started after the load). trees bound runs with --json: the
// message is also the JSON error object on stdout.
func TestS30oTimeoutCountsLoading(t *testing.T) {
	if testing.Short() {
		t.Skip("starts vigil in a subprocess")
	}
	spec, ens, net, prop, run := s30oFIFOs(t)
	for _, c := range s30oBlockedCommands(spec, ens, net, prop, run) {
		args := append(slices.Clone(c.args), "--timeout", "1s")
		if c.cmd == "trees bound" {
			args = append(args, "--json")
		}
		t.Run(c.cmd, func(t *testing.T) {
			start := time.Now()
			cmd, out, errOut, done := startVigil(t, args)
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("still running after 20 s (--timeout 1s):\n%s%s", out.Bytes(), errOut.Bytes())
			}
			t.Logf("%v", time.Since(start).Round(time.Millisecond))
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			}
			want := fmt.Sprintf("vigil %s: --timeout 1s ran out while loading %s; no results (the model's loading counts against it)\n", c.cmd, c.file)
			// with --json, also the JSON error object on stdout
			wantOut := ""
			if slices.Contains(args, "--json") {
				wantOut = fmt.Sprintf(`{"error":%q,"exit_code":4}`+"\n", strings.TrimSuffix(want, "\n"))
			}
			if code != 4 || errOut.String() != want || out.String() != wantOut {
				t.Errorf("exit %d, stdout %q, stderr %q; want 4, %q and %q", code, out, errOut, wantOut, want)
			}
		})
	}
}

// TestS30oTreesTimeoutAfterLoad: what the load leaves of --timeout goes to
// the search, which still answers within it: a tiny --timeout stops the
// search at once with anytime bounds (exit 4, "the time limit passed")
// after a load that took longer than it, and a generous one answers.
func TestS30oTreesTimeoutAfterLoad(t *testing.T) {
	forest := filepath.Join("..", "..", "specs", "policies", "oneway_trees.json")
	code, out, errs := s30oVigil(t, "trees", "bound", forest, "--margin", "1", "--timeout", "1ns")
	if code != 4 || !strings.Contains(out, "the time limit passed; raise --timeout") {
		t.Errorf("--timeout 1ns: exit %d, stdout %q, stderr %q; want 4 and the time limit", code, out, errs)
	}
	code, out, errs = s30oVigil(t, "trees", "decide", forest, "--class", "1", "--sure", "0", "--timeout", "1m")
	if code != 0 && code != 3 || errs != "" {
		t.Errorf("--timeout 1m: exit %d, stdout %q, stderr %q; want an answer", code, out, errs)
	}
}

// TestS30oRepanic: a panic on the loader's goroutine (untildone.Run
// catches it there) is raised again on the command's, where runCommand
// reports it as vigil's bug (exit 70) with the panic's value and the
// loader's stack; before, load.go's copy of the helper let it end the
// process with Go's exit 2, the usage error's code.
func TestS30oRepanic(t *testing.T) {
	repanic(nil)
	repanic(errors.New("an ordinary error is not a panic"))
	_, err := untildone.Run(t.Context(), func() (int, error) { panic("loader bug") })
	defer func() {
		r := recover()
		s, _ := r.(string)
		if !strings.Contains(s, "loader bug") || !strings.Contains(s, "the loader's stack") || !strings.Contains(s, "TestS30oRepanic") {
			t.Errorf("repanic raised %v; want the loader's panic with its stack", r)
		}
	}()
	repanic(err)
	t.Error("repanic of a *untildone.Panic returned")
}

// s30oVigil runs vigil in process with args and returns its exit code and
// what it printed.
func s30oVigil(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	code = cli.Main(args, &cli.Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")})
	return code, out.String(), errb.String()
}
