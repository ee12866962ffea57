package lang

// Analysis for editors (vigil lsp): the checker's diagnostics together with
// what an editor asks about names: every declaration with a one-line
// summary (a constant's folded value, a variable's range, a policy's
// inputs and outputs), and every use of a name in the root file, resolved
// to its declarations. Names resolve as the checker resolves them:
// constants, variables, predicates and labels share one namespace over
// the whole file set; policies and properties have a namespace each and
// are named only by their declarations (and by the command line).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"vigil/symbolic"
)

// Namespace is the namespace a name lives in.
type Namespace uint8

const (
	// NSNames holds constants, variables, predicates and action labels.
	NSNames Namespace = iota
	// NSPolicy holds policy names.
	NSPolicy
	// NSProperty holds property names.
	NSProperty
	// NSModel holds the model's name.
	NSModel
)

// SymbolKind names what a declaration declares.
type SymbolKind string

// The kinds of declarations.
const (
	KindModel    SymbolKind = "model"
	KindConst    SymbolKind = "constant"
	KindVar      SymbolKind = "variable"
	KindPred     SymbolKind = "predicate"
	KindLabel    SymbolKind = "action label"
	KindPolicy   SymbolKind = "policy"
	KindProperty SymbolKind = "property"
	KindType     SymbolKind = "enum type"
	KindValue    SymbolKind = "enum value"
	KindParam    SymbolKind = "parameter"
	KindBound    SymbolKind = "bound variable"
)

// SymbolInfo is one declaration of the file set. A label has one
// SymbolInfo per action declaring it.
type SymbolInfo struct {
	Kind SymbolKind
	NS   Namespace
	Name string
	// Pos and NameEnd delimit the declared name; Start and End the whole
	// declaration (End just after its last token). A name imported from
	// a JANI model has Pos.File set to the model's path and no line.
	Pos, NameEnd symbolic.Pos
	Start, End   symbolic.Pos
	// Detail is the declaration in one line, with folded values where the
	// checker computed them: "const L = 12", "var pos : 0 .. 15 = 0".
	Detail string
	// Doc holds further lines: a policy's inputs and outputs, a
	// property's clauses, a label's number of commands, the comments
	// written next to the declaration.
	Doc string
	// Local symbols (an action schema's parameters) are visible from
	// ScopeStart to ScopeEnd only, and hide global names there.
	Local                bool
	ScopeStart, ScopeEnd symbolic.Pos
}

// Ref is one occurrence of a name in the root file: a use, or the name at
// its declaration.
type Ref struct {
	Name     string
	NS       Namespace
	Pos, End symbolic.Pos
	Decl     bool // the name as declared
}

// Analysis is what Analyze learns about a root file.
type Analysis struct {
	// File is the root file's syntax tree, nil when it does not parse.
	File *File
	// Diags are the diagnostics of the whole file set, as vigil check
	// reports them.
	Diags Diagnostics
	// Model is the lowered model, nil when there are errors.
	Model *symbolic.Model
	// Symbols are the declarations of the file set in declaration order
	// (the names an imported JANI model declares first).
	Symbols []*SymbolInfo
	// Refs are the names in the root file, in source order.
	Refs []Ref
}

// Analyze checks a root file whose text is in memory (its imports are
// read from disk, relative to path) and indexes its names. It never
// fails: what cannot be learnt is left out.
func Analyze(path string, src []byte, opts Options) *Analysis {
	l, c, m, diags := loadChecked(path, src, opts)
	a := &Analysis{Diags: diags, Model: m}
	for _, f := range l.files {
		if f.Path == path {
			a.File = f
		}
	}
	checked := c != nil
	if !checked {
		// an error while loading (syntax, imports): index what parsed
		c = newChecker(l.files, opts)
		c.resolve()
	}
	a.symbols(c, checked)
	if a.File != nil {
		a.refs(a.File)
	}
	return a
}

