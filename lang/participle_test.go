package lang

// The participle grammar the hand-written parser (parser.go) replaced. It
// stays here as the reference: TestParserMatchesGrammar compares the two on
// every spec and golden input, and BenchmarkParse measures both.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/rogpeppe/go-internal/txtar"

	"vigil/symbolic"
)

// The participle grammar. These structs are the concrete syntax tree: they
// follow the grammar, live only until toAST converts them into the AST of
// ast.go, and are never seen outside this package.

var specLexer = lexer.MustSimple([]lexer.SimpleRule{
	{Name: "Comment", Pattern: `//[^\n]*|/\*([^*]|\*+[^*/])*\*+/`},
	{Name: "String", Pattern: `"(\\.|[^"\\\n])*"`},
	{Name: "Decimal", Pattern: `[0-9]+\.[0-9]+`},
	{Name: "Int", Pattern: `[0-9]+`},
	{Name: "Ident", Pattern: `[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*`},
	{Name: "Punct", Pattern: `=>|->|==|!=|<=|>=|&&|\|\||\.\.|[-+*/(),:=<>!|{}'\[\]]`},
	{Name: "Whitespace", Pattern: `[ \t\r\n]+`},
})

type cFile struct {
	Decls []*cDecl `parser:"@@*"`
}

type cDecl struct {
	Pos      lexer.Position
	Model    *cModel    `parser:"  \"model\" @@"`
	Import   *cImport   `parser:"| \"import\" @@"`
	Const    *cConst    `parser:"| \"const\" @@"`
	Type     *cType     `parser:"| \"type\" @@"`
	Var      *cVar      `parser:"| \"var\" @@"`
	Pred     *cPred     `parser:"| \"pred\" @@"`
	Action   *cAction   `parser:"| \"action\" @@"`
	Policy   *cPolicy   `parser:"| \"policy\" @@"`
	Property *cProperty `parser:"| \"property\" @@"`
	EndPos   lexer.Position
}

type cIdent struct {
	Pos  lexer.Position
	Name string `parser:"@Ident"`
}

type cModel struct {
	Name *cIdent `parser:"@@"`
}

type cImport struct {
	Pos  lexer.Position
	Path string  `parser:"@String"`
	As   *cIdent `parser:"(\"as\" @@)?"`
}

type cConst struct {
	Name  *cIdent `parser:"@@ \"=\""`
	Value *cExpr  `parser:"@@"`
}

type cType struct {
	Name   *cIdent   `parser:"@@ \"=\" \"{\""`
	Values []*cIdent `parser:"@@ (\",\" @@)* \"}\""`
}

// cVar's Lo without Hi is an enum type's name (the converter checks that
// it is a bare name).
type cVar struct {
	Name  *cIdent `parser:"@@ \":\""`
	IdxLo *cExpr  `parser:"(\"[\" @@ \"..\""`
	IdxHi *cExpr  `parser:"  @@ \"]\" \"of\")?"`
	Bool  bool    `parser:"( @\"bool\""`
	Lo    *cExpr  `parser:"| @@"`
	Hi    *cExpr  `parser:"  (\"..\" @@)? )"`
	Init  *cExpr  `parser:"(\"=\" @@)?"`
}

type cPred struct {
	Name *cIdent `parser:"@@ \"=\""`
	Cond *cExpr  `parser:"@@"`
}

type cAction struct {
	Label    *cIdent     `parser:"@@"`
	Params   []*cParam   `parser:"( \"(\" @@ (\",\" @@)* \")\""`
	Index    []*cExpr    `parser:"| \"[\" @@ (\",\" @@)* \"]\" )?"`
	For      []*cParam   `parser:"(\"for\" @@ (\",\" @@)*)?"`
	Guard    *cExpr      `parser:"(\"when\" @@)?"`
	Cost     *cExpr      `parser:"(\"cost\" @@)?"`
	Outcomes []*cOutcome `parser:"\"->\" @@ (\"|\" @@)*"`
}

type cParam struct {
	Name *cIdent `parser:"@@ \"in\""`
	Lo   *cExpr  `parser:"@@ \"..\""`
	Hi   *cExpr  `parser:"@@"`
}

