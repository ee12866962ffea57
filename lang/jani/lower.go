package jani

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// lowerer holds what every lowering step shares: the file, its JSON text
// (for line numbers), and the errors and notes collected so far.
type lowerer struct {
	file     string
	data     []byte
	lines    *lineIndex // built on first use
	errs     ErrorList
	notes    []Note
	noteSeen map[string]bool
	// rejected holds the names of variables whose declaration was
	// refused with an error: a use of one is not reported again as an
	// undeclared identifier, so the root cause is the error a user sees.
	rejected map[string]bool
	// declared names the model's variables, global and local, with
	// what each is ("a global variable"): the message for one read
	// where it is not in scope (declaredVars)
	declared map[string]string
	// bounds bounds an integer expression over the variables' ranges
	// (the model's, once declared): array indices must stay in range
	bounds func(*symbolic.Expr) (lo, hi int)
	// rejectedFn holds the names of functions whose declaration was
	// refused with an error (a call is not reported again); callDepth
	// counts the calls being expanded (functions.go).
	rejectedFn map[string]bool
	callDepth  int
	// bodyErrSeen holds the errors raised in function bodies (path and
	// message), each reported once
	bodyErrSeen map[string]int // the index in errs of its first report
	// posOf caches pos: a composed model names the same few JSON nodes
	// in millions of outcomes and assignments (eajs.4: 460 MB of
	// equal position strings)
	posOf map[*node]symbolic.Pos
}

func newLowerer(file string, data []byte) *lowerer {
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		data = data[3:]
	}
	return &lowerer{file: file, data: data, noteSeen: map[string]bool{}, rejected: map[string]bool{}, rejectedFn: map[string]bool{}, posOf: map[*node]symbolic.Pos{}}
}

// lineIndex maps byte offsets of a file to lines and columns: the line
// starts, and the number of runes before every runeStep-th byte, so that a
// column costs at most runeStep bytes of counting even on a file of one
// line (JSON written without line breaks: a command of 65,536 outcomes
// took 4 s counting columns from the start of the line each time).
type lineIndex struct {
	lineStart []int // byte offsets of line starts
	runes     []int // runes[k]: rune starts in data[:k*runeStep]
}

const runeStep = 1024