// Lookup returns the declarations of name in namespace ns.
func (a *Analysis) Lookup(ns Namespace, name string) []*SymbolInfo {
	var out []*SymbolInfo
	for _, s := range a.Symbols {
		if s.NS == ns && s.Name == name {
			out = append(out, s)
		}
	}
	return out
}

// Resolve returns the declarations a reference names: a parameter whose
// schema contains it, or else the global declarations of its name.
func (a *Analysis) Resolve(r Ref) []*SymbolInfo {
	var global []*SymbolInfo
	for _, s := range a.Symbols {
		if s.NS != r.NS || s.Name != r.Name {
			continue
		}
		if !s.Local {
			global = append(global, s)
		} else if s.Pos.File == r.Pos.File && s.Encloses(r.Pos) {
			return []*SymbolInfo{s}
		}
	}
	return global
}

// IsLocal reports whether a reference names a local symbol (a
// parameter), not a global one.
func (a *Analysis) IsLocal(r Ref) bool {
	syms := a.Resolve(r)
	return len(syms) == 1 && syms[0].Local
}

// Encloses reports whether p is in a local symbol's scope.
func (s *SymbolInfo) Encloses(p symbolic.Pos) bool {
	after := p.Line > s.ScopeStart.Line || p.Line == s.ScopeStart.Line && p.Col >= s.ScopeStart.Col
	before := p.Line < s.ScopeEnd.Line || p.Line == s.ScopeEnd.Line && p.Col <= s.ScopeEnd.Col
	return after && before
}

// RefAt returns the reference that covers line and column (1-based, in
// runes, as symbolic.Pos counts them) of the root file; a position just
// after a name counts as on it.
func (a *Analysis) RefAt(line, col int) (Ref, bool) {
	i := sort.Search(len(a.Refs), func(i int) bool {
		r := a.Refs[i]
		return r.End.Line > line || r.End.Line == line && r.End.Col >= col
	})
	if i < len(a.Refs) {
		r := a.Refs[i]
		if r.Pos.Line == line && r.Pos.Col <= col && col <= r.End.Col {
			return r, true
		}
	}
	return Ref{}, false
}

// RefsTo returns the references in the root file to name in ns.
func (a *Analysis) RefsTo(ns Namespace, name string) []Ref {
	var out []Ref
	for _, r := range a.Refs {
		if r.NS == ns && r.Name == name {
			out = append(out, r)
		}
	}
	return out
}

// symbols lists the declarations; checked says whether the checker's
// stages ran (so that constants are folded and ranges known).
func (a *Analysis) symbols(c *checker, checked bool) {
	a.importedSymbols(c)
	x := &symbolIndex{a: a, c: c, checked: checked, commands: commandCounts(c), types: map[string]*TypeDecl{}}
	var decls []declRef // the files' declarations (c.decls has enum types expanded)
	for _, f := range c.files {
		for _, d := range f.Decls {
			decls = append(decls, declRef{d, f})
			if t, ok := d.(*TypeDecl); ok && x.types[t.Name.Name] == nil {
				x.types[t.Name.Name] = t
			}
		}
	}
	for _, dr := range decls {
		info := x.describe(dr.d)
		if info == nil {
			continue
		}
		if doc := commentsFor(dr.file, info.Start, info.End); doc != "" {
			if info.Doc != "" {
				info.Doc += "\n\n"
			}
			info.Doc += doc
		}
		a.Symbols = append(a.Symbols, info)
	}
}

// importedSymbols lists the names an imported JANI model declares; they
// have no declaration in .spec.
func (a *Analysis) importedSymbols(c *checker) {
	for _, s := range c.order {
		if !s.imported {
			continue
		}
		info := &SymbolInfo{Kind: KindVar, NS: NSNames, Name: s.name, Pos: s.pos, NameEnd: s.pos, Start: s.pos, End: s.pos}
		switch s.kind {
		case symConst:
			info.Kind, info.Detail = KindConst, fmt.Sprintf("const %s = %d", s.name, s.value)
		case symVar:
			info.Detail = varDetail(s.name, s.isBool, s.lo, s.hi)
		case symPred:
			info.Kind, info.Detail = KindPred, "pred "+s.name
		case symLabel:
			info.Kind, info.Detail = KindLabel, "action "+s.name
		}
		info.Doc = "declared by " + c.janiName
		a.Symbols = append(a.Symbols, info)
	}
}

