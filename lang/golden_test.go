package lang

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"

	"vigil/internal/golden"
	"vigil/symbolic"
)

var update = flag.Bool("update", false, "rewrite the want/ sections of golden txtar files")

// TestGolden runs testdata/golden/*.txtar (internal/golden). Each archive
// holds `in.spec` (and any files it imports or names), optionally
// `defines` (NAME=VALUE words, the -D values), and the expected `want/ir`
// (the lowered model printed by symbolic.Print, or absent when it must
// not lower), `want/errors` (rendered diagnostics) and `want/fmt` (the
// formatter's output). Run `go test ./lang -run Golden -update` to
// rewrite.
func TestGolden(t *testing.T) {
	golden.Run(t, "testdata/golden/*.txtar", *update, func(t *testing.T, c *golden.Case) map[string][]byte {
		var defs map[string]string
		if data, ok := c.File("defines"); ok {
			defs = map[string]string{}
			for _, l := range strings.Fields(string(data)) {
				k, v, _ := strings.Cut(l, "=")
				defs[k] = v
			}
		}
		wd, _ := os.Getwd()
		os.Chdir(c.Dir)
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
		return got
	})
}
