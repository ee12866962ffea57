package lang

// Arrays: `var on : [0 .. N-1] of 0 .. N` is a fixed-size array whose
// index range is folded from constant expressions, and `const GOAL =
// [1, 2, 3]` an array constant (which -D GOAL=[1,2,3] may replace). Like
// enums, schemas and quantifiers they cost the checker's stages nothing:
// arrayPrepare runs after the other expansions (so that a schema's
// parameters and a quantifier's names are already integers in the
// indices) and before the stages, and rewrites the declarations:
//
//   - an array variable becomes one variable per element, named on[0],
//     on[1], ... in index order, each of the element type (so engines,
//     certificates and networks see the flattened elements in order);
//   - an element read with a constant index becomes that element (a
//     constant array's element is its expression); an index out of range
//     is E0803, at the index, where the read or write is evaluated (not
//     behind a constant that decides &&, || or =>, in the arm of an if
//     a constant condition does not select, or in a command whose guard
//     folds to false);
//   - a read with a variable index becomes a case split over the indices
//     the index expression can take (by interval analysis over the
//     variables' ranges), `if i == 0 then on[0] else if i == 1 then ...`
//     (a disjunction `i == 0 && b[0] || ...` for Booleans);
//   - an assignment `on[i]' = v` with a variable index becomes, for every
//     element k that i can name, `on[k]' = if i == k then v else on[k]`.
//
// An index that may leave the range is a range error where it is read,
// like an assignment out of range (spec.md, "Arrays"). Each expression is
// given its error condition E, the states in which evaluating it reads
// out of range: `&&`, `||`, `=>` and `if` evaluate from the left and
// only what they need (E(a && b) = E(a) || a && E(b)), everything else
// evaluates all its operands. In a command, E of the guard and of an
// outcome's right-hand sides and indices (and two assignments of the
// outcome that write one element) make the command applicable and the
// outcome a range error: the guard becomes `E_guard || guard`, and a
// carrier variable is set one above its range where the outcome's E
// holds. Outside commands (properties, policies, constants) E must be
// false: an index there must provably stay in range (E0804).

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// MaxArray is the most elements one array may have.
const MaxArray = 100_000

// MaxArrayElements is the most elements a model's array variables may
// have in all: each is a state variable, and a few hundred arrays of
// MaxArray elements would take the front end's memory, while the engines
// handle far fewer.
const MaxArrayElements = 250_000

// MaxArrayWriteNodes bounds the expression nodes, counted as a tree (as
// the lowering copies them), that the element assignments of writes at
// a variable index hold in all. A write whose value reads the array at
// an index the write's index does not determine (a[i]' = a[j], a swap)
// gives each of N elements a case split of N elements: about 5 N^2
// nodes, some 170 bytes each of `vigil check`'s memory (a[i]' = a[j]:
// 300 elements, 0.45 million nodes, 100 MB; 640 elements, 2.0 million,
// 370 MB; 900 elements, 4.0 million, 690 MB). 2^26 nodes (a[i]' = a[j]
// of some 3,600 elements) took some 10 GB, more than a machine shared
// by several jobs holds; 2^21 nodes (a[i]' = a[j] of about 640
// elements, a swap of about 450) take under 400 MB. Past them the write
// is error E0802, at the write.
const MaxArrayWriteNodes = 1 << 21

// MaxIndexCopyNodes bounds the expression nodes, counted as a tree, that
// the case splits of a model copy from their indices (of more than one
// node: a[i + 1], a[a[i]], a[b[i] + 1]). A case split compares its index with each
// element it can name, and the lowered model holds one copy of the index
// per comparison: a read nested d deep in arrays of N elements lowers to
// about N^d nodes. a[a[...a[x]...]] twelve deep in arrays of 4 elements
// was 4 million nodes per read, and a write at such an index 4 copies of
// it: the load ran out of memory (1.6 GB and growing) rather than fail.
// 2^22 nodes take some 640 MB once loaded (a[b[i]] over 915 elements,
// 4.2 million nodes, loads in 640 MB and 5 s; from 916 it is past the
// limit); past them the access is error E0802, at the read or write,
// naming the way out. a[b[i]] is N copies of b[i]'s split of 5 N nodes
// in any lowering to the IR's trees, which share no subexpressions and
// have no temporaries: linear only with a variable for the inner index
// (j' = b[i], then a[j]), as the message says.
const MaxIndexCopyNodes = 1 << 22

// MaxSplitElements bounds the elements that the case splits of reads at
// a variable index compare, in all. A read of a[i] over N elements
// lowers to N comparisons, N elements and N ifs: about 1,000 bytes an
// element in the front end and the lowered model together, some 1.3 KB
// of `vigil check`'s memory with the garbage collector's headroom (one
// read over 100,000 elements took 400 MB, each more read another 130
// MB), and nothing else bounded the reads: a thousand of them would have
// run the machine out of memory. 2^18 elements (two reads over 100,000
// and one over 62,000) take 580 MB. Past them the read is error E0802,
// at the read. A read in the value of an element write at a variable
// index is not counted here: the write copies the value into every
// element's assignment (or the element the read picks there), which
// MaxArrayWriteNodes counts.
const MaxSplitElements = 1 << 18

// splitLimit is MaxSplitElements, which tests lower.
var splitLimit int64 = MaxSplitElements

// array is one array variable or constant.
type array struct {
	name   string
	pos    symbolic.Pos
	lo, hi int // the index range
	// a variable's element declarations, a constant's element expressions
	vars  []*VarDecl
	elems []*Expr
	decl  *VarDecl // the variable's declaration, nil for a constant
	// the element type, for variables
	isBool, isEnum bool
	bad            bool // its declaration is wrong: its uses are not reported
}

func (a *array) size() int { return a.hi - a.lo + 1 }

// elem is element k (an index in range) as an expression at e's place.
func (a *array) elem(k int, e *Expr) *Expr {
	if a.decl == nil {
		return a.elems[k-a.lo]
	}
	return &Expr{Kind: EName, Text: a.vars[k-a.lo].Name.Name, Pos: e.Pos, End: e.End}
}

func (a *array) kind() string {
	if a.decl == nil {
		return "array constant"
	}
	return "array"
}

type arrays struct {
	c      *checker
	q      *quants
	en     *enums
	byName map[string]*array
	list   []*array
	ranges map[string][2]int // folded ranges of the (scalar and element) variables, narrowed where conditions hold
	base   map[string][2]int // the ranges as declared
	bools  map[string]bool   // the Boolean variables
	intVar *VarDecl          // the first integer variable: the carrier of last resort
	preds  map[string]*predArr
	risky  []risky          // the reads that may leave their range, of the expression being rewritten
	first  *array           // the first array read or written out of range there, if it holds integers
	bad    bool             // an error reported in the declaration being rewritten
	elems  int64            // the elements of the array variables declared so far
	splits map[*Expr]*split // the case splits of reads with a variable index, by the node read returned
	// writeNodes counts the tree nodes of element assignments of writes
	// at a variable index (MaxArrayWriteNodes); treeNodes memoizes a
	// node's tree size, so that shared case splits are counted once
	// each and in time linear in the expanded model
	writeNodes int64
	treeNodes  map[*Expr]int64
	// indexCopies counts the tree nodes copied from large indices by
	// case splits and writes (MaxIndexCopyNodes)
	indexCopies int64
	// splitElems counts the elements compared by the case splits of
	// reads at a variable index (MaxSplitElements)
	splitElems int64
	// deferring is set while the value of an element write is
	// rewritten: its reads' splits wait in deferred until the write's
	// index is known (assign)
	deferring bool
	deferred  []deferredSplit
	// ctx are the conditions under which the operand being rewritten is
	// evaluated (narrowWhere pushes them), for risky.ctx
	ctx []ctxCond
	// dead counts the enclosing operands that are never evaluated (the
	// right of a constant-decided &&, || or =>, the arm of an if whose
	// condition is a constant selecting the other): a constant index
	// out of range there is no error (spec.md, "Indexing")
	dead int
	// empty counts the enclosing conditions that narrow a variable's
	// range to nothing (x == 4 && x < 2): what they guard is never
	// evaluated, so a variable index there is no risk (E0804)
	empty int
}

// split is what a case split read: a[idx] over the elements lo .. hi.
type split struct {
	a      *array
	idx    *Expr
	lo, hi int
}

// predArr is a rewritten predicate and its error condition.
type predArr struct {
	state int // 1 rewriting, 2 done
	cond  *Expr
	err   *Expr
	risky []risky
	first *array
}

// risky is a read that may leave its array's range: its index and the
// index's interval where it is read (the ranges narrowed by the
// conditions under which it is evaluated), for E0804's message.
type risky struct {
	idx    *Expr
	lo, hi int
	ok     bool
	// the access, for a range error's message (symbolic.ArrayAccess):
	// it is evaluated where the conditions ctx hold (the left operands
	// and if conditions it is behind), and out of range where out holds
	a     *array
	text  string
	pos   symbolic.Pos
	write bool
	ctx   []ctxCond
	out   *Expr
	// with names a second write of the outcome (as written, and its
	// position) when the access is two writes of one element: out
	// holds where their indices meet, and idx is the element's index
	with    string
	withPos symbolic.Pos
}

// ctxCond is a condition (rewritten) that holds, or fails, where an
// operand is evaluated: a of a && b, !a of a || b.
type ctxCond struct {
	e     *Expr
	holds bool
}

// usesArrays reports whether the files declare or use arrays.
func (c *checker) usesArrays() bool {
	for _, f := range c.files {
		if f.Arrays {
			return true
		}
	}
	for _, v := range c.opts.Defines {
		if strings.HasPrefix(v, "[") {
			return true
		}
	}
	return false
}

