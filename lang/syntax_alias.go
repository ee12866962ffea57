package lang

// The syntax of .spec files lives in package lang/syntax; these names keep
// lang's API (and the checker's code) as it was.

import (
	"strconv"

	"vigil/lang/syntax"
)

// The syntax tree (see package syntax).
type (
	File           = syntax.File
	Comment        = syntax.Comment
	Ident          = syntax.Ident
	Decl           = syntax.Decl
	ModelDecl      = syntax.ModelDecl
	ImportDecl     = syntax.ImportDecl
	ConstDecl      = syntax.ConstDecl
	VarDecl        = syntax.VarDecl
	TypeDecl       = syntax.TypeDecl
	PredDecl       = syntax.PredDecl
	ActionDecl     = syntax.ActionDecl
	Param          = syntax.Param
	OutcomeNode    = syntax.OutcomeNode
	AssignNode     = syntax.AssignNode
	PolicyDecl     = syntax.PolicyDecl
	PolicyItemKind = syntax.PolicyItemKind
	PolicyItem     = syntax.PolicyItem
	PropertyDecl   = syntax.PropertyDecl
	PropClause     = syntax.PropClause
	ExprKind       = syntax.ExprKind
	Expr           = syntax.Expr
	span           = syntax.Span
)

// Diagnostics (see package syntax).
type (
	Severity    = syntax.Severity
	Diagnostic  = syntax.Diagnostic
	Diagnostics = syntax.Diagnostics
)

// The kinds of policy body lines.
const (
	ItemInputs    = syntax.ItemInputs
	ItemOutputs   = syntax.ItemOutputs
	ItemInterface = syntax.ItemInterface
	ItemWhen      = syntax.ItemWhen
	ItemOtherwise = syntax.ItemOtherwise
	ItemArgMax    = syntax.ItemArgMax
	ItemOutput    = syntax.ItemOutput
)

// The kinds of expressions.
const (
	EInt   = syntax.EInt
	EDec   = syntax.EDec
	EBool  = syntax.EBool
	EName  = syntax.EName
	ENeg   = syntax.ENeg
	ENot   = syntax.ENot
	EBin   = syntax.EBin
	ECall  = syntax.ECall
	EIf    = syntax.EIf
	EParen = syntax.EParen
	EQuant = syntax.EQuant
	EIndex = syntax.EIndex
	EArray = syntax.EArray
	EDead  = syntax.EDead
)

// Severities, and limits of the syntax.
const (
	Error     = syntax.Error
	Warning   = syntax.Warning
	MaxErrors = syntax.MaxErrors
	MaxDepth  = syntax.MaxDepth
)

// Parse parses one .spec file (syntax.Parse).
func Parse(path string, src []byte) (*File, Diagnostics) { return syntax.Parse(path, src) }

// Format formats .spec source canonically (syntax.Format).
func Format(path string, src []byte) ([]byte, Diagnostics) { return syntax.Format(path, src) }

// FormatFile formats a parsed file (syntax.FormatFile).
func FormatFile(f *File) []byte { return syntax.FormatFile(f) }

func quote(s string) string { return strconv.Quote(s) }

func exprString(e *Expr) string       { return syntax.ExprString(e) }
func actionHead(d *ActionDecl) string { return syntax.ActionHead(d) }

// memo is what the checker noted on e (check.go).
func memo(e *Expr) info {
	return info{val: e.Memo.Val, t: typ(e.Memo.T), konst: e.Memo.Konst, dead: e.Memo.Dead}
}
