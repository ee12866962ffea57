package lang

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"vigil/lang/syntax"
	"vigil/symbolic"
)

// s30xAnchors is the file's comments in order among its declarations and
// its commands' outcomes after the first (the | ones): a comment that fmt
// moves to another declaration or outcome changes the sequence.
func s30xAnchors(f *syntax.File) string {
	type item struct {
		p    symbolic.Pos
		text string
	}
	var items []item
	for i, d := range f.Decls {
		s, _ := d.DeclPos()
		items = append(items, item{s, fmt.Sprintf("decl %d", i)})
		if a, ok := d.(*syntax.ActionDecl); ok {
			for k, o := range a.Outcomes {
				if k > 0 {
					// a comment on the | line (before the |, too) goes
					// with that outcome
					at := symbolic.Pos{Line: o.Start.Line}
					if at.Line == s.Line {
						at = o.Start
					}
					items = append(items, item{at, fmt.Sprintf("outcome %d.%d", i, k)})
				}
			}
		}
	}
	for _, c := range f.Comments {
		items = append(items, item{c.Pos, "comment " + c.Text})
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

// s30xCheckFmt formats src and reports what fmt broke: no fixed point, a
// comment lost or moved among the declarations, outcomes and
// assignments, or another lowered model or other diagnostics.
func s30xCheckFmt(t *testing.T, name string, src []byte, lower bool) {
	t.Helper()
	out, diags := Format(name, src)
	if out == nil {
		return // does not parse: nothing to format
	}
	if again, _ := Format(name, out); !bytes.Equal(again, out) {
		t.Errorf("%s: fmt is no fixed point:\n%s\n---- again:\n%s", name, out, again)
		return
	}
	f1, _ := syntax.Parse(name, src)
	f2, d2 := syntax.Parse(name, out)
	if f2 == nil || d2.HasErrors() {
		t.Errorf("%s: the formatted file does not parse: %s\n%s", name, d2.Render(), out)
		return
	}
	if a, b := s30xAnchors(f1), s30xAnchors(f2); a != b {
		t.Errorf("%s: comments moved:\n%s\n---- formatted:\n%s\n---- anchors written:\n%s---- formatted:\n%s", name, src, out, a, b)
	}
	_ = diags
	if !lower {
		return
	}
	print := func(src []byte) string {
		m, diags := LoadSource(name, src, Options{})
		var b bytes.Buffer
		b.WriteString(diagCodes(diags) + "\n")
		if m != nil {
			symbolic.Print(&b, m)
		}
		return b.String()
	}
	if x, y := print(src), print(out); x != y {
		t.Errorf("%s: formatting changed the lowered model or the diagnostics", name)
	}
}

func TestS30xFmtAllSpecs(t *testing.T) {
	var files []string
	filepath.Walk("..", func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.IsDir() && (fi.Name() == ".git" || fi.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if err == nil && strings.HasSuffix(p, ".spec") && fi.Mode().IsRegular() && fi.Size() < 1<<20 {
			files = append(files, p)
		}
		return nil
	})
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// lowered beside its imports (a file's directory): the file's own
		// path
		s30xCheckFmt(t, f, src, true)
	}
	t.Logf("%d files", len(files))
}

// A comment at any place between two tokens of the shipped specs (a
// /* */ one in each run of white space, a // one at each line's end)
// stays where it was written among the declarations, outcomes and
// assignments, and fmt stays a fixed point.
func TestS30xFmtCommentsAnywhere(t *testing.T) {
	files, _ := filepath.Glob("../specs/*.spec")
	more, _ := filepath.Glob("../bench/polic3/*.spec")
	files = append(files, more...)
	more, _ = filepath.Glob("testdata/rewrite/*.spec")
	files = append(files, more...)
	fails := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(f, ".txtar") {
			continue
		}
		s := string(src)
		var variants []string
		inLine, inBlock := false, false
		for i := 0; i < len(s); i++ {
			switch {
			case inLine:
				if s[i] == '\n' {
					inLine = false
				}
				continue
			case inBlock:
				if strings.HasPrefix(s[i:], "*/") {
					inBlock = false
					i++
				}
				continue
			case strings.HasPrefix(s[i:], "//"):
				inLine = true
				continue
			case strings.HasPrefix(s[i:], "/*"):
				inBlock = true
				continue
			case s[i] == '"':
				j := strings.IndexByte(s[i+1:], '"')
				if j >= 0 {
					i += j + 1
				}
				continue
			}
			if s[i] == ' ' && (i == 0 || s[i-1] != ' ') {
				variants = append(variants, s[:i]+" /* X */"+s[i:])
			}
			if s[i] == '\n' {
				variants = append(variants, s[:i]+" // X"+s[i:])
			}
			// (a // comment after a | whose outcome has a comment of its
			// own moved that one above the next declaration, in the same
			// order among the anchors: fixed in session 30, its tests are
			// lang/syntax's TestS30yFmt*)
		}
		variants = append(variants, s+"// at the end", s+"/* at the end */")
		for _, v := range variants {
			before := fails
			t.Run("", func(t *testing.T) {
				s30xCheckFmt(t, f, []byte(v), false)
				if t.Failed() {
					fails++
				}
			})
			if fails > before && fails > 5 {
				t.Fatal("more than 5 failures")
			}
		}
	}
}
