package smtlib

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/lang"
	"vigil/symbolic"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of the golden txtar files")

// TestGolden runs testdata/golden/*.txtar. Each archive holds in.spec (and
// the files it names), optionally `invariant` (one box per line, literals
// like `x <= 3` separated by commas, `true` for the empty box; no lines:
// the empty invariant), and the expected want/system.smt2, want/chc.smt2
// and want/cert.smt2 for the spec's first property and first policy. Run
// `go test ./smt/smtlib -run Golden -update` to rewrite them. Where z3 is
// installed, each file must also go through it without an error.
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
			var inv [][]Lit
			var invText string
			for _, f := range ar.Files {
				switch {
				case strings.HasPrefix(f.Name, "want/"):
				case f.Name == "invariant":
					invText = string(f.Data)
				default:
					if err := os.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			wd, _ := os.Getwd()
			if err := os.Chdir(dir); err != nil {
				t.Fatal(err)
			}
			m, diags := lang.Load("in.spec", lang.Options{})
			os.Chdir(wd)
			if diags.HasErrors() {
				t.Fatalf("in.spec:\n%s", diags.Render())
			}
			if invText != "" {
				if inv, err = parseInvariant(m, invText); err != nil {
					t.Fatal(err)
				}
			}
			q := Question{Model: m, Property: m.Properties[0]}
			if len(m.Policies) > 0 {
				q.Policy = m.Policies[0]
			}
			got := map[string][]byte{}
			for name, write := range map[string]func(*bytes.Buffer) error{
				"want/system.smt2": func(b *bytes.Buffer) error { return WriteSystem(b, q) },
				"want/chc.smt2":    func(b *bytes.Buffer) error { return WriteCHC(b, q) },
				"want/cert.smt2": func(b *bytes.Buffer) error {
					return WriteCert(b, q, []string{"vigil certificate (golden test)", "model " + m.Name}, inv)
				},
			} {
				var b bytes.Buffer
				if err := write(&b); err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got[name] = b.Bytes()
			}
			changed := false
			for _, name := range []string{"want/system.smt2", "want/chc.smt2", "want/cert.smt2"} {
				idx := -1
				for i, f := range ar.Files {
					if f.Name == name {
						idx = i
					}
				}
				if idx >= 0 && bytes.Equal(ar.Files[idx].Data, got[name]) {
					continue
				}
				if !*update {
					want := []byte(nil)
					if idx >= 0 {
						want = ar.Files[idx].Data
					}
					t.Errorf("%s differs (run with -update to rewrite):\n--- got\n%s\n--- want\n%s", name, got[name], want)
					continue
				}
				changed = true
				if idx >= 0 {
					ar.Files[idx].Data = got[name]
				} else {
					ar.Files = append(ar.Files, txtar.File{Name: name, Data: got[name]})
				}
			}
			if changed {
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := Z3Path(); err != nil {
				return
			}
			for name, data := range got {
				p := filepath.Join(dir, filepath.Base(name))
				os.WriteFile(p, data, 0o644)
				out, err := RunZ3(context.Background(), p)
				if err != nil || strings.Contains(out, "error") {
					t.Errorf("z3 %s: %v\n%s", name, err, out)
				}
			}
		})
	}
}

// parseInvariant reads one box per line: `x <= 3, y >= -1`, or `true`.
func parseInvariant(m *symbolic.Model, text string) ([][]Lit, error) {
	var inv [][]Lit
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		box := []Lit{}
		if line != "true" {
			for _, f := range strings.Split(line, ",") {
				parts := strings.Fields(f)
				if len(parts) != 3 || (parts[1] != "<=" && parts[1] != ">=") {
					return nil, fmt.Errorf("invariant: bad literal %q", f)
				}
				v := m.VarIndex(parts[0])
				k, err := strconv.Atoi(parts[2])
				if v < 0 || err != nil {
					return nil, fmt.Errorf("invariant: bad literal %q", f)
				}
				box = append(box, Lit{Var: v, Upper: parts[1] == "<=", K: k})
			}
		}
		inv = append(inv, box)
	}
	return inv, nil
}
