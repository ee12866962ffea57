package syntax

// A hand-written lexer and recursive-descent parser for .spec files. They
// replace a participle grammar that took 6.5 s and 700 MB for a 100,000-line
// file of constants and overflowed the stack on deeply nested parentheses;
// the old grammar survives in participle_test.go as the reference this
// parser is tested and benchmarked against.
//
// The lexer works on demand with two tokens of lookahead; the parser builds
// the AST of ast.go directly. Expression nesting is bounded by MaxDepth both
// while parsing (the recursion) and in the tree built (a long chain of
// left-associative operators is as deep as it is long), so that every
// later recursive pass (check, lower, format, print) runs in bounded stack.
//
// Tokens, tried in this order at each position (as the grammar had them):
//   comment   //... or /* ... */
//   string    "..." with backslash escapes, on one line
//   decimal   [0-9]+.[0-9]+
//   int       [0-9]+
//   ident     [A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*   (keywords are idents)
//   punct     => -> == != <= >= && || .. and one of -+*/(),:=<>!|{}'[]
// Whitespace is space, tab, CR and LF.

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"vigil/symbolic"
)

// Keywords are the language's reserved words (spec.md, "Lexical
// structure"): they never name anything. Other words (forall, in, cost,
// ...) are keywords only where the grammar expects them.
const Keywords = `model import as const type var bool pred action when skip policy nn trees
rules table inputs outputs interface otherwise property start unsafe goal true
false min max abs if then else`

var keywordSet = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(Keywords) {
		m[k] = true
	}
	return m
}()

// IsKeyword reports whether s is a reserved word.
func IsKeyword(s string) bool { return keywordSet[s] }

// MaxDepth bounds how deeply expressions nest: parentheses, operators,
// calls and if-then-else, counted on the tree (a + b + c is three deep).
// Deeper input is refused with a positioned error instead of exhausting
// the stack of the parser or of any pass after it.
const MaxDepth = 1000

type tokKind uint8

const (
	kEOF tokKind = iota
	kString
	kDecimal
	kInt
	kIdent
	kPunct
)

type token struct {
	kind     tokKind
	val      string // as written (strings: with quotes)
	pos, end symbolic.Pos
}

// scanner produces tokens on demand. Comments are collected as a side effect.
type scanner struct {
	src      string
	path     string
	off      int
	line     int
	col      int // 1-based rune column of off
	comments []Comment
	toks     []lineCol // positions of the non-comment tokens, for the formatter
}

// syntaxErr aborts the parse; it is recovered in parse.
type syntaxErr struct{ d Diagnostic }

func (lx *scanner) here() symbolic.Pos {
	return symbolic.Pos{File: lx.path, Line: lx.line, Col: lx.col}
}

// advance moves over n bytes that contain no newline.
func (lx *scanner) advance(n int) {
	s := lx.src[lx.off : lx.off+n]
	for i := 0; i < len(s); i++ {
		if utf8.RuneStart(s[i]) {
			lx.col++
		}
	}
	lx.off += n
}

