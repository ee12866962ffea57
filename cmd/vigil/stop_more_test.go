package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMoreCommandsStop extends TestLongCommandsStop to the other commands
// and modes that run for minutes: the network-policy engines on the
// PolIC3 benchmark's npuzzle 3x4 (polic3, ppa, the auto portfolio, every
// policy in turn), the safety deciders with a radius, nn verify on a
// property that branch and bound needs minutes for, trees bound on a
// large generated ensemble, and vigil batch run and bench ic3, whose
// runs are processes of their own (z3 among them when it is installed):
// each stops within a few seconds of the signal, exits 4 and prints its
// partial result, and batch leaves no run process behind.
func TestMoreCommandsStop(t *testing.T) {
	if testing.Short() {
		t.Skip("starts each long command in a subprocess")
	}
	spec, err := filepath.Abs("testdata/stop/huge.spec")
	if err != nil {
		t.Fatal(err)
	}
	npuzzle, err := filepath.Abs("../../bench/polic3/npuzzle.spec")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	np := []string{npuzzle, "-D", "R=3", "-D", "C=4", "--property", "avoid"}
	net := filepath.Join(filepath.Dir(npuzzle), "models", "np3x4_64x64_safe.onnx")
	vnnlib := filepath.Join(dir, "np.vnnlib")
	writeHardVNNLIB(t, vnnlib)
	forest := filepath.Join(dir, "forest.json")
	writeBigForest(t, forest)
	slow := filepath.Join(dir, "slow.spec")
	writeSlowLoadSpec(t, slow)
	slowJANI := filepath.Join(dir, "slow.jani")
	writeSlowLoadJANI(t, slowJANI)

	type row struct {
		name string
		args []string
		sig  syscall.Signal
		head time.Duration
		want string
	}
	with := func(base []string, more ...string) []string { return append(append([]string{}, base...), more...) }
	cases := []row{
		{"verify polic3", with(append([]string{"verify"}, np...), "--policy", "np3x4_64x64_safe", "--engine", "polic3"), syscall.SIGINT, 2 * time.Second, `(?m)^unknown: interrupted before a verdict$`},
		{"verify polic3 trees", with(append([]string{"verify"}, np...), "--policy", "np3x4_trees_safe", "--engine", "polic3"), syscall.SIGTERM, 2 * time.Second, `(?m)^unknown: interrupted before a verdict$`},
		{"verify ppa", with(append([]string{"verify"}, np...), "--policy", "np3x4_64x64_safe", "--engine", "ppa"), syscall.SIGINT, 2 * time.Second, `(?m)^unknown: interrupted`},
		{"verify ppa timeout", with(append([]string{"verify"}, np...), "--policy", "np3x4_64x64_safe", "--engine", "ppa", "--timeout", "2s"), 0, 0, `(?m)^unknown: (stopped by the )?timeout`},
		{"verify auto", with(append([]string{"verify"}, np...), "--policy", "np3x4_64x64_safe", "--engine", "auto"), syscall.SIGINT, 2 * time.Second, `(?m)^engine auto: no engine decided .*bfs unknown .*\(interrupted\), polic3 unknown .*\(interrupted\), hunt unknown.*\(interrupted`},
		{"verify policy all", with(append([]string{"verify"}, np...), "--policy", "all", "--engine", "polic3"), syscall.SIGTERM, 2 * time.Second, `(?m)^  np3x4_16x16_safe +unknown +polic3 .*\n  np3x4_32x32_safe +not run`},
		{"nn verify", []string{"nn", "verify", net, vnnlib, "--timeout", "1h"}, syscall.SIGINT, 500 * time.Millisecond, `(?m)^unknown: interrupted after \d+ boxes$`},
		{"nn verify json", []string{"nn", "verify", net, vnnlib, "--timeout", "1h", "--json"}, syscall.SIGTERM, 500 * time.Millisecond, `"stopped": ?"interrupted"`},
		{"trees bound", []string{"trees", "bound", forest, "--max", "0", "--timeout", "1h"}, syscall.SIGINT, time.Second, `(?m)^max class 0 in \[.*\] \(budget exhausted: interrupted\)$`},
		{"bench ic3", []string{"bench", "ic3", spec, "--data", filepath.Join(dir, "bench")}, syscall.SIGINT, 2 * time.Second, `(?m)^vigil bench ic3: interrupted after \d+ of \d+ runs`},
	}
	for _, algo := range []string{"tarjan", "ipi", "npi", "propu", "vi", "lrtdp", "lao", "tarjan-path"} {
		for _, radius := range []string{"0", "1"} {
			cases = append(cases, row{"safe starts " + algo + " r" + radius, []string{"safe", spec, "--property", "p", "--starts", "--algo", algo, "--radius", radius}, syscall.SIGTERM, time.Second,
				// on a loaded machine the signal may come before the first start state is found
				`(?m)^(1 start state of property p reached, then the enumeration was interrupted: 0 (\d-)?safe, 0 not (\d-)?safe, 1 unknown \(interrupted\)|0 start states of property p reached, then the enumeration was interrupted: 0 (\d-)?safe, 0 not (\d-)?safe)`})
		}
	}
	// Ctrl-C and SIGTERM while the model loads (schema and quantifier
	// expansion, the checker's stages, lowering: seconds of work): the
	// load stops, the command says so and exits 4 like an interrupted
	// engine.
	loading := `(?m)^vigil %s: interrupted while loading .*slow\.spec; no results$`
	for _, c := range []struct {
		cmd  string
		args []string
		sig  syscall.Signal
	}{
		{"verify", []string{"--property", "p", "--engine", "bfs"}, syscall.SIGINT},
		{"verify", []string{"--property", "p", "--engine", "ic3", "--timeout", "1h"}, syscall.SIGTERM},
		{"explore", []string{"--property", "p"}, syscall.SIGTERM},
		{"safe", []string{"--property", "p", "--starts"}, syscall.SIGINT},
		{"test", []string{"--property", "p", "--budget", "1h"}, syscall.SIGTERM},
		{"run", []string{"--property", "p", "--steps", "10"}, syscall.SIGINT},
		{"bench", []string{"--property", "p"}, syscall.SIGTERM},
		{"prob", []string{"--property", "p"}, syscall.SIGINT},
	} {
		cases = append(cases, row{c.cmd + " while loading " + strings.Join(c.args[2:], " "), append([]string{c.cmd, slow}, c.args...), c.sig, 300 * time.Millisecond, fmt.Sprintf(loading, c.cmd)})
	}
	cases = append(cases, row{"verify while loading jani", []string{"verify", slowJANI, "--property", "p"}, syscall.SIGINT, 500 * time.Millisecond, `(?m)^vigil verify: interrupted while loading .*slow\.jani; no results$`})
	cases = append(cases, row{"verify json while loading", []string{"verify", slow, "--property", "p", "--json"}, syscall.SIGTERM, 300 * time.Millisecond,
		`(?s)^\{"error":"vigil verify: interrupted while loading .*slow\.spec; no results","exit_code":4\}\n`})
	// vigil prob lists the start states before it builds the model; a
	// sparse start condition over large ranges finds few, and the
	// listing looked at the clock and signals only once per 4096 found
	// (s24: --timeout 0.2 took 4.3 s at a tenth of this size).
	sparse := filepath.Join(dir, "sparse.spec")
	if err := os.WriteFile(sparse, []byte("model sparse\nvar x : 0 .. 3000\nvar y : 0 .. 3000\nvar z : 0 .. 1000\n"+
		"action inc when x < 3000 -> x' = x + 1\nproperty p {\n    start (x + 3001 * y + 9006001 * z) / 99991 * 99991 == x + 3001 * y + 9006001 * z - 13\n"+
		"    unsafe x == 3000 && y == 0\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases = append(cases, row{"prob sparse starts", []string{"prob", sparse}, syscall.SIGINT, 500 * time.Millisecond, `(?m)^unknown: interrupted before an answer$`})
	cases = append(cases, row{"safe all propu-bdd", []string{"safe", spec, "--property", "p", "--all", "--algo", "propu-bdd"}, syscall.SIGINT, time.Second, `(?m)^all \d+ states of model huge, property p: at least \d+ not safe, the others unknown \(interrupted\)`})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			stdout, stderr := runUntilStopped(t, c.args, c.sig, c.head)
			if !regexp.MustCompile(c.want).Match(append(stdout, stderr...)) {
				t.Errorf("output does not match %q:\n%.3000s\nstderr:\n%.2000s", c.want, stdout, stderr)
			}
		})
	}

	// vigil batch run: the runs are process groups of their own; the
	// signal kills the running ones (vigil verify, z3 on the exported
	// CHC) and the summary names what was done.
	t.Run("batch run", func(t *testing.T) {
		exp := filepath.Join(dir, "exp")
		if err := os.MkdirAll(exp, 0o755); err != nil {
			t.Fatal(err)
		}
		model, err := os.ReadFile(spec)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(exp, "huge.spec"), model, 0o644); err != nil {
			t.Fatal(err)
		}
		text := `name = "stop"
[limits]
time = "10m"
memory = "1GiB"
[[algorithms]]
name = "ic3"
args = ["verify", "{model}", "--policy", "{policy}", "--property", "{property}", "--engine", "ic3", "--json"]
[[instances]]
domain = "huge"
models = ["huge.spec"]
policies = ["pi"]
properties = ["p"]
`
		z3, z3err := exec.LookPath("z3")
		if z3err == nil { // the peer tool too: z3 must die with the batch
			text += `[[algorithms]]
name = "spacer"
program = "z3"
args = ["{run_dir}/q.smt2"]
prepare = ["export", "--chc", "{model}", "--policy", "{policy}", "--property", "{property}", "-o", "{run_dir}/q.smt2"]
verdicts = {sat = "safe", unsat = "unsafe"}
`
		}
		file := filepath.Join(exp, "exp.toml")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr := runUntilStopped(t, []string{"batch", "run", file, "-j", "2"}, syscall.SIGINT, 3*time.Second)
		out := string(stdout) + string(stderr)
		if !regexp.MustCompile(`(?m)^batch stop: \d+/\d+ runs done .*\n(?s:.*)interrupted; run the same command again to finish the rest`).MatchString(out) {
			t.Errorf("batch run did not report its partial summary:\n%.3000s", out)
		}
		time.Sleep(300 * time.Millisecond) // the kernel reaps the killed group
		if left := processesNaming(exp); len(left) > 0 {
			t.Errorf("runs still alive after batch run stopped (z3 at %s, %v):\n%s", z3, z3err, strings.Join(left, "\n"))
		}
	})
}

