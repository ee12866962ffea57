package batch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"vigil/internal/fuzzseed"
)

// FuzzParse checks that an experiment file never panics the checker and
// that every rejection is an *Error naming the file (with a line when it
// has one). The file is read as if it were in bench/, so the globs of the
// repository's experiments match their files. Seeds: bench/*.toml and
// their cut and big-number variants; crashers stay in
// testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	paths, _ := filepath.Glob("../bench/*.toml")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		for _, v := range fuzzseed.Variants(data) {
			f.Add(v)
		}
	}
	f.Add([]byte("name = \"x\"\nrepetitions = 3\n[[algorithms]]\nname = \"a\"\nargs = [\"check\", \"{model}\"]\n[[instances]]\nmodels = [\"../specs/oneway.spec\"]\n"))
	f.Add(fuzzseed.Deep("a = [", "1", "]"))
	path := filepath.Join("..", "bench", "fuzz.toml")
	f.Fuzz(func(t *testing.T, data []byte) {
		x, err := Parse(path, data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error is a %T, not a positioned *Error: %v", err, err)
			}
			if e.File != path {
				t.Fatalf("error names %q, not the file %q: %v", e.File, path, err)
			}
			_ = err.Error()
			return
		}
		if x.Name == "" || len(x.Runs) == 0 {
			t.Fatalf("accepted an experiment without a name or runs: %+v", x)
		}
	})
}
