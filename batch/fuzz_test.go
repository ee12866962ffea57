package batch

import (
	"errors"
	"path/filepath"
	"strconv"
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
	fuzzseed.AddFiles(f, "../bench/*.toml")
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

// FuzzFlagValues reads arbitrary text as each of the batch's small value
// syntaxes (a --scale value, a number of ParseScale, a memory size, a
// time limit, a report filter and a scatter pair): nothing panics or
// takes long, and what is accepted is in range (ParseScale within ±2^53,
// sizes and durations not negative).
func FuzzFlagValues(f *testing.F) {
	for _, s := range []string{"N=10,1e3,2^10", "1000", "1e6", "10^9", "-3", "512MiB", "2G", "1.5GB", "30s", "1h30m", "algorithm=bfs,polic3", "error!=crash", "polic3:bfs", "0e9", "0e999999999999999", "1^999999999999999", "-1^999999999999999", "0^999999999999999", "9007199254740993", "99999999999999999999TiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if err := (Scale{}).Set(s); err != nil && err.Error() == "" {
			t.Fatal("empty error")
		}
		if n, err := ParseScale(s); err == nil && (n > 1<<53 || n < -(1<<53)) {
			if _, perr := strconv.ParseInt(s, 10, 64); perr != nil {
				t.Fatalf("ParseScale(%q) = %d, beyond 2^53", s, n)
			}
		}
		if n, err := ParseSize(s); err == nil && n < 0 {
			t.Fatalf("ParseSize(%q) = %d", s, n)
		}
		if d, err := ParseDuration(s); err == nil && d < 0 {
			t.Fatalf("ParseDuration(%q) = %v", s, d)
		}
		ParseFilter(s)
		ParseScatter(s)
	})
}
