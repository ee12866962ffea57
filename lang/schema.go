package lang

// Action schemas: `action move(b in 0 .. N-1, to in 0 .. N) when ... -> ...`
// declares one command per parameter tuple, of label `move[b,to]` with the
// values written in (`move[0,3]`), the parameters read as constants in the
// guard and the outcomes. `action move[0, 3] ...` declares one such label
// directly (it is how the lowered model prints). Policies name labels
// (`move[0, 3]`, constant indices), whole families (`move`: all its labels)
// or slices (`outputs move[*, 3]`), always in row-major order: the labels
// of a family sorted by their index tuples.
//
// Like enums (enum.go), schemas cost the checker's stages nothing: before
// they run, schemaPrepare replaces each schema by its commands and each
// policy that names families by one that names labels. The parameter
// ranges and label indices are constant expressions; literals are read
// directly, others folded by a second checker on a fresh parse of the
// same files (stages resolve and consts only), whose diagnostics about
// those expressions are kept. Expanded
// commands share every subexpression that mentions no parameter, so a
// mistake there is reported once, not once per command.

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// MaxExpansion is the most commands one schema may expand to.
const MaxExpansion = 100_000

// MaxExpansionTotal is the most commands the schemas of a model may
// expand to in all: a few hundred schemas of MaxExpansion commands each
// would take the front end's memory.
const MaxExpansionTotal = 250_000

// family is every label of one name that has an index: a schema's
// and those declared as `action move[0, 3]`.
type family struct {
	name   string
	arity  int
	pos    symbolic.Pos // the first declaration
	tuples map[string][]int
	params []*Param // of the first schema, for messages
	ranges [][2]int
}

// sorted returns the family's index tuples in row-major order.
func (f *family) sorted() [][]int {
	out := make([][]int, 0, len(f.tuples))
	for _, t := range f.tuples {
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		for k := range a {
			if a[k] != b[k] {
				return a[k] < b[k]
			}
		}
		return false
	})
	return out
}

// labelName is the label of one tuple: move[0,3].
func labelName(name string, t []int) string {
	var b strings.Builder
	b.WriteString(name)
	b.WriteByte('[')
	for i, v := range t {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(v))
	}
	b.WriteByte(']')
	return b.String()
}

// usesSchemas reports whether the files declare or name indexed labels.
func (c *checker) usesSchemas() bool {
	for _, dr := range c.decls {
		switch d := dr.d.(type) {
		case *ActionDecl:
			if d.Params != nil || d.Index != nil || d.For != nil {
				return true
			}
		case *PolicyDecl:
			for _, it := range d.Items {
				if it.OutputIdx != nil || it.LabelIdx != nil {
					return true
				}
			}
		}
	}
	return false
}

// schemaPrepare expands schemas and indexed label references in the
// checker's declaration list (see the file comment).
func (c *checker) schemaPrepare() {
	if !c.usesSchemas() {
		return
	}
	s := &schemas{c: c, fams: map[string]*family{}}
	s.expand()
	if s.c2 != nil {
		for _, d := range s.c2.diags[s.mark:] {
			if d.Severity == Error {
				c.errs++
			}
			c.diags = append(c.diags, d)
		}
	}
}

type schemas struct {
	c     *checker
	total int // the commands the schemas expanded so far expand to
	fams  map[string]*family
	plain map[string]symbolic.Pos // labels declared without an index
	names map[string]declName     // the top-level names, for parameters

	q2 *quants // expands the quantifiers of folded expressions, in c2

	// the folding checker, built when a constant expression is more than
	// a literal, on a fresh parse (the checker's memo lives in the syntax
	// tree, and this one must not leave its marks there): twin maps each
	// declaration to its copy, mark is where its own diagnostics start
	c2   *checker
	twin map[Decl]Decl
	mark int
}