// advanceLines moves over n bytes that may contain newlines.
func (lx *scanner) advanceLines(n int) {
	end := lx.off + n
	for lx.off < end {
		if lx.src[lx.off] == '\n' {
			lx.line++
			lx.col = 1
			lx.off++
			continue
		}
		j := lx.off
		for j < end && lx.src[j] != '\n' {
			j++
		}
		lx.advance(j - lx.off)
	}
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isWord(c byte) bool   { return isLetter(c) || isDigit(c) }

var twoCharPunct = [...]string{"=>", "->", "==", "!=", "<=", ">=", "&&", "||", ".."}

const oneCharPunct = "-+*/(),:=<>!|{}'[]"

// next returns the next non-comment token.
func (lx *scanner) next(f *File) token {
	lx.skipSpaceAndComments(f)
	p := lx.here()
	if lx.off >= len(lx.src) {
		return token{kind: kEOF, pos: p, end: p}
	}
	rest := lx.src[lx.off:]
	kind, n := lexeme(f, p, rest)
	tok := token{kind: kind, val: rest[:n], pos: p}
	lx.advance(n)
	tok.end = lx.here()
	lx.toks = append(lx.toks, lineCol{int32(p.Line), int32(p.Col)})
	return tok
}

// skipSpaceAndComments moves over whitespace and comments, collecting the
// comments.
func (lx *scanner) skipSpaceAndComments(f *File) {
	for {
		lx.skipSpace()
		rest := lx.src[lx.off:]
		switch {
		case len(rest) >= 2 && rest[0] == '/' && rest[1] == '/':
			n := 2
			for n < len(rest) && rest[n] != '\n' {
				n++
			}
			p := lx.here()
			text := trimRightSpace(rest[:n])
			lx.advance(n)
			lx.comments = append(lx.comments, Comment{Pos: p, Text: text, EndLine: p.Line})
		case len(rest) >= 2 && rest[0] == '/' && rest[1] == '*':
			n := -1
			for i := 2; i+1 < len(rest); i++ {
				if rest[i] == '*' && rest[i+1] == '/' {
					n = i + 2
					break
				}
			}
			p := lx.here()
			if n < 0 {
				panic(syntaxErr{f.Diag(p, p.Col+2, "E0001", "unterminated comment: /* has no closing */")})
			}
			text := trimRightSpace(rest[:n])
			lx.advanceLines(n)
			lx.comments = append(lx.comments, Comment{Pos: p, Text: text, EndLine: lx.line})
		default:
			return
		}
	}
}

// skipSpace moves over spaces, tabs and line ends.
func (lx *scanner) skipSpace() {
	for lx.off < len(lx.src) {
		switch lx.src[lx.off] {
		case ' ', '\t', '\r':
			lx.off++
			lx.col++
		case '\n':
			lx.off++
			lx.line++
			lx.col = 1
		default:
			return
		}
	}
}

// lexeme returns the kind and the length in bytes of the token that rest
// (not empty, not starting with whitespace or a comment) starts with; p is
// its position, for the error on a byte that starts no token.
func lexeme(f *File, p symbolic.Pos, rest string) (tokKind, int) {
	c := rest[0]
	switch {
	case c == '"':
		return kString, stringLen(f, p, rest)
	case isDigit(c):
		n := digits(rest, 0)
		if n+1 < len(rest) && rest[n] == '.' && isDigit(rest[n+1]) {
			return kDecimal, digits(rest, n+1)
		}
		return kInt, n
	case isLetter(c):
		n := words(rest, 0)
		for n+1 < len(rest) && rest[n] == '-' && isWord(rest[n+1]) {
			n = words(rest, n+1)
		}
		return kIdent, n
	}
	for _, p2 := range twoCharPunct {
		if len(rest) >= 2 && rest[:2] == p2 {
			return kPunct, 2
		}
	}
	for i := 0; i < len(oneCharPunct); i++ {
		if c == oneCharPunct[i] {
			return kPunct, 1
		}
	}
	r, _ := utf8.DecodeRuneInString(rest)
	panic(syntaxErr{f.Diag(p, 0, "E0001", "invalid character %q%s", r, hintFor(string(r)))})
}

// stringLen returns the length of the quoted string rest starts with,
// quotes included; a string ends on its line.
func stringLen(f *File, p symbolic.Pos, rest string) int {
	n := 1
	for n < len(rest) && rest[n] != '"' && rest[n] != '\n' {
		if rest[n] == '\\' && n+1 < len(rest) && rest[n+1] != '\n' {
			n++
		}
		n++
	}
	if n >= len(rest) || rest[n] != '"' {
		panic(syntaxErr{f.Diag(p, 0, "E0001", "unterminated string: a string ends with \" on the same line")})
	}
	return n + 1
}

// digits returns the offset of the first non-digit in s at or after i.
func digits(s string, i int) int {
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i
}

// words returns the offset of the first non-word byte in s at or after i.
func words(s string, i int) int {
	for i < len(s) && isWord(s[i]) {
		i++
	}
	return i
}

func trimRightSpace(s string) string {
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// parser is a recursive-descent parser over scanner with two tokens of
// lookahead.
type parser struct {
	f     *File
	lx    *scanner
	tok   token // current
	ahead token // the one after, valid if hasAhead
	has   bool
	last  token // the last token consumed
	depth int   // current expression recursion depth

	// Expression nodes are cut from slabs: fewer, larger allocations (the
	// AST lives and dies as a whole).
	leaves []Expr
	bins   []binExpr
	slab   int // the size of the next slab
}

// slabSize is the largest slab; slabs start small so that a short file
// does not pay for a large one.
const slabSize = 512

// grow doubles the slab size up to slabSize.
func (p *parser) grow() int {
	p.slab = min(max(2*p.slab, 8), slabSize)
	return p.slab
}

// newExpr returns a zeroed node from the slab.
func (p *parser) newExpr() *Expr {
	if len(p.leaves) == 0 {
		p.leaves = make([]Expr, p.grow())
	}
	e := &p.leaves[0]
	p.leaves = p.leaves[1:]
	return e
}

func (p *parser) peek() token {
	if !p.has {
		p.ahead = p.lx.next(p.f)
		p.has = true
	}
	return p.ahead
}

func (p *parser) advance() token {
	t := p.tok
	p.last = t
	if p.has {
		p.tok, p.has = p.ahead, false
	} else {
		p.tok = p.lx.next(p.f)
	}
	return t
}

// is reports whether the current token is the punctuation or keyword s.
func (p *parser) is(s string) bool {
	return (p.tok.kind == kPunct || p.tok.kind == kIdent) && p.tok.val == s
}

func (p *parser) fail(expected string) {
	t := p.tok
	what := fmt.Sprintf("%q", t.val)
	end := 0
	if t.kind == kEOF {
		what = "end of file"
		if open, close := countByte(p.f.Src, '{'), countByte(p.f.Src, '}'); open > close {
			what += " (is a closing } missing?)"
			expected = ""
		}
	} else {
		end = t.end.Col
		if t.end.Line != t.pos.Line {
			end = 0
		}
	}
	msg := "unexpected " + what
	if expected != "" {
		msg += ", expected " + expected
	}
	msg += hintFor(t.val)
	if t.kind == kPunct && t.val == "*" && p.last.kind == kPunct && p.last.val == "*" && p.last.end == t.pos {
		msg += hintFor("**")
	}
	if t.kind == kIdent && (p.last.kind == kInt || p.last.kind == kDecimal) && p.last.end == t.pos {
		// 0x10 lexes as 0 then x10, 1e3 as 1 then e3
		msg += " (numbers are written in decimal digits, 16 or 0.5: no hexadecimal, exponent or suffix)"
	}
	panic(syntaxErr{p.f.Diag(t.pos, end, "E0001", "%s", msg)})
}

func countByte(b []byte, c byte) int {
	n := 0
	for _, x := range b {
		if x == c {
			n++
		}
	}
	return n
}

func (p *parser) expect(s string) token {
	if !p.is(s) {
		p.fail(strconv.Quote(s))
	}
	return p.advance()
}

func (p *parser) ident() Ident {
	if p.tok.kind != kIdent {
		p.fail("a name")
	}
	t := p.advance()
	return Ident{Name: t.val, Pos: t.pos}
}

func (p *parser) str() (string, symbolic.Pos) {
	if p.tok.kind != kString {
		p.fail("a quoted file name")
	}
	t := p.advance()
	s, err := strconv.Unquote(t.val)
	if err != nil {
		panic(syntaxErr{p.f.Diag(t.pos, t.end.Col, "E0001", "invalid string %s: use \\\" for a quote and \\\\ for a backslash", t.val)})
	}
	return s, t.pos
}

// parse runs the parser over f.Src, filling f.Decls and f.Comments.
func parse(f *File) (d *Diagnostic) {
	lx := &scanner{src: string(f.Src), path: f.Path, line: 1, col: 1, toks: make([]lineCol, 0, len(f.Src)/4)}
	if strings.HasPrefix(lx.src, bom) {
		// a byte-order mark at the start is skipped, and is no column:
		// editors hide it, and their columns start after it
		lx.off = len(bom)
	}
	p := &parser{f: f, lx: lx}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(syntaxErr)
			if !ok {
				panic(r)
			}
			d = &se.d
		}
	}()
	p.tok = lx.next(f)
	for p.tok.kind != kEOF {
		f.Decls = append(f.Decls, p.decl())
	}
	f.Comments = lx.comments
	f.tokPos = lx.toks
	return nil
}

