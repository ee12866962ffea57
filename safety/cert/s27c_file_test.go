package cert_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"vigil/safety/cert"
)

// noTemps fails t when dir holds a temporary file of a certificate.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".vigil-") {
			t.Errorf("%s: a temporary file was left behind", e.Name())
		}
	}
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestS27cFailedWriteKeepsOldFile: a certificate write that fails or is
// stopped (Abort) leaves the older certificate of that name whole; before
// session 27 it removed it, so a Ctrl-C or a full disk while writing
// lost the user's good certificate. Close replaces it whole.
func TestS27cFailedWriteKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"c.json", "c.json.gz", "inv.smt2"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte("old certificate"), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := cert.Create(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		f.Write(make([]byte, 200<<10))
		if got := readString(t, path); got != "old certificate" {
			t.Fatalf("%s: changed while the new one is written: %q", name, got[:min(len(got), 40)])
		}
		f.Abort()
		if got := readString(t, path); got != "old certificate" {
			t.Fatalf("%s: after Abort: %q, want the old certificate", name, got[:min(len(got), 40)])
		}
		noTemps(t, dir)

		f, err = cert.CreatePlain(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, "new certificate")
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		if got := readString(t, path); got != "new certificate" {
			t.Fatalf("%s: after Close: %q", name, got)
		}
		noTemps(t, dir)
	}
}

// TestS27cStopKeepsOldFile: a stop while WriteCertificate's encoder
// writes (cert.Stopping) leaves the old file and no temporary file.
func TestS27cStopKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json.gz")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	f, err := cert.Create(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	w := cert.Stopping(ctx, f)
	if _, err := w.Write(make([]byte, 1<<20)); err != nil {
		t.Fatal(err)
	}
	cancel()
	if _, err := w.Write([]byte("x")); !errors.Is(err, context.Canceled) {
		t.Fatalf("write after the stop: %v, want context.Canceled", err)
	}
	f.Abort()
	if got := readString(t, path); got != "old" {
		t.Fatalf("after a stop: %q, want the old file", got[:min(len(got), 20)])
	}
	noTemps(t, dir)
	if _, err := cert.Create(ctx, path); !errors.Is(err, context.Canceled) {
		t.Fatalf("Create after the stop: %v, want context.Canceled", err)
	}
	noTemps(t, dir)
}