// processesNaming lists the command lines of live processes whose
// arguments contain s (Linux /proc; none elsewhere).
func processesNaming(s string) []string {
	var found []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		b, err := os.ReadFile(p)
		if err != nil || !strings.Contains(string(b), s) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join(filepath.Dir(p), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue // a zombie is dead
		}
		found = append(found, strings.ReplaceAll(string(b), "\x00", " "))
	}
	return found
}

// writeHardVNNLIB writes a property of the npuzzle 3x4 network
// np3x4_64x64_safe: every input in [0, 1] and the first output at least
// 10. It holds nowhere, but branch and bound needs minutes to show it
// (a score above 5 is easy to reach, 20 is easy to refute).
func writeHardVNNLIB(t *testing.T, path string) {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "(declare-const X_%d Real)\n", i)
	}
	for i := range 4 {
		fmt.Fprintf(&b, "(declare-const Y_%d Real)\n", i)
	}
	for i := range 12 {
		fmt.Fprintf(&b, "(assert (>= X_%d 0))\n(assert (<= X_%d 1))\n", i, i)
	}
	b.WriteString("(assert (>= Y_0 10))\n")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeBigForest writes a deterministic random Veritas ensemble of 200
// trees of depth 6 over 30 features in [0, 1): the exact maximum over the
// unbounded box is a search of minutes.
func writeBigForest(t *testing.T, path string) {
	rng := rand.New(rand.NewPCG(19, 6))
	var node func(d int) map[string]any
	node = func(d int) map[string]any {
		if d == 0 {
			return map[string]any{"leaf_value": []float64{rng.NormFloat64()}}
		}
		return map[string]any{"feat_id": rng.IntN(30), "split_value": rng.Float64(), "left": node(d - 1), "right": node(d - 1)}
	}
	trees := make([]any, 200)
	for i := range trees {
		trees[i] = map[string]any{"num_leaf_values": 1, "split_type": "LtSplit", "structure": node(6)}
	}
	b, err := json.Marshal(map[string]any{"at_type": "RAW", "base_scores": []float64{0}, "trees": trees})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeSlowLoadSpec writes a model that takes seconds to load: three
// action schemas of 250,000 commands in all (the front end's limit),
// each guard with a quantifier.
func writeSlowLoadSpec(t *testing.T, path string) {
	text := `model slow
var x : 0 .. 1000000 = 0
action go(i in 0 .. 299, j in 0 .. 299) when x == i * 300 + j && (forall k in 0 .. 1: x != 100000 - k) -> x' = x + 1
action ho(i in 0 .. 299, j in 0 .. 299) when x == i * 300 + j + 7 && (forall k in 0 .. 1: x != 100000 - k) -> x' = x + 2
action io(i in 0 .. 249, j in 0 .. 279) when x == i * 300 + j + 9 && (forall k in 0 .. 1: x != 100000 - k) -> x' = x + 3
property p {
    start x == 0
    unsafe x == 1000000
}
`
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// signalVigil runs vigil with args in a subprocess and sends it the
// signals, each after its delay (counted from the previous one, the
// first from when the command watches the signals, cli.Watching). It
// returns the exit code (-1 when a signal killed it), what it printed,
// and the time from the last signal to the exit; it fails the test when
// the process is still running limit after the last signal.
func signalVigil(t *testing.T, args []string, limit time.Duration, sigs ...timedSignal) (code int, stdout, stderr string, lateness time.Duration) {
	t.Helper()
	return signalVigilWhen(t, 'w', args, limit, sigs...)
}

// signalVigilWhen is signalVigil with the first delay counted from when
// the process reports ready ('w': the command watches the signals; 'i':
// the process's handler is installed, for a command that watches
// nothing), or from the start (ready 0: a signal while vigil starts).
func signalVigilWhen(t *testing.T, ready byte, args []string, limit time.Duration, sigs ...timedSignal) (code int, stdout, stderr string, lateness time.Duration) {
	t.Helper()
	cmd, out, errOut, done, readyCh := startVigilReady(t, args)
	if ready != 0 {
		waitReady(t, readyCh, ready, cmd, out, errOut, done)
	}
	var last time.Time
	for _, s := range sigs {
		if s.after > 0 {
			select {
			case err := <-done:
				t.Fatalf("ended before the signal (%v):\n%s%s", err, out.Bytes(), errOut.Bytes())
			case <-time.After(s.after):
			}
		}
		_ = cmd.Process.Signal(s.sig) // it may have exited already
		last = time.Now()
	}
	select {
	case err := <-done:
		lateness = time.Since(last)
		if err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
	case <-time.After(limit):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("still running %v after the last signal:\n%.2000s\n%.2000s", limit, out.Bytes(), errOut.Bytes())
	}
	return code, out.String(), errOut.String(), lateness
}

type timedSignal struct {
	after time.Duration
	sig   syscall.Signal
}

// TestStopSignalAtStart: a SIGTERM or Ctrl-C that comes while vigil
// starts, before the model loads or as it begins to, gets the process's
// handler (installed first thing, cli.SetupRuntime): the process ends at
// once, and never silently. Before the command watches the signals it
// exits 143 or 130 with "vigil: interrupted; exiting without results";
// once loading began, the load stops and the command exits 4. (Only a
// signal within the first milliseconds, before the Go runtime runs main,
// still gets the default action: when it comes so early, the test tries
// again with the signal sent as soon as the process reports its handler
// installed. Session 33: it tried again 5 and 25 times later, and on a
// loaded machine that starts a process in more than half a second those
// came before main too.)
func TestStopSignalAtStart(t *testing.T) {
	if testing.Short() {
		t.Skip("starts vigil in a subprocess")
	}
	slow := filepath.Join(t.TempDir(), "slow.spec")
	writeSlowLoadSpec(t, slow)
	for _, c := range []struct {
		sig   syscall.Signal
		delay time.Duration
	}{{syscall.SIGTERM, 20 * time.Millisecond}, {syscall.SIGINT, 20 * time.Millisecond}, {syscall.SIGTERM, 60 * time.Millisecond}} {
		when := fmt.Sprintf("after %v", c.delay)
		code, _, stderr, late := signalVigilWhen(t, 0, []string{"verify", slow, "--property", "p"}, 6*time.Second, timedSignal{c.delay, c.sig})
		if code == -1 {
			// killed by the default action: the signal came before the
			// runtime ran main (a machine under load starts slowly);
			// once the handler is installed it must answer
			t.Logf("%v %s: killed before main; again once the handler is installed", c.sig, when)
			when = "once the handler was installed"
			code, _, stderr, late = signalVigilWhen(t, 'i', []string{"verify", slow, "--property", "p"}, 6*time.Second, timedSignal{0, c.sig})
		}
		t.Logf("%v %s: exit %d %v after the signal: %q", c.sig, when, code, late.Round(time.Millisecond), stderr)
		unwatched := code == 128+int(c.sig) && stderr == "vigil: interrupted; exiting without results\n"
		loading := code == 4 && regexp.MustCompile(`^vigil verify: interrupted while loading .*; no results\n$`).MatchString(stderr)
		if !unwatched && !loading {
			t.Errorf("%v %s: exit %d, stderr %q; want %d and the handler's message, or 4 and 'interrupted while loading'", c.sig, when, code, stderr, 128+int(c.sig))
		}
	}
}

// TestStopSecondSignal: in a phase that does not poll the context (here
// opening a --record file that is a FIFO no one reads), the first Ctrl-C
// is taken (the command would stop at its next poll) and the second ends
// the process: "vigil: interrupted again; exiting without results", exit
// 130 (143 for SIGTERM). A command that watches nothing (check) ends on
// the first signal. Loading a model from a FIFO no one writes stops at
// the first signal, also under verify --policy all and faults, whose
// preloads (the model's policies, the run file's defaults) did not stop
// before session 30 and were these tests' phase that does not poll.
func TestStopSecondSignal(t *testing.T) {
	if testing.Short() {
		t.Skip("starts vigil in a subprocess")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "blocked.spec")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	run := filepath.Join(dir, "run.json")
	if err := os.WriteFile(run, []byte(`{"property": "p", "policy": "q"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	record := s30oRecordToFIFO(t)
	for _, c := range []struct {
		name    string
		args    []string
		sigs    []timedSignal
		code    int
		msg     string
		printed bool // the command printed on stdout before the phase that does not poll
	}{
		{"record twice SIGINT", record, []timedSignal{{500 * time.Millisecond, syscall.SIGINT}, {300 * time.Millisecond, syscall.SIGINT}}, 130, "vigil: interrupted again; exiting without results\n", false},
		{"record SIGINT then SIGTERM", record, []timedSignal{{500 * time.Millisecond, syscall.SIGINT}, {300 * time.Millisecond, syscall.SIGTERM}}, 143, "vigil: interrupted again; exiting without results\n", false},
		// explore, verify (of one policy or of --policy all) and faults
		// stop waiting for the load at the first signal: exit 4, no
		// second signal needed
		{"verify all once", []string{"verify", fifo, "--property", "p", "--policy", "all"}, []timedSignal{{300 * time.Millisecond, syscall.SIGINT}}, 4, "vigil verify: interrupted while loading " + fifo + "; no results\n", false},
		{"faults once", []string{"faults", fifo, "--run", run}, []timedSignal{{300 * time.Millisecond, syscall.SIGTERM}}, 4, "vigil faults: interrupted while loading " + fifo + "; no results\n", false},
		{"explore once", []string{"explore", fifo}, []timedSignal{{300 * time.Millisecond, syscall.SIGINT}}, 4, "vigil explore: interrupted while loading " + fifo + "; no results\n", false},
		{"check once", []string{"check", fifo}, []timedSignal{{300 * time.Millisecond, syscall.SIGTERM}}, 143, "vigil: interrupted; exiting without results\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ready := byte('w')
			if c.name == "check once" {
				ready = 'i' // check watches nothing: signal once the handler is there
			}
			code, stdout, stderr, late := signalVigilWhen(t, ready, c.args, 6*time.Second, c.sigs...)
			t.Logf("exit %d, %v after the last signal", code, late.Round(time.Millisecond))
			if code != c.code || stderr != c.msg || (stdout != "") != c.printed {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q (stdout printed: %v)", code, stdout, stderr, c.code, c.msg, c.printed)
			}
		})
	}
}

// writeSlowLoadJANI writes a JANI model that takes seconds to load: one
// automaton of 30,000 edges, vigil export --jani of a schema.
func writeSlowLoadJANI(t *testing.T, path string) {
	spec := filepath.Join(t.TempDir(), "slowjani.spec")
	text := `model slowjani
var x : 0 .. 1000000 = 0
action go(i in 0 .. 199, j in 0 .. 149) when x == i * 300 + j && (forall k in 0 .. 1: x != 100000 - k) -> x' = x + 1
property p {
    start x == 0
    unsafe x == 1000000
}
`
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "export", "--jani", spec, "--property", "p", "-o", path)
	cmd.Env = append(os.Environ(), "VIGIL_TEST_AS_VIGIL=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("vigil export --jani: %v\n%s", err, out)
	}
}
