package cert_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"vigil/safety/cert"
)

// A path that ends in a slash (or in "." or "..") names a directory:
// Create fails as os.Create does. It wrote the certificate to d/d (the
// path's base name inside the directory) and reported it written as d/.
func TestS27rDirectoryPath(t *testing.T) {
	dir := t.TempDir()
	d := filepath.Join(dir, "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.json"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{d + "/", d + "//", d + "/.", filepath.Join(dir, "new") + "/", filepath.Join(dir, "f.json") + "/"} {
		f, err := cert.Create(context.Background(), p)
		if err == nil {
			f.Abort()
			t.Errorf("Create(%q): no error; want os.Create's (a directory)", p)
		}
	}
	ents, _ := os.ReadDir(d)
	for _, e := range ents {
		t.Errorf("%s: written inside the directory", e.Name())
	}
	if _, err := os.Lstat(filepath.Join(dir, "new")); err == nil {
		t.Errorf(`"new/" created a file "new"`)
	}
	if got := readString(t, filepath.Join(dir, "f.json")); got != "old" {
		t.Errorf("f.json = %q, want the old contents", got)
	}
	noTemps(t, dir)
}

// A temporary file that cannot be created for want of space or inodes
// (or file descriptors) fails Create and keeps the older certificate:
// Create fell back to os.Create, which truncated it, and the write then
// failed (or a stop removed it). Only a directory that refuses the
// temporary file (permissions) lets the certificate be written in place.
func TestS27rTempCreateFailKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	if err := os.WriteFile(p, []byte("old certificate"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT, syscall.EMFILE} {
		restore := cert.SetOpenTemp(func(name string, flag int, perm os.FileMode) (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errno}
		})
		f, err := cert.Create(context.Background(), p)
		restore()
		if err == nil {
			f.Abort()
			t.Fatalf("%v: Create succeeded (in place, over the older certificate)", errno)
		}
		if !errors.Is(err, errno) || !strings.Contains(err.Error(), p) || strings.Contains(err.Error(), ".vigil-") {
			t.Errorf("%v: error %q, want %v naming %s", errno, err, errno, p)
		}
		if got := readString(t, p); got != "old certificate" {
			t.Fatalf("%v: the older certificate became %q", errno, got)
		}
	}
	// a directory without write permission: in place, as documented
	restore := cert.SetOpenTemp(func(name string, flag int, perm os.FileMode) (*os.File, error) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	})
	f, err := cert.Create(context.Background(), p)
	restore()
	if err != nil {
		t.Fatalf("EACCES on the temporary file: %v; want the file written in place", err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, p); got != "new" {
		t.Errorf("written in place: %q, want %q", got, "new")
	}
	noTemps(t, dir)
}