// TestS27cPermissions: the certificate gets the mode a plain create
// gives: 0666 less the umask for a new file (not CreateTemp's 0600), the
// old file's mode for one replaced.
func TestS27cPermissions(t *testing.T) {
	dir := t.TempDir()
	old := syscall.Umask(0o027)
	defer syscall.Umask(old)
	write := func(path string) {
		f, err := cert.Create(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(f, "c")
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	mode := func(path string) os.FileMode {
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Perm()
	}
	fresh := filepath.Join(dir, "new.json")
	write(fresh)
	if m := mode(fresh); m != 0o640 {
		t.Errorf("a new certificate under umask 027: mode %o, want 640", m)
	}
	kept := filepath.Join(dir, "kept.json")
	if err := os.WriteFile(kept, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(kept, 0o604)
	write(kept)
	if m := mode(kept); m != 0o604 {
		t.Errorf("a replaced certificate: mode %o, want the old 604", m)
	}
	noTemps(t, dir)
}

// TestS27cLinks: through a symbolic link the link stays and its target
// gets the certificate (the old contents on a failure); a file with
// another hard link is replaced as any other (since session 30: written
// in place, a killed write left a half-written certificate under both
// names), the other name keeping the old certificate whole;
// /proc/self/fd/N is written in place (the file a descriptor names, as
// /dev/stdout does when stdout is redirected to a file: replacing that
// file would lose the rest of stdout).
func TestS27cLinks(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	target := filepath.Join(sub, "target.json")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("sub/target.json", link); err != nil {
		t.Fatal(err)
	}
	f, err := cert.Create(context.Background(), link)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st, err)
	}
	if got := readString(t, target); got != "new" {
		t.Fatalf("the link's target: %q", got)
	}
	noTemps(t, dir)
	noTemps(t, sub)

	// a dangling link: the target is created, the link stays
	dangling := filepath.Join(dir, "dangling.json")
	os.Symlink("sub/none.json", dangling)
	f, err = cert.Create(context.Background(), dangling)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(sub, "none.json")); got != "new" {
		t.Fatalf("the dangling link's target: %q", got)
	}

	// hard links: the name written gets the new certificate, the other
	// keeps the old one, whole, while it is written and after
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	os.WriteFile(a, []byte("old"), 0o644)
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	f, err = cert.Create(context.Background(), a)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new")
	if got, gotB := readString(t, a), readString(t, b); got != "old" || gotB != "old" {
		t.Fatalf("while the certificate is written: %q and %q, want both old", got, gotB)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if got, gotB := readString(t, a), readString(t, b); got != "new" || gotB != "old" {
		t.Fatalf("the hard links: %q and %q, want new and old", got, gotB)
	}

	// /proc/self/fd/N: written into the open file, not renamed over it
	out := filepath.Join(dir, "stdout.txt")
	of, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer of.Close()
	f, err = cert.Create(context.Background(), fmt.Sprintf("/proc/self/fd/%d", of.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "new")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	st1, _ := of.Stat()
	st2, err := os.Stat(out)
	if err != nil || !os.SameFile(st1, st2) {
		t.Fatalf("%s was replaced by another file: the open descriptor lost it", out)
	}
	if got := readString(t, out); got != "new" {
		t.Fatalf("%s: %q", out, got)
	}
	noTemps(t, dir)
}

// TestS27cRemoveTemps: the temporary file of a certificate being written
// is what RemoveTemps removes (a second Ctrl-C's exit), the old file kept.
func TestS27cRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.json")
	os.WriteFile(path, []byte("old"), 0o644)
	f, err := cert.Create(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "half")
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("want the file and its temporary file, got %d entries", len(ents))
	}
	cert.RemoveTemps()
	noTemps(t, dir)
	if got := readString(t, path); got != "old" {
		t.Fatalf("%q", got)
	}
	if err := f.Close(); err == nil {
		t.Fatal("Close after RemoveTemps renamed nothing, yet succeeded")
	}
	if got := readString(t, path); got != "old" {
		t.Fatalf("%q", got)
	}
}

// mkfifo makes a FIFO in a new directory.
func mkfifo(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cert.fifo")
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestS27cFIFONoReader: a FIFO nobody reads blocked os.Create forever,
// past Ctrl-C and --timeout; Create now returns within a second of the
// stop, with an error that wraps ctx's.
func TestS27cFIFONoReader(t *testing.T) {
	path := mkfifo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		f, err := cert.Create(ctx, path)
		if err == nil {
			f.Abort()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Create of a FIFO without a reader: %v, want the context's error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Create of a FIFO without a reader did not stop with its context")
	}
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was replaced: %v %v", st, err)
	}
}

// TestS27cFIFO: a FIFO is written in place once a reader opens it (Create
// waits for it), and a write blocked on a reader that does not read ends
// with the stop.
func TestS27cFIFO(t *testing.T) {
	path := mkfifo(t)
	got := make(chan string, 1)
	go func() {
		time.Sleep(150 * time.Millisecond) // Create waits for the reader
		r, err := os.Open(path)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	f, err := cert.CreatePlain(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "certificate")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "certificate" {
		t.Fatalf("the reader got %q", s)
	}

	// a reader that never reads: the pipe fills and the write blocks
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	f, err = cert.CreatePlain(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := f.Write(make([]byte, 4<<20))
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("a blocked write after the stop: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a write blocked on a FIFO did not end with the stop")
	}
	f.Abort()
	if st, err := os.Lstat(path); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO was removed: %v %v", st, err)
	}
}
