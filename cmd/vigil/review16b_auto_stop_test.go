package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"
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
			// after bfs's head start, so that ic3 and the hunter run too
			stdout, stderr := runUntilStopped(t, args, c.sig, 800*time.Millisecond)
			out := string(stdout)
			if !regexp.MustCompile(c.want).MatchString(out) {
				t.Errorf("stdout does not match %q:\n%.3000s\nstderr:\n%.2000s", c.want, out, stderr)
			}
			if !regexp.MustCompile(`(?m)^engine auto: no engine decided on \d+ cores? in [\d.]+s; bfs unknown .*\((interrupted|timeout)\), ic3 unknown .*\((interrupted|timeout)\), hunt unknown.* \((interrupted|timeout)[^)]*\)$`).MatchString(out) {
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
