package lang

// Enum types: `type color = { red, green, blue }`. They cost the rest of
// the front end nothing: before the checker's stages run, each value
// becomes a constant (red = 0, green = 1, blue = 2, in order) and each
// `var c : color` the integer variable `var c : 0 .. 2`, so that the
// stages, the lowering and every engine see integers (a network sees the
// index). What enums add is checked here, after the checker's types
// stage has resolved every name:
//
//	enumPrepare  (before the stages) enters the values as constants,
//	             gives enum variables their ranges, and reports unknown
//	             type names, values declared twice and -D on a value;
//	enumCheck    (after them) gives every expression its enum type, if
//	             any, and reports a comparison, assignment or initial
//	             value that mixes two enums or an enum and an integer,
//	             and arithmetic on enum values (E0211); policy inputs may
//	             scale an enum variable, which a network sees as its
//	             index;
//	enumLower    records the value names on the lowered variables, so
//	             that states print `c=green`.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"vigil/symbolic"
)

func init() { keywords["type"] = true }

// enumType is one declared enum type.
type enumType struct {
	decl  *TypeDecl
	file  *File
	index map[string]int
}

func (t *enumType) String() string { return t.decl.Name.Name }

func (t *enumType) names() []string {
	out := make([]string, 0, len(t.decl.Values))
	for _, v := range t.decl.Values {
		if t.index[v.Name] == len(out) {
			out = append(out, v.Name)
		}
	}
	return out
}

// badEnum is the type of an expression whose error is already reported:
// it agrees with every type, so that one mistake gives one error.
var badEnum = &enumType{decl: &TypeDecl{Name: Ident{Name: "?"}}}

// enums is what enumPrepare learnt, for enumCheck and enumLower.
type enums struct {
	types  map[string]*enumType
	values map[*ConstDecl]*enumType // the constants that are values
	vars   map[*VarDecl]*enumType
	// memo of the enum type of a constant declared from an enum value
	// (const START = red); nil entries are integers
	consts map[*ConstDecl]*enumType
}

// enumPrepare rewrites the checker's declaration list before its stages
// run: a type declaration becomes one constant per value, and enum
// variables get their ranges. It returns nil when the files declare no
// enum type and use none.
func (c *checker) enumPrepare() *enums {
	en := &enums{types: map[string]*enumType{}, values: map[*ConstDecl]*enumType{}, vars: map[*VarDecl]*enumType{}, consts: map[*ConstDecl]*enumType{}}
	used := false
	for _, dr := range c.decls {
		switch d := dr.d.(type) {
		case *TypeDecl:
			used = true
			if old := en.types[d.Name.Name]; old != nil {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0102", "type %s is already declared at %s", d.Name.Name, old.decl.Name.Pos)
				continue
			}
			if keywords[d.Name.Name] {
				c.errorf(d.Name.Pos, identEnd(d.Name), "E0103", "%q is a keyword and cannot name a type", d.Name.Name)
				continue
			}
			en.types[d.Name.Name] = &enumType{decl: d, file: dr.file, index: map[string]int{}}
		case *VarDecl:
			used = used || d.Type != nil
		}
	}
	if !used {
		return nil
	}
	decls := make([]declRef, 0, len(c.decls))
	for _, dr := range c.decls {
		d, ok := dr.d.(*TypeDecl)
		if !ok {
			decls = append(decls, dr)
			continue
		}
		t := en.types[d.Name.Name]
		if t == nil || t.decl != d {
			continue
		}
		for i, v := range d.Values {
			if j, dup := t.index[v.Name]; dup {
				c.errorf(v.Pos, identEnd(v), "E0102", "value %s of type %s is already declared (value %d)", v.Name, d.Name.Name, j)
				continue
			}
			t.index[v.Name] = i
			cd := &ConstDecl{Span: span{Start: v.Pos, End: identEnd(v)}, Name: v, Value: &Expr{Kind: EInt, Text: strconv.Itoa(i), Pos: v.Pos, End: identEnd(v)}}
			en.values[cd] = t
			c.fileOf[cd] = dr.file
			decls = append(decls, declRef{cd, dr.file})
		}
	}
	c.decls = decls
	defines := make(map[string]string, len(c.opts.Defines))
	for k, v := range c.opts.Defines {
		defines[k] = v
	}
	c.opts.Defines = defines // the caller's map stays as it was
	for name := range c.opts.Defines {
		for _, t := range en.types {
			if _, ok := t.index[name]; ok {
				c.cmdErrorf("E0304", "-D %s: %s is a value of type %s, not a constant; -D cannot change it", name, name, t)
				delete(c.opts.Defines, name)
			}
		}
	}
	en.defines(c)
	for _, dr := range c.decls {
		d, ok := dr.d.(*VarDecl)
		if !ok || d.Type == nil {
			continue
		}
		t := en.types[d.Type.Name]
		if t == nil {
			c.unknownType(en, d)
			c.badDecl[d] = true
			// a range that checks, so that later stages say nothing more
			d.Lo = &Expr{Kind: EInt, Text: "0", Pos: d.Type.Pos, End: identEnd(*d.Type)}
			d.Hi = d.Lo
			continue
		}
		en.vars[d] = t
		d.Lo = &Expr{Kind: EInt, Text: "0", Pos: d.Type.Pos, End: identEnd(*d.Type)}
		d.Hi = &Expr{Kind: EInt, Text: strconv.Itoa(len(t.decl.Values) - 1), Pos: d.Type.Pos, End: identEnd(*d.Type)}
	}
	return en
}

