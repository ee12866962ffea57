package lang

// The checker. It runs in named stages over the declarations of a whole file
// set (a root file and everything it imports), collecting every error it can
// before lowering:
//
//	resolve    declare names (constants, variables, predicates, labels,
//	           policies, properties) and report duplicates and keywords;
//	           an imported JANI model's names are entered first
//	           (janiimport.go)
//	consts     fold constants, apply -D overrides, detect cycles
//	types      type every expression (integer or condition), resolve each
//	           name use, check linearity and divisions by constants
//	ranges     variable ranges and initial values are constants in range
//	actions    assignment targets, duplicate assignments, outcome weights
//	policies   policy bodies per kind and their label references
//	properties start/unsafe/goal clauses
//	lower      build the symbolic.Model (only when no stage found errors)
//
// Each stage may rely on what earlier stages established; a stage that
// finds an error in a declaration marks it so later stages skip it rather
// than reporting consequences of the same mistake.

import (
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"vigil/lang/syntax"
	"vigil/symbolic"
)

// Stages lists the checker's stages in order.
var Stages = []string{"resolve", "consts", "types", "ranges", "actions", "policies", "properties", "lower"}

var keywords = map[string]bool{}

func init() {
	for _, k := range strings.Fields(syntax.Keywords) {
		keywords[k] = true
	}
}

type symKind int

const (
	symConst symKind = iota
	symVar
	symPred
	symLabel
)

var symKindNames = [...]string{"constant", "variable", "predicate", "action label"}

// kindName names the kind of the symbol declared by id as kind for
// messages: an enum value is a constant to the checker (enumPrepare), an
// enum value to whoever reads the message.
func (c *checker) kindName(id Ident, kind symKind) string {
	if kind == symConst && c.en != nil {
		for cd := range c.en.values {
			if cd.Name.Name == id.Name && cd.Name.Pos == id.Pos {
				return "enum value"
			}
		}
	}
	return symKindNames[kind]
}

// symKindName is kindName for a declared symbol.
func (c *checker) symKindName(s *symbol) string {
	return c.kindName(Ident{Name: s.name, Pos: s.pos}, s.kind)
}

// article is "a NOUN" or "an NOUN".
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

type symbol struct {
	kind symKind
	name string
	pos  symbolic.Pos
	file *File

	cdecl *ConstDecl
	vdecl *VarDecl
	pdecl *PredDecl

	// imported from a JANI model: no declaration; a predicate has its
	// lowered condition instead
	imported bool
	pcond    *symbolic.Cond

	// constants
	value    int
	state    int // 0 unvisited, 1 visiting, 2 done, 3 bad
	override *string

	// variables
	id      symbolic.VarID
	lo, hi  int
	isBool  bool
	hasInit bool
	bad     bool

	// labels
	label symbolic.LabelID
}

type typ uint8

const (
	tErr typ = iota // already reported
	tInt
	tBool
)

func (t typ) String() string {
	return [...]string{"?", "integer", "condition"}[t]
}

// withArticle is "an integer" or "a condition".
func (t typ) withArticle() string {
	if t == tInt {
		return "an " + t.String()
	}
	return "a " + t.String()
}

// info is what the types stage learns about an expression.
type info struct {
	val   int
	t     typ
	konst bool // integer constant (no variables)
	// dead: never evaluated (it evaluates a dead read, EDead): it has a
	// type and no value, so nothing is folded or bounded from it
	dead bool
}

type declRef struct {
	d    Decl
	file *File
}

type checker struct {
	en *enums // the enum types (nil without any), for the table CSVs' value names
	// arrayConsts are the array constants folded (arrayPrepare), for
	// Model.ArrayConsts
	arrayConsts []symbolic.ArrayConst
	// accesses are the array accesses whose index may leave the range,
	// of each outcome that is a range error there (arrayPrepare), for
	// Outcome.Accesses
	accesses map[*OutcomeNode][]risky
	// never are the commands whose guard folds to false (array.go's
	// action): nothing in their cost or outcomes is evaluated, so a part
	// that reads a dead read stands for no value there (lower.go)
	never   map[*ActionDecl]bool
	opts    Options
	files   []*File
	decls   []declRef
	diags   Diagnostics
	errs    int
	syms    map[string]*symbol
	order   []*symbol // consts, vars, preds, labels in declaration order
	vars    []*symbol
	labels  []*symbol
	pols    map[string]*PolicyDecl
	props   map[string]*PropertyDecl
	model   *ModelDecl
	badDecl map[Decl]bool
	// emptyLabel: labels without indices whose only actions make no
	// command (W0701), where their empty range starts.
	emptyLabel map[string]symbolic.Pos
	fileOf     map[Decl]*File

	constDepth         int // constants being evaluated, each in terms of the next
	constChainReported bool
	// badDefine is set when a -D value is not an integer: its constant
	// is unknown, and the errors that follow from it are not reported
	// (load.go's cmdLineOnly).
	badDefine bool
	// overLimit is set when the model expands past one of the front end's
	// size limits (schema commands, quantifier terms, array elements): the
	// phases after the one that found it are skipped, since they would
	// build what the limit refuses (seconds and gigabytes) only to report
	// errors that follow from it (load.go).
	overLimit bool
	// stopped is set when opts.Context is done (interrupted): the phases
	// left are skipped as after overLimit, and no model is returned.
	stopped bool

	// the first index of each array variable (array.go), for editors
	arrayLo map[*VarDecl]int

	// the imported JANI model (janiimport.go) and its import path as written
	jani     *symbolic.Model
	janiName string

	// reported holds the (place, code) of each error reported: an
	// expression copied by an expansion (an array written at a variable
	// index specializes its value per element, a forall per term) is
	// checked once per copy, and its error is reported once
	reported map[errAt]bool
}

// interrupted reports whether opts.Context is done, and then marks the
// checker stopped and past its limits so that the phases left are
// skipped (load.go). The long loops of the front end poll it.
func (c *checker) interrupted() bool {
	if c.stopped {
		return true
	}
	if c.opts.Context == nil || c.opts.Context.Err() == nil {
		return false
	}
	c.stopped, c.overLimit = true, true
	return true
}

func newChecker(files []*File, opts Options) *checker {
	n := 0
	for _, f := range files {
		n += len(f.Decls)
	}
	// sized for the declarations: growing maps of a million constants
	// costs more than checking them
	c := &checker{opts: opts, files: files, syms: make(map[string]*symbol, n), pols: map[string]*PolicyDecl{},
		props: map[string]*PropertyDecl{}, badDecl: map[Decl]bool{}, fileOf: make(map[Decl]*File, n),
		decls: make([]declRef, 0, n), order: make([]*symbol, 0, n)}
	for _, f := range files {
		for _, d := range f.Decls {
			c.decls = append(c.decls, declRef{d, f})
			c.fileOf[d] = f
		}
	}
	return c
}