// cOutput is an entry of outputs: a label, or a schema's with an index
// whose entries may be *.
type cOutput struct {
	Name  *cIdent   `parser:"@@"`
	Index []*cEntry `parser:"(\"[\" @@ (\",\" @@)* \"]\")?"`
}

type cEntry struct {
	Star bool   `parser:"  @\"*\""`
	Expr *cExpr `parser:"| @@"`
}

type cOutcome struct {
	Pos     lexer.Position
	Weight  *cWeight  `parser:"(@@ \":\")?"`
	Skip    bool      `parser:"( @\"skip\""`
	Assigns []*cAssgn `parser:"| @@ (\",\" @@)* )"`
	EndPos  lexer.Position
}

type cWeight struct {
	Pos lexer.Position
	Num string `parser:"@(Decimal | Int)"`
	Den string `parser:"(\"/\" @Int)?"`
}

type cAssgn struct {
	Pos   lexer.Position
	Each  *cParam `parser:"(\"forall\" @@ \":\")?"`
	Var   *cIdent `parser:"@@"`
	Index *cExpr  `parser:"(\"[\" @@ \"]\")? \"'\" \"=\""`
	Value *cExpr  `parser:"@@"`
}

type cPolicy struct {
	Kind  *cIdent        `parser:"@@"`
	Name  *cIdent        `parser:"@@"`
	File  *cString       `parser:"@@?"`
	When  *cExpr         `parser:"(\"when\" @@)?"`
	Items []*cPolicyItem `parser:"\"{\" @@* \"}\""`
}

type cString struct {
	Pos   lexer.Position
	Value string `parser:"@String"`
}

type cPolicyItem struct {
	Pos       lexer.Position
	Inputs    []*cExpr   `parser:"  \"inputs\" @@ (\",\" @@)*"`
	Outputs   []*cOutput `parser:"| \"outputs\" @@ (\",\" @@)*"`
	Interface *cString   `parser:"| \"interface\" @@"`
	Output    *cString   `parser:"| \"output\" @@"`
	ArgMax    *cIdent    `parser:"| \"argmax\" @@"`
	When      *cExpr     `parser:"| \"when\" @@ \"->\""`
	WhenLabel *cIdent    `parser:"  @@"`
	WhenIdx   []*cExpr   `parser:"  (\"[\" @@ (\",\" @@)* \"]\")?"`
	Otherwise *cIdent    `parser:"| \"otherwise\" \"->\" @@"`
	OtherIdx  []*cExpr   `parser:"  (\"[\" @@ (\",\" @@)* \"]\")?"`
	EndPos    lexer.Position
}

type cProperty struct {
	Name    *cIdent      `parser:"@@ \"{\""`
	Clauses []*cPropItem `parser:"@@* \"}\""`
}

type cPropItem struct {
	Pos  lexer.Position
	Kind string `parser:"@(\"start\" | \"unsafe\" | \"goal\")"`
	Cond *cExpr `parser:"@@"`
}

// Expressions, weakest binding first:
// => (right-assoc), ||, &&, !, comparisons, + -, * /, unary -.

type cExpr struct {
	Pos    lexer.Position
	Left   *cOr   `parser:"@@"`
	Impl   *cExpr `parser:"(\"=>\" @@)?"`
	EndPos lexer.Position
}

type cOr struct {
	Pos    lexer.Position
	Left   *cAnd   `parser:"@@"`
	Rest   []*cAnd `parser:"(\"||\" @@)*"`
	EndPos lexer.Position
}

type cAnd struct {
	Pos    lexer.Position
	Left   *cNot   `parser:"@@"`
	Rest   []*cNot `parser:"(\"&&\" @@)*"`
	EndPos lexer.Position
}

type cNot struct {
	Pos    lexer.Position
	Not    *cNot `parser:"  \"!\" @@"`
	Cmp    *cCmp `parser:"| @@"`
	EndPos lexer.Position
}

type cCmp struct {
	Pos    lexer.Position
	Left   *cSum  `parser:"@@"`
	Op     string `parser:"(@(\"==\" | \"!=\" | \"<=\" | \">=\" | \"<\" | \">\")"`
	Right  *cSum  `parser:"@@)?"`
	EndPos lexer.Position
}

type cSum struct {
	Pos    lexer.Position
	Left   *cProd   `parser:"@@"`
	Rest   []*cSumT `parser:"@@*"`
	EndPos lexer.Position
}

