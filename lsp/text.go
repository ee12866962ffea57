package lsp

// Positions. vigil counts lines from 1 and columns from 1 in Unicode code
// points (a tab is one column); LSP counts both from 0 and columns in
// UTF-16 code units (the default position encoding, the one every client
// supports). A code point above U+FFFF is one vigil column and two LSP
// characters. Lines end at \n (a \r before it belongs to no column), as
// the .spec lexer sees them.

import (
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"vigil/symbolic"
)

// Position is an LSP position: 0-based line and UTF-16 character.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is an LSP range, End exclusive.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// text is a document's content with its line starts.
type text struct {
	src   string
	lines []int // byte offset of each line's start
	// marks are, per long line, checkpoints every markEvery runes, built
	// when a position on the line is first converted: without them each
	// conversion scans the line from its start, and a request about a
	// file of one long line (a generated one, or a hostile one) takes
	// quadratic time: documentSymbol on a 670 KB line took three minutes.
	marks map[int][]mark
}

// mark is the state of a scan of a line at the start of a rune: its byte
// offset in the line, its rune index, and its UTF-16 index.
type mark struct{ off, col, ch int }

const markEvery = 128

// marksOf returns the checkpoints of line i: the first is the line's
// start, one every markEvery runes after it.
func (t *text) marksOf(i int) []mark {
	if ms, ok := t.marks[i]; ok {
		return ms
	}
	l := t.line(i)
	ms := []mark{{}}
	if len(l) > markEvery {
		col, ch := 0, 0
		for j, r := range l {
			if col > 0 && col%markEvery == 0 {
				ms = append(ms, mark{j, col, ch})
			}
			col++
			ch += utf16Len(r)
		}
	}
	if t.marks == nil {
		t.marks = map[int][]mark{}
	}
	t.marks[i] = ms
	return ms
}

// seek returns the last checkpoint of line i for which before holds (the
// line's start when none does; before must hold for a prefix of them).
func (t *text) seek(i int, before func(mark) bool) mark {
	ms := t.marksOf(i)
	k := sort.Search(len(ms), func(k int) bool { return !before(ms[k]) })
	if k == 0 {
		return ms[0]
	}
	return ms[k-1]
}

func newText(src string) *text {
	t := &text{src: src, lines: []int{0}}
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	return t
}

// line returns line i (0-based) without its line ending, "" past the end.
func (t *text) line(i int) string {
	if i < 0 || i >= len(t.lines) {
		return ""
	}
	end := len(t.src)
	if i+1 < len(t.lines) {
		end = t.lines[i+1] - 1
	}
	return strings.TrimSuffix(t.src[t.lines[i]:end], "\r")
}

// toLSP converts a vigil position (line, rune column, both 1-based) to an
// LSP position. Columns past the line's end count one character each.
func (t *text) toLSP(p symbolic.Pos) Position {
	if p.Line < 1 {
		return Position{}
	}
	m := t.seek(p.Line-1, func(m mark) bool { return m.col < p.Col })
	line := t.line(p.Line - 1)[m.off:]
	ch, col := m.ch, m.col+1
	for _, r := range line {
		if col >= p.Col {
			break
		}
		ch += utf16Len(r)
		col++
	}
	if col < p.Col {
		ch += p.Col - col
	}
	return Position{Line: p.Line - 1, Character: ch}
}

// fromLSP converts an LSP position to a vigil line and rune column. A
// character inside a surrogate pair, or past the line's end, moves to the
// next column boundary (the end of the line at most).
func (t *text) fromLSP(p Position) (line, col int) {
	if p.Line < 0 || p.Line >= len(t.lines) {
		return p.Line + 1, 1
	}
	m := t.seek(p.Line, func(m mark) bool { return m.ch <= p.Character })
	ch := m.ch
	col = m.col + 1
	for _, r := range t.line(p.Line)[m.off:] {
		if ch >= p.Character {
			break
		}
		ch += utf16Len(r)
		col++
	}
	return p.Line + 1, col
}

// offset converts an LSP position to a byte offset in src, clamped to the
// document (for incremental changes).
func (t *text) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(t.lines) {
		return len(t.src)
	}
	start := t.lines[p.Line]
	end := start + len(t.line(p.Line)) // before the \r\n or \n: a character past the line's end must not split them
	m := t.seek(p.Line, func(m mark) bool { return m.ch <= p.Character })
	ch := m.ch
	i := start + m.off
	for i < end && ch < p.Character {
		r, n := utf8.DecodeRuneInString(t.src[i:end])
		ch += utf16Len(r)
		i += n
	}
	return i
}

// end is the position just after the last character.
func (t *text) end() Position {
	last := len(t.lines) - 1
	n := 0
	for _, r := range t.src[t.lines[last]:] {
		n += utf16Len(r)
	}
	return Position{Line: last, Character: n}
}

func utf16Len(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1 // an invalid rune: U+FFFD, one unit
}

// wordEnd returns the rune column just after the word (identifier
// characters, or else one character) starting at line, col (1-based).
func (t *text) wordEnd(line, col int) int {
	if line < 1 || line > len(t.lines) || col < 1 {
		return col
	}
	m := t.seek(line-1, func(m mark) bool { return m.col < col })
	rest := t.line(line - 1)[m.off:]
	for c := m.col + 1; c < col && rest != ""; c++ { // to the word's start
		_, n := utf8.DecodeRuneInString(rest)
		rest = rest[n:]
	}
	if rest == "" {
		return col // at or past the line's end: an empty range
	}
	r, n := utf8.DecodeRuneInString(rest)
	if !isIdentRune(r) {
		return col + 1
	}
	end := col
	for rest != "" {
		r, n = utf8.DecodeRuneInString(rest)
		next, _ := utf8.DecodeRuneInString(rest[n:])
		if !isIdentRune(r) && !(r == '-' && len(rest) > n && isIdentRune(next)) {
			break
		}
		rest = rest[n:]
		end++
	}
	return end
}

func isIdentRune(r rune) bool {
	return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}
