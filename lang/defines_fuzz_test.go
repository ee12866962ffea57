package lang

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

var constName = regexp.MustCompile(`(?m)^\s*const\s+([A-Za-z_][A-Za-z0-9_]*)`)

// FuzzDefines gives a model's constant an arbitrary -D NAME=VALUE: the
// front end never panics, every diagnostic it gives has a message, and a
// model that loads prints to text that loads again. Seeds: each shipped
// spec's constants set to values at and beyond the limits; crashers stay
// in testdata/fuzz/FuzzDefines.
func FuzzDefines(f *testing.F) {
	values := []string{"0", "-1", "1000000", "99999999999999999999", "9223372036854775807", "-9223372036854775808", "[1, -2, 3]", "[]", "x", " 3 "}
	for _, file := range specFiles(f) {
		src, _ := os.ReadFile(file)
		if len(src) > 20_000 {
			continue
		}
		for i, m := range constName.FindAllSubmatch(src, -1) {
			f.Add(src, string(m[1]), values[i%len(values)])
		}
	}
	f.Add([]byte("const A = [1, 2]\nvar a : [0 .. 1] of 0 .. 3\nvar i : 0 .. 1\naction s -> i' = 1 - i, a[i]' = A[i]\n"), "A", "[3, 2, 1]")
	f.Fuzz(func(t *testing.T, src []byte, name, value string) {
		m, diags := LoadSource("fuzz.spec", src, Options{Defines: map[string]string{name: value}})
		for _, d := range diags {
			if strings.TrimSpace(d.Msg) == "" {
				t.Fatalf("a diagnostic without a message: %+v", d)
			}
		}
		if m == nil {
			return
		}
		text := printModel(m)
		if m2, diags := LoadSource("fuzz.spec", text, Options{}); m2 == nil {
			t.Fatalf("-D %s=%s: the printed model does not load: %s\n%s", name, value, diags.Render(), text)
		}
	})
}
