package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTutorial runs every vigil command of docs/tutorial.md's sh blocks,
// in order, in a directory that sees the repository's specs/, bench/ and
// python/, and checks each exit code: 0, or the one a trailing
// "# exit N" comment names. Later commands read what earlier ones wrote
// (cex.json, rover-net.inv.smt2), as a reader's would.
func TestTutorial(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the tutorial's commands (about 10 s)")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(root, "docs", "tutorial.md"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, d := range []string{"specs", "bench", "python"} {
		if err := os.Symlink(filepath.Join(root, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	inSh := false
	for _, line := range strings.Split(string(text), "\n") {
		switch {
		case strings.HasPrefix(line, "```sh"):
			inSh = true
			continue
		case strings.HasPrefix(line, "```"):
			inSh = false
			continue
		}
		if !inSh || !strings.HasPrefix(line, "vigil ") {
			continue
		}
		cmdline, comment, _ := strings.Cut(line, "#")
		want := 0
		if c, ok := strings.CutPrefix(strings.TrimSpace(comment), "exit "); ok {
			if want, err = strconv.Atoi(c); err != nil {
				t.Fatalf("docs/tutorial.md: %q: bad exit comment", line)
			}
		}
		args := strings.Fields(cmdline)[1:]
		cmd := exec.Command(os.Args[0], args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "VIGIL_TEST_AS_VIGIL=1")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		got := 0
		if ee, ok := err.(*exec.ExitError); ok {
			got = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", cmdline, err)
		}
		if got != want {
			t.Errorf("docs/tutorial.md: %s: exit %d, want %d; output:\n%s", strings.TrimSpace(cmdline), got, want, out.String())
		}
		n++
	}
	if n < 10 {
		t.Errorf("docs/tutorial.md: only %d vigil commands found", n)
	}
}