// commandCounts counts the action declarations of each label and of each
// family of labels (schema.go).
func commandCounts(c *checker) map[string]int {
	commands := map[string]int{}
	for _, dr := range c.decls {
		if d, ok := dr.d.(*ActionDecl); ok {
			commands[d.Label.Name]++
			if i := strings.IndexByte(d.Label.Name, '['); i > 0 {
				commands[d.Label.Name[:i]]++
			}
		}
	}
	return commands
}

// symbolIndex describes the .spec declarations of a file set: it holds
// what the descriptions draw on besides the declaration itself.
type symbolIndex struct {
	a        *Analysis // receives the local symbols a declaration introduces
	c        *checker
	checked  bool                 // the checker's stages ran
	commands map[string]int       // by label and by family
	types    map[string]*TypeDecl // the first declaration of each enum type
}

// describe returns the symbol a declaration declares, nil for none. The
// symbols it introduces besides (an enum's values, an action's parameters)
// it appends to the analysis first.
func (x *symbolIndex) describe(d Decl) *SymbolInfo {
	switch d := d.(type) {
	case *ModelDecl:
		return newSymbol(d, KindModel, NSModel, d.Name, "model "+d.Name.Name)
	case *ConstDecl:
		return x.constSymbol(d)
	case *TypeDecl:
		return x.typeSymbol(d)
	case *VarDecl:
		return x.varSymbol(d)
	case *PredDecl:
		return newSymbol(d, KindPred, NSNames, d.Name, "pred "+d.Name.Name+" = "+exprString(d.Cond))
	case *ActionDecl:
		return x.actionSymbol(d)
	case *PolicyDecl:
		detail := "policy " + d.Kind.Name + " " + d.Name.Name
		if d.HasFile {
			detail += " " + quote(d.File)
		}
		info := newSymbol(d, KindPolicy, NSPolicy, d.Name, detail)
		info.Doc = policyDoc(d)
		return info
	case *PropertyDecl:
		info := newSymbol(d, KindProperty, NSProperty, d.Name, "property "+d.Name.Name)
		var lines []string
		for _, cl := range d.Clauses {
			lines = append(lines, cl.Kind+" "+exprString(cl.Cond))
		}
		info.Doc = strings.Join(lines, "\n")
		return info
	}
	return nil
}

// newSymbol is the symbol of the name id that declaration d declares.
func newSymbol(d Decl, kind SymbolKind, ns Namespace, id Ident, detail string) *SymbolInfo {
	start, end := d.DeclPos()
	return &SymbolInfo{Kind: kind, NS: ns, Name: id.Name, Pos: id.Pos, NameEnd: identEnd(id), Start: start, End: end, Detail: detail}
}

// sym returns the checker's symbol of name if it is of the given kind.
func (x *symbolIndex) sym(name string, kind symKind) *symbol {
	if s := x.c.syms[name]; s != nil && s.kind == kind {
		return s
	}
	return nil
}

// constSymbol shows a constant's folded value when the checker folded it,
// and how it was written or overridden.
func (x *symbolIndex) constSymbol(d *ConstDecl) *SymbolInfo {
	written := "const " + d.Name.Name + " = " + exprString(d.Value)
	info := newSymbol(d, KindConst, NSNames, d.Name, written)
	// the checker's declaration is this one, or its copy with the
	// quantifiers or array elements expanded (const T = sum k in 1 .. 4: k,
	// const M = K[1]): the same name at the same place
	if s := x.sym(d.Name.Name, symConst); s != nil && s.cdecl != nil && s.cdecl.Name.Pos == d.Name.Pos && s.state == 2 {
		info.Detail = fmt.Sprintf("const %s = %d", d.Name.Name, s.value)
		if s.override != nil {
			info.Doc = "set by -D " + d.Name.Name + "=" + *s.override + "; declared as " + written
		} else if info.Detail != written {
			info.Doc = "declared as " + written
		}
	}
	return info
}

