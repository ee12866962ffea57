package lsp

// Positions. vigil counts lines from 1 and columns from 1 in Unicode code
// points (a tab is one column); LSP counts both from 0 and columns in
// UTF-16 code units (the default position encoding, the one every client
// supports). A code point above U+FFFF is one vigil column and two LSP
// characters. Lines end at \n (a \r before it belongs to no column), as
// the .spec lexer sees them.

import (
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
	line := t.line(p.Line - 1)
	ch, col := 0, 1
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
	l := t.line(p.Line)
	ch := 0
	col = 1
	for _, r := range l {
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
	end := len(t.src)
	if p.Line+1 < len(t.lines) {
		end = t.lines[p.Line+1] - 1 // before the \n
	}
	ch := 0
	i := start
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
	r := []rune(t.line(line - 1))
	i := col - 1
	if i < 0 || i >= len(r) {
		return col // at or past the line's end: an empty range
	}
	if !isIdentRune(r[i]) {
		return col + 1
	}
	for i < len(r) && (isIdentRune(r[i]) || r[i] == '-' && i+1 < len(r) && isIdentRune(r[i+1])) {
		i++
	}
	return i + 1
}

func isIdentRune(r rune) bool {
	return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}
