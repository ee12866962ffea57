// Package golden runs golden tests kept in txtar archives, CUE's cuetxtar
// way: each archive holds the inputs of one case and, under want/, what
// the code under test must produce from them. lang (the front end: IR,
// diagnostics, formatting) and smt/smtlib (the SMT-LIB2 writers) share it.
//
// For every archive, Run writes the files that are not under want/ into a
// fresh directory, asks the test for its outputs, and compares them with
// the want/ sections: an output that differs, a want/ section that is not
// produced, and an output without its want/ section fail the test. With
// update set (each package's -update flag), Run rewrites the archive
// instead: sections are replaced, appended or removed.
package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// Case is one archive being run.
type Case struct {
	// Archive is the parsed file; Dir holds its inputs (every file not
	// under want/), written there before the test's function runs.
	Archive *txtar.Archive
	Dir     string
}

// File returns the data of the archive's file name and whether it has one.
func (c *Case) File(name string) ([]byte, bool) {
	for _, f := range c.Archive.Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// Run runs the archives that glob matches (at least one must): for each,
// outputs returns what the code under test produces, by want/ name
// ("want/ir", "want/errors", ...); a section it leaves out must be absent
// from the archive.
func Run(t *testing.T, glob string, update bool, outputs func(t *testing.T, c *Case) map[string][]byte) {
	t.Helper()
	files, _ := filepath.Glob(glob)
	if len(files) == 0 {
		t.Fatalf("no golden files match %s", glob)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c := &Case{Archive: ar, Dir: t.TempDir()}
			for _, f := range ar.Files {
				if strings.HasPrefix(f.Name, "want/") {
					continue
				}
				p := filepath.Join(c.Dir, f.Name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got := outputs(t, c)
			if compare(t.Errorf, ar, got, update) {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// compare checks (or, with update, rewrites) the want/ sections of ar
// against got, reporting differences with errorf; it reports whether ar
// changed.
func compare(errorf func(string, ...any), ar *txtar.Archive, got map[string][]byte, update bool) bool {
	names := map[string]bool{}
	for name := range got {
		names[name] = true
	}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "want/") {
			names[f.Name] = true
		}
	}
	changed := false
	for _, name := range sortedKeys(names) {
		g, has := got[name]
		idx := -1
		for i, f := range ar.Files {
			if f.Name == name {
				idx = i
			}
		}
		if has && idx >= 0 && bytes.Equal(g, ar.Files[idx].Data) {
			continue
		}
		if !update {
			switch {
			case !has:
				errorf("%s is in the archive but not produced (run with -update to remove it)", name)
			case idx < 0:
				errorf("%s is produced but not in the archive (run with -update to add it):\n%s", name, g)
			default:
				errorf("%s differs (run with -update to rewrite):\n--- got\n%s--- want\n%s", name, g, ar.Files[idx].Data)
			}
			continue
		}
		changed = true
		switch {
		case !has:
			ar.Files = append(ar.Files[:idx], ar.Files[idx+1:]...)
		case idx >= 0:
			ar.Files[idx].Data = g
		default:
			ar.Files = append(ar.Files, txtar.File{Name: name, Data: g})
		}
	}
	return changed
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