// typeSymbol describes an enum type and adds a symbol for each of its
// values.
func (x *symbolIndex) typeSymbol(d *TypeDecl) *SymbolInfo {
	names := valueNames(d)
	info := newSymbol(d, KindType, NSNames, d.Name, "type "+d.Name.Name+" = { "+strings.Join(names, ", ")+" }")
	info.Doc = fmt.Sprintf("%d values; networks see a value's index (0 .. %d)", len(names), len(names)-1)
	for i, v := range d.Values {
		x.a.Symbols = append(x.a.Symbols, &SymbolInfo{Kind: KindValue, NS: NSNames, Name: v.Name, Pos: v.Pos, NameEnd: identEnd(v),
			Start: v.Pos, End: identEnd(v), Detail: fmt.Sprintf("%s : %s", v.Name, d.Name.Name),
			Doc: fmt.Sprintf("value %d of %s = { %s }", i, d.Name.Name, strings.Join(names, ", "))})
	}
	return info
}

// valueNames lists the names of an enum type's values.
func valueNames(t *TypeDecl) []string {
	names := make([]string, len(t.Values))
	for i, v := range t.Values {
		names[i] = v.Name
	}
	return names
}

// varSymbol describes an array, a variable of an enum type or a variable
// over a range, with the folded range where the checker knows it.
func (x *symbolIndex) varSymbol(d *VarDecl) *SymbolInfo {
	init := ""
	if d.Init != nil {
		init = " = " + exprString(d.Init)
	}
	switch {
	case d.IdxLo != nil:
		return x.arraySymbol(d, init)
	case d.Type != nil:
		info := newSymbol(d, KindVar, NSNames, d.Name, "var "+d.Name.Name+" : "+d.Type.Name+init)
		if t := x.types[d.Type.Name]; t != nil {
			names := valueNames(t)
			info.Doc = "one of " + strings.Join(names, ", ") + fmt.Sprintf(" (networks see 0 .. %d)", len(names)-1)
		}
		return info
	}
	written := "var " + d.Name.Name + " : " + rangeText(d) + init
	info := newSymbol(d, KindVar, NSNames, d.Name, written)
	if s := x.sym(d.Name.Name, symVar); s != nil && s.vdecl == d && x.checked && !s.bad && !d.Bool {
		info.Detail = fmt.Sprintf("var %s : %d .. %d%s", d.Name.Name, s.lo, s.hi, init)
		info.Doc = fmt.Sprintf("%d values", int64(s.hi)-int64(s.lo)+1)
		if info.Detail != written {
			info.Doc += "; declared as " + written
		}
	}
	return info
}

// arraySymbol describes an array with the number and range of its
// elements where the checker knows them; init is its written " = INIT".
func (x *symbolIndex) arraySymbol(d *VarDecl, init string) *SymbolInfo {
	name := d.Name.Name
	info := newSymbol(d, KindVar, NSNames, d.Name, "var "+name+" : "+arrayText(d)+init)
	info.Doc = "an array; its elements are the variables " + name + "[" + exprString(d.IdxLo) + "] .. " + name + "[" + exprString(d.IdxHi) + "], which networks see in order"
	lo := x.c.arrayLo[d]
	if first := x.sym(name+"["+strconv.Itoa(lo)+"]", symVar); first != nil && x.checked && !d.Bool {
		n := 0
		for _, v := range x.c.vars {
			if base, _, ok := symbolic.ArrayElem(v.name); ok && base == name {
				n++
			}
		}
		info.Doc = fmt.Sprintf("an array of %d elements %s[%d] .. %s[%d], each in %d .. %d; networks see them in order", n, name, lo, name, lo+n-1, first.lo, first.hi)
	}
	return info
}