// folder builds the folding checker (stages resolve and consts).
func (s *schemas) folder() bool {
	if s.c2 != nil {
		return true
	}
	c := s.c
	var files2 []*File
	s.twin = map[Decl]Decl{}
	for _, f := range c.files {
		f2, _ := Parse(f.Path, f.Src)
		if f2 == nil || len(f2.Decls) != len(f.Decls) {
			return false // cannot happen: the same text parsed before
		}
		files2 = append(files2, f2)
		for i, d := range f.Decls {
			s.twin[d] = f2.Decls[i]
		}
	}
	c2 := newChecker(files2, c.opts)
	c2.jani, c2.janiName = c.jani, c.janiName
	c2.errs = -1 << 30 // never capped: its errors are the checker's
	c2.enumPrepare()
	// only the constants are folded: the quantifiers of the rest would be
	// expanded for nothing (at blocks -D N=1000, half a million terms).
	// Errors are discarded: the checker reports them.
	all, idx := c2.decls, []int(nil)
	c2.decls = nil
	for i, dr := range all {
		if _, ok := dr.d.(*ConstDecl); ok {
			idx = append(idx, i)
			c2.decls = append(c2.decls, dr)
		}
	}
	c2.quantPrepare()
	for k, i := range idx {
		all[i] = c2.decls[k]
	}
	c2.decls = all
	c2.resolve()
	c2.consts()
	s.c2, s.mark = c2, len(c2.diags)
	return true
}

// fold folds the constant expression e of declaration d; pick finds the
// same expression in d's twin. Literals need no folding checker. Every
// failure is reported: a bound or index that does not fold drops its
// action or rule, which must never happen silently.
func (s *schemas) fold(e *Expr, d Decl, pick func(Decl) *Expr, what string) (int, bool) {
	if v, ok := literal(e); ok {
		return v, true
	}
	var e2 *Expr
	if s.folder() {
		if d2 := s.twin[d]; d2 != nil {
			e2 = pick(d2)
		}
	}
	if e2 == nil { // cannot happen: the declaration was parsed from its file
		s.c.errorf(e.Pos, e.End, "E0207", "%s, %s, cannot be folded to a constant here; write its value as a constant", what, exprString(e))
		return 0, false
	}
	if s.q2 == nil {
		s.q2 = newQuants(s.c2)
	}
	e2 = s.q2.top(e2) // quantifiers with constant bounds, as elsewhere
	if s.q2.failed {
		return 0, false // reported
	}
	// the consts stage knows no array: an element of an array constant
	// (K[1]), also through a constant defined by one (const M = K[1]),
	// is folded by the quantifiers' folder, which reads array constants
	// (with their -D values) as the array stage will
	if findKind(e2, EIndex, EArray) != nil || s.arrayInConst(e2, map[string]bool{}) {
		return s.q2.eval(e2, what)
	}
	return s.c2.constExpr(e2, what)
}

// arrayInConst reports whether the value of a constant that e names,
// directly or through other constants, reads an array element or literal.
func (s *schemas) arrayInConst(e *Expr, seen map[string]bool) bool {
	if e == nil {
		return false
	}
	if e.Kind == EName && !seen[e.Text] {
		seen[e.Text] = true
		if d := s.q2.consts[e.Text]; d != nil && d.Value != nil {
			if findKind(d.Value, EIndex, EArray) != nil || s.arrayInConst(d.Value, seen) {
				return true
			}
		}
	}
	for _, a := range e.Args {
		if s.arrayInConst(a, seen) {
			return true
		}
	}
	return false
}

// findKind is the first node of e (depth first) of one of the kinds.
func findKind(e *Expr, kinds ...ExprKind) *Expr {
	if e == nil {
		return nil
	}
	for _, k := range kinds {
		if e.Kind == k {
			return e
		}
	}
	for _, a := range e.Args {
		if f := findKind(a, kinds...); f != nil {
			return f
		}
	}
	return nil
}

// literal reads an integer literal, possibly negated or in parentheses.
func literal(e *Expr) (int, bool) {
	switch {
	case e == nil:
	case minLiteral(e):
		return math.MinInt, true
	case e.Kind == EInt:
		v, err := strconv.Atoi(e.Text)
		return v, err == nil
	case e.Kind == ENeg || e.Kind == EParen:
		if v, ok := literal(e.Args[0]); ok {
			if e.Kind == ENeg {
				return -v, v != math.MinInt
			}
			return v, true
		}
	}
	return 0, false
}

