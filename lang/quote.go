package lang

import (
	"strings"
	"unicode"
)

// quote is e as the user wrote it: the source text from e.Pos to e.End,
// its white space (and line breaks, and comments, // and /* */) folded to
// single spaces; exprString(e) where the source is not at hand (an expression
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
		parts = append(parts, string(r[from:to]))
	}
	t := strings.Join(strings.FieldsFunc(dropComments(strings.Join(parts, "\n")), unicode.IsSpace), " ")
	if t == "" {
		return "", false
	}
	return t, true
}

// dropComments replaces the comments in src, the source text of an
// expression, by spaces: a // comment runs to the line's end, a /* */
// comment to its */ (over lines; one left open runs to src's end). A
// quote held a[1 /* see below */ + 0] whole, and cut a // inside a /* */
// comment, as the lexer does not.
func dropComments(src string) string {
	if !strings.Contains(src, "/") {
		return src
	}
	var b strings.Builder
	for i := 0; i < len(src); {
		switch {
		case strings.HasPrefix(src[i:], "//"):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			b.WriteByte(' ')
			i += j
		case strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				j = len(src) - i - 2
			} else {
				j += 2
			}
			b.WriteByte(' ')
			i += 2 + j
		default:
			b.WriteByte(src[i])
			i++
		}
	}
	return b.String()
}
