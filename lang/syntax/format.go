package syntax

// The formatter prints a parsed File in canonical layout: one declaration
// per line, multi-outcome actions with one outcome per line, policy and
// property bodies indented by four spaces, single spaces around binary
// operators, parentheses as written. Comments are kept: each comment is
// attached to the formatted line whose source lines it falls within (as a
// trailing comment) or precedes (as a leading comment). Runs of blank lines
// between declarations collapse to one. Trailing comments on consecutive
// lines are aligned. A comment after a trailing line comment goes on a
// line of its own below it, at its column, and trails the same line (a
// comment alone on its line at the column of the first trailing comment
// of the line just above, when that ends in a line comment, is read so).
// The layout depends only on the token stream, so
// Format(Parse(Format(x))) == Format(x).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"vigil/symbolic"
)

// Format parses src and returns it canonically formatted.
func Format(path string, src []byte) ([]byte, Diagnostics) {
	f, diags := Parse(path, src)
	if f == nil {
		return nil, diags
	}
	return FormatFile(f), nil
}

// outLine is one formatted line with the source lines it stands for.
type outLine struct {
	text     string
	lo, hi   int // source line range; lo == 0 for synthetic lines ("}")
	trailing []string
	leading  []Comment
	loCol    int
	// hiCol is the column of the next line's start when that starts on
	// this line's last source line (a command and its outcome written
	// on one line): the comments there from hiCol on trail the next
	// line, the one they follow in the source (0: none)
	hiCol    int
	trailCol int  // source column of the first trailing comment (0: none)
	blank    bool // a blank line precedes this line (and its leading comments)
	topLevel bool
}

type formatter struct {
	f         *File
	tokPos    []lineCol
	lines     []*outLine
	tail      []Comment // comments after the last declaration
	tailBlank bool
}

// FormatFile prints f canonically.
func FormatFile(f *File) []byte {
	fm := &formatter{f: f}
	fm.tokens()
	for _, d := range f.Decls {
		fm.decl(d)
	}
	fm.attachComments()
	return fm.render()
}

func (fm *formatter) tokens() { fm.tokPos = fm.f.tokPos }

// lastLineBefore returns the line of the last token that starts before p.
func (fm *formatter) lastLineBefore(p symbolic.Pos) int { return fm.tokenBefore(p).Line }

// tokenBefore returns the position of the token just before p (p itself
// if none).
func (fm *formatter) tokenBefore(p symbolic.Pos) symbolic.Pos {
	i := sort.Search(len(fm.tokPos), func(i int) bool {
		t := fm.tokPos[i]
		return int(t.Line) > p.Line || int(t.Line) == p.Line && int(t.Col) >= p.Col
	})
	if i == 0 {
		return p
	}
	return symbolic.Pos{Line: int(fm.tokPos[i-1].Line), Col: int(fm.tokPos[i-1].Col)}
}

// add appends a formatted line for the source extent [start, next).
func (fm *formatter) add(text string, start symbolic.Pos, top bool) *outLine {
	l := &outLine{text: text, lo: start.Line, hi: start.Line, topLevel: top}
	fm.lines = append(fm.lines, l)
	return l
}

// extend sets the hi line of lines added since index i, each extending to
// the next one's start (the last to end).
func (fm *formatter) extend(from int, end symbolic.Pos) {
	for i := from; i < len(fm.lines); i++ {
		next := end
		for j := i + 1; j < len(fm.lines); j++ {
			if fm.lines[j].lo > 0 {
				next = symbolic.Pos{Line: fm.lines[j].lo, Col: fm.colOf(j)}
				break
			}
		}
		if l := fm.lines[i]; l.lo > 0 {
			// An element never extends onto the line where the next one
			// starts (a separator such as | belongs to the next).
			h := fm.lastLineBefore(next)
			if next.Line > l.lo && h >= next.Line {
				h = next.Line - 1
			}
			l.hi = max(l.lo, h)
			l.hiCol = 0
			if next.Line == l.hi && next.Col > 0 {
				l.hiCol = next.Col
			}
		}
	}
}

func (fm *formatter) colOf(j int) int { return fm.lines[j].loCol }