func (s *schemas) expand() {
	c := s.c
	s.plain = map[string]symbolic.Pos{}
	out := make([]declRef, 0, len(c.decls))
	// first pass: families and their tuples, commands
	expanded := map[Decl][]Decl{}
	type planned struct {
		d      *ActionDecl
		ranges [][2]int
	}
	var later []planned
	for _, dr := range c.decls {
		d, ok := dr.d.(*ActionDecl)
		if !ok {
			continue
		}
		if d.Params == nil && d.Index == nil {
			if _, ok := s.plain[d.Label.Name]; !ok {
				s.plain[d.Label.Name] = d.Label.Pos
			}
		}
		switch {
		case d.Params != nil || d.For != nil:
			if ranges, ok := s.schema(d); ok {
				later = append(later, planned{d, ranges})
			} else {
				expanded[d] = nil
			}
		case d.Index != nil:
			expanded[d] = s.concrete(d)
		}
	}
	// schemas expand once every one is known to fit the limits: one past
	// them stops the checker (load.go), and the commands of those before
	// it would be built for nothing
	for _, p := range later {
		if c.overLimit || c.interrupted() {
			expanded[p.d] = nil
			continue
		}
		expanded[p.d] = s.commands(p.d, p.ranges)
	}
	for name, f := range s.fams {
		if p, ok := s.plain[name]; ok {
			c.errorf(p, p, "E0702", "label %s is declared without an index here and as a family of %d-index labels at %s; give them different names", name, f.arity, f.pos)
		}
	}
	for _, dr := range c.decls {
		switch d := dr.d.(type) {
		case *ActionDecl:
			if ex, ok := expanded[d]; ok {
				for _, e := range ex {
					out = append(out, declRef{e, dr.file})
					c.fileOf[e] = dr.file
				}
				continue
			}
		case *PolicyDecl:
			if p := s.policy(d); p != d {
				out = append(out, declRef{p, dr.file})
				c.fileOf[p] = dr.file
				continue
			}
		}
		out = append(out, dr)
	}
	c.decls = out
}

// family returns the family of name, creating it with the given arity;
// it reports a declaration whose arity differs.
func (s *schemas) family(id Ident, arity int) *family {
	f := s.fams[id.Name]
	if f == nil {
		f = &family{name: id.Name, arity: arity, pos: id.Pos, tuples: map[string][]int{}}
		s.fams[id.Name] = f
		return f
	}
	if f.arity != arity {
		s.c.errorf(id.Pos, identEnd(id), "E0702", "%s has %d indices here but %d at %s", id.Name, arity, f.arity, f.pos)
		return nil
	}
	return f
}

// allParams are an action's parameters: those of its label's index,
// then those of `for`.
func allParams(d *ActionDecl) []*Param {
	if d.For == nil {
		return d.Params
	}
	return append(append([]*Param(nil), d.Params...), d.For...)
}