// arrayPrepare rewrites the checker's declarations (see the file
// comment). en is what enumPrepare learnt (nil without enums).
func (c *checker) arrayPrepare(en *enums) {
	if !c.usesArrays() {
		return
	}
	s := &arrays{c: c, en: en, byName: map[string]*array{}, ranges: map[string][2]int{}, bools: map[string]bool{}, preds: map[string]*predArr{}, splits: map[*Expr]*split{}}
	c.accesses = map[*OutcomeNode][]risky{}
	defines := make(map[string]string, len(c.opts.Defines))
	for k, v := range c.opts.Defines {
		defines[k] = v
	}
	c.opts.Defines = defines // the caller's map stays as it was
	// array constants leave the declarations first, so that the folder
	// knows only integer constants
	decls := make([]declRef, 0, len(c.decls))
	for _, dr := range c.decls {
		if d, ok := dr.d.(*ConstDecl); ok && s.constant(d) {
			continue
		}
		decls = append(decls, dr)
	}
	c.decls = decls
	s.q = newQuants(c)
	s.q.arrays = s.byName
	decls = make([]declRef, 0, len(c.decls))
	for _, dr := range c.decls {
		d, ok := dr.d.(*VarDecl)
		if !ok || d.IdxLo == nil {
			decls = append(decls, dr)
			continue
		}
		for _, v := range s.variable(d) {
			decls = append(decls, declRef{v, dr.file})
			c.fileOf[v] = dr.file
		}
	}
	c.decls = decls
	s.q = newQuants(c) // with the elements' names
	s.q.arrays = s.byName
	for _, a := range s.list {
		if !s.q.names[a.name] {
			continue
		}
		var other Ident
		for _, dr := range c.decls {
			switch d := dr.d.(type) {
			case *ConstDecl:
				other = d.Name
			case *VarDecl:
				other = d.Name
			case *PredDecl:
				other = d.Name
			case *ActionDecl:
				other = d.Label
			}
			if other.Name == a.name {
				break
			}
		}
		at, first := Ident{Name: a.name, Pos: a.pos}, other
		if posBefore(at.Pos, other.Pos) {
			at, first = other, at
		}
		c.errorf(at.Pos, identEnd(at), "E0102", "%s is already declared at %s (an array and another declaration share one namespace)", a.name, first.Pos)
	}
	for _, dr := range c.decls {
		if d, ok := dr.d.(*PredDecl); ok && s.preds[d.Name.Name] == nil {
			s.preds[d.Name.Name] = &predArr{cond: d.Cond}
		}
	}
	s.q.quiet = true
	for _, dr := range c.decls {
		if d, ok := dr.d.(*VarDecl); ok {
			s.varRange(d)
		}
	}
	s.q.quiet = false
	s.imported()
	c.arrayConsts = s.folded() // after the variables' ranges: readsVar
	s.base = make(map[string][2]int, len(s.ranges))
	for k, v := range s.ranges {
		s.base[k] = v
	}
	for i, dr := range c.decls {
		if nd := s.decl(dr.d); nd != dr.d {
			c.decls[i].d = nd
			c.fileOf[nd] = dr.file
			if s.bad {
				c.badDecl[nd] = true
			}
		}
	}
}

// folded is the array constants' values, folded. An element must be a
// constant of its first element's type (an integer or a condition), read
// or not: const G = [x, 1] reading a variable, or [true, 1], is an error
// at the element, not only where the model reads it.
func (s *arrays) folded() []symbolic.ArrayConst {
	var out []symbolic.ArrayConst
	s.q.quiet = true
	defer func() { s.q.quiet = false }()
	for _, a := range s.list {
		if a.decl != nil {
			continue
		}
		ac := symbolic.ArrayConst{Name: a.name, Pos: a.pos, Values: make([]int, len(a.elems))}
		ok := true
		for i, e := range a.elems {
			v, isInt := s.q.eval(e, "an array element")
			b, isBool := false, false
			if !isInt {
				b, isBool = s.q.holds(e, "an array element")
			}
			if i == 0 {
				// the array's kind; where its first element folds to
				// neither, as that element reads (the reason below)
				ac.Bool = isBool || !isInt && condShaped(e)
				// read at a variable index, an array constant of
				// conditions splits into a disjunction as a Boolean
				// array does, not into an if over conditions (E0201)
				a.isBool = ac.Bool
			}
			switch {
			case isInt && !ac.Bool:
				ac.Values[i] = v
			case isBool && ac.Bool:
				if b {
					ac.Values[i] = 1
				}
			case isInt || isBool:
				ok = false
				kinds := [2]string{"an integer", "a condition"}
				if isBool {
					kinds[0], kinds[1] = kinds[1], kinds[0]
				}
				s.c.errorf(e.Pos, e.End, "E0207", "element %d of array constant %s, %s, is %s, but its first element is %s; an array constant's elements are all integers or all conditions", i, a.name, shortExpr(e), kinds[0], kinds[1])
			default:
				ok = false
				// the folder's own reason (a division by zero, an index
				// out of range, another array's element), where it has
				// one and the element reads no variable
				errs := s.c.errs
				s.q.quiet = s.readsVar(e)
				if ac.Bool {
					s.q.holds(e, "an array element")
				} else {
					s.q.eval(e, "an array element")
				}
				s.q.quiet = true
				if s.c.errs == errs {
					s.c.errorf(e.Pos, e.End, "E0207", "element %d of array constant %s, %s, is not a constant expression: an array constant's elements fold to integers or conditions and may not read variables", i, a.name, shortExpr(e))
				}
			}
		}
		if ok {
			out = append(out, ac)
		}
	}
	return out
}

// readsVar reports whether e mentions a variable of the model (its range
// entered by varRange or imported).
func (s *arrays) readsVar(e *Expr) bool {
	if e.Kind == EName {
		_, isVar := s.ranges[e.Text]
		return isVar
	}
	for _, a := range e.Args {
		if a != nil && s.readsVar(a) {
			return true
		}
	}
	return false
}

// condShaped reports whether e reads as a condition: true, false, !, &&,
// ||, => or a comparison.
func condShaped(e *Expr) bool {
	switch e.Kind {
	case EBool, ENot:
		return true
	case EParen:
		return condShaped(e.Args[0])
	case EBin:
		switch e.Op {
		case "&&", "||", "=>", "==", "!=", "<", "<=", ">", ">=":
			return true
		}
	}
	return false
}

// imported enters an imported JANI model's variables (their ranges, for
// the intervals of indices) and its arrays, so that the .spec files index
// them as their own.
func (s *arrays) imported() {
	m := s.c.jani
	if m == nil {
		return
	}
	for _, v := range m.Vars {
		s.ranges[v.Name] = [2]int{v.Lo, v.Hi}
		s.bools[v.Name] = v.Bool
	}
	for _, run := range m.VarRuns() {
		if !run.Array || s.byName[run.Name] != nil {
			continue
		}
		first := &m.Vars[run.First]
		a := &array{name: run.Name, pos: first.Pos, lo: run.Lo, hi: run.Lo + run.N - 1,
			decl: &VarDecl{Name: Ident{Name: run.Name, Pos: first.Pos}}, isBool: first.Bool, isEnum: first.Values != nil}
		for i := 0; i < run.N; i++ {
			a.vars = append(a.vars, &VarDecl{Name: Ident{Name: m.Vars[run.First+i].Name, Pos: first.Pos}})
		}
		s.byName[a.name] = a
		s.list = append(s.list, a)
	}
}

// arrayDefines refuses an array value given with -D to a constant that is
// not an array constant, before the other expansions read the constants
// (a schema's range would not fold, and say so less clearly).
func (c *checker) arrayDefines() {
	var bad []string
	for name, v := range c.opts.Defines {
		if !strings.HasPrefix(v, "[") {
			continue
		}
		isArray, isConst := false, false
		for _, dr := range c.decls {
			if d, ok := dr.d.(*ConstDecl); ok && d.Name.Name == name {
				isConst = true
				isArray = isArray || d.Value.Kind == EArray
			}
		}
		switch {
		case !isConst:
			c.cmdErrorf("E0304", "-D %s=%s: %s is no constant of the model; an array value goes to a constant declared with one (const %s = [...])", name, v, name, name)
			bad = append(bad, name)
		case !isArray:
			c.cmdErrorf("E0304", "-D %s=%s: %s is not an array constant; only a constant declared with an array value (const %s = [...]) takes one", name, v, name, name)
			bad = append(bad, name)
		}
	}
	if bad == nil {
		return
	}
	defines := make(map[string]string, len(c.opts.Defines))
	for k, v := range c.opts.Defines {
		defines[k] = v
	}
	for _, name := range bad {
		delete(defines, name)
	}
	c.opts.Defines = defines // the caller's map stays as it was
}

// constant records an array constant; it reports whether d is one.
func (s *arrays) constant(d *ConstDecl) bool {
	c := s.c
	def, set := c.opts.Defines[d.Name.Name]
	if d.Value.Kind != EArray {
		return false
	}
	if old := s.byName[d.Name.Name]; old != nil {
		c.errorf(d.Name.Pos, identEnd(d.Name), "E0102", "array constant %s is already declared at %s", d.Name.Name, old.pos)
		return true
	}
	a := &array{name: d.Name.Name, pos: d.Name.Pos, elems: d.Value.Args}
	if set {
		delete(c.opts.Defines, d.Name.Name)
		elems, err := c.parseArrayDefine(def, d.Name)
		if err != "" {
			c.cmdErrorf("E0304", "-D %s=%s: %s", d.Name.Name, def, err)
		} else {
			a.elems = elems
		}
	}
	a.lo, a.hi = 0, len(a.elems)-1
	s.byName[a.name] = a
	s.list = append(s.list, a)
	return true
}

func posBefore(p, q symbolic.Pos) bool {
	return p.File == q.File && (p.Line < q.Line || p.Line == q.Line && p.Col < q.Col)
}

// parseArrayDefine reads a -D array value, [1, -2, 3], or [red, green] of
// enum values (checked against the constant's type by enums.defines).
func (c *checker) parseArrayDefine(v string, at Ident) ([]*Expr, string) {
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return nil, "an array constant takes an array value, [V, ...]"
	}
	body := strings.TrimSpace(v[1 : len(v)-1])
	if body == "" {
		return nil, "an array has at least one element"
	}
	var out []*Expr
	for i, f := range strings.Split(body, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			// [1,,2] or [1,]: not "element "" is neither an integer
			// nor true or false", which also misled for enum values
			return nil, fmt.Sprintf("element %d is missing: write the elements separated by commas, [V, ...]", i)
		}
		if f == "true" || f == "false" {
			out = append(out, &Expr{Kind: EBool, Text: f, Pos: at.Pos, End: identEnd(at)})
			continue
		}
		if _, ok := c.enumDefine(f); ok {
			out = append(out, &Expr{Kind: EName, Text: f, Pos: at.Pos, End: identEnd(at)})
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Sprintf("element %q is neither an integer nor true or false", f)
		}
		out = append(out, intExpr(n, at.Pos, identEnd(at)))
	}
	return out, ""
}

// intExpr is the literal n (negated when negative) at p .. end.
func intExpr(n int, p, end symbolic.Pos) *Expr {
	if n < 0 && n != math.MinInt {
		lit := &Expr{Kind: EInt, Text: strconv.Itoa(-n), Pos: p, End: end}
		return &Expr{Kind: ENeg, Op: "-", Args: []*Expr{lit}, Pos: p, End: end, Height: 1}
	}
	return &Expr{Kind: EInt, Text: strconv.Itoa(n), Pos: p, End: end}
}