type cSumT struct {
	Op    string `parser:"@(\"+\" | \"-\")"`
	Right *cProd `parser:"@@"`
}

type cProd struct {
	Pos    lexer.Position
	Left   *cUnary   `parser:"@@"`
	Rest   []*cProdT `parser:"@@*"`
	EndPos lexer.Position
}

type cProdT struct {
	Op    string  `parser:"@(\"*\" | \"/\")"`
	Right *cUnary `parser:"@@"`
}

type cUnary struct {
	Pos    lexer.Position
	Neg    *cUnary   `parser:"  \"-\" @@"`
	Prim   *cPrimary `parser:"| @@"`
	EndPos lexer.Position
}

type cPrimary struct {
	Pos     lexer.Position
	Decimal *string  `parser:"  @Decimal"`
	Int     *string  `parser:"| @Int"`
	True    bool     `parser:"| @\"true\""`
	False   bool     `parser:"| @\"false\""`
	Paren   *cExpr   `parser:"| \"(\" @@ \")\""`
	Fn      string   `parser:"| @(\"min\" | \"max\" | \"abs\") \"(\""`
	FnArgs  []*cExpr `parser:"  @@ (\",\" @@)* \")\""`
	Quant   string   `parser:"| @(\"forall\" | \"exists\" | \"sum\" | \"count\") (?! \"model\" | \"import\" | \"as\" | \"const\" | \"type\" | \"var\" | \"bool\" | \"pred\" | \"action\" | \"when\" | \"skip\" | \"policy\" | \"nn\" | \"trees\" | \"rules\" | \"table\" | \"inputs\" | \"outputs\" | \"interface\" | \"otherwise\" | \"property\" | \"start\" | \"unsafe\" | \"goal\" | \"true\" | \"false\" | \"min\" | \"max\" | \"abs\" | \"if\" | \"then\" | \"else\")"`
	QVar    *cIdent  `parser:"  @@ \"in\""`
	QLo     *cExpr   `parser:"  @@ \"..\""`
	QHi     *cExpr   `parser:"  @@ \":\""`
	QBody   *cExpr   `parser:"  @@"`
	If      *cExpr   `parser:"| \"if\" @@"`
	Then    *cExpr   `parser:"  \"then\" @@"`
	Else    *cExpr   `parser:"  \"else\" @@"`
	Array   []*cExpr `parser:"| \"[\" @@ (\",\" @@)* \"]\""`
	Name    *string  `parser:"| @Ident"`
	Index   *cExpr   `parser:"  (\"[\" @@ \"]\")?"`
	EndPos  lexer.Position
}

var refParser = participle.MustBuild[cFile](
	participle.Lexer(specLexer),
	participle.Elide("Whitespace", "Comment"),
	participle.Unquote("String"),
	participle.UseLookahead(2),
)

// converter turns participle's tree into the AST.
type converter struct {
	path string
	err  error // a parse the grammar accepts but the language does not
}

func (c *converter) pos(p lexer.Position) symbolic.Pos {
	return symbolic.Pos{File: c.path, Line: p.Line, Col: p.Column}
}

func (c *converter) ident(i *cIdent) Ident {
	if i == nil {
		return Ident{}
	}
	return Ident{Name: i.Name, Pos: c.pos(i.Pos)}
}

