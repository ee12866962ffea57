package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"vigil/internal/cli"
)

// TestMain lets testscript run this binary as the `vigil` command inside
// scripts, without a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("VIGIL_TEST_STACK_OVERFLOW") == "1" {
		cli.SetupRuntime()
		debug.SetMaxStack(16 << 20)
		_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{}) // no core file
		os.Exit(overflow(1))
	}
	if os.Getenv("VIGIL_TEST_AS_VIGIL") == "1" { // TestLongCommandsStop's subprocess
		cli.SetupRuntime()
		if os.Getenv("VIGIL_TEST_READY_FD") == "3" {
			go reportReady(os.NewFile(3, "ready"))
		}
		os.Exit(cli.Main(os.Args[1:], &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin}))
	}
	testscript.Main(m, map[string]func(){
		"vigil": func() {
			cli.SetupRuntime()
			os.Exit(cli.Main(os.Args[1:], &cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Stdin: os.Stdin}))
		},
	})
}

// reportReady writes to f (startVigil's pipe) 'i' once the process's
// signal handler is installed and 'w' once the command watches the
// signals (cli.Watching), then closes it: the tests signal the process
// when it is ready for the signal they test, not after a fixed time that
// a loaded machine's slow start can outrun.
func reportReady(f *os.File) {
	defer f.Close()
	sentInstalled := false
	for {
		installed, watched := cli.Watching()
		if installed && !sentInstalled {
			if _, err := f.Write([]byte{'i'}); err != nil {
				return
			}
			sentInstalled = true
		}
		if watched {
			_, _ = f.Write([]byte{'w'})
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// overflow recurses until the stack overflows (n > 0 always).
//
//go:noinline
func overflow(n int) int {
	if n <= 0 {
		return 0
	}
	return overflow(n+1) + 1
}

// TestFatalErrorIsNotUsage: a fatal runtime error (here a stack overflow,
// which no recover catches) aborts with SIGABRT, never exit 2, the code of
// usage errors.
func TestFatalErrorIsNotUsage(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "VIGIL_TEST_STACK_OVERFLOW=1", "GOTRACEBACK=")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("want a crash, got %v", err)
	}
	if code := ee.ExitCode(); code == cli.ExitUsage || code == cli.ExitOK {
		t.Fatalf("a stack overflow exited %d", code)
	}
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGABRT {
		t.Fatalf("want SIGABRT, got %v", ee)
	}
	if !bytes.Contains(out, []byte("stack overflow")) {
		t.Fatalf("no 'stack overflow' in the crash output:\n%.2000s", out)
	}
}

// TestScripts runs testdata/script/*.txtar: one or more files per
// subcommand. Scripts can reach the repository's specs/ through $SPECS and
// the external corpus through $CORPUS (scripts that need it skip with
// `[!corpus] skip`).
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script"))
}

// TestAdversarial runs the adversarial soundness campaign,
// ../../bench/adversarial/*.txtar (bench/adversarial/README.md): inputs
// built to make two engines contradict each other or a checker accept a
// false claim, each with the outcome every engine must agree on.
func TestAdversarial(t *testing.T) {
	testscript.Run(t, scriptParams("../../bench/adversarial"))
}

// scriptParams are the testscript parameters of the scripts in dir: the
// vigil command, $SPECS, $CORPUS and the [corpus] condition, and the
// nest and exitcode commands.
func scriptParams(dir string) testscript.Params {
	wd, _ := os.Getwd()
	corpus := filepath.Join(wd, "..", "..", "..", "shared", "corpus")
	return testscript.Params{
		Dir: dir,
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
			// browsercheck PAGE... renders each page in headless chromium
			// (browser_test.go's inspectPage).
			"browsercheck": browserCheck,
			// nest OUT N HEAD OPEN INNER CLOSE TAIL writes OUT: the file
			// HEAD, OPEN N times, INNER, CLOSE N times, then the file TAIL;
			// for inputs nested deeper than a script could hold
			// (deep_nesting*.txtar).
			"nest": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 7 {
					ts.Fatalf("usage: nest OUT N HEAD OPEN INNER CLOSE TAIL")
				}
				n, err := strconv.Atoi(args[1])
				if err != nil || n < 0 {
					ts.Fatalf("nest: %q is not a count", args[1])
				}
				var b bytes.Buffer
				b.WriteString(ts.ReadFile(args[2]))
				b.WriteString(strings.Repeat(args[3], n))
				b.WriteString(args[4])
				b.WriteString(strings.Repeat(args[5], n))
				b.WriteString(ts.ReadFile(args[6]))
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), b.Bytes(), 0o666))
			},
			// lspframe IN OUT writes OUT: each line of IN that is neither
			// empty nor a # comment, with $VARS expanded, as one LSP
			// message (a Content-Length header, then the line); a line
			// RAW "..." writes the Go-quoted string as it is, for
			// malformed framing (lsp*.txtar).
			"lspframe": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: lspframe IN OUT")
				}
				var b bytes.Buffer
				for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
					line = strings.TrimSpace(line)
					if line == "" || strings.HasPrefix(line, "#") {
						continue
					}
					line = os.Expand(line, ts.Getenv)
					if raw, ok := strings.CutPrefix(line, "RAW "); ok {
						s, err := strconv.Unquote(raw)
						ts.Check(err)
						b.WriteString(s)
						continue
					}
					fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n%s", len(line), line)
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[1]), b.Bytes(), 0o666))
			},
			// lspunframe IN OUT writes the LSP messages framed in IN (which
			// may be stdout) one per line, with $WORK for the work
			// directory, for cmp.
			"lspunframe": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: lspunframe IN OUT")
				}
				in := ts.ReadFile(args[0])
				var b strings.Builder
				for in != "" {
					head, rest, ok := strings.Cut(in, "\r\n\r\n")
					if !ok {
						ts.Fatalf("lspunframe: a header without its blank line: %q", in)
					}
					v, ok := strings.CutPrefix(head, "Content-Length: ")
					n, err := strconv.Atoi(v)
					if !ok || err != nil || n > len(rest) {
						ts.Fatalf("lspunframe: bad header %q", head)
					}
					b.WriteString(strings.ReplaceAll(rest[:n], ts.Getenv("WORK"), "$WORK"))
					b.WriteString("\n")
					in = rest[n:]
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(b.String()), 0o666))
			},
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
	}
}