// variable folds an array variable's index range and returns its
// elements' declarations.
func (s *arrays) variable(d *VarDecl) []Decl {
	c := s.c
	what := "the index range of array " + d.Name.Name
	if old := s.byName[d.Name.Name]; old != nil {
		c.errorf(d.Name.Pos, identEnd(d.Name), "E0102", "array %s is already declared at %s", d.Name.Name, old.pos)
		c.badDecl[d] = true
		return nil
	}
	a := &array{name: d.Name.Name, pos: d.Name.Pos, decl: d, isBool: d.Bool, isEnum: d.Type != nil}
	s.byName[a.name] = a
	s.list = append(s.list, a)
	lo, ok1 := s.q.eval(d.IdxLo, what)
	hi, ok2 := s.q.eval(d.IdxHi, what)
	if !ok1 || !ok2 {
		a.bad = true // its uses say nothing more
		c.badDecl[d] = true
		return nil
	}
	n := int64(hi) - int64(lo) + 1
	if n <= 0 || n > MaxArray {
		c.errorf(d.IdxLo.Pos, d.IdxHi.End, "E0802", "array %s has index range %d .. %d: an array has 1 to %d elements", d.Name.Name, lo, hi, MaxArray)
		a.bad = true
		c.badDecl[d] = true
		return nil
	}
	if s.elems+n > MaxArrayElements {
		if s.elems > MaxArrayElements { // reported at the first array over
			a.bad = true
			c.badDecl[d] = true
			return nil
		}
		c.overLimit = true
		c.errorf(d.IdxLo.Pos, d.IdxHi.End, "E0802", "array %s brings the model's array variables to %d elements, more than the %d vigil takes in all; shrink the arrays", d.Name.Name, s.elems+n, MaxArrayElements)
		s.elems = MaxArrayElements + 1
		a.bad = true
		c.badDecl[d] = true
		return nil
	}
	s.elems += n
	a.lo, a.hi = lo, hi
	if c.arrayLo == nil {
		c.arrayLo = map[*VarDecl]int{}
	}
	c.arrayLo[d] = lo
	inits := s.inits(d, a)
	out := make([]Decl, 0, n)
	var t *enumType
	if s.en != nil {
		t = s.en.vars[d]
	}
	for k := lo; ; k++ {
		v := &VarDecl{Span: d.Span, Name: Ident{Name: d.Name.Name + "[" + strconv.Itoa(k) + "]", Pos: d.Name.Pos},
			Bool: d.Bool, Lo: d.Lo, Hi: d.Hi, Type: d.Type}
		if inits != nil {
			v.Init = inits[k-lo]
		}
		if t != nil {
			s.en.vars[v] = t
		}
		if c.badDecl[d] {
			c.badDecl[v] = true
		}
		a.vars = append(a.vars, v)
		out = append(out, v)
		if k == hi {
			break
		}
	}
	return out
}

// inits is the initial value of each element: an array literal, an
// array constant, or one value for all.
func (s *arrays) inits(d *VarDecl, a *array) []*Expr {
	e := d.Init
	for e != nil && e.Kind == EParen {
		e = e.Args[0]
	}
	if e == nil {
		return nil
	}
	var elems []*Expr
	switch {
	case e.Kind == EArray:
		elems = e.Args
	case e.Kind == EName && s.byName[e.Text] != nil && s.byName[e.Text].decl == nil:
		elems = s.byName[e.Text].elems
	case e.Kind == EName && s.byName[e.Text] != nil:
		s.c.errorf(e.Pos, e.End, "E0801", "the initial value of array %s must be constant: an array literal [...], an array constant or one value for every element, not the array variable %s", d.Name.Name, e.Text)
		return nil
	default:
		out := make([]*Expr, a.size())
		for i := range out {
			out[i] = d.Init
		}
		return out
	}
	if len(elems) != a.size() {
		s.c.errorf(d.Init.Pos, d.Init.End, "E0802", "array %s has %d elements (%d .. %d), but its initial value %s has %d", d.Name.Name, a.size(), a.lo, a.hi, shortExpr(d.Init), len(elems))
		return nil
	}
	return elems
}

// shortExpr renders e for a message, cut to a readable length.
func shortExpr(e *Expr) string {
	t := exprString(e)
	if len(t) > 40 {
		t = t[:37] + "..."
	}
	return t
}

// varRange folds a variable's range, quietly (the ranges stage reports
// what is wrong), for the intervals of indices.
func (s *arrays) varRange(d *VarDecl) {
	if d.Bool {
		s.ranges[d.Name.Name] = [2]int{0, 1}
		s.bools[d.Name.Name] = true
		return
	}
	if d.Lo == nil || d.Hi == nil {
		return
	}
	lo, ok1 := s.q.eval(d.Lo, "")
	hi, ok2 := s.q.eval(d.Hi, "")
	if ok1 && ok2 && lo <= hi {
		s.ranges[d.Name.Name] = [2]int{lo, hi}
		if s.intVar == nil && d.Type == nil {
			s.intVar = d
		}
	}
}

// ---- expressions -------------------------------------------------------

func (s *arrays) errorf(p, end symbolic.Pos, code, format string, args ...any) {
	s.bad = true
	s.c.errorf(p, end, code, format, args...)
}

// mk builds a node of the rewritten tree, with its height.
func mk(k ExprKind, op string, at *Expr, args ...*Expr) *Expr {
	e := &Expr{Kind: k, Op: op, Args: args, Pos: at.Pos, End: at.End}
	for _, a := range args {
		e.Height = max(e.Height, a.Height+1)
	}
	return e
}

// or joins conditions with ||, leaving out nil ones and those already
// among the disjuncts.
func or(xs ...*Expr) *Expr {
	var out *Expr
	for _, x := range xs {
		switch {
		case x == nil:
		case out == nil:
			out = x
		case hasDisjunct(out, exprString(x)):
		default:
			out = mk(EBin, "||", x, paren(out), paren(x))
		}
	}
	return out
}

func hasDisjunct(e *Expr, s string) bool {
	for e.Kind == EParen {
		e = e.Args[0]
	}
	if e.Kind == EBin && e.Op == "||" {
		return hasDisjunct(e.Args[0], s) || hasDisjunct(e.Args[1], s)
	}
	return exprString(e) == s
}

// narrow intersects the variables' ranges with what the condition c
// says of them where it holds (its conjuncts NAME op CONST, also under
// !), for the intervals of the indices evaluated only there; restore
// undoes it.
func (s *arrays) narrow(c *Expr) (restore func()) { return s.narrowWhere(c, true) }

// narrowNot is narrow where c does not hold: the right operand of c ||
// b and the else branch of if c then x else y are evaluated only there
// (c's disjuncts NAME op CONST, negated: i >= N || a[i] > 0 reads a[i]
// where i < N). Without it such reads, provably in range, were error
// E0804 outside actions.
func (s *arrays) narrowNot(c *Expr) (restore func()) { return s.narrowWhere(c, false) }

// negated is the comparison that holds where op does not.
var negated = map[string]string{"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}

// narrowWhere narrows the ranges to the states where c has the truth
// value holds, and notes c as a condition of what is evaluated there
// (s.ctx) until restore.
func (s *arrays) narrowWhere(c *Expr, holds bool) (restore func()) {
	if c == nil {
		return noRestore
	}
	s.ctx = append(s.ctx, ctxCond{c, holds})
	n := len(s.ctx)
	pop := func() { s.ctx = s.ctx[:n-1] }
	var saved map[string][2]int // allocated at the first narrowing
	contradiction := false
	var walk func(e *Expr, pos bool)
	walk = func(e *Expr, pos bool) {
		switch {
		case e == nil:
		case e.Kind == EParen:
			walk(e.Args[0], pos)
		case e.Kind == ENot:
			walk(e.Args[0], !pos)
		case e.Kind == EBin && (pos && e.Op == "&&" || !pos && e.Op == "||"):
			// a && b holds: both do; a || b fails: neither holds
			walk(e.Args[0], pos)
			walk(e.Args[1], pos)
		case e.Kind == EBin && comparisons[e.Op] && (e.Args[0].Kind == EName || e.Args[1].Kind == EName):
			x, y, op := e.Args[0], e.Args[1], e.Op
			if !pos {
				op = negated[op]
			}
			if _, isVar := s.ranges[x.Text]; x.Kind != EName || !isVar {
				// the variable on the right: N > i is i < N
				x, y = y, x
				op = mirrored[op]
			}
			r, ok := s.ranges[x.Text]
			if x.Kind != EName || !ok || !s.isConst(y) {
				return
			}
			k, klo, ok := s.interval(y)
			if !ok || k != klo {
				return
			}
			lo, hi := r[0], r[1]
			switch op {
			case "<":
				hi = min(hi, k-1)
			case "<=":
				hi = min(hi, k)
			case ">":
				lo = max(lo, k+1)
			case ">=":
				lo = max(lo, k)
			case "==":
				lo, hi = max(lo, k), min(hi, k)
			case "!=": // only an end of the range can go
				if lo == k {
					lo++
				} else if hi == k {
					hi--
				}
			}
			if k == math.MinInt || k == math.MaxInt {
				return
			}
			if lo > hi {
				// contradictory: the code is never evaluated (x == 4 &&
				// x < 2 && a[x] == 1 never reads a[x]); leave the ranges,
				// and note that an index there takes no value, where a
				// read was E0804, "it takes 4 .. 4 where it is read". (A
				// constant index out of range stays E0803: only a
				// constant that decides makes a read dead, spec.md)
				contradiction = true
				return
			}
			if saved == nil {
				saved = map[string][2]int{}
			}
			if _, done := saved[x.Text]; !done {
				saved[x.Text] = r
			}
			s.ranges[x.Text] = [2]int{lo, hi}
		}
	}
	walk(c, holds)
	if contradiction {
		s.empty++
		pop0 := pop
		pop = func() {
			s.empty--
			pop0()
		}
	}
	if saved == nil {
		return pop
	}
	return func() {
		for name, r := range saved {
			s.ranges[name] = r
		}
		pop()
	}
}

func noRestore() {}

// mirrored is the comparison with its operands swapped: a < b is b > a.
var mirrored = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}

func and(a, b *Expr) *Expr {
	if a == nil || b == nil {
		return nil
	}
	return mk(EBin, "&&", b, paren(a), paren(b))
}

func not(a *Expr) *Expr { return mk(ENot, "!", a, paren(a)) }

func paren(a *Expr) *Expr {
	switch a.Kind {
	case EParen, EName, EInt, EBool:
		return a
	}
	return mk(EParen, "", a, a)
}

// cmp compares an index with a position: a generated comparison.
func cmp(op string, idx *Expr, k int) *Expr {
	e := mk(EBin, op, idx, paren(idx), intExpr(k, idx.Pos, idx.End))
	e.Gen = true
	return e
}