func (c *checker) fileFor(p symbolic.Pos) *File {
	for _, f := range c.files {
		if f.Path == p.File {
			return f
		}
	}
	return &File{Path: p.File}
}

// errAt is where an error was reported, with its code.
type errAt struct {
	p, end symbolic.Pos
	code   string
}

func (c *checker) errorf(p symbolic.Pos, end symbolic.Pos, code, format string, args ...any) {
	if c.errs >= MaxErrors {
		return
	}
	k := errAt{p, end, code}
	if c.reported[k] {
		return // the same error in another copy of the expression
	}
	if c.reported == nil {
		c.reported = map[errAt]bool{}
	}
	c.reported[k] = true
	c.errs++
	endCol := 0
	if end.Line == p.Line && end.Col > p.Col {
		endCol = end.Col
	}
	c.diags = append(c.diags, c.fileFor(p).Diag(p, endCol, code, format, args...))
}

func identEnd(id Ident) symbolic.Pos {
	e := id.Pos
	e.Col += len(id.Name)
	return e
}

// run executes the stages and returns the lowered model when there are no
// errors.
func (c *checker) run() *symbolic.Model {
	for _, stage := range []func(){c.resolve, c.consts, c.types, c.ranges, c.actions, c.policies, c.properties} {
		if c.interrupted() {
			return nil
		}
		stage()
	}
	if c.errs == 0 && len(c.badDecl) > 0 {
		// a declaration left out with no error said why would change the
		// model silently (a lost action or rule): never load that
		var at, end symbolic.Pos
		for d := range c.badDecl {
			if p, e := d.DeclPos(); at.Line == 0 || p.Line < at.Line {
				at, end = p, e
			}
		}
		c.errorf(at, end, "E0003", "internal error: this declaration was dropped without an error saying why (%d in all); please report the model", len(c.badDecl))
	}
	if c.errs > 0 || c.interrupted() {
		return nil
	}
	m := c.lower()
	if m != nil && c.opts.OverflowWarnings && !c.interrupted() {
		c.diags = append(c.diags, overflowWarnings(m, c.files)...)
	}
	return m
}

// ---- resolve ---------------------------------------------------------------

// declare enters a name; for labels, a repeated declaration returns the
// existing symbol with isNew == false.
func (c *checker) declare(id Ident, kind symKind, f *File) (s *symbol, isNew bool) {
	if id.Name == "" {
		return nil, false
	}
	if keywords[id.Name] {
		c.errorf(id.Pos, identEnd(id), "E0103", "%q is a keyword and cannot name %s", id.Name, article(c.kindName(id, kind)))
		return nil, false
	}
	if old := c.syms[id.Name]; old != nil {
		if kind == symLabel && old.kind == symLabel {
			return old, false
		}
		where := "at " + old.pos.String()
		if old.pos.Line == 0 {
			where = "in " + old.pos.File // jani's silent label has no place of its own
		}
		c.errorf(id.Pos, identEnd(id), "E0102", "%s %s is already declared as %s %s", c.kindName(id, kind), id.Name, article(c.symKindName(old)), where)
		return nil, false
	}
	s = &symbol{kind: kind, name: id.Name, pos: id.Pos, file: f}
	c.syms[id.Name] = s
	c.order = append(c.order, s)
	return s, true
}

func (c *checker) resolve() {
	c.seedJANI()
	for i, dr := range c.decls {
		if i%1024 == 0 && c.interrupted() {
			return // the load stops (load.go)
		}
		switch d := dr.d.(type) {
		case *ModelDecl:
			if c.model != nil {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0105", "a second model declaration (the first, %s, is at %s); a file set has at most one", c.model.Name.Name, c.model.Name.Pos)
			} else {
				c.model = d
			}
		case *ConstDecl:
			if s, _ := c.declare(d.Name, symConst, dr.file); s != nil {
				s.cdecl = d
			} else {
				c.badDecl[d] = true
			}
		case *VarDecl:
			if s, _ := c.declare(d.Name, symVar, dr.file); s != nil {
				s.vdecl = d
				s.isBool, s.hasInit = d.Bool, d.Init != nil
				s.id = symbolic.VarID(len(c.vars))
				c.vars = append(c.vars, s)
				c.janiOnly(d.Name, symVar)
			} else {
				c.badDecl[d] = true
			}
		case *PredDecl:
			if s, _ := c.declare(d.Name, symPred, dr.file); s != nil {
				s.pdecl = d
			} else {
				c.badDecl[d] = true
			}
		case *ActionDecl:
			s, isNew := c.declare(d.Label, symLabel, dr.file)
			if s != nil {
				c.janiOnly(d.Label, symLabel)
			}
			switch {
			case s == nil:
				c.badDecl[d] = true
			case isNew:
				s.label = symbolic.LabelID(len(c.labels))
				c.labels = append(c.labels, s)
			}
		case *PolicyDecl:
			if keywords[d.Name.Name] {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0103", "%q is a keyword and cannot name a policy", d.Name.Name)
			} else if old := c.pols[d.Name.Name]; old != nil {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0102", "policy %s is already declared at %s", d.Name.Name, old.Name.Pos)
			} else {
				c.pols[d.Name.Name] = d
			}
		case *PropertyDecl:
			if keywords[d.Name.Name] {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0103", "%q is a keyword and cannot name a property", d.Name.Name)
			} else if old := c.props[d.Name.Name]; old != nil {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0102", "property %s is already declared at %s", d.Name.Name, old.Name.Pos)
			} else {
				c.props[d.Name.Name] = d
			}
		}
	}
}