// declKeywords lists the keywords that open a declaration, for the message
// when none does.
const declKeywords = `"model", "import", "const", "type", "var", "pred", "action", "policy" or "property"`

// declParsers maps the keyword that opens a declaration to the parser of
// the rest of it; each is called with the keyword consumed and given the
// keyword's position, where the declaration's span starts.
var declParsers = map[string]func(p *parser, start symbolic.Pos) Decl{
	"model":    (*parser).modelDecl,
	"import":   (*parser).importDecl,
	"const":    (*parser).constDecl,
	"var":      (*parser).varDecl,
	"type":     (*parser).typeDecl,
	"pred":     (*parser).predDecl,
	"action":   (*parser).actionDecl,
	"policy":   (*parser).policyDecl,
	"property": (*parser).propertyDecl,
}

func (p *parser) decl() Decl {
	start := p.tok.pos
	parse, ok := declParsers[p.tok.val]
	if p.tok.kind != kIdent || !ok {
		p.fail(declKeywords)
	}
	p.advance()
	return parse(p, start)
}

// span is the span from start to the end of the last token consumed.
func (p *parser) span(start symbolic.Pos) Span { return Span{start, p.last.end} }

// modelDecl parses `model NAME`.
func (p *parser) modelDecl(start symbolic.Pos) Decl {
	id := p.ident()
	return &ModelDecl{p.span(start), id}
}