// interval bounds the values of an integer expression over the
// variables' ranges; ok is false when it cannot.
func (s *arrays) interval(e *Expr) (lo, hi int, ok bool) {
	switch e.Kind {
	case EInt:
		v, err := strconv.Atoi(e.Text)
		return v, v, err == nil
	case EParen:
		return s.interval(e.Args[0])
	case EName:
		if r, ok := s.ranges[e.Text]; ok {
			return r[0], r[1], true
		}
		if s.q.consts[e.Text] != nil || s.q.state[e.Text] == 2 {
			s.q.quiet = true
			v, ok := s.q.constant(e, "")
			s.q.quiet = false
			return v, v, ok
		}
	case ENeg:
		if minLiteral(e) {
			return math.MinInt, math.MinInt, true
		}
		a, b, ok := s.interval(e.Args[0])
		x, ok1 := symbolic.NegExact(b)
		y, ok2 := symbolic.NegExact(a)
		return x, y, ok && ok1 && ok2
	case EIf:
		if v, ok := s.constCond(e.Args[0]); ok {
			// only the arm the constant selects is evaluated: the index
			// of a[if N > 3 then 3 else 1] is 1 with N = 2, not 1 .. 3
			// (E0804 outside actions; spec.md, "Indexing")
			if v {
				return s.interval(e.Args[1])
			}
			return s.interval(e.Args[2])
		}
		a, b, ok1 := s.interval(e.Args[1])
		x, y, ok2 := s.interval(e.Args[2])
		return min(a, x), max(b, y), ok1 && ok2
	case ECall:
		if e.Op == "abs" && len(e.Args) == 1 {
			a, b, ok := s.interval(e.Args[0])
			if !ok || a == math.MinInt || b == math.MinInt {
				return 0, 0, false
			}
			switch {
			case a >= 0:
				return a, b, true
			case b <= 0:
				return -b, -a, true
			}
			return 0, max(-a, b), true
		}
		if (e.Op == "min" || e.Op == "max") && len(e.Args) == 2 {
			a, b, ok1 := s.interval(e.Args[0])
			x, y, ok2 := s.interval(e.Args[1])
			if e.Op == "min" {
				return min(a, x), min(b, y), ok1 && ok2
			}
			return max(a, x), max(b, y), ok1 && ok2
		}
	case EBin:
		a, b, ok1 := s.interval(e.Args[0])
		x, y, ok2 := s.interval(e.Args[1])
		if !ok1 || !ok2 {
			return 0, 0, false
		}
		switch e.Op {
		case "+":
			l, okl := symbolic.AddExact(a, x)
			h, okh := symbolic.AddExact(b, y)
			return l, h, okl && okh
		case "-":
			l, okl := symbolic.SubExact(a, y)
			h, okh := symbolic.SubExact(b, x)
			return l, h, okl && okh
		case "*":
			var ps []int
			for _, u := range []int{a, b} {
				for _, v := range []int{x, y} {
					p, ok := symbolic.MulExact(u, v)
					if !ok {
						return 0, 0, false
					}
					ps = append(ps, p)
				}
			}
			return min(ps[0], ps[1], ps[2], ps[3]), max(ps[0], ps[1], ps[2], ps[3]), true
		case "/":
			if x == y && x > 0 {
				return symbolic.FloorDiv(a, x), symbolic.FloorDiv(b, x), true
			}
		}
	}
	return 0, 0, false
}

// constCond folds a condition (rewritten) that mentions no variable:
// true and false, !, &&, ||, => and comparisons of constant integers,
// and an &&, || or => whose left operand folds to a value that decides
// it; ok is false for anything else, and for a constant that does not
// fold (its error is reported where it is lowered).
func (s *arrays) constCond(e *Expr) (v, ok bool) {
	return foldCond(e, true, func(e *Expr) (bool, bool) {
		if !s.isConst(e.Args[0]) || !s.isConst(e.Args[1]) {
			return false, false
		}
		quiet := s.q.quiet
		s.q.quiet = true
		x, ok1 := s.q.eval(e.Args[0], "a comparison")
		y, ok2 := s.q.eval(e.Args[1], "a comparison")
		s.q.quiet = quiet
		if !ok1 || !ok2 {
			return false, false
		}
		return compareInts(e.Op, x, y), true
	})
}

// isConst reports whether e (rewritten) mentions no variable.
func (s *arrays) isConst(e *Expr) bool {
	switch e.Kind {
	case EInt:
		return true
	case EName:
		_, isVar := s.ranges[e.Text]
		return !isVar && (s.q.consts[e.Text] != nil || s.q.state[e.Text] == 2)
	case EParen, ENeg, ECall:
	case EBin:
		switch e.Op {
		case "+", "-", "*", "/":
		default:
			return false
		}
	default:
		return false
	}
	for _, a := range e.Args {
		if !s.isConst(a) {
			return false
		}
	}
	return true
}

// picked is e (rewritten) with each if whose condition folds
// (constCond) replaced by the arm it selects, the other arm never
// evaluated; e itself when it has none. An index that mentions no
// variable once picked folds as the constants do (isConst, q.eval).
// Shared nodes (a case split's index) are picked once.
func (s *arrays) picked(e *Expr) *Expr {
	switch e.Kind {
	case EInt, EName:
		return e // the common index: a variable
	}
	return s.pickedIn(e, map[*Expr]*Expr{})
}

func (s *arrays) pickedIn(e *Expr, done map[*Expr]*Expr) *Expr {
	if len(e.Args) == 0 {
		return e
	}
	if p, ok := done[e]; ok {
		return p
	}
	p := e
	switch e.Kind {
	case EIf:
		if v, ok := s.constCond(e.Args[0]); ok {
			if v {
				p = s.pickedIn(e.Args[1], done)
			} else {
				p = s.pickedIn(e.Args[2], done)
			}
		}
	case EParen, ENeg, ECall, EBin:
		var args []*Expr
		for i, a := range e.Args {
			x := s.pickedIn(a, done)
			if x != a && args == nil {
				args = append([]*Expr(nil), e.Args...)
			}
			if args != nil {
				args[i] = x
			}
		}
		if args != nil {
			cp := *e
			cp.Args = args
			p = &cp
		}
	}
	done[e] = p
	return p
}

// index reads the array of an element reference, reporting a name that
// names none.
func (s *arrays) array(name string, at, end symbolic.Pos) *array {
	if a := s.byName[name]; a != nil {
		return a
	}
	if s.q.names[name] || s.q.state[name] == 2 {
		s.errorf(at, end, "E0801", "%s is not an array: only arrays are indexed, NAME[INDEX]", name)
		return nil
	}
	var cands []string
	for _, a := range s.list {
		cands = append(cands, a.name)
	}
	s.errorf(at, end, "E0801", "undeclared array %s%s", name, didYouMean(name, cands))
	return nil
}

// constIndex folds a constant index and checks it against a's range.
func (s *arrays) constIndex(a *array, idx, at *Expr) (int, bool) {
	k, ok := s.q.eval(idx, "the index of "+a.name)
	if !ok {
		s.bad = true
		return 0, false
	}
	if k < a.lo || k > a.hi {
		if s.dead > 0 {
			return 0, false // never read: the caller's dead read stands
		}
		why := ""
		if s.empty > 0 {
			// under conditions that no state of the ranges meets
			// (x > 5 && j < N, x : 0 .. 3): the read is never made,
			// but only a constant that decides makes it so
			why = "; the conditions it is read under hold in no state of the variables' ranges, but only a constant condition that decides (spec.md, \"Indexing\") makes a read never made: put the constant condition first (j < N && x > 5, not x > 5 && j < N)"
		}
		s.errorf(idx.Pos, idx.End, "E0803", "index %d is outside the range %d .. %d of %s %s%s", k, a.lo, a.hi, a.kind(), a.name, why)
		return 0, false
	}
	return k, true
}

// span is the indices in a's range that idx can take, and whether idx
// may fall below or above the range.
func (s *arrays) span(a *array, idx *Expr) (lo, hi int, below, above bool) {
	l, h, ok := s.interval(idx)
	if !ok {
		return a.lo, a.hi, true, true
	}
	return max(l, a.lo), min(h, a.hi), l < a.lo, h > a.hi
}

// outOfRange is the condition that idx leaves a's range, or nil; at is
// the access as written (a read, or a write's target).
func (s *arrays) outOfRange(a *array, idx *Expr, below, above bool, at risky) *Expr {
	var e *Expr
	if below {
		e = cmp("<", idx, a.lo)
	}
	if above {
		e = or(e, cmp(">", idx, a.hi))
	}
	if e != nil && s.dead == 0 && s.empty == 0 {
		// (a read that is never evaluated is no risk: E0804 names
		// the reads that are)
		at.idx, at.a, at.out = idx, a, e
		at.ctx = append([]ctxCond(nil), s.ctx...)
		at.lo, at.hi, at.ok = s.interval(idx)
		s.risky = append(s.risky, at)
		if s.first == nil && !a.isBool && !a.isEnum && a.decl != nil {
			s.first = a
		}
	}
	return e
}

// read is the case split of a[idx] for a variable index (idx rewritten).
func (s *arrays) read(a *array, idx, at *Expr) (*Expr, *Expr) {
	lo, hi, below, above := s.span(a, idx)
	if !s.chargeIndex(a, idx, hi-lo+2, false, at.Pos, at.End, func() string { return s.c.quote(at) }) {
		return stand(at), nil
	}
	err := s.outOfRange(a, idx, below, above, risky{text: exprString(at), pos: at.Pos})
	if lo > hi {
		// never in range: every evaluation is a range error
		return a.elem(a.lo, at), withText(mk(EBool, "", at), "true")
	}
	if lo == hi {
		return a.elem(lo, at), err // one element in range: it is the value wherever the read is
	}
	if s.deferring {
		s.deferred = append(s.deferred, deferredSplit{a, hi - lo + 1, at})
	} else if !s.chargeSplit(a, hi-lo+1, at) {
		return stand(at), nil
	}
	out := s.split(a, idx, lo, hi, at)
	s.splits[out] = &split{a: a, idx: idx, lo: lo, hi: hi}
	return out, err
}

// deferredSplit is a read of a (at) whose split of n elements is charged
// once the write whose value holds it is known to be at a constant index.
type deferredSplit struct {
	a  *array
	n  int
	at *Expr
}

// chargeDeferred charges the splits of a write's value that assign
// deferred, in order; it reports whether the count stays within
// MaxSplitElements.
func (s *arrays) chargeDeferred() bool {
	for _, d := range s.deferred {
		if !s.chargeSplit(d.a, d.n, d.at) {
			return false
		}
	}
	return true
}

// chargeSplit adds the n elements of a case split of a read of a (at) to
// the model's MaxSplitElements count, and reports whether the count stays
// within the limit. Past it, the read gets error E0802 and the check
// stops there, as at the other size limits.
func (s *arrays) chargeSplit(a *array, n int, at *Expr) bool {
	if s.splitElems > splitLimit {
		s.bad = true
		return false // reported
	}
	s.splitElems += int64(n)
	if s.splitElems <= splitLimit {
		return true
	}
	s.bad = true
	s.c.overLimit = true
	text := s.c.quote(at)
	if r := []rune(text); len(r) > 60 {
		text = string(r[:57]) + "..."
	}
	s.errorf(at.Pos, at.End, "E0802", "the reads at a variable index compare more than %d elements in all, %d of them this read of %s: a read at a variable index is a case split over the elements its index can name (if i == 0 then %s[0] else if i == 1 ...), some 1,000 bytes each once lowered; keep what the model reads in a variable of its own, narrow the index where it is read (i < 10 && %s[i] > 0 compares 10 elements), or read fewer or shorter arrays at variable indices",
		splitLimit, n, text, a.name, a.name)
	return false
}

