package cert_test

import (
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
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
// temporary file (permissions) no longer lets the certificate be written
// in place (session 30: a write killed meanwhile left it half-written
// under its name): Create fails too, naming the file and the directory
// and saying what to do, the older certificate kept.
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
	// a directory without write permission (or on a read-only file
	// system): refused, as documented
	for _, errno := range []syscall.Errno{syscall.EACCES, syscall.EPERM, syscall.EROFS} {
		restore := cert.SetOpenTemp(func(name string, flag int, perm os.FileMode) (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: errno}
		})
		f, err := cert.Create(context.Background(), p)
		restore()
		if err == nil {
			f.Abort()
			t.Fatalf("%v on the temporary file: Create succeeded (in place)", errno)
		}
		if !errors.Is(err, errno) || !strings.HasPrefix(err.Error(), "open "+p+": ") || !strings.Contains(err.Error(), "make "+dir+" writable, or give a file in a writable directory") || strings.Contains(err.Error(), ".vigil-") {
			t.Errorf("%v: error %q, want one naming %s and its directory", errno, err, p)
		}
		if got := readString(t, p); got != "old certificate" {
			t.Fatalf("%v: the older certificate became %q", errno, got)
		}
	}
	noTemps(t, dir)
}

// The directory renamed while the certificate is written: the
// certificate ends up in it under its name, as os.Create's file did. The
// rename by path failed (no such file), left the whole temporary file
// behind in the moved directory, and lost the certificate.
func TestS27rDirRenamedDuringWrite(t *testing.T) {
	top := t.TempDir()
	d := filepath.Join(top, "d")
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(d, "c.json")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := cert.Create(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("new")); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(top, "moved")
	if err := os.Rename(d, moved); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatalf("Close after the directory moved: %v", err)
	}
	if got := readString(t, filepath.Join(moved, "c.json")); got != "new" {
		t.Errorf("moved/c.json = %q, want %q", got, "new")
	}
	noTemps(t, moved)

	// and an abort there removes the temporary file
	f, err = cert.Create(context.Background(), filepath.Join(moved, "c.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("half"))
	if err := os.Rename(moved, d); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	noTemps(t, d)
	if got := readString(t, p); got != "new" {
		t.Errorf("after an abort: %q, want the older %q", got, "new")
	}
}

// A target that cannot be renamed over (a file bind-mounted into a
// container: EBUSY; EXDEV) is written in place from the whole temporary
// file: the rename failed and the certificate was not written, where
// os.Create had written it.
func TestS27rMountPointTarget(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.EBUSY, syscall.EXDEV} {
		dir := t.TempDir()
		p := filepath.Join(dir, "c.json.gz")
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		restore := cert.SetRenameAt(func(int, string, int, string) error { return errno })
		f, err := cert.Create(context.Background(), p)
		if err != nil {
			restore()
			t.Fatal(err)
		}
		if _, err := f.Write([]byte("new certificate")); err != nil {
			t.Fatal(err)
		}
		err = f.Close()
		restore()
		if err != nil {
			t.Fatalf("%v: %v", errno, err)
		}
		r, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := gzipText(r)
		r.Close()
		if err != nil || c != "new certificate" {
			t.Errorf("%v: %q, %v; want the new certificate", errno, c, err)
		}
		noTemps(t, dir)
	}
}

func gzipText(r io.Reader) (string, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return "", err
	}
	b, err := io.ReadAll(zr)
	return string(b), err
}

// A certificate written in place whose write fails: a regular file
// reached through /proc (the file a descriptor names) is emptied, not
// left half-written under its name, even where its removal would fail.
// One whose directory refuses the temporary file is not written at all
// (no longer in place), so nothing half-written appears under its name.
func TestS27rAbortInPlaceUnremovable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	restoreOpen := cert.SetOpenTemp(func(name string, flag int, perm os.FileMode) (*os.File, error) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
	})
	if f, err := cert.Create(context.Background(), p); err == nil {
		f.Abort()
		t.Fatal("Create succeeded where the directory refuses the temporary file")
	}
	restoreOpen()
	if _, err := os.Lstat(p); err == nil {
		t.Errorf("%s was created", p)
	}
	restore := cert.SetRemoveFile(func(string) error { return syscall.EACCES })
	defer restore()
	of, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	f, err := cert.Create(context.Background(), fmt.Sprintf("/proc/self/fd/%d", of.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(`{"format": "vigil-safety-certificate", "entries": [`))
	f.Abort()
	if got := readString(t, p); got != "" {
		t.Errorf("a half-written certificate was left: %q", got)
	}
}