// lookup resolves a name use, reporting unknown names with a suggestion
// drawn from the symbols of the wanted kinds.
func (c *checker) lookup(name string, p, end symbolic.Pos, want ...symKind) *symbol {
	s := c.syms[name]
	if s != nil {
		for _, k := range want {
			if s.kind == k {
				return s
			}
		}
		var names []string
		for _, k := range want {
			names = append(names, symKindNames[k])
		}
		c.errorf(p, end, "E0106", "%s is %s, not %s", name, article(c.symKindName(s)), article(strings.Join(names, " or ")))
		return nil
	}
	var cands []string
	for _, s := range c.order {
		for _, k := range want {
			if s.kind == k {
				// an array's elements suggest the array (array.go)
				n, _, _ := strings.Cut(s.name, "[")
				if len(cands) == 0 || cands[len(cands)-1] != n {
					cands = append(cands, n)
				}
			}
		}
	}
	msg := "undeclared name " + name
	hint := didYouMean(name, cands)
	if strings.Contains(name, "-") {
		parts := strings.Split(name, "-")
		known := true
		for _, part := range parts {
			if c.syms[part] == nil && !isDigits(part) {
				known = false
			}
		}
		if known {
			hint = fmt.Sprintf("; names may contain hyphens, so write %s with spaces around the minus", strings.Join(parts, " - "))
		}
	}
	msg += hint
	c.errorf(p, end, "E0101", "%s", msg)
	return nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func didYouMean(name string, cands []string) string {
	limit := max(1, len(name)/3)
	if len(name) >= 3 {
		limit = max(limit, 2)
	}
	best, bestD := "", limit+1
	sort.Strings(cands)
	for _, n := range cands {
		if d := symbolic.EditDistance(strings.ToLower(name), strings.ToLower(n)); d < bestD && d < len(name) {
			best, bestD = n, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", best)
}

// ---- consts ----------------------------------------------------------------

func (c *checker) consts() {
	for name, val := range c.opts.Defines {
		s := c.syms[name]
		if s == nil || s.kind != symConst {
			var cands []string
			for _, s := range c.order {
				if s.kind == symConst {
					cands = append(cands, s.name)
				}
			}
			kind := "no constant"
			if s != nil {
				kind = article(c.symKindName(s)) + ", not a constant" // (a trailing comma stood before no "did you mean")
			}
			c.cmdErrorf("E0304", "-D %s=%s: %s is %s%s", name, val, name, kind, didYouMean(name, cands))
			continue
		}
		v := val
		s.override = &v
	}
	for _, s := range c.order {
		if s.kind == symConst {
			c.constValue(s, s.pos, s.pos)
		}
	}
}

// cmdErrorf reports an error in the command line (no source position).
func (c *checker) cmdErrorf(code, format string, args ...any) {
	c.errs++
	c.diags = append(c.diags, Diagnostic{Pos: symbolic.Pos{File: "command line"}, Severity: Error, Code: code, Msg: fmt.Sprintf(format, args...)})
}

func (c *checker) constValue(s *symbol, usePos, useEnd symbolic.Pos) (int, bool) {
	switch s.state {
	case 1:
		c.errorf(usePos, useEnd, "E0206", "constant %s is defined in terms of itself", s.name)
		s.state = 3
		return 0, false
	case 2:
		return s.value, true
	case 3:
		return 0, false
	}
	if c.constDepth >= MaxDepth {
		if c.constChainReported { // one chain, one error
			s.state = 3
			return 0, false
		}
		c.constChainReported = true
		c.errorf(usePos, useEnd, "E0210", "constant %s is defined through a chain of more than %d other constants; shorten the chain", s.name, MaxDepth)
		s.state = 3
		return 0, false
	}
	c.constDepth++
	defer func() { c.constDepth-- }()
	s.state = 1
	if s.override != nil {
		v, err := strconv.Atoi(*s.override)
		if k, ok := c.enumDefine(*s.override); ok {
			v, err = k, nil // -D START=red (enums.defines checked its type)
		}
		if err != nil {
			if errors.Is(err, strconv.ErrRange) {
				c.cmdErrorf("E0304", "-D %s=%s: the value is outside the 64-bit integers (%d .. %d)", s.name, *s.override, math.MinInt64, math.MaxInt64)
			} else {
				c.cmdErrorf("E0304", "-D %s=%s: the value must be an integer, such as -D %s=5", s.name, *s.override, s.name)
			}
			c.badDefine = true
			s.state = 3
			return 0, false
		}
		s.value, s.state = v, 2
		return v, true
	}
	in := c.check(s.cdecl.Value)
	if s.state == 3 {
		return 0, false
	}
	switch {
	case in.t == tErr:
		s.state = 3
		return 0, false
	case in.t != tInt:
		c.errorf(s.cdecl.Value.Pos, s.cdecl.Value.End, "E0201", "constant %s must be an integer, not a %s", s.name, in.t)
		s.state = 3
		return 0, false
	case !in.konst:
		c.errorf(s.cdecl.Value.Pos, s.cdecl.Value.End, "E0207", "constant %s must not depend on variables", s.name)
		s.state = 3
		return 0, false
	}
	s.value, s.state = in.val, 2
	return in.val, true
}

// ---- types -----------------------------------------------------------------

// check types e (memoised), folding integer constants.
func (c *checker) check(e *Expr) info {
	if e == nil {
		return info{t: tErr}
	}
	if e.Memo.Checked {
		return memo(e)
	}
	in := c.check1(e)
	e.Memo = syntax.Memo{Val: in.val, T: uint8(in.t), Konst: in.konst, Checked: true, Dead: in.dead}
	return in
}

func (c *checker) want(e *Expr, t typ, what string) info {
	in := c.check(e)
	if in.t != tErr && in.t != t {
		code := "E0201"
		if t == tBool {
			code = "E0202"
		}
		c.errorf(e.Pos, e.End, code, "%s must be %s, but %s is %s", what, t.withArticle(), c.quote(e), in.t.withArticle())
		return info{t: tErr}
	}
	return in
}

// constCond folds a checked condition whose comparisons are between
// constants: true, false, comparisons of constant integers, !, &&, ||, =>
// (a predicate's name is not folded). ok is false for any other.
func constCond(e *Expr) (holds, ok bool) {
	return foldCond(e, false, func(e *Expr) (bool, bool) {
		x, y := e.Args[0].Memo, e.Args[1].Memo
		if !x.Checked || !y.Checked || !x.Konst || !y.Konst || x.Dead || y.Dead || typ(x.T) != tInt || typ(y.T) != tInt {
			return false, false
		}
		return compareInts(e.Op, x.Val, y.Val), true
	})
}

// foldCond folds the connectives of a condition, true and false; cmp
// folds a comparison (==, !=, <, <=, >, >=) or says it is not constant.
// ok is false where a part does not fold, except, with shortCircuit,
// the right of a &&, || or => whose left decides it (N > 3 && x > 0 is
// false with N = 2, as evaluation from the left has it), and without it
// such a right that is checked and never evaluated (a dead read's
// comparison, N > 3 && K[3] > 0 with K = [1, 1]: it has no value, and
// the left decides wherever the right is dead).
func foldCond(e *Expr, shortCircuit bool, cmp func(*Expr) (holds, ok bool)) (holds, ok bool) {
	if e == nil {
		return false, false // no guard: not a folded condition
	}
	switch e.Kind {
	case EBool:
		return e.Text == "true", true
	case EParen:
		return foldCond(e.Args[0], shortCircuit, cmp)
	case ENot:
		h, ok := foldCond(e.Args[0], shortCircuit, cmp)
		return !h, ok
	case EBin:
		switch e.Op {
		case "&&", "||", "=>":
			a, ok1 := foldCond(e.Args[0], shortCircuit, cmp)
			if ok1 && a == (e.Op == "||") && (shortCircuit || e.Args[1].Memo.Checked && e.Args[1].Memo.Dead) {
				return e.Op != "&&", true
			}
			b, ok2 := foldCond(e.Args[1], shortCircuit, cmp)
			if !ok1 || !ok2 {
				return false, false
			}
			switch e.Op {
			case "&&":
				return a && b, true
			case "||":
				return a || b, true
			}
			return !a || b, true
		case "==", "!=", "<", "<=", ">", ">=":
			return cmp(e)
		}
	}
	return false, false
}

// minLiteral reports whether e is -9223372036854775808 written out, the
// negation of the literal 2^63, which is no 64-bit integer itself: the
// smallest constant (spec.md, "Integer arithmetic"), which -D takes and
// the lowered model prints so. Every folder reads it as one literal.
func minLiteral(e *Expr) bool {
	return e.Kind == ENeg && e.Args[0].Kind == EInt && strings.TrimLeft(e.Args[0].Text, "0") == "9223372036854775808"
}

func (c *checker) check1(e *Expr) info {
	switch e.Kind {
	case EInt:
		v, err := strconv.Atoi(e.Text)
		if err != nil {
			c.errorf(e.Pos, e.End, "E0303", "integer %s is too large", e.Text)
			return info{t: tErr}
		}
		return info{t: tInt, konst: true, val: v}
	case EDec:
		c.errorf(e.Pos, e.End, "E0203", "decimal %s is allowed only in outcome weights and policy inputs; the model's arithmetic is on integers", e.Text)
		return info{t: tErr}
	case EBool:
		return info{t: tBool}
	case EName:
		s := c.lookup(e.Text, e.Pos, e.End, symConst, symVar, symPred)
		if s == nil {
			return info{t: tErr}
		}
		switch s.kind {
		case symConst:
			v, ok := c.constValue(s, e.Pos, e.End)
			if !ok {
				return info{t: tErr}
			}
			return info{t: tInt, konst: true, val: v}
		case symVar:
			if s.isBool {
				return info{t: tBool}
			}
			return info{t: tInt}
		default:
			return info{t: tBool}
		}
	case EParen:
		return c.check(e.Args[0])
	case EDead:
		// the type of the array's elements, and no value: a read that
		// is never made (its placeholder element's value once made 4 /
		// K[3] a division by 0, and named K[0] in messages)
		in := c.check(e.Args[0])
		if in.t == tErr {
			return in
		}
		return info{t: in.t, konst: in.konst, dead: true}
	case ENeg:
		if minLiteral(e) {
			return info{t: tInt, konst: true, val: math.MinInt64}
		}
		in := c.want(e.Args[0], tInt, "the operand of unary -")
		if in.dead {
			return in
		}
		if in.konst {
			v, ok := symbolic.NegExact(in.val)
			if !ok {
				c.errorf(e.Pos, e.End, "E0303", "%s overflows: a folded constant must lie within %d .. %d", exprString(e), math.MinInt64, math.MaxInt64)
				return info{t: tErr}
			}
			in.val = v
		}
		return in
	case ENot:
		in := c.want(e.Args[0], tBool, "the operand of !")
		return info{t: tBool, dead: in.dead}
	case ECall:
		if e.Op == "abs" && len(e.Args) != 1 || e.Op != "abs" && len(e.Args) != 2 {
			n := 2
			if e.Op == "abs" {
				n = 1
			}
			c.errorf(e.Pos, e.End, "E0208", "%s takes %d argument(s), not %d", e.Op, n, len(e.Args))
			return info{t: tErr}
		}
		var ins []info
		bad, dead := false, false
		for _, a := range e.Args {
			in := c.want(a, tInt, "an argument of "+e.Op)
			bad = bad || in.t == tErr
			dead = dead || in.dead
			ins = append(ins, in)
		}
		if bad {
			return info{t: tErr}
		}
		out := info{t: tInt, konst: true}
		for _, in := range ins {
			out.konst = out.konst && in.konst
		}
		if dead {
			out.dead = true
			return out
		}
		if out.konst {
			switch e.Op {
			case "abs":
				out.val = ins[0].val
				if out.val < 0 {
					v, ok := symbolic.NegExact(out.val)
					if !ok {
						c.errorf(e.Pos, e.End, "E0303", "%s overflows: a folded constant must lie within %d .. %d", exprString(e), math.MinInt64, math.MaxInt64)
						return info{t: tErr}
					}
					out.val = v
				}
			case "min":
				out.val = min(ins[0].val, ins[1].val)
			case "max":
				out.val = max(ins[0].val, ins[1].val)
			}
		}
		return out
	case EIf:
		cond := c.want(e.Args[0], tBool, "the condition of if")
		a := c.check(e.Args[1])
		b := c.check(e.Args[2])
		if a.t == tErr || b.t == tErr {
			return info{t: tErr}
		}
		if a.t != tInt || b.t != tInt {
			bad := e.Args[1]
			if a.t == tInt {
				bad = e.Args[2]
			}
			c.errorf(bad.Pos, bad.End, "E0201", "the branches of if must be integers, but %s is a condition", c.quote(bad))
			return info{t: tErr}
		}
		if cond.dead || a.dead && b.dead {
			return info{t: tInt, dead: true} // the if is never evaluated
		}
		// a constant condition chooses its branch: const U = if N > 2
		// then 1 else 0, and count's expansion (if C then 1 else 0), fold
		if h, ok := constCond(e.Args[0]); ok && cond.t == tBool {
			if chosen := map[bool]info{true: a, false: b}[h]; chosen.konst {
				return chosen
			}
		}
		return info{t: tInt}
	case EBin:
		return c.checkBin(e)
	}
	// a quantifier, array element or array literal left by an expansion
	// that failed (reported there), or one that reached the checker where
	// no expansion runs: the latter must not pass silently, since an
	// expression that does not check drops its declaration
	if c.errs == 0 {
		c.errorf(e.Pos, e.End, "E0207", "%s cannot be used here; write its value with constants and integers", exprString(e))
	}
	return info{t: tErr}
}

func (c *checker) checkBin(e *Expr) info {
	l, r := e.Args[0], e.Args[1]
	switch e.Op {
	case "&&", "||", "=>":
		// dead where its left operand is, which is evaluated wherever
		// the connective is; a dead right operand (behind a left that
		// decides) leaves it evaluated
		a := c.want(l, tBool, "the left operand of "+e.Op)
		c.want(r, tBool, "the right operand of "+e.Op)
		return info{t: tBool, dead: a.dead}
	case "==", "!=":
		a, b := c.check(l), c.check(r)
		if a.t == tErr || b.t == tErr {
			return info{t: tBool}
		}
		if a.t != b.t {
			c.errorf(e.Pos, e.End, "E0201", "%s compares a %s with a %s", c.quote(e), a.t, b.t)
		}
		return info{t: tBool, dead: a.dead || b.dead}
	case "<", "<=", ">", ">=":
		a := c.want(l, tInt, "the left operand of "+e.Op)
		b := c.want(r, tInt, "the right operand of "+e.Op)
		return info{t: tBool, dead: a.dead || b.dead}
	}
	a := c.want(l, tInt, "the left operand of "+e.Op)
	b := c.want(r, tInt, "the right operand of "+e.Op)
	if a.t == tErr || b.t == tErr {
		return info{t: tErr}
	}
	out := info{t: tInt, konst: a.konst && b.konst}
	if a.dead || b.dead {
		// never evaluated: nothing to fold, and no overflow or
		// division by 0; a product of two variables, or a divisor
		// that reads one, is an error all the same
		out.dead = true
		switch {
		case e.Op == "*" && !a.konst && !b.konst:
			c.errorf(e.Pos, e.End, "E0204", "product of two variables: %s is not linear", c.quote(e))
			return info{t: tErr}
		case e.Op == "/" && !b.konst:
			c.errorf(r.Pos, r.End, "E0205", "division by %s: the divisor must be a constant", c.quote(r))
			return info{t: tErr}
		}
		return out
	}
	switch e.Op {
	case "+", "-":
		if out.konst {
			var ok bool
			if e.Op == "+" {
				out.val, ok = symbolic.AddExact(a.val, b.val)
			} else {
				out.val, ok = symbolic.SubExact(a.val, b.val)
			}
			if !ok {
				c.errorf(e.Pos, e.End, "E0303", "%s overflows: a folded constant must lie within %d .. %d", exprString(e), math.MinInt64, math.MaxInt64)
				return info{t: tErr}
			}
		}
	case "*":
		if !a.konst && !b.konst {
			c.errorf(e.Pos, e.End, "E0204", "product of two variables: %s is not linear", c.quote(e))
			return info{t: tErr}
		}
		if out.konst {
			v, ok := symbolic.MulExact(a.val, b.val)
			if !ok {
				c.errorf(e.Pos, e.End, "E0303", "%s overflows: a folded constant must lie within %d .. %d", exprString(e), math.MinInt64, math.MaxInt64)
				return info{t: tErr}
			}
			out.val = v
		}
	case "/":
		if !b.konst {
			c.errorf(r.Pos, r.End, "E0205", "division by %s: the divisor must be a constant", c.quote(r))
			return info{t: tErr}
		}
		if b.val <= 0 {
			c.errorf(r.Pos, r.End, "E0205", "%s", divisorMsg(c.quote(r), b.val))
			return info{t: tErr}
		}
		if out.konst {
			out.val = symbolic.FloorDiv(a.val, b.val)
		}
	}
	return out
}

// types checks every expression outside constants and inputs.
func (c *checker) types() {
	g := c.predGraph()
	for i, dr := range c.decls {
		if i%1024 == 0 && c.interrupted() {
			return // the load stops (load.go)
		}
		if c.badDecl[dr.d] {
			continue
		}
		switch d := dr.d.(type) {
		case *PredDecl:
			c.want(d.Cond, tBool, "the body of pred "+d.Name.Name)
			c.predCheck(g, d)
		case *ActionDecl:
			if d.Guard != nil {
				c.want(d.Guard, tBool, "the guard")
			}
			if d.Cost != nil {
				c.want(d.Cost, tInt, "the cost of action "+d.Label.Name)
			}
			for _, o := range d.Outcomes {
				for _, as := range o.Assigns {
					c.check(as.Value)
				}
			}
		case *PolicyDecl:
			for _, it := range d.Items {
				if it.Kind == ItemWhen {
					c.want(it.When, tBool, "a rule's condition")
				}
			}
		case *PropertyDecl:
			for _, cl := range d.Clauses {
				c.want(cl.Cond, tBool, "the "+cl.Kind+" condition")
			}
		}
	}
}

// predGraph finds, once for all preds, those that use themselves
// (directly or through others: a strongly connected component of the
// uses, found with Tarjan's algorithm) and those whose lowered condition
// would nest too deeply through the preds it uses. The walks are bounded:
// a chain of more than MaxDepth preds is itself an error (E0210).
type predGraph struct {
	c       *checker
	uses    map[*PredDecl][]*PredDecl
	index   map[*PredDecl]int
	low     map[*PredDecl]int
	onStk   map[*PredDecl]bool
	stack   []*PredDecl
	next    int
	cyclic  map[*PredDecl]bool
	depth   map[*PredDecl]int // nesting of the lowered condition, uses included
	tooLong *PredDecl         // the pred where a chain exceeded MaxDepth
}

// maxPredNesting bounds the nesting of a pred's condition with the preds
// it uses expanded (the lowered condition every engine walks).
const maxPredNesting = 10 * MaxDepth

func (c *checker) predGraph() *predGraph {
	g := &predGraph{c: c, uses: map[*PredDecl][]*PredDecl{}, index: map[*PredDecl]int{}, low: map[*PredDecl]int{},
		onStk: map[*PredDecl]bool{}, cyclic: map[*PredDecl]bool{}, depth: map[*PredDecl]int{}}
	var preds []*PredDecl
	for _, dr := range c.decls {
		if d, ok := dr.d.(*PredDecl); ok {
			preds = append(preds, d)
			g.uses[d] = c.predUses(d.Cond, nil)
		}
	}
	for _, d := range preds {
		if _, done := g.index[d]; !done && g.tooLong == nil {
			g.strong(d, 1)
		}
	}
	return g
}

// predUses appends the preds e names.
func (c *checker) predUses(e *Expr, out []*PredDecl) []*PredDecl {
	if e == nil {
		return out
	}
	if e.Kind == EName {
		if s := c.syms[e.Text]; s != nil && s.kind == symPred && s.pdecl != nil {
			out = append(out, s.pdecl)
		}
	}
	for _, a := range e.Args {
		out = c.predUses(a, out)
	}
	return out
}

func (g *predGraph) strong(d *PredDecl, chain int) {
	if chain > MaxDepth {
		if g.tooLong == nil {
			g.tooLong = d
		}
		return
	}
	g.index[d], g.low[d] = g.next, g.next
	g.next++
	g.stack = append(g.stack, d)
	g.onStk[d] = true
	for _, q := range g.uses[d] {
		if _, seen := g.index[q]; !seen {
			g.strong(q, chain+1)
			if g.tooLong != nil {
				return
			}
			g.low[d] = min(g.low[d], g.low[q])
		} else if g.onStk[q] {
			g.low[d] = min(g.low[d], g.index[q])
		}
		if q == d {
			g.cyclic[d] = true
		}
	}
	if g.low[d] != g.index[d] {
		return
	}
	top := len(g.stack) - 1
	for g.stack[top] != d {
		top--
	}
	scc := g.stack[top:]
	g.stack = g.stack[:top]
	for _, q := range scc {
		g.onStk[q] = false
		if len(scc) > 1 {
			g.cyclic[q] = true
		}
	}
	// The uses of the preds in scc are all done: their nesting is known.
	for _, q := range scc {
		if g.cyclic[q] {
			continue
		}
		g.depth[q] = int(q.Cond.Height) + 1 + g.depthOfUses(q)
	}
}

func (g *predGraph) depthOfUses(d *PredDecl) int {
	n := 0
	for _, u := range g.uses[d] {
		n = max(n, g.depth[u])
	}
	return n
}

// predCheck reports d if it uses itself or nests too deeply.
func (c *checker) predCheck(g *predGraph, d *PredDecl) {
	switch {
	case g.tooLong == d:
		c.errorf(d.Name.Pos, identEnd(d.Name), "E0210", "pred %s is defined through a chain of more than %d other preds; shorten the chain", d.Name.Name, MaxDepth)
	case g.cyclic[d]:
		c.errorf(d.Name.Pos, identEnd(d.Name), "E0206", "pred %s is defined in terms of itself", d.Name.Name)
	case g.depth[d] > maxPredNesting && g.depthOfUses(d) > maxPredNesting:
		// reported at the pred where the nesting first exceeded the limit
	case g.depth[d] > maxPredNesting:
		c.errorf(d.Name.Pos, identEnd(d.Name), "E0210", "pred %s nests more than %d levels deep with the preds it uses written out; shorten the chain", d.Name.Name, maxPredNesting)
	default:
		return
	}
	c.badDecl[d] = true
}

// ---- ranges ----------------------------------------------------------------

func (c *checker) constExpr(e *Expr, what string) (int, bool) {
	in := c.want(e, tInt, what)
	if in.t == tErr {
		return 0, false
	}
	if !in.konst {
		c.errorf(e.Pos, e.End, "E0207", "%s must be a constant expression, but %s depends on variables", what, exprString(e))
		return 0, false
	}
	return in.val, true
}

func (c *checker) ranges() {
	for _, s := range c.vars {
		if s.imported {
			continue // checked by the JANI import
		}
		d := s.vdecl
		if d.Bool {
			s.lo, s.hi = 0, 1
			if d.Init != nil {
				in := c.want(d.Init, tBool, "the initial value of Boolean "+d.Name.Name)
				if in.t == tBool && !(d.Init.Kind == EBool) {
					c.errorf(d.Init.Pos, d.Init.End, "E0207", "the initial value of %s must be true or false", d.Name.Name)
				}
			}
			continue
		}
		lo, ok1 := c.constExpr(d.Lo, "the lower bound of "+d.Name.Name)
		hi, ok2 := c.constExpr(d.Hi, "the upper bound of "+d.Name.Name)
		if !ok1 || !ok2 {
			s.bad = true
			continue
		}
		if lo > hi {
			c.errorf(d.Lo.Pos, d.Hi.End, "E0301", "empty range %d .. %d for %s: the lower bound exceeds the upper", lo, hi, d.Name.Name)
			s.bad = true
			continue
		}
		if hi-lo > 1<<40 || hi-lo < 0 {
			c.errorf(d.Lo.Pos, d.Hi.End, "E0301", "range %d .. %d for %s is too large (at most 2^40 values)", lo, hi, d.Name.Name)
			s.bad = true
			continue
		}
		if lo == math.MinInt64 || hi == math.MaxInt64 {
			c.errorf(d.Lo.Pos, d.Hi.End, "E0305", "range %d .. %d for %s touches the end of the 64-bit integers; give bounds within %d .. %d (vigil computes with exact integers and needs a value beyond every range)", lo, hi, d.Name.Name, math.MinInt64+1, math.MaxInt64-1)
			s.bad = true
			continue
		}
		s.lo, s.hi = lo, hi
		if d.Init != nil {
			v, ok := c.constExpr(d.Init, "the initial value of "+d.Name.Name)
			if ok && (v < lo || v > hi) {
				c.errorf(d.Init.Pos, d.Init.End, "E0302", "initial value %d of %s is outside its range %d .. %d", v, d.Name.Name, lo, hi)
			}
		}
	}
}

// ---- actions ---------------------------------------------------------------

func (c *checker) actions() {
	for i, dr := range c.decls {
		if i%1024 == 0 && c.interrupted() {
			return // the load stops (load.go)
		}
		d, ok := dr.d.(*ActionDecl)
		if !ok || c.badDecl[d] {
			continue
		}
		var given, missing int
		sum := newRat(0, 1)
		for _, o := range d.Outcomes {
			seen := map[string]*AssignNode{}
			for _, as := range o.Assigns {
				s := c.lookup(as.Var.Name, as.Var.Pos, identEnd(as.Var), symVar)
				if s == nil {
					continue
				}
				if old := seen[as.Var.Name]; old != nil {
					c.errorf(as.Var.Pos, identEnd(as.Var), "E0401", "%s is assigned twice in one outcome (first at column %d)", as.Var.Name, old.Var.Pos.Col)
					continue
				}
				seen[as.Var.Name] = as
				in := c.check(as.Value)
				switch {
				case in.t == tErr:
				case s.isBool && in.t != tBool:
					c.errorf(as.Value.Pos, as.Value.End, "E0403", "%s is Boolean: assign it a condition (true, false, or a comparison), not the integer %s", s.name, c.quote(as.Value))
				case !s.isBool && in.t != tInt:
					c.errorf(as.Value.Pos, as.Value.End, "E0403", "%s is an integer variable: assign it an integer expression, not the condition %s", s.name, c.quote(as.Value))
				}
			}
			if o.Weight == "" {
				missing++
				continue
			}
			w, ok := parseRat(o.Weight)
			if !ok {
				c.errorf(o.WeightPos, o.WeightPos, "E0404", "weight %s is not a valid non-negative rational", o.Weight)
				continue
			}
			given++
			sum = sum.add(w)
		}
		if given > 0 && missing > 0 && sum.cmp(newRat(1, 1)) > 0 {
			c.errorf(d.Outcomes[0].Start, d.Outcomes[0].Start, "E0404", "the given weights sum to %s > 1, so nothing is left for the %d outcome(s) without a weight", sum, missing)
		}
		if given > 0 && missing == 0 && sum.num == 0 {
			c.errorf(d.Outcomes[0].Start, d.Outcomes[0].Start, "E0404", "all outcome weights are zero")
		}
	}
}

// ---- policies --------------------------------------------------------------

func (c *checker) labelRef(id Ident) bool {
	s := c.syms[id.Name]
	if s != nil && s.kind == symLabel {
		return true
	}
	if s != nil {
		c.errorf(id.Pos, identEnd(id), "E0501", "%s is %s, not an action label", id.Name, article(c.symKindName(s)))
		return false
	}
	if at, ok := c.emptyLabel[id.Name]; ok {
		c.errorf(id.Pos, identEnd(id), "E0501", "policy names label %s, whose actions make no command (the empty range at %s, W0701), so it is not a label of the model", id.Name, at)
		return false
	}
	var cands []string
	for _, l := range c.labels {
		cands = append(cands, l.name)
	}
	c.errorf(id.Pos, identEnd(id), "E0501", "policy names label %s, which no action declares%s", id.Name, didYouMean(id.Name, cands))
	return false
}

func (c *checker) policies() {
	for _, dr := range c.decls {
		d, ok := dr.d.(*PolicyDecl)
		if !ok {
			continue
		}
		kind := d.Kind.Name
		switch kind {
		case "nn", "trees", "rules", "table":
		default:
			c.errorf(d.Kind.Pos, identEnd(d.Kind), "E0502", "unknown policy kind %s%s; the kinds are nn, trees, rules and table", kind, didYouMean(kind, []string{"nn", "trees", "rules", "table"}))
			continue
		}
		counts := map[PolicyItemKind]int{}
		for i, it := range d.Items {
			counts[it.Kind]++
			allowed := map[string][]PolicyItemKind{
				"nn":    {ItemInputs, ItemOutputs, ItemInterface, ItemArgMax, ItemOutput},
				"trees": {ItemInputs, ItemOutputs, ItemArgMax},
				"rules": {ItemWhen, ItemOtherwise},
				"table": {ItemOutputs},
			}[kind]
			okItem := false
			for _, k := range allowed {
				okItem = okItem || k == it.Kind
			}
			if !okItem {
				if it.Kind == ItemOutput {
					c.errorf(it.Start, it.End, "E0502", "a %s policy cannot have an output line: it names the output of an ONNX network (nn policies)", kind)
					continue
				}
				if it.Kind == ItemArgMax {
					c.errorf(it.Start, it.End, "E0502", "a %s policy cannot have an argmax line: it chooses its label by its %s, not by an arg-max over scores (argmax all and argmax applicable are for nn and trees policies)", kind, map[string]string{"rules": "first rule that holds and whose label is applicable", "table": "row of the state"}[kind])
					continue
				}
				c.errorf(it.Start, it.Start, "E0502", "a %s policy cannot have %s", kind, itemName(it.Kind))
				continue
			}
			if counts[it.Kind] > 1 && it.Kind != ItemWhen {
				if it.Kind == ItemArgMax {
					c.errorf(it.Start, it.End, "E0502", "a second argmax line in policy %s; keep one (argmax all or argmax applicable)", d.Name.Name)
					continue
				}
				c.errorf(it.Start, it.Start, "E0502", "a second %s in policy %s", strings.TrimPrefix(strings.TrimPrefix(itemName(it.Kind), "an "), "a "), d.Name.Name)
				continue
			}
			switch it.Kind {
			case ItemOutputs:
				seen := map[string]bool{}
				for _, o := range it.Outputs {
					if c.labelRef(o) && seen[o.Name] {
						c.errorf(o.Pos, identEnd(o), "E0504", "label %s is listed twice in outputs", o.Name)
					}
					seen[o.Name] = true
				}
			case ItemWhen:
				c.labelRef(it.Label)
			case ItemOtherwise:
				c.labelRef(it.Label)
				if i != len(d.Items)-1 {
					c.errorf(it.Start, it.Start, "E0506", "otherwise must be the last rule: the rules after it are never tried")
				}
			case ItemInputs:
				for _, e := range it.Inputs {
					c.affine(e)
				}
			case ItemOutput:
				if it.Output == "" {
					c.errorf(it.OutputPos, it.End, "E0502", "output \"\" names no graph output; give the name of the ONNX output that holds the scores (vigil nn eval NET lists them)")
				}
			case ItemArgMax:
				if w := it.Reading; w.Name != "all" && w.Name != "applicable" {
					c.errorf(w.Pos, identEnd(w), "E0502", "argmax %s: the arg-max ranges over all outputs (argmax all: the policy is stuck where the winner is not applicable, PlaJA without applicability filtering) or over the applicable ones (argmax applicable)%s", w.Name, didYouMean(w.Name, []string{"all", "applicable"}))
				}
			}
		}
		switch kind {
		case "nn", "trees":
			if d.HasFile {
				if fi, err := os.Stat(resolvePath(dr.file, d.File)); err != nil {
					c.errorf(d.FilePos, d.FilePos, "E0507", "policy file %s: %v", d.File, pathErr(err))
				} else if !fi.Mode().IsRegular() {
					c.errorf(d.FilePos, d.FilePos, "E0507", "policy file %s: %s", d.File, notRegular(fi))
				}
			}
			if !d.HasFile {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0503", "%s policy %s needs a file: policy %s %s \"FILE\" { ... }", kind, d.Name.Name, kind, d.Name.Name)
			}
			if counts[ItemInterface] == 0 {
				if counts[ItemInputs] == 0 {
					c.errorf(d.Name.Pos, identEnd(d.Name), "E0503", "%s policy %s needs an inputs line (one affine expression per network input)", kind, d.Name.Name)
				}
				if counts[ItemOutputs] == 0 {
					c.errorf(d.Name.Pos, identEnd(d.Name), "E0503", "%s policy %s needs an outputs line (the labels of the outputs, in order)", kind, d.Name.Name)
				}
			} else if counts[ItemInputs]+counts[ItemOutputs] > 0 {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0502", "policy %s has an interface file: leave out inputs and outputs, which come from it", d.Name.Name)
			}
		case "rules":
			if d.HasFile {
				c.errorf(d.FilePos, d.FilePos, "E0502", "a rules policy takes no file")
			}
			if len(d.Items) == 0 {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0503", "rules policy %s has no rules", d.Name.Name)
			}
		case "table":
			if !d.HasFile {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0503", "table policy %s needs a CSV file: policy table %s \"FILE.csv\" { }", d.Name.Name, d.Name.Name)
			}
		}
	}
}

func itemName(k PolicyItemKind) string {
	return [...]string{"an inputs line", "an outputs line", "an interface file", "when rules", "an otherwise rule", "an argmax line", "an output line"}[k]
}

// affine checks a policy input and returns its rational affine form.
func (c *checker) affine(e *Expr) (symbolic.Affine, bool) {
	lin, ok := c.affineRec(e)
	if !ok {
		return symbolic.Affine{}, false
	}
	over := lin.konst.over
	for _, r := range lin.coef {
		over = over || r.over
	}
	if over {
		c.errorf(e.Pos, e.End, "E0303", "policy input %s has a coefficient or constant whose numerator or denominator does not fit in 64 bits", exprString(e))
		return symbolic.Affine{}, false
	}
	a := symbolic.Affine{Const: lin.konst.sym(), Pos: e.Pos}
	ids := make([]int, 0, len(lin.coef))
	for id := range lin.coef {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	for _, id := range ids {
		if r := lin.coef[symbolic.VarID(id)]; r.num != 0 {
			a.Terms = append(a.Terms, symbolic.AffineTerm{Coef: r.sym(), Var: symbolic.VarID(id)})
		}
	}
	return a, true
}

type ratLin struct {
	konst rat
	coef  map[symbolic.VarID]rat
}

func (l ratLin) isConst() bool {
	for _, r := range l.coef {
		if r.num != 0 {
			return false
		}
	}
	return true
}

func (l ratLin) scale(k rat) ratLin {
	out := ratLin{konst: l.konst.mul(k), coef: map[symbolic.VarID]rat{}}
	for v, r := range l.coef {
		out.coef[v] = r.mul(k)
	}
	return out
}

func (l ratLin) plus(m ratLin) ratLin {
	out := ratLin{konst: l.konst.add(m.konst), coef: map[symbolic.VarID]rat{}}
	for v, r := range l.coef {
		out.coef[v] = r
	}
	for v, r := range m.coef {
		if old, ok := out.coef[v]; ok {
			out.coef[v] = old.add(r)
		} else {
			out.coef[v] = r
		}
	}
	return out
}

func (c *checker) affineRec(e *Expr) (ratLin, bool) {
	zero := ratLin{konst: newRat(0, 1), coef: map[symbolic.VarID]rat{}}
	switch e.Kind {
	case EInt, EDec:
		r, ok := parseRat(e.Text)
		if !ok {
			c.errorf(e.Pos, e.End, "E0303", "number %s is too large", e.Text)
			return zero, false
		}
		zero.konst = r
		return zero, true
	case EBool:
		if e.Text == "true" {
			zero.konst = newRat(1, 1)
		}
		return zero, true
	case EName:
		s := c.lookup(e.Text, e.Pos, e.End, symConst, symVar)
		if s == nil {
			return zero, false
		}
		if s.kind == symConst {
			v, ok := c.constValue(s, e.Pos, e.End)
			zero.konst = newRat(int64(v), 1)
			return zero, ok
		}
		zero.coef[s.id] = newRat(1, 1)
		return zero, true
	case EParen:
		return c.affineRec(e.Args[0])
	case ENeg:
		if minLiteral(e) {
			zero.konst = newRat(math.MinInt64, 1)
			return zero, true
		}
		l, ok := c.affineRec(e.Args[0])
		return l.scale(newRat(-1, 1)), ok
	case EBin:
		a, ok1 := c.affineRec(e.Args[0])
		b, ok2 := c.affineRec(e.Args[1])
		if !ok1 || !ok2 {
			return zero, false
		}
		switch e.Op {
		case "+":
			return a.plus(b), true
		case "-":
			return a.plus(b.scale(newRat(-1, 1))), true
		case "*":
			switch {
			case a.isConst():
				return b.scale(a.konst), true
			case b.isConst():
				return a.scale(b.konst), true
			}
			c.errorf(e.Pos, e.End, "E0204", "product of two variables: %s is not affine", exprString(e))
			return zero, false
		case "/":
			if !b.isConst() {
				c.errorf(e.Args[1].Pos, e.Args[1].End, "E0205", "division by %s: the divisor must be a constant", exprString(e.Args[1]))
				return zero, false
			}
			if b.konst.num == 0 {
				c.errorf(e.Args[1].Pos, e.Args[1].End, "E0205", "division by zero")
				return zero, false
			}
			return a.scale(b.konst.inv()), true
		}
	}
	c.errorf(e.Pos, e.End, "E0209", "a policy input must be an affine expression of variables (with + - * / by constants), not %s", exprString(e))
	return zero, false
}

// ---- properties ------------------------------------------------------------

func (c *checker) properties() {
	for _, dr := range c.decls {
		d, ok := dr.d.(*PropertyDecl)
		if !ok {
			continue
		}
		seen := map[string]bool{}
		for _, cl := range d.Clauses {
			if seen[cl.Kind] {
				c.errorf(cl.Start, cl.Start, "E0602", "property %s has a second %s clause; combine them with && or ||", d.Name.Name, cl.Kind)
			}
			seen[cl.Kind] = true
		}
		if !seen["unsafe"] {
			c.errorf(d.Name.Pos, identEnd(d.Name), "E0601", "property %s has no unsafe condition", d.Name.Name)
		}
		if !seen["start"] {
			for _, s := range c.vars {
				if !s.hasInit {
					c.errorf(d.Name.Pos, identEnd(d.Name), "E0603", "property %s has no start condition, so every variable needs an initial value, but %s (%s) has none", d.Name.Name, s.name, s.pos)
					break
				}
			}
		}
	}
}

// divisorMsg is E0205's message for a constant divisor d (as written) that
// folds to v <= 0. The rule is static, like a type: it holds where the
// division is never evaluated too (N > 3 && x / (N - 2) > 0 with N = 2,
// spec.md, "Indexing"), so the message says so and how to write it.
func divisorMsg(d string, v int) string {
	if strings.TrimLeft(d, "0123456789") == "" || d == fmt.Sprint(v) {
		return fmt.Sprintf("division by %d: the divisor must be a positive constant", v)
	}
	if inner, ok := strings.CutPrefix(d, "("); ok && strings.HasSuffix(inner, ")") {
		depth := 0
		for i, r := range inner {
			switch r {
			case '(':
				depth++
			case ')':
				depth--
			}
			if depth < 0 && i == len(inner)-1 {
				d = inner[:i] // one pair of parentheses around it all
			}
			if depth < 0 {
				break
			}
		}
	}
	return fmt.Sprintf("division by %s, which is %d: the divisor must be a positive constant wherever the division is written, also where a constant condition means it is never evaluated (N > 3 && ...); write max(1, %s) there", d, v, d)
}
