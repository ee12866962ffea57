package lang

import (
	"strings"
	"unicode"
)

// quote is e as the user wrote it: the source text from e.Pos to e.End,
// its white space (and line breaks, and // comments) folded to single
// spaces; exprString(e) where the source is not at hand (an expression
// made by -D, or an import's rewritten text). Messages about what the
// user wrote quote it so, rather than the rewritten form the checker
// sees (an array read's case split, a quantifier's expansion, an enum
// value's number).
func (c *checker) quote(e *Expr) string {
	if t, ok := c.sourceText(e); ok {
		return t
	}
	return exprString(e)
}

func (c *checker) sourceText(e *Expr) (string, bool) {
	if e == nil {
		return "", false
	}
	p, q := e.Pos, e.End
	if p.Line < 1 || q.Line < p.Line || q.Line == p.Line && q.Col <= p.Col {
		return "", false
	}
	var src []byte
	for _, f := range c.files {
		if f.Path == p.File {
			src = f.Src
			break
		}
	}
	if src == nil {
		return "", false
	}
	lines := strings.Split(string(src), "\n")
	if q.Line > len(lines) || q.Line-p.Line > 50 {
		return "", false
	}
	var parts []string
	for l := p.Line; l <= q.Line; l++ {
		r := []rune(strings.TrimSuffix(lines[l-1], "\r"))
		from, to := 0, len(r)
		if l == p.Line {
			from = p.Col - 1
		}
		if l == q.Line {
			to = q.Col - 1
		}
		if from < 0 || to > len(r) || from > to {
			return "", false
		}
		t := string(r[from:to])
		if l < q.Line {
			if i := strings.Index(t, "//"); i >= 0 {
				t = t[:i]
			}
		}
		parts = append(parts, t)
	}
	t := strings.Join(strings.FieldsFunc(strings.Join(parts, " "), unicode.IsSpace), " ")
	if t == "" {
		return "", false
	}
	return t, true
}
