package lsp

// Navigation while the text does not parse. Hover, definition, references
// and symbols then use the latest analysis whose text parsed (the old
// text), but the client's positions, in requests and in answers, are
// positions of the current text. The two texts share a prefix and a
// suffix, and differ between them (the edits since); a view maps the
// positions that lie in the shared parts and refuses those that do not,
// so that no answer points at a place the current text has moved or
// changed (a rename at "M" that renamed "N", one line up in the old
// text, was how this was found).

import (
	"vigil/lang"
	"vigil/symbolic"
)

// view converts the positions of an analysis's text to the client's.
type view struct {
	t *text // the analysis's text
	// cur is the client's text when it differs from t (nil: it is t);
	// pre and suf are the lengths in bytes of their common prefix and
	// suffix (pre+suf is at most the shorter's length).
	cur      *text
	pre, suf int
}

// nav returns the analysis navigation uses (the current one, or while
// the text does not parse the latest that did) and the view of its
// positions.
func (d *document) nav() (*lang.Analysis, view) {
	if d.an != nil && d.an.File != nil || d.good == nil {
		return d.an, view{t: d.text}
	}
	if d.goodText.src == d.text.src {
		return d.good, view{t: d.text}
	}
	return d.good, newView(d.goodText, d.text)
}

func newView(old, cur *text) view {
	a, b := old.src, cur.src
	n := min(len(a), len(b))
	pre := 0
	for pre < n && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < n-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	return view{t: old, cur: cur, pre: pre, suf: suf}
}

// mapOff maps a byte offset of the old text to the current one; start
// says it begins a range (at a pure insertion, a range starting there
// starts after the inserted text, one ending there ends before it).
func (v view) mapOff(o int, start bool) (int, bool) {
	tail := len(v.t.src) - v.suf
	delta := len(v.cur.src) - len(v.t.src)
	switch {
	case start && o >= tail:
		return o + delta, true
	case o <= v.pre:
		return o, true
	case o >= tail:
		return o + delta, true
	}
	return 0, false
}

// rangeOf is the client's range of a span of the analysis's text, false
// when an edit since moved or changed either end.
func (v view) rangeOf(from, to symbolic.Pos) (Range, bool) {
	if v.cur == nil {
		return Range{v.t.toLSP(from), v.t.toLSP(to)}, true
	}
	a, ok1 := v.mapOff(v.t.byteOffset(from), true)
	b, ok2 := v.mapOff(v.t.byteOffset(to), false)
	if !ok1 || !ok2 || b < a {
		return Range{}, false
	}
	return Range{v.cur.position(a), v.cur.position(b)}, true
}

// nameRange is rangeOf for a name: false also when the name, unchanged
// itself, is no longer a whole name in the client's text. The edit may
// have stopped right after it or begun right before it ("AB" typed on to
// "ABX", "A" joined to "-x"): the shared text then holds the old name,
// but the client's name at that place is another one, and an answer
// about the old one would be about the wrong name. So the name and the
// two characters on each side of it (what decides where a name ends:
// letters, digits, _, and a hyphen followed by one of them) must lie in
// one shared part, the prefix or the suffix.
func (v view) nameRange(from, to symbolic.Pos) (Range, bool) {
	if v.cur == nil {
		return v.rangeOf(from, to)
	}
	if v.side(from, to) == 0 {
		return Range{}, false
	}
	return v.rangeOf(from, to)
}

// side is where a name of the analysis's text lies, with the two
// characters on each side of it: 1 in the shared prefix, 2 in the shared
// suffix, 0 neither (see nameRange; everything is in the prefix when the
// texts are the same).
func (v view) side(from, to symbolic.Pos) int {
	if v.cur == nil {
		return 1
	}
	a, b := v.t.byteOffset(from), v.t.byteOffset(to)
	switch {
	case b+2 <= v.pre:
		return 1
	case a-2 >= len(v.t.src)-v.suf:
		return 2
	}
	return 0
}

// fromLSP converts a client's position to a line and rune column of the
// analysis's text, false when the position lies in what was edited since.
func (v view) fromLSP(p Position) (line, col int, ok bool) {
	if v.cur == nil {
		line, col = v.t.fromLSP(p)
		return line, col, true
	}
	c := v.cur.offset(p)
	o := 0
	switch {
	case c <= v.pre:
		o = c
	case c >= len(v.cur.src)-v.suf:
		o = c - (len(v.cur.src) - len(v.t.src))
	default:
		return 0, 0, false
	}
	line, col = v.t.lineCol(o)
	return line, col, true
}