// importDecl parses `import "FILE" [as NAME]`.
func (p *parser) importDecl(start symbolic.Pos) Decl {
	path, pos := p.str()
	imp := &ImportDecl{Path: path, PathPos: pos}
	if p.is("as") {
		p.advance()
		id := p.ident()
		imp.As = &id
	}
	imp.Span = p.span(start)
	return imp
}

// constDecl parses `const NAME = EXPR`.
func (p *parser) constDecl(start symbolic.Pos) Decl {
	name, v := p.definition()
	return &ConstDecl{p.span(start), name, v}
}

// varDecl parses `var NAME : [[LO .. HI] of] TYPE [= INIT]`, where TYPE is
// bool, a range LO .. HI or the name of an enum type.
func (p *parser) varDecl(start symbolic.Pos) Decl {
	v := &VarDecl{Name: p.ident()}
	p.expect(":")
	if p.is("[") {
		// an array: [LO .. HI] of TYPE
		p.advance()
		p.f.Arrays = true
		v.IdxLo = p.expr()
		p.expect("..")
		v.IdxHi = p.expr()
		p.expect("]")
		if !p.is("of") {
			p.fail(`"of" (an array is written var NAME : [LO .. HI] of TYPE)`)
		}
		p.advance()
	}
	if p.is("bool") {
		p.advance()
		v.Bool = true
	} else {
		v.Lo = p.expr()
		if v.Lo.Kind == EName && !p.is("..") {
			// var c : color, a variable of an enum type
			v.Type, v.Lo = &Ident{Name: v.Lo.Text, Pos: v.Lo.Pos}, nil
		} else {
			p.expect("..")
			v.Hi = p.expr()
		}
	}
	if p.is("=") {
		p.advance()
		v.Init = p.expr()
	}
	v.Span = p.span(start)
	return v
}

