package inputfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A file within the limit reads whole; a device that never ends is
// refused once the limit is passed, naming it; a missing file is os's
// error.
func TestReadFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "m.spec")
	if err := os.WriteFile(p, []byte("model m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(p); err != nil || string(b) != "model m\n" {
		t.Fatalf("ReadFile: %q, %v", b, err)
	}
	defer func(l int64) { limit = l }(limit)
	limit = 1 << 20
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err := ReadFile("/dev/zero")
		var tl *TooLargeError
		if !errors.As(err, &tl) || !strings.HasPrefix(err.Error(), "/dev/zero: more than 1 MiB") {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	big := filepath.Join(t.TempDir(), "big.onnx")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, limit+1); err != nil { // sparse: not written
		t.Fatal(err)
	}
	if _, err := ReadFile(big); err == nil || !strings.HasPrefix(err.Error(), big+": more than 1 MiB") {
		t.Errorf("large file: %v", err)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "nope")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// ReadAll refuses a reader of more than the limit.
func TestReadAll(t *testing.T) {
	defer func(l int64) { limit = l }(limit)
	limit = 1 << 20
	if _, err := ReadAll(strings.NewReader(strings.Repeat("x", 1<<20+1)), "stdin"); err == nil || !strings.HasPrefix(err.Error(), "stdin: more than") {
		t.Errorf("ReadAll: %v", err)
	}
	if b, err := ReadAll(strings.NewReader("ab"), "stdin"); err != nil || string(b) != "ab" {
		t.Errorf("ReadAll: %q, %v", b, err)
	}
}
