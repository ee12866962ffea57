package cert_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/safety/cert"
)

// TestS26wAbortRemovesOnlyWhatItWrote: a certificate whose writing fails
// leaves nothing at a path that named nothing; through a symbolic link
// the link stays and its target keeps its old contents (session 27: the
// temporary file is renamed over the target only when whole); a device (vigil safe --cert
// /dev/stdout, /dev/null, /dev/full) is left alone: os.Remove of the path
// deleted the device's name when vigil ran as root (a write error on
// /dev/full, or a stop while writing to /dev/stdout).
func TestS26wAbortRemovesOnlyWhatItWrote(t *testing.T) {
	dir := t.TempDir()
	for _, gz := range []string{"", ".gz"} {
		plain := filepath.Join(dir, "c.json"+gz)
		f, err := cert.Create(context.Background(), plain)
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("{\n  \"format\": "))
		f.Abort()
		if _, err := os.Lstat(plain); !os.IsNotExist(err) {
			t.Fatalf("%s: a half-written certificate was left: %v", plain, err)
		}

		target := filepath.Join(dir, "target"+gz)
		if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "link.json"+gz)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if f, err = cert.Create(context.Background(), link); err != nil {
			t.Fatal(err)
		}
		f.Write(make([]byte, 100<<10))
		f.Abort()
		if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s: the link was removed: %v", link, err)
		}
		if b, err := os.ReadFile(target); err != nil || string(b) != "old" {
			t.Fatalf("%s: the link's target lost its old contents: %q, %v", target, b, err)
		}

		null := filepath.Join(dir, "null.json"+gz)
		if err := os.Symlink(os.DevNull, null); err != nil {
			t.Fatal(err)
		}
		if f, err = cert.Create(context.Background(), null); err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("x"))
		f.Abort()
		if _, err := os.Lstat(null); err != nil {
			t.Fatalf("%s: removed: %v", null, err)
		}
		if _, err := os.Stat(os.DevNull); err != nil {
			t.Fatalf("%s: %v", os.DevNull, err)
		}
	}
}

// TestS26wReadDamagedGzip: a gzip-compressed certificate cut short or
// damaged is refused with what happened to the file ("gzip: unexpected
// EOF" and "gzip: gzip: invalid checksum" named neither), never read as
// a certificate.
func TestS26wReadDamagedGzip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.json.gz")
	c := &cert.Certificate{Format: cert.FormatName, Version: cert.Version, Model: "m", Property: "p", Kind: cert.Safe,
		Radius: cert.Inf, Vars: []string{"x"}, State: []int{0}}
	for x := 0; x < 2000; x++ {
		c.Entries = append(c.Entries, cert.Entry{S: []int{x}, B: 0, Label: "up"})
	}
	if err := cert.WriteFile(path, c); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cert.Read(bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		d := bytes.Clone(data)
		d[i] ^= 0xff
		return d
	}
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"cut to 10 bytes", data[:10], "truncated"},
		{"cut in the middle", data[:len(data)/2], "truncated"},
		{"cut by one byte", data[:len(data)-1], "truncated"},
		{"checksum changed", flip(len(data) - 6), "corrupted"},
		{"compression method changed", flip(2), "corrupted"},
		{"data changed", flip(len(data) / 2), "corrupted"},
	} {
		_, err := cert.Read(bytes.NewReader(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}