// typeDecl parses `type NAME = { VALUE, ... }`.
func (p *parser) typeDecl(start symbolic.Pos) Decl {
	t := &TypeDecl{Name: p.ident()}
	p.expect("=")
	p.expect("{")
	if p.is("}") {
		p.fail("a value: an enum type has at least one value")
	}
	t.Values = list(p, ",", p.ident)
	p.expect("}")
	t.Span = p.span(start)
	return t
}

// predDecl parses `pred NAME = EXPR`.
func (p *parser) predDecl(start symbolic.Pos) Decl {
	name, c := p.definition()
	return &PredDecl{p.span(start), name, c}
}

// actionDecl parses `action LABEL [(PARAMS) | [INDEX]] [for PARAMS]
// [when GUARD] [cost EXPR] -> OUTCOME | ...`.
func (p *parser) actionDecl(start symbolic.Pos) Decl {
	a := &ActionDecl{Label: p.ident()}
	switch {
	case p.is("("):
		p.advance()
		a.Params = p.params()
		p.expect(")")
	case p.is("["):
		a.Index = p.labelIndex(false)
	}
	if p.is("for") && p.peek().kind == kIdent {
		p.advance()
		a.For = p.params()
	}
	if p.is("when") {
		p.advance()
		a.Guard = p.expr()
	}
	if p.is("cost") {
		p.advance()
		a.Cost = p.expr()
	}
	p.expect("->")
	a.Outcomes = list(p, "|", p.outcome)
	a.Span = p.span(start)
	return a
}

// params parses a comma-separated list of at least one parameter.
func (p *parser) params() []*Param { return list(p, ",", p.param) }

// list parses one or more items separated by sep.
func list[T any](p *parser, sep string, item func() T) []T {
	xs := []T{item()}
	for p.is(sep) {
		p.advance()
		xs = append(xs, item())
	}
	return xs
}

// definition parses `NAME = EXPR`, the rest of a const or pred
// declaration.
func (p *parser) definition() (Ident, *Expr) {
	name := p.ident()
	p.expect("=")
	return name, p.expr()
}

// policyDecl parses `policy KIND NAME ["FILE"] [when EXPR] { ITEM ... }`.
func (p *parser) policyDecl(start symbolic.Pos) Decl {
	d := &PolicyDecl{Kind: p.ident(), Name: p.ident()}
	if p.tok.kind == kString {
		d.File, d.FilePos = p.str()
		d.HasFile = true
	}
	if p.is("when") {
		p.advance()
		d.When = p.expr()
	}
	p.expect("{")
	for !p.is("}") {
		d.Items = append(d.Items, p.policyItem(d.Kind.Name))
	}
	p.advance()
	d.Span = p.span(start)
	return d
}

// propertyDecl parses `property NAME { (start|unsafe|goal) EXPR ... }`.
func (p *parser) propertyDecl(start symbolic.Pos) Decl {
	d := &PropertyDecl{Name: p.ident()}
	p.expect("{")
	for !p.is("}") {
		if !(p.is("start") || p.is("unsafe") || p.is("goal")) {
			p.fail(`"start", "unsafe", "goal" or "}"`)
		}
		kw := p.advance()
		c := p.expr()
		d.Clauses = append(d.Clauses, &PropClause{Span{kw.pos, c.End}, kw.val, c})
	}
	p.advance()
	d.Span = p.span(start)
	return d
}

func (p *parser) outcome() *OutcomeNode {
	o := &OutcomeNode{}
	start := p.tok.pos
	if p.tok.kind == kInt || p.tok.kind == kDecimal {
		o.WeightPos = p.tok.pos
		o.Weight = p.advance().val
		if p.is("/") {
			p.advance()
			if p.tok.kind != kInt {
				p.fail("an integer")
			}
			o.Weight += "/" + p.advance().val
		}
		p.expect(":")
	}
	if p.is("skip") && !(p.peek().kind == kPunct && p.peek().val == "'") {
		p.advance()
		o.Skip = true
	} else {
		o.Assigns = list(p, ",", p.assign)
	}
	o.Span = Span{start, p.last.end}
	return o
}