func (fm *formatter) decl(d Decl) {
	start, _ := d.DeclPos()
	ex := ExprString
	switch d := d.(type) {
	case *ModelDecl:
		fm.addAt("model "+d.Name.Name, start, true)
	case *ImportDecl:
		s := "import " + quote(d.Path)
		if d.As != nil {
			s += " as " + d.As.Name
		}
		fm.addAt(s, start, true)
	case *ConstDecl:
		fm.addAt(fmt.Sprintf("const %s = %s", d.Name.Name, ex(d.Value)), start, true)
	case *VarDecl:
		s := "var " + d.Name.Name + " : "
		if d.IdxLo != nil {
			s += "[" + ex(d.IdxLo) + " .. " + ex(d.IdxHi) + "] of "
		}
		switch {
		case d.Bool:
			s += "bool"
		case d.Type != nil:
			s += d.Type.Name
		default:
			s += ex(d.Lo) + " .. " + ex(d.Hi)
		}
		if d.Init != nil {
			s += " = " + ex(d.Init)
		}
		fm.addAt(s, start, true)
	case *TypeDecl:
		names := make([]string, len(d.Values))
		for i, v := range d.Values {
			names[i] = v.Name
		}
		fm.addAt(fmt.Sprintf("type %s = { %s }", d.Name.Name, strings.Join(names, ", ")), start, true)
	case *PredDecl:
		fm.addAt(fmt.Sprintf("pred %s = %s", d.Name.Name, ex(d.Cond)), start, true)
	case *ActionDecl:
		head := ActionHead(d)
		if d.Guard != nil {
			head += " when " + ex(d.Guard)
		}
		if d.Cost != nil {
			head += " cost " + ex(d.Cost)
		}
		// One outcome stays on the command's line when the line fits;
		// else the outcome goes on a line of its own, as the outcomes
		// of a command with several do. (wrap cut such a line at its
		// last comma that fitted: the guard, -> and the first
		// assignments on one line, the other assignments below, where
		// the specs were written with the outcome below the guard.)
		if one := head + " -> " + outcomeString(d.Outcomes[0]); len(d.Outcomes) == 1 && utf8.RuneCountInString(one) <= MaxWidth {
			fm.addAt(one, start, true)
			break
		}
		fm.addAt(head, start, true)
		for i, o := range d.Outcomes {
			sep := "    -> "
			if i > 0 {
				sep = "     | "
			}
			// The line starts at its separator (-> or |), so that
			// comments between the separator and the outcome trail this
			// line wherever the separator stands.
			fm.addAt(sep+outcomeString(o), fm.tokenBefore(o.Start), false)
		}
	case *PolicyDecl:
		s := "policy " + d.Kind.Name + " " + d.Name.Name
		if d.HasFile {
			s += " " + quote(d.File)
		}
		if d.When != nil {
			s += " when " + ex(d.When)
		}
		fm.addAt(s+" {", start, true)
		for _, it := range d.Items {
			fm.addAt("    "+itemString(it), it.Start, false)
		}
		fm.lines = append(fm.lines, &outLine{text: "}"})
	case *PropertyDecl:
		fm.addAt("property "+d.Name.Name+" {", start, true)
		for _, cl := range d.Clauses {
			fm.addAt(fmt.Sprintf("    %-6s %s", cl.Kind, ex(cl.Cond)), cl.Start, false)
		}
		fm.lines = append(fm.lines, &outLine{text: "}"})
	}
}

func (fm *formatter) addAt(text string, start symbolic.Pos, top bool) {
	l := fm.add(text, start, top)
	l.loCol = start.Col
}

func outcomeString(o *OutcomeNode) string {
	var b strings.Builder
	if o.Weight != "" {
		b.WriteString(o.Weight + ": ")
	}
	if o.Skip {
		b.WriteString("skip")
	}
	for i, a := range o.Assigns {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.Each != nil {
			b.WriteString("forall " + a.Each.Name.Name + " in " + ExprString(a.Each.Lo) + " .. " + ExprString(a.Each.Hi) + ": ")
		}
		b.WriteString(a.Var.Name)
		if a.Index != nil {
			b.WriteString("[" + ExprString(a.Index) + "]")
		}
		b.WriteString("' = " + ExprString(a.Value))
	}
	return b.String()
}

