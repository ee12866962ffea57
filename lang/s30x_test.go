package lang

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Messages that quote an index as written (E0802 of a nested index,
// E0401) leave its comments out: a /* */ comment was quoted whole (and
// cut by a // inside it), and E0802's cut of a long quote at 57 bytes
// split a character of a comment's non-ASCII text, leaving invalid
// UTF-8 in the message.
func TestS30xQuoteDropsComments(t *testing.T) {
	nest := "x"
	for k := 0; k < 11; k++ {
		nest = "a[" + nest + "]"
	}
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"E0802 block comment", "model m\nvar a : [0 .. 3] of 0 .. 3 = 0\nvar x : 0 .. 3 = 0\naction s -> x' = a[ /* é" + strings.Repeat("é", 40) + " */ " + nest + "]\nproperty p { unsafe x == 3 }\n",
			[]string{"error[E0802]: the index of a[ a[a[a[a[a[a[a[a[a[a[a[x]]]]]]]]]]]] lowers"}},
		{"E0401 block comment", "model m\nvar a : [0 .. 3] of 0 .. 3 = 0\nvar x : 0 .. 3 = 0\naction s -> a[1 /* é // x */ + 0]' = 1, a[1]' = 2\nproperty p { unsafe x == 3 }\n",
			[]string{"by a[1] here and by a[1 + 0] at 4:13"}},
		{"E0401 line comment", "model m\nvar a : [0 .. 3] of 0 .. 3 = 0\nvar x : 0 .. 3 = 0\naction t -> a[2 + /* ü\n   still */ // ü /*\n   0]' = 1, a[2]' = 2\nproperty p { unsafe x == 3 }\n",
			[]string{"by a[2] here and by a[2 + 0] at 4:13"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, diags := LoadSource("m.spec", []byte(c.src), Options{})
			if m != nil {
				t.Fatal("the model loaded")
			}
			for _, d := range diags {
				if !utf8.ValidString(d.Msg) || strings.Contains(d.Msg, "/*") || strings.Contains(d.Msg, "//") {
					t.Errorf("message %q: want valid UTF-8 and no comment", d.Msg)
				}
			}
			got := diags.Render()
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("want %q in:\n%s", w, got)
				}
			}
		})
	}
}