// schema checks one action schema's parameters and counts its commands
// against the limits, returning the parameters' ranges when it is to be
// expanded (by commands). An empty parameter range makes no command (a
// warning): nil ranges and ok.
func (s *schemas) schema(d *ActionDecl) ([][2]int, bool) {
	c := s.c
	params := allParams(d)
	ranges := make([][2]int, len(params))
	ok := true
	seen := map[string]bool{}
	for i, pm := range params {
		if seen[pm.Name.Name] {
			c.errorf(pm.Name.Pos, identEnd(pm.Name), "E0703", "parameter %s of %s is declared twice", pm.Name.Name, d.Label.Name)
			ok = false
		}
		seen[pm.Name.Name] = true
		if keywords[pm.Name.Name] {
			c.errorf(pm.Name.Pos, identEnd(pm.Name), "E0103", "%q is a keyword and cannot name a parameter", pm.Name.Name)
			ok = false
		} else if kind, at, clash := s.declared(pm.Name.Name); clash {
			c.errorf(pm.Name.Pos, identEnd(pm.Name), "E0703", "parameter %s of %s has the name of the %s at %s; rename the parameter", pm.Name.Name, d.Label.Name, kind, at)
			ok = false
		}
		lo, ok1 := s.fold(pm.Lo, d, func(t Decl) *Expr { return allParams(t.(*ActionDecl))[i].Lo }, "the lower bound of parameter "+pm.Name.Name)
		hi, ok2 := s.fold(pm.Hi, d, func(t Decl) *Expr { return allParams(t.(*ActionDecl))[i].Hi }, "the upper bound of parameter "+pm.Name.Name)
		if !ok1 || !ok2 {
			ok = false
			continue
		}
		ranges[i] = [2]int{lo, hi}
	}
	for _, o := range d.Outcomes {
		for _, as := range o.Assigns {
			if as.Each != nil && seen[as.Each.Name.Name] {
				c.errorf(as.Each.Name.Pos, identEnd(as.Each.Name), "E0704", "forall %s: %s is a parameter of action %s; choose another name for the assignments' variable", as.Each.Name.Name, as.Each.Name.Name, d.Label.Name)
				ok = false
			}
		}
	}
	var f *family
	if len(d.Params) > 0 {
		f = s.family(d.Label, len(d.Params))
		if f == nil {
			ok = false
		}
	}
	if !ok {
		c.badDecl[d] = true
		return nil, false
	}
	if f != nil && f.params == nil {
		f.params, f.ranges = d.Params, ranges[:len(d.Params)]
	}
	count := 1
	var sizes []string
	for i, r := range ranges {
		n := r[1] - r[0] + 1
		if n <= 0 {
			pm := params[i]
			c.diags = append(c.diags, Diagnostic{Pos: pm.Lo.Pos, End: endCol(pm.Lo.Pos, pm.Hi.End), Severity: Warning, Code: "W0701",
				Msg:  fmt.Sprintf("parameter %s ranges over %d .. %d, which is empty: action %s makes no command", pm.Name.Name, r[0], r[1], d.Label.Name),
				Line: lineOf(c.fileOf[d], pm.Lo.Pos)})
			if f == nil {
				// A label without indices (`for` only): a policy that
				// names it is told why it has no command (labelRef).
				if c.emptyLabel == nil {
					c.emptyLabel = map[string]symbolic.Pos{}
				}
				c.emptyLabel[d.Label.Name] = pm.Lo.Pos
			}
			return nil, true
		}
		sizes = append(sizes, strconv.Itoa(n))
		if count > MaxExpansion/n+1 {
			count = MaxExpansion + 1
		} else {
			count *= n
		}
	}
	if count > MaxExpansion {
		total := "more than " + strconv.Itoa(MaxExpansion)
		if exact, ok := product(ranges); ok {
			total = strconv.FormatInt(exact, 10)
		}
		c.errorf(d.Label.Pos, identEnd(d.Label), "E0701", "action %s expands to %s commands (%s values of its parameters), more than the limit of %d; narrow the parameter ranges", d.Label.Name, total, strings.Join(sizes, " x "), MaxExpansion)
		c.overLimit = true
		c.badDecl[d] = true
		return nil, false
	}
	if s.total+count > MaxExpansionTotal {
		if s.total <= MaxExpansionTotal { // once
			c.errorf(d.Label.Pos, identEnd(d.Label), "E0701", "action %s brings the commands of the model's action schemas to %d, more than the limit of %d in all; narrow the parameter ranges", d.Label.Name, s.total+count, MaxExpansionTotal)
		}
		s.total = MaxExpansionTotal + 1
		c.overLimit = true
		c.badDecl[d] = true
		return nil, false
	}
	s.total += count
	return ranges, true
}

// commands expands a checked schema (schema) into its commands, the
// last parameter varying fastest.
func (s *schemas) commands(d *ActionDecl, ranges [][2]int) []Decl {
	if ranges == nil {
		return []Decl{} // an empty range: no command
	}
	params := allParams(d)
	var f *family
	if len(d.Params) > 0 {
		f = s.fams[d.Label.Name]
	}
	count := 1
	for _, r := range ranges {
		count *= r[1] - r[0] + 1
	}
	out := make([]Decl, 0, count)
	tuple := make([]int, len(ranges))
	for i := range ranges {
		tuple[i] = ranges[i][0]
	}
	sub := make(map[string]int, len(params))
	for {
		for i, pm := range params {
			sub[pm.Name.Name] = tuple[i]
		}
		name := d.Label.Name // a `for` alone keeps the label
		if f != nil {
			t := append([]int(nil), tuple[:len(d.Params)]...)
			name = labelName(d.Label.Name, t)
			f.tuples[name] = t
		}
		a := &ActionDecl{Span: d.Span, Label: Ident{Name: name, Pos: d.Label.Pos}, Guard: substitute(d.Guard, sub), Cost: substitute(d.Cost, sub)}
		for _, o := range d.Outcomes {
			a.Outcomes = append(a.Outcomes, substituteOutcome(o, sub))
		}
		out = append(out, a)
		if len(out)%1024 == 0 && s.c.interrupted() {
			return out // the load stops (load.go)
		}
		// row-major: the last parameter fastest
		k := len(tuple) - 1
		for k >= 0 && tuple[k] == ranges[k][1] {
			tuple[k] = ranges[k][0]
			k--
		}
		if k < 0 {
			break
		}
		tuple[k]++
	}
	return out
}

