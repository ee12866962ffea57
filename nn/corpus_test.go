package nn

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const corpusDir = "../../shared/corpus/nn/vnncomp"

// expected reads the corpus's expected.csv (header first), skipping the
// test when the external corpus is absent.
func expected(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open(filepath.Join(corpusDir, "expected.csv"))
	if err != nil {
		t.Skipf("external corpus absent (%v); see ../shared/corpus/README.md", err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestVNNCOMP runs the external VNN-COMP corpus: no answer may contradict
// expected.csv, and every sat answer's input must really violate the
// property. ACAS Xu instances take seconds; -short skips them.
func TestVNNCOMP(t *testing.T) {
	recs := expected(t)
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

// TestVNNFigures prints nn/FIGURES.md's per-instance table of the
// VNN-COMP subset: each instance in turn with the limit of VNN-COMP (60 s;
// VIGIL_VNN_TIMEOUT overrides it) and the default options
// (VIGIL_VNN_BRANCH=input|relu|auto picks the branching). It runs only
// with VIGIL_VNN_FIGURES=1, since it takes as long as the instances do:
//
//	VIGIL_VNN_FIGURES=1 go test ./nn -run VNNFigures -v
//
// A wrong answer or a counterexample that does not check fails it. The
// competition's time is shown where expected.csv has a column named
// time or seconds (the subset here has none).
func TestVNNFigures(t *testing.T) {
	if os.Getenv("VIGIL_VNN_FIGURES") == "" {
		t.Skip("set VIGIL_VNN_FIGURES=1 to measure the VNN-COMP subset (minutes)")
	}
	recs := expected(t)
	limit := 60 * time.Second
	if s := os.Getenv("VIGIL_VNN_TIMEOUT"); s != "" {
		var err error
		if limit, err = time.ParseDuration(s); err != nil {
			t.Fatal(err)
		}
	}
	branch, err := ParseBranch(os.Getenv("VIGIL_VNN_BRANCH"))
	if err != nil {
		t.Fatal(err)
	}
	timeCol := -1
	for i, h := range recs[0] {
		if h == "time" || h == "seconds" {
			timeCol = i
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| instance | expected | vigil | vigil time | nodes | competition time |\n|---|---|---|---|---|---|\n")
	decided, wrong := 0, 0
	var total time.Duration
	for _, r := range recs[1:] {
		n, err := Load(filepath.Join(corpusDir, "onnx", r[0]))
		if err != nil {
			t.Fatal(err)
		}
		prop, err := LoadVNNLIB(filepath.Join(corpusDir, "vnnlib", r[1]))
		if err != nil {
			t.Fatal(err)
		}
		res, err := n.Verify(prop, limit, Options{Branch: branch})
		if err != nil {
			t.Fatal(err)
		}
		total += res.Elapsed
		mark := ""
		switch {
		case res.Answer == AnswerUnkn:
		case string(res.Answer) != r[2] || (res.Answer == Sat && !prop.Check(n, res.Case, res.Input)):
			wrong++
			mark = " WRONG"
			t.Errorf("%s %s: answered %s, expected %s", r[0], r[1], res.Answer, r[2])
		default:
			decided++
		}
		comp := "—"
		if timeCol >= 0 && timeCol < len(r) && r[timeCol] != "" {
			comp = r[timeCol] + " s"
		}
		fmt.Fprintf(&b, "| %s %s | %s | %s%s | %.3f s | %d | %s |\n", strings.TrimSuffix(r[0], ".onnx"), strings.TrimSuffix(r[1], ".vnnlib"),
			r[2], res.Answer, mark, res.Elapsed.Seconds(), res.Nodes, comp)
	}
	fmt.Fprintf(&b, "\n%d of %d decided within %v, %d wrong; %.2f s in all (branching %s).\n", decided, len(recs)-1, limit, wrong, total.Seconds(), branch)
	fmt.Print(b.String())
}