// split is the case split of a[idx] over the elements lo .. hi (lo <
// hi): `if idx == lo then a[lo] else ... else a[hi]`, or the disjunction
// `idx == lo && a[lo] || ... || idx == hi && a[hi]` for Booleans. Out of
// lo .. hi it is a[hi] (false for Booleans): the read is a range error
// there, or never evaluated.
func (s *arrays) split(a *array, idx *Expr, lo, hi int, at *Expr) *Expr {
	if a.isBool {
		out := and(cmp("==", idx, lo), a.elem(lo, at))
		for k := lo + 1; k <= hi; k++ {
			// the disjuncts differ in k: or's search for a repeated one
			// would only cost time, quadratic in the elements
			out = disj(out, and(cmp("==", idx, k), a.elem(k, at)))
		}
		// at the read: the disjuncts of an array constant are at its
		// elements, and an error in the read's use (B[i] + 1) was shown
		// at the constant's declaration
		return mk(EParen, "", at, out)
	}
	out := a.elem(hi, at)
	for k := hi - 1; k >= lo; k-- {
		out = mk(EIf, "", at, cmp("==", idx, k), a.elem(k, at), out)
	}
	return paren(out)
}

// disj is x || y, as or builds it, for y known not to be among x's
// disjuncts.
func disj(x, y *Expr) *Expr { return mk(EBin, "||", y, paren(x), paren(y)) }

func withText(e *Expr, t string) *Expr {
	e.Text = t
	return e
}

// rewrite returns e with its array reads rewritten and its error
// condition (nil: e never reads out of range).
func (s *arrays) rewrite(e *Expr) (*Expr, *Expr) {
	if e == nil {
		return nil, nil
	}
	switch e.Kind {
	case EIndex:
		a := s.array(e.Text, e.Pos, e.End)
		if a != nil && !a.bad && s.condIndex(e.Text, e.Args[0]) {
			return stand(e), nil
		}
		idx, ierr := s.rewrite(e.Args[0])
		if a == nil {
			return stand(e), nil
		}
		if a.bad {
			s.bad = true
			return stand(e), nil
		}
		if s.isConst(idx) {
			k, ok := s.constIndex(a, idx, e)
			if !ok {
				if s.dead > 0 {
					return s.deadRead(a, e), nil
				}
				return a.elem(a.lo, e), nil
			}
			return a.elem(k, e), ierr
		}
		if s.dead > 0 && hasDead(idx) {
			return s.deadRead(a, e), nil // its index is never evaluated
		}
		v, err := s.read(a, idx, e)
		return v, or(ierr, err)
	case EArray:
		s.errorf(e.Pos, e.End, "E0802", "an array literal is an array constant's value (const NAME = [...]) or an array's initial value, not a value here")
		return stand(e), nil
	case EName:
		if a := s.byName[e.Text]; a != nil {
			if !a.bad {
				s.errorf(e.Pos, e.End, "E0801", "%s is an %s of %d elements: name one, %s[INDEX]", e.Text, a.kind(), a.size(), e.Text)
			}
			s.bad = true
			return stand(e), nil
		}
		if p := s.pred(e.Text); p != nil {
			if p.err != nil && s.dead == 0 {
				for _, r := range p.risky {
					// evaluated where p is, behind p's own conditions
					r.ctx = append(append([]ctxCond(nil), s.ctx...), r.ctx...)
					s.risky = append(s.risky, r)
				}
				if s.first == nil {
					s.first = p.first
				}
			}
			return e, p.err
		}
		return e, nil
	case EBin:
		if (e.Op == "==" || e.Op == "!=") && (s.arrayValued(e.Args[0]) || s.arrayValued(e.Args[1])) {
			return s.compare(e)
		}
		if e.Op == "&&" || e.Op == "||" || e.Op == "=>" {
			a, ea := s.rewrite(e.Args[0])
			if v, ok := s.constCond(a); ok && v == (e.Op == "||") {
				// a decides: b is never evaluated
				s.dead++
				b, _ := s.rewrite(e.Args[1])
				s.dead--
				return s.rebuilt(e, a, b), ea
			}
			var restore func()
			if e.Op == "||" {
				restore = s.narrowNot(a) // b is evaluated only where a fails
			} else {
				restore = s.narrow(a) // b is evaluated only where a holds
			}
			b, eb := s.rewrite(e.Args[1])
			restore()
			var err *Expr
			switch e.Op {
			case "||":
				err = or(ea, and(not(a), eb))
			default:
				err = or(ea, and(a, eb))
			}
			return s.rebuilt(e, a, b), err
		}
	case EIf:
		c, ec := s.rewrite(e.Args[0])
		if v, ok := s.constCond(c); ok {
			// only the arm c selects is evaluated
			if !v {
				s.dead++
			}
			x, ex := s.rewrite(e.Args[1])
			if !v {
				s.dead--
			} else {
				s.dead++
			}
			y, ey := s.rewrite(e.Args[2])
			if v {
				s.dead--
				return s.rebuilt(e, c, x, y), or(ec, ex)
			}
			return s.rebuilt(e, c, x, y), or(ec, ey)
		}
		restore := s.narrow(c)
		x, ex := s.rewrite(e.Args[1])
		restore()
		restore = s.narrowNot(c)
		y, ey := s.rewrite(e.Args[2])
		restore()
		return s.rebuilt(e, c, x, y), or(ec, and(c, ex), and(not(c), ey))
	}
	var err *Expr
	args := rewriteArgs(e.Args, func(x *Expr) *Expr {
		y, ey := s.rewrite(x)
		err = or(err, ey)
		return y
	})
	if args == nil {
		return e, err
	}
	return s.rebuilt(e, args...), err
}

// deadRead is what stands for the read e of a that is never evaluated:
// an EDead that prints as the read was written (a[3], a[N + 1], a[K[3]])
// and has the type of a's elements, never a value. The array's first
// element stood there, which named a[0] in messages, made 4 / K[3] a
// division by 0 where K[0] is 0, and bounded a never-incurred cost.
func (s *arrays) deadRead(a *array, e *Expr) *Expr {
	return &Expr{Kind: EDead, Text: exprString(e), Args: []*Expr{a.elem(a.lo, e)}, Pos: e.Pos, End: e.End, Height: 1}
}

// hasDead reports whether e (rewritten) reads a dead read. Case splits
// share their index (a[a[a[i]]]): each node is visited once, in time
// linear in the expression's graph, not its tree.
func hasDead(e *Expr) bool {
	var seen map[*Expr]bool
	if e.Height > 2 {
		seen = map[*Expr]bool{}
	}
	return hasDeadIn(e, seen)
}

func hasDeadIn(e *Expr, seen map[*Expr]bool) bool {
	if e.Kind == EDead {
		return true
	}
	if len(e.Args) == 0 {
		return false
	}
	if seen != nil {
		if seen[e] {
			return false
		}
		seen[e] = true
	}
	for _, a := range e.Args {
		if hasDeadIn(a, seen) {
			return true
		}
	}
	return false
}

// condIndex reports an index that is a condition (E0201): an index is
// an integer or an enum value. a[flag] and a[i < 2] were reported on the
// case split they lower to ("flag == 0 compares a condition with a
// integer"), which the model does not contain.
func (s *arrays) condIndex(name string, idx *Expr) bool {
	var cond func(e *Expr) bool
	cond = func(e *Expr) bool {
		switch e.Kind {
		case EParen:
			return cond(e.Args[0])
		case EBool, ENot:
			return true
		case EBin:
			return comparisons[e.Op] || e.Op == "&&" || e.Op == "||" || e.Op == "=>"
		case EName:
			return s.bools[e.Text] || s.preds[e.Text] != nil
		case EIndex:
			a := s.byName[e.Text]
			return a != nil && a.isBool
		}
		return false
	}
	if !cond(idx) {
		return false
	}
	s.errorf(idx.Pos, idx.End, "E0201", "the index of %s must be an integer or an enum value, but %s is a condition", name, shortExpr(idx))
	return true
}

// rebuilt is e with new arguments (e itself when they are its own).
func (s *arrays) rebuilt(e *Expr, args ...*Expr) *Expr {
	same := true
	for i, a := range args {
		same = same && a == e.Args[i]
	}
	if same {
		return e
	}
	n := &Expr{Kind: e.Kind, Op: e.Op, Text: e.Text, Args: args, Pos: e.Pos, End: e.End}
	for _, a := range args {
		n.Height = max(n.Height, a.Height+1)
	}
	return n
}

// stand is what stands in for a reported mistake: an integer 0.
func stand(e *Expr) *Expr { return &Expr{Kind: EInt, Text: "0", Pos: e.Pos, End: e.End} }

// arrayValued reports whether e is a whole array: an array's name or an
// array literal.
func (s *arrays) arrayValued(e *Expr) bool {
	for e.Kind == EParen {
		e = e.Args[0]
	}
	return e.Kind == EArray || e.Kind == EName && s.byName[e.Text] != nil
}

// badArray reports whether e names an array whose declaration is wrong.
func (s *arrays) badArray(e *Expr) bool {
	for e.Kind == EParen {
		e = e.Args[0]
	}
	return e.Kind == EName && s.byName[e.Text] != nil && s.byName[e.Text].bad
}

// elements are the elements of a whole array, in index order.
func (s *arrays) elements(e *Expr) []*Expr {
	for e.Kind == EParen {
		e = e.Args[0]
	}
	if e.Kind == EArray {
		return e.Args
	}
	a := s.byName[e.Text]
	out := make([]*Expr, a.size())
	for k := a.lo; k <= a.hi; k++ {
		out[k-a.lo] = a.elem(k, e)
	}
	return out
}

// compare expands a == b (or !=) of two whole arrays element by element.
func (s *arrays) compare(e *Expr) (*Expr, *Expr) {
	l, r := e.Args[0], e.Args[1]
	if s.badArray(l) || s.badArray(r) {
		s.bad = true
		return withText(mk(EBool, "", e), "false"), nil
	}
	if !s.arrayValued(l) || !s.arrayValued(r) {
		s.errorf(e.Pos, e.End, "E0801", "%s compares an array with a single value; compare two arrays of one length, or name an element, NAME[INDEX]", shortExpr(e))
		return withText(mk(EBool, "", e), "false"), nil
	}
	xs, ys := s.elements(l), s.elements(r)
	if len(xs) != len(ys) {
		s.errorf(e.Pos, e.End, "E0802", "%s compares arrays of %d and %d elements", shortExpr(e), len(xs), len(ys))
		return withText(mk(EBool, "", e), "false"), nil
	}
	var terms []*Expr
	var err *Expr
	for i := range xs {
		x, ex := s.rewrite(xs[i])
		y, ey := s.rewrite(ys[i])
		err = or(err, ex, ey)
		terms = append(terms, mk(EBin, e.Op, e, paren(x), paren(y)))
	}
	op := "&&"
	if e.Op == "!=" {
		op = "||"
	}
	if len(terms) == 1 {
		return paren(terms[0]), err
	}
	return paren(balance(terms, op)), err
}

