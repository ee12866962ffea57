package nn

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const corpusDir = "../../shared/corpus/nn/vnncomp"

// TestVNNCOMP runs the external VNN-COMP corpus: no answer may contradict
// expected.csv, and every sat answer's input must really violate the
// property. ACAS Xu instances take seconds; -short skips them.
func TestVNNCOMP(t *testing.T) {
	f, err := os.Open(filepath.Join(corpusDir, "expected.csv"))
	if err != nil {
		t.Skipf("external corpus absent (%v); see ../shared/corpus/README.md", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs[1:] {
		if testing.Short() && strings.HasPrefix(r[0], "ACASXU") {
			continue
		}
		n, err := Load(filepath.Join(corpusDir, "onnx", r[0]))
		if err != nil {
			t.Fatal(err)
		}
		prop, err := LoadVNNLIB(filepath.Join(corpusDir, "vnnlib", r[1]))
		if err != nil {
			t.Fatal(err)
		}
		res, err := n.Verify(prop, 20*time.Second, Options{})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case res.Answer == AnswerUnkn:
			t.Logf("%s %s: unknown after %v", r[0], r[1], res.Elapsed)
		case string(res.Answer) != r[2]:
			t.Errorf("%s %s: answered %s, expected %s", r[0], r[1], res.Answer, r[2])
		case res.Answer == Sat && !prop.Check(n, res.Case, res.Input):
			t.Errorf("%s %s: counterexample %v does not violate the property", r[0], r[1], res.Input)
		}
	}
}
