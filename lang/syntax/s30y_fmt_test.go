package syntax

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"vigil/symbolic"
)

// s30yAnchors lists a file's comments in order among its declarations
// and its commands' outcomes after the first (a declaration's anchor
// that starts its line stands for the whole line up to it; a | outcome's
// is its |, or the start of its line when the outcome before starts on
// another line: the formatter's rule): a comment that fmt moves to
// another declaration or outcome changes the list.
func s30yAnchors(f *File) string {
	type item struct {
		p    symbolic.Pos
		text string
	}
	var items []item
	// before returns the index in f.tokPos of the token at p (or the
	// first after it).
	before := func(p symbolic.Pos) int {
		return sort.Search(len(f.tokPos), func(i int) bool {
			t := f.tokPos[i]
			return int(t.Line) > p.Line || int(t.Line) == p.Line && int(t.Col) >= p.Col
		})
	}
	// anchor is the start of the line of token i when it is the first on
	// its line (fmt keeps a comment before it there on its formatted
	// line), else the token
	anchor := func(i int) symbolic.Pos {
		p := symbolic.Pos{Line: int(f.tokPos[i].Line), Col: int(f.tokPos[i].Col)}
		if i == 0 || int(f.tokPos[i-1].Line) < p.Line {
			p.Col = 0
		}
		return p
	}
	for i, d := range f.Decls {
		s, _ := d.DeclPos()
		items = append(items, item{anchor(before(s)), fmt.Sprintf("decl %d", i)})
		if a, ok := d.(*ActionDecl); ok {
			for k, o := range a.Outcomes {
				if k > 0 {
					// the | before the outcome, or the start of its line
					// when the outcome before starts on another (the
					// whole line goes with the |: fmt's rule)
					sep, prev := before(o.Start)-1, before(a.Outcomes[k-1].Start)-1
					at := symbolic.Pos{Line: int(f.tokPos[sep].Line), Col: int(f.tokPos[sep].Col)}
					if f.tokPos[prev].Line < f.tokPos[sep].Line {
						at.Col = 0
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

// s30yNonASCII are specs with text beyond ASCII (two-, three- and
// four-byte characters) in their comments and strings, for the comment
// placement tests (review17b), which insert comments at token columns:
// a column counts characters, so a byte offset taken for it lands
// inside a comment or a string.
var s30yNonASCII = []string{`// Größe: ein Zähler — bis « MAX » ≤ 9 🚀
model zaehler
const MAX = 9 // höchstens ½ · 18
var x : 0 .. 10 = 0 /* x ∈ [0, 10] */
var y : 0 .. 3 = 0  // 日本語のコメント
action inc when x < MAX -> x' = x + 1 // ↑
action reset when x >= MAX -> x' = 0, y' = min(y + 1, 3) /* ↺ */
action pick -> 1: x' = 0 // é
    | 2: x' = 1 /* ü */
    | 1: skip // 🎲
policy rules prudent /* « vorsichtig » */ {
    when x < MAX -> inc // weiter →
    otherwise -> reset // zurück ←
}
policy nn netz "politik/größe_π.onnx" { // ünïcödé
    inputs  x / 10, y /* ÿ */ / 3
    outputs inc, reset, pick
}
property p { /* ¬ */ unsafe x > 7 } // ✓
// Ende 🏁
`, `/* 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 */
model u /* ü */
type colour = { red, green } // « rouge », « vert »
var c : colour = red
var n : [0 .. 2] of 0 .. 3 = 0 // ñ
action paint(i in 0 .. 2) when n[i] < 3 -> n[i]' = n[i] + 1 /* ↗ */
action flip -> c' = green // ç
policy trees wald "wälder/baum—1.json" {
    inputs  n[0], n[1], n[2] // ∑
    outputs paint[0], paint[1], paint[2], flip
}
property q {
    start  c == red // ☀
    unsafe n[0] == 3 && c == green /* ☂ */
}
`}

// TestS30yFmtNonASCII: the specs beyond ASCII format to a fixed point
// with their comments where they were, trailing comments aligned by
// characters.
func TestS30yFmtNonASCII(t *testing.T) {
	for i, src := range s30yNonASCII {
		s30yCheck(t, fmt.Sprintf("non-ASCII %d", i), src)
	}
}

// TestS30yFmtCommentsEverywhere: in the specs beyond ASCII and one with
// outcomes written after "|" and line comments inside them, a comment
// before each token (a block comment, and a line comment ending the
// line before it) stays where it was among the declarations and
// outcomes, and fmt stays a fixed point.
func TestS30yFmtCommentsEverywhere(t *testing.T) {
	srcs := append([]string{`model m
var x : 0 .. 3 = 0 // x
action e -> // lead
  x' = 0 // tail
action f when x < 2 -> x' = 1 | // c
  x' = 2 + // d
  1 // t
  | skip
property p { unsafe // u
  x == 3 }
`}, s30yNonASCII...)
	n := 0
	for i, src := range srcs {
		f, diags := Parse("in", []byte(src))
		if diags.HasErrors() {
			t.Fatalf("spec %d does not parse: %v", i, diags)
		}
		var starts []int
		off := 0
		for _, l := range strings.SplitAfter(src, "\n") {
			starts = append(starts, off)
			off += len(l)
		}
		for _, p := range f.tokPos {
			o := byteOffset(src, starts, int(p.Line), int(p.Col))
			for _, v := range []string{
				src[:o] + "/* ü X */ " + src[o:],
				src[:o] + "// ✓ X\n" + src[o:],
				src[:o] + "// ✓ X\n/* é */ // Y\n" + src[o:],
			} {
				g, diags := Parse("in", []byte(v))
				if diags.HasErrors() || stripped(g) != stripped(f) {
					continue
				}
				n++
				s30yCheck(t, fmt.Sprintf("spec %d", i), v)
				if t.Failed() {
					return
				}
			}
		}
	}
	t.Logf("%d variants", n)
}

// TestS30yFmtRandomComments: up to four comments (line comments, some
// aligned under others, block comments with text beyond ASCII) inserted
// before or right after random tokens of the repository's specs stay
// where they were among the declarations and outcomes, and fmt's output
// is a fixed point (before session 30 a line comment after another on
// one formatted line went above the next declaration or outcome, and a
// blank line inside a block comment moved onto the line before made a
// blank line on the second run).
func TestS30yFmtRandomComments(t *testing.T) {
	srcs := review17bSources(t)
	paths := []string{}
	for p := range srcs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	comments := []string{"// a\n", "/* b */", "/* c\n ü */", "// é\n        // f\n", "// g\n/* h */", "/* j */ // k\n", "\n                    // z\n"}
	rng := rand.New(rand.NewSource(30))
	n := 0
	for _, path := range paths {
		src := srcs[path]
		f, diags := Parse(path, []byte(src))
		if diags.HasErrors() || len(f.tokPos) == 0 {
			continue
		}
		var starts []int
		off := 0
		for _, l := range strings.SplitAfter(src, "\n") {
			starts = append(starts, off)
			off += len(l)
		}
		iters := 6
		if testing.Short() {
			iters = 2
		}
		for it := 0; it < iters; it++ {
			var at []int
			for k := rng.Intn(4); k >= 0; k-- {
				p := f.tokPos[rng.Intn(len(f.tokPos))]
				o := byteOffset(src, starts, int(p.Line), int(p.Col))
				if rng.Intn(2) == 0 {
					for o > 0 && (src[o-1] == ' ' || src[o-1] == '\n') {
						o--
					}
				}
				at = append(at, o)
			}
			mod := src
			for _, o := range sortDesc(at) {
				mod = mod[:o] + []string{"", " "}[rng.Intn(2)] + comments[rng.Intn(len(comments))] + " " + mod[o:]
			}
			g, diags := Parse(path, []byte(mod))
			if diags.HasErrors() || stripped(g) != stripped(f) {
				continue
			}
			n++
			out, _ := Format(path, []byte(mod))
			h, _ := Parse(path, out)
			if a, b := s30yAnchors(g), s30yAnchors(h); a != b {
				t.Fatalf("%s: comments moved among the declarations and outcomes; input\n%s\noutput\n%s", path, mod, out)
			}
			if again, _ := Format(path, out); string(again) != string(out) {
				t.Fatalf("%s: fmt is no fixed point; input\n%q\nonce\n%s\ntwice\n%s", path, mod, out, again)
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d variants", n)
	}
	t.Logf("%d variants", n)
}
