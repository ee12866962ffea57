package lang

import (
	"fmt"
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

// Indices of a few nodes count against MaxIndexCopyNodes too: each read
// at a variable index copies its index once per element, and only
// indices of more than 64 nodes (nested reads) were counted, so that one
// read of a 58-node index over 100,000 elements took 1.2 GB and four
// 4 GB. Here reads of a 62-node index (as rewritten) over 2,000
// elements pass the limit at the 34th; 20 load; a write's index stays
// with the write limit (MaxArrayWriteNodes): 10 such writes load (some
// 140,000 nodes each, under its 2^21; 40 loaded under session 30's 2^26).
func TestS30xSmallIndexCopies(t *testing.T) {
	idx := "(i" + strings.Repeat(" + i", 29) + ") / 30"
	model := func(reads int, write bool) string {
		var b strings.Builder
		b.WriteString("model m\nvar a : [0 .. 1999] of 0 .. 3 = 0\nvar i : 0 .. 1999 = 0\nvar x : 0 .. 3 = 0\n")
		for k := 0; k < reads; k++ {
			if write {
				fmt.Fprintf(&b, "action s%d -> a[%s]' = 1\n", k, idx)
			} else {
				fmt.Fprintf(&b, "action s%d -> x' = a[%s]\n", k, idx)
			}
		}
		b.WriteString("property p { unsafe x == 3 }\n")
		return b.String()
	}
	if m, diags := LoadSource("m.spec", []byte(model(35, false)), Options{}); m != nil {
		t.Fatal("35 reads loaded")
	} else if got := diags.Render(); !strings.Contains(got, "m.spec:38:20: error[E0802]: the index of a[(i + i") || !strings.Contains(got, "has 62 expression nodes") || strings.Count(got, "error[") != 1 {
		t.Errorf("want one E0802 at the 34th read (38:20), got:\n%s", got)
	}
	for _, src := range []string{model(20, false), model(10, true)} {
		if m, diags := LoadSource("m.spec", []byte(src), Options{}); m == nil {
			t.Errorf("did not load:\n%s", diags.Render())
		}
	}
}