func (p *parser) assign() *AssignNode {
	a := &AssignNode{Pos: p.tok.pos}
	if p.is("forall") && p.peek().kind == kIdent {
		// forall k in LO .. HI: ASSIGN, one assignment per value
		p.advance()
		p.f.Quants = true
		a.Each = p.param()
		p.expect(":")
		inner := p.assign()
		if inner.Each != nil {
			panic(syntaxErr{p.f.Diag(inner.Pos, 0, "E0001", "forall assignments do not nest; write one forall per assignment")})
		}
		a.Var, a.Index, a.Value = inner.Var, inner.Index, inner.Value
		return a
	}
	a.Var = p.ident()
	if p.is("[") {
		p.advance()
		p.f.Arrays = true
		a.Index = p.expr()
		if p.is(",") {
			p.fail(`"]" (arrays have one index)`)
		}
		p.expect("]")
	}
	p.expect("'")
	p.expect("=")
	a.Value = p.expr()
	return a
}

// param parses a schema parameter, `b in LO .. HI`.
func (p *parser) param() *Param {
	pm := &Param{Name: p.ident()}
	if !p.is("in") {
		p.fail(`"in" (a parameter is written NAME in LO .. HI)`)
	}
	p.advance()
	pm.Lo = p.expr()
	p.expect("..")
	pm.Hi = p.expr()
	return pm
}

// labelIndex parses `[e, ...]` after a label; with wild, an entry may be
// `*` (a nil entry).
func (p *parser) labelIndex(wild bool) []*Expr {
	p.expect("[")
	var idx []*Expr
	for {
		if wild && p.is("*") {
			p.advance()
			idx = append(idx, nil)
		} else {
			idx = append(idx, p.expr())
		}
		if !p.is(",") {
			break
		}
		p.advance()
	}
	p.expect("]")
	return idx
}

// output parses one entry of outputs: a label, or a schema's labels
// `move[*, 2]`.
func (p *parser) output(it *PolicyItem) {
	it.Outputs = append(it.Outputs, p.ident())
	var idx []*Expr
	if p.is("[") {
		idx = p.labelIndex(true)
		if it.OutputIdx == nil {
			it.OutputIdx = make([][]*Expr, len(it.Outputs)-1, len(it.Outputs))
		}
	}
	if it.OutputIdx != nil {
		it.OutputIdx = append(it.OutputIdx, idx)
	}
}

// policyItem parses one line of a policy's body. kind (rules, nn, trees,
// ...) only shapes the message when the line starts with none of the
// item words: a rules policy is told how a rule reads, a learned one
// which lines it takes.
func (p *parser) policyItem(kind string) *PolicyItem {
	it := &PolicyItem{}
	start := p.tok.pos
	switch {
	case p.is("inputs"):
		p.advance()
		it.Kind = ItemInputs
		it.Inputs = list(p, ",", p.expr)
	case p.is("outputs"):
		p.advance()
		it.Kind = ItemOutputs
		p.output(it)
		for p.is(",") {
			p.advance()
			p.output(it)
		}
	case p.is("interface"):
		p.advance()
		it.Kind = ItemInterface
		it.Interface, it.IfacePos = p.str()
	case p.is("output"):
		p.advance()
		it.Kind = ItemOutput
		if p.tok.kind != kString {
			p.fail(`the name of an ONNX graph output in quotes, output "actions"`)
		}
		it.Output, it.OutputPos = p.str()
	case p.is("when"):
		p.advance()
		it.Kind = ItemWhen
		it.When = p.expr()
		p.expect("->")
		it.Label = p.ident()
		if p.is("[") {
			it.LabelIdx = p.labelIndex(false)
		}
	case p.is("otherwise"):
		p.advance()
		it.Kind = ItemOtherwise
		p.expect("->")
		it.Label = p.ident()
		if p.is("[") {
			it.LabelIdx = p.labelIndex(false)
		}
	case p.is("argmax"):
		p.advance()
		it.Kind = ItemArgMax
		if p.tok.kind != kIdent {
			p.fail(`"all" or "applicable" (the outputs the arg-max ranges over)`)
		}
		it.Reading = p.ident()
	default:
		switch kind {
		case "rules":
			p.fail(`"when", "otherwise" or "}" (a rule reads ` + "`when CONDITION -> LABEL`, the last `otherwise -> LABEL`)")
		case "nn":
			p.fail(`"inputs", "outputs", "interface", "output", "argmax" or "}"`)
		case "trees": // no interface line (PlaJA's are for networks)
			p.fail(`"inputs", "outputs", "argmax" or "}"`)
		case "table": // the rows are in the CSV file
			p.fail(`"outputs" or "}" (a table policy's states and labels are the rows of its CSV file)`)
		default:
			p.fail(`"inputs", "outputs", "interface", "output", "argmax", "when", "otherwise" or "}"`)
		}
	}
	it.Span = Span{start, p.last.end}
	return it
}