func (c *converter) file(cf *cFile) []Decl {
	var out []Decl
	for _, d := range cf.Decls {
		sp := span{Start: c.pos(d.Pos), End: c.pos(d.EndPos)}
		switch {
		case d.Model != nil:
			out = append(out, &ModelDecl{Span: sp, Name: c.ident(d.Model.Name)})
		case d.Import != nil:
			imp := &ImportDecl{Span: sp, Path: d.Import.Path, PathPos: c.pos(d.Import.Pos)}
			if d.Import.As != nil {
				id := c.ident(d.Import.As)
				imp.As = &id
			}
			out = append(out, imp)
		case d.Const != nil:
			out = append(out, &ConstDecl{Span: sp, Name: c.ident(d.Const.Name), Value: c.expr(d.Const.Value)})
		case d.Var != nil:
			v := &VarDecl{Span: sp, Name: c.ident(d.Var.Name), Bool: d.Var.Bool, Init: c.expr(d.Var.Init), IdxLo: c.expr(d.Var.IdxLo), IdxHi: c.expr(d.Var.IdxHi)}
			switch {
			case v.Bool:
			case d.Var.Hi != nil:
				v.Lo, v.Hi = c.expr(d.Var.Lo), c.expr(d.Var.Hi)
			default:
				lo := c.expr(d.Var.Lo)
				if lo.Kind != EName {
					c.err = fmt.Errorf("%s: a range LO .. HI or an enum type's name after var %s :", c.pos(d.Pos), v.Name.Name)
				}
				v.Type = &Ident{Name: lo.Text, Pos: lo.Pos}
			}
			out = append(out, v)
		case d.Type != nil:
			t := &TypeDecl{Span: sp, Name: c.ident(d.Type.Name)}
			for _, v := range d.Type.Values {
				t.Values = append(t.Values, c.ident(v))
			}
			out = append(out, t)
		case d.Pred != nil:
			out = append(out, &PredDecl{Span: sp, Name: c.ident(d.Pred.Name), Cond: c.expr(d.Pred.Cond)})
		case d.Action != nil:
			a := &ActionDecl{Span: sp, Label: c.ident(d.Action.Label), Guard: c.expr(d.Action.Guard), Cost: c.expr(d.Action.Cost)}
			for _, pm := range d.Action.Params {
				a.Params = append(a.Params, &Param{Name: c.ident(pm.Name), Lo: c.expr(pm.Lo), Hi: c.expr(pm.Hi)})
			}
			for _, pm := range d.Action.For {
				a.For = append(a.For, &Param{Name: c.ident(pm.Name), Lo: c.expr(pm.Lo), Hi: c.expr(pm.Hi)})
			}
			for _, e := range d.Action.Index {
				a.Index = append(a.Index, c.expr(e))
			}
			for _, o := range d.Action.Outcomes {
				on := &OutcomeNode{Span: span{Start: c.pos(o.Pos), End: c.pos(o.EndPos)}, Skip: o.Skip}
				if o.Weight != nil {
					on.Weight = o.Weight.Num
					if o.Weight.Den != "" {
						on.Weight += "/" + o.Weight.Den
					}
					on.WeightPos = c.pos(o.Weight.Pos)
				}
				for _, as := range o.Assigns {
					an := &AssignNode{Pos: c.pos(as.Pos), Var: c.ident(as.Var), Value: c.expr(as.Value), Index: c.expr(as.Index)}
					if as.Each != nil {
						an.Each = &Param{Name: c.ident(as.Each.Name), Lo: c.expr(as.Each.Lo), Hi: c.expr(as.Each.Hi)}
					}
					on.Assigns = append(on.Assigns, an)
				}
				a.Outcomes = append(a.Outcomes, on)
			}
			out = append(out, a)
		case d.Policy != nil:
			p := &PolicyDecl{Span: sp, Kind: c.ident(d.Policy.Kind), Name: c.ident(d.Policy.Name), When: c.expr(d.Policy.When)}
			if d.Policy.File != nil {
				p.File, p.FilePos, p.HasFile = d.Policy.File.Value, c.pos(d.Policy.File.Pos), true
			}
			for _, it := range d.Policy.Items {
				pi := &PolicyItem{Span: span{Start: c.pos(it.Pos), End: c.pos(it.EndPos)}}
				switch {
				case it.Inputs != nil:
					pi.Kind = ItemInputs
					for _, e := range it.Inputs {
						pi.Inputs = append(pi.Inputs, c.expr(e))
					}
				case it.Outputs != nil:
					pi.Kind = ItemOutputs
					indexed := false
					for _, o := range it.Outputs {
						pi.Outputs = append(pi.Outputs, c.ident(o.Name))
						indexed = indexed || o.Index != nil
					}
					for _, o := range it.Outputs {
						if !indexed {
							break
						}
						var idx []*Expr
						for _, en := range o.Index {
							idx = append(idx, c.expr(en.Expr)) // nil for *
						}
						pi.OutputIdx = append(pi.OutputIdx, idx)
					}
				case it.Interface != nil:
					pi.Kind = ItemInterface
					pi.Interface, pi.IfacePos = it.Interface.Value, c.pos(it.Interface.Pos)
				case it.Output != nil:
					pi.Kind = ItemOutput
					pi.Output, pi.OutputPos = it.Output.Value, c.pos(it.Output.Pos)
				case it.ArgMax != nil:
					pi.Kind = ItemArgMax
					pi.Reading = c.ident(it.ArgMax)
				case it.When != nil:
					pi.Kind = ItemWhen
					pi.When, pi.Label = c.expr(it.When), c.ident(it.WhenLabel)
					for _, e := range it.WhenIdx {
						pi.LabelIdx = append(pi.LabelIdx, c.expr(e))
					}
				default:
					pi.Kind = ItemOtherwise
					pi.Label = c.ident(it.Otherwise)
					for _, e := range it.OtherIdx {
						pi.LabelIdx = append(pi.LabelIdx, c.expr(e))
					}
				}
				p.Items = append(p.Items, pi)
			}
			out = append(out, p)
		case d.Property != nil:
			p := &PropertyDecl{Span: sp, Name: c.ident(d.Property.Name)}
			for _, cl := range d.Property.Clauses {
				p.Clauses = append(p.Clauses, &PropClause{Span: span{Start: c.pos(cl.Pos), End: c.pos(cl.Cond.EndPos)}, Kind: cl.Kind, Cond: c.expr(cl.Cond)})
			}
			out = append(out, p)
		}
	}
	return out
}

