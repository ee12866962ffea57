package lsp

// Positions. vigil counts lines from 1 and columns from 1 in Unicode code
// points (a tab is one column); LSP counts both from 0 and columns in
// UTF-16 code units (the default position encoding, the one every client
// supports). A code point above U+FFFF is one vigil column and two LSP
// characters. vigil's lines end at \n (a \r before it belongs to no
// column), as the .spec lexer sees them; LSP's end at \n, \r\n and a lone
// \r, which the lexer reads as a space: in a text with a lone \r the two
// numberings differ, and positions convert through byte offsets. So do
// they on the first line of a text that starts with a byte-order mark,
// which the lexer skips (no column) and LSP counts as a character.

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

// text is a document's content with its lines in both numberings.
type text struct {
	src string
	lsp *lineTable // LSP's lines
	vig *lineTable // vigil's lines: lsp itself when src has no lone \r
}

func newText(src string) *text {
	t := &text{src: src, lsp: newLines(src, true)}
	t.vig = t.lsp
	for i := 0; i < len(src); i++ {
		if src[i] == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			t.vig = newLines(src, false)
			break
		}
	}
	if strings.HasPrefix(src, bom) {
		// vigil skips a byte-order mark at the start and gives it no
		// column; for LSP it is a character (clients rarely send it)
		if t.vig == t.lsp {
			t.vig = newLines(src, true)
		}
		t.vig.starts[0] = len(bom)
	}
	return t
}

const bom = "\ufeff"

// lineTable is the lines of a text in one numbering.
type lineTable struct {
	src    string
	starts []int // byte offset of each line's start
	ends   []int // and of its end, before its line break
	// marks are, per long line, checkpoints every markEvery runes, built
	// when a position on the line is first converted: without them each
	// conversion scans the line from its start, and a request about a
	// file of one long line (a generated one, or a hostile one) takes
	// quadratic time: documentSymbol on a 670 KB line took three minutes.
	marks map[int][]mark
}

// newLines splits src at \n (a \r before it belongs to no line), and
// with loneCR at a \r not followed by \n too.
func newLines(src string, loneCR bool) *lineTable {
	lt := &lineTable{src: src}
	start := 0
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '\n':
			end := i
			if end > start && src[end-1] == '\r' {
				end--
			}
			lt.starts, lt.ends = append(lt.starts, start), append(lt.ends, end)
			start = i + 1
		case loneCR && src[i] == '\r' && (i+1 == len(src) || src[i+1] != '\n'):
			lt.starts, lt.ends = append(lt.starts, start), append(lt.ends, i)
			start = i + 1
		}
	}
	// The last line: a \r ending it is a lone one, a line break for LSP
	// (above) and a space for vigil.
	lt.starts, lt.ends = append(lt.starts, start), append(lt.ends, len(src))
	return lt
}

func (lt *lineTable) count() int { return len(lt.starts) }

// line returns line i (0-based) without its line break, "" past the end.
func (lt *lineTable) line(i int) string {
	if i < 0 || i >= len(lt.starts) {
		return ""
	}
	return lt.src[lt.starts[i]:lt.ends[i]]
}

// mark is the state of a scan of a line at the start of a rune: its byte
// offset in the line, its rune index, and its UTF-16 index.
type mark struct{ off, col, ch int }

const markEvery = 128

// marksOf returns the checkpoints of line i: the first is the line's
// start, one every markEvery runes after it.
func (lt *lineTable) marksOf(i int) []mark {
	if ms, ok := lt.marks[i]; ok {
		return ms
	}
	l := lt.line(i)
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
	if lt.marks == nil {
		lt.marks = map[int][]mark{}
	}
	lt.marks[i] = ms
	return ms
}

// seek returns the last checkpoint of line i for which before holds (the
// line's start when none does; before must hold for a prefix of them).
func (lt *lineTable) seek(i int, before func(mark) bool) mark {
	ms := lt.marksOf(i)
	k := sort.Search(len(ms), func(k int) bool { return !before(ms[k]) })
	if k == 0 {
		return ms[0]
	}
	return ms[k-1]
}

// colOffset is the byte offset of rune column col (1-based) of line i,
// the line's end for a column past it, and excess the columns past it.
func (lt *lineTable) colOffset(i, col int) (off, excess int) {
	m := lt.seek(i, func(m mark) bool { return m.col < col })
	off, end := lt.starts[i]+m.off, lt.ends[i]
	c := m.col + 1
	for ; c < col && off < end; c++ {
		_, n := utf8.DecodeRuneInString(lt.src[off:end])
		off += n
	}
	if c < col {
		excess = col - c
	}
	return off, excess
}

