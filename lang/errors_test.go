package lang

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestErrors runs the chunked error files testdata/errors/*.spec. Chunks are
// separated by lines of `---`; each is checked on its own. A line ending in
// `### "regexp"` must get an error whose message matches; an error on a
// line without a marker fails the test, as does a marker without an error.
// (Markers are comments to the lexer: `// ### "..."`.)
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/errors/*.spec")
	if len(files) == 0 {
		t.Fatal("no error files")
	}
	marker := regexp.MustCompile(`//\s*###\s*"((?:[^"\\]|\\.)*)"`)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		chunks := strings.Split(string(data), "\n---\n")
		line0 := 1
		for ci, chunk := range chunks {
			// Pad with newlines so positions match the whole file.
			src := strings.Repeat("\n", line0-1) + chunk + "\n"
			name := filepath.Base(file)
			_, diags := LoadSource(name, []byte(src), Options{})
			want := map[int]*regexp.Regexp{}
			for i, l := range strings.Split(src, "\n") {
				if m := marker.FindStringSubmatch(l); m != nil {
					want[i+1] = regexp.MustCompile(m[1])
				}
			}
			seen := map[int]bool{}
			for _, d := range diags {
				if d.Severity != Error {
					continue
				}
				re, ok := want[d.Pos.Line]
				if !ok {
					t.Errorf("%s chunk %d: unexpected error %s", name, ci+1, d)
					continue
				}
				if !re.MatchString(d.Msg) {
					t.Errorf("%s:%d: error %q does not match %q", name, d.Pos.Line, d.Msg, re)
				}
				seen[d.Pos.Line] = true
			}
			for l, re := range want {
				if !seen[l] {
					t.Errorf("%s:%d: want an error matching %q, got none", name, l, re)
				}
			}
			line0 += strings.Count(chunk, "\n") + 2
		}
	}
}
