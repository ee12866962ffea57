package cert

import (
	"fmt"
	"strings"
)

// A minimal S-expression reader for SMT-LIB2 text: atoms (simple and
// |quoted| symbols, numerals, keywords), "strings", lists and ; comments.

type sexp interface{ isSexp() }

type atom struct {
	s    string // quoted symbols without their bars
	line int
}

type list struct {
	items []sexp
	line  int
}

func (atom) isSexp() {}
func (list) isSexp() {}

func atomIs(e sexp, s string) bool {
	a, ok := e.(atom)
	return ok && a.s == s
}

func lineOf(e sexp) int {
	switch x := e.(type) {
	case atom:
		return x.line
	case list:
		return x.line
	}
	return 0
}

// maxDepth bounds nesting, so that a malicious file cannot exhaust the
// stack.
const maxDepth = 1000

type parser struct {
	src  string
	pos  int
	line int
	name string
}

func (p *parser) errorf(format string, args ...any) error {
	return errorf("%s:%d: %s", p.name, p.line, fmt.Sprintf(format, args...))
}

// skip moves past white space and comments.
func (p *parser) skip() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == '\n':
			p.line++
			p.pos++
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
		case c == ';':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// next returns the next top-level expression, or nil at the end.
func (p *parser) next() (sexp, error) {
	p.skip()
	if p.pos >= len(p.src) {
		return nil, nil
	}
	return p.expr(0)
}

func (p *parser) expr(depth int) (sexp, error) {
	if depth > maxDepth {
		return nil, p.errorf("expressions nested deeper than %d", maxDepth)
	}
	p.skip()
	if p.pos >= len(p.src) {
		return nil, p.errorf("unexpected end of file")
	}
	line := p.line
	switch c := p.src[p.pos]; c {
	case '(':
		p.pos++
		l := list{line: line}
		for {
			p.skip()
			if p.pos >= len(p.src) {
				return nil, p.errorf("unclosed ( from line %d", line)
			}
			if p.src[p.pos] == ')' {
				p.pos++
				return l, nil
			}
			e, err := p.expr(depth + 1)
			if err != nil {
				return nil, err
			}
			l.items = append(l.items, e)
		}
	case ')':
		return nil, p.errorf("unexpected )")
	case '|':
		end := strings.IndexByte(p.src[p.pos+1:], '|')
		if end < 0 {
			return nil, p.errorf("unclosed |quoted symbol|")
		}
		s := p.src[p.pos+1 : p.pos+1+end]
		p.line += strings.Count(s, "\n")
		p.pos += end + 2
		return atom{s: s, line: line}, nil
	case '"':
		i := p.pos + 1
		for {
			j := strings.IndexByte(p.src[i:], '"')
			if j < 0 {
				return nil, p.errorf("unclosed string")
			}
			i += j + 1
			if i < len(p.src) && p.src[i] == '"' { // "" escapes a quote
				i++
				continue
			}
			break
		}
		s := p.src[p.pos:i]
		p.line += strings.Count(s, "\n")
		p.pos = i
		return atom{s: s, line: line}, nil
	}
	start := p.pos
	for p.pos < len(p.src) && !strings.ContainsRune(" \t\r\n();|\"", rune(p.src[p.pos])) {
		p.pos++
	}
	return atom{s: p.src[start:p.pos], line: line}, nil
}