// defines checks the -D values of constants of enum type, which name
// values of it (-D START=red, -D SEQ=[red,green]; the folders read them
// through enumDefine and parseArrayDefine), and the -D values that name
// an enum value for a constant that is not of its type. A wrong value is
// E0304, naming the type and its values, and leaves the constant as
// declared.
func (en *enums) defines(c *checker) {
	consts := map[string]*ConstDecl{}
	for _, dr := range c.decls {
		if d, ok := dr.d.(*ConstDecl); ok && en.values[d] == nil {
			consts[d.Name.Name] = d
		}
	}
	for _, name := range sortedKeys(c.opts.Defines) {
		v := c.opts.Defines[name]
		d := consts[name]
		if d == nil {
			continue // not a constant: the consts stage says so
		}
		if msg := en.defineError(d, v, consts); msg != "" {
			c.cmdErrorf("E0304", "-D %s=%s: %s", name, v, msg)
			c.badDefine = true
			delete(c.opts.Defines, name)
		}
	}
}

// defineError says what is wrong with the -D value v of constant d ("" if
// nothing the enums decide): a value of d's enum type for a constant of
// enum type, a list of them for an array constant of enum values.
func (en *enums) defineError(d *ConstDecl, v string, consts map[string]*ConstDecl) string {
	if d.Value != nil && d.Value.Kind == EArray {
		if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
			return "" // the array stage says what an array constant takes
		}
		var t *enumType
		if len(d.Value.Args) > 0 {
			t = en.syntaxType(d.Value.Args[0], consts, 0)
		}
		for _, f := range strings.Split(v[1:len(v)-1], ",") {
			if strings.TrimSpace(f) == "" {
				// [] or [red,,blue]: the array stage says what is
				// missing (it named "" as no value of the type)
				return ""
			}
			if msg := en.valueError(strings.TrimSpace(f), t, d.Name.Name+"'s elements"); msg != "" {
				return msg
			}
		}
		return ""
	}
	return en.valueError(v, en.syntaxType(d.Value, consts, 0), d.Name.Name)
}

// valueError checks one -D value f given to what (a constant, or an
// array constant's elements) of enum type t (nil: integers).
func (en *enums) valueError(f string, t *enumType, what string) string {
	_, err := strconv.Atoi(f)
	isInt := err == nil || f == "true" || f == "false" || strings.HasPrefix(f, "-")
	switch {
	case t == nil && isInt:
		return ""
	case t == nil:
		if u := en.typeOfValue(f); u != nil {
			return fmt.Sprintf("%s is a value of type %s, but %s; give an integer", f, u, integers(what))
		}
		return "" // not a value of any enum: the folders say what a value must be
	case isInt:
		return fmt.Sprintf("%s %s type %s: give %s, not the integer %s", what, hasOrHave(what), t, valueList(t), f)
	}
	if _, ok := t.index[f]; ok {
		return ""
	}
	if u := en.typeOfValue(f); u != nil {
		return fmt.Sprintf("%s %s type %s, and %s is a value of type %s; give %s", what, hasOrHave(what), t, f, u, valueList(t))
	}
	return fmt.Sprintf("%s is no value of type %s, the type of %s; give %s%s", f, t, what, valueList(t), didYouMean(f, t.names()))
}

// integers says that what (a constant, or an array constant's elements)
// is of no enum type.
func integers(what string) string {
	if strings.HasSuffix(what, "'s elements") {
		return what + " are integers"
	}
	return what + " is an integer constant"
}

func hasOrHave(what string) string {
	if strings.HasSuffix(what, "'s elements") {
		return "have"
	}
	return "has"
}

// valueList is "one of red, green, blue" (or "red" for one value).
func valueList(t *enumType) string {
	ns := t.names()
	if len(ns) == 1 {
		return ns[0]
	}
	return "one of " + strings.Join(ns, ", ")
}