func newLineIndex(data []byte) *lineIndex {
	x := &lineIndex{lineStart: []int{0}, runes: make([]int, 0, len(data)/runeStep+1)}
	n := 0
	for i, c := range data {
		if i%runeStep == 0 {
			x.runes = append(x.runes, n)
		}
		if c == '\n' {
			x.lineStart = append(x.lineStart, i+1)
		}
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return x
}

// runesBefore is the number of rune starts in data[:off].
func (x *lineIndex) runesBefore(data []byte, off int) int {
	k := off / runeStep
	if k >= len(x.runes) {
		k = len(x.runes) - 1
	}
	if k < 0 {
		return 0
	}
	n := x.runes[k]
	for _, c := range data[k*runeStep : off] {
		if c&0xC0 != 0x80 {
			n++
		}
	}
	return n
}

// lineCol maps a byte offset to a 1-based line and column (in runes).
func (l *lowerer) lineCol(off int) (int, int) {
	if l.lines == nil {
		l.lines = newLineIndex(l.data)
	}
	x := l.lines
	off = max(0, min(off, len(l.data)))
	line := sort.Search(len(x.lineStart), func(i int) bool { return x.lineStart[i] > off }) - 1
	if line < 0 {
		line = 0
	}
	col := 1 + x.runesBefore(l.data, off) - x.runesBefore(l.data, x.lineStart[line])
	return line + 1, col
}

// pos is the IR position of a JSON value: FILE#PATH:LINE:COL.
func (l *lowerer) pos(n *node) symbolic.Pos {
	if n == nil {
		return symbolic.Pos{File: l.file}
	}
	if p, ok := l.posOf[n]; ok {
		return p
	}
	line, col := l.lineCol(n.off)
	f := l.file
	if p := n.path(); p != "" {
		f += "#" + p
	}
	p := symbolic.Pos{File: f, Line: line, Col: col}
	if l.posOf != nil {
		l.posOf[n] = p
	}
	return p
}

func (l *lowerer) errorf(n *node, format string, args ...any) {
	if len(l.errs) >= maxErrors {
		return
	}
	e := &Error{File: l.file, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Path = n.path()
		e.Line, e.Col = l.lineCol(n.off)
	}
	l.errs = append(l.errs, e)
	if len(l.errs) == maxErrors {
		l.errs = append(l.errs, &Error{File: l.file, Msg: "too many errors"})
	}
}

// unsupported records an "unsupported feature" error naming the feature.
// Each distinct message is reported once, at its first occurrence.
func (l *lowerer) unsupported(n *node, format string, args ...any) {
	msg := errUnsupported + ": " + fmt.Sprintf(format, args...)
	if l.noteSeen["error:"+msg] {
		return
	}
	l.noteSeen["error:"+msg] = true
	l.errorf(n, "%s", msg)
}

// note records an informational message once per distinct text.
func (l *lowerer) note(n *node, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if l.noteSeen[msg] {
		return
	}
	l.noteSeen[msg] = true
	l.notes = append(l.notes, Note{Pos: l.pos(n), Msg: msg})
}

// Typed accessors for JSON members; each records an error and returns
// ok == false when the member is missing or has the wrong type.

func (l *lowerer) str(n *node, key string) (string, *node, bool) {
	c := n.get(key)
	if c == nil {
		l.errorf(n, "missing %q", key)
		return "", nil, false
	}
	if c.kind != kString {
		l.errorf(c, "%q must be a string, got %s", key, c.describe())
		return "", c, false
	}
	return c.str, c, true
}

// arr returns the elements of the array member key; a missing member is an
// empty array unless required.
func (l *lowerer) arr(n *node, key string, required bool) ([]*node, bool) {
	c := n.get(key)
	if c == nil {
		if required {
			l.errorf(n, "missing %q", key)
			return nil, false
		}
		return nil, true
	}
	if c.kind != kArray {
		l.errorf(c, "%q must be an array, got %s", key, c.describe())
		return nil, false
	}
	return c.vals, true
}

func (l *lowerer) obj(n *node, what string) bool {
	if n.kind != kObject {
		l.errorf(n, "%s must be an object, got %s", what, n.describe())
		return false
	}
	return true
}

// members refuses a member of object n that JANI does not define for it
// (what names the object, allowed lists its members besides "comment"). A
// member the import does not read would otherwise be ignored without a
// word, and a misspelt one changes the model: an edge with "guards"
// instead of "guard" is always enabled, a destination with "assignment"
// assigns nothing, a variable with "initial_value" starts anywhere in its
// range. Members starting with "x-" (tool extensions) are ignored with a
// note.
func (l *lowerer) members(n *node, what string, allowed ...string) {
	l.membersBy(n, what, "JANI", allowed...)
}

// membersBy is members for an object that definer (JANI, or PlaJA for its
// own objects) defines.
func (l *lowerer) membersBy(n *node, what, definer string, allowed ...string) {
	if n == nil || n.kind != kObject {
		return
	}
	for i, k := range n.keys {
		if k == "comment" || slices.Contains(allowed, k) {
			continue
		}
		if strings.HasPrefix(k, "x-") {
			l.note(n.vals[i], "member %q of %s ignored (a tool extension)", k, what)
			continue
		}
		l.errorf(n.vals[i], "unknown member %q of %s (%s defines %s): vigil refuses a member it does not read rather than ignore it; check its spelling or remove it", k, what, definer, quoteList(allowed))
	}
}

func quoteList(names []string) string {
	q := make([]string, len(names)+1)
	for i, s := range names {
		q[i] = strconv.Quote(s)
	}
	q[len(names)] = `"comment"`
	return strings.Join(q, ", ")
}