// actionSymbol describes one declaration of a label with the number of
// commands the label has, and adds a symbol for each of its parameters.
func (x *symbolIndex) actionSymbol(d *ActionDecl) *SymbolInfo {
	info := newSymbol(d, KindLabel, NSNames, d.Label, actionHead(d))
	if n := x.commands[d.Label.Name]; n == 1 {
		info.Doc = "1 command"
	} else {
		info.Doc = fmt.Sprintf("%d commands", n)
	}
	if d.Params != nil || d.Index != nil {
		info.Doc += fmt.Sprintf(" of labels %s[...] in all its declarations", d.Label.Name)
	}
	start, end := d.DeclPos()
	for _, pm := range allParams(d) {
		x.a.Symbols = append(x.a.Symbols, boundSymbol(KindParam, pm.Name, identEnd(pm.Name), pm.Lo, pm.Hi,
			"a parameter of action "+d.Label.Name, start, end))
	}
	return info
}

// boundSymbol is a local name (id, ending at nameEnd) that ranges over
// lo .. hi and is visible from scopeStart to scopeEnd.
func boundSymbol(kind SymbolKind, id Ident, nameEnd symbolic.Pos, lo, hi *Expr, doc string, scopeStart, scopeEnd symbolic.Pos) *SymbolInfo {
	return &SymbolInfo{Kind: kind, NS: NSNames, Name: id.Name, Pos: id.Pos, NameEnd: nameEnd,
		Start: id.Pos, End: hi.End, Detail: id.Name + " in " + exprString(lo) + " .. " + exprString(hi),
		Doc: doc, Local: true, ScopeStart: scopeStart, ScopeEnd: scopeEnd}
}

// arrayText writes an array's type, [LO .. HI] of TYPE.
func arrayText(d *VarDecl) string {
	return "[" + exprString(d.IdxLo) + " .. " + exprString(d.IdxHi) + "] of " + rangeText(d)
}

func rangeText(d *VarDecl) string {
	if d.Type != nil {
		return d.Type.Name
	}
	if d.Bool || d.Lo == nil || d.Hi == nil {
		return "bool"
	}
	return exprString(d.Lo) + " .. " + exprString(d.Hi)
}

// varDetail writes a variable's declaration with its folded range.
func varDetail(name string, isBool bool, lo, hi int) string {
	if isBool {
		return "var " + name + " : bool"
	}
	return fmt.Sprintf("var %s : %d .. %d", name, lo, hi)
}

// policyDoc lists a policy's inputs and outputs (a rules policy's outputs
// are the labels its rules name, in order of first appearance).
func policyDoc(d *PolicyDecl) string {
	var lines []string
	var ruleLabels []string
	seen := map[string]bool{}
	for _, it := range d.Items {
		switch it.Kind {
		case ItemInputs:
			var in []string
			for _, e := range it.Inputs {
				in = append(in, exprString(e))
			}
			lines = append(lines, fmt.Sprintf("inputs (%d): %s", len(in), strings.Join(in, ", ")))
		case ItemOutputs:
			var out []string
			for _, o := range it.Outputs {
				out = append(out, o.Name)
			}
			lines = append(lines, fmt.Sprintf("outputs (%d): %s", len(out), strings.Join(out, ", ")))
		case ItemInterface:
			lines = append(lines, "interface "+quote(it.Interface)+" (inputs and outputs)")
		case ItemOutput:
			lines = append(lines, "output "+quote(it.Output)+" (the ONNX graph output read)")
		case ItemArgMax:
			if it.Reading.Name == "all" {
				lines = append(lines, "argmax all (over every output; stuck where the winner is not applicable)")
			} else {
				lines = append(lines, "argmax "+it.Reading.Name+" (over the applicable outputs)")
			}
		case ItemWhen, ItemOtherwise:
			if !seen[it.Label.Name] {
				seen[it.Label.Name] = true
				ruleLabels = append(ruleLabels, it.Label.Name)
			}
		}
	}
	if len(ruleLabels) > 0 {
		lines = append(lines, fmt.Sprintf("outputs (%d): %s", len(ruleLabels), strings.Join(ruleLabels, ", ")))
	}
	return strings.Join(lines, "\n")
}

