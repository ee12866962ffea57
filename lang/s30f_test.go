package lang

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"vigil/symbolic"
)

// nestedIndex is a[a[...a[x]...]], depth reads deep.
func nestedIndex(depth int) string {
	e := "x"
	for k := 0; k < depth; k++ {
		e = "a[" + e + "]"
	}
	return e
}

// TestS30fNestedIndexLimit: a read or write at an index nested twelve
// arrays deep (arrays of 4 elements) ran the load out of memory (each
// case split copies its index once per element: 4 million nodes per
// read, 1.6 GB and growing). It is error E0802 at the access now, the
// check stopped there, while shallower nests, and a wide but shallow
// a[b[i]], load.
func TestS30fNestedIndexLimit(t *testing.T) {
	const head = "model m\nvar a : [0 .. 3] of 0 .. 3 = 0\nvar x : 0 .. 3 = 0\n"
	for _, c := range []struct {
		name, action, at string
	}{
		{"read", "action s -> x' = " + nestedIndex(12) + "\n", "m.spec:4:18"},
		{"write", "action s -> " + nestedIndex(13) + "' = 1\n", "m.spec:4:15"},
		{"guard", "action s when " + nestedIndex(12) + " > 0 -> x' = 0\n", "m.spec:4:15"},
		{"property", "action s -> x' = 0\nproperty q { unsafe x < 4 && " + nestedIndex(12) + " == 1 }\n", "m.spec:5:30"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := head + c.action + "property p { unsafe x == 3 }\n"
			m, diags := LoadSource("m.spec", []byte(src), Options{})
			if m != nil {
				t.Fatal("the model loaded")
			}
			got := diags.Render()
			if !strings.Contains(got, c.at+": error[E0802]: the index of a[a[a[") || !strings.Contains(got, "lowers to a case split of") || !strings.Contains(got, "store an inner index in a variable") {
				t.Errorf("want E0802 at %s, got:\n%s", c.at, got)
			}
			if n := strings.Count(got, "error["); n != 1 {
				t.Errorf("%d errors, want 1:\n%s", n, got)
			}
		})
	}
	for _, src := range []string{
		head + "action s -> x' = " + nestedIndex(8) + ", " + nestedIndex(7) + "' = 1\nproperty p { unsafe x == 3 }\n",
		fmt.Sprintf("model m\nvar a : [0 .. %d] of 0 .. 3 = 0\nvar b : [0 .. %[1]d] of 0 .. %[1]d = 0\nvar i : 0 .. %[1]d = 0\naction s -> i' = min(a[b[i]], %[1]d), a[b[i]]' = 1\nproperty p { unsafe i == 3 }\n", 499),
	} {
		if m, diags := LoadSource("m.spec", []byte(src), Options{}); m == nil {
			t.Errorf("did not load:\n%s", diags.Render())
		}
	}
}

// TestS30fFmtFixedPoint: the layout of a command whose one outcome does
// not fit on its line (the outcome on a line of its own, continued
// under its first assignment; golden s30f_fmt_one_outcome) on the
// shipped specs, those of specs/ and lang/testdata/rewrite and the ones
// outside them that were not in fmt form: fmt is a fixed point, keeps every comment, and the
// lowered model (as symbolic.Print writes it) and the diagnostics' codes
// are those of the file as written.
func TestS30fFmtFixedPoint(t *testing.T) {
	files, _ := filepath.Glob("../specs/*.spec")
	old, _ := filepath.Glob("testdata/rewrite/*.spec")
	files = append(files, old...)
	files = append(files, "testdata/golden/s30f_fmt_one_outcome.txtar")
	for _, f := range []string{
		"bench/ic3scaling/tank.spec", "bench/polic3/beluga.spec", "bench/polic3/blocks.spec",
		"bench/polic3/npuzzle.spec", "bench/polic3/transport.spec", "bench/polic3/testdata/beluga_gen.spec",
		"bench/polic3/testdata/blocks_gen.spec", "bench/polic3/testdata/npuzzle_gen.spec",
		"cmd/vigil/testdata/stop/huge.spec", "fuzz/testdata/line.spec", "safety/cert/testdata/walk.spec",
		"safety/testdata/snake.spec",
	} {
		files = append(files, "../"+f)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".txtar") {
			ar := txtar.Parse(src)
			for _, af := range ar.Files {
				if af.Name == "in.spec" {
					src = af.Data
				}
			}
		}
		out, diags := Format(f, src)
		if out == nil {
			t.Errorf("%s: %s", f, diags.Render())
			continue
		}
		again, _ := Format(f, out)
		if !bytes.Equal(again, out) {
			t.Errorf("%s: fmt is no fixed point:\n%s", f, out)
		}
		for _, c := range []string{"//", "/*"} {
			if strings.Count(string(out), c) != strings.Count(string(src), c) {
				t.Errorf("%s: %d %s comments formatted, %d written", f, strings.Count(string(out), c), c, strings.Count(string(src), c))
			}
		}
		if strings.HasSuffix(f, ".txtar") {
			continue // no files beside it
		}
		print := func(src []byte) string {
			m, diags := LoadSource(f, src, Options{})
			var b bytes.Buffer
			b.WriteString(diagCodes(diags) + "\n") // their places move with the lines
			if m != nil {
				symbolic.Print(&b, m)
			}
			return b.String()
		}
		if x, y := print(src), print(out); x != y {
			t.Errorf("%s: formatting changed the lowered model or the diagnostics:\n%s\n----\n%s", f, x, y)
		}
	}
}