func itemString(it *PolicyItem) string {
	switch it.Kind {
	case ItemInputs:
		parts := make([]string, len(it.Inputs))
		for i, e := range it.Inputs {
			parts[i] = ExprString(e)
		}
		return "inputs  " + strings.Join(parts, ", ")
	case ItemOutputs:
		parts := make([]string, len(it.Outputs))
		for i, o := range it.Outputs {
			parts[i] = o.Name
			if it.OutputIdx != nil && it.OutputIdx[i] != nil {
				parts[i] += indexString(it.OutputIdx[i])
			}
		}
		return "outputs " + strings.Join(parts, ", ")
	case ItemInterface:
		return "interface " + quote(it.Interface)
	case ItemWhen:
		return "when " + ExprString(it.When) + " -> " + it.Label.Name + indexString(it.LabelIdx)
	case ItemArgMax:
		return "argmax " + it.Reading.Name
	case ItemOutput:
		return "output " + quote(it.Output)
	}
	return "otherwise -> " + it.Label.Name + indexString(it.LabelIdx)
}

// indexString writes a label's index list, `[0, N - 1]` or `[*, 2]`; ""
// for none.
func indexString(idx []*Expr) string {
	if idx == nil {
		return ""
	}
	parts := make([]string, len(idx))
	for i, e := range idx {
		if e == nil {
			parts[i] = "*"
		} else {
			parts[i] = ExprString(e)
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// ActionHead writes `action move(b in 0 .. N - 1)`, `action move[0]` or
// `action move`.
func ActionHead(d *ActionDecl) string {
	head := "action " + d.Label.Name + indexString(d.Index)
	if d.Params != nil {
		parts := make([]string, len(d.Params))
		for i, pm := range d.Params {
			parts[i] = pm.Name.Name + " in " + ExprString(pm.Lo) + " .. " + ExprString(pm.Hi)
		}
		head += "(" + strings.Join(parts, ", ") + ")"
	}
	if d.For != nil {
		parts := make([]string, len(d.For))
		for i, pm := range d.For {
			parts[i] = pm.Name.Name + " in " + ExprString(pm.Lo) + " .. " + ExprString(pm.Hi)
		}
		head += " for " + strings.Join(parts, ", ")
	}
	return head
}

// quote writes a string literal the lexer reads back to the same value
// (control characters escaped: a fuzzed "\000" must not become a NUL byte).
func quote(s string) string { return strconv.Quote(s) }

func (fm *formatter) attachComments() {
	// Source extents: each line with a source position extends to just
	// before the next positioned line (or to the end of the token stream).
	eof := symbolic.Pos{Line: 1 << 30}
	fm.extend(0, eof)
	// Blank lines between top-level declarations.
	srcBlank := func(a, b int) bool { // is some source line strictly between a and b blank?
		for l := a + 1; l < b && l-1 < len(fm.f.Lines); l++ {
			if strings.TrimSpace(fm.f.Lines[l-1]) == "" {
				return true
			}
		}
		return false
	}
	ci := 0
	// A block comment of a CRLF file keeps its line ends as LF, like
	// every other output line (it kept its CRs: output of mixed line
	// ends).
	cs := make([]Comment, len(fm.f.Comments))
	for i, c := range fm.f.Comments {
		c.Text = strings.ReplaceAll(c.Text, "\r\n", "\n")
		cs[i] = c
	}
	prevHi := 0
	prevEnd := 0 // prevHi, or the end line of its last trailing comment spanning beyond it
	// aligned reports whether c continues the trailing comments of the
	// line that ends at prevHi: after a trailing line comment, a comment
	// alone on the next line at the column of the first trailing comment
	// is a later trailing comment of that line, as joinTrailing writes it
	// (a line comment followed by another comment on one formatted line:
	// the others go on lines of their own below it).
	aligned := func(c Comment) bool {
		if prevHi == 0 || c.Pos.Line != prevEnd+1 {
			return false
		}
		p := fm.trailingFor(prevHi)
		if p.trailCol == 0 || c.Pos.Col != p.trailCol || !endsInLineComment(p.trailing) || c.Pos.Line-1 >= len(fm.f.Lines) {
			return false
		}
		line := fm.f.Lines[c.Pos.Line-1]
		return strings.TrimLeft(line, " \t") != "" && utf8.RuneCountInString(line[:len(line)-len(strings.TrimLeft(line, " \t"))]) == c.Pos.Col-1
	}
	addTrailing := func(l *outLine, c Comment) {
		if len(l.trailing) == 0 {
			l.trailCol = c.Pos.Col
		}
		l.trailing = append(l.trailing, c.Text)
	}
	for _, l := range fm.lines {
		if l.lo == 0 {
			continue
		}
		// Leading comments: those that end before this line starts.
		for ci < len(cs) && cs[ci].Pos.Line < l.lo {
			switch {
			case len(l.leading) == 0 && aligned(cs[ci]):
				addTrailing(fm.trailingFor(prevHi), cs[ci])
				prevEnd = max(prevEnd, cs[ci].EndLine)
			case cs[ci].Pos.Line > prevEnd || len(l.leading) > 0 || prevHi == 0 || endsInLineComment(fm.trailingFor(prevHi).trailing):
				l.leading = append(l.leading, cs[ci])
			default:
				// Within the previous element's lines: trailing there.
				addTrailing(fm.trailingFor(prevHi), cs[ci])
				prevEnd = max(prevEnd, cs[ci].EndLine)
			}
			ci++
		}
		end := l.hi
		// Comments within this line's extent trail it, line comments
		// too that another comment follows on the formatted line
		// (joinTrailing puts what follows a line comment on lines of
		// its own below it: before session 30 it went above the next
		// line, another declaration or outcome).
		for ci < len(cs) && cs[ci].Pos.Line <= l.hi && !(l.hiCol > 0 && cs[ci].Pos.Line == l.hi && cs[ci].Pos.Col >= l.hiCol) {
			addTrailing(l, cs[ci])
			end = max(end, cs[ci].EndLine)
			ci++
		}
		if l.topLevel && prevHi > 0 {
			firstLine := l.lo
			if len(l.leading) > 0 {
				firstLine = l.leading[0].Pos.Line
			}
			// from the end of the previous line's trailing comments: a
			// blank line within a block comment trailing it is no blank
			// line between the two (the second fmt added one: the
			// comment had moved onto the line before)
			l.blank = srcBlank(prevEnd, firstLine) || srcBlank(lastEnd(l.leading, prevHi), l.lo) && len(l.leading) > 0
		}
		prevHi, prevEnd = l.hi, end
	}
	// After the last line, comments that start within its extent (on the
	// last line of a block comment trailing it) trail it, as they would
	// before a next line; so do those aligned under its trailing line
	// comment.
	for prevHi > 0 && ci < len(cs) && (aligned(cs[ci]) || cs[ci].Pos.Line <= prevEnd && !endsInLineComment(fm.trailingFor(prevHi).trailing)) {
		addTrailing(fm.trailingFor(prevHi), cs[ci])
		prevEnd = max(prevEnd, cs[ci].EndLine)
		ci++
	}
	fm.tail = cs[ci:]
	fm.tailBlank = len(fm.tail) > 0 && prevHi > 0 && srcBlank(prevEnd, fm.tail[0].Pos.Line)
}

// endsInLineComment reports whether trailing comments, as joinTrailing
// writes them, leave a line comment open at their end: whether the last
// is one.
func endsInLineComment(trailing []string) bool {
	return len(trailing) > 0 && strings.HasPrefix(trailing[len(trailing)-1], "//")
}

func lastEnd(cs []Comment, def int) int {
	if len(cs) == 0 {
		return def
	}
	return cs[len(cs)-1].EndLine
}

func (fm *formatter) trailingFor(hi int) *outLine {
	for i := len(fm.lines) - 1; i >= 0; i-- {
		if fm.lines[i].lo > 0 && fm.lines[i].hi == hi {
			return fm.lines[i]
		}
	}
	return fm.lines[0]
}

func (fm *formatter) render() []byte {
	var out []string
	var trail []string
	indentOf := func(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " "))] }
	for _, l := range fm.lines {
		if l.blank && len(out) > 0 {
			out, trail = append(out, ""), append(trail, "")
		}
		ind := ""
		if !l.topLevel {
			ind = indentOf(l.text)
			if strings.HasPrefix(strings.TrimLeft(l.text, " "), "->") || strings.HasPrefix(strings.TrimLeft(l.text, " "), "|") {
				ind = "    "
			}
		}
		for _, c := range l.leading {
			out, trail = append(out, ind+c.Text), append(trail, "")
		}
		out, trail = append(out, l.text), append(trail, joinTrailing(l.trailing))
	}
	if len(fm.tail) > 0 {
		if fm.tailBlank && len(out) > 0 {
			out, trail = append(out, ""), append(trail, "")
		}
		for _, c := range fm.tail {
			out, trail = append(out, c.Text), append(trail, "")
		}
	}
	// Wrap lines longer than MaxWidth; a trailing comment stays on the
	// last piece.
	for i := 0; i < len(out); i++ {
		pieces := wrap(out[i])
		if len(pieces) == 1 {
			continue
		}
		ins := make([]string, len(pieces)-1)
		out = append(out[:i], append(pieces, out[i+1:]...)...)
		trail = append(trail[:i], append(ins, trail[i:]...)...)
		i += len(pieces) - 1
	}
	// Align trailing comments of consecutive lines.
	var b strings.Builder
	for i := 0; i < len(out); {
		if trail[i] == "" {
			b.WriteString(out[i])
			b.WriteByte('\n')
			i++
			continue
		}
		j := i
		width := 0
		for j < len(out) && trail[j] != "" && !rawNewline(trail[j]) {
			width = max(width, utf8.RuneCountInString(out[j]))
			j++
		}
		if j == i {
			j = i + 1
			width = utf8.RuneCountInString(out[i])
		}
		for k := i; k < j; k++ {
			b.WriteString(out[k])
			b.WriteString(strings.Repeat(" ", width-utf8.RuneCountInString(out[k])+2))
			b.WriteString(strings.ReplaceAll(trail[k], contMark, strings.Repeat(" ", width+2)))
			b.WriteByte('\n')
		}
		i = j
	}
	return []byte(b.String())
}