// pred rewrites a predicate once (nil when name is none).
func (s *arrays) pred(name string) *predArr {
	p := s.preds[name]
	if p == nil || p.state == 1 {
		return nil // not a predicate, or a cycle (the types stage reports it)
	}
	if p.state == 2 {
		return p
	}
	p.state = 1
	// a predicate means the same wherever it is used: rewritten over the
	// variables' whole ranges, not those narrowed where it is first used,
	// and as evaluated, even where it is first used in an operand that
	// is not (N > 3 && p || p: p's constant index out of range stood as
	// the array's first element in both uses, without E0803)
	risky, first, bad, ranges, dead, empty, ctx := s.risky, s.first, s.bad, s.ranges, s.dead, s.empty, s.ctx
	s.risky, s.first, s.bad, s.ranges, s.dead, s.empty, s.ctx = nil, nil, false, make(map[string][2]int, len(s.base)), 0, 0, nil
	for k, v := range s.base {
		s.ranges[k] = v
	}
	// a predicate is lowered once, wherever it is used: its reads are
	// charged to MaxSplitElements even where it is first used in an
	// element write's value
	deferring := s.deferring
	s.deferring = false
	p.cond, p.err = s.rewrite(p.cond)
	s.deferring = deferring
	p.risky, p.first = s.risky, s.first
	s.risky, s.first, s.bad, s.ranges, s.dead, s.empty, s.ctx = risky, first, bad, ranges, dead, empty, ctx
	p.state = 2
	return p
}

// ---- declarations ------------------------------------------------------

// decl returns d with its arrays rewritten (d itself when it has none).
func (s *arrays) decl(d Decl) Decl {
	s.bad = false
	switch d := d.(type) {
	case *ConstDecl:
		if v := s.safe(d.Value, "constant "+d.Name.Name); v != d.Value {
			cp := *d
			cp.Value = v
			return &cp
		}
	case *VarDecl:
		lo, hi := s.safe(d.Lo, "a range"), s.safe(d.Hi, "a range")
		init := s.safe(d.Init, "an initial value")
		if lo != d.Lo || hi != d.Hi || init != d.Init {
			cp := *d
			cp.Lo, cp.Hi, cp.Init = lo, hi, init
			return &cp
		}
	case *PredDecl:
		if p := s.pred(d.Name.Name); p != nil && p.cond != d.Cond {
			cp := *d
			cp.Cond = p.cond
			return &cp
		}
	case *ActionDecl:
		return s.action(d)
	case *PolicyDecl:
		return s.policy(d)
	case *PropertyDecl:
		return rewriteClauses(d, func(e *Expr) *Expr { return s.safe(e, "property "+d.Name.Name) })
	}
	return d
}

// safe rewrites an expression outside commands, where every index must
// stay in range (E0804).
func (s *arrays) safe(e *Expr, where string) *Expr {
	if e == nil {
		return nil
	}
	s.risky, s.first = nil, nil
	v, err := s.rewrite(e)
	if err != nil && len(s.risky) > 0 {
		// the index's values where it is read, not over the whole
		// ranges: i >= 2 || a[i] reads a[i] where i takes 0 .. 1
		r := s.risky[0]
		vals := "any value"
		if r.ok {
			vals = fmt.Sprintf("%d .. %d", r.lo, r.hi)
		}
		s.errorf(r.idx.Pos, r.idx.End, "E0804", "index %s may leave its array's range (it takes %s where it is read); outside actions, in %s, an index must stay in range: name the elements, e.g. exists k in LO .. HI: %s == k && ..., or narrow the index", shortExpr(r.idx), vals, where, shortExpr(r.idx))
	}
	return v
}

// policy rewrites a policy's rules and inputs; an input naming whole
// arrays stands for one input per element (the arrays have one length).
func (s *arrays) policy(d *PolicyDecl) Decl {
	changed := false
	items := make([]*PolicyItem, len(d.Items))
	for i, it := range d.Items {
		cp := *it
		cp.When = s.safe(it.When, "policy "+d.Name.Name)
		if it.Inputs != nil {
			cp.Inputs = nil
			for _, e := range it.Inputs {
				for _, x := range s.inputs(e) {
					cp.Inputs = append(cp.Inputs, s.safe(x, "policy "+d.Name.Name))
				}
			}
		}
		same := cp.When == it.When && len(cp.Inputs) == len(it.Inputs)
		for j := range cp.Inputs {
			same = same && cp.Inputs[j] == it.Inputs[j]
		}
		if same {
			items[i] = it
			continue
		}
		items[i], changed = &cp, true
	}
	if !changed {
		return d
	}
	cp := *d
	cp.Items = items
	return &cp
}

// inputs expands an input that names whole arrays into one input per
// element, in index order.
func (s *arrays) inputs(e *Expr) []*Expr {
	var found *array
	ok := true
	var walk func(x *Expr)
	walk = func(x *Expr) {
		if x.Kind == EName {
			if a := s.byName[x.Text]; a != nil {
				if a.bad {
					s.bad, ok = true, false
					return
				}
				if found != nil && found.size() != a.size() {
					s.errorf(x.Pos, x.End, "E0802", "policy input %s names arrays of %d and %d elements; an input stands for one input per element of arrays of one length", shortExpr(e), found.size(), a.size())
					ok = false
				}
				if found == nil {
					found = a
				}
			}
		}
		for _, y := range x.Args {
			walk(y)
		}
	}
	walk(e)
	if found == nil || !ok {
		return []*Expr{e}
	}
	out := make([]*Expr, found.size())
	for i := range out {
		var sub func(x *Expr) *Expr
		sub = func(x *Expr) *Expr {
			if x.Kind == EName {
				if a := s.byName[x.Text]; a != nil {
					return a.elem(a.lo+i, x)
				}
				return x
			}
			args := rewriteArgs(x.Args, sub)
			if args == nil {
				return x
			}
			return s.rebuilt(x, args...)
		}
		out[i] = sub(e)
	}
	return out
}

// writer is one assignment of an outcome to an array element.
type writer struct {
	a      *array
	k      int   // a constant index
	idx    *Expr // a variable index (rewritten), nil for a constant one
	lo, hi int   // the elements a variable index can name
	val    *Expr
	as     *AssignNode
}

// action rewrites a command (see the file comment).
func (s *arrays) action(d *ActionDecl) Decl {
	s.risky, s.first = nil, nil
	guard, gerr := s.rewrite(d.Guard)
	gfirst := s.first
	changed := guard != d.Guard
	outcomes := make([]*OutcomeNode, len(d.Outcomes))
	restore := s.narrow(guard) // outcomes are evaluated where the guard holds
	defer restore()
	// a guard that folds to false (j < N && ... of a schema's j >= N)
	// makes the command never applicable: its outcomes are never
	// evaluated, and a constant index out of range there, read or
	// written, is no error (spec.md, "Indexing")
	never := false
	if v, ok := s.constCond(guard); ok && !v && gerr == nil {
		never = true
		s.dead++
		defer func() { s.dead-- }()
	}
	guardRisky := len(s.risky)
	for i, o := range d.Outcomes {
		s.first = nil
		mark := len(s.risky)
		no, oerr := s.outcome(o)
		first := gfirst
		if first == nil {
			first = s.first
		}
		if never {
			oerr = nil // never evaluated
			if len(no.Assigns) == 0 && !no.Skip {
				cp := *no
				cp.Skip = true // its writes were never made
				no = &cp
			}
		}
		if err := or(gerr, oerr); err != nil {
			no = s.carry(no, err, first, d)
			// the range error's message names these (lower.go)
			acc := append(append([]risky(nil), s.risky[:guardRisky]...), s.risky[mark:]...)
			if len(acc) > 0 {
				s.c.accesses[no] = acc
			}
		}
		outcomes[i] = no
		changed = changed || no != o
	}
	if gerr != nil {
		guard = or(gerr, guard)
		if d.Guard == nil {
			guard = nil // no guard: always applicable
		}
	}
	cost := d.Cost
	if cost != nil {
		risky, first := s.risky, s.first
		cost = s.safe(d.Cost, "the cost of action "+d.Label.Name)
		s.risky, s.first = risky, first
	}
	out := d
	if changed || cost != d.Cost {
		cp := *d
		cp.Guard, cp.Outcomes, cp.Cost = guard, outcomes, cost
		out = &cp
	}
	if never {
		if s.c.never == nil {
			s.c.never = map[*ActionDecl]bool{}
		}
		s.c.never[out] = true
	}
	return out
}

// outcome rewrites one outcome; it returns its error condition.
func (s *arrays) outcome(o *OutcomeNode) (*OutcomeNode, *Expr) {
	w := &outcomeWrites{s: s}
	for _, as := range o.Assigns {
		w.assign(as)
	}
	if !w.changed {
		return o, w.err
	}
	w.overlaps()
	cp := *o
	cp.Assigns = append(w.assigns, w.elementAssigns()...)
	cp.Skip = o.Skip && len(cp.Assigns) == 0
	return &cp, w.err
}

// outcomeWrites gathers what the assignments of one outcome do.
type outcomeWrites struct {
	s       *arrays
	assigns []*AssignNode // the assignments of scalar variables, rewritten
	writers []*writer     // the writes of array elements, in order
	err     *Expr         // where the outcome reads or writes out of range
	changed bool          // some assignment was rewritten
}

// assign records one assignment of the outcome.
func (w *outcomeWrites) assign(as *AssignNode) {
	s := w.s
	a := s.byName[as.Var.Name]
	if a != nil && a.bad {
		s.bad = true
		return
	}
	var val *Expr
	if as.Index != nil || a == nil {
		var verr *Expr
		// the reads of an element write's value are charged to
		// MaxSplitElements only if the write is at a constant index
		// (chargeDeferred): at a variable index the write gives each
		// element a copy of the value, or of the element a split picks
		// there (specializer), which MaxArrayWriteNodes counts
		s.deferring, s.deferred = as.Index != nil, s.deferred[:0]
		val, verr = s.rewrite(as.Value)
		s.deferring = false
		w.err = or(w.err, verr)
	}
	switch {
	case as.Index == nil && a == nil:
		if val != as.Value {
			w.changed = true
			as = &AssignNode{Pos: as.Pos, Var: as.Var, Value: val}
		}
		w.assigns = append(w.assigns, as)
		return
	case a != nil && a.decl == nil:
		s.errorf(as.Var.Pos, identEnd(as.Var), "E0801", "%s is an array constant; only variables are assigned", as.Var.Name)
		return
	case as.Index == nil:
		w.changed = true
		w.wholeArray(a, as)
		return
	}
	w.changed = true
	if a == nil {
		s.array(as.Var.Name, as.Var.Pos, identEnd(as.Var))
		return
	}
	if s.condIndex(a.name, as.Index) {
		return
	}
	idx, ierr := s.rewrite(as.Index)
	w.err = or(w.err, ierr)
	if p := s.picked(idx); p != idx && s.isConst(p) {
		// an index that folds once its ifs with a constant condition
		// take the arm they select (a[if N > 3 then 0 else 1], a
		// count, which expands to a sum of such ifs, a forall's
		// a[if k < 2 then k else 0]) is a constant index like a[1]:
		// two writes of one element are E0401 naming the element,
		// not a range error in every state the command runs in
		idx = p
	}
	if s.isConst(idx) {
		if k, ok := s.constIndex(a, idx, as.Index); ok && s.chargeDeferred() {
			w.writers = append(w.writers, &writer{a: a, k: k, val: val, as: as})
		}
		return
	}
	lo, hi, below, above := s.span(a, idx)
	// each element the index can name gets a copy of the index (if idx
	// == k then ...), as do its range checks
	if !s.chargeIndex(a, idx, hi-lo+3, true, as.Var.Pos, as.Index.End, func() string { return a.name + "[" + s.c.quote(as.Index) + "]'" }) {
		return
	}
	w.err = or(w.err, s.outOfRange(a, idx, below, above, risky{text: a.name + "[" + exprString(as.Index) + "]", pos: as.Var.Pos, write: true}))
	w.writers = append(w.writers, &writer{a: a, idx: idx, lo: lo, hi: hi, val: val, as: as})
}

