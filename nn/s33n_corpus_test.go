package nn

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestS33nReadCorpus: expected.csv's header is optional (a first row
// whose third field is not an answer), answers are read in any case and
// with spaces, further columns are ignored, and rows that cannot be
// judged are errors naming their line. Before session 33 the first row
// was always dropped (a one-line file ran nothing and passed), " unsat"
// or "violated" judged every answer WRONG, and short rows were skipped.
func TestS33nReadCorpus(t *testing.T) {
	for _, c := range []struct {
		csv  string
		want []CorpusInstance
		err  string
	}{
		{"a.onnx,p.vnnlib,unsat\n", []CorpusInstance{{"a.onnx", "p.vnnlib", "unsat", 1}}, ""},
		{"onnx,vnnlib,expected\na.onnx,p.vnnlib,sat\n", []CorpusInstance{{"a.onnx", "p.vnnlib", "sat", 2}}, ""},
		{"onnx,vnnlib,expected,time\na.onnx,p.vnnlib, UNSAT ,3.5\nb.onnx,q.vnnlib,Sat,1\n", []CorpusInstance{{"a.onnx", "p.vnnlib", "unsat", 2}, {"b.onnx", "q.vnnlib", "sat", 3}}, ""},
		{"onnx,vnnlib,expected\na.onnx,p.vnnlib,violated\n", nil, `expected.csv line 2: expected answer "violated"; want sat or unsat (VNN-COMP's violated is sat)`},
		{"onnx,vnnlib,expected\na.onnx,p.vnnlib,unknown\n", nil, `expected.csv line 2: expected answer "unknown"; want sat or unsat`},
		{"a.onnx,p.vnnlib\nb.onnx,q.vnnlib\n", nil, "expected.csv line 1: 2 fields"},
		{"onnx,vnnlib,expected\na.onnx,p.vnnlib,sat\nb.onnx,q.vnnlib\n", nil, "expected.csv line 3: 2 fields"},
		{"onnx,vnnlib,expected\n", nil, "expected.csv lists no instance"},
		{"", nil, "expected.csv lists no instance"},
		{"onnx,vnnlib,expected\n,p.vnnlib,sat\n", nil, "expected.csv line 2: no network file named"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "expected.csv"), []byte(c.csv), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadCorpus(dir)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: got %v, %v; want the error %q", c.csv, got, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%q: got %v, %v; want %v", c.csv, got, err, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: instance %d is %+v, want %+v", c.csv, i, got[i], c.want[i])
			}
		}
	}
}