// joinTrailing writes a line's trailing comments one after another,
// joined by a space. A line comment runs to the end of its line, so a
// comment after one starts a line of its own, at the column of the
// first trailing comment (contMark, which render replaces by that many
// spaces), where attachComments reads it back as trailing the same line.
// (Joined by a space, the line comment would swallow the comment after
// it; before session 30 a line comment after one went above the next
// line, another declaration or outcome, and a block comment spanning
// lines started at the first column.)
//
// "// a /* b */ /* c ..." is one line comment up to its line's end.
func joinTrailing(cs []string) string {
	var b strings.Builder
	for i, c := range cs {
		if i > 0 {
			if strings.HasPrefix(cs[i-1], "//") {
				b.WriteString("\n" + contMark)
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(c)
	}
	return b.String()
}

// contMark stands for the indentation of a trailing comment's line of
// its own until render knows the column; a NUL byte, which no source
// holds (Parse refuses it).
const contMark = "\x00"

// rawNewline reports whether trailing comments, as joinTrailing wrote
// them, hold a line break other than one before a comment of its own
// line: one within a block comment.
func rawNewline(t string) bool {
	return strings.Contains(strings.ReplaceAll(t, "\n"+contMark, ""), "\n")
}

// breakRank is the kind of break point before the operator that s (from
// the space before it) starts with, loosest-binding first: | and -> with
// the commas (0), => (1), || (2), && (3), comparisons (4), + and - (5).
func breakRank(s string) (int, bool) {
	for _, k := range []struct {
		op   string
		rank int
	}{
		{" | ", 0}, {" -> ", 0}, {" => ", 1}, {" || ", 2}, {" && ", 3},
		{" == ", 4}, {" != ", 4}, {" <= ", 4}, {" >= ", 4}, {" < ", 4}, {" > ", 4},
		{" + ", 5}, {" - ", 5},
	} {
		if strings.HasPrefix(s, k.op) {
			return k.rank, true
		}
	}
	return 0, false
}

// MaxWidth is the column at which the formatter wraps a line.
const MaxWidth = 100

// Wrap is wrap, for tests outside the package: the lines the formatter
// makes of a line that may be too long.
func Wrap(line string) []string { return wrap(line) }

// wrap splits a formatted line longer than MaxWidth at its outermost break
// points: before && || => | -> + and -, and after commas, outside parentheses as
// far as possible. Continuation lines are indented by eight more spaces
// than the line (an outcome's line, "    -> " or "     | ", by 12, and
// after a comma between its assignments by 7, under its first one). A piece without a break point stays long. The pieces
// depend only on the line, so formatting stays idempotent.
//
// A comment on a line of its own (// or /* */, the only lines that start
// so) is never wrapped: a block comment's text split at its commas got a
// line break and eight spaces more on every run of fmt, as its new lines
// offered other break points (the output was no fixed point).
func wrap(line string) []string {
	if t := strings.TrimSpace(line); utf8.RuneCountInString(line) <= MaxWidth || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "/*") {
		return []string{line}
	}
	indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
	cont := indent + "        "
	// An outcome's line ("    -> " or "     | ") continues at 12
	// columns, and after a comma between its assignments (outside
	// parentheses) under its first assignment, at 7:
	//     -> x' = ..., y' = ...,
	//        z' = ...
	// (the | lines continued at 13 columns, the -> lines at 12)
	assigns := ""
	if t := strings.TrimLeft(line, " "); (strings.HasPrefix(t, "-> ") || strings.HasPrefix(t, "| ")) && (indent == "    " || indent == "     ") {
		cont, assigns = "            ", "       "
	}
	var pieces []string
	rest, prefix := line, ""
	for utf8.RuneCountInString(prefix+rest) > MaxWidth {
		cut, next, depth := breakAt(rest, MaxWidth-utf8.RuneCountInString(prefix))
		if cut < 0 {
			break
		}
		pieces = append(pieces, prefix+rest[:cut])
		prefix = cont
		if assigns != "" && depth == 0 && strings.HasSuffix(rest[:cut], ",") {
			prefix = assigns
		}
		rest = rest[next:]
	}
	return append(pieces, prefix+rest)
}

// minTail is the length of the longest last piece of a line (its last
// operand with its operator, + 1 or , b' = 0) that breakAt keeps with
// the operand before it.
const minTail = 8

// breakAt returns where to end the current piece of s and where the next
// one starts, or -1: among the break points of least parenthesis depth,
// the last of the loosest-binding kind that keeps the piece within width
// (the first of least depth if none does). The kinds, loosest first
// (breakRank): , | -> (which separate assignments, outcomes, a guard
// from its outcomes, and arguments), =>, ||, &&, comparisons, then + and
// -; so a long x + y <= 4 && ok breaks before && rather than between x
// and + y, which binds tighter: both counted as one depth.
func breakAt(s string, width int) (cut, next, depth int) {
	type point struct{ cut, next, depth, rank int }
	var pts []point
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
			continue
		case c == '"':
			inString = true
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && i+1 < len(s) && s[i+1] == ' ':
			pts = append(pts, point{i + 1, i + 2, depth, 0})
		case c == ' ' && i > 0:
			if r, ok := breakRank(s[i:]); ok {
				pts = append(pts, point{i, i + 1, depth, r})
			}
		}
	}
	if len(pts) == 0 {
		return -1, -1, 0
	}
	least := pts[0].depth
	for _, p := range pts {
		least = min(least, p.depth)
	}
	fits := func(p point) bool {
		return utf8.RuneCountInString(s[:p.cut]) <= width && p.cut > 0 && strings.TrimSpace(s[:p.cut]) != ""
	}
	// the loosest kind with a point that fits; the first point of least
	// depth when none does
	best, rank := -1, -1
	for k, p := range pts {
		if p.depth == least && fits(p) && (rank < 0 || p.rank < rank) {
			rank = p.rank
		}
		if best < 0 && p.depth == least {
			best = k
		}
	}
	if rank >= 0 {
		for k, p := range pts {
			if p.depth == least && p.rank == rank && fits(p) {
				best = k
			}
		}
	}
	// A short last operand (the rest of the line after the break, + 1)
	// stays with the one before it: break at the previous point of the
	// same depth and kind, which fits too, rather than leave 1 alone on
	// a line.
	if tail := strings.TrimSpace(s[pts[best].next:]); utf8.RuneCountInString(tail) <= minTail {
		for k := best - 1; k >= 0; k-- {
			if pts[k].depth == least && pts[k].rank == pts[best].rank {
				if pts[k].cut > 0 && strings.TrimSpace(s[:pts[k].cut]) != "" {
					best = k
				}
				break
			}
		}
	}
	// A piece must not be empty.
	if pts[best].cut == 0 || strings.TrimSpace(s[:pts[best].cut]) == "" {
		return -1, -1, 0
	}
	return pts[best].cut, pts[best].next, pts[best].depth
}
