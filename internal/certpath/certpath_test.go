package certpath

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A certificate records its files relative to its directory and finds
// them again beside it after both moved, or says where it looked.
func TestRecordLocate(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "certs"), 0o755); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "a", "m.spec")
	if err := os.WriteFile(model, []byte("model m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cert := filepath.Join(dir, "a", "certs", "c.json")
	spec, empty := model, ""
	written, err := Record(cert, &spec, &empty)
	if err != nil {
		t.Fatal(err)
	}
	if spec != "../m.spec" || empty != "" || written != filepath.Join(dir, "a", "certs") {
		t.Fatalf("Record: spec %q, empty %q, dir %q", spec, empty, written)
	}
	// Moved together: found beside the certificate.
	if err := os.Rename(filepath.Join(dir, "a"), filepath.Join(dir, "b")); err != nil {
		t.Fatal(err)
	}
	moved := filepath.Join(dir, "b", "certs", "c.json")
	got, err := Locate("model", spec, moved, written)
	if err != nil || got != filepath.Join(dir, "b", "certs", "../m.spec") {
		t.Fatalf("Locate after the move: %q, %v", got, err)
	}
	// The model gone: every place tried is named.
	os.Remove(filepath.Join(dir, "b", "m.spec"))
	_, err = Locate("model", spec, moved, written)
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Looked) != 2 || nf.Looked[0].Why != "beside the certificate" || nf.Looked[1].Why != "where the certificate was written" {
		t.Fatalf("Locate of a missing model: %v", err)
	}
}
