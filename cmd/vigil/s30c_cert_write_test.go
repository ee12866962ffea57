package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"vigil/internal/cli"
)

// s30cSpec is a model whose ic3 certificate is small and checks at once.
const s30cSpec = "model m\nvar x : 0 .. 3 = 0\naction a when x < 3 -> x' = x + 1\nproperty never { unsafe x == 3 && x == 0 }\n"

func s30cRun(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Main(args, &cli.Env{Stdout: &stdout, Stderr: &stderr})
	return code, stdout.String(), stderr.String()
}

func s30cWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func s30cRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// s30cNoTemps fails t when dir holds a temporary file of a certificate.
func s30cNoTemps(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".vigil-tmp-") {
			t.Errorf("%s: a temporary file was left behind", e.Name())
		}
	}
}

// TestS30cCertHardLink: vigil verify --cert onto a file with another hard
// link replaces the file whole (a temporary file renamed over it) instead
// of writing it in place: the name given gets the new certificate, which
// checks; the other name keeps the old certificate, whole. Written in
// place, a write killed midway left a half-written certificate under
// both names.
func TestS30cCertHardLink(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "m.spec")
	s30cWrite(t, spec, s30cSpec)
	a, b := filepath.Join(dir, "a.smt2"), filepath.Join(dir, "b.smt2")
	s30cWrite(t, a, "; old certificate\n")
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := s30cRun("verify", spec, "--engine", "ic3", "--cert", a); code != cli.ExitOK {
		t.Fatalf("verify --cert onto a hard link: exit %d\n%s%s", code, out, errs)
	}
	if got := s30cRead(t, b); got != "; old certificate\n" {
		t.Errorf("the other hard link changed: %q", got)
	}
	if got := s30cRead(t, a); !strings.HasPrefix(got, "; vigil invariant certificate 1\n") {
		t.Errorf("the certificate: %q", got[:min(len(got), 60)])
	}
	fa, _ := os.Stat(a)
	if st := fa.Sys().(*syscall.Stat_t); st.Nlink != 1 {
		t.Errorf("the new certificate has %d links, want 1 (a file of its own)", st.Nlink)
	}
	if code, out, errs := s30cRun("cert", "check", a); code != cli.ExitOK || !strings.HasPrefix(out, "valid: ") {
		t.Errorf("cert check of the new certificate: exit %d\n%s%s", code, out, errs)
	}
	s30cNoTemps(t, dir)
}

// s30cReadOnlyDir makes dir refuse new files (chmod 0555; as root, which
// ignores modes, also the immutable attribute) and returns the function
// that undoes it. It fails t when dir still takes a new file.
func s30cReadOnlyDir(t *testing.T, dir string) func() {
	t.Helper()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	undo := func() { os.Chmod(dir, 0o755) }
	if os.Getuid() == 0 {
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Fatalf("as root, making %s unwritable needs chattr +i: %v %s", dir, err, out)
		}
		undo = func() { exec.Command("chattr", "-i", dir).Run(); os.Chmod(dir, 0o755) }
	}
	probe := filepath.Join(dir, "probe")
	if f, err := os.Create(probe); err == nil {
		f.Close()
		os.Remove(probe)
		undo()
		t.Fatalf("%s still takes new files", dir)
	}
	return undo
}

// TestS30cCertUnwritableDir: a certificate file whose directory does not
// take a new file is not written (it was written in place, truncated
// first, so that a kill or a full disk meanwhile left a half-written
// certificate under its name): vigil verify prints its verdict, then an
// error that names the file and the directory and says what to do, and
// exits 1 (the code of a --cert that could not be written); the older
// certificate is kept whole. A new file there gets the same error.
func TestS30cCertUnwritableDir(t *testing.T) {
	top := t.TempDir()
	spec := filepath.Join(top, "m.spec")
	s30cWrite(t, spec, s30cSpec)
	dir := filepath.Join(top, "ro")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	old := filepath.Join(dir, "c.smt2")
	s30cWrite(t, old, "; old certificate\n")
	undo := s30cReadOnlyDir(t, dir)
	defer undo()
	for _, path := range []string{old, filepath.Join(dir, "new.smt2")} {
		code, out, errs := s30cRun("verify", spec, "--engine", "ic3", "--cert", path)
		want := "vigil verify: --cert: open " + path + ": "
		if code != cli.ExitError || !strings.HasPrefix(out, "safe") || !strings.HasPrefix(errs, want) ||
			!strings.Contains(errs, "the directory "+dir+" does not let vigil create the temporary file") ||
			!strings.Contains(errs, "make "+dir+" writable, or give a file in a writable directory") ||
			!strings.HasSuffix(errs, "(the verdict above stands; no certificate was written)\n") || strings.Contains(errs, ".vigil-") {
			t.Errorf("verify --cert %s in an unwritable directory: exit %d\nstdout: %s\nstderr: %s", path, code, out, errs)
		}
	}
	if got := s30cRead(t, old); got != "; old certificate\n" {
		t.Errorf("the older certificate became %q", got)
	}
	if _, err := os.Lstat(filepath.Join(dir, "new.smt2")); err == nil {
		t.Error("new.smt2 was created")
	}
	s30cNoTemps(t, dir)
}

// TestS30cStaleTemps: the temporary file of a certificate that a SIGKILL
// left behind (".NAME.vigil-tmp-PID-RANDOM.tmp") is removed by the next write
// of NAME when its process is gone and it is an hour old; one of a
// process that still runs, a recent one, and the temporary files of
// another certificate are left alone.
func TestS30cStaleTemps(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "m.spec")
	s30cWrite(t, spec, s30cSpec)
	// a pid that no process has: one that ended
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Fatal(err)
	}
	dead := strconv.Itoa(done.Process.Pid)
	stale := filepath.Join(dir, ".c.smt2.vigil-tmp-"+dead+"-1f2e3d.tmp")
	recent := filepath.Join(dir, ".c.smt2.vigil-tmp-"+dead+"-4c5b6a.tmp")
	live := filepath.Join(dir, ".c.smt2.vigil-tmp-1-7a8b9c.tmp") // pid 1 runs
	other := filepath.Join(dir, ".d.smt2.vigil-tmp-"+dead+"-0d0e0f.tmp")
	hourAgo := time.Now().Add(-2 * time.Hour)
	for _, p := range []string{stale, recent, live, other} {
		s30cWrite(t, p, "; vigil invariant certificate 1\n; half")
		if p != recent {
			if err := os.Chtimes(p, hourAgo, hourAgo); err != nil {
				t.Fatal(err)
			}
		}
	}
	cert := filepath.Join(dir, "c.smt2")
	if code, out, errs := s30cRun("verify", spec, "--engine", "ic3", "--cert", cert); code != cli.ExitOK {
		t.Fatalf("verify --cert: exit %d\n%s%s", code, out, errs)
	}
	if _, err := os.Lstat(stale); err == nil {
		t.Errorf("%s, stale, was not removed", filepath.Base(stale))
	}
	for _, p := range []string{recent, live, other} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", filepath.Base(p), err)
		}
	}
	if code, out, errs := s30cRun("cert", "check", cert); code != cli.ExitOK {
		t.Errorf("cert check: exit %d\n%s%s", code, out, errs)
	}
}