// wholeArray records the assignment of a whole array a: on' = [..],
// on' = GOAL, on' = other; one writer per element.
func (w *outcomeWrites) wholeArray(a *array, as *AssignNode) {
	s := w.s
	if !s.arrayValued(as.Value) {
		s.errorf(as.Value.Pos, as.Value.End, "E0801", "%s is an array of %d elements: assign it a whole array ([...], an array constant or another array), or one element, %s[INDEX]' = ...", a.name, a.size(), a.name)
		return
	}
	if s.badArray(as.Value) {
		s.bad = true
		return
	}
	xs := s.elements(as.Value)
	if len(xs) != a.size() {
		s.errorf(as.Value.Pos, as.Value.End, "E0802", "array %s has %d elements, but %s has %d", a.name, a.size(), shortExpr(as.Value), len(xs))
		return
	}
	for i, x := range xs {
		v, ex := s.rewrite(x)
		w.err = or(w.err, ex)
		w.writers = append(w.writers, &writer{a: a, k: a.lo + i, val: v, as: as})
	}
}

// overlaps adds to the error condition where two writers write one
// element: where their indices meet. Two constant indices that are equal
// are E0401 (once per element).
func (w *outcomeWrites) overlaps() {
	var vars []int // the writers with a variable index: a whole array's writers meet only them
	type elem struct {
		a *array
		k int
	}
	consts := map[elem]*writer{}
	for i, x := range w.writers {
		if x.idx != nil {
			vars = append(vars, i)
			continue
		}
		// two constant indices that coincide (a[1]' = 1, a[N - 2]'
		// = 2 with N = 3; a' = [...], a[0]' = 1): the element
		// assignments kept the last write, and no error was given
		// (not in a command whose guard folds to false, never
		// applicable: its writes are never made, as an index out of
		// range there is no error; a schema's boundary instance
		// a[i]' = 0, a[min(i + 1, N)]' = 1 when i < N at i = N)
		e := elem{x.a, x.k}
		if y := consts[e]; y != nil {
			if y.as != x.as && w.s.dead == 0 {
				end := identEnd(x.as.Var)
				if x.as.Index != nil {
					end = x.as.Index.End
				}
				xt, yt := w.s.texts(x, y)
				w.s.errorf(x.as.Var.Pos, end, "E0401", "%s[%d] is assigned twice in one outcome: by %s here and by %s at %d:%d; write each element once", x.a.name, x.k, xt, yt, y.as.Var.Pos.Line, y.as.Var.Pos.Col)
			}
			continue
		}
		consts[e] = x
	}
	for i, x := range w.writers {
		// the pairs (y, x) of earlier writers y, one of them with a
		// variable index, in the order of the writers
		var ys []*writer
		if x.idx != nil {
			ys = w.writers[:i]
		} else {
			for _, j := range vars {
				if j < i {
					ys = append(ys, w.writers[j])
				}
			}
		}
		for _, y := range ys {
			if y.a != x.a || x.idx == nil && y.idx == nil {
				continue
			}
			if x.idx != nil && y.idx != nil {
				if max(x.lo, y.lo) <= min(x.hi, y.hi) {
					meet := gened(mk(EBin, "==", x.idx, paren(x.idx), paren(y.idx)))
					w.err = or(w.err, meet)
					w.clash(y, x, y.idx, meet)
				}
				continue
			}
			v, c := x, y // the variable index and the constant one
			if v.idx == nil {
				v, c = y, x
			}
			if v.lo <= c.k && c.k <= v.hi {
				meet := cmp("==", v.idx, c.k)
				w.err = or(w.err, meet)
				w.clash(y, x, v.idx, meet)
			}
		}
	}
}

// clash records that the writers y and x (y first) write one element
// where meet holds, at index idx, for the range error's message
// (symbolic.ArrayAccess.With): it named the carrier, "sets a[0] to 4",
// rather than the two writes.
func (w *outcomeWrites) clash(y, x *writer, idx, meet *Expr) {
	s := w.s
	if s.dead != 0 || s.empty != 0 {
		return
	}
	yt, xt := s.texts(y, x)
	s.risky = append(s.risky, risky{idx: idx, a: y.a, text: yt, pos: y.as.Var.Pos, write: true, out: meet,
		with: xt, withPos: x.as.Var.Pos})
	if s.first == nil && !y.a.isBool && !y.a.isEnum {
		s.first = y.a
	}
}

// texts are the targets of two writers x and y for a message, as
// written: a[i], a[count k in 0 .. 3: k < N - 1] (the source text, not
// the count's expansion), or a for a whole array. Two copies of one
// write (a forall's terms, at one place) print their instances
// instead, a[if 0 < 2 then 0 else 0] and a[if 2 < 2 then 2 else 0],
// which the source text would not tell apart.
func (s *arrays) texts(x, y *writer) (string, string) {
	if x.as.Var.Pos == y.as.Var.Pos {
		return x.text(exprString), y.text(exprString)
	}
	return x.text(s.c.quote), y.text(s.c.quote)
}

// text is the writer's target, its index printed by show: a[i], or a
// for a whole array.
func (wr *writer) text(show func(*Expr) string) string {
	if wr.as.Index == nil {
		return wr.a.name
	}
	return wr.a.name + "[" + show(wr.as.Index) + "]"
}

// elementAssigns returns one assignment per element written, in the
// writers' order: a constant writer's value is the default, else the
// element keeps its value, and each writer with a variable index
// overrides it where its index names the element.
func (w *outcomeWrites) elementAssigns() []*AssignNode {
	type target struct {
		a *array
		k int
	}
	var order []target
	byElem := map[target][]*writer{}
	for _, wr := range w.writers {
		lo, hi := wr.k, wr.k
		if wr.idx != nil {
			lo, hi = wr.lo, wr.hi
		}
		for k := lo; k <= hi; k++ {
			t := target{wr.a, k}
			if byElem[t] == nil {
				order = append(order, t)
			}
			byElem[t] = append(byElem[t], wr)
		}
	}
	spec := map[*writer]*specializer{}
	for _, wr := range w.writers {
		if wr.idx != nil {
			spec[wr] = w.s.specializer(wr)
		}
	}
	var assigns []*AssignNode
	for n, t := range order {
		if n%1024 == 1023 && w.s.c.interrupted() {
			return assigns // the load stops: what is left is never lowered
		}
		ws := byElem[t]
		at := ws[0].as
		var val *Expr
		for _, wr := range ws {
			if wr.idx == nil {
				val = wr.val
			}
		}
		if val == nil {
			val = t.a.elem(t.k, at.Value)
		}
		for i := len(ws) - 1; i >= 0; i-- {
			wr := ws[i]
			if wr.idx == nil {
				continue
			}
			hit := cmp("==", wr.idx, t.k)
			v := spec[wr].at(wr.val, t.k)
			if t.a.isBool {
				val = disj(and(hit, v), and(cmp("!=", wr.idx, t.k), val))
			} else {
				val = mk(EIf, "", wr.val, hit, v, val)
			}
		}
		if !w.s.countWrite(val, ws) {
			return assigns // past the limit: the check stops (overLimit)
		}
		name := t.a.vars[t.k-t.a.lo].Name.Name
		assigns = append(assigns, &AssignNode{Pos: at.Pos, Var: Ident{Name: name, Pos: at.Var.Pos}, Value: val})
	}
	return assigns
}

// countWrite adds the tree size of an element's assigned value val (ws,
// its writers) to the model's count, and reports whether it stays within
// MaxArrayWriteNodes; past it, the first writer at a variable index gets
// error E0802 and the check stops there, as at the other size limits.
func (s *arrays) countWrite(val *Expr, ws []*writer) bool {
	if s.writeNodes > MaxArrayWriteNodes {
		return false
	}
	s.writeNodes += s.treeSize(val)
	if s.writeNodes <= MaxArrayWriteNodes {
		return true
	}
	wr := ws[0]
	for _, x := range ws {
		if x.idx != nil {
			wr = x
			break
		}
	}
	s.c.overLimit = true
	s.errorf(wr.as.Pos, wr.as.Value.End, "E0802", "the writes of %s at a variable index lower to more than %d expression nodes in all (each element of %s gets its own copy of the written value, and a value that reads an array at an index the write's index does not determine, such as %s[i]' = %s[j], holds a case split over that array's elements: about 5 N^2 nodes for N elements, some 170 bytes each); read the array at the written index (%s[i]' = %s[i] + 1 lowers to N small assignments), or shrink the arrays",
		wr.a.name, MaxArrayWriteNodes, wr.a.name, wr.a.name, wr.a.name, wr.a.name, wr.a.name)
	return false
}

// chargeIndex adds to the model's MaxIndexCopyNodes count the copies
// that a read or write of a at the index idx (rewritten) makes of it; it
// reports whether the count stays within the limit. Past it, the access
// (as quote gives it, at p .. end) gets error E0802 and the check stops
// there, as at the other size limits. An index of one node (a variable,
// a constant) is not counted, nor a write's index of at most
// maxIndexNodes nodes (MaxArrayWriteNodes counts its copies, in the
// element assignments). Small indices were not counted either (at
// most maxIndexNodes nodes), as if their copies were bounded by the
// split's elements: one read of a 54-node index (i + j + ... + i) / 30
// over 100,000 elements copied 5.4 million nodes, 1.2 GB, and each more
// read as much again (MaxArrayElements bounds an array, not the reads of
// it).
func (s *arrays) chargeIndex(a *array, idx *Expr, copies int, write bool, p, end symbolic.Pos, quote func() string) bool {
	if s.indexCopies > MaxIndexCopyNodes {
		s.bad = true
		return false // reported
	}
	n := s.treeSize(idx)
	if n <= 1 || write && n <= maxIndexNodes {
		return true
	}
	s.indexCopies = min(s.indexCopies+n*int64(max(copies, 1)), 1<<60)
	if s.indexCopies <= MaxIndexCopyNodes {
		return true
	}
	s.bad = true
	s.c.overLimit = true
	text := quote()
	// the index as written, for the way out: j' = b[i], then a[j]
	inner := strings.TrimPrefix(strings.TrimSuffix(strings.TrimSuffix(text, "'"), "]"), a.name+"[")
	if len([]rune(inner)) > 40 || !strings.HasPrefix(text, a.name+"[") {
		inner = "INDEX"
	}
	if r := []rune(text); len(r) > 60 { // cut at a character, not in one
		text = string(r[:57]) + "..."
	}
	if n <= maxIndexNodes {
		// not nested: an index of some nodes, read over many elements,
		// or read often
		s.errorf(p, end, "E0802", "the index of %s has %d expression nodes, and the copies the model makes of its indices pass %d nodes: a read or write at a variable index compares the index with each element it can name (%s has %d), copying it each time; compute the index into a variable in an earlier step (j' = INDEX, then %s[j]), or read fewer elements at variable indices",
			text, n, MaxIndexCopyNodes, a.name, a.size(), a.name)
		return false
	}
	s.errorf(p, end, "E0802", "the index of %s lowers to a case split of %d expression nodes, and the copies the model makes of such indices pass %d nodes: a read or write at a variable index compares the index with each element it can name (%s has %d), copying it each time, so reads nested d deep in arrays of N elements lower to about N^d nodes; store an inner index in a variable in an earlier step (j' = %s, then %s[j]: linear in N, where the nested read is N^d in any lowering, as the lowered model's trees share no parts), or nest fewer reads",
		text, n, MaxIndexCopyNodes, a.name, a.size(), inner, a.name)
	return false
}