// product is the exact number of tuples, when it fits in an int64.
func product(ranges [][2]int) (int64, bool) {
	p := int64(1)
	for _, r := range ranges {
		n := int64(r[1]) - int64(r[0]) + 1
		if n > 0 && p > (1<<62)/n {
			return 0, false
		}
		p *= n
	}
	return p, true
}

func endCol(p, end symbolic.Pos) int {
	if end.Line == p.Line && end.Col > p.Col {
		return end.Col
	}
	return 0
}

func lineOf(f *File, p symbolic.Pos) string {
	if f != nil && p.Line >= 1 && p.Line <= len(f.Lines) {
		return f.Lines[p.Line-1]
	}
	return ""
}

// declared says whether name is declared at the top level (a constant,
// variable, predicate, label, enum type or value, or a JANI model's
// name), as what and where.
func (s *schemas) declared(name string) (string, symbolic.Pos, bool) {
	if s.names == nil {
		s.names = map[string]declName{}
		for _, dr := range s.c.decls {
			var id Ident
			kind := ""
			switch d := dr.d.(type) {
			case *ConstDecl:
				id, kind = d.Name, "constant"
			case *VarDecl:
				id, kind = d.Name, "variable"
			case *PredDecl:
				id, kind = d.Name, "predicate"
			case *ActionDecl:
				if d.Params == nil && d.Index == nil {
					id, kind = d.Label, "action label"
				}
			case *TypeDecl:
				id, kind = d.Name, "type"
			}
			if _, dup := s.names[id.Name]; kind != "" && !dup {
				s.names[id.Name] = declName{kind, id.Pos}
			}
		}
		if m := s.c.jani; m != nil {
			for _, k := range m.Consts {
				s.names[k.Name] = declName{"constant", k.Pos}
			}
			for _, v := range m.Vars {
				s.names[v.Name] = declName{"variable", v.Pos}
			}
		}
	}
	n, ok := s.names[name]
	return n.kind, n.pos, ok
}

type declName struct {
	kind string
	pos  symbolic.Pos
}

// concrete gives `action move[0, 3]` its label move[0,3].
func (s *schemas) concrete(d *ActionDecl) []Decl {
	t, ok := s.indices(d.Index, d, func(t Decl) []*Expr { return t.(*ActionDecl).Index }, d.Label.Name)
	f := s.family(d.Label, len(d.Index))
	if !ok || f == nil {
		s.c.badDecl[d] = true
		return nil
	}
	name := labelName(d.Label.Name, t)
	f.tuples[name] = t
	a := *d
	a.Label = Ident{Name: name, Pos: d.Label.Pos}
	a.Index = nil
	return []Decl{&a}
}

// indices folds a constant index list of declaration d (no `*`, which
// the parser allows in outputs only); pick finds the list in d's twin.
func (s *schemas) indices(idx []*Expr, d Decl, pick func(Decl) []*Expr, name string) ([]int, bool) {
	t := make([]int, len(idx))
	ok := true
	for i, e := range idx {
		if e == nil {
			return nil, false
		}
		v, ok1 := s.fold(e, d, func(t Decl) *Expr { return pick(t)[i] }, fmt.Sprintf("index %d of %s", i+1, name))
		ok = ok && ok1
		t[i] = v
	}
	return t, ok
}