// typeOfValue is the enum type with the value name, nil if none.
func (en *enums) typeOfValue(name string) *enumType {
	for _, tn := range sortedKeys(en.types) {
		if _, ok := en.types[tn].index[name]; ok {
			return en.types[tn]
		}
	}
	return nil
}

// syntaxType is the enum type of a constant's declared value as written:
// a value, or a constant defined by one (const START = green, const S2 =
// START, const S3 = SEQ[0]), through parentheses and the then arm of an
// if; nil otherwise (an
// integer, or a value enumCheck finds wrong). depth bounds the chain (a
// cycle is reported by the consts stage).
func (en *enums) syntaxType(e *Expr, consts map[string]*ConstDecl, depth int) *enumType {
	if e == nil || depth > MaxDepth {
		return nil
	}
	switch e.Kind {
	case EParen:
		return en.syntaxType(e.Args[0], consts, depth+1)
	case EIf:
		return en.syntaxType(e.Args[1], consts, depth+1)
	case EName:
		if t := en.typeOfValue(e.Text); t != nil {
			return t
		}
		if d := consts[e.Text]; d != nil {
			return en.syntaxType(d.Value, consts, depth+1)
		}
	case EIndex:
		// an element of an array constant: const S = SEQ[0]
		if d := consts[e.Text]; d != nil && d.Value != nil && d.Value.Kind == EArray && len(d.Value.Args) > 0 {
			return en.syntaxType(d.Value.Args[0], consts, depth+1)
		}
	}
	return nil
}

// enumDefine reads a -D value that names an enum value (checked by
// enums.defines): its index.
func (c *checker) enumDefine(v string) (int, bool) {
	if c.en == nil {
		return 0, false
	}
	if t := c.en.typeOfValue(v); t != nil {
		return t.index[v], true
	}
	return 0, false
}

// unknownType reports a variable's type that names no enum type.
func (c *checker) unknownType(en *enums, d *VarDecl) {
	id := *d.Type
	var cands []string
	for name := range en.types {
		cands = append(cands, name)
	}
	for _, dr := range c.decls {
		if cd, ok := dr.d.(*ConstDecl); ok && cd.Name.Name == id.Name && en.values[cd] == nil {
			c.errorf(id.Pos, identEnd(id), "E0106", "%s is a constant, not a type: a range is written LO .. HI, e.g. 0 .. %s", id.Name, id.Name)
			return
		}
	}
	c.errorf(id.Pos, identEnd(id), "E0101", "undeclared type %s%s; declare it with type %s = { ... }, or write a range LO .. HI", id.Name, didYouMean(id.Name, cands), id.Name)
}

// enumCheck reports the misuses of enum values (E0211). It runs after the
// checker's stages, on the declarations they did not find wrong.
func (c *checker) enumCheck(en *enums) {
	for name, t := range en.types {
		if s := c.syms[name]; s != nil {
			c.errorf(t.decl.Name.Pos, identEnd(t.decl.Name), "E0102", "type %s has the name of the %s at %s; give one of them another name", name, c.symKindName(s), s.pos)
		}
	}
	for _, dr := range c.decls {
		if c.badDecl[dr.d] {
			continue
		}
		switch d := dr.d.(type) {
		case *ConstDecl:
			if en.values[d] == nil {
				en.of(c, d.Value)
			}
		case *VarDecl:
			t := en.vars[d]
			if t == nil && d.Lo != nil {
				c.wantInt(en, d.Lo, "a range bound")
				c.wantInt(en, d.Hi, "a range bound")
			}
			if d.Init != nil && !d.Bool {
				c.wantType(en, d.Init, t, "the initial value of "+d.Name.Name)
			}
		case *PredDecl:
			en.of(c, d.Cond)
		case *ActionDecl:
			en.of(c, d.Guard)
			if d.Cost != nil {
				c.wantInt(en, d.Cost, "the cost of action "+d.Label.Name)
			}
			for _, o := range d.Outcomes {
				for _, as := range o.Assigns {
					s := c.syms[as.Var.Name]
					if s == nil || s.kind != symVar || s.isBool {
						en.of(c, as.Value)
						continue
					}
					var t *enumType
					if s.vdecl != nil {
						t = en.vars[s.vdecl]
					}
					c.wantType(en, as.Value, t, as.Var.Name+"'")
				}
			}
		case *PolicyDecl:
			for _, it := range d.Items {
				en.of(c, it.When)
				// inputs may scale an enum variable: the network sees the index
			}
		case *PropertyDecl:
			for _, cl := range d.Clauses {
				en.of(c, cl.Cond)
			}
		}
	}
}

