package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"vigil/internal/cli"
)

// TestAutoStops (review16b): the auto portfolio, whose three members (bfs,
// ic3, the hunter) run on goroutines of their own, ends within a few
// seconds of SIGINT or SIGTERM (sent once all three run) or of its
// --timeout 1s, exits 4 with a clear unknown that names how each member
// ended, and leaves no certificate and no run file behind: a member
// cancelled mid-run has no verdict to write. The HTML page it was asked
// for says unknown. TestLongCommandsStop's model, testdata/stop/huge.spec,
// is undecidable by every member in that time.
func TestAutoStops(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the portfolio in a subprocess")
	}
	spec, err := filepath.Abs("testdata/stop/huge.spec")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		sig  syscall.Signal // 0: --timeout 1s
		want string
	}{
		{"sigint", syscall.SIGINT, `(?m)^unknown: interrupted before a verdict$`},
		{"sigterm", syscall.SIGTERM, `(?m)^unknown: interrupted before a verdict$`},
		{"timeout", 0, `(?m)^unknown: stopped by the timeout before a verdict$`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			certFile, runFile, page := filepath.Join(dir, "c.smt2"), filepath.Join(dir, "r.json"), filepath.Join(dir, "p.html")
			args := []string{"verify", spec, "--property", "p", "--engine", "auto", "--cert", certFile, "--record", runFile, "--html", page}
			if c.sig == 0 {
				args = append(args, "--timeout", "1s")
			}
			cmd := exec.Command(os.Args[0], args...)
			cmd.Env = append(os.Environ(), "VIGIL_TEST_AS_VIGIL=1")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			began := time.Now()
			if c.sig != 0 {
				// after bfs's head start, so that ic3 and the hunter run too
				select {
				case err := <-done:
					t.Fatalf("ended on its own before the signal (%v):\n%s%s", err, stdout.Bytes(), stderr.Bytes())
				case <-time.After(800 * time.Millisecond):
				}
				if err := cmd.Process.Signal(c.sig); err != nil {
					t.Fatal(err)
				}
				began = time.Now()
			}
			limit := 6 * time.Second // one promised, more for a loaded machine
			select {
			case err := <-done:
				if el := time.Since(began); el > limit {
					t.Errorf("took %v to stop", el)
				}
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				if code != cli.ExitUnknown {
					t.Errorf("exit code %d, want %d (unknown)", code, cli.ExitUnknown)
				}
			case <-time.After(limit):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("still running %v after it was told to stop:\n%.2000s\n%.2000s", limit, stdout.Bytes(), stderr.Bytes())
			}
			out := stdout.String()
			if !regexp.MustCompile(c.want).MatchString(out) {
				t.Errorf("stdout does not match %q:\n%.3000s\nstderr:\n%.2000s", c.want, out, stderr.Bytes())
			}
			if !regexp.MustCompile(`(?m)^engine auto: no engine decided on \d+ cores? in [\d.]+s; bfs unknown .*, ic3 unknown .*, hunt (unknown|cancelled)`).MatchString(out) {
				t.Errorf("stdout does not say how each member ended:\n%.3000s", out)
			}
			for _, f := range []string{certFile, runFile} {
				if _, err := os.Stat(f); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("%s was written (or cannot be examined: %v) for an unknown verdict", filepath.Base(f), err)
				}
			}
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatalf("--html: %v", err)
			}
			if !bytes.Contains(html, []byte("unknown")) || bytes.Contains(html, []byte(">safe<")) || bytes.Contains(html, []byte(">unsafe<")) {
				t.Errorf("the HTML page does not say unknown:\n%.2000s", html)
			}
		})
	}
}