// policy returns d with family references replaced by labels, or d itself
// when it names none.
func (s *schemas) policy(d *PolicyDecl) *PolicyDecl {
	changed := false
	items := make([]*PolicyItem, len(d.Items))
	for i, it := range d.Items {
		items[i] = it
		switch it.Kind {
		case ItemOutputs:
			if it.OutputIdx == nil && !s.namesFamily(it.Outputs) {
				continue
			}
			cp := *it
			cp.Outputs, cp.OutputIdx = nil, nil
			for j, o := range it.Outputs {
				var idx []*Expr
				if it.OutputIdx != nil {
					idx = it.OutputIdx[j]
				}
				pick := func(t Decl) []*Expr { return t.(*PolicyDecl).Items[i].OutputIdx[j] }
				cp.Outputs = append(cp.Outputs, s.outputs(o, idx, d, pick)...)
			}
			items[i], changed = &cp, true
		case ItemWhen, ItemOtherwise:
			if it.LabelIdx == nil {
				if f := s.fams[it.Label.Name]; f != nil && len(f.tuples) > 0 {
					s.c.errorf(it.Label.Pos, identEnd(it.Label), "E0702", "%s is a family of %d labels; a rule chooses one of them: %s", it.Label.Name, len(f.tuples), example(f))
					cp := *it
					cp.Label = s.stand(it.Label)
					items[i], changed = &cp, true
				}
				continue
			}
			cp := *it
			cp.LabelIdx = nil
			if t, ok := s.indices(it.LabelIdx, d, func(t Decl) []*Expr { return t.(*PolicyDecl).Items[i].LabelIdx }, it.Label.Name); ok {
				cp.Label = s.labelRef(it.Label, t, identEnd(it.Label))
			} else {
				cp.Label = s.stand(it.Label)
			}
			items[i], changed = &cp, true
		}
	}
	if !changed {
		return d
	}
	cp := *d
	cp.Items = items
	return &cp
}

func (s *schemas) namesFamily(ids []Ident) bool {
	for _, id := range ids {
		if s.fams[id.Name] != nil {
			return true
		}
	}
	return false
}

func example(f *family) string {
	ts := f.sorted()
	if len(ts) == 0 {
		return f.name + "[...]"
	}
	return labelName(f.name, ts[0])
}

// labelRef checks a concrete label reference against its family.
func (s *schemas) labelRef(id Ident, t []int, end symbolic.Pos) Ident {
	name := labelName(id.Name, t)
	f := s.fams[id.Name]
	if f == nil || len(f.tuples) == 0 {
		// the policies stage reports an unknown label, with a suggestion
		return Ident{Name: name, Pos: id.Pos}
	}
	if len(t) != f.arity {
		s.c.errorf(id.Pos, end, "E0702", "%s has %d indices, not %d: e.g. %s", id.Name, f.arity, len(t), example(f))
		return s.stand(id)
	}
	if _, ok := f.tuples[name]; !ok {
		s.c.errorf(id.Pos, end, "E0702", "no action declares %s%s", name, rangesHint(f))
		return s.stand(id)
	}
	return Ident{Name: name, Pos: id.Pos}
}

// stand returns a label of id's family to stand in for a wrong
// reference already reported, so that the policies stage reports nothing
// more (the model does not lower); id itself when the family has none.
func (s *schemas) stand(id Ident) Ident {
	if f := s.fams[id.Name]; f != nil && len(f.tuples) > 0 {
		return Ident{Name: example(f), Pos: id.Pos}
	}
	return id
}

func rangesHint(f *family) string {
	if f.params == nil {
		return ""
	}
	var parts []string
	for i, pm := range f.params {
		parts = append(parts, fmt.Sprintf("%s in %d .. %d", pm.Name.Name, f.ranges[i][0], f.ranges[i][1]))
	}
	return fmt.Sprintf(" (%s has %s)", f.name, strings.Join(parts, ", "))
}

