package syntax

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

// review17bSources are the specs of the repository: its .spec files and
// the .spec files of its testscripts (bench/adversarial, cmd/vigil's),
// which between them use every construct of lang/spec.md.
func review17bSources(t *testing.T) map[string]string {
	t.Helper()
	srcs := map[string]string{}
	for _, g := range []string{"../../specs/*.spec", "../../bench/*/*.spec", "../../bench/*/*/*.spec", "../testdata/*/*.spec"} {
		files, _ := filepath.Glob(g)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			srcs[f] = string(b)
		}
	}
	for _, g := range []string{"../../bench/adversarial/*.txtar", "../../cmd/vigil/testdata/*.txtar", "../../cmd/vigil/testdata/*/*.txtar"} {
		files, _ := filepath.Glob(g)
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name, cur := "", []string(nil)
			flush := func() {
				if strings.HasSuffix(name, ".spec") {
					srcs[f+":"+name] = strings.Join(cur, "")
				}
			}
			for _, l := range strings.SplitAfter(string(b), "\n") {
				if strings.HasPrefix(l, "-- ") && strings.HasSuffix(strings.TrimRight(l, "\r\n"), " --") {
					flush()
					name, cur = strings.TrimSuffix(strings.TrimPrefix(strings.TrimRight(l, "\r\n"), "-- "), " --"), nil
					continue
				}
				cur = append(cur, l)
			}
			flush()
		}
	}
	// Specs with text beyond ASCII in their comments and strings (a
	// column counts characters, not bytes: session 30's review found
	// this test putting its comments into comments and strings there).
	for i, src := range s30yNonASCII {
		srcs[fmt.Sprintf("non-ASCII %d", i)] = src
	}
	return srcs
}

// byteOffset returns the byte offset in src of the (1-based) line and
// character column col, where starts holds each line's byte offset.
func byteOffset(src string, starts []int, line, col int) int {
	o := starts[line-1]
	for k := 1; k < col && o < len(src); k++ {
		_, n := utf8.DecodeRuneInString(src[o:])
		o += n
	}
	return o
}

// TestReview17bFmtCommentPlacements: comments of every kind inserted
// right after random tokens (before the blank that follows them, so at
// the end of lines too) or before them, and at the end of the file (with
// and without a final newline), in CRLF files too: fmt's output parses,
// means what the input means, keeps every comment, is a fixed point of
// fmt and has LF line ends only (a block comment of a CRLF file kept its
// CRs before session 17's review).
func TestReview17bFmtCommentPlacements(t *testing.T) {
	srcs := review17bSources(t)
	if len(srcs) < 100 {
		t.Fatalf("only %d specs found", len(srcs))
	}
	comments := []string{"// a\n", "//\n", "/* b */", "/**/", "/* c\naction evil -> skip //*/", "/*\n d\n*/", "// e /* f */\n", "// g\n/* h */ /* i\naction evil -> skip //*/", "/* j */ // k\n", "/* l\n*/ // m\n"}
	// in a fixed order with a fixed seed: the same draws on every run
	paths := make([]string, 0, len(srcs))
	for p := range srcs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	rng := rand.New(rand.NewSource(17))
	tried, crlf, nonASCII := 0, 0, 0
	for _, path := range paths {
		src := srcs[path]
		f, diags := Parse(path, []byte(src))
		if diags.HasErrors() || len(f.tokPos) == 0 {
			continue
		}
		want := stripped(f)
		var starts []int // each line's byte offset
		off := 0
		for _, l := range strings.SplitAfter(src, "\n") {
			starts = append(starts, off)
			off += len(l)
		}
		iters := 12
		if testing.Short() {
			iters = 3
		}
		for it := 0; it < iters; it++ {
			var at []int
			for k := rng.Intn(5); k >= 0; k-- {
				p := f.tokPos[rng.Intn(len(f.tokPos))]
				o := byteOffset(src, starts, int(p.Line), int(p.Col))
				if rng.Intn(2) == 0 {
					// right after the previous token
					for o > 0 && (src[o-1] == ' ' || src[o-1] == '\t' || src[o-1] == '\n' || src[o-1] == '\r') {
						o--
					}
				}
				at = append(at, o)
			}
			mod := src
			for _, o := range sortDesc(at) {
				sep := []string{"", " ", "\n"}[rng.Intn(3)]
				mod = mod[:o] + sep + comments[rng.Intn(len(comments))] + sep + mod[o:]
			}
			switch rng.Intn(3) {
			case 0:
				mod = strings.TrimRight(mod, "\n") + " " + comments[rng.Intn(len(comments))]
			case 1:
				mod += comments[rng.Intn(len(comments))]
			}
			for _, cr := range []bool{false, true} {
				in := mod
				if cr {
					in = strings.ReplaceAll(mod, "\n", "\r\n")
				}
				g, diags := Parse(path, []byte(in))
				if diags.HasErrors() || stripped(g) != want {
					continue // the insertion changed the source's own meaning
				}
				tried++
				if cr {
					crlf++
				}
				if !isASCII(in) {
					nonASCII++
				}
				out, diags := Format(path, []byte(in))
				if out == nil {
					t.Fatalf("%s: fmt fails (%v) on\n%s", path, diags, in)
				}
				if cr && strings.Contains(string(out), "\r") {
					t.Fatalf("%s: fmt's output of a CRLF file keeps carriage returns; input\n%q\noutput\n%q", path, in, out)
				}
				h, diags := Parse(path, out)
				if diags.HasErrors() {
					t.Fatalf("%s: fmt's output does not parse (%v); input\n%s\noutput\n%s", path, diags, in, out)
				}
				if got := stripped(h); got != want {
					t.Fatalf("%s: fmt changed the meaning; input\n%q\noutput\n%s", path, in, out)
				}
				if again, _ := Format(path, out); string(again) != string(out) {
					t.Fatalf("%s: fmt is not a fixed point; input\n%q\nonce\n%s\ntwice\n%s", path, in, out, again)
				}
				if a, b := commentTexts(g), commentTexts(h); a != b {
					t.Fatalf("%s: fmt changed the comments:\n%s\nbecame\n%s\ninput\n%q\noutput\n%s", path, a, b, in, out)
				}
			}
		}
	}
	if nonASCII < 20 {
		t.Fatalf("only %d variants with text beyond ASCII", nonASCII)
	}
	t.Logf("%d commented variants of %d specs, %d with CRLF line ends, %d beyond ASCII", tried, len(srcs), crlf, nonASCII)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// commentTexts lists f's comments' texts (without carriage returns), in
// order.
func commentTexts(f *File) string {
	var b strings.Builder
	for _, c := range f.Comments {
		b.WriteString(strings.ReplaceAll(c.Text, "\r", "") + "\n")
	}
	return b.String()
}
