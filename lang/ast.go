package lang

import (
	"strings"

	"github.com/alecthomas/participle/v2/lexer"

	"vigil/symbolic"
)

// The AST: what the checker, the formatter and the lowering work on. It is
// built from participle's concrete tree by toAST and is disposable: nothing
// outside lang sees it.

// File is one parsed .spec file.
type File struct {
	Path     string
	Src      []byte
	Lines    []string
	Decls    []Decl
	Comments []Comment
}

// Comment is a `//` or `/* */` comment with its position.
type Comment struct {
	Pos  symbolic.Pos
	Text string
	// EndLine is the line the comment ends on (block comments may span).
	EndLine int
}

// Ident is a name with its position.
type Ident struct {
	Name string
	Pos  symbolic.Pos
}

// Decl is one top-level declaration.
type Decl interface {
	declPos() (start, end symbolic.Pos)
}

type span struct{ Start, End symbolic.Pos }

func (s span) declPos() (symbolic.Pos, symbolic.Pos) { return s.Start, s.End }

type ModelDecl struct {
	span
	Name Ident
}

type ImportDecl struct {
	span
	Path    string
	PathPos symbolic.Pos
	As      *Ident
}

type ConstDecl struct {
	span
	Name  Ident
	Value *Expr
}

type VarDecl struct {
	span
	Name   Ident
	Bool   bool
	Lo, Hi *Expr
	Init   *Expr
}

type PredDecl struct {
	span
	Name Ident
	Cond *Expr
}

type ActionDecl struct {
	span
	Label    Ident
	Guard    *Expr
	Outcomes []*OutcomeNode
}

// OutcomeNode is one `[w:] x' = e, ...` or `skip`.
type OutcomeNode struct {
	span
	Weight    string // as written, "" if none ("0.5", "1/3", "2")
	WeightPos symbolic.Pos
	Skip      bool
	Assigns   []*AssignNode
}

type AssignNode struct {
	Pos   symbolic.Pos
	Var   Ident
	Value *Expr
}

type PolicyDecl struct {
	span
	Kind    Ident
	Name    Ident
	File    string
	FilePos symbolic.Pos
	HasFile bool
	Items   []*PolicyItem
}

// PolicyItemKind tells which body line a PolicyItem is.
type PolicyItemKind int

const (
	ItemInputs PolicyItemKind = iota
	ItemOutputs
	ItemInterface
	ItemWhen
	ItemOtherwise
)

type PolicyItem struct {
	span
	Kind      PolicyItemKind
	Inputs    []*Expr
	Outputs   []Ident
	Interface string
	IfacePos  symbolic.Pos
	When      *Expr
	Label     Ident
}

type PropertyDecl struct {
	span
	Name    Ident
	Clauses []*PropClause
}

type PropClause struct {
	span
	Kind string // start, unsafe, goal
	Cond *Expr
}

// ExprKind tags an expression node. Integer expressions and conditions
// share one syntax; the type checker tells them apart.
type ExprKind int

const (
	EInt   ExprKind = iota // Text holds the digits
	EDec                   // Text holds the decimal literal
	EBool                  // Text is "true" or "false"
	EName                  // Text is the name
	ENeg                   // -Args[0]
	ENot                   // !Args[0]
	EBin                   // Args[0] Op Args[1]
	ECall                  // Op(Args...) with Op min, max or abs
	EIf                    // if Args[0] then Args[1] else Args[2]
	EParen                 // (Args[0])
)

// Expr is an expression node.
type Expr struct {
	Kind ExprKind
	Op   string
	Text string
	Args []*Expr
	Pos  symbolic.Pos
	End  symbolic.Pos // position just after the node
}