// outputs expands one entry of outputs of policy d: a label, a family,
// or a slice (pick finds its index list in d's twin).
func (s *schemas) outputs(o Ident, idx []*Expr, d Decl, pick func(Decl) []*Expr) []Ident {
	f := s.fams[o.Name]
	if idx == nil {
		if f == nil {
			return []Ident{o}
		}
		var out []Ident
		for _, t := range f.sorted() {
			out = append(out, Ident{Name: labelName(o.Name, t), Pos: o.Pos})
		}
		if len(out) == 0 && s.c.errs == 0 {
			// The family's schemas make no command (W0701 at their
			// empty ranges, typically under a -D value): the entry
			// adds no output, which shifts the outputs after it. (After
			// an error, a schema that did not expand is that error's.)
			s.c.diags = append(s.c.diags, Diagnostic{Pos: o.Pos, End: endCol(o.Pos, identEnd(o)), Severity: Warning, Code: "W0702",
				Msg:  fmt.Sprintf("outputs of policy %s names %s, a family with no label (its actions make no command): it contributes no output, and the outputs after it move up", d.(*PolicyDecl).Name.Name, o.Name),
				Line: lineOf(s.c.fileOf[d], o.Pos)})
		}
		return out
	}
	if f == nil {
		var cands []string
		for name := range s.fams {
			cands = append(cands, name)
		}
		s.c.errorf(o.Pos, identEnd(o), "E0501", "policy names %s[...], but no action declares labels %s[...]%s", o.Name, o.Name, didYouMean(o.Name, cands))
		return nil
	}
	if len(idx) != f.arity {
		s.c.errorf(o.Pos, identEnd(o), "E0702", "%s has %d indices, not %d: e.g. %s", o.Name, f.arity, len(idx), example(f))
		return nil
	}
	want := make([]*int, len(idx))
	for i, e := range idx {
		if e == nil {
			continue
		}
		v, ok := s.fold(e, d, func(t Decl) *Expr { return pick(t)[i] }, fmt.Sprintf("index %d of %s", i+1, o.Name))
		if !ok {
			return nil
		}
		want[i] = &v
	}
	var out []Ident
	for _, t := range f.sorted() {
		match := true
		for i, w := range want {
			match = match && (w == nil || *w == t[i])
		}
		if match {
			out = append(out, Ident{Name: labelName(o.Name, t), Pos: o.Pos})
		}
	}
	if len(out) == 0 {
		s.c.errorf(o.Pos, identEnd(o), "E0702", "%s[...] selects no label%s", o.Name, rangesHint(f))
	}
	return out
}

// substitute returns e with the parameters in sub replaced by their
// values; subtrees without parameters are shared, not copied.
func substitute(e *Expr, sub map[string]int) *Expr {
	if e == nil {
		return nil
	}
	if e.Kind == EName {
		if v, ok := sub[e.Text]; ok {
			return &Expr{Kind: EInt, Text: strconv.Itoa(v), Pos: e.Pos, End: e.End}
		}
		return e
	}
	args := rewriteArgs(e.Args, func(a *Expr) *Expr { return substitute(a, sub) })
	if args == nil {
		return e
	}
	if e.Kind == EQuant && len(args) > 0 && args[0] != e.Args[0] && e.Args[0].Kind == EName {
		// A quantifier that binds a name being substituted (an enclosing
		// quantifier's or a parameter's) is error E0704; its binder
		// keeps the name in Op, so that the error names it, not the
		// value it was replaced by ("the name 0 quantifies over").
		b := *args[0]
		b.Op = e.Args[0].Text
		args[0] = &b
	}
	n := &Expr{Kind: e.Kind, Op: e.Op, Text: e.Text, Args: args, Pos: e.Pos, End: e.End, Height: e.Height}
	return n
}

func substituteOutcome(o *OutcomeNode, sub map[string]int) *OutcomeNode {
	var assigns []*AssignNode
	for i, as := range o.Assigns {
		v, idx, each := substitute(as.Value, sub), substitute(as.Index, sub), as.Each
		if each != nil {
			lo, hi := substitute(each.Lo, sub), substitute(each.Hi, sub)
			if lo != each.Lo || hi != each.Hi {
				each = &Param{Name: each.Name, Lo: lo, Hi: hi}
			}
		}
		if (v != as.Value || idx != as.Index || each != as.Each) && assigns == nil {
			assigns = append(make([]*AssignNode, 0, len(o.Assigns)), o.Assigns[:i]...)
		}
		if assigns != nil {
			assigns = append(assigns, &AssignNode{Pos: as.Pos, Var: as.Var, Value: v, Index: idx, Each: each})
		}
	}
	if assigns == nil {
		return o
	}
	cp := *o
	cp.Assigns = assigns
	return &cp
}
