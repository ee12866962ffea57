package lang

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
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
	{Name: "Punct", Pattern: `=>|->|==|!=|<=|>=|&&|\|\||\.\.|[-+*/(),:=<>!|{}']`},
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

type cVar struct {
	Name *cIdent `parser:"@@ \":\""`
	Bool bool    `parser:"( @\"bool\""`
	Lo   *cExpr  `parser:"| @@ \"..\""`
	Hi   *cExpr  `parser:"  @@ )"`
	Init *cExpr  `parser:"(\"=\" @@)?"`
}

type cPred struct {
	Name *cIdent `parser:"@@ \"=\""`
	Cond *cExpr  `parser:"@@"`
}

type cAction struct {
	Label    *cIdent     `parser:"@@"`
	Guard    *cExpr      `parser:"(\"when\" @@)?"`
	Outcomes []*cOutcome `parser:"\"->\" @@ (\"|\" @@)*"`
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
	Var   *cIdent `parser:"@@ \"'\" \"=\""`
	Value *cExpr  `parser:"@@"`
}

type cPolicy struct {
	Kind  *cIdent        `parser:"@@"`
	Name  *cIdent        `parser:"@@"`
	File  *cString       `parser:"@@?"`
	Items []*cPolicyItem `parser:"\"{\" @@* \"}\""`
}

type cString struct {
	Pos   lexer.Position
	Value string `parser:"@String"`
}

type cPolicyItem struct {
	Pos       lexer.Position
	Inputs    []*cExpr  `parser:"  \"inputs\" @@ (\",\" @@)*"`
	Outputs   []*cIdent `parser:"| \"outputs\" @@ (\",\" @@)*"`
	Interface *cString  `parser:"| \"interface\" @@"`
	When      *cExpr    `parser:"| \"when\" @@ \"->\""`
	WhenLabel *cIdent   `parser:"  @@"`
	Otherwise *cIdent   `parser:"| \"otherwise\" \"->\" @@"`
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
	If      *cExpr   `parser:"| \"if\" @@"`
	Then    *cExpr   `parser:"  \"then\" @@"`
	Else    *cExpr   `parser:"  \"else\" @@"`
	Name    *string  `parser:"| @Ident"`
	EndPos  lexer.Position
}

var parser = participle.MustBuild[cFile](
	participle.Lexer(specLexer),
	participle.Elide("Whitespace", "Comment"),
	participle.Unquote("String"),
	participle.UseLookahead(2),
)