func (c *converter) node(k ExprKind, op string, start, end lexer.Position, args ...*Expr) *Expr {
	return &Expr{Kind: k, Op: op, Args: args, Pos: c.pos(start), End: c.pos(end)}
}

func (c *converter) expr(e *cExpr) *Expr {
	if e == nil {
		return nil
	}
	l := c.or(e.Left)
	if e.Impl == nil {
		return l
	}
	return c.node(EBin, "=>", e.Pos, e.EndPos, l, c.expr(e.Impl))
}

func (c *converter) or(e *cOr) *Expr {
	x := c.and(e.Left)
	for _, r := range e.Rest {
		y := c.and(r)
		x = &Expr{Kind: EBin, Op: "||", Args: []*Expr{x, y}, Pos: x.Pos, End: y.End}
	}
	return x
}

func (c *converter) and(e *cAnd) *Expr {
	x := c.not(e.Left)
	for _, r := range e.Rest {
		y := c.not(r)
		x = &Expr{Kind: EBin, Op: "&&", Args: []*Expr{x, y}, Pos: x.Pos, End: y.End}
	}
	return x
}

func (c *converter) not(e *cNot) *Expr {
	if e.Not != nil {
		return c.node(ENot, "!", e.Pos, e.EndPos, c.not(e.Not))
	}
	return c.cmp(e.Cmp)
}

func (c *converter) cmp(e *cCmp) *Expr {
	l := c.sum(e.Left)
	if e.Op == "" {
		return l
	}
	r := c.sum(e.Right)
	return &Expr{Kind: EBin, Op: e.Op, Args: []*Expr{l, r}, Pos: l.Pos, End: r.End}
}

func (c *converter) sum(e *cSum) *Expr {
	x := c.prod(e.Left)
	for _, r := range e.Rest {
		y := c.prod(r.Right)
		x = &Expr{Kind: EBin, Op: r.Op, Args: []*Expr{x, y}, Pos: x.Pos, End: y.End}
	}
	return x
}

func (c *converter) prod(e *cProd) *Expr {
	x := c.unary(e.Left)
	for _, r := range e.Rest {
		y := c.unary(r.Right)
		x = &Expr{Kind: EBin, Op: r.Op, Args: []*Expr{x, y}, Pos: x.Pos, End: y.End}
	}
	return x
}

func (c *converter) unary(e *cUnary) *Expr {
	if e.Neg != nil {
		return c.node(ENeg, "-", e.Pos, e.EndPos, c.unary(e.Neg))
	}
	return c.primary(e.Prim)
}