// wantType checks that e, given to something of enum type want (nil: an
// integer), has that type.
func (c *checker) wantType(en *enums, e *Expr, want *enumType, what string) {
	got := en.of(c, e)
	switch {
	case got == want || got == badEnum:
	case want == nil:
		c.errorf(e.Pos, e.End, "E0211", "%s is an integer; %s is a value of type %s", what, exprString(e), got)
	case got == nil:
		c.errorf(e.Pos, e.End, "E0211", "%s has type %s: give it one of %s, not the integer %s", what, want, strings.Join(want.names(), ", "), exprString(e))
	default:
		c.errorf(e.Pos, e.End, "E0211", "%s has type %s; %s is a value of type %s", what, want, exprString(e), got)
	}
}

func (c *checker) wantInt(en *enums, e *Expr, what string) {
	if t := en.of(c, e); t != nil && t != badEnum {
		c.errorf(e.Pos, e.End, "E0211", "%s is an integer; %s is a value of type %s", what, exprString(e), t)
	}
}

var comparisons = map[string]bool{"==": true, "!=": true, "<": true, "<=": true, ">": true, ">=": true}

// of returns the enum type of e (nil for integers and conditions),
// reporting misuses inside it. Each node is visited once per call; the
// recursion is as deep as the tree, which the parser bounds.
func (en *enums) of(c *checker, e *Expr) *enumType {
	if e == nil {
		return nil
	}
	if e.Memo.Checked && typ(e.Memo.T) == tErr {
		return badEnum // the types stage reported it
	}
	switch e.Kind {
	case EName:
		s := c.syms[e.Text]
		if s == nil {
			return badEnum // undeclared: reported
		}
		switch {
		case s.kind == symVar && s.vdecl != nil:
			return en.vars[s.vdecl]
		case s.kind == symConst && s.cdecl != nil:
			return en.constType(c, s.cdecl)
		}
		return nil
	case EParen, EDead:
		return en.of(c, e.Args[0]) // a dead read has its array's element type
	case EIf:
		en.of(c, e.Args[0])
		a, b := en.of(c, e.Args[1]), en.of(c, e.Args[2])
		if a == badEnum || b == badEnum {
			return badEnum
		}
		if a != b {
			c.errorf(e.Pos, e.End, "E0211", "the branches of if have different types: %s and %s", typeName(a), typeName(b))
			return badEnum
		}
		return a
	case EBin:
		a, b := en.of(c, e.Args[0]), en.of(c, e.Args[1])
		switch {
		case comparisons[e.Op]:
			if a != b && a != badEnum && b != badEnum && !e.Gen {
				c.errorf(e.Pos, e.End, "E0211", "%s compares %s with %s; compare values of one type", exprString(e), typeDesc(a), typeDesc(b))
			}
			return nil
		case e.Op == "&&" || e.Op == "||" || e.Op == "=>":
			return nil
		}
		return en.arith(c, []*Expr{e.Args[0], e.Args[1]}, []*enumType{a, b})
	case ENeg, ECall:
		ts := make([]*enumType, len(e.Args))
		for i, x := range e.Args {
			ts[i] = en.of(c, x)
		}
		return en.arith(c, e.Args, ts)
	case ENot:
		en.of(c, e.Args[0])
	}
	return nil
}

// arith reports the enum operands of an arithmetic operation; the
// result is an integer, or badEnum when an error was reported in it.
func (en *enums) arith(c *checker, args []*Expr, ts []*enumType) *enumType {
	var out *enumType
	for i, t := range ts {
		switch {
		case t == badEnum:
			out = badEnum
		case t != nil:
			c.errorf(args[i].Pos, args[i].End, "E0211", "arithmetic on %s, a value of type %s: enum values are compared (==, !=, <, ...) and assigned, never computed with", exprString(args[i]), t)
			out = badEnum
		}
	}
	return out
}

// constType is the enum type of a constant: a value's own type, or the
// type of the expression defining it (const START = red).
func (en *enums) constType(c *checker, d *ConstDecl) *enumType {
	if t := en.values[d]; t != nil {
		return t
	}
	if t, ok := en.consts[d]; ok {
		return t
	}
	en.consts[d] = nil // a cycle (reported by consts) reads as an integer
	t := en.of(c, d.Value)
	en.consts[d] = t
	return t
}

func typeName(t *enumType) string { // never badEnum
	if t == nil {
		return "integer"
	}
	return t.String()
}

func typeDesc(t *enumType) string {
	if t == nil {
		return "an integer"
	}
	return "a value of type " + t.String()
}

// enumLower records the value names on the lowered enum variables.
func (c *checker) enumLower(en *enums, m *symbolic.Model) {
	for _, s := range c.vars {
		if s.vdecl == nil {
			continue
		}
		if t := en.vars[s.vdecl]; t != nil {
			m.Vars[s.id].Values = t.names()
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