// treeSize is e's number of nodes counted as a tree (a shared node once
// per use), memoized per node and capped far below overflow.
func (s *arrays) treeSize(e *Expr) int64 {
	if n, ok := s.treeNodes[e]; ok {
		return n
	}
	if s.treeNodes == nil {
		s.treeNodes = map[*Expr]int64{}
	}
	n := int64(1)
	for _, a := range e.Args {
		n = min(n+s.treeSize(a), 1<<60)
	}
	s.treeNodes[e] = n
	return n
}

// A writer's value where its index names element k. The assignment of
// element k is `a[k]' = if idx == k then v else ...`, so v is evaluated
// only where idx == k; there a read of an array at idx (or at idx + C)
// reads element k (k + C), and when idx is a variable plus a constant,
// i + D, a read whose index depends on i alone reads one element too.
// The specializer replaces those case splits by the element they pick,
// so that `a[i]' = a[i] + 1` lowers to N assignments of constant size,
// not N case splits of N elements. It keeps the value exact in every
// state where idx == k, range errors included: a split whose index
// falls outside its elements evaluates to its last element (false for
// Booleans), and so does its replacement (see split). What it cannot
// replace (a read at an index the write's index does not determine,
// a[j] in `a[i]' = a[j]`) stays the one shared node it was.
type specializer struct {
	s     *arrays
	idx   *Expr           // the writer's index
	vars  map[string]bool // the variables idx reads
	bound string          // idx is bound + off ("" when idx is not of that form)
	off   int
	memo  map[*Expr]bool // whether a node reads a variable of vars
}

// Limits of the specializer: it takes indices of at most maxIndexVars
// variables and maxIndexNodes nodes (i, r * W + c; not a case split),
// and folds an index of at most maxIndexNodes nodes.
const (
	maxIndexVars  = 4
	maxIndexNodes = 64
)

// specializer returns the specializer of a writer with a variable index,
// nil when its index is too large to specialize on (its value is then
// shared by all elements, as before).
func (s *arrays) specializer(wr *writer) *specializer {
	vars := map[string]bool{}
	if !s.smallVars(wr.idx, vars, maxIndexVars) {
		return nil
	}
	p := &specializer{s: s, idx: wr.idx, vars: vars, memo: map[*Expr]bool{}}
	p.bound, p.off, _ = s.offsetVar(wr.idx)
	return p
}

// smallVars adds the variables e reads to vars, and reports whether e
// has at most maxIndexNodes nodes and vars at most max variables.
func (s *arrays) smallVars(e *Expr, vars map[string]bool, max int) bool {
	n := 0
	var walk func(e *Expr) bool
	walk = func(e *Expr) bool {
		if n++; n > maxIndexNodes {
			return false
		}
		if e.Kind == EName {
			if _, ok := s.ranges[e.Text]; ok {
				vars[e.Text] = true
			}
		}
		for _, a := range e.Args {
			if !walk(a) {
				return false
			}
		}
		return true
	}
	return walk(e) && len(vars) <= max
}

// offsetVar reads e as a variable plus a constant, v, v + C, C + v or
// v - C.
func (s *arrays) offsetVar(e *Expr) (string, int, bool) {
	for e.Kind == EParen {
		e = e.Args[0]
	}
	switch {
	case e.Kind == EName:
		_, ok := s.ranges[e.Text]
		return e.Text, 0, ok
	case e.Kind != EBin || e.Op != "+" && e.Op != "-":
		return "", 0, false
	}
	x, y := e.Args[0], e.Args[1]
	if e.Op == "+" && s.isConst(x) {
		x, y = y, x
	}
	if !s.isConst(y) {
		return "", 0, false
	}
	c, c2, ok := s.interval(y)
	if !ok || c != c2 {
		return "", 0, false
	}
	v, d, ok := s.offsetVar(x)
	if !ok {
		return "", 0, false
	}
	r, ok := symbolic.AddExact(d, c)
	if e.Op == "-" {
		r, ok = symbolic.SubExact(d, c)
	}
	return v, r, ok
}

// specializeWrites turns the specializer on; the differential test turns
// it off to compare with the lowering that shares a writer's value.
var specializeWrites = true

// at is v, a value of the writer, where the writer's index is k.
func (p *specializer) at(v *Expr, k int) *Expr {
	if p == nil || !specializeWrites || !p.reads(v) {
		return v
	}
	if sp := p.s.splits[v]; sp != nil {
		idx := p.at(sp.idx, k)
		if c, ok := p.value(idx, k); ok {
			return sp.pick(c, v)
		}
		if idx == sp.idx {
			return v
		}
		return p.s.split(sp.a, idx, sp.lo, sp.hi, v)
	}
	args := rewriteArgs(v.Args, func(x *Expr) *Expr { return p.at(x, k) })
	if args == nil {
		return v
	}
	n := p.s.rebuilt(v, args...)
	n.Gen = v.Gen
	return n
}

// pick is the element a split reads where its index is c: the split's
// value there (see split), v's place.
func (sp *split) pick(c int, v *Expr) *Expr {
	switch {
	case sp.lo <= c && c <= sp.hi:
		return sp.a.elem(c, v)
	case sp.a.isBool:
		return withText(mk(EBool, "", v), "false")
	}
	return sp.a.elem(sp.hi, v)
}

// reads reports whether v reads a variable of the writer's index.
func (p *specializer) reads(v *Expr) bool {
	if r, ok := p.memo[v]; ok {
		return r
	}
	r := v.Kind == EName && p.vars[v.Text]
	for _, a := range v.Args {
		r = p.reads(a) || r
	}
	p.memo[v] = r
	return r
}

// value is the value of the index idx where the writer's index is k, if
// that determines it: idx is the writer's index plus a constant, or
// reads no variable but the one the writer's index is an offset of.
func (p *specializer) value(idx *Expr, k int) (int, bool) {
	if d, ok := p.offset(idx, 0); ok {
		return symbolic.AddExact(k, d)
	}
	if p.bound == "" {
		return 0, false
	}
	v, ok := symbolic.SubExact(k, p.off)
	vars := map[string]bool{}
	if !ok || !p.s.smallVars(idx, vars, 1) || len(vars) == 1 && !vars[p.bound] {
		return 0, false
	}
	r := p.s.ranges[p.bound]
	p.s.ranges[p.bound] = [2]int{v, v}
	lo, hi, ok := p.s.interval(idx)
	p.s.ranges[p.bound] = r
	return lo, ok && lo == hi
}

// offset reads idx as the writer's index plus a constant D (depth counts
// the constants added, at most maxIndexNodes).
func (p *specializer) offset(idx *Expr, depth int) (int, bool) {
	for idx.Kind == EParen {
		idx = idx.Args[0]
	}
	if sameExpr(idx, p.idx) {
		return 0, true
	}
	if depth > maxIndexNodes || idx.Kind != EBin || idx.Op != "+" && idx.Op != "-" {
		return 0, false
	}
	x, y := idx.Args[0], idx.Args[1]
	if idx.Op == "+" && p.s.isConst(x) {
		x, y = y, x
	}
	if !p.s.isConst(y) {
		return 0, false
	}
	c, c2, ok := p.s.interval(y)
	if !ok || c != c2 {
		return 0, false
	}
	d, ok := p.offset(x, depth+1)
	if !ok {
		return 0, false
	}
	if idx.Op == "-" {
		return symbolic.SubExact(d, c)
	}
	return symbolic.AddExact(d, c)
}

// sameExpr reports whether x and y are the same expression, parentheses
// aside (y small: the writer's index).
func sameExpr(x, y *Expr) bool {
	for x.Kind == EParen {
		x = x.Args[0]
	}
	for y.Kind == EParen {
		y = y.Args[0]
	}
	if x == y {
		return true
	}
	if x.Kind != y.Kind || x.Op != y.Op || x.Text != y.Text || len(x.Args) != len(y.Args) {
		return false
	}
	for i := range x.Args {
		if !sameExpr(x.Args[i], y.Args[i]) {
			return false
		}
	}
	return true
}

func gened(e *Expr) *Expr {
	e.Gen = true
	return e
}

// carry makes outcome o a range error where err holds: a carrier
// variable is set one above its range there. The carrier is the first
// element of the first array of integers read or written out of range
// (first), else the model's first integer variable.
func (s *arrays) carry(o *OutcomeNode, err *Expr, first *array, d *ActionDecl) *OutcomeNode {
	var carrier *VarDecl
	if first != nil {
		carrier = first.vars[0]
	} else {
		carrier = s.intVar
	}
	if carrier == nil {
		s.errorf(d.Label.Pos, identEnd(d.Label), "E0804", "action %s may read or write an array out of its range, which is a range error, but the model has no integer variable to report it on; keep the index in range", d.Label.Name)
		return o
	}
	name := carrier.Name.Name
	at := err
	one := &Expr{Kind: EInt, Text: "1", Pos: at.Pos, End: at.End}
	over := mk(EBin, "+", carrier.Hi, paren(carrier.Hi), one)
	var assigns []*AssignNode
	found := false
	for _, as := range o.Assigns {
		if as.Var.Name == name && !found {
			found = true
			as = &AssignNode{Pos: as.Pos, Var: as.Var, Value: paren(mk(EIf, "", as.Value, err, over, as.Value))}
		}
		assigns = append(assigns, as)
	}
	if !found {
		keep := &Expr{Kind: EName, Text: name, Pos: at.Pos, End: at.End}
		assigns = append(assigns, &AssignNode{Pos: o.Start, Var: Ident{Name: name, Pos: o.Start}, Value: paren(mk(EIf, "", at, err, over, keep))})
	}
	cp := *o
	cp.Assigns = assigns
	cp.Skip = false
	return &cp
}