// converter turns participle's tree into the AST.
type converter struct{ path string }

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
		sp := span{c.pos(d.Pos), c.pos(d.EndPos)}
		switch {
		case d.Model != nil:
			out = append(out, &ModelDecl{sp, c.ident(d.Model.Name)})
		case d.Import != nil:
			imp := &ImportDecl{span: sp, Path: d.Import.Path, PathPos: c.pos(d.Import.Pos)}
			if d.Import.As != nil {
				id := c.ident(d.Import.As)
				imp.As = &id
			}
			out = append(out, imp)
		case d.Const != nil:
			out = append(out, &ConstDecl{sp, c.ident(d.Const.Name), c.expr(d.Const.Value)})
		case d.Var != nil:
			v := &VarDecl{span: sp, Name: c.ident(d.Var.Name), Bool: d.Var.Bool, Init: c.expr(d.Var.Init)}
			if !v.Bool {
				v.Lo, v.Hi = c.expr(d.Var.Lo), c.expr(d.Var.Hi)
			}
			out = append(out, v)
		case d.Pred != nil:
			out = append(out, &PredDecl{sp, c.ident(d.Pred.Name), c.expr(d.Pred.Cond)})
		case d.Action != nil:
			a := &ActionDecl{span: sp, Label: c.ident(d.Action.Label), Guard: c.expr(d.Action.Guard)}
			for _, o := range d.Action.Outcomes {
				on := &OutcomeNode{span: span{c.pos(o.Pos), c.pos(o.EndPos)}, Skip: o.Skip}
				if o.Weight != nil {
					on.Weight = o.Weight.Num
					if o.Weight.Den != "" {
						on.Weight += "/" + o.Weight.Den
					}
					on.WeightPos = c.pos(o.Weight.Pos)
				}
				for _, as := range o.Assigns {
					on.Assigns = append(on.Assigns, &AssignNode{Pos: c.pos(as.Pos), Var: c.ident(as.Var), Value: c.expr(as.Value)})
				}
				a.Outcomes = append(a.Outcomes, on)
			}
			out = append(out, a)
		case d.Policy != nil:
			p := &PolicyDecl{span: sp, Kind: c.ident(d.Policy.Kind), Name: c.ident(d.Policy.Name)}
			if d.Policy.File != nil {
				p.File, p.FilePos, p.HasFile = d.Policy.File.Value, c.pos(d.Policy.File.Pos), true
			}
			for _, it := range d.Policy.Items {
				pi := &PolicyItem{span: span{c.pos(it.Pos), c.pos(it.EndPos)}}
				switch {
				case it.Inputs != nil:
					pi.Kind = ItemInputs
					for _, e := range it.Inputs {
						pi.Inputs = append(pi.Inputs, c.expr(e))
					}
				case it.Outputs != nil:
					pi.Kind = ItemOutputs
					for _, o := range it.Outputs {
						pi.Outputs = append(pi.Outputs, c.ident(o))
					}
				case it.Interface != nil:
					pi.Kind = ItemInterface
					pi.Interface, pi.IfacePos = it.Interface.Value, c.pos(it.Interface.Pos)
				case it.When != nil:
					pi.Kind = ItemWhen
					pi.When, pi.Label = c.expr(it.When), c.ident(it.WhenLabel)
				default:
					pi.Kind = ItemOtherwise
					pi.Label = c.ident(it.Otherwise)
				}
				p.Items = append(p.Items, pi)
			}
			out = append(out, p)
		case d.Property != nil:
			p := &PropertyDecl{span: sp, Name: c.ident(d.Property.Name)}
			for _, cl := range d.Property.Clauses {
				p.Clauses = append(p.Clauses, &PropClause{span{c.pos(cl.Pos), c.pos(cl.Cond.EndPos)}, cl.Kind, c.expr(cl.Cond)})
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
	case p.If != nil:
		n.Kind, n.Args = EIf, []*Expr{c.expr(p.If), c.expr(p.Then), c.expr(p.Else)}
	case p.Name != nil:
		n.Kind, n.Text = EName, *p.Name
	}
	return n
}

// splitLines splits source text into lines without their line endings.
func splitLines(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	return strings.Split(s, "\n")
}
