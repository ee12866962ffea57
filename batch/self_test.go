package batch

import (
	"os"
	"path/filepath"
	"testing"
)

// selfPath makes a relative invocation absolute without resolving links,
// and finds a bare name on $PATH.
func TestSelfPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "vigil")
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "vigil-link")
	if err := os.Symlink(bin, link); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if got := selfPath("./vigil-link"); got != link {
		t.Errorf("selfPath(./vigil-link) = %q, want %q", got, link)
	}
	t.Setenv("PATH", dir)
	if got := selfPath("vigil"); got != bin {
		t.Errorf("selfPath(vigil) = %q, want %q", got, bin)
	}
	if got := selfPath("no-such-program-on-path"); got == "" {
		t.Error("selfPath of an unknown name is empty; want os.Executable")
	}
}
