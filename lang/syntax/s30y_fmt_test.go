package syntax

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"vigil/symbolic"
)

// s30yAnchors lists a file's comments in order among its declarations
// and its commands' outcomes after the first (a | outcome's anchor is the
// start of the line of its |, or the | itself on the command's first
// line): a comment that fmt moves to another declaration or outcome
// changes the list.
func s30yAnchors(f *File) string {
	type item struct {
		p    symbolic.Pos
		text string
	}
	var items []item
	for i, d := range f.Decls {
		s, _ := d.DeclPos()
		items = append(items, item{s, fmt.Sprintf("decl %d", i)})
		if a, ok := d.(*ActionDecl); ok {
			for k, o := range a.Outcomes {
				if k > 0 {
					sep := o.Start
					if i := sort.Search(len(f.tokPos), func(i int) bool {
						t := f.tokPos[i]
						return int(t.Line) > o.Start.Line || int(t.Line) == o.Start.Line && int(t.Col) >= o.Start.Col
					}); i > 0 {
						sep = symbolic.Pos{Line: int(f.tokPos[i-1].Line), Col: int(f.tokPos[i-1].Col)}
					}
					at := symbolic.Pos{Line: sep.Line}
					if at.Line == s.Line {
						at = sep
					}
					items = append(items, item{at, fmt.Sprintf("outcome %d.%d", i, k)})
				}
			}
		}
	}
	for _, c := range f.Comments {
		items = append(items, item{c.Pos, "comment " + strings.ReplaceAll(c.Text, "\r", "")})
	}
	sort.SliceStable(items, func(i, j int) bool {
		a, b := items[i].p, items[j].p
		return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
	})
	var b strings.Builder
	for _, it := range items {
		b.WriteString(it.text + "\n")
	}
	return b.String()
}

// s30yCheck formats src and fails if the output is not a fixed point,
// does not parse, means something else, or has its comments elsewhere
// among the declarations and outcomes; it returns the output.
func s30yCheck(t *testing.T, name, src string) string {
	t.Helper()
	f, diags := Parse(name, []byte(src))
	if diags.HasErrors() {
		t.Fatalf("%s: the input does not parse: %v", name, diags)
	}
	out, diags := Format(name, []byte(src))
	if out == nil {
		t.Fatalf("%s: fmt fails: %v", name, diags)
	}
	g, diags := Parse(name, out)
	if diags.HasErrors() {
		t.Fatalf("%s: the output does not parse (%v):\n%s", name, diags, out)
	}
	if stripped(g) != stripped(f) {
		t.Errorf("%s: fmt changed the meaning:\n%s", name, out)
	}
	if a, b := s30yAnchors(f), s30yAnchors(g); a != b {
		t.Errorf("%s: comments moved among the declarations and outcomes; input\n%s\noutput\n%s\nanchors of the input\n%sof the output\n%s", name, src, out, a, b)
	}
	if again, _ := Format(name, out); string(again) != string(out) {
		t.Errorf("%s: fmt is no fixed point; once\n%s\ntwice\n%s", name, out, again)
	}
	return string(out)
}

// TestS30yFmtTrailingLineComments: a line comment that fmt can no
// longer leave at the end of its source line (the line is joined with
// the next, or a line comment is followed by another one on the same
// formatted line) stays with what it follows: the later line comments go
// on lines of their own under the first, which fmt reads back as
// trailing that line. Before session 30 the second comment became a
// comment line above the next declaration ("// tail" above property p).
func TestS30yFmtTrailingLineComments(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"one outcome", `model m
var x : 0 .. 3 = 0
action e -> // lead
  x' = 0 // tail
property p { unsafe x == 3 }
`, `model m
var x : 0 .. 3 = 0
action e -> x' = 0  // lead
                    // tail
property p {
    unsafe x == 3
}
`},
		{"| outcome", `model m
var x : 0 .. 3 = 0
action e -> x' = 0 | // c
  x' = 1 // t
property p { unsafe x == 3 }
`, `model m
var x : 0 .. 3 = 0
action e
    -> x' = 0
     | x' = 1  // c
               // t
property p {
    unsafe x == 3
}
`},
		{"inside an outcome", `model m
var x : 0 .. 3 = 0
action e -> x' = 0
  | x' = 1 + // a
    2 // b
  | x' = 2
property p { unsafe x == 3 } // last
// after
`, `model m
var x : 0 .. 3 = 0
action e
    -> x' = 0
     | x' = 1 + 2  // a
                   // b
     | x' = 2
property p {
    unsafe x == 3  // last
}
// after
`},
		{"last declaration", `model m
var x : 0 .. 3 = 0
property p { unsafe // a
  x == 3 // b
}
`, `model m
var x : 0 .. 3 = 0
property p {
    unsafe x == 3  // a
                   // b
}
`},
		{"aligned by hand", `model m
var x : 0 .. 3 = 0  // a
                    // b
var y : 0 .. 3 = 0  // c
   // d
property p { unsafe x == 3 }
`, `model m
var x : 0 .. 3 = 0  // a
                    // b
var y : 0 .. 3 = 0  // c
// d
property p {
    unsafe x == 3
}
`},
		{"block comments after", `model m
var x : 0 .. 3 = 0
action e -> // a
  x' = 0 /* b */ /* c
  d */ // e
property p { unsafe x == 3 }
`, ""},
	} {
		got := s30yCheck(t, c.name, c.in)
		if c.want != "" && got != c.want {
			t.Errorf("%s: got\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
}

// TestS30yFmtBlankInComment: a blank line inside a block comment that
// trails a declaration is no blank line between that declaration and the
// next. Before session 30 the second run of fmt inserted one before
// property p (no fixed point).
func TestS30yFmtBlankInComment(t *testing.T) {
	for _, in := range []string{`model m
var x : 0 .. 3 = 0
action /* c */
s -> x' = 1 + /* e

f */ 2
property p { unsafe x == 3 }
`, `model m
var x : 0 .. 3 = 0 /* a

b */
var y : 0 .. 3 = 0
/* c

d */
var z : 0 .. 3 = 0 // e

// f
property p { unsafe x == 3 } /* g

h */
`} {
		out := s30yCheck(t, "blank", in)
		if strings.Contains(in, "action") && strings.Contains(out, "\n\nproperty") {
			t.Errorf("a blank line before property p:\n%s", out)
		}
	}
}
