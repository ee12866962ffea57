package cert

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"vigil/smt"
)

// TestS30cWriteFile: WriteFile replaces the file whole, as vigil verify
// --cert does (it wrote in place with os.Create, truncating first): onto
// a file with another hard link, the name given gets the certificate,
// which reads back and checks; the other name keeps its old contents; no
// temporary file is left. Into a directory that does not exist it fails,
// naming the file.
func TestS30cWriteFile(t *testing.T) {
	m, prop := counter()
	// names the certificate's text can hold (counter's are there to test
	// the checker's renaming)
	m.Vars[0].Name, m.Labels[0].Name, m.Labels[1].Name = "x", "a", "b"
	c := &Cert{Inv: [][]smt.Lit{{{Var: 0, Upper: true, K: 3}}}, Vars: []string{"x"}}
	c.Property, c.Boxes = "p", 1
	c.Hash, _ = ModelHash(m, "p", "")
	c.Model = "counter.spec"
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.smt2"), filepath.Join(dir, "b.smt2")
	if err := os.WriteFile(a, []byte("; old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(a, b); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(a, c, m, prop, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(b); string(got) != "; old\n" {
		t.Errorf("the other hard link became %q", got)
	}
	back, err := Read(a)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(context.Background(), back, m, prop, nil); err != nil {
		t.Errorf("the certificate written: %v", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".vigil-") {
			t.Errorf("%s was left behind", e.Name())
		}
	}
	missing := filepath.Join(dir, "none", "c.smt2")
	if err := WriteFile(missing, c, m, prop, nil); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("into a missing directory: %v, want an error naming %s", err, missing)
	}
}
