package nn

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"vigil/symbolic"
)

// s31oNet is a one-layer vigil JSON network of one input and two outputs
// whose scores are (w*x, -w*x): with w = 1 it picks output 0 at x = 1,
// with w = -1 output 1; both texts have the same size.
func s31oNet(w string) string {
	return `{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[` + w + `], [` + map[string]string{" 1": "-1", "-1": " 1"}[w] + `]], "bias": [0, 0], "activation": "linear"}]}`
}

// A network file rewritten with the same size and modification time (cp
// -p, an archive's fixed dates, a rewrite within the clock's resolution)
// binds its own weights, not those of the file that was there before
// (session 31: the cache kept networks by path, size and time, and the
// second policy scored with the first file's weights).
func TestS31oSharedSameSizeAndTime(t *testing.T) {
	m := &symbolic.Model{
		Vars:   []symbolic.Var{{Name: "x", Lo: 0, Hi: 1}},
		Labels: []symbolic.Label{{Name: "a"}, {Name: "b"}},
	}
	path := filepath.Join(t.TempDir(), "p.json")
	d := &symbolic.PolicyDecl{Name: "p", Kind: symbolic.KindNN, File: path,
		Inputs:  []symbolic.Affine{{Terms: []symbolic.AffineTerm{{Coef: symbolic.Rat{Num: 1, Den: 1}, Var: 0}}}},
		Outputs: []symbolic.LabelID{0, 1}}
	at := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	best := func(w string) int {
		t.Helper()
		if err := os.WriteFile(path, []byte(s31oNet(w)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
		p, err := NewPolicy(m, d)
		if err != nil {
			t.Fatal(err)
		}
		y := make([]float64, 2)
		if err := p.Scores(symbolic.State{1}, y); err != nil {
			t.Fatal(err)
		}
		if y[0] > y[1] {
			return 0
		}
		return 1
	}
	if len(s31oNet(" 1")) != len(s31oNet("-1")) {
		t.Fatal("the two networks must have one size")
	}
	if got := best(" 1"); got != 0 {
		t.Fatalf("w = 1: best output %d, want 0", got)
	}
	if got := best("-1"); got != 1 {
		t.Fatalf("w = -1, written over w = 1 with the same size and time: best output %d, want 1 (the first file's weights were bound)", got)
	}
}

// LoadShared parses one content once: a second load of the same bytes
// (under another name too) shares the network; other bytes are parsed.
func TestS31oSharedParsesOnce(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, f := range []string{a, b} {
		if err := os.WriteFile(f, []byte(s31oNet(" 1")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	n0 := SharedParses()
	n1, err := LoadShared(a, "")
	if err != nil {
		t.Fatal(err)
	}
	n2, err := LoadShared(b, "")
	if err != nil {
		t.Fatal(err)
	}
	if n1 != n2 {
		t.Error("two files of one content: two networks; want one shared")
	}
	if p := SharedParses() - n0; p > 1 {
		t.Errorf("two loads of one content parsed %d times; want at most once", p)
	}
	// an output named for a JSON network is an error, for a cached content too
	if _, err := LoadShared(a, "scores"); err == nil {
		t.Error("LoadShared with an output of a JSON network: no error")
	}
	if err := os.WriteFile(b, []byte(s31oNet("-1")), 0o644); err != nil {
		t.Fatal(err)
	}
	n3, err := LoadShared(b, "")
	if err != nil {
		t.Fatal(err)
	}
	if n3 == n1 || n3.Layers[0].W[0] != -1 {
		t.Errorf("other bytes: got the first network's weights %v", n3.Layers[0].W)
	}
	// a bad file is an error each time, never a kept network
	if err := os.WriteFile(b, []byte("{"+s31oNet(" 1")[1:len(s31oNet(" 1"))-1]), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := LoadShared(b, ""); err == nil {
			t.Fatal("a cut file: no error")
		}
	}
}
