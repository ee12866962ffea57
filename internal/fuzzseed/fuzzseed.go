// Package fuzzseed derives fuzz seeds that reach the inputs a reader must
// refuse gracefully and that mutation alone rarely builds: files cut short,
// numbers far too large, and nesting far deeper than any limit.
package fuzzseed

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// Depth is how deep Deep nests: beyond every reader's limit (1000 to 2000)
// yet small enough for a fuzz corpus.
const Depth = 5000

var number = regexp.MustCompile(`[0-9]+`)

// Variants returns data cut at a quarter, a half and three quarters, and
// data with every number replaced by one too large for any count or index.
func Variants(data []byte) [][]byte {
	var out [][]byte
	for _, k := range []int{1, 2, 3} {
		out = append(out, data[:len(data)*k/4])
	}
	out = append(out, number.ReplaceAll(data, []byte("99999999999999999999")))
	return out
}

// Deep returns open, repeated Depth times, then inner, then close repeated
// Depth times: "((((x))))" for a parenthesised language, "[[[1]]]" for JSON.
func Deep(open, inner, close string) []byte {
	var b bytes.Buffer
	for i := 0; i < Depth; i++ {
		b.WriteString(open)
	}
	b.WriteString(inner)
	for i := 0; i < Depth; i++ {
		b.WriteString(close)
	}
	return b.Bytes()
}

// AddFiles adds to f, as seeds, every file matching one of the glob
// patterns, and its Variants. A file that matches but cannot be read fails
// f.
func AddFiles(f *testing.F, patterns ...string) {
	for _, pat := range patterns {
		paths, err := filepath.Glob(pat)
		if err != nil {
			f.Fatalf("fuzzseed: pattern %s: %v", pat, err)
		}
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
			for _, v := range Variants(data) {
				f.Add(v)
			}
		}
	}
}
