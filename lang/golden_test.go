package lang

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/symbolic"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of golden txtar files")

// TestGolden runs testdata/golden/*.txtar. Each archive holds `in.spec`
// (and any files it imports or names), and the expected `want/ir` (the
// lowered model printed by symbolic.Print, or absent when it must not
// lower), `want/errors` (rendered diagnostics) and `want/fmt` (the
// formatter's output). Run `go test ./lang -run Golden -update` to rewrite.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			var defs map[string]string
			for _, f := range ar.Files {
				if strings.HasPrefix(f.Name, "want/") {
					continue
				}
				if f.Name == "defines" {
					defs = map[string]string{}
					for _, l := range strings.Fields(string(f.Data)) {
						k, v, _ := strings.Cut(l, "=")
						defs[k] = v
					}
					continue
				}
				p := filepath.Join(dir, f.Name)
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, f.Data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wd, _ := os.Getwd()
			os.Chdir(dir)
			defer os.Chdir(wd)
			got := map[string][]byte{}
			m, diags := Load("in.spec", Options{Defines: defs})
			got["want/errors"] = []byte(diags.Render())
			if m != nil {
				var b bytes.Buffer
				symbolic.Print(&b, m)
				got["want/ir"] = b.Bytes()
			}
			src, _ := os.ReadFile("in.spec")
			if out, _ := Format("in.spec", src); out != nil {
				got["want/fmt"] = out
			}
			os.Chdir(wd)
			changed := false
			for _, name := range []string{"want/ir", "want/errors", "want/fmt"} {
				var want []byte
				idx := -1
				for i, f := range ar.Files {
					if f.Name == name {
						want, idx = f.Data, i
					}
				}
				g, has := got[name]
				if !has && idx < 0 || bytes.Equal(g, want) && (has == (idx >= 0)) {
					continue
				}
				if *update {
					changed = true
					switch {
					case idx >= 0 && !has:
						ar.Files = append(ar.Files[:idx], ar.Files[idx+1:]...)
					case idx >= 0:
						ar.Files[idx].Data = g
					default:
						ar.Files = append(ar.Files, txtar.File{Name: name, Data: g})
					}
					continue
				}
				t.Errorf("%s differs:\n--- got ---\n%s--- want ---\n%s", name, g, want)
			}
			if changed {
				os.WriteFile(file, txtar.Format(ar), 0o644)
			}
		})
	}
}
