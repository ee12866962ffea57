package load

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"vigil/nn"
	"vigil/symbolic"
	"vigil/trees"
)

// parses counts the policy files nn and trees parsed (their caches'
// misses).
func parses() int { return nn.SharedParses() + trees.SharedParses() }

// fileDims reads a policy file for its counts once per content: a second
// model load of the same command (vigil faults' load for the run file's
// defaults, then its own) does not parse a large file again, for an
// ensemble or a network; a file whose bytes change is read again, even at
// the same size and modification time (s30x: kept by size and time, such
// a file kept the first file's counts).
func TestS30oFileDimsReadsOnce(t *testing.T) {
	for _, tc := range []struct {
		name string
		kind symbolic.PolicyKind
		ext  string
	}{{"oneway_trees.json", symbolic.KindTrees, ".json"}, {"oneway_32x32.onnx", symbolic.KindNN, ".onnx"}} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "specs", "policies", tc.name))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(t.TempDir(), "p"+tc.ext)
			if err := os.WriteFile(path, src, 0o644); err != nil {
				t.Fatal(err)
			}
			reads := parses()
			ins, outs, err := fileDims(path, tc.kind, "")
			if err != nil || ins <= 0 || outs <= 0 {
				t.Fatalf("fileDims: %d, %d, %v", ins, outs, err)
			}
			if i, o, err := fileDims(path, tc.kind, ""); err != nil || i != ins || o != outs {
				t.Fatalf("second fileDims of the same file: %d, %d, %v; want %d, %d", i, o, err, ins, outs)
			}
			reads = parses() - reads
			if reads > 1 { // 0 when another test read the same bytes
				t.Errorf("two fileDims of one file parsed it %d times; want once", reads)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			// the same size and time, other bytes: read again, and an error
			if err := os.WriteFile(path, bytes.Repeat([]byte{' '}, len(src)), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if i, o, err := fileDims(path, tc.kind, ""); err == nil {
				t.Fatalf("fileDims of other bytes at the same size and time: %d, %d, no error; want the file read again (it does not parse)", i, o)
			}
		})
	}
}