func (c *converter) primary(p *cPrimary) *Expr {
	n := c.node(EInt, "", p.Pos, p.EndPos)
	switch {
	case p.Decimal != nil:
		n.Kind, n.Text = EDec, *p.Decimal
	case p.Int != nil:
		n.Text = *p.Int
	case p.True:
		n.Kind, n.Text = EBool, "true"
	case p.False:
		n.Kind, n.Text = EBool, "false"
	case p.Paren != nil:
		n.Kind, n.Args = EParen, []*Expr{c.expr(p.Paren)}
	case p.Fn != "":
		n.Kind, n.Op = ECall, p.Fn
		for _, a := range p.FnArgs {
			n.Args = append(n.Args, c.expr(a))
		}
	case p.Quant != "":
		v := c.ident(p.QVar)
		end := v.Pos
		end.Col += len(v.Name)
		name := &Expr{Kind: EName, Text: v.Name, Pos: v.Pos, End: end}
		n.Kind, n.Op, n.Args = EQuant, p.Quant, []*Expr{name, c.expr(p.QLo), c.expr(p.QHi), c.expr(p.QBody)}
	case p.If != nil:
		n.Kind, n.Args = EIf, []*Expr{c.expr(p.If), c.expr(p.Then), c.expr(p.Else)}
	case p.Array != nil:
		n.Kind = EArray
		for _, a := range p.Array {
			n.Args = append(n.Args, c.expr(a))
		}
	case p.Name != nil && *p.Name == "if" && c.err == nil:
		// participle backtracks from an if-expression it cannot finish
		// to the name "if"; the parser commits to the expression (and
		// no keyword is a name).
		c.err = fmt.Errorf("%s: an if-expression without its condition, then and else", c.pos(p.Pos))
	case p.Name != nil && p.Index != nil:
		n.Kind, n.Text, n.Args = EIndex, *p.Name, []*Expr{c.expr(p.Index)}
	case p.Name != nil:
		n.Kind, n.Text = EName, *p.Name
	}
	return n
}

// refParse is Parse with the participle grammar: the declarations only.
func refParse(path string, src []byte) ([]Decl, error) {
	// What the lexical structure refuses before any token (lang/spec.md):
	// NUL, invalid UTF-8, a carriage return without a line feed, and the
	// characters that change an editor's layout.
	if bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src) || bytes.Contains(bytes.ReplaceAll(src, []byte("\r\n"), nil), []byte("\r")) ||
		strings.ContainsAny(string(src), "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029") {
		return nil, fmt.Errorf("%s: refused before lexing", path)
	}
	cst, err := refParser.ParseBytes(path, src)
	if err != nil {
		return nil, err
	}
	c := &converter{path: path}
	decls := c.file(cst)
	if c.err != nil {
		return nil, c.err
	}
	return decls, nil
}

// parserInputs: every shipped spec, every golden input and every chunk of
// the error files.
func parserInputs(t testing.TB) map[string][]byte {
	in := map[string][]byte{}
	for _, file := range specFiles(t) {
		src, _ := os.ReadFile(file)
		in[file] = src
	}
	goldens, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, g := range goldens {
		ar, _ := txtar.ParseFile(g)
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".spec") {
				in[g+"/"+f.Name] = f.Data
			}
		}
	}
	errs, _ := filepath.Glob("testdata/errors/*.spec")
	for _, e := range errs {
		src, _ := os.ReadFile(e)
		for i, chunk := range strings.Split(string(src), "\n---\n") {
			in[fmt.Sprintf("%s#%d", e, i)] = []byte(chunk)
		}
	}
	return in
}

// TestParserMatchesGrammar: the hand-written parser accepts what the
// participle grammar accepts, with the same tree and positions, and
// rejects what it rejects.
func TestParserMatchesGrammar(t *testing.T) {
	for name, src := range parserInputs(t) {
		compareParsers(t, name, src)
	}
}

func compareParsers(t *testing.T, name string, src []byte) {
	t.Helper()
	// the parser skips a byte-order mark at the start (no column), which
	// the grammar never knew
	want, werr := refParse(name, bytes.TrimPrefix(src, []byte("\ufeff")))
	f, diags := Parse(name, src)
	switch {
	case werr != nil && f == nil:
		return
	case werr != nil:
		t.Errorf("%s: the grammar rejects (%v), the parser accepts", name, werr)
		return
	case f == nil:
		t.Errorf("%s: the grammar accepts, the parser rejects: %s", name, diags.Render())
		return
	}
	if len(f.Decls) != len(want) {
		t.Errorf("%s: %d declarations, the grammar has %d", name, len(f.Decls), len(want))
		return
	}
	for i := range want {
		// JSON shows every exported field and skips the parser's private
		// depth bookkeeping.
		g, _ := json.Marshal(f.Decls[i])
		w, _ := json.Marshal(want[i])
		if !bytes.Equal(g, w) {
			k := 0
			for k < min(len(g), len(w)) && g[k] == w[k] {
				k++
			}
			t.Errorf("%s: declaration %d differs at byte %d:\nparser:  ...%s\ngrammar: ...%s", name, i, k, g[max(k-200, 0):min(k+100, len(g))], w[max(k-200, 0):min(k+100, len(w))])
			return
		}
	}
}

