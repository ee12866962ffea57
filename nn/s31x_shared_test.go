package nn_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"vigil/nn"
)

// TestS31xSharedChurn: LoadShared from many goroutines over more files
// than it keeps (maxShared is 4), some of them with the same content
// under other names and with other extensions: every load gives the
// network of the file's content (its bias says which), never another
// file's, as the cache evicts and refills.
func TestS31xSharedChurn(t *testing.T) {
	dir := t.TempDir()
	type file struct {
		path string
		id   float64
	}
	var files []file
	for i := range 7 {
		text := fmt.Sprintf(`{"format": "vigil-nn", "version": 1, "layers": [{"weights": [[0]], "bias": [%d]}]}`, i)
		for _, name := range []string{fmt.Sprintf("n%d.json", i), fmt.Sprintf("copy%d.json", i), fmt.Sprintf("noext%d", i)} {
			p := filepath.Join(dir, name)
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, file{p, float64(i)})
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 31))
			y := make([]float64, 1)
			for range 300 {
				f := files[r.IntN(len(files))]
				n, err := nn.LoadShared(f.path, "")
				if err != nil {
					errs <- err
					return
				}
				nn.NewEvaluator(n).Eval([]float64{0}, y)
				if y[0] != f.id {
					errs <- fmt.Errorf("%s: the network of bias %v, want %v", f.path, y[0], f.id)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
