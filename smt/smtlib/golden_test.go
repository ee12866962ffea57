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

	"vigil/internal/golden"
	"vigil/lang"
	"vigil/symbolic"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of the golden txtar files")

// TestGolden runs testdata/golden/*.txtar (internal/golden, the harness
// lang's golden tests use too). Each archive holds in.spec (and the files
// it names), optionally `invariant` (one box per line, literals like
// `x <= 3` separated by commas, `true` for the empty box; no lines: the
// empty invariant), and the expected want/system.smt2, want/chc.smt2 and
// want/cert.smt2 for the spec's first property and first policy. Run
// `go test ./smt/smtlib -run Golden -update` to rewrite them. Where z3 is
// installed, each file must also go through it without an error.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/golden/*.txtar", *update, func(t *testing.T, c *golden.Case) map[string][]byte {
		wd, _ := os.Getwd()
		if err := os.Chdir(c.Dir); err != nil {
			t.Fatal(err)
		}
		m, diags := lang.Load("in.spec", lang.Options{})
		os.Chdir(wd)
		if diags.HasErrors() {
			t.Fatalf("in.spec:\n%s", diags.Render())
		}
		var inv [][]Lit
		if text, ok := c.File("invariant"); ok && len(text) > 0 {
			var err error
			if inv, err = parseInvariant(m, string(text)); err != nil {
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
		if _, err := Z3Path(); err == nil {
			for name, data := range got {
				p := filepath.Join(c.Dir, filepath.Base(name))
				os.WriteFile(p, data, 0o644)
				out, err := RunZ3(context.Background(), p)
				if err != nil || strings.Contains(out, "error") {
					t.Errorf("z3 %s: %v\n%s", name, err, out)
				}
			}
		}
		return got
	})
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