// FuzzParserMatchesGrammar compares the two parsers on fuzzed text.
func FuzzParserMatchesGrammar(f *testing.F) {
	for _, src := range parserInputs(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if bytes.IndexByte(src, 0) >= 0 || !utf8.Valid(src) || len(src) > 1500 || strings.Contains(string(src), "/*") ||
			bytes.Contains(bytes.ReplaceAll(src, []byte("\r\n"), nil), []byte("\r")) || strings.ContainsAny(string(src), "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029") {
			// NUL, invalid UTF-8, a carriage return without a line feed
			// and layout controls are refused before parsing (the grammar took them inside
			// comments); deep (long) or unterminated input only by the
			// new parser
			return
		}
		compareParsers(t, "fuzz.spec", src)
	})
}

// constants writes n lines of constant declarations, each in terms of the
// one before (a file vigil check accepts).
func constants(n int) []byte {
	var b bytes.Buffer
	b.WriteString("model m\nvar x : 0 .. 3 = 0\naction a -> x' = 0\nconst c0 = 1\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "const c%d = %d * 2 + (c%d - 1)\n", i, i, i-1)
	}
	return b.Bytes()
}

// cpuSeconds is the CPU time of the process so far, user and system: on a
// shared machine a better measure of work than the wall clock (the
// garbage collector's threads count too).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// reportCPU adds the throughput per CPU second, cpu-MB/s, to b's results.
func reportCPU(b *testing.B, start float64, bytes int) {
	if cpu := cpuSeconds() - start; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/cpu, "cpu-MB/s")
	}
}

// BenchmarkParse measures the parser against the participle grammar it
// replaced on 10,000 and 100,000 lines of constants, on generated actions
// and on the shipped specs (each parsed as its own file); the hand-written
// parser also on a million lines, where the grammar takes minutes:
//
//	go test ./lang -run '^$' -bench 'BenchmarkParse/' -benchmem
//
// lang/FIGURES.md has the figures.
func BenchmarkParse(b *testing.B) {
	type input struct {
		name string
		srcs [][]byte
	}
	var specs [][]byte
	for _, f := range specFiles(b) {
		src, _ := os.ReadFile(f)
		specs = append(specs, src)
	}
	inputs := []input{
		{"constants-10k", [][]byte{constants(10000)}},
		{"constants-100k", [][]byte{constants(100000)}},
		{"constants-1M", [][]byte{constants(1000000)}},
		{"actions-10k", [][]byte{genSpec(200, 10000)}},
		{"specs", specs},
	}
	for _, in := range inputs {
		n := 0
		for _, src := range in.srcs {
			n += len(src)
		}
		b.Run(in.name+"/handwritten", func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			start := cpuSeconds()
			for i := 0; i < b.N; i++ {
				for _, src := range in.srcs {
					if f, d := Parse("big.spec", src); f == nil {
						b.Fatal(d.Render())
					}
				}
			}
			reportCPU(b, start, n)
		})
		if in.name == "constants-1M" {
			continue
		}
		b.Run(in.name+"/participle", func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			start := cpuSeconds()
			for i := 0; i < b.N; i++ {
				for _, src := range in.srcs {
					if _, err := refParse("big.spec", src); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportCPU(b, start, n)
		})
	}
}

// BenchmarkCheckConstants is what vigil check does with the constants:
// parse, check and lower.
//
//	go test ./lang -run '^$' -bench 'BenchmarkCheckConstants/' -benchmem
func BenchmarkCheckConstants(b *testing.B) {
	for _, n := range []int{10000, 100000, 1000000} {
		src := constants(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			start := cpuSeconds()
			for i := 0; i < b.N; i++ {
				if m, d := LoadSource("big.spec", src, Options{}); m == nil {
					b.Fatal(d.Render())
				}
			}
			reportCPU(b, start, len(src))
		})
	}
}
