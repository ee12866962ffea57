package cert_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"vigil/safety/cert"
)

// otherGroup is a group id other than the process's that the process
// may give a directory: any as root, else a supplementary group; -1
// when there is none.
func otherGroup() int {
	if os.Getuid() == 0 {
		return 4242
	}
	gs, _ := os.Getgroups()
	for _, g := range gs {
		if g != os.Getgid() {
			return g
		}
	}
	return -1
}

func groupOf(t *testing.T, path string) int {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return int(fi.Sys().(*syscall.Stat_t).Gid)
}

// A certificate replaced in a setgid directory keeps its group (as
// os.Create's truncation kept it): the temporary file took the
// directory's group, and sameAs compared the old group with the
// process's, not the temporary file's, so the certificate (mode 0640,
// say) passed to the directory's group.
func TestS27rSetgidDirKeepsGroup(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sg")
	if err := os.Mkdir(dir, 0o775); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "c.json")
	if err := os.WriteFile(p, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o640); err != nil {
		t.Fatal(err)
	}
	want := groupOf(t, p)
	g := otherGroup()
	if g >= 0 { // without another group the directory's is the file's
		if err := os.Chown(dir, -1, g); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(dir, os.ModeSetgid|0o775); err != nil {
		t.Fatal(err)
	}
	f, err := cert.Create(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, p); got != "new" {
		t.Fatalf("%s = %q, want %q", p, got, "new")
	}
	if got := groupOf(t, p); got != want {
		t.Errorf("the certificate's group became %d (the setgid directory's), want %d as before", got, want)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", fi.Mode().Perm())
	}
}
