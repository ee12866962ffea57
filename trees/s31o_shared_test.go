package trees

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// s31oVeritas is a one-tree Veritas ensemble whose split reads feature f.
func s31oVeritas(f byte) string {
	return `{"at_type":"CLF_MEAN","base_scores":[0.0,0.0],"trees":[{"num_leaf_values":2,"split_type":"LtSplit","structure":{"feat_id":` +
		string(rune('0'+f)) + `,"split_value":1.5,"left":{"leaf_value":[1.0,0.0]},"right":{"leaf_value":[0.0,1.0]}}}]}`
}

// LoadShared parses one content once, also when loaded at once from
// several goroutines (policies per worker), and reads a file rewritten
// with the same size and modification time again: its own features, not
// the first file's.
func TestS31oLoadShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "e.json")
	at := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	write := func(f byte) {
		t.Helper()
		if err := os.WriteFile(path, []byte(s31oVeritas(f)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, at, at); err != nil {
			t.Fatal(err)
		}
	}
	write(2)
	p0 := SharedParses()
	var wg sync.WaitGroup
	ens := make([]*Ensemble, 4)
	for i := range ens {
		wg.Go(func() {
			e, err := LoadShared(path)
			if err != nil {
				t.Error(err)
			}
			ens[i] = e
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	if ens[0].NumFeatures != 3 {
		t.Fatalf("features %d; want 3", ens[0].NumFeatures)
	}
	again, err := LoadShared(path)
	if err != nil || again != ens[0] && again != ens[1] && again != ens[2] && again != ens[3] {
		t.Errorf("a load of the same file again: %p, %v; want a kept ensemble", again, err)
	}
	if n := SharedParses() - p0; n > len(ens) {
		t.Errorf("%d parses for %d loads of one content", n, len(ens)+1)
	}
	write(1)
	e, err := LoadShared(path)
	if err != nil {
		t.Fatal(err)
	}
	if e.NumFeatures != 2 {
		t.Errorf("a file of the same size and time, other splits: features %d; want its own 2 (the first file's ensemble was kept)", e.NumFeatures)
	}
	// a file that no longer parses is an error, not the ensemble before
	if err := os.WriteFile(path, []byte(s31oVeritas(1)[:40]), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadShared(path); err == nil {
		t.Error("a cut file: no error")
	}
}
