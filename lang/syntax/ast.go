package syntax

import (
	"strings"

	"vigil/symbolic"
)

// The AST: what the checker, the formatter and the lowering work on. It is
// built by the parser (parser.go) and is disposable: lang checks and
// lowers it, the formatter prints it, editors index it.

// File is one parsed .spec file.
type File struct {
	Path     string
	Src      []byte
	Lines    []string
	Decls    []Decl
	Comments []Comment

	tokPos []lineCol // where every non-comment token starts, for the formatter
	Quants bool      // the file has a quantifier (lang's quant.go)
	Arrays bool      // the file has an array, an element or an array literal (lang's array.go)
}

// Comment is a `//` or `/* */` comment with its position.
type Comment struct {
	Pos  symbolic.Pos
	Text string
	// EndLine is the line the comment ends on (block comments may Span).
	EndLine int
}

// lineCol is a compact source position within one file.
type lineCol struct{ Line, Col int32 }

// Ident is a name with its position.
type Ident struct {
	Name string
	Pos  symbolic.Pos
}

// Decl is one top-level declaration.
type Decl interface {
	DeclPos() (start, end symbolic.Pos)
}

type Span struct{ Start, End symbolic.Pos }

func (s Span) DeclPos() (symbolic.Pos, symbolic.Pos) { return s.Start, s.End }

type ModelDecl struct {
	Span
	Name Ident
}

type ImportDecl struct {
	Span
	Path    string
	PathPos symbolic.Pos
	As      *Ident
}

type ConstDecl struct {
	Span
	Name  Ident
	Value *Expr
}

type VarDecl struct {
	Span
	Name   Ident
	Bool   bool
	Lo, Hi *Expr
	Init   *Expr
	// Type names the enum type of `var c : color`; the checker gives
	// such a variable the range 0 .. n-1 of its type's n values (lang's enum.go).
	Type *Ident
	// IdxLo and IdxHi are an array's index range, `var on : [0 .. N-1]
	// of 0 .. N`, nil for a scalar; Bool, Lo, Hi and Type are then the
	// elements' type, and Init may be an array literal or an array
	// constant (lang's array.go).
	IdxLo, IdxHi *Expr
}

// TypeDecl is `type NAME = { VALUE, ... }`, an enum type.
type TypeDecl struct {
	Span
	Name   Ident
	Values []Ident
}

type PredDecl struct {
	Span
	Name Ident
	Cond *Expr
}

type ActionDecl struct {
	Span
	Label    Ident
	Guard    *Expr
	Outcomes []*OutcomeNode
	// Params are a schema's parameters, `action move(b in 0 .. N-1)`;
	// Index is a concrete label's, `action move[0]` (lang's schema.go). At most
	// one of them is set.
	Params []*Param
	Index  []*Expr
	// For are the parameters of `action put for k in 1 .. N`, which
	// expand like Params but leave the label as it is: one label, one
	// command per value (lang's schema.go).
	For []*Param
	// Cost is `cost EXPR`, nil when the action has none (cost 1).
	Cost *Expr
}

// Param is one parameter of an action schema: `b in LO .. HI`.
type Param struct {
	Name   Ident
	Lo, Hi *Expr
}

// OutcomeNode is one `[w:] x' = e, ...` or `skip`.
type OutcomeNode struct {
	Span
	Weight    string // as written, "" if none ("0.5", "1/3", "2")
	WeightPos symbolic.Pos
	Skip      bool
	Assigns   []*AssignNode
}

type AssignNode struct {
	Pos   symbolic.Pos
	Var   Ident
	Value *Expr
	// Each is `forall k in LO .. HI: on[k]' = ...`, one assignment per
	// value of k (lang's quant.go); nil for one assignment.
	Each *Param
	// Index is the element of an array assigned, `on[b]' = 0`; nil for
	// a scalar (lang's array.go).
	Index *Expr
}

type PolicyDecl struct {
	Span
	Kind    Ident
	Name    Ident
	File    string
	FilePos symbolic.Pos
	HasFile bool
	Items   []*PolicyItem
	// When is `policy ... when COND { ... }`: the policy exists only
	// where the constant condition holds (for an instance's -D values;
	// policy.go); nil when it always does.
	When *Expr
}

// PolicyItemKind tells which body line a PolicyItem is.
type PolicyItemKind int

const (
	ItemInputs PolicyItemKind = iota
	ItemOutputs
	ItemInterface
	ItemWhen
	ItemOtherwise
	// ItemArgMax is `argmax all` or `argmax applicable` (nn and trees):
	// which outputs the arg-max ranges over; Reading is the word.
	ItemArgMax
	// ItemOutput is `output "NAME"` (nn): the ONNX graph output that
	// holds the scores, in Output (at OutputPos).
	ItemOutput
)

type PolicyItem struct {
	Span
	Kind      PolicyItemKind
	Inputs    []*Expr
	Outputs   []Ident
	Interface string
	IfacePos  symbolic.Pos
	Output    string // ItemOutput's graph output name
	OutputPos symbolic.Pos
	When      *Expr
	Label     Ident
	// OutputIdx[i] is the index list of Outputs[i], `move[*, 2]`, nil
	// when it has none (OutputIdx is nil when no output has one); a nil
	// entry in a list is `*`. LabelIdx is Label's, `-> move[0, 2]`.
	OutputIdx [][]*Expr
	LabelIdx  []*Expr
	// Reading is the word of `argmax WORD` (ItemArgMax), checked by
	// lang: all or applicable.
	Reading Ident
}

type PropertyDecl struct {
	Span
	Name    Ident
	Clauses []*PropClause
}

type PropClause struct {
	Span
	Kind string // start, unsafe, goal
	Cond *Expr
}

// ExprKind tags an expression node. Integer expressions and conditions
// share one syntax; the type checker tells them apart.
type ExprKind uint8

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
	// EQuant is `Op NAME in LO .. HI: BODY` with Op forall, exists, sum or
	// count: Args are the name (an EName), LO, HI and BODY (lang's quant.go).
	EQuant
	// EIndex is `NAME[Args[0]]`, an element of an array variable or
	// constant: Text is the name (lang's array.go).
	EIndex
	// EArray is an array literal `[Args...]`, the value of an array
	// constant or an array's initial value.
	EArray
	// EDead is a read of an array at a constant index outside its range
	// that is never evaluated (lang's array.go, spec.md "Indexing"): Text
	// is the read as written, a[3]; Args[0] is an element of the array,
	// which gives the read its type and never its value. No parse makes
	// one.
	EDead
)

// Expr is an expression node.
type Expr struct {
	Op   string
	Text string
	Args []*Expr
	Pos  symbolic.Pos
	End  symbolic.Pos // position just after the node

	// Memo is the checker's note on the node (package lang): each file is
	// parsed for one checker, which memoises what it learns here.
	Memo   Memo  `json:"-"`
	Height int32 `json:"-"` // of the tree below, 1 for a leaf's parent; bounded by MaxDepth
	Kind   ExprKind
	// Gen marks a comparison the array expansion wrote (index == k): an
	// enum index is compared with its position there (lang's array.go).
	Gen bool `json:"-"`
}

// Memo is what the checker learnt about an expression: its type (T, the
// checker's own numbering), and the value of an integer constant.
type Memo struct {
	Val     int
	T       uint8
	Konst   bool // an integer constant (no variables)
	Checked bool // the checker has filled the memo
	// Dead: the expression is never evaluated (it evaluates an EDead),
	// so it has a type and no value
	Dead bool
}

// SplitLines splits source text into lines without their line endings.
func SplitLines(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	return strings.Split(s, "\n")
}