// commentsFor returns the comments on the lines just above a declaration
// (a block with no blank line between it and the declaration) and those
// on its last line, without their comment markers.
func commentsFor(f *File, start, end symbolic.Pos) string {
	if f == nil {
		return ""
	}
	var above, after []string
	next := start.Line
	for i := len(f.Comments) - 1; i >= 0; i-- {
		cm := f.Comments[i]
		if cm.Pos.Line >= start.Line {
			if cm.Pos.Line == end.Line && cm.Pos.Col >= end.Col {
				after = append([]string{commentText(cm.Text)}, after...)
			}
			continue
		}
		if cm.EndLine != next-1 || !onlySpaceBefore(f, cm.Pos) {
			break
		}
		above = append([]string{commentText(cm.Text)}, above...)
		next = cm.Pos.Line
	}
	return strings.TrimSpace(strings.Join(append(above, after...), "\n"))
}

func onlySpaceBefore(f *File, p symbolic.Pos) bool {
	if p.Line < 1 || p.Line > len(f.Lines) {
		return false
	}
	r := []rune(f.Lines[p.Line-1])
	return p.Col-1 <= len(r) && strings.TrimSpace(string(r[:p.Col-1])) == ""
}

func commentText(s string) string {
	if strings.HasPrefix(s, "//") {
		return strings.TrimSpace(s[2:])
	}
	s = strings.TrimSuffix(strings.TrimPrefix(s, "/*"), "*/")
	return strings.TrimSpace(s)
}

// refs lists the names in f, declared and used, in source order, and adds
// the symbols of the names quantifiers and forall assignments bind.
func (a *Analysis) refs(f *File) {
	a.Refs = make([]Ref, 0, len(f.Src)/8) // a name every eight bytes or so
	for _, d := range f.Decls {
		a.declRefs(d)
	}
	less := func(i, j int) bool {
		p, q := a.Refs[i].Pos, a.Refs[j].Pos
		return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col
	}
	if !sort.SliceIsSorted(a.Refs, less) { // the walk is in source order but for odd layouts
		sort.SliceStable(a.Refs, less)
	}
}

// addRef records the name id in namespace ns; decl says it is declared
// there.
func (a *Analysis) addRef(id Ident, ns Namespace, decl bool) {
	if id.Name == "" {
		return
	}
	a.Refs = append(a.Refs, Ref{Name: id.Name, NS: ns, Pos: id.Pos, End: identEnd(id), Decl: decl})
}

// exprRefs records the names in e (nil for none).
func (a *Analysis) exprRefs(e *Expr) {
	if e == nil {
		return
	}
	switch e.Kind {
	case EName:
		a.Refs = append(a.Refs, Ref{Name: e.Text, NS: NSNames, Pos: e.Pos, End: e.End})
	case EIndex:
		a.Refs = append(a.Refs, Ref{Name: e.Text, NS: NSNames, Pos: e.Pos, End: identEnd(Ident{Name: e.Text, Pos: e.Pos})})
		a.exprRefs(e.Args[0])
	case EQuant:
		v := e.Args[0]
		a.Refs = append(a.Refs, Ref{Name: v.Text, NS: NSNames, Pos: v.Pos, End: v.End, Decl: true})
		a.Symbols = append(a.Symbols, boundSymbol(KindBound, Ident{Name: v.Text, Pos: v.Pos}, v.End, e.Args[1], e.Args[2],
			"bound by "+e.Op, e.Pos, e.End))
		for _, x := range e.Args[1:] {
			a.exprRefs(x)
		}
	default:
		for _, x := range e.Args {
			a.exprRefs(x)
		}
	}
}