// chOffset is the byte offset of UTF-16 character ch of line i: inside
// a surrogate pair, after it; past the line's end, its end (never inside
// its line break).
func (lt *lineTable) chOffset(i, ch int) int {
	m := lt.seek(i, func(m mark) bool { return m.ch <= ch })
	off, end := lt.starts[i]+m.off, lt.ends[i]
	c := m.ch
	for off < end && c < ch {
		r, n := utf8.DecodeRuneInString(lt.src[off:end])
		c += utf16Len(r)
		off += n
	}
	return off
}

// at is the line (0-based) holding byte offset off, and its checkpoint at
// or before it.
func (lt *lineTable) at(off int) (int, mark) {
	i := max(sort.Search(len(lt.starts), func(i int) bool { return lt.starts[i] > off })-1, 0) // an offset in a skipped byte-order mark: line 0
	return i, lt.seek(i, func(m mark) bool { return lt.starts[i]+m.off <= off })
}

// toLSP converts a vigil position (line, rune column, both 1-based) to an
// LSP position. Columns past the line's end count one character each.
func (t *text) toLSP(p symbolic.Pos) Position {
	if p.Line < 1 {
		return Position{}
	}
	if p.Line > t.vig.count() {
		return Position{Line: p.Line - 1 + t.lsp.count() - t.vig.count(), Character: max(p.Col-1, 0)}
	}
	off, excess := t.vig.colOffset(p.Line-1, p.Col)
	pos := t.position(off)
	pos.Character += excess
	return pos
}

// fromLSP converts an LSP position to a vigil line and rune column. A
// character inside a surrogate pair, or past the line's end, moves to the
// next column boundary (the end of the line at most).
func (t *text) fromLSP(p Position) (line, col int) {
	if p.Line < 0 {
		return p.Line + 1, 1
	}
	if p.Line >= t.lsp.count() {
		return t.vig.count() + 1 + p.Line - t.lsp.count(), 1
	}
	return t.lineCol(t.lsp.chOffset(p.Line, p.Character))
}

// offset converts an LSP position to a byte offset in src, clamped to the
// document (for incremental changes).
func (t *text) offset(p Position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= t.lsp.count() {
		return len(t.src)
	}
	return t.lsp.chOffset(p.Line, p.Character)
}

// position is the LSP position of a byte offset; an offset inside a line
// break (between the \r and the \n of a \r\n) is its line's end. Such
// an offset comes from another text, mapped through what the two share
// (nav.go): after a lone \r, which vigil reads as a space and so a column,
// where the client's text has a \r\n; converted as it was, it gave the
// character one past the line's end (the \r counted), no position of the
// client's text.
func (t *text) position(off int) Position {
	i, m := t.lsp.at(off)
	off = min(off, t.lsp.ends[i])
	ch := m.ch
	for _, r := range t.src[t.lsp.starts[i]+m.off : max(off, t.lsp.starts[i]+m.off)] {
		ch += utf16Len(r)
	}
	return Position{Line: i, Character: ch}
}

// lineCol is the vigil line and rune column (1-based) of a byte offset.
func (t *text) lineCol(off int) (line, col int) {
	i, m := t.vig.at(off)
	start := t.vig.starts[i] + m.off
	return i + 1, m.col + utf8.RuneCountInString(t.src[start:max(off, start)]) + 1
}

// byteOffset is the byte offset of a vigil position (1-based line and
// rune column; past the line's end: its end).
func (t *text) byteOffset(p symbolic.Pos) int {
	if p.Line < 1 {
		return 0
	}
	if p.Line > t.vig.count() {
		return len(t.src)
	}
	off, _ := t.vig.colOffset(p.Line-1, p.Col)
	return off
}

// end is the position just after the last character.
func (t *text) end() Position {
	return t.position(len(t.src))
}

// wordEnd returns the rune column just after the word (identifier
// characters, or else one character) starting at line, col (1-based).
func (t *text) wordEnd(line, col int) int {
	if line < 1 || line > t.vig.count() || col < 1 {
		return col
	}
	off, excess := t.vig.colOffset(line-1, col)
	rest := t.src[off:t.vig.ends[line-1]]
	if rest == "" || excess > 0 {
		return col // at or past the line's end: an empty range
	}
	r, _ := utf8.DecodeRuneInString(rest)
	if !isIdentRune(r) {
		return col + 1
	}
	end := col
	for rest != "" {
		r, n := utf8.DecodeRuneInString(rest)
		next, _ := utf8.DecodeRuneInString(rest[n:])
		if !isIdentRune(r) && !(r == '-' && len(rest) > n && isIdentRune(next)) {
			break
		}
		rest = rest[n:]
		end++
	}
	return end
}

func utf16Len(r rune) int {
	if n := utf16.RuneLen(r); n > 0 {
		return n
	}
	return 1 // an invalid rune: U+FFFD, one unit
}

func isIdentRune(r rune) bool {
	return r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
}