// Expressions, weakest binding first:
// => (right-assoc), ||, &&, !, comparisons, + -, * /, unary -.

// enter counts one level of expression recursion.
func (p *parser) enter() {
	p.depth++
	if p.depth > MaxDepth {
		p.tooDeep(p.tok.pos)
	}
}

func (p *parser) tooDeep(at symbolic.Pos) {
	panic(syntaxErr{p.f.Diag(at, 0, "E0001", "expression nested too deeply (more than %d levels); split it with pred or const declarations", MaxDepth)})
}

// bin builds a binary node, checking the depth of the tree.
func (p *parser) bin(op string, opPos symbolic.Pos, x, y *Expr) *Expr {
	if len(p.bins) == 0 {
		p.bins = make([]binExpr, p.grow())
	}
	e := &p.bins[0]
	p.bins = p.bins[1:]
	*e = binExpr{Expr: Expr{Kind: EBin, Op: op, Pos: x.Pos, End: y.End}, args: [2]*Expr{x, y}}
	e.Args = e.args[:]
	e.Height = max(x.Height, y.Height) + 1
	if e.Height > MaxDepth {
		p.tooDeep(opPos)
	}
	return &e.Expr
}

// binExpr allocates a binary node and its two arguments at once.
type binExpr struct {
	Expr
	args [2]*Expr
}

func (p *parser) unaryNode(k ExprKind, op string, start symbolic.Pos, x *Expr) *Expr {
	e := &Expr{Kind: k, Op: op, Args: []*Expr{x}, Pos: start, End: p.last.end, Height: x.Height + 1}
	if e.Height > MaxDepth {
		p.tooDeep(start)
	}
	return e
}

func (p *parser) expr() *Expr {
	p.enter()
	defer func() { p.depth-- }()
	l := p.or()
	if p.is("=>") {
		op := p.advance()
		r := p.expr()
		e := p.bin("=>", op.pos, l, r)
		return e
	}
	return l
}

func (p *parser) or() *Expr {
	x := p.and()
	for p.is("||") {
		op := p.advance()
		x = p.bin("||", op.pos, x, p.and())
	}
	return x
}

func (p *parser) and() *Expr {
	x := p.not()
	for p.is("&&") {
		op := p.advance()
		x = p.bin("&&", op.pos, x, p.not())
	}
	return x
}

func (p *parser) not() *Expr {
	if p.is("!") {
		p.enter()
		defer func() { p.depth-- }()
		start := p.advance().pos
		x := p.not()
		return p.unaryNode(ENot, "!", start, x)
	}
	return p.cmp()
}

func (p *parser) cmp() *Expr {
	l := p.sum()
	if p.tok.kind == kPunct {
		switch p.tok.val {
		case "==", "!=", "<=", ">=", "<", ">":
			op := p.advance()
			return p.bin(op.val, op.pos, l, p.sum())
		}
	}
	return l
}

func (p *parser) sum() *Expr {
	x := p.prod()
	for p.is("+") || p.is("-") {
		op := p.advance()
		x = p.bin(op.val, op.pos, x, p.prod())
	}
	return x
}

