// Package fuzzseed derives fuzz seeds that reach the inputs a reader must
// refuse gracefully and that mutation alone rarely builds: files cut short,
// numbers far too large, and nesting far deeper than any limit.
package fuzzseed

import (
	"bytes"
	"regexp"
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