// declRefs records the names in one declaration.
func (a *Analysis) declRefs(d Decl) {
	switch d := d.(type) {
	case *ModelDecl:
		a.addRef(d.Name, NSModel, true)
	case *ConstDecl:
		a.addRef(d.Name, NSNames, true)
		a.exprRefs(d.Value)
	case *TypeDecl:
		a.addRef(d.Name, NSNames, true)
		for _, v := range d.Values {
			a.addRef(v, NSNames, true)
		}
	case *VarDecl:
		a.addRef(d.Name, NSNames, true)
		a.exprRefs(d.IdxLo)
		a.exprRefs(d.IdxHi)
		if d.Type != nil {
			a.addRef(*d.Type, NSNames, false)
		} else {
			a.exprRefs(d.Lo)
			a.exprRefs(d.Hi)
		}
		a.exprRefs(d.Init)
	case *PredDecl:
		a.addRef(d.Name, NSNames, true)
		a.exprRefs(d.Cond)
	case *ActionDecl:
		a.actionRefs(d)
	case *PolicyDecl:
		a.policyRefs(d)
	case *PropertyDecl:
		a.addRef(d.Name, NSProperty, true)
		for _, cl := range d.Clauses {
			a.exprRefs(cl.Cond)
		}
	}
}

// actionRefs records the names in an action declaration and adds the
// symbols of the names its forall assignments bind.
func (a *Analysis) actionRefs(d *ActionDecl) {
	a.addRef(d.Label, NSNames, true)
	for _, e := range d.Index {
		a.exprRefs(e)
	}
	for _, pm := range allParams(d) {
		a.addRef(pm.Name, NSNames, true)
		a.exprRefs(pm.Lo)
		a.exprRefs(pm.Hi)
	}
	a.exprRefs(d.Guard)
	a.exprRefs(d.Cost)
	for _, o := range d.Outcomes {
		for _, as := range o.Assigns {
			if e := as.Each; e != nil {
				a.addRef(e.Name, NSNames, true)
				a.Symbols = append(a.Symbols, boundSymbol(KindBound, e.Name, identEnd(e.Name), e.Lo, e.Hi,
					"bound by forall", as.Pos, as.Value.End))
				a.exprRefs(e.Lo)
				a.exprRefs(e.Hi)
			}
			a.addRef(as.Var, NSNames, false)
			a.exprRefs(as.Index)
			a.exprRefs(as.Value)
		}
	}
}

// policyRefs records the names in a policy declaration: its inputs, the
// labels it outputs and the names in its rules.
func (a *Analysis) policyRefs(d *PolicyDecl) {
	a.addRef(d.Name, NSPolicy, true)
	a.exprRefs(d.When)
	for _, it := range d.Items {
		for _, e := range it.Inputs {
			a.exprRefs(e)
		}
		for j, o := range it.Outputs {
			a.addRef(o, NSNames, false)
			if it.OutputIdx != nil {
				for _, e := range it.OutputIdx[j] {
					a.exprRefs(e)
				}
			}
		}
		a.exprRefs(it.When)
		if it.Kind == ItemWhen || it.Kind == ItemOtherwise {
			a.addRef(it.Label, NSNames, false)
			for _, e := range it.LabelIdx {
				a.exprRefs(e)
			}
		}
	}
}

// Keywords returns the language's reserved words (spec.md, "Lexical
// structure"), sorted.
func Keywords() []string {
	out := make([]string, 0, len(keywords))
	for k := range keywords {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// ContextualKeywords returns the words that are keywords only where the
// grammar expects them, and names elsewhere: the quantifiers (when a name
// follows), the `in` of schema parameters and quantifiers, the `of` of
// an array's type, the `cost` and `for` of an action, and a policy's
// `argmax` and `output` lines.
func ContextualKeywords() []string {
	return []string{"argmax", "cost", "count", "exists", "for", "forall", "in", "of", "output", "sum"}
}
