package syntax

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReview16cFmtCommentsKeepMeaning: comments of every kind (line
// comments, block comments on one line and over several, one whose text
// looks like code and ends in "//*/") inserted before random tokens of the
// repository's specs never change what fmt's output means: the formatted
// file parses, prints without its comments as the original does without
// its comments, and so does it formatted again. Before session 16's review, a
// block comment spanning lines that followed "// a /* b */" on one
// output line had its later lines read as code (an action added).
func TestReview16cFmtCommentsKeepMeaning(t *testing.T) {
	files, _ := filepath.Glob("../../specs/*.spec")
	if len(files) == 0 {
		t.Fatal("no specs found")
	}
	more, _ := filepath.Glob("../../bench/*/*.spec")
	files = append(files, more...)
	comments := []string{"// a\n", "/* b */", "/* c\naction evil -> skip //*/", "/*\n d\n*/", "// e /* f */\n", "// g\n/* h */ /* i\naction evil -> skip //*/"}
	rng := rand.New(rand.NewSource(16))
	tried := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, diags := Parse(path, src)
		if diags.HasErrors() {
			continue
		}
		want := stripped(f)
		var starts []int // each line's byte offset
		off := 0
		for _, l := range strings.SplitAfter(string(src), "\n") {
			starts = append(starts, off)
			off += len(l)
		}
		iters := 60
		if testing.Short() {
			iters = 10
		}
		for it := 0; it < iters; it++ {
			// Insert 1 to 6 comments before random tokens (from the end, so
			// that offsets stay valid).
			var at []int
			for k := rng.Intn(6); k >= 0; k-- {
				p := f.tokPos[rng.Intn(len(f.tokPos))]
				at = append(at, byteOffset(string(src), starts, int(p.Line), int(p.Col)))
			}
			mod := string(src)
			for _, o := range sortDesc(at) {
				mod = mod[:o] + comments[rng.Intn(len(comments))] + " " + mod[o:]
			}
			g, diags := Parse(path, []byte(mod))
			if diags.HasErrors() {
				continue // e.g. a line comment before a token on the same line ends it: not this test's concern
			}
			if stripped(g) != want {
				continue // the insertion changed the source's own meaning
			}
			tried++
			out, diags := Format(path, []byte(mod))
			if diags.HasErrors() {
				t.Fatalf("%s: fmt fails on\n%s", path, mod)
			}
			h, diags := Parse(path, out)
			if diags.HasErrors() {
				t.Fatalf("%s: fmt's output does not parse (%v); input\n%s\noutput\n%s", path, diags, mod, out)
			}
			if got := stripped(h); got != want {
				t.Fatalf("%s: fmt changed the meaning; input\n%s\noutput\n%s", path, mod, out)
			}
			// Formatting again changes nothing (before session 17, comments
			// after a trailing line comment, after a block comment spanning
			// lines, or between "|" and its outcome moved the second time).
			again, _ := Format(path, out)
			if string(again) != string(out) {
				t.Fatalf("%s: fmt is not idempotent; input\n%s\nonce\n%s\ntwice\n%s", path, mod, out, again)
			}
		}
	}
	if tried < 50 {
		t.Fatalf("only %d commented variants compared", tried)
	}
	t.Logf("%d commented variants compared", tried)
}

// stripped prints f without its comments (and without blank lines, which
// follow the source's layout).
func stripped(f *File) string {
	g := *f
	g.Comments = nil
	var b strings.Builder
	for _, l := range strings.Split(string(FormatFile(&g)), "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

func sortDesc(xs []int) []int {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] > xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	return xs
}
