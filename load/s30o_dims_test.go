package load

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"vigil/symbolic"
)

// fileDims reads a policy file for its counts once per file as it is
// (size and modification time): a second model load of the same command
// (vigil faults' load for the run file's defaults, then its own) does
// not parse a large file again; a file that changes is read again.
func TestS30oFileDimsReadsOnce(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "specs", "policies", "oneway_trees.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ins, outs, err := fileDims(path, symbolic.KindTrees, "")
	if err != nil || ins <= 0 || outs <= 0 {
		t.Fatalf("fileDims: %d, %d, %v", ins, outs, err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// the same size and time, other bytes: a read would fail, the kept
	// counts answer
	if err := os.WriteFile(path, bytes.Repeat([]byte{' '}, len(src)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if i, o, err := fileDims(path, symbolic.KindTrees, ""); err != nil || i != ins || o != outs {
		t.Fatalf("second fileDims of the same file: %d, %d, %v; want the kept %d, %d", i, o, err, ins, outs)
	}
	// a file that changed is read again
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(path, later, later); err != nil {
		t.Fatal(err)
	}
	if _, _, err := fileDims(path, symbolic.KindTrees, ""); err == nil {
		t.Fatal("fileDims of a changed file that does not parse: no error; want the file read again")
	}
}