func (p *parser) prod() *Expr {
	x := p.unary()
	for p.is("*") || p.is("/") {
		op := p.advance()
		x = p.bin(op.val, op.pos, x, p.unary())
	}
	return x
}

func (p *parser) unary() *Expr {
	if p.is("-") {
		p.enter()
		defer func() { p.depth-- }()
		start := p.advance().pos
		x := p.unary()
		return p.unaryNode(ENeg, "-", start, x)
	}
	return p.primary()
}

func (p *parser) primary() *Expr {
	t := p.tok
	switch t.kind {
	case kDecimal:
		return p.leaf(EDec)
	case kInt:
		return p.leaf(EInt)
	case kIdent:
		switch t.val {
		case "true", "false":
			return p.leaf(EBool)
		case "min", "max", "abs":
			if pk := p.peek(); pk.kind == kPunct && pk.val == "(" {
				p.advance()
				p.advance()
				e := &Expr{Kind: ECall, Op: t.val, Pos: t.pos}
				e.Args = list(p, ",", p.expr)
				p.expect(")")
				return p.group(e)
			}
		case "forall", "exists", "sum", "count":
			// quantifiers: these words are keywords only when a name
			// follows; a reserved word is none (`pred q = exists` then
			// `property p {...}`: the variable exists, then the next
			// declaration)
			if pk := p.peek(); pk.kind == kIdent && !IsKeyword(pk.val) {
				p.advance()
				v := p.advance()
				e := &Expr{Kind: EQuant, Op: t.val, Pos: t.pos}
				p.f.Quants = true
				name := &Expr{Kind: EName, Text: v.val, Pos: v.pos, End: v.end}
				if !p.is("in") {
					p.fail(`"in" (a quantifier is written ` + t.val + ` NAME in LO .. HI: ...)`)
				}
				p.advance()
				lo := p.expr()
				p.expect("..")
				hi := p.expr()
				p.expect(":")
				body := p.expr()
				e.Args = []*Expr{name, lo, hi, body}
				return p.group(e)
			}
		case "if":
			p.advance()
			e := &Expr{Kind: EIf, Pos: t.pos}
			c := p.expr()
			p.expect("then")
			a := p.expr()
			p.expect("else")
			b := p.expr()
			e.Args = []*Expr{c, a, b}
			return p.group(e)
		}
		if pk := p.peek(); pk.kind == kPunct && pk.val == "[" {
			// an array element: NAME[INDEX]
			p.advance()
			p.advance()
			e := &Expr{Kind: EIndex, Text: t.val, Pos: t.pos}
			p.f.Arrays = true
			e.Args = []*Expr{p.expr()}
			if p.is(",") {
				p.fail(`"]" (arrays have one index)`)
			}
			p.expect("]")
			return p.group(e)
		}
		return p.leaf(EName)
	case kPunct:
		if t.val == "[" {
			// an array literal: [e, ...]
			p.advance()
			e := &Expr{Kind: EArray, Pos: t.pos}
			p.f.Arrays = true
			e.Args = list(p, ",", p.expr)
			p.expect("]")
			return p.group(e)
		}
		if t.val == "(" {
			p.advance()
			e := &Expr{Kind: EParen, Pos: t.pos}
			e.Args = []*Expr{p.expr()}
			p.expect(")")
			return p.group(e)
		}
	}
	p.fail("an expression")
	return nil
}

// leaf consumes a token that is a whole expression.
func (p *parser) leaf(k ExprKind) *Expr {
	t := p.advance()
	e := p.newExpr()
	*e = Expr{Kind: k, Text: t.val, Pos: t.pos, End: t.end}
	return e
}

// group finishes a node whose arguments are parsed: its end and height.
func (p *parser) group(e *Expr) *Expr {
	e.End = p.last.end
	for _, a := range e.Args {
		e.Height = max(e.Height, a.Height+1)
	}
	if e.Height > MaxDepth {
		p.tooDeep(e.Pos)
	}
	return e
}
